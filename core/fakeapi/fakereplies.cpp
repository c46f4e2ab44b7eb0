// Reply builders, ids, image sniffing and the on-disk record format of the fake server.
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

namespace nb2::fakedetail {

QString isoNow(qint64 offsetMs)
{
    return QDateTime::currentDateTimeUtc().addMSecs(offsetMs).toString(Qt::ISODate);
}

bool shutDownConnection(const httplib::Request &req)
{
#ifdef Q_OS_UNIX
    bool okRemote = false, okLocal = false;
    const int remotePort = q(req.get_header_value("REMOTE_PORT")).toInt(&okRemote);
    const int localPort = q(req.get_header_value("LOCAL_PORT")).toInt(&okLocal);
    if (!okRemote || !okLocal)
        return false;
    const QStringList fds = QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::Files | QDir::System);
    for (const QString &name : fds) {
        bool isNumber = false;
        const int fd = name.toInt(&isNumber);
        if (!isNumber)
            continue;
        sockaddr_storage peer {}, self {};
        socklen_t peerLen = sizeof peer, selfLen = sizeof self;
        if (::getpeername(fd, reinterpret_cast<sockaddr *>(&peer), &peerLen) != 0
            || ::getsockname(fd, reinterpret_cast<sockaddr *>(&self), &selfLen) != 0)
            continue;
        auto portOf = [](const sockaddr_storage &a) {
            if (a.ss_family == AF_INET)
                return int(ntohs(reinterpret_cast<const sockaddr_in &>(a).sin_port));
            if (a.ss_family == AF_INET6)
                return int(ntohs(reinterpret_cast<const sockaddr_in6 &>(a).sin6_port));
            return -1;
        };
        if (portOf(peer) == remotePort && portOf(self) == localPort) {
            // Linger 0: the close that follows is a reset (RST), not an orderly end.
            const linger abort {1, 0};
            ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort, sizeof abort);
            ::shutdown(fd, SHUT_RDWR);
            return true;
        }
    }
#else
    Q_UNUSED(req);
#endif
    return false;
}

Reply jsonReply(int status, const json &body)
{
    Reply r;
    r.status = status;
    r.body = body.dump();
    return r;
}

Reply nativeError(int status, const char *code, const QString &message)
{
    json e = json::object();
    e["message"] = s(message);
    e["code"] = code;
    return jsonReply(status, json {{"error", e}});
}

Reply googleError(int status, const char *statusName, const QString &message)
{
    json e = json::object();
    e["code"] = status;
    e["message"] = s(message);
    e["status"] = statusName;
    return jsonReply(status, json {{"error", e}});
}

Reply keyError()
{
    const char *msg = "API key not valid. Please pass a valid API key.";
    json err = json::object();
    err["code"] = 400;
    err["message"] = msg;
    err["status"] = "INVALID_ARGUMENT";
    err["details"] = json::array({json {{"@type", "type.googleapis.com/google.rpc.ErrorInfo"},
                                      {"reason", "API_KEY_INVALID"}, {"domain", "googleapis.com"},
                                      {"metadata", json {{"service", "generativelanguage.googleapis.com"}}}},
        json {{"@type", "type.googleapis.com/google.rpc.LocalizedMessage"}, {"locale", "en-US"}, {"message", msg}}});
    return jsonReply(400, json::array({json {{"error", err}}}));
}

Reply notFoundInteraction(const QString &id)
{
    return nativeError(404, "not_found",
        QStringLiteral("Interaction '%1' was not found. It may have expired or been deleted.").arg(id));
}

bool decodeBase64Strict(const std::string &in, QByteArray *out)
{
    if (in.empty() || in.size() % 4 != 0)
        return false;
    size_t pad = 0;
    for (size_t i = 0; i < in.size(); ++i) {
        const char c = in[i];
        const bool alpha
            = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
        if (c == '=') {
            if (i < in.size() - 2)
                return false;
            ++pad;
        } else if (!alpha || pad > 0) {
            return false;
        }
    }
    auto result
        = QByteArray::fromBase64Encoding(QByteArray::fromStdString(in), QByteArray::AbortOnBase64DecodingErrors);
    if (!result)
        return false;
    *out = *result;
    return !out->isEmpty();
}

QString sniffImageMime(const QByteArray &b)
{
    if (b.startsWith("\x89PNG\r\n\x1a\n"))
        return QStringLiteral("image/png");
    if (b.size() > 3 && uchar(b[0]) == 0xFF && uchar(b[1]) == 0xD8 && uchar(b[2]) == 0xFF)
        return QStringLiteral("image/jpeg");
    if (b.startsWith("GIF87a") || b.startsWith("GIF89a"))
        return QStringLiteral("image/gif");
    if (b.size() >= 12 && b.startsWith("RIFF") && b.mid(8, 4) == "WEBP")
        return QStringLiteral("image/webp");
    if (b.startsWith("BM") && b.size() > 26)
        return QStringLiteral("image/bmp");
    if (b.startsWith(QByteArray("II*\0", 4)) || b.startsWith(QByteArray("MM\0*", 4)))
        return QStringLiteral("image/tiff");
    if (b.size() >= 12 && b.mid(4, 4) == "ftyp") {
        const QByteArray brand = b.mid(8, 4);
        if (brand == "heic" || brand == "heix" || brand == "hevc" || brand == "heim" || brand == "heis")
            return QStringLiteral("image/heic");
        if (brand == "mif1" || brand == "msf1" || brand == "avif")
            return QStringLiteral("image/heif");
    }
    return {};
}

bool mimeCompatible(const QString &declared, const QString &sniffed)
{
    if (declared == sniffed)
        return true;
    const QSet<QString> heif {QStringLiteral("image/heic"), QStringLiteral("image/heif")};
    return heif.contains(declared) && heif.contains(sniffed);
}

QString randomAlnum(int n)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    QString out;
    out.reserve(n);
    for (int i = 0; i < n; ++i)
        out += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(64)]);
    return out;
}

QString newInteractionId()
{
    QByteArray raw;
    raw += char(0x0A);
    raw += char(23);
    raw += randomAlnum(23).toLatin1();
    raw += char(0x12);
    raw += char(23);
    raw += randomAlnum(23).toLatin1();
    return QStringLiteral("v1_")
        + QString::fromLatin1(raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QString newSignature()
{
    QByteArray raw(48, Qt::Uninitialized);
    for (char &c : raw)
        c = char(QRandomGenerator::global()->bounded(256));
    return QString::fromLatin1(raw.toBase64());
}

bool isStorableId(const QString &id)
{
    static const QRegularExpression re(QStringLiteral("^v1_[A-Za-z0-9_-]{1,200}$"));
    return re.match(id).hasMatch();
}

QByteArray outputJpeg(const json &interaction)
{
    QByteArray jpeg;
    if (!interaction.contains("steps") || !interaction["steps"].is_array())
        return jpeg;
    for (const json &step : interaction["steps"]) {
        if (!step.is_object() || step.value("type", std::string()) != "model_output" || !step.contains("content")
            || !step["content"].is_array())
            continue;
        for (const json &part : step["content"]) {
            if (part.is_object() && part.value("type", std::string()) == "image" && part.contains("data")
                && part["data"].is_string())
                jpeg = QByteArray::fromBase64(QByteArray::fromStdString(part["data"].get<std::string>()));
        }
    }
    return jpeg;
}

json recordOf(const Stored &st)
{
    json caption = json::array();
    for (const QString &line : st.caption)
        caption.push_back(s(line));
    json record = json::object();
    record["format"] = kRecordFormat;
    record["version"] = 1;
    record["id"] = s(st.id);
    record["status"] = s(st.status);
    record["background_done_at_ms"] = st.backgroundDoneAtMs;
    record["caption"] = caption;
    record["user_content"] = st.userContent;
    record["interaction"] = st.interaction; // holds the output image (base64) once
    return record;
}

std::optional<Stored> storedFromRecord(const QByteArray &bytes, const QString &id)
{
    try {
        const json record = json::parse(bytes.constData(), bytes.constData() + bytes.size());
        if (!record.is_object() || record.value("format", std::string()) != kRecordFormat
            || record.value("id", std::string()) != s(id) || !record.contains("status") || !record["status"].is_string()
            || !record.contains("interaction") || !record["interaction"].is_object())
            return std::nullopt;
        Stored st;
        st.id = id;
        st.status = q(record["status"].get<std::string>());
        st.interaction = record["interaction"];
        st.userContent = record.contains("user_content") ? record["user_content"] : json::array();
        if (record.contains("background_done_at_ms") && record["background_done_at_ms"].is_number_integer())
            st.backgroundDoneAtMs = record["background_done_at_ms"].get<qint64>();
        if (record.contains("caption") && record["caption"].is_array()) {
            for (const json &line : record["caption"]) {
                if (line.is_string())
                    st.caption.append(q(line.get<std::string>()));
            }
        }
        st.jpeg = outputJpeg(st.interaction);
        return st;
    } catch (const json::exception &) {
        return std::nullopt;
    }
}

QString typeName(const json &j)
{
    switch (j.type()) {
    case json::value_t::string:
        return QStringLiteral("a string");
    case json::value_t::boolean:
        return QStringLiteral("a boolean");
    case json::value_t::array:
        return QStringLiteral("an array");
    case json::value_t::object:
        return QStringLiteral("an object");
    case json::value_t::null:
        return QStringLiteral("null");
    default:
        return QStringLiteral("a number");
    }
}

Reply unknownField(const QString &where, const std::string &key)
{
    return invalidArgument(
        QStringLiteral("Invalid JSON payload received. Unknown name \"%1\" at '%2': Cannot find field.")
            .arg(q(key), where));
}

Reply wrongType(const QString &field, const json &value, const char *expected)
{
    return invalidArgument(QStringLiteral("Invalid value at '%1' (%2): expected %3, got %4.")
                               .arg(field, QLatin1String(expected), QLatin1String(expected), typeName(value)));
}

} // namespace nb2::fakedetail
