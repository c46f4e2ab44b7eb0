#include "core/api/streamassembler.h"

#include "core/api/imageinput.h"
#include "core/api/responsedocument.h"
#include "core/api/responseparser.h"

#include <nlohmann/json.hpp>

#include <map>

namespace nb2 {

using json = nlohmann::json;

namespace {

QString str(const json &obj, const char *key)
{
    if (!obj.is_object())
        return {};
    const auto it = obj.find(key);
    return (it != obj.end() && it->is_string()) ? QString::fromStdString(it->get<std::string>()) : QString();
}

// An integer field (step index, error code), or fallback: a float is only converted when it
// fits, since converting 1e300 to an integer is undefined behaviour, not just a wrong index.
long long integer(const json &obj, const char *key, long long fallback)
{
    if (!obj.is_object())
        return fallback;
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_number())
        return fallback;
    if (it->is_number_float()) {
        const double d = it->get<double>();
        return (d >= -0x1p63 && d < 0x1p63) ? static_cast<long long>(d) : fallback;
    }
    return it->get<long long>();
}

// Whether base64 image data already holds a whole encoded file, so that a following image
// delta starts a new image instead of continuing this one (spec §5, U3).
bool looksComplete(const std::string &data)
{
    // Works on the ends only (no copy of a megabyte-sized string per delta).
    auto isSpace = [](char c) { return c == '\n' || c == '\r' || c == ' ' || c == '\t'; };
    size_t length = 0;
    for (char c : data)
        length += isSpace(c) ? 0 : 1;
    if (length == 0)
        return false;
    std::string tail, head;
    for (auto it = data.rbegin(); it != data.rend() && tail.size() < 12; ++it) {
        if (!isSpace(*it))
            tail.insert(tail.begin(), *it);
    }
    for (auto it = data.begin(); it != data.end() && head.size() < 16; ++it) {
        if (!isSpace(*it))
            head.push_back(*it);
    }
    if (tail.back() == '=')
        return true; // padding only ever ends an encoding
    if (length % 4 != 0)
        return false;
    const QByteArray tailBytes = ResponseParser::decodeBase64(QByteArray::fromStdString(tail));
    const QByteArray headBytes = ResponseParser::decodeBase64(QByteArray::fromStdString(head));
    if (tailBytes.endsWith("\xFF\xD9"))
        return true; // JPEG end of image
    if (tailBytes.endsWith(QByteArray("IEND\xAE\x42\x60\x82", 8)))
        return true; // PNG IEND chunk
    if (headBytes.startsWith("RIFF") && headBytes.size() >= 8) {
        const auto size = quint32(quint8(headBytes[4])) | quint32(quint8(headBytes[5])) << 8
            | quint32(quint8(headBytes[6])) << 16 | quint32(quint8(headBytes[7])) << 24;
        return length / 4 * 3 >= size + 8;
    }
    return false;
}

bool decodeImagePart(const json &part, ImageData &out)
{
    // Read in place: a QString of the ~1.3 MB of base64 would be 2.6 MB of UTF-16 and back.
    const auto it = part.find("data");
    if (it == part.end() || !it->is_string() || it->get_ref<const std::string &>().empty())
        return false;
    const std::string &data = it->get_ref<const std::string &>();
    bool ok = false;
    out.bytes = apidetail::decodeBase64(data.data(), qsizetype(data.size()), &ok);
    out.mimeType = sniffImageMimeType(out.bytes);
    return ok && !out.mimeType.isEmpty();
}

} // namespace

struct StreamAssembler::Private {
    json interaction = json::object();
    std::map<long long, json> steps;
    bool sawAny = false;
    bool completed = false;
    bool done = false;
    std::optional<Error> error;
    QString status;
    apidetail::DecodedImage lastImage; // the image step.stop decoded, for the final parse to use again

    json &step(long long index, const char *defaultType)
    {
        auto it = steps.find(index);
        if (it == steps.end())
            it = steps.emplace(index, json {{"type", defaultType}}).first;
        return it->second;
    }

    QString textSoFar() const
    {
        QStringList texts;
        for (const auto &[index, s] : steps) {
            if (str(s, "type") == QLatin1String("user_input"))
                texts.clear();
            if (str(s, "type") != QLatin1String("model_output") || !s.contains("content") || !s["content"].is_array())
                continue;
            for (const json &part : s["content"]) {
                if (str(part, "type") == QLatin1String("text") && !str(part, "text").isEmpty())
                    texts.append(str(part, "text"));
            }
        }
        return texts.join(QLatin1Char('\n'));
    }

    void mergeInteraction(const json &obj)
    {
        if (!obj.is_object())
            return;
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            if (it.key() == "steps") {
                // interaction.completed usually lacks steps; when present they are authoritative.
                if (it.value().is_array() && !it.value().empty()) {
                    steps.clear();
                    long long i = 0;
                    for (const json &s : it.value())
                        steps.emplace(i++, s);
                }
                continue;
            }
            interaction[it.key()] = it.value();
        }
    }

    void statusChanged(const QString &newStatus, QList<StreamEvent> &out)
    {
        if (newStatus.isEmpty() || newStatus == status)
            return;
        status = newStatus;
        interaction["status"] = newStatus.toStdString();
        StreamEvent e;
        e.type = StreamEvent::Type::StatusChanged;
        e.interactionId = str(interaction, "id");
        e.status = newStatus;
        out.append(e);
    }

    void draft(const json &part, QList<StreamEvent> &out)
    {
        StreamEvent e;
        e.type = StreamEvent::Type::Draft;
        e.interactionId = str(interaction, "id");
        if (decodeImagePart(part, e.image))
            out.append(e);
    }
};

StreamAssembler::StreamAssembler() : d(std::make_unique<Private>()) {}

StreamAssembler::~StreamAssembler() = default;

bool StreamAssembler::sawAnyEvent() const
{
    return d->sawAny;
}
bool StreamAssembler::isCompleted() const
{
    return d->completed;
}
bool StreamAssembler::isDone() const
{
    return d->done;
}
const std::optional<Error> &StreamAssembler::error() const
{
    return d->error;
}
QString StreamAssembler::interactionId() const
{
    return str(d->interaction, "id");
}

namespace {
json assembled(const json &interaction, const std::map<long long, json> &steps)
{
    json out = interaction;
    json list = json::array();
    for (const auto &[index, s] : steps)
        list.push_back(s);
    out["steps"] = std::move(list);
    return out;
}
} // namespace

QByteArray StreamAssembler::interactionJson() const
{
    return QByteArray::fromStdString(assembled(d->interaction, d->steps).dump());
}

Result<Interaction> StreamAssembler::parsedInteraction() const
{
    return apidetail::parseInteractionDocument(assembled(d->interaction, d->steps), false, &d->lastImage);
}

QList<StreamEvent> StreamAssembler::feed(const SseEvent &event)
{
    // nlohmann throws when a field has an unexpected type (a number where text belongs, a step
    // that is not an object): that is a malformed stream to report, never a reason to terminate.
    try {
        return apply(event);
    } catch (const json::exception &) {
        Error e;
        e.kind = ErrorKind::MalformedResponse;
        e.api.interactionId = interactionId();
        e.message
            = QStringLiteral("The server sent a stream event of an unexpected shape; try again without streaming.");
        d->error = e;
        d->done = true;
        return {};
    }
}

QList<StreamEvent> StreamAssembler::apply(const SseEvent &event)
{
    QList<StreamEvent> out;
    if (d->done)
        return out;
    if (event.data.trimmed() == "[DONE]") {
        d->done = true;
        return out;
    }
    d->sawAny = true;
    json payload = apidetail::parseJson(event.data.constBegin(), event.data.constEnd());
    if (payload.is_discarded() || !payload.is_object()) {
        Error e;
        e.kind = ErrorKind::MalformedResponse;
        e.api.interactionId = interactionId();
        e.message = QStringLiteral("The server sent a stream event that is not JSON; try again without streaming.");
        d->error = e;
        d->done = true;
        return out;
    }
    QString type = str(payload, "event_type");
    if (type.isEmpty())
        type = QString::fromUtf8(event.event);

    if (type == QLatin1String("interaction.created")) {
        d->mergeInteraction(payload.value("interaction", json::object()));
        StreamEvent e;
        e.type = StreamEvent::Type::Created;
        e.interactionId = interactionId();
        e.status = str(d->interaction, "status");
        d->status = e.status;
        out.append(e);
    } else if (type == QLatin1String("interaction.status_update")) {
        if (interactionId().isEmpty() && !str(payload, "interaction_id").isEmpty())
            d->interaction["id"] = payload["interaction_id"];
        if (payload.contains("usage"))
            d->interaction["usage"] = payload["usage"];
        d->statusChanged(str(payload, "status"), out);
    } else if (type == QLatin1String("step.start")) {
        const long long index = integer(payload, "index", 0);
        json step = payload.value("step", json::object());
        if (!step.is_object())
            step = json::object();
        d->steps[index] = step;
        if (str(step, "type") == QLatin1String("thought") && step.contains("summary") && step["summary"].is_array()) {
            for (const json &part : step["summary"]) {
                if (str(part, "type") == QLatin1String("image"))
                    d->draft(part, out);
            }
        }
    } else if (type == QLatin1String("step.delta")) {
        const long long index = integer(payload, "index", 0);
        // Taken out of the payload, not copied: an image delta carries ~1.3 MB of base64.
        json delta = json::object();
        if (const auto at = payload.find("delta"); at != payload.end())
            delta = std::move(*at);
        const QString dtype = str(delta, "type");
        if (dtype == QLatin1String("text") || dtype == QLatin1String("image")) {
            json &step = d->step(index, "model_output");
            if (!step.contains("content") || !step["content"].is_array())
                step["content"] = json::array();
            json &content = step["content"];
            json *last = content.empty() ? nullptr : &content.back();
            if (dtype == QLatin1String("text")) {
                const std::string text = delta.value("text", std::string());
                if (last && str(*last, "type") == QLatin1String("text"))
                    (*last)["text"] = last->value("text", std::string()) + text;
                else
                    content.push_back(json {{"type", "text"}, {"text", text}});
                StreamEvent e;
                e.type = StreamEvent::Type::Text;
                e.interactionId = interactionId();
                e.text = d->textSoFar();
                out.append(e);
            } else {
                const auto dataAt = delta.find("data");
                const std::string noData;
                // Data of another type throws (a malformed stream, see feed()).
                const std::string &data = dataAt != delta.end() ? dataAt->get_ref<const std::string &>() : noData;
                // A delta starts a new image only if the previous data is a whole file and this
                // one begins with an image signature; anything else continues the same image.
                const bool startsImage
                    = !sniffImageMimeType(ResponseParser::decodeBase64(QByteArray::fromStdString(data.substr(0, 16))))
                           .isEmpty();
                if (last && str(*last, "type") == QLatin1String("image") && last->contains("data")
                    && (*last)["data"].is_string()
                    && !(startsImage && looksComplete((*last)["data"].get_ref<const std::string &>()))) {
                    (*last)["data"].get_ref<std::string &>() += data;
                    if (delta.contains("mime_type") && !last->contains("mime_type"))
                        (*last)["mime_type"] = delta["mime_type"];
                } else {
                    delta["type"] = "image";
                    content.push_back(std::move(delta));
                }
            }
        } else if (dtype == QLatin1String("thought_signature")) {
            json &step = d->step(index, "thought");
            step["signature"] = delta.value("signature", json(""));
        } else if (dtype == QLatin1String("thought_summary")) {
            json &step = d->step(index, "thought");
            if (!step.contains("summary") || !step["summary"].is_array())
                step["summary"] = json::array();
            const json part = delta.value("content", json::object());
            step["summary"].push_back(part);
            if (str(part, "type") == QLatin1String("image"))
                d->draft(part, out);
        }
    } else if (type == QLatin1String("step.stop")) {
        const long long index = integer(payload, "index", 0);
        const auto it = d->steps.find(index);
        if (it != d->steps.end() && str(it->second, "type") == QLatin1String("model_output")
            && it->second.contains("content") && it->second["content"].is_array()) {
            const json &content = it->second["content"];
            for (auto p = content.rbegin(); p != content.rend(); ++p) {
                if (str(*p, "type") != QLatin1String("image"))
                    continue;
                StreamEvent e;
                e.type = StreamEvent::Type::ImageReceived;
                e.interactionId = interactionId();
                if (decodeImagePart(*p, e.image)) {
                    out.append(e);
                    d->lastImage.base64 = (*p)["data"].get_ref<const std::string &>();
                    d->lastImage.image = e.image;
                }
                break;
            }
        }
    } else if (type == QLatin1String("interaction.completed")) {
        const json obj = payload.value("interaction", json::object());
        const QString newStatus = str(obj, "status");
        d->mergeInteraction(obj);
        d->status = QString(); // force a final StatusChanged with the terminal status
        d->statusChanged(newStatus.isEmpty() ? QStringLiteral("completed") : newStatus, out);
        d->completed = true;
        d->done = true;
    } else if (type == QLatin1String("error")) {
        const json err = payload.value("error", json::object());
        Error e;
        e.api.serverCode = str(err, "code");
        if (e.api.serverCode.isEmpty() && err.contains("code") && err["code"].is_number())
            e.api.serverCode = QString::number(integer(err, "code", 0));
        e.api.serverCode = ResponseParser::boundedServerText(e.api.serverCode, ResponseParser::kMaxServerCodeChars);
        e.api.serverMessage = ResponseParser::boundedServerText(str(err, "message"));
        e.kind = ResponseParser::kindForCode(e.api.serverCode, ErrorKind::Server);
        e.api.interactionId = interactionId();
        e.message = QStringLiteral("The server reported an error during the stream%1%2. Try again.")
                        .arg(e.api.serverCode.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(e.api.serverCode),
                            e.api.serverMessage.isEmpty()
                                ? QString()
                                : QStringLiteral(": %1").arg(ResponseParser::withoutFinalDot(e.api.serverMessage)));
        d->error = e;
        d->done = true;
    }
    // Unknown event types (legacy names, future additions) are ignored on purpose.
    return out;
}

} // namespace nb2
