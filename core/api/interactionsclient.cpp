#include "core/api/interactionsclient.h"

#include "core/api/exchangerunner.h"
#include "core/api/responseparser.h"
#include "core/api/streamassembler.h"
#include "core/api/thinkinglevels.h"
#include "core/common/humanduration.h"

#include <QUrl>

#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <mutex>
#include <thread>

namespace nb2 {

using ordered_json = nlohmann::ordered_json;
using namespace apidetail;

InteractionsClient::InteractionsClient(ClientConfig config) : m_config(std::move(config))
{
    // OpenSSL writes to a socket the peer already closed (e.g. a server that rejects a large
    // upload early) raise SIGPIPE, whose default action kills the process. Plain sockets use
    // MSG_NOSIGNAL; for TLS the only remedy is to ignore the signal, unless the app chose a handler.
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction current {
        };
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
        parts.push_back(ordered_json {{"type", "text"}, {"text", request.prompt.toStdString()}});
        b["input"] = parts;
    }
    ordered_json format;
    format["type"] = "image";
    if (!request.aspectRatio.isEmpty())
        format["aspect_ratio"] = request.aspectRatio.toStdString();
    b["response_format"] = format;
    if (!request.thinkingLevel.trimmed().isEmpty())
        b["generation_config"]
            = ordered_json {{"thinking_level", request.thinkingLevel.trimmed().toLower().toStdString()}};
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
                .arg(request.aspectRatio, m_config.model, supportedAspectRatios().join(QStringLiteral(", "))));
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
                .arg(turnKindName(request.kind))
                .arg(expectedImages)
                .arg(request.images.size()));
    }
    qint64 imageBytes = 0;
    for (const ImageInput &image : request.images) {
        const QString name
            = image.fileName.isEmpty() ? QStringLiteral("The image") : QStringLiteral("'%1'").arg(image.fileName);
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
                : QStringLiteral(
                    "The request would be %1 (images are base64-encoded, 4/3 of their size); the limit is %2. "
                    "Use smaller images, or choose the explicit re-encode option to compress them as JPEG.")
                      .arg(megabytes(total), megabytes(kMaxRequestBytes)));
        return e;
    }
    return std::nullopt;
}

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
    Result<Exchange> ex
        = runner.run("POST", collectionPath(m_config), body, options.stream, &assembler, attempts, false, &trace);

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
                const bool slept = timeLeft
                    && (options.cancel ? options.cancel->sleepFor(500)
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
                .arg(assembler.interactionId().isEmpty() ? QString()
                                                         : QStringLiteral(" (id %1)").arg(assembler.interactionId())));
        e.api.interactionId = assembler.interactionId();
        if (!e.api.interactionId.isEmpty() && timeLeft)
            return fetchStarted(e);
        e.message += QStringLiteral(" Try again, or try without streaming.");
        return finish<Interaction>(e, attempts, ctx, m_config);
    }
    return finish(assembler.parsedInteraction(), attempts, ctx, m_config);
}

Result<Interaction> InteractionsClient::get(const QString &interactionId, const CallOptions &options)
{
    RequestContext ctx;
    ctx.interactionId = interactionId;
    ctx.operation = QStringLiteral("get");
    if (interactionId.trimmed().isEmpty())
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("No interaction id given; pass the id a generate or edit printed."));
    if (auto e = preflight(m_config))
        return finish<Interaction>(*e, 0, ctx, m_config);
    CallOptions unary = options;
    unary.stream = false;
    ExchangeRunner runner(m_config, unary);
    int attempts = 0;
    Result<Exchange> ex = runner.run(
        "GET", itemPath(m_config, interactionId) + "?stream=false", std::string(), false, nullptr, attempts, true);
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
    Result<Exchange> ex
        = runner.run("DELETE", itemPath(m_config, interactionId), std::string(), false, nullptr, attempts, true);
    if (!ex.ok())
        return finish<Done>(ex.error(), attempts, ctx, m_config);
    if (ex.value().status != 200) {
        return finish<Done>(Error::make(ErrorKind::Server,
                                QStringLiteral("Delete answered HTTP %1 instead of 200; the interaction may "
                                               "not be deleted. Try again.")
                                    .arg(ex.value().status)),
            attempts, ctx, m_config);
    }
    Done done;
    return finish<Done>(done, attempts, ctx, m_config);
}

} // namespace nb2