#include "core/api/interactionsclient.h"

#include "core/api/responseparser.h"
#include "core/api/sseparser.h"
#include "core/api/streamassembler.h"
#include "core/api/thinkinglevels.h"
#include "core/common/humanduration.h"

#include <QFileInfo>
#include <QUrl>

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <openssl/x509.h>

#include <chrono>
#include <climits>
#include <csignal>
#include <mutex>
#include <cmath>
#include <random>
#include <thread>

#ifndef NB2_VERSION
#define NB2_VERSION "0.0.0"
#endif

namespace nb2 {

using ordered_json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr auto kSystemCaBundle = "/etc/ssl/certs/ca-certificates.crt";

struct Endpoint {
    std::string schemeHostPort; // what httplib::Client wants
    std::string pathPrefix;     // "" or "/some/prefix"
    QString host;
    bool https = false;
};

Endpoint parseEndpoint(const QString &baseUrl)
{
    const QUrl url(baseUrl.trimmed());
    Endpoint e;
    e.https = url.scheme().toLower() == QLatin1String("https");
    e.host = url.host();
    const int port = url.port(e.https ? 443 : 80);
    const QString host = e.host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(e.host) : e.host;
    e.schemeHostPort = QStringLiteral("%1://%2:%3").arg(e.https ? QStringLiteral("https") : QStringLiteral("http"),
                                                       host).arg(port).toStdString();
    QString path = url.path(QUrl::FullyEncoded);
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    e.pathPrefix = path.toStdString();
    return e;
}

int backoffMs(const ClientConfig &config, int attempt)
{
    thread_local std::mt19937 rng{std::random_device{}()};
    std::uniform_real_distribution<double> jitter(0.0, 1.0);
    const double delay = config.backoffBaseMs * std::pow(2.0, attempt) * (1.0 - jitter(rng) * 0.25);
    return int(std::min<double>(delay, config.backoffCapMs));
}

bool isRetryableStatus(int status)
{
    return status == 408 || status == 409 || status == 429 || status >= 500;
}

// Everything one HTTP attempt produced, seen from the calling thread.
struct AttemptOutcome {
    int status = 0;                 // 0: no response
    QString contentType;
    QString retryAfter;
    QString retryAfterMs;
    QByteArray body;                // unless a chunk handler consumed it
    httplib::Error error = httplib::Error::Success;
    long tlsVerifyResult = 0;
    bool cancelled = false;
    bool timedOut = false;          // our own watchdog or a read that ran into the timeout
    bool stoppedByHandler = false;  // the chunk handler had all it needed
    bool deadlineHit = false;       // CallOptions::deadline passed during the attempt
};

// State shared between the calling thread and the thread that runs the blocking httplib call.
// The calling thread never blocks inside httplib, so a cancel is seen within one wake-up.
struct Transfer {
    std::mutex mutex;
    std::condition_variable cv;
    std::shared_ptr<httplib::Client> client;
    bool headersReady = false;
    int status = 0;
    httplib::Headers headers;
    std::string pending;
    bool finished = false;
    httplib::Error error = httplib::Error::Success;
    long tlsVerifyResult = 0;
    bool cancelled = false;
    bool abandoned = false;
    Clock::time_point lastProgress = Clock::now();
};

// Gives up on a transfer without waiting for it: the blocking call is interrupted by
// stop() (repeated, because stop() before the socket exists is a no-op) and the threads
// clean up on their own once httplib returns.
void abandon(const std::shared_ptr<Transfer> &st, std::thread &worker)
{
    {
        std::lock_guard lock(st->mutex);
        st->abandoned = true;
    }
    worker.detach();
    std::thread([st] {
        std::unique_lock lock(st->mutex);
        while (!st->finished) {
            lock.unlock();
            st->client->stop();
            lock.lock();
            st->cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return st->finished; });
        }
    }).detach();
}

using ChunkHandler = std::function<bool(int status, const QString &contentType, const QByteArray &chunk)>;

struct RequestContext {
    const TurnRequest *turn = nullptr;
    QString interactionId;  // get / remove
    QString operation;      // "create", "get", "delete"
};

/**
 * One HTTP attempt. The blocking httplib call runs on its own thread and hands headers and
 * body chunks over through Transfer; this thread only waits on a condition variable, so a
 * cancel (or a stream handler that has seen the end) ends the attempt at once, in any phase
 * including connect and TLS handshake, which httplib::Client::stop() alone cannot interrupt.
 */
class ClientCall
{
public:
    ClientCall(const ClientConfig &config, const CallOptions &options)
        : m_config(config), m_options(options) {}

    AttemptOutcome attempt(const std::string &method, const std::string &path, const std::string &body,
                           bool stream, const ChunkHandler &onChunk);

private:
    const ClientConfig &m_config;
    const CallOptions &m_options;
};

AttemptOutcome ClientCall::attempt(const std::string &method, const std::string &path,
                                   const std::string &body, bool stream, const ChunkHandler &onChunk)
{
    const Endpoint endpoint = parseEndpoint(m_config.baseUrl);
    auto st = std::make_shared<Transfer>();
    st->client = std::make_shared<httplib::Client>(endpoint.schemeHostPort);
    httplib::Client &cli = *st->client;
    int connectMs = std::max(1, m_config.connectTimeoutMs);
    int readMs = std::max(1, m_config.readTimeoutMs);
    if (!m_options.deadline.isForever()) {
        // No single wait may outlast the whole call's limit.
        const int left = int(std::clamp<qint64>(m_options.deadline.remainingTime(), 1, INT_MAX));
        connectMs = std::min(connectMs, left);
        readMs = std::min(readMs, left);
    }
    cli.set_connection_timeout(std::chrono::milliseconds(connectMs));
    cli.set_read_timeout(std::chrono::milliseconds(readMs));
    cli.set_write_timeout(std::chrono::milliseconds(std::max(readMs, 30'000)));
    cli.set_keep_alive(false);
    cli.set_follow_location(false);
    if (endpoint.https) {
        // Debian's bundle by default; elsewhere OpenSSL's default verify paths (httplib's fallback).
        QString ca = m_config.caBundlePath;
        if (ca.isEmpty() && QFileInfo::exists(QString::fromLatin1(kSystemCaBundle)))
            ca = QString::fromLatin1(kSystemCaBundle);
        if (!ca.isEmpty())
            cli.set_ca_cert_path(QFile::encodeName(ca).toStdString());
        cli.enable_server_certificate_verification(true);
    }

    httplib::Request req;
    req.method = method;
    req.path = path;
    req.body = body;
    req.headers.emplace("Content-Type", "application/json");
    req.headers.emplace("Accept", stream ? "text/event-stream" : "application/json");
    if (!m_config.apiKey.isEmpty())
        req.headers.emplace("x-goog-api-key", m_config.apiKey.value().toStdString());
    req.headers.emplace("User-Agent", "nb2lite-studio/" NB2_VERSION);
    req.response_handler = [st](const httplib::Response &res) {
        std::lock_guard lock(st->mutex);
        st->status = res.status;
        st->headers = res.headers;
        st->headersReady = true;
        st->lastProgress = Clock::now();
        st->cv.notify_all();
        return !st->abandoned;
    };
    req.content_receiver = [st](const char *data, size_t n, uint64_t, uint64_t) {
        std::lock_guard lock(st->mutex);
        if (st->abandoned)
            return false;
        st->pending.append(data, n);
        st->lastProgress = Clock::now();
        st->cv.notify_all();
        return true;
    };

    if (m_options.cancel) {
        m_options.cancel->setAbortHook([st] {
            std::lock_guard lock(st->mutex);
            st->cancelled = true;
            st->cv.notify_all();
        });
    }

    std::thread worker([st, req = std::move(req)]() mutable {
        httplib::Response res;
        httplib::Error err = httplib::Error::Success;
        const bool ok = st->client->send(req, res, err);
        const long verify = st->client->get_openssl_verify_result();
        std::lock_guard lock(st->mutex);
        st->finished = true;
        st->error = ok ? httplib::Error::Success : err;
        st->tlsVerifyResult = verify;
        if (!st->headersReady && ok) {
            st->status = res.status;
            st->headers = res.headers;
            st->headersReady = true;
        }
        st->cv.notify_all();
    });

    AttemptOutcome out;
    bool headersSeen = false;
    auto absorbHeaders = [&] {
        headersSeen = true;
        out.status = st->status;
        auto header = [&](const char *name) {
            const auto it = st->headers.find(name);
            return it == st->headers.end() ? QString() : QString::fromStdString(it->second);
        };
        out.contentType = header("Content-Type");
        out.retryAfter = header("Retry-After");
        out.retryAfterMs = header("retry-after-ms");
    };
    // Backstop in case the socket timeouts do not fire (e.g. a peer that trickles forever
    // is fine, one that says nothing is not).
    const auto silenceLimit = std::chrono::milliseconds(connectMs + readMs + 1000);

    std::unique_lock lock(st->mutex);
    for (;;) {
        st->cv.wait_for(lock, std::chrono::milliseconds(100), [&] {
            return st->finished || st->cancelled || !st->pending.empty() || (st->headersReady && !headersSeen);
        });
        if (st->cancelled) {
            out.cancelled = true;
            break;
        }
        if (st->headersReady && !headersSeen)
            absorbHeaders();
        if (!st->pending.empty()) {
            const QByteArray chunk = QByteArray::fromStdString(std::exchange(st->pending, {}));
            lock.unlock();
            bool more = true;
            if (onChunk)
                more = onChunk(out.status, out.contentType, chunk);
            else
                out.body.append(chunk);
            lock.lock();
            if (!more) {
                out.stoppedByHandler = true;
                break;
            }
            continue;
        }
        if (st->finished)
            break;
        if (Clock::now() - st->lastProgress > silenceLimit) {
            out.timedOut = true;
            break;
        }
        if (!m_options.deadline.isForever() && m_options.deadline.hasExpired()) {
            out.timedOut = true;
            out.deadlineHit = true;
            break;
        }
    }

    const bool finished = st->finished && !out.cancelled && !out.stoppedByHandler && !out.timedOut;
    if (!finished && st->headersReady && !headersSeen)
        absorbHeaders(); // an answer that began counts, even when we stop waiting for the rest
    if (finished) {
        out.error = st->error;
        out.tlsVerifyResult = st->tlsVerifyResult;
        if (st->error == httplib::Error::Read || st->error == httplib::Error::ConnectionTimeout) {
            // httplib reports a read timeout as a plain read error; the clock tells them apart.
            if (Clock::now() - st->lastProgress >= std::chrono::milliseconds(readMs - readMs / 10)
                || st->error == httplib::Error::ConnectionTimeout)
                out.timedOut = true;
        }
        if (st->error == httplib::Error::Connection && !st->headersReady
            && Clock::now() - st->lastProgress >= std::chrono::milliseconds(connectMs - connectMs / 10))
            out.timedOut = true;
        if (st->headersReady && !headersSeen)
            absorbHeaders();
        // A socket timeout that was shortened to fit the call's limit is that limit passing.
        if (out.timedOut && !m_options.deadline.isForever() && m_options.deadline.remainingTime() < 100)
            out.deadlineHit = true;
        lock.unlock();
        worker.join();
    } else {
        lock.unlock();
        abandon(st, worker);
    }
    if (m_options.cancel)
        m_options.cancel->setAbortHook({});
    if (m_options.cancel && m_options.cancel->isCancelled())
        out.cancelled = true;
    return out;
}

} // namespace

InteractionsClient::InteractionsClient(ClientConfig config)
    : m_config(std::move(config))
{
    // OpenSSL writes to a socket the peer already closed (e.g. a server that rejects a large
    // upload early) raise SIGPIPE, whose default action kills the process. Plain sockets use
    // MSG_NOSIGNAL; for TLS the only remedy is to ignore the signal, unless the app chose a handler.
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction current {};
        if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL)
            ::signal(SIGPIPE, SIG_IGN);
    });
}

InteractionsClient::~InteractionsClient() = default;

namespace {

std::string encodeBase64(const QByteArray &bytes)
{
    return bytes.toBase64().toStdString();
}

ordered_json buildBody(const ClientConfig &config, const TurnRequest &request, bool stream, bool withImageData)
{
    ordered_json b;
    b["model"] = config.model.toStdString();
    if (request.kind == TurnKind::Edit && !request.previousInteractionId.isEmpty())
        b["previous_interaction_id"] = request.previousInteractionId.toStdString();
    if (request.images.isEmpty()) {
        b["input"] = request.prompt.toStdString();
    } else {
        ordered_json parts = ordered_json::array();
        for (const ImageInput &image : request.images) {
            ordered_json part;
            part["type"] = "image";
            part["data"] = withImageData ? encodeBase64(image.bytes) : std::string();
            const QString mime = image.mimeType.isEmpty() ? sniffImageMimeType(image.bytes) : image.mimeType;
            part["mime_type"] = mime.toStdString();
            parts.push_back(part);
        }
        parts.push_back(ordered_json{{"type", "text"}, {"text", request.prompt.toStdString()}});
        b["input"] = parts;
    }
    ordered_json format;
    format["type"] = "image";
    if (!request.aspectRatio.isEmpty())
        format["aspect_ratio"] = request.aspectRatio.toStdString();
    b["response_format"] = format;
    if (!request.thinkingLevel.trimmed().isEmpty())
        b["generation_config"] = ordered_json{{"thinking_level", request.thinkingLevel.trimmed().toLower().toStdString()}};
    b["store"] = true;
    if (stream)
        b["stream"] = true;
    return b;
}

QString megabytes(qint64 bytes)
{
    return QString::number(double(bytes) / 1e6, 'f', 1) + QStringLiteral(" MB");
}

} // namespace

QByteArray InteractionsClient::requestBody(const TurnRequest &request, bool stream) const
{
    return QByteArray::fromStdString(buildBody(m_config, request, stream, true).dump());
}

std::optional<Error> InteractionsClient::validate(const TurnRequest &request) const
{
    if (request.prompt.trimmed().isEmpty()) {
        return Error::make(ErrorKind::InvalidInput,
                         QStringLiteral("The prompt is empty; describe the image (or the change) you want."));
    }
    if (request.kind == TurnKind::Edit && request.previousInteractionId.trimmed().isEmpty()) {
        return Error::make(ErrorKind::InvalidInput,
                         QStringLiteral("An edit needs the id of the interaction to continue from; "
                                        "generate an image first or use edit-local with a file."));
    }
    const bool ratioOptional = request.kind == TurnKind::EditLocal || request.kind == TurnKind::StyleEdit;
    if (request.aspectRatio.isEmpty() ? !ratioOptional : !supportedAspectRatios().contains(request.aspectRatio)) {
        return Error::make(ErrorKind::InvalidInput,
                         QStringLiteral("Aspect ratio '%1' is not supported by %2; choose one of: %3.")
                             .arg(request.aspectRatio, m_config.model,
                                  supportedAspectRatios().join(QStringLiteral(", "))));
    }
    const QString level = request.thinkingLevel.trimmed().toLower();
    if (!level.isEmpty()) {
        const QStringList allowed = m_config.thinkingLevels ? m_config.thinkingLevels->allowed(m_config.model)
                                                            : ThinkingLevels::defaultLevels();
        if (!allowed.contains(level)) {
            const bool learned = m_config.thinkingLevels && m_config.thinkingLevels->isLearned(m_config.model);
            return Error::make(ErrorKind::InvalidInput,
                             QStringLiteral("Thinking level '%1' is not accepted by %2 (%3); choose one of: %4.")
                                 .arg(request.thinkingLevel, m_config.model,
                                      learned ? QStringLiteral("as the server told us")
                                              : QStringLiteral("default set until the server says otherwise"),
                                      allowed.join(QStringLiteral(", "))));
        }
    }
    const int expectedImages = request.kind == TurnKind::EditLocal ? 1 : request.kind == TurnKind::StyleEdit ? 2 : 0;
    if (request.images.size() != expectedImages) {
        return Error::make(ErrorKind::InvalidInput,
                         QStringLiteral("%1 needs %2 image(s), got %3.")
                             .arg(turnKindName(request.kind)).arg(expectedImages).arg(request.images.size()));
    }
    qint64 imageBytes = 0;
    for (const ImageInput &image : request.images) {
        const QString name = image.fileName.isEmpty() ? QStringLiteral("The image") : QStringLiteral("'%1'").arg(image.fileName);
        if (image.bytes.isEmpty())
            return Error::make(ErrorKind::InvalidInput, QStringLiteral("%1 is empty; choose an image file.").arg(name));
        if (sniffImageMimeType(image.bytes).isEmpty()) {
            return Error::make(ErrorKind::InvalidInput,
                             QStringLiteral("%1 is not an image (unknown file signature); choose a PNG, JPEG or WebP file.")
                                 .arg(name));
        }
        imageBytes += 4 * ((image.bytes.size() + 2) / 3);
    }
    // The skeleton (without image data) plus the base64 length is the exact body size.
    const qint64 total = qint64(buildBody(m_config, request, true, false).dump().size()) + imageBytes;
    if (total > kMaxRequestBytes) {
        Error e = Error::make(ErrorKind::TooLarge,
            request.images.isEmpty()
                ? QStringLiteral("The request would be %1; the limit is %2. It carries no image, only the prompt: "
                                 "shorten the prompt.")
                      .arg(megabytes(total), megabytes(kMaxRequestBytes))
                : QStringLiteral("The request would be %1 (images are base64-encoded, 4/3 of their size); the limit is %2. "
                                 "Use smaller images, or choose the explicit re-encode option to compress them as JPEG.")
                      .arg(megabytes(total), megabytes(kMaxRequestBytes)));
        return e;
    }
    return std::nullopt;
}

namespace {

// Turns an httplib transport failure into a kind and a message that names the fix.
Error transportError(const AttemptOutcome &o, const ClientConfig &config)
{
    const QString base = config.baseUrl;
    switch (o.error) {
    case httplib::Error::SSLServerVerification: {
        const char *why = X509_verify_cert_error_string(o.tlsVerifyResult);
        const QString reason = o.tlsVerifyResult != 0 && why ? QString::fromUtf8(why) : QStringLiteral("host name mismatch");
        return Error::make(ErrorKind::Tls,
                         QStringLiteral("The TLS certificate of %1 could not be verified (%2). Check the base URL; "
                                        "for a private CA set the CA bundle path.").arg(base, reason));
    }
    case httplib::Error::SSLConnection:
        return Error::make(ErrorKind::Tls, QStringLiteral("The TLS handshake with %1 failed. Check that the base URL "
                                                        "really serves https.").arg(base));
    case httplib::Error::SSLLoadingCerts:
        return Error::make(ErrorKind::Tls, QStringLiteral("The CA certificates could not be loaded from '%1'. Install "
                                                        "ca-certificates or fix the CA bundle path.")
                                             .arg(config.caBundlePath.isEmpty() ? QString::fromLatin1(kSystemCaBundle)
                                                                                : config.caBundlePath));
    default:
        break;
    }
    if (o.timedOut) {
        if (o.status == 0 && o.error == httplib::Error::ConnectionTimeout)
            return Error::make(ErrorKind::Timeout, QStringLiteral("Connecting to %1 timed out after %2 s. Check the "
                                                                "network and the base URL.")
                                                     .arg(base).arg(config.connectTimeoutMs / 1000.0));
        return Error::make(ErrorKind::Timeout, QStringLiteral("%1 did not answer within %2 s. Try again, or raise the "
                                                            "read timeout.").arg(base).arg(config.readTimeoutMs / 1000.0));
    }
    if (o.error == httplib::Error::Connection)
        return Error::make(ErrorKind::Network, QStringLiteral("Could not connect to %1. Check the network connection "
                                                            "and the base URL.").arg(base));
    if (o.status != 0)
        return Error::make(ErrorKind::Network, QStringLiteral("The connection to %1 broke while the answer was "
                                                            "arriving. Try again.").arg(base));
    return Error::make(ErrorKind::Network, QStringLiteral("The connection to %1 failed (%2). Check the network and "
                                                        "try again.").arg(base, QString::fromStdString(httplib::to_string(o.error))));
}

// Whether a 400 is about the thinking level: the message says so, or the allowed values it
// lists are all thinking levels (an aspect-ratio list never is).
bool isAboutThinking(const Error &e)
{
    if (e.api.serverMessage.contains(QLatin1String("thinking"), Qt::CaseInsensitive))
        return true;
    static const QStringList known = {QStringLiteral("minimal"), QStringLiteral("low"),
                                      QStringLiteral("medium"), QStringLiteral("high")};
    if (e.api.allowedValues.isEmpty())
        return false;
    for (const QString &v : e.api.allowedValues) {
        if (!known.contains(v))
            return false;
    }
    return true;
}

// Adds what only the caller knows (which level, which id, which key source) to the message.
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
            e.message = QStringLiteral("The server rejected thinking level '%1': %2. Allowed levels for this model: %3.")
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
        if (turn && turn->kind == TurnKind::Edit && !e.api.serverMessage.contains(QLatin1String("model"), Qt::CaseInsensitive)) {
            e.message = QStringLiteral("The previous interaction '%1' is no longer on the server (HTTP %2: %3).%4 "
                                       "Re-send the last image inline (edit-local) to continue.")
                            .arg(turn->previousInteractionId, QString::number(e.api.httpStatus), verbatim,
                                 saysWhy ? QString()
                                         : QStringLiteral(" Stored interactions expire (55 days, 1 day on free keys) or "
                                                          "may have been deleted."));
        } else if (turn) {
            e.message = QStringLiteral("Model '%1' or the endpoint was not found (HTTP %2: %3). Check the model name "
                                       "and the base URL.").arg(config.model, QString::number(e.api.httpStatus), verbatim);
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
                                   "~/gemini.key.").arg(e.api.httpStatus).arg(verbatim);
    } else if (e.kind == ErrorKind::Auth) {
        e.message = QStringLiteral("The server rejected the API key (HTTP %1: %2). The key came from %3; check it "
                                   "(GEMINI_API_KEY, GOOGLE_API_KEY or ~/gemini.key).")
                        .arg(e.api.httpStatus).arg(verbatim,
                             config.apiKey.source());
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

template <typename T>
Result<T> finish(Result<T> result, int attempts, const RequestContext &ctx, const ClientConfig &config)
{
    if (result.ok()) {
        if constexpr (std::is_same_v<T, Interaction> || std::is_same_v<T, Done>)
            result.value().attempts = attempts;
        return result;
    }
    Error e = result.error();
    e.api.attempts = attempts;
    refineError(e, ctx, config);
    scrubKey(e, config);
    return e;
}

// What a successful exchange hands back to the operation.
struct Exchange {
    int status = 0;
    QByteArray body;
    bool streamed = false;
};

/** Why an exchange ended early, beyond its Error: what of the answer arrived. */
struct ExchangeTrace {
    bool answerBegan = false;   // headers, bytes or stream events arrived before it broke
    QByteArray partialBody;     // the bytes of a plain (non-stream) answer that was cut
};

/** One logical call: attempts, classification of failures, backoff and Retry-After, the deadline. */
class ExchangeRunner
{
public:
    ExchangeRunner(const ClientConfig &config, const CallOptions &options)
        : m_config(config), m_options(options) {}

    /**
     * Runs the request with retries; streamed 200 bodies go through assembler. A request
     * that is not idempotent (create) is never sent again once its answer began (trace).
     */
    Result<Exchange> run(const std::string &method, const std::string &path, const std::string &body,
                         bool stream, StreamAssembler *assembler, int &attempts, bool idempotent,
                         ExchangeTrace *trace = nullptr);

private:
    bool deadlinePassed() const { return !m_options.deadline.isForever() && m_options.deadline.hasExpired(); }
    Error deadlineError(int attempts, const std::optional<Error> &last) const;

    const ClientConfig &m_config;
    const CallOptions &m_options;
};

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

Result<Exchange> ExchangeRunner::run(const std::string &method, const std::string &path,
                                     const std::string &body, bool stream, StreamAssembler *assembler,
                                     int &attempts, bool idempotent, ExchangeTrace *trace)
{
    attempts = 0;
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

        ClientCall call(m_config, m_options);
        AttemptOutcome o = call.attempt(method, path, body, stream, onChunk);
        ++attempts;
        if (o.cancelled)
            return Error::make(ErrorKind::Cancelled, QStringLiteral("Cancelled."));
        if (streaming && !o.stoppedByHandler && o.error == httplib::Error::Success) {
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
        const bool transportFailed = !o.stoppedByHandler
            && (o.error != httplib::Error::Success || o.timedOut || o.status == 0);
        if (transportFailed && !(streaming && assembler && assembler->isDone())) {
            // Our own time limit, not the server's failure: say that, not "did not answer in 120 s".
            error = o.deadlineHit ? deadlineError(attempts, last) : transportError(o, m_config);
            // Once any of the answer arrived the interaction exists: re-sending a create would
            // make (and bill) a second one. Only a get of its id may follow.
            const bool began = o.status != 0 || !o.body.isEmpty() || streaming || (assembler && assembler->sawAnyEvent());
            retryable = (error.kind == ErrorKind::Network || error.kind == ErrorKind::Timeout) && (idempotent || !began);
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
            error.message = QStringLiteral("%1 The server asks to wait %2, longer than the %3 this client "
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
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("API version '%1' is not supported; use v1 or v1beta.")
                                                      .arg(config.apiVersion));
    if (config.apiKey.isEmpty()) {
        const QString host = QUrl(config.baseUrl).host();
        if (checkTransportSecurity(QStringLiteral("http://%1/").arg(host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host)))
            return std::nullopt; // a local (fake) server may run without a key
        return Error::make(ErrorKind::Auth, QStringLiteral("No API key found. Set GEMINI_API_KEY (or GOOGLE_API_KEY), "
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

} // namespace

Result<Interaction> InteractionsClient::create(const TurnRequest &request, const CallOptions &options)
{
    RequestContext ctx;
    ctx.turn = &request;
    ctx.operation = QStringLiteral("create");
    if (auto e = validate(request))
        return finish<Interaction>(*e, 0, ctx, m_config);
    if (auto e = preflight(m_config))
        return finish<Interaction>(*e, 0, ctx, m_config);

    const std::string body = requestBody(request, options.stream).toStdString();
    StreamAssembler assembler;
    ExchangeRunner runner(m_config, options);
    int attempts = 0;
    ExchangeTrace trace;
    Result<Exchange> ex = runner.run("POST", collectionPath(m_config), body, options.stream, &assembler, attempts,
                                     false, &trace);

    // The interaction was made but its answer did not arrive whole: fetch it by id (free)
    // rather than ever sending the create again (billed). Polls while the server finishes.
    auto fetchStarted = [&](Error original) -> Result<Interaction> {
        const QString id = original.api.interactionId;
        CallOptions unary = options;
        unary.stream = false;
        unary.onEvent = {};
        for (int poll = 0; poll < 20; ++poll) {
            Result<Interaction> got = get(id, unary);
            attempts += got ? got.value().attempts : got.error().api.attempts;
            if (!got) {
                Error e = got.error();
                if (e.kind == ErrorKind::NoImage || e.kind == ErrorKind::Cancelled) {
                    e.api.interactionId = id;
                    return finish<Interaction>(e, attempts, ctx, m_config);
                }
                original.message += QStringLiteral(" Fetching interaction %1 failed too (%2); it can be fetched later.")
                                        .arg(id, ResponseParser::withoutFinalDot(e.message));
                return finish<Interaction>(original, attempts, ctx, m_config);
            }
            const QString status = got.value().status;
            if (status == QLatin1String("in_progress") || status == QLatin1String("queued")) {
                const bool timeLeft = options.deadline.isForever() || options.deadline.remainingTime() > 500;
                const bool slept = timeLeft && (options.cancel ? options.cancel->sleepFor(500)
                                                               : (std::this_thread::sleep_for(std::chrono::milliseconds(500)), true));
                if (!slept)
                    break;
                continue;
            }
            if (status != QLatin1String("completed")) {
                original.message += QStringLiteral(" The server reports interaction %1 as \"%2\".").arg(id, status);
                return finish<Interaction>(original, attempts, ctx, m_config);
            }
            Interaction done = got.value();
            if (done.id.isEmpty())
                done.id = id;
            return finish<Interaction>(done, attempts, ctx, m_config);
        }
        original.message += QStringLiteral(" The server was still drawing interaction %1; fetch it later.").arg(id);
        return finish<Interaction>(original, attempts, ctx, m_config);
    };

    const bool timeLeft = options.deadline.isForever() || !options.deadline.hasExpired();
    if (!ex.ok()) {
        if (trace.answerBegan && !ex.error().api.interactionId.isEmpty() && timeLeft)
            return fetchStarted(ex.error());
        return finish<Interaction>(ex.error(), attempts, ctx, m_config);
    }

    if (!ex.value().streamed) {
        Result<Interaction> parsed = ResponseParser::parseInteraction(ex.value().body);
        const QByteArray &raw = ex.value().body;
        if (!parsed && parsed.error().kind == ErrorKind::MalformedResponse
            && !ordered_json::accept(raw.constBegin(), raw.constEnd())) {
            // A 200 whose body was cut: its id may still be in the part that came. (A whole
            // body that is wrong in itself would only come back the same from a get.)
            Error e = parsed.error();
            e.api.interactionId = ResponseParser::salvageInteractionId(ex.value().body);
            if (!e.api.interactionId.isEmpty() && timeLeft)
                return fetchStarted(e);
            return finish<Interaction>(e, attempts, ctx, m_config);
        }
        return finish(parsed, attempts, ctx, m_config);
    }
    if (assembler.error()) {
        Error e = *assembler.error();
        if (e.api.interactionId.isEmpty())
            e.api.interactionId = assembler.interactionId();
        // A cut or garbled event (not an error the server reported): the interaction exists.
        if (e.kind == ErrorKind::MalformedResponse && !e.api.interactionId.isEmpty() && timeLeft)
            return fetchStarted(e);
        return finish<Interaction>(e, attempts, ctx, m_config);
    }
    if (!assembler.isCompleted()) {
        Error e = Error::make(ErrorKind::MalformedResponse,
            QStringLiteral("The stream ended early, before the interaction was reported complete%1.")
                .arg(assembler.interactionId().isEmpty() ? QString() : QStringLiteral(" (id %1)").arg(assembler.interactionId())));
        e.api.interactionId = assembler.interactionId();
        if (!e.api.interactionId.isEmpty() && timeLeft)
            return fetchStarted(e);
        e.message += QStringLiteral(" Try again, or try without streaming.");
        return finish<Interaction>(e, attempts, ctx, m_config);
    }
    return finish(ResponseParser::parseInteraction(assembler.interactionJson()), attempts, ctx, m_config);
}

Result<Interaction> InteractionsClient::get(const QString &interactionId, const CallOptions &options)
{
    RequestContext ctx;
    ctx.interactionId = interactionId;
    ctx.operation = QStringLiteral("get");
    if (interactionId.trimmed().isEmpty())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("No interaction id given; pass the id a generate or edit printed."));
    if (auto e = preflight(m_config))
        return finish<Interaction>(*e, 0, ctx, m_config);
    CallOptions unary = options;
    unary.stream = false;
    ExchangeRunner runner(m_config, unary);
    int attempts = 0;
    Result<Exchange> ex = runner.run("GET", itemPath(m_config, interactionId) + "?stream=false", std::string(),
                                     false, nullptr, attempts, true);
    if (!ex.ok())
        return finish<Interaction>(ex.error(), attempts, ctx, m_config);
    return finish(ResponseParser::parseInteraction(ex.value().body, true), attempts, ctx, m_config);
}

Result<Done> InteractionsClient::remove(const QString &interactionId, const CallOptions &options)
{
    RequestContext ctx;
    ctx.interactionId = interactionId;
    ctx.operation = QStringLiteral("delete");
    if (interactionId.trimmed().isEmpty())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("No interaction id given; pass the id to delete."));
    if (auto e = preflight(m_config))
        return finish<Done>(*e, 0, ctx, m_config);
    CallOptions unary = options;
    unary.stream = false;
    ExchangeRunner runner(m_config, unary);
    int attempts = 0;
    Result<Exchange> ex = runner.run("DELETE", itemPath(m_config, interactionId), std::string(), false, nullptr, attempts, true);
    if (!ex.ok())
        return finish<Done>(ex.error(), attempts, ctx, m_config);
    if (ex.value().status != 200) {
        return finish<Done>(Error::make(ErrorKind::Server,
                                      QStringLiteral("Delete answered HTTP %1 instead of 200; the interaction may "
                                                     "not be deleted. Try again.").arg(ex.value().status)),
                            attempts, ctx, m_config);
    }
    Done done;
    return finish<Done>(done, attempts, ctx, m_config);
}

} // namespace nb2
