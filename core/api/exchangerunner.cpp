#include "core/api/exchangerunner.h"

#include "core/api/responseparser.h"
#include "core/api/sseparser.h"
#include "core/api/thinkinglevels.h"
#include "core/common/humanduration.h"

#include <QUrl>

#include <algorithm>
#include <chrono>
#include <thread>

namespace nb2::apidetail {

namespace {

// Turns a transport failure into a kind and a message that names the fix.
Error transportError(const AttemptOutcome &o, const ClientConfig &config)
{
    const QString base = config.baseUrl;
    switch (o.error) {
    case TransportError::SslServerVerification: {
        const QString reason = o.tlsVerifyResult != 0 && !o.tlsVerifyReason.isEmpty()
            ? o.tlsVerifyReason
            : QStringLiteral("host name mismatch");
        return Error::make(ErrorKind::Tls,
            QStringLiteral("The TLS certificate of %1 could not be verified (%2). Check the base URL; "
                           "for a private CA set the CA bundle path.")
                .arg(base, reason));
    }
    case TransportError::SslConnection:
        return Error::make(ErrorKind::Tls,
            QStringLiteral("The TLS handshake with %1 failed. Check that the base URL "
                           "really serves https.")
                .arg(base));
    case TransportError::SslLoadingCerts:
        return Error::make(ErrorKind::Tls,
            QStringLiteral("The CA certificates could not be loaded from '%1'. Install "
                           "ca-certificates or fix the CA bundle path.")
                .arg(config.caBundlePath.isEmpty() ? QString::fromLatin1(kSystemCaBundle) : config.caBundlePath));
    default:
        break;
    }
    if (o.timedOut) {
        if (o.status == 0 && o.error == TransportError::ConnectionTimeout)
            return Error::make(ErrorKind::Timeout,
                QStringLiteral("Connecting to %1 timed out after %2 s. Check the "
                               "network and the base URL.")
                    .arg(base)
                    .arg(config.connectTimeoutMs / 1000.0));
        return Error::make(ErrorKind::Timeout,
            QStringLiteral("%1 did not answer within %2 s. Try again, or raise the "
                           "read timeout.")
                .arg(base)
                .arg(config.readTimeoutMs / 1000.0));
    }
    if (o.error == TransportError::Connection)
        return Error::make(ErrorKind::Network,
            QStringLiteral("Could not connect to %1. Check the network connection "
                           "and the base URL.")
                .arg(base));
    if (o.status != 0)
        return Error::make(ErrorKind::Network,
            QStringLiteral("The connection to %1 broke while the answer was "
                           "arriving. Try again.")
                .arg(base));
    return Error::make(ErrorKind::Network,
        QStringLiteral("The connection to %1 failed (%2). Check the network and "
                       "try again.")
            .arg(base, o.errorName));
}

// Whether a 400 is about the thinking level: the message says so, or the allowed values it
// lists are all thinking levels (an aspect-ratio list never is).
bool isAboutThinking(const Error &e)
{
    if (e.api.serverMessage.contains(QLatin1String("thinking"), Qt::CaseInsensitive))
        return true;
    static const QStringList known
        = {QStringLiteral("minimal"), QStringLiteral("low"), QStringLiteral("medium"), QStringLiteral("high")};
    if (e.api.allowedValues.isEmpty())
        return false;
    for (const QString &v : e.api.allowedValues) {
        if (!known.contains(v))
            return false;
    }
    return true;
}

} // namespace

void refineError(Error &e, const RequestContext &ctx, const ClientConfig &config)
{
    const TurnRequest *turn = ctx.turn;
    // Server text and ids go in through one multi-argument arg() (or the last one): in a chain
    // of arg() calls a "%1" inside the server's text would be taken for the next placeholder.
    const QString verbatim = e.api.serverMessage.isEmpty() ? QStringLiteral("(no message)")
                                                           : ResponseParser::withoutFinalDot(e.api.serverMessage);
    if (e.kind == ErrorKind::InvalidRequest && turn && !turn->thinkingLevel.isEmpty() && isAboutThinking(e)) {
        const QString level = turn->thinkingLevel.trimmed().toLower();
        if (!e.api.allowedValues.isEmpty()) {
            if (config.thinkingLevels)
                config.thinkingLevels->learn(config.model, e.api.allowedValues);
            e.message
                = QStringLiteral("The server rejected thinking level '%1': %2. Allowed levels for this model: %3.")
                      .arg(level, verbatim, e.api.allowedValues.join(QStringLiteral(", ")));
        } else {
            e.message = QStringLiteral("The server rejected thinking level '%1': %2. Choose another thinking level.")
                            .arg(level, verbatim);
        }
    } else if (e.kind == ErrorKind::InvalidRequest && !e.api.allowedValues.isEmpty()) {
        e.message = QStringLiteral("The server rejected the request: %1. Allowed values: %2.")
                        .arg(verbatim, e.api.allowedValues.join(QStringLiteral(", ")));
    } else if (e.kind == ErrorKind::NotFound) {
        // Say it once: the server's words when they already explain it, ours only for what they leave out.
        const bool saysWhy = verbatim.contains(QLatin1String("expired"), Qt::CaseInsensitive)
            || verbatim.contains(QLatin1String("deleted"), Qt::CaseInsensitive);
        if (turn && turn->kind == TurnKind::Edit
            && !e.api.serverMessage.contains(QLatin1String("model"), Qt::CaseInsensitive)) {
            e.message = QStringLiteral("The previous interaction '%1' is no longer on the server (HTTP %2: %3).%4 "
                                       "Re-send the last image inline (edit-local) to continue.")
                            .arg(turn->previousInteractionId, QString::number(e.api.httpStatus), verbatim,
                                saysWhy ? QString()
                                        : QStringLiteral(" Stored interactions expire (55 days, 1 day on free keys) or "
                                                         "may have been deleted."));
        } else if (turn) {
            e.message = QStringLiteral("Model '%1' or the endpoint was not found (HTTP %2: %3). Check the model name "
                                       "and the base URL.")
                            .arg(config.model, QString::number(e.api.httpStatus), verbatim);
        } else if (verbatim.contains(ctx.interactionId) && saysWhy) {
            e.message = QStringLiteral("%1 (HTTP %2).").arg(verbatim, QString::number(e.api.httpStatus));
        } else {
            e.message = QStringLiteral("Interaction '%1' was not found (HTTP %2: %3).%4")
                            .arg(ctx.interactionId, QString::number(e.api.httpStatus), verbatim,
                                saysWhy ? QString() : QStringLiteral(" It may have expired or been deleted."));
        }
    } else if (e.kind == ErrorKind::Auth && config.apiKey.isEmpty()) {
        e.message = QStringLiteral("The server requires an API key and none was sent (HTTP %1: %2). Set "
                                   "GEMINI_API_KEY (or GOOGLE_API_KEY), or put the key on the first line of "
                                   "~/gemini.key.")
                        .arg(e.api.httpStatus)
                        .arg(verbatim);
    } else if (e.kind == ErrorKind::Auth) {
        e.message = QStringLiteral("The server rejected the API key (HTTP %1: %2). The key came from %3; check it "
                                   "(GEMINI_API_KEY, GOOGLE_API_KEY or ~/gemini.key).")
                        .arg(e.api.httpStatus)
                        .arg(verbatim, config.apiKey.source());
    } else if (e.kind == ErrorKind::TooLarge && turn && e.api.httpStatus == 413) {
        e.message += turn->images.isEmpty()
            ? QStringLiteral(" The request carries no image, only the prompt: shorten the prompt.")
            : QStringLiteral(" Use smaller images, or choose the explicit re-encode option to send them as JPEG.");
    } else if (e.kind == ErrorKind::RateLimited && e.api.retryAfterMs > 0) {
        e.message = QStringLiteral("Rate limited by the server (HTTP 429: %1). Try again in %2.")
                        .arg(verbatim, humanDuration(e.api.retryAfterMs));
    }
}

// The key must never leave in a message, even if a server or proxy echoed it back.
void scrubKey(Error &e, const ClientConfig &config)
{
    const QString key = config.apiKey.value();
    if (key.size() < 4)
        return;
    const QString mask = config.apiKey.masked();
    for (QString *s : {&e.message, &e.api.serverMessage, &e.api.serverCode, &e.api.modelText})
        s->replace(key, mask);
}

Error ExchangeRunner::deadlineError(int attempts, const std::optional<Error> &last) const
{
    // last: the failure of an earlier attempt (what kept it from finishing in time), if any.
    Error e = Error::make(ErrorKind::Timeout,
        QStringLiteral("Gave up after %1 attempt(s): no complete answer within the time limit. Try "
                       "again later, or allow more time (nb2lite --timeout).")
            .arg(attempts));
    if (last && !last->message.isEmpty())
        e.message += QStringLiteral(" Before that: %1").arg(last->message);
    if (last)
        e.api = last->api;
    e.api.attempts = attempts;
    return e;
}

Result<Exchange> ExchangeRunner::run(const std::string &method, const std::string &path, const std::string &body,
    bool stream, StreamAssembler *assembler, int &attempts, bool idempotent, ExchangeTrace *trace)
{
    attempts = 0;
    // The HTTP code: linked in, or (nb2lite-studio) a module loaded after the first frame,
    // which this waits for; when it cannot be loaded the error says which file is missing.
    const Result<const NetBackend *> transport = netBackend();
    if (!transport)
        return transport.error();
    std::optional<Error> last;
    for (int attempt = 0;; ++attempt) {
        if (m_options.cancel && m_options.cancel->isCancelled())
            return Error::make(ErrorKind::Cancelled, QStringLiteral("Cancelled."));
        if (deadlinePassed())
            return deadlineError(attempts, last);

        SseParser parser;
        bool streaming = false;
        ChunkHandler onChunk;
        QByteArray plainBody;
        if (stream && assembler) {
            onChunk = [&](int status, const QString &contentType, const QByteArray &chunk) {
                if (status == 200 && contentType.contains(QLatin1String("text/event-stream"), Qt::CaseInsensitive)) {
                    streaming = true;
                    for (const SseEvent &ev : parser.feed(chunk)) {
                        for (const StreamEvent &se : assembler->feed(ev)) {
                            if (m_options.onEvent)
                                m_options.onEvent(se);
                        }
                        if (assembler->isDone())
                            return false; // everything needed has arrived
                    }
                    return true;
                }
                plainBody.append(chunk);
                return true;
            };
        }

        AttemptOutcome o = transport.value()->attempt(m_config, m_options, method, path, body, stream, onChunk);
        ++attempts;
        if (o.cancelled)
            return Error::make(ErrorKind::Cancelled, QStringLiteral("Cancelled."));
        if (streaming && !o.stoppedByHandler && o.error == TransportError::Success) {
            for (const SseEvent &ev : parser.finish()) {
                for (const StreamEvent &se : assembler->feed(ev)) {
                    if (m_options.onEvent)
                        m_options.onEvent(se);
                }
            }
        }
        if (onChunk && !streaming)
            o.body = plainBody;

        Error error;
        bool retryable = false;
        int serverDelay = -1;
        const bool transportFailed
            = !o.stoppedByHandler && (o.error != TransportError::Success || o.timedOut || o.status == 0);
        if (transportFailed && !(streaming && assembler && assembler->isDone())) {
            // Our own time limit, not the server's failure: say that, not "did not answer in 120 s".
            error = o.deadlineHit ? deadlineError(attempts, last) : transportError(o, m_config);
            // Once any of the answer arrived the interaction exists: re-sending a create would
            // make (and bill) a second one. Only a get of its id may follow.
            const bool began
                = o.status != 0 || !o.body.isEmpty() || streaming || (assembler && assembler->sawAnyEvent());
            retryable
                = (error.kind == ErrorKind::Network || error.kind == ErrorKind::Timeout) && (idempotent || !began);
            if (!idempotent && began) {
                if (trace) {
                    trace->answerBegan = true;
                    trace->partialBody = o.body;
                }
                error.api.httpStatus = o.status;
                error.api.interactionId = assembler && !assembler->interactionId().isEmpty()
                    ? assembler->interactionId()
                    : ResponseParser::salvageInteractionId(o.body);
                error.message += error.api.interactionId.isEmpty()
                    ? QStringLiteral(" The answer had begun, so nothing was sent again (a second request would be "
                                     "billed twice); the server may have made the picture without naming it.")
                    : QStringLiteral(" The answer had begun, so nothing was sent again (a second request would be "
                                     "billed twice); interaction %1 can be fetched when the server has finished it.")
                          .arg(error.api.interactionId);
            }
            if (o.deadlineHit)
                return error;
        } else if (o.status >= 200 && o.status < 300) {
            Exchange ex;
            ex.status = o.status;
            ex.body = o.body;
            ex.streamed = streaming;
            return ex;
        } else {
            error = ResponseParser::parseError(o.status, o.body);
            serverDelay = ResponseParser::parseRetryAfter(o.retryAfter, o.retryAfterMs);
            if (serverDelay < 0)
                serverDelay = error.api.retryAfterMs; // details[].retryDelay in the body
            if (serverDelay >= 0)
                error.api.retryAfterMs = serverDelay;
            retryable = isRetryableStatus(o.status);
        }
        last = error;

        if (!retryable || attempt >= m_config.maxRetries)
            return error;
        if (serverDelay > m_config.maxRateLimitWaitMs) {
            // Too long to sleep on a worker: hand the delay to the caller to schedule. Any
            // status that names a wait (429, or a 503 with Retry-After) is "come back later".
            error.kind = ErrorKind::RateLimited;
            error.message
                = QStringLiteral("%1 The server asks to wait %2, longer than the %3 this client "
                                 "waits by itself; try again later.")
                      .arg(error.message, humanDuration(serverDelay), humanDuration(m_config.maxRateLimitWaitMs));
            return error;
        }
        // The server's hint is a lower bound, never a reason to come back sooner than our own
        // backoff (a Retry-After date in the past, or "0", would otherwise hammer it).
        const int delay = std::max(serverDelay, backoffMs(m_config, attempt));
        if (!m_options.deadline.isForever() && m_options.deadline.remainingTime() < delay)
            return deadlineError(attempts, error); // waiting would end past the limit
        if (m_options.onRetry) {
            RetryNotice notice;
            notice.attempt = attempt + 1;
            notice.maxAttempts = m_config.maxRetries + 1;
            notice.delayMs = delay;
            notice.error = error;
            if (o.status == 429)
                notice.error.kind = ErrorKind::RateLimited; // what a view calls "rate limited"
            m_options.onRetry(notice);
        }
        if (m_options.cancel) {
            if (!m_options.cancel->sleepFor(delay))
                return Error::make(ErrorKind::Cancelled, QStringLiteral("Cancelled."));
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(delay));
        }
    }
}

std::optional<Error> preflight(const ClientConfig &config)
{
    if (const Result<void> transport = checkTransportSecurity(config.baseUrl); !transport)
        return transport.error();
    if (config.apiVersion != QLatin1String("v1") && config.apiVersion != QLatin1String("v1beta"))
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("API version '%1' is not supported; use v1 or v1beta.").arg(config.apiVersion));
    if (config.apiKey.isEmpty()) {
        const QString host = QUrl(config.baseUrl).host();
        if (checkTransportSecurity(QStringLiteral("http://%1/")
                                       .arg(host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host)))
            return std::nullopt; // a local (fake) server may run without a key
        return Error::make(ErrorKind::Auth,
            QStringLiteral("No API key found. Set GEMINI_API_KEY (or GOOGLE_API_KEY), "
                           "or put the key on the first line of ~/gemini.key."));
    }
    return std::nullopt;
}

std::string collectionPath(const ClientConfig &config)
{
    return parseEndpoint(config.baseUrl).pathPrefix + "/" + config.apiVersion.toStdString() + "/interactions";
}

std::string itemPath(const ClientConfig &config, const QString &id)
{
    return collectionPath(config) + "/" + QUrl::toPercentEncoding(id).toStdString();
}

} // namespace nb2::apidetail
