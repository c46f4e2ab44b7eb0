// The fake server's strict reading of a create request (spec §2): every field checked, unknown ones refused.
#include "core/fakeapi/fakeserverinternal.h"

#include "core/fakeapi/fakeimagepainter.h"
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QImage>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QUrl>
#include <atomic>
#include <chrono>
#ifdef Q_OS_UNIX
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#endif
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace nb2 {

// ---------------------------------------------------------------------------------------
// Create

std::optional<Reply> FakeServer::Private::parseContent(
    const json &c, const QString &where, ParsedCreate *out, bool currentTurn, QImage *lastImage)
{
    if (!c.is_object() || !c.contains("type") || !c["type"].is_string())
        return invalidArgument(
            QStringLiteral("%1: each content part must be an object with a string \"type\".").arg(where));
    const std::string type = c["type"].get<std::string>();
    if (type == "text") {
        for (const auto &[k, v] : c.items()) {
            if (k != "type" && k != "text" && k != "annotations")
                return unknownField(where, k);
        }
        if (!c.contains("text") || !c["text"].is_string())
            return invalidArgument(QStringLiteral("%1.text: a text part needs a string \"text\".").arg(where));
        if (currentTurn) {
            const QString t = q(c["text"].get<std::string>());
            out->prompt = out->prompt.isEmpty() ? t : out->prompt + QLatin1Char(' ') + t;
        }
        return std::nullopt;
    }
    if (type == "image") {
        for (const auto &[k, v] : c.items()) {
            if (k != "type" && k != "data" && k != "uri" && k != "mime_type" && k != "resolution")
                return unknownField(where, k);
        }
        if (c.contains("uri"))
            return invalidArgument(
                QStringLiteral("%1.uri: file URIs are not supported by the fake server; send inline base64 \"data\".")
                    .arg(where));
        if (!c.contains("data") || !c["data"].is_string())
            return invalidArgument(QStringLiteral("%1.data: an image part needs base64 \"data\".").arg(where));
        if (!c.contains("mime_type") || !c["mime_type"].is_string())
            return invalidArgument(QStringLiteral("%1.mime_type: an inline image needs a \"mime_type\".").arg(where));
        const QString mime = q(c["mime_type"].get<std::string>());
        static const QStringList mimes {QStringLiteral("image/png"), QStringLiteral("image/jpeg"),
            QStringLiteral("image/webp"), QStringLiteral("image/heic"), QStringLiteral("image/heif"),
            QStringLiteral("image/gif"), QStringLiteral("image/bmp"), QStringLiteral("image/tiff")};
        if (!mimes.contains(mime))
            return invalidArgument(QStringLiteral("%1.mime_type: Unsupported MIME type: %2").arg(where, mime));
        if (c.contains("resolution")) {
            static const QStringList res {
                QStringLiteral("low"), QStringLiteral("medium"), QStringLiteral("high"), QStringLiteral("ultra_high")};
            if (!c["resolution"].is_string() || !res.contains(q(c["resolution"].get<std::string>())))
                return invalidArgument(
                    QStringLiteral("%1.resolution: must be one of low, medium, high, ultra_high.").arg(where));
        }
        QByteArray bytes;
        const std::string &data = c["data"].get_ref<const std::string &>();
        if (!decodeBase64Strict(data, &bytes))
            return invalidArgument(
                QStringLiteral("Invalid value at '%1.data' (TYPE_BYTES), Base64 decoding failed for \"%2\"")
                    .arg(where, q(data.substr(0, 24)) + (data.size() > 24 ? QStringLiteral("...") : QString())));
        const QString sniffed = sniffImageMime(bytes);
        if (sniffed.isEmpty())
            return invalidArgument(QStringLiteral("Unable to process input image (%1). Please retry or report in "
                                                  "https://developers.generativeai.google/guide/troubleshooting")
                                       .arg(where));
        if (!mimeCompatible(mime, sniffed))
            return invalidArgument(QStringLiteral("%1.mime_type is %2 but the data is %3.").arg(where, mime, sniffed));
        QImage pixels = QImage::fromData(bytes);
        if (pixels.isNull()) {
            static const QSet<QString> decodable {QStringLiteral("image/png"), QStringLiteral("image/jpeg"),
                QStringLiteral("image/gif"), QStringLiteral("image/bmp")};
            if (decodable.contains(sniffed))
                return invalidArgument(QStringLiteral("Unable to process input image (%1). Please retry or report in "
                                                      "https://developers.generativeai.google/guide/troubleshooting")
                                           .arg(where));
            // No decoder here for webp/heic/tiff: stand in a flat picture coloured by the bytes.
            const QByteArray h = QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
            pixels = QImage(1024, 1024, QImage::Format_RGB32);
            pixels.fill(QColor(uchar(h[0]), uchar(h[1]), uchar(h[2])));
        }
        if (currentTurn)
            out->images.append(InputImage {bytes, mime, pixels});
        else if (lastImage)
            *lastImage = pixels;
        return std::nullopt;
    }
    if (type == "audio" || type == "video" || type == "document")
        return invalidArgument(
            QStringLiteral("%1: input modality '%2' is not supported by this model (text and images only).")
                .arg(where, q(type)));
    return invalidArgument(QStringLiteral("%1.type: unknown content type '%2'.").arg(where, q(type)));
}

std::optional<Reply> FakeServer::Private::parseInput(const json &input, ParsedCreate *out)
{
    if (input.is_string()) {
        out->prompt = q(input.get<std::string>());
        if (out->prompt.trimmed().isEmpty())
            return invalidArgument(QStringLiteral("input: the prompt must not be empty."));
        out->userContent = json::array({json {{"type", "text"}, {"text", input}}});
        return std::nullopt;
    }
    if (input.is_object()) {
        if (auto err = parseContent(input, QStringLiteral("input"), out, true, nullptr))
            return err;
        out->userContent = json::array({input});
        return std::nullopt;
    }
    if (!input.is_array())
        return wrongType(QStringLiteral("input"), input, "string, content or array");
    if (input.empty())
        return invalidArgument(QStringLiteral("input: must not be an empty array."));

    auto isStep = [](const json &e) {
        if (!e.is_object() || !e.contains("type") || !e["type"].is_string())
            return false;
        const std::string t = e["type"].get<std::string>();
        return t == "user_input" || t == "model_output" || t == "thought";
    };
    const bool steps = isStep(input.front());
    for (size_t i = 0; i < input.size(); ++i) {
        if (isStep(input[i]) != steps)
            return invalidArgument(
                QStringLiteral("input[%1]: an input list must be all content parts or all steps.").arg(i));
    }
    if (!steps) {
        for (size_t i = 0; i < input.size(); ++i) {
            if (auto err = parseContent(input[i], QStringLiteral("input[%1]").arg(i), out, true, nullptr))
                return err;
        }
        out->userContent = input;
        return std::nullopt;
    }

    // Stateless history (spec §2.1): the last step must be the new user turn.
    size_t lastUser = input.size();
    for (size_t i = input.size(); i-- > 0;) {
        if (input[i]["type"] == "user_input") {
            lastUser = i;
            break;
        }
    }
    if (lastUser != input.size() - 1)
        return invalidArgument(QStringLiteral("input: the last step must be a user_input step."));
    for (size_t i = 0; i < input.size(); ++i) {
        const json &st = input[i];
        const QString where = QStringLiteral("input[%1]").arg(i);
        const std::string t = st["type"].get<std::string>();
        if (t == "thought")
            continue; // signatures and summaries are opaque to us
        if (!st.contains("content") || !st["content"].is_array())
            return invalidArgument(QStringLiteral("%1.content: a %2 step needs a content array.").arg(where, q(t)));
        const json &content = st["content"];
        for (size_t j = 0; j < content.size(); ++j) {
            if (auto err = parseContent(content[j], QStringLiteral("%1.content[%2]").arg(where).arg(j), out,
                    i == lastUser, &out->historyImage))
                return err;
        }
    }
    out->userContent = input[lastUser]["content"];
    if (out->userContent.empty())
        return invalidArgument(QStringLiteral("input: the last user_input step is empty."));
    return std::nullopt;
}

std::optional<Reply> FakeServer::Private::parseResponseFormat(const json &rf, ParsedCreate *out)
{
    json list = rf.is_array() ? rf : json::array({rf});
    if (!rf.is_array() && !rf.is_object())
        return wrongType(QStringLiteral("response_format"), rf, "object or array");
    bool image = false;
    for (size_t i = 0; i < list.size(); ++i) {
        const json &f = list[i];
        const QString where
            = rf.is_array() ? QStringLiteral("response_format[%1]").arg(i) : QStringLiteral("response_format");
        if (!f.is_object() || !f.contains("type") || !f["type"].is_string())
            return invalidArgument(QStringLiteral("%1.type: required (\"image\" or \"text\").").arg(where));
        const std::string type = f["type"].get<std::string>();
        if (type == "text") {
            for (const auto &[k, v] : f.items()) {
                if (k != "type")
                    return unknownField(where, k);
            }
            continue;
        }
        if (type != "image")
            return invalidArgument(
                QStringLiteral("%1.type: output modality '%2' is not supported by this model.").arg(where, q(type)));
        image = true;
        for (const auto &[k, v] : f.items()) {
            if (k != "type" && k != "aspect_ratio" && k != "image_size" && k != "mime_type" && k != "delivery")
                return unknownField(where, k);
        }
        if (f.contains("aspect_ratio")) {
            const QStringList ratios = FakeImagePainter::aspectRatios();
            const QString ar = f["aspect_ratio"].is_string() ? q(f["aspect_ratio"].get<std::string>()) : QString();
            if (!ratios.contains(ar))
                return invalidArgument(QStringLiteral(
                    "%1.aspect_ratio: Unsupported aspect ratio \"%2\" for model %3. Allowed values are: %4.")
                                           .arg(where, f["aspect_ratio"].is_string() ? ar : q(f["aspect_ratio"].dump()),
                                               out->model, ratios.join(QStringLiteral(", "))));
            out->aspect = ar;
        }
        if (f.contains("image_size") && !(f["image_size"].is_string() && f["image_size"] == "1K"))
            return invalidArgument(QStringLiteral("%1.image_size: %2 is not supported by %3. Supported sizes: 1K.")
                                       .arg(where, q(f["image_size"].dump()), out->model));
        if (f.contains("mime_type") && !(f["mime_type"].is_string() && f["mime_type"] == "image/jpeg"))
            return invalidArgument(QStringLiteral("%1.mime_type: %2 is not supported. Allowed values are: image/jpeg.")
                                       .arg(where, q(f["mime_type"].dump())));
        if (f.contains("delivery") && !(f["delivery"].is_string() && f["delivery"] == "inline"))
            return invalidArgument(
                QStringLiteral("%1.delivery: only \"inline\" is supported by the fake server.").arg(where));
    }
    out->wantImage = image;
    return std::nullopt;
}

std::optional<Reply> FakeServer::Private::parseGenerationConfig(const json &gc, ParsedCreate *out)
{
    if (!gc.is_object())
        return wrongType(QStringLiteral("generation_config"), gc, "object");
    for (const auto &[k, v] : gc.items()) {
        const QString field = QStringLiteral("generation_config.") + q(k);
        if (k == "thinking_level") {
            QStringList allowed;
            FakeServerOptions::ThinkingError wording;
            {
                std::lock_guard<std::mutex> lock(mutex);
                allowed = opts.thinkingLevels;
                wording = opts.thinkingError;
            }
            const QString level = v.is_string() ? q(v.get<std::string>()) : q(v.dump());
            if ((!v.is_string() || !allowed.contains(level))
                && wording == FakeServerOptions::ThinkingError::NotSupportedRetry)
                return nativeError(400, "invalid_request",
                    QStringLiteral("Thinking level THINKING_LEVEL_%1 is not supported for this model. "
                                   "Please retry with other thinking level.")
                        .arg(level.toUpper()));
            if (!v.is_string() || !allowed.contains(level))
                return invalidArgument(
                    QStringLiteral("%1: Unsupported thinking level \"%2\" for model %3. Allowed values are: %4.")
                        .arg(field, level, out->model, allowed.join(QStringLiteral(", "))));
            out->thinkingLevel = level;
        } else if (k == "thinking_summaries") {
            if (!v.is_string() || (v != "auto" && v != "none"))
                return invalidArgument(QStringLiteral("%1: must be \"auto\" or \"none\".").arg(field));
        } else if (k == "seed" || k == "max_output_tokens") {
            if (!v.is_number_integer())
                return wrongType(field, v, "integer");
            if (k == "max_output_tokens" && v.get<long long>() <= 0)
                return invalidArgument(QStringLiteral("%1: must be positive.").arg(field));
        } else if (k == "temperature" || k == "top_p") {
            if (!v.is_number())
                return wrongType(field, v, "number");
        } else if (k == "stop_sequences") {
            if (!v.is_array())
                return wrongType(field, v, "array");
        } else if (k == "image_config") {
            return invalidArgument(
                QStringLiteral("%1 was removed; use response_format {\"type\":\"image\", \"aspect_ratio\": ...}.")
                    .arg(field));
        } else if (k == "tool_choice" || k == "speech_config" || k == "transcription_config" || k == "video_config") {
            return invalidArgument(QStringLiteral("%1 is not supported by %2.").arg(field, out->model));
        } else {
            return unknownField(QStringLiteral("generation_config"), k);
        }
    }
    return std::nullopt;
}

std::optional<Reply> FakeServer::Private::parseCreate(const json &body, ParsedCreate *out)
{
    if (!body.is_object())
        return nativeError(400, "invalid_request", QStringLiteral("The request body must be a JSON object."));
    static const QSet<QString> known {QStringLiteral("model"), QStringLiteral("agent"), QStringLiteral("input"),
        QStringLiteral("response_format"), QStringLiteral("generation_config"), QStringLiteral("store"),
        QStringLiteral("previous_interaction_id"), QStringLiteral("background"), QStringLiteral("stream"),
        QStringLiteral("system_instruction"), QStringLiteral("tools"), QStringLiteral("service_tier"),
        QStringLiteral("labels"), QStringLiteral("continuation_token"), QStringLiteral("safety_settings"),
        QStringLiteral("response_mime_type"), QStringLiteral("response_modalities"), QStringLiteral("cached_content")};
    for (const auto &[k, v] : body.items()) {
        if (!known.contains(q(k)))
            return unknownField(QStringLiteral("request"), k);
    }
    if (body.contains("agent"))
        return invalidArgument(QStringLiteral("agent: agent interactions are not supported by the fake server."));
    if (!body.contains("model") || !body["model"].is_string() || body["model"].get<std::string>().empty())
        return nativeError(400, "invalid_request", QStringLiteral("model: a model name is required."));
    QString model = q(body["model"].get<std::string>());
    if (model.startsWith(QLatin1String("models/")))
        model = model.mid(7);
    out->model = model;
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (!opts.models.contains(model))
            return googleError(404, "NOT_FOUND",
                QStringLiteral("models/%1 is not found for this API version, or is not supported for "
                               "interactions. Call ListModels to see the list of available models.")
                    .arg(model));
    }
    for (const char *removed : {"response_mime_type", "response_modalities"}) {
        if (body.contains(removed))
            return invalidArgument(QStringLiteral("%1 was removed from the Interactions API; use response_format.")
                                       .arg(QLatin1String(removed)));
    }
    if (body.contains("safety_settings"))
        return invalidArgument(
            QStringLiteral("safety_settings: custom safety settings are not supported in the Interactions API."));
    if (body.contains("cached_content"))
        return invalidArgument(QStringLiteral("cached_content: context caching is not supported by %1.").arg(model));
    if (body.contains("continuation_token"))
        return invalidArgument(QStringLiteral("continuation_token: the fake server never issues continuation tokens."));
    if (body.contains("tools") && !(body["tools"].is_array() && body["tools"].empty()))
        return invalidArgument(QStringLiteral("tools: tools are not supported by %1.").arg(model));
    for (const char *flag : {"store", "stream", "background"}) {
        if (body.contains(flag) && !body[flag].is_boolean())
            return wrongType(QLatin1String(flag), body[flag], "boolean");
    }
    out->store = body.value("store", true);
    out->stream = body.value("stream", false);
    out->background = body.value("background", false);
    if (out->background && !out->store)
        return invalidArgument(QStringLiteral("background: background interactions require store=true."));
    for (const char *str : {"previous_interaction_id", "system_instruction", "service_tier"}) {
        if (body.contains(str) && !body[str].is_string())
            return wrongType(QLatin1String(str), body[str], "string");
    }
    if (body.contains("service_tier")) {
        static const QStringList tiers {
            QStringLiteral("flex"), QStringLiteral("standard"), QStringLiteral("priority"), QStringLiteral("deferred")};
        if (!tiers.contains(q(body["service_tier"].get<std::string>())))
            return invalidArgument(QStringLiteral("service_tier: must be one of flex, standard, priority, deferred."));
    }
    if (body.contains("labels")) {
        if (!body["labels"].is_object())
            return wrongType(QStringLiteral("labels"), body["labels"], "object");
        for (const auto &[k, v] : body["labels"].items()) {
            if (!v.is_string())
                return wrongType(QStringLiteral("labels.") + q(k), v, "string");
        }
    }
    if (body.contains("generation_config")) {
        if (auto err = parseGenerationConfig(body["generation_config"], out))
            return err;
    }
    if (body.contains("response_format")) {
        if (auto err = parseResponseFormat(body["response_format"], out))
            return err;
    }
    if (!body.contains("input"))
        return nativeError(400, "invalid_request", QStringLiteral("input: required for a new turn."));
    if (auto err = parseInput(body["input"], out))
        return err;
    if (out->images.size() > kMaxInputImages)
        return invalidArgument(QStringLiteral("input: at most %1 images per request (got %2).")
                                   .arg(kMaxInputImages)
                                   .arg(out->images.size()));
    if (body.contains("previous_interaction_id")) {
        out->previousId = q(body["previous_interaction_id"].get<std::string>());
        if (out->previousId.isEmpty())
            return invalidArgument(QStringLiteral("previous_interaction_id: must not be empty."));
    }
    return std::nullopt;
}

} // namespace nb2
