#include "core/api/responseparser.h"

#include "core/api/base64blocks.h"
#include "core/api/imageinput.h"
#include "core/api/responsedocument.h"
#include "core/api/thinkinglevels.h"

#include <QLocale>
#include <QRegularExpression>
#include <QTimeZone>

#include <nlohmann/json.hpp>

#include <array>
#include <cctype>
#include <cmath>

namespace nb2 {

using json = nlohmann::json;

namespace {

QString str(const json &obj, const char *key)
{
    if (!obj.is_object())
        return {};
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_string())
        return {};
    return QString::fromStdString(it->get<std::string>());
}

qint64 integer(const json &obj, const char *key)
{
    if (!obj.is_object())
        return -1;
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_number())
        return -1;
    if (it->is_number_float()) {
        // Only a float that fits: converting 1e300 to an integer is undefined behaviour.
        const double d = it->get<double>();
        return (d >= -0x1p63 && d < 0x1p63) ? qint64(d) : -1;
    }
    return it->get<qint64>();
}

QDateTime timestamp(const json &obj, const char *key)
{
    const QString s = str(obj, key);
    if (s.isEmpty())
        return {};
    QDateTime t = QDateTime::fromString(s, Qt::ISODateWithMs);
    if (!t.isValid())
        t = QDateTime::fromString(s, Qt::ISODate);
    return t;
}

QString shorten(const QString &text, int max = 300)
{
    QString t = text.simplified();
    if (t.size() > max)
        t = t.left(max - 1) + QStringLiteral("\u2026");
    return t;
}

// Decodes one ImageContent (or takes the assembler's decoding of the same data). Returns false
// (with a reason) for data that is not an image.
bool decodeImage(const json &part, ImageData &out, QString &why, const apidetail::DecodedImage *known = nullptr,
    const std::vector<std::string_view> *kept = nullptr)
{
    const auto it = part.find("data");
    if (it == part.end() || !it->is_string()) {
        why = QStringLiteral("the image was delivered by uri, which this client does not request");
        return false;
    }
    // Straight from the answer's text when parseJson kept it there (no 1.4 MB copy into the tree).
    const std::string_view data = apidetail::keptString(it->get_ref<const std::string &>(), kept);
    if (known && !known->image.isNull() && known->base64 == data) {
        out = known->image;
        return true;
    }
    bool ok = false;
    const QByteArray bytes = apidetail::decodeBase64(data.data(), qsizetype(data.size()), &ok);
    if (!ok || bytes.isEmpty()) {
        why = QStringLiteral("the image data is not valid base64");
        return false;
    }
    const QString sniffed = sniffImageMimeType(bytes);
    if (sniffed.isEmpty()) {
        why = QStringLiteral("the image data is not a recognisable image (declared %1)").arg(str(part, "mime_type"));
        return false;
    }
    out.bytes = bytes;
    // The bytes are the truth; a mislabelled mime_type would give a file the wrong extension.
    out.mimeType = sniffed;
    return true;
}

bool isUnfinished(const QString &status)
{
    return status == QLatin1String("in_progress") || status == QLatin1String("queued")
        || status == QLatin1String("requires_action") || status == QLatin1String("requires_continuation");
}

} // namespace

QByteArray ResponseParser::decodeBase64(const QByteArray &text, bool *ok)
{
    return apidetail::decodeBase64(text.constData(), text.size(), ok);
}

namespace apidetail {

namespace {

/** Standard base64 without whitespace, '=' only at the end: the form servers send. Decoded with
 *  a table, four characters at a time; false (nothing decided) for anything else, which the
 *  general path then decodes or rejects. */
bool decodeBase64Plain(const char *data, qsizetype size, QByteArray *out)
{
    static const auto table = [] {
        std::array<quint8, 256> t {};
        t.fill(0xff);
        const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < 64; ++i)
            t[static_cast<unsigned char>(alphabet[i])] = quint8(i);
        return t;
    }();
    while (size > 0 && data[size - 1] == '=')
        --size;
    if (size % 4 == 1)
        return false;
    QByteArray bytes(size / 4 * 3 + (size % 4 ? size % 4 - 1 : 0), Qt::Uninitialized);
    auto *o = reinterpret_cast<unsigned char *>(bytes.data());
    const auto *in = reinterpret_cast<const unsigned char *>(data);
    const auto *const fullEnd = in + size / 4 * 4;
    // Most of it 32 characters at a time where the CPU can (base64blocks.h); it stops 64
    // characters before the end, which leaves the 8 bytes of room its last store needs.
    const qsizetype blocks = decodeBase64Blocks(in, fullEnd - in, o);
    if (blocks < 0)
        return false; // a character outside the alphabet
    in += blocks;
    o += blocks / 4 * 3;
    for (; in < fullEnd; in += 4) {
        const quint8 a = table[in[0]], b = table[in[1]], c = table[in[2]], d = table[in[3]];
        if ((a | b | c | d) & 0x80)
            return false;
        const quint32 v = quint32(a) << 18 | quint32(b) << 12 | quint32(c) << 6 | d;
        *o++ = static_cast<unsigned char>(v >> 16);
        *o++ = static_cast<unsigned char>(v >> 8);
        *o++ = static_cast<unsigned char>(v);
    }
    const qsizetype rest = size % 4;
    if (rest) {
        quint32 v = 0;
        for (qsizetype i = 0; i < rest; ++i) {
            const quint8 x = table[in[i]];
            if (x & 0x80)
                return false;
            v |= quint32(x) << (18 - 6 * i);
        }
        *o++ = static_cast<unsigned char>(v >> 16);
        if (rest == 3)
            *o++ = static_cast<unsigned char>(v >> 8);
    }
    *out = std::move(bytes);
    return true;
}

} // namespace

QByteArray decodeBase64(const char *data, qsizetype size, bool *ok)
{
    QByteArray fast;
    if (decodeBase64Plain(data, size, &fast)) {
        if (ok)
            *ok = true;
        return fast;
    }
    // Written through a raw pointer: appending ~1.3 MB byte by byte was a visible part of a turn.
    QByteArray clean(size, Qt::Uninitialized);
    char *out = clean.data();
    bool urlSafe = false;
    for (const char *p = data, *end = data + size; p < end; ++p) {
        const char c = *p;
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
        if (c == '-' || c == '_')
            urlSafe = true;
        *out++ = c;
    }
    clean.truncate(out - clean.constData());
    while (clean.endsWith('='))
        clean.chop(1);
    if (clean.size() % 4 == 1) {
        if (ok)
            *ok = false;
        return {};
    }
    while (clean.size() % 4 != 0)
        clean.append('=');
    const auto options = (urlSafe ? QByteArray::Base64UrlEncoding : QByteArray::Base64Encoding)
        | QByteArray::AbortOnBase64DecodingErrors;
    const auto result = QByteArray::fromBase64Encoding(clean, options);
    if (ok)
        *ok = result.decodingStatus == QByteArray::Base64DecodingStatus::Ok;
    return result.decodingStatus == QByteArray::Base64DecodingStatus::Ok ? result.decoded : QByteArray();
}

} // namespace apidetail

int ResponseParser::parseDurationMs(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s)?\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return -1;
    const double value = m.captured(1).toDouble();
    const double ms = m.captured(2) == QLatin1String("ms") ? value : value * 1000.0;
    return int(std::min(ms, 1e9));
}

int ResponseParser::parseRetryAfter(const QString &retryAfter, const QString &retryAfterMs, const QDateTime &now)
{
    bool ok = false;
    const double ms = retryAfterMs.trimmed().toDouble(&ok);
    if (ok && ms >= 0)
        return int(std::min(ms, 1e9));
    const QString ra = retryAfter.trimmed();
    if (ra.isEmpty())
        return -1;
    const double seconds = ra.toDouble(&ok);
    if (ok && seconds >= 0)
        return int(std::min(seconds * 1000.0, 1e9));
    // HTTP-date, e.g. "Wed, 21 Oct 2015 07:28:00 GMT".
    QString date = ra;
    date.remove(QLatin1String(" GMT"));
    QDateTime when = QLocale::c().toDateTime(date, QStringLiteral("ddd, dd MMM yyyy HH:mm:ss"));
    if (!when.isValid())
        return -1;
    when.setTimeZone(QTimeZone::utc());
    return int(std::max<qint64>(0, now.msecsTo(when)));
}

QString ResponseParser::salvageInteractionId(const QByteArray &body)
{
    // A tiny scanner, not a parser: depth and strings are tracked so that only the top-level
    // object's "id" key counts, and a value cut before its closing quote is not taken.
    int depth = 0;
    bool expectKey = false;
    for (qsizetype i = 0; i < body.size(); ++i) {
        const char c = body.at(i);
        if (c == '"') {
            qsizetype end = i + 1;
            QByteArray text;
            while (end < body.size() && body.at(end) != '"') {
                if (body.at(end) == '\\')
                    ++end; // skip the escaped character
                else
                    text.append(body.at(end));
                ++end;
            }
            if (end >= body.size())
                return {}; // cut inside a string
            const bool wasKey = depth == 1 && expectKey;
            i = end;
            expectKey = false;
            if (!wasKey || text != "id")
                continue;
            // The key "id" at the top level: its value must be a complete string.
            qsizetype j = i + 1;
            while (j < body.size()
                && (body.at(j) == ' ' || body.at(j) == '\n' || body.at(j) == '\r' || body.at(j) == '\t'))
                ++j;
            if (j >= body.size() || body.at(j) != ':')
                return {};
            ++j;
            while (j < body.size()
                && (body.at(j) == ' ' || body.at(j) == '\n' || body.at(j) == '\r' || body.at(j) == '\t'))
                ++j;
            if (j >= body.size() || body.at(j) != '"')
                return {};
            const qsizetype close = body.indexOf('"', j + 1);
            if (close < 0)
                return {};
            const QByteArray id = body.mid(j + 1, close - j - 1);
            // Ids are printable tokens (v1_ + base64url on the real service); anything else is not one.
            for (char ch : id) {
                if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.' || ch == '/'
                        || ch == '='))
                    return {};
            }
            return QString::fromLatin1(id);
        }
        if (c == '{' || c == '[') {
            ++depth;
            expectKey = c == '{' && depth == 1;
        } else if (c == '}' || c == ']') {
            --depth;
        } else if (c == ',' && depth == 1) {
            expectKey = true;
        }
    }
    return {};
}

QString ResponseParser::withoutFinalDot(const QString &text)
{
    QString t = text.trimmed();
    while (t.endsWith(QLatin1Char('.')))
        t.chop(1);
    return t;
}

ErrorKind ResponseParser::kindForCode(const QString &code, ErrorKind fallback)
{
    const QString c = code.toLower();
    if (c == QLatin1String("resource_exhausted") || c == QLatin1String("rate_limit_exceeded"))
        return ErrorKind::RateLimited;
    if (c == QLatin1String("invalid_request") || c == QLatin1String("invalid_argument")
        || c == QLatin1String("failed_precondition"))
        return ErrorKind::InvalidRequest;
    if (c == QLatin1String("not_found"))
        return ErrorKind::NotFound;
    if (c == QLatin1String("unauthenticated") || c == QLatin1String("permission_denied")
        || c == QLatin1String("api_key_invalid"))
        return ErrorKind::Auth;
    if (c == QLatin1String("internal") || c == QLatin1String("unavailable"))
        return ErrorKind::Server;
    if (c == QLatin1String("deadline_exceeded"))
        return ErrorKind::Timeout;
    if (c == QLatin1String("cancelled"))
        return ErrorKind::Cancelled;
    return fallback;
}

Result<Interaction> ResponseParser::parseInteraction(const QByteArray &body, bool allowUnfinished)
{
    std::vector<std::string_view> kept; // views into body, which outlives the parse below
    const json doc = apidetail::parseJson(body.constBegin(), body.constEnd(), &kept);
    if (doc.is_discarded() || !doc.is_object()) {
        return Error::make(ErrorKind::MalformedResponse,
            QStringLiteral("The server's answer is not a JSON interaction (%1 bytes: \"%2\"). "
                           "Check the base URL; if it is right, try again.")
                .arg(body.size())
                .arg(shorten(QString::fromUtf8(body.left(200)), 80)));
    }
    return apidetail::parseInteractionDocument(doc, allowUnfinished, nullptr, &kept);
}

Result<Interaction> apidetail::parseInteractionDocument(const json &doc, bool allowUnfinished,
    const apidetail::DecodedImage *known, const std::vector<std::string_view> *kept)
{
    using R = ResponseParser;
    Interaction it;
    it.id = str(doc, "id");
    it.status = str(doc, "status");
    it.model = str(doc, "model");
    it.previousInteractionId = str(doc, "previous_interaction_id");
    it.created = timestamp(doc, "created");
    it.updated = timestamp(doc, "updated");
    if (const auto u = doc.find("usage"); u != doc.end() && u->is_object()) {
        it.usage.inputTokens = integer(*u, "total_input_tokens");
        it.usage.outputTokens = integer(*u, "total_output_tokens");
        it.usage.thoughtTokens = integer(*u, "total_thought_tokens");
        if (it.usage.thoughtTokens < 0)
            it.usage.thoughtTokens = integer(*u, "total_reasoning_tokens");
        it.usage.totalTokens = integer(*u, "total_tokens");
        // Image output is billed at its own rate: keep the image share of the output tokens.
        if (const auto m = u->find("output_tokens_by_modality"); m != u->end() && m->is_array()) {
            for (const json &entry : *m) {
                if (str(entry, "modality") == QLatin1String("image")) {
                    const qint64 n = integer(entry, "tokens");
                    if (n >= 0)
                        it.usage.imageOutputTokens = qMax<qint64>(0, it.usage.imageOutputTokens) + n;
                }
            }
        }
    }

    // The current turn: walk back from the last step to the first user_input (SDK output_image rule).
    const json empty = json::array();
    const auto stepsIt = doc.find("steps");
    const json &steps = (stepsIt != doc.end() && stepsIt->is_array()) ? *stepsIt : empty;
    size_t turnStart = 0;
    for (size_t i = steps.size(); i > 0; --i) {
        if (str(steps[i - 1], "type") == QLatin1String("user_input")) {
            turnStart = i;
            break;
        }
    }

    QStringList texts;
    const json *lastImage = nullptr;
    QString stepErrorCode, stepErrorMessage;
    for (size_t i = turnStart; i < steps.size(); ++i) {
        const json &step = steps[i];
        const QString type = str(step, "type");
        if (type == QLatin1String("model_output")) {
            if (const auto c = step.find("content"); c != step.end() && c->is_array()) {
                for (const json &part : *c) {
                    const QString partType = str(part, "type");
                    if (partType == QLatin1String("image"))
                        lastImage = &part;
                    else if (partType == QLatin1String("text") && !str(part, "text").isEmpty())
                        texts.append(str(part, "text"));
                }
            }
            if (const auto e = step.find("error"); e != step.end() && e->is_object()) {
                stepErrorMessage = str(*e, "message");
                stepErrorCode = str(*e, "status");
                if (stepErrorCode.isEmpty() && e->contains("code"))
                    stepErrorCode = QString::fromStdString((*e)["code"].dump());
            }
        } else if (type == QLatin1String("thought")) {
            if (const auto s = step.find("summary"); s != step.end() && s->is_array()) {
                for (const json &part : *s) {
                    if (str(part, "type") != QLatin1String("image"))
                        continue;
                    ImageData draft;
                    QString why;
                    if (decodeImage(part, draft, why, nullptr, kept))
                        it.drafts.append(draft);
                }
            }
        }
    }
    it.text = texts.join(QLatin1Char('\n'));

    // errors[] on the interaction (diagnostic faults), or a model_output step's error.
    QString errorCode = stepErrorCode, errorMessage = stepErrorMessage;
    if (const auto errs = doc.find("errors"); errs != doc.end() && errs->is_array() && !errs->empty()) {
        errorCode = str(errs->front(), "code");
        errorMessage = str(errs->front(), "message");
    }
    errorCode = R::boundedServerText(errorCode, R::kMaxServerCodeChars);
    errorMessage = R::boundedServerText(errorMessage);

    const QString status = it.status;
    if (!status.isEmpty() && status != QLatin1String("completed")) {
        if (isUnfinished(status) && allowUnfinished)
            return it;
        Error e;
        e.api.serverCode = errorCode;
        e.api.serverMessage = errorMessage;
        e.api.modelText = it.text;
        e.api.interactionId = it.id;
        if (isUnfinished(status)) {
            e.kind = ErrorKind::Server;
            e.message = QStringLiteral("The interaction has not finished (status '%1'); fetch it again later "
                                       "with its id%2.")
                            .arg(status, it.id.isEmpty() ? QString() : QStringLiteral(" %1").arg(it.id));
        } else {
            e.kind = status == QLatin1String("cancelled") ? ErrorKind::Cancelled : ErrorKind::Server;
            e.message = QStringLiteral("The interaction ended with status '%1'%2. Try again; if it keeps "
                                       "failing, change the prompt or settings.")
                            .arg(status,
                                errorMessage.isEmpty() ? QString()
                                                       : QStringLiteral(": %1").arg(R::withoutFinalDot(errorMessage)));
        }
        return e;
    }

    if (!lastImage) {
        Error e;
        e.kind = ErrorKind::NoImage;
        e.api.modelText = it.text;
        e.api.interactionId = it.id;
        e.api.serverCode = errorCode;
        e.api.serverMessage = errorMessage;
        e.message = it.text.isEmpty()
            ? QStringLiteral("The model returned no image and no text. Rephrase the prompt and try again.")
            : QStringLiteral("The model returned no image; it said: \"%1\". Rephrase the prompt and try again.")
                  .arg(shorten(it.text, 400));
        return e;
    }
    QString why;
    if (!decodeImage(*lastImage, it.image, why, known, kept)) {
        Error e = Error::make(ErrorKind::MalformedResponse,
            QStringLiteral("The server's image could not be used: %1. Try again.").arg(why));
        e.api.interactionId = it.id;
        e.api.modelText = it.text;
        return e;
    }
    return it;
}

QString ResponseParser::boundedServerText(const QString &text, int max)
{
    if (text.size() <= max)
        return text;
    int keep = qMax(0, max - 1);
    if (keep > 0 && text.at(keep - 1).isHighSurrogate())
        --keep; // never split a surrogate pair
    return text.left(keep) + QChar(0x2026);
}

Error ResponseParser::parseError(int httpStatus, const QByteArray &body)
{
    Error e;
    e.api.httpStatus = httpStatus;

    // Real error bodies are a few KB. A bigger one is not parsed as a whole (its DOM would be
    // several times its size); its start is kept as text like any other non-JSON body.
    json doc = body.size() <= kMaxErrorBodyBytes ? json::parse(body.constBegin(), body.constEnd(), nullptr, false)
                                                 : json(json::value_t::discarded);
    if (!doc.is_discarded() && doc.is_array() && !doc.empty())
        doc = doc.front(); // [{"error":{...}}] as seen for an invalid key
    QStringList reasons;
    if (!doc.is_discarded() && doc.is_object() && doc.contains("error")) {
        const json &err = doc["error"];
        if (err.is_object()) {
            e.api.serverMessage = boundedServerText(str(err, "message"));
            QString stringCode = str(err, "code");
            const QString status = str(err, "status");
            if (const auto d = err.find("details"); d != err.end() && d->is_array()) {
                for (const json &detail : *d) {
                    const QString reason = str(detail, "reason");
                    if (!reason.isEmpty())
                        reasons.append(reason);
                    const QString delay = str(detail, "retryDelay");
                    if (!delay.isEmpty() && e.api.retryAfterMs < 0)
                        e.api.retryAfterMs = parseDurationMs(delay);
                }
            }
            e.api.serverCode = boundedServerText(!reasons.isEmpty() ? reasons.front()
                    : !stringCode.isEmpty()                         ? stringCode
                                                                    : status,
                kMaxServerCodeChars);
        } else if (err.is_string()) {
            e.api.serverMessage = boundedServerText(QString::fromStdString(err.get<std::string>()));
        }
    } else if (!body.trimmed().isEmpty()) {
        // Non-JSON (an HTML error page from a proxy): keep the readable text only.
        QString text = QString::fromUtf8(body.left(4096));
        static const QRegularExpression scripts(QStringLiteral("<(script|style)[^>]*>.*?</\\1>"),
            QRegularExpression::CaseInsensitiveOption | QRegularExpression::DotMatchesEverythingOption);
        static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
        text.remove(scripts);
        text.replace(tags, QStringLiteral(" "));
        e.api.serverMessage = shorten(text);
    }

    const bool keyInvalid = reasons.contains(QLatin1String("API_KEY_INVALID"))
        || e.api.serverMessage.contains(QLatin1String("API key not valid"), Qt::CaseInsensitive)
        || e.api.serverCode == QLatin1String("API_KEY_INVALID");
    e.api.allowedValues = ThinkingLevels::parseAllowedValues(e.api.serverMessage);

    const QString said = e.api.serverMessage.isEmpty()
        ? QString()
        : QStringLiteral(": %1").arg(ResponseParser::withoutFinalDot(e.api.serverMessage));
    if ((httpStatus == 400 && keyInvalid) || httpStatus == 401 || httpStatus == 403) {
        e.kind = ErrorKind::Auth;
        e.message = QStringLiteral("The server rejected the API key (HTTP %1%2). Check the key in "
                                   "GEMINI_API_KEY, GOOGLE_API_KEY or ~/gemini.key.")
                        .arg(httpStatus)
                        .arg(said);
    } else if (httpStatus == 404 || httpStatus == 410) {
        e.kind = ErrorKind::NotFound;
        e.message = QStringLiteral("Not found (HTTP %1%2). The interaction may have expired or been deleted, "
                                   "or the model name is wrong.")
                        .arg(httpStatus)
                        .arg(said);
    } else if (httpStatus == 413) {
        e.kind = ErrorKind::TooLarge;
        // What helps depends on what was sent (images or only text): the client adds it.
        e.message = QStringLiteral("The server says the request is too large (HTTP 413%1).").arg(said);
    } else if (httpStatus == 429) {
        e.kind = ErrorKind::RateLimited;
        e.message = QStringLiteral("Rate limited by the server (HTTP 429%1). Wait and try again.").arg(said);
    } else if (httpStatus == 408) {
        e.kind = ErrorKind::Timeout;
        e.message = QStringLiteral("The server timed out waiting for the request (HTTP 408%1). Try again.").arg(said);
    } else if (httpStatus >= 500 || httpStatus == 409) {
        e.kind = ErrorKind::Server;
        e.message = QStringLiteral("The server failed (HTTP %1%2). This is usually temporary; try again later.")
                        .arg(httpStatus)
                        .arg(said);
    } else if (httpStatus >= 400) {
        e.kind = ErrorKind::InvalidRequest;
        e.message = QStringLiteral("The server rejected the request (HTTP %1%2). Change the named setting "
                                   "and try again.")
                        .arg(httpStatus)
                        .arg(said);
    } else {
        e.kind = ErrorKind::Server;
        e.message = QStringLiteral("Unexpected answer from the server (HTTP %1%2). Check the base URL.")
                        .arg(httpStatus)
                        .arg(said);
    }
    return e;
}

} // namespace nb2
