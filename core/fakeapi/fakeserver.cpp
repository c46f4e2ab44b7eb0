#include "core/fakeapi/fakeserver.h"

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

#include <httplib.h>
#include <nlohmann/json.hpp>

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

using json = nlohmann::ordered_json;

namespace {

constexpr size_t kMaxRequestBytes = 20u * 1024u * 1024u; // spec §2.1: whole request ≤ 20 MB
constexpr size_t kHardBodyCap = 64u * 1024u * 1024u;     // above this httplib itself answers 413
constexpr int kMaxLoggedRequests = 1000;
constexpr qsizetype kMaxLoggedBytes = 96 * 1024 * 1024; // long demo sessions must not grow without bound
constexpr int kMaxInputImages = 14;
const char *const kJsonType = "application/json; charset=UTF-8";
const char *const kSseType = "text/event-stream"; // exact: httplib does not gzip this type

std::string s(const QString &q) { return q.toStdString(); }
QString q(const std::string &str) { return QString::fromStdString(str); }

QString isoNow(qint64 offsetMs = 0)
{
    return QDateTime::currentDateTimeUtc().addMSecs(offsetMs).toString(Qt::ISODate);
}

/**
 * Closes the connection a request came in on before any answer byte is written (the
 * reset_before_first_byte fault). httplib 0.11 gives a handler no socket, but it does give the
 * peer's and our port: the one socket of this process with that pair is the connection.
 * Returns false when it was not found (then the caller answers normally).
 */
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
        sockaddr_storage peer{}, self{};
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
            const linger abort{1, 0};
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

/** Everything a handler decides; written to httplib by deliver(). */
struct Reply {
    int status = 200;
    std::string contentType = kJsonType;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    bool sse = false;
    std::vector<std::pair<int, std::string>> events; // (delay before, frame) when sse
};

Reply jsonReply(int status, const json &body)
{
    Reply r;
    r.status = status;
    r.body = body.dump();
    return r;
}

/** Shape 1 (Interactions-native, string code), spec §6. */
Reply nativeError(int status, const char *code, const QString &message)
{
    json e = json::object();
    e["message"] = s(message);
    e["code"] = code;
    return jsonReply(status, json{{"error", e}});
}

/** Shape 2 (Google API style, numeric code + status), spec §6. */
Reply googleError(int status, const char *statusName, const QString &message)
{
    json e = json::object();
    e["code"] = status;
    e["message"] = s(message);
    e["status"] = statusName;
    return jsonReply(status, json{{"error", e}});
}

Reply invalidArgument(const QString &message) { return googleError(400, "INVALID_ARGUMENT", message); }

/** Shape 3: the array-wrapped Google error the service sends for a bad key (spec §6). */
Reply keyError()
{
    const char *msg = "API key not valid. Please pass a valid API key.";
    json err = json::object();
    err["code"] = 400;
    err["message"] = msg;
    err["status"] = "INVALID_ARGUMENT";
    err["details"] = json::array(
        {json{{"@type", "type.googleapis.com/google.rpc.ErrorInfo"},
              {"reason", "API_KEY_INVALID"},
              {"domain", "googleapis.com"},
              {"metadata", json{{"service", "generativelanguage.googleapis.com"}}}},
         json{{"@type", "type.googleapis.com/google.rpc.LocalizedMessage"},
              {"locale", "en-US"},
              {"message", msg}}});
    return jsonReply(400, json::array({json{{"error", err}}}));
}

Reply notFoundInteraction(const QString &id)
{
    return nativeError(404, "not_found",
                       QStringLiteral("Interaction '%1' was not found. It may have expired or been deleted.").arg(id));
}

/** Strict standard base64 (RFC 4648 §4, padding required), as the service expects. */
bool decodeBase64Strict(const std::string &in, QByteArray *out)
{
    if (in.empty() || in.size() % 4 != 0)
        return false;
    size_t pad = 0;
    for (size_t i = 0; i < in.size(); ++i) {
        const char c = in[i];
        const bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                           || c == '+' || c == '/';
        if (c == '=') {
            if (i < in.size() - 2)
                return false;
            ++pad;
        } else if (!alpha || pad > 0) {
            return false;
        }
    }
    auto result = QByteArray::fromBase64Encoding(QByteArray::fromStdString(in),
                                                 QByteArray::AbortOnBase64DecodingErrors);
    if (!result)
        return false;
    *out = *result;
    return !out->isEmpty();
}

/** Image type from magic bytes; empty when the bytes are not an image we know. */
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
    const QSet<QString> heif{QStringLiteral("image/heic"), QStringLiteral("image/heif")};
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

/** Looks like the real ids: "v1_" + base64url of a small protobuf (two 23-char fields). */
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

int textTokens(const QString &text) { return std::max(1, int(text.toUtf8().size() + 3) / 4); }

struct InputImage {
    QByteArray bytes;
    QString mime;
    QImage pixels;
};

/** What a create request asks for, after validation. */
struct ParsedCreate {
    QString model;
    QString prompt;
    QList<InputImage> images; // current turn, in order
    QImage historyImage;      // stateless step input: latest image from earlier steps
    json userContent = json::array();
    bool store = true;
    bool stream = false;
    bool background = false;
    QString previousId;
    QString aspect; // empty = not requested
    bool wantImage = true;
    QString thinkingLevel;
};

struct Stored {
    QString id;
    QString status;
    json interaction; // as POST returned it (final form)
    json userContent;
    QByteArray jpeg; // the output image; decoded again for an edit (keeps memory ~50 KB/turn)
    QStringList caption;
    qint64 backgroundDoneAtMs = 0;
};

// ---- The optional on-disk store (FakeServerOptions::storeDir) ----

// A stored request may carry up to 20 MB of images as base64, plus the answer.
constexpr qint64 kMaxRecordBytes = 96 * 1024 * 1024;
constexpr const char *kRecordFormat = "nb2fakeapi-interaction";

/** Ids are opaque to clients, but ours are "v1_" + base64url: anything else never names a file. */
bool isStorableId(const QString &id)
{
    static const QRegularExpression re(QStringLiteral("^v1_[A-Za-z0-9_-]{1,200}$"));
    return re.match(id).hasMatch();
}

/** The output image of a stored interaction (last image of its model_output steps), or empty. */
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

/** A record written by recordOf(), checked field by field; nullopt when it is not one. */
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
    case json::value_t::string: return QStringLiteral("a string");
    case json::value_t::boolean: return QStringLiteral("a boolean");
    case json::value_t::array: return QStringLiteral("an array");
    case json::value_t::object: return QStringLiteral("an object");
    case json::value_t::null: return QStringLiteral("null");
    default: return QStringLiteral("a number");
    }
}

Reply unknownField(const QString &where, const std::string &key)
{
    return invalidArgument(QStringLiteral("Invalid JSON payload received. Unknown name \"%1\" at '%2': Cannot find field.")
                               .arg(q(key), where));
}

Reply wrongType(const QString &field, const json &value, const char *expected)
{
    return invalidArgument(QStringLiteral("Invalid value at '%1' (%2): expected %3, got %4.")
                               .arg(field, QLatin1String(expected), QLatin1String(expected), typeName(value)));
}

} // namespace

// ---------------------------------------------------------------------------------------

class FakeServer::Private
{
public:
    explicit Private(FakeServerOptions o) : opts(std::move(o)), storeDir(opts.storeDir)
    {
        if (!opts.fixedImageJpeg.isEmpty())
            fixedDraftJpeg = FakeImagePainter::encodeJpeg(FakeImagePainter::draft(QImage::fromData(opts.fixedImageJpeg, "JPEG")), 70);
    }
    QByteArray fixedDraftJpeg; // the draft of opts.fixedImageJpeg, made once

    // configuration and state (m_mutex)
    mutable std::mutex mutex;
    FakeServerOptions opts;
    QHash<QString, Stored> store;
    QList<FakeRequest> log;
    qsizetype logBytes = 0;
    std::deque<FakeFault> faults;
    QString error;
    const QString storeDir; // FakeServerOptions::storeDir; fixed for the server's life, read without the mutex

    // server lifetime
    std::unique_ptr<httplib::Server> http;
    std::thread thread;
    quint16 port = 0;
    std::atomic<bool> stopping{false};
    std::mutex stopMutex;
    std::condition_variable stopCv;

    /** Sleeps unless stop() is called meanwhile; false when interrupted. */
    bool sleepMs(int ms)
    {
        if (ms <= 0)
            return !stopping.load();
        std::unique_lock<std::mutex> lock(stopMutex);
        return !stopCv.wait_for(lock, std::chrono::milliseconds(ms), [this] { return stopping.load(); });
    }

    void handle(const httplib::Request &req, httplib::Response &res);
    void deliver(Reply reply, std::optional<FakeFault> fault, httplib::Response &res);
    Reply control(const httplib::Request &req, const std::string &path);
    Reply requestLog() const;

    // The on-disk store; called without the mutex held (file I/O must not block other requests).
    QString recordPath(const QString &id) const; // empty: no store, or an id that cannot name a file
    void persist(const Stored &st) const;
    void unpersist(const QString &id) const;
    /** Brings the record of an id that is not in memory into the store, if there is one. */
    void loadPersisted(const QString &id);

    Reply create(const httplib::Request &req, const std::optional<FakeFault> &fault);
    Reply get(const httplib::Request &req, const QString &id);
    Reply remove(const QString &id);
    Reply cancel(const QString &id);

    std::optional<Reply> parseCreate(const json &body, ParsedCreate *out);
    std::optional<Reply> parseInput(const json &input, ParsedCreate *out);
    std::optional<Reply> parseContent(const json &c, const QString &where, ParsedCreate *out,
                                      bool currentTurn, QImage *lastImage);
    std::optional<Reply> parseResponseFormat(const json &rf, ParsedCreate *out);
    std::optional<Reply> parseGenerationConfig(const json &gc, ParsedCreate *out);

    std::vector<std::pair<int, std::string>> sseEvents(const json &interaction, int latencyMs,
                                                        int skipThrough = 0) const;
    static std::string frame(const char *eventType, int eventNo, json payload);
};

// ---------------------------------------------------------------------------------------
// On-disk store

QString FakeServer::Private::recordPath(const QString &id) const
{
    if (storeDir.isEmpty() || !isStorableId(id))
        return {};
    return QDir(storeDir).filePath(id + QStringLiteral(".json"));
}

void FakeServer::Private::persist(const Stored &st) const
{
    const QString path = recordPath(st.id);
    if (path.isEmpty() || !QDir().mkpath(storeDir))
        return;
    // QSaveFile: a crash never leaves half a record, and a symlink in its place is replaced, not followed.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return;
    const std::string bytes = recordOf(st).dump();
    file.write(bytes.data(), qint64(bytes.size()));
    file.commit(); // a failed write only costs continuity: the next fake answers 404, as for an expired id
}

void FakeServer::Private::unpersist(const QString &id) const
{
    const QString path = recordPath(id);
    if (!path.isEmpty())
        QFile::remove(path);
}

void FakeServer::Private::loadPersisted(const QString &id)
{
    const QString path = recordPath(id);
    if (path.isEmpty())
        return;
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (store.contains(id))
            return;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || file.size() > kMaxRecordBytes)
        return; // missing, unreadable or absurdly large: the id is unknown (404)
    std::optional<Stored> st = storedFromRecord(file.readAll(), id);
    if (!st)
        return;
    std::lock_guard<std::mutex> lock(mutex);
    if (!store.contains(id))
        store.insert(id, *st);
}

// ---------------------------------------------------------------------------------------
// Request dispatch

void FakeServer::Private::handle(const httplib::Request &req, httplib::Response &res)
{
    const std::string &target = req.target.empty() ? req.path : req.target;
    const size_t qpos = target.find('?');
    const std::string rawPath = target.substr(0, qpos);
    const std::string rawQuery = qpos == std::string::npos ? std::string() : target.substr(qpos + 1);

    if (rawPath.rfind("/_fake/", 0) == 0) {
        deliver(control(req, rawPath), std::nullopt, res);
        return;
    }

    {
        FakeRequest r;
        r.method = q(req.method);
        r.path = q(rawPath);
        r.query = q(rawQuery);
        r.body = QByteArray::fromStdString(req.body);
        for (const auto &[k, v] : req.headers)
            r.headers.insert(q(k).toLower(), q(v));
        std::lock_guard<std::mutex> lock(mutex);
        logBytes += r.body.size();
        log.append(r);
        while (log.size() > kMaxLoggedRequests || (log.size() > 1 && logBytes > kMaxLoggedBytes)) {
            logBytes -= log.first().body.size();
            log.removeFirst();
        }
    }

    static const QRegularExpression createRe(QStringLiteral("^(.*)/(v1|v1beta)/interactions/?$"));
    static const QRegularExpression cancelRe(QStringLiteral("^(.*)/(v1|v1beta)/interactions/([^/]+)/cancel$"));
    static const QRegularExpression itemRe(QStringLiteral("^(.*)/(v1|v1beta)/interactions/([^/]+)$"));
    const QString path = q(rawPath);
    enum class Op { None, Create, Get, Delete, Cancel } op = Op::None;
    QString id;
    if (createRe.match(path).hasMatch()) {
        if (req.method == "POST")
            op = Op::Create;
    } else if (auto m = cancelRe.match(path); m.hasMatch()) {
        id = QUrl::fromPercentEncoding(m.captured(3).toUtf8());
        if (req.method == "POST")
            op = Op::Cancel;
    } else if (auto m2 = itemRe.match(path); m2.hasMatch()) {
        id = QUrl::fromPercentEncoding(m2.captured(3).toUtf8());
        if (req.method == "GET")
            op = Op::Get;
        else if (req.method == "DELETE")
            op = Op::Delete;
    }
    if (!id.isEmpty())
        loadPersisted(id);
    if (op == Op::None) {
        deliver(googleError(404, "NOT_FOUND",
                            QStringLiteral("Method not found: %1 %2").arg(q(req.method), path)),
                std::nullopt, res);
        return;
    }

    std::optional<FakeFault> fault;
    int latency = 0;
    {
        std::lock_guard<std::mutex> lock(mutex);
        if ((op == Op::Create || op == Op::Get) && !faults.empty()) {
            fault = faults.front();
            faults.pop_front();
        }
        latency = opts.latencyMs;
    }

    if (fault) {
        switch (fault->kind) {
        case FakeFault::Kind::RateLimit: {
            json e = json::object();
            e["message"] = "Resource has been exhausted (e.g. check quota).";
            e["code"] = "resource_exhausted";
            if (fault->retryAfterSeconds >= 0) // "without Retry-After": no delay anywhere, header or body
                e["details"] = json::array({json{{"retryDelay", std::to_string(fault->retryAfterSeconds) + "s"}}});
            Reply r = jsonReply(429, json{{"error", e}});
            if (fault->retryAfterSeconds >= 0)
                r.headers.emplace_back("Retry-After", std::to_string(fault->retryAfterSeconds));
            if (fault->retryAfterMs >= 0)
                r.headers.emplace_back("retry-after-ms", std::to_string(fault->retryAfterMs));
            deliver(r, std::nullopt, res);
            return;
        }
        case FakeFault::Kind::ServerErrorJson:
            if (fault->status == 503)
                deliver(nativeError(503, "unavailable", QStringLiteral("The model is overloaded. Please try again later.")),
                        std::nullopt, res);
            else
                deliver(nativeError(fault->status > 0 ? fault->status : 500, "internal",
                                    QStringLiteral("An internal error has occurred. Please retry or report in "
                                                   "https://developers.generativeai.google/guide/troubleshooting")),
                        std::nullopt, res);
            return;
        case FakeFault::Kind::ResetBeforeFirstByte:
            if (shutDownConnection(req)) {
                res.status = 500; // never reaches the peer: the socket is already shut
                return;
            }
            break;
        case FakeFault::Kind::ServiceUnavailableHtml: {
            Reply r;
            r.status = fault->status > 0 ? fault->status : 503;
            r.contentType = "text/html; charset=UTF-8";
            const std::string code = std::to_string(r.status);
            const std::string reason = r.status == 503 ? "Service Unavailable" : r.status == 502 ? "Bad Gateway"
                                                                                                 : "Server Error";
            r.body = "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
                     "<title>Error " + code + " (" + reason + ")!!1</title></head>\n<body><p><b>" + code + ".</b> "
                     "<ins>That\xE2\x80\x99s an error.</ins></p><p>The service is temporarily unavailable. "
                     "Please try again later. <ins>That\xE2\x80\x99s all we know.</ins></p></body></html>\n";
            deliver(r, std::nullopt, res);
            return;
        }
        case FakeFault::Kind::InvalidKey:
            deliver(keyError(), std::nullopt, res);
            return;
        default:
            break; // delivery faults are applied to the normal answer below
        }
    }

    bool requireKey;
    QString apiKey;
    {
        std::lock_guard<std::mutex> lock(mutex);
        requireKey = opts.requireKey;
        apiKey = opts.apiKey;
    }
    if (requireKey) {
        std::string key = req.get_header_value("x-goog-api-key");
        if (key.empty() && req.has_param("key"))
            key = req.get_param_value("key");
        if (key.empty() || q(key) != apiKey) {
            deliver(keyError(), std::nullopt, res);
            return;
        }
    }

    bool streaming = false;
    if (op == Op::Create && req.body.size() <= kMaxRequestBytes) {
        // Streams carry their latency between events so the id arrives early.
        const auto body = json::parse(req.body, nullptr, false);
        streaming = body.is_object() && body.contains("stream") && body["stream"].is_boolean()
                    && body["stream"].get<bool>();
    } else if (op == Op::Get) {
        streaming = req.get_param_value("stream") == "true";
    }
    if (!streaming && op != Op::Delete && !sleepMs(latency)) {
        deliver(googleError(503, "UNAVAILABLE", QStringLiteral("The fake server is shutting down.")),
                std::nullopt, res);
        return;
    }

    Reply reply;
    switch (op) {
    case Op::Create: reply = create(req, fault); break;
    case Op::Get: reply = get(req, id); break;
    case Op::Delete: reply = remove(id); break;
    case Op::Cancel: reply = cancel(id); break;
    case Op::None: break;
    }
    if (fault && fault->kind == FakeFault::Kind::TextOnlyRefusal)
        fault.reset(); // already applied by create()/get()
    deliver(std::move(reply), fault, res);
}

void FakeServer::Private::deliver(Reply reply, std::optional<FakeFault> fault, httplib::Response &res)
{
    res.status = reply.status;
    for (const auto &[k, v] : reply.headers)
        res.set_header(k.c_str(), v);

    const auto kind = fault ? std::optional<FakeFault::Kind>(fault->kind) : std::nullopt;
    const int trickleMs = fault ? std::max(0, fault->trickleMs) : 0;

    if (reply.sse) {
        auto events = std::make_shared<std::vector<std::pair<int, std::string>>>(std::move(reply.events));
        res.set_header("Cache-Control", "no-cache");
        res.set_chunked_content_provider(kSseType, [this, events, kind, trickleMs](size_t, httplib::DataSink &sink) {
            const size_t n = events->size();
            const int perEvent = n ? trickleMs / int(n) : 0;
            for (size_t i = 0; i < n; ++i) {
                const auto &[delay, frameText] = (*events)[i];
                if (!sleepMs(delay + (kind == FakeFault::Kind::SlowTrickle ? perEvent : 0)))
                    return false;
                const bool isImageDelta = frameText.find("\"type\":\"image\"") != std::string::npos
                                          && frameText.find("step.delta") != std::string::npos;
                if (kind == FakeFault::Kind::ConnectionReset && i >= n / 2) {
                    sink.write(frameText.data(), frameText.size() / 2);
                    return false; // drop the connection mid-event
                }
                if (kind == FakeFault::Kind::TruncatedJson && (isImageDelta || i + 2 == n)) {
                    const std::string cut = frameText.substr(0, frameText.size() / 2) + "\n\n";
                    sink.write(cut.data(), cut.size());
                    sink.done(); // a clean end of a stream that never completed
                    return true;
                }
                if (!sink.is_writable() || !sink.write(frameText.data(), frameText.size()))
                    return false;
            }
            sink.done();
            return true;
        });
        return;
    }

    auto body = std::make_shared<std::string>(std::move(reply.body));
    if (kind == FakeFault::Kind::TruncatedJson) {
        body->resize(body->size() / 2);
        res.set_content(*body, reply.contentType.c_str());
        return;
    }
    if (kind == FakeFault::Kind::ConnectionReset || kind == FakeFault::Kind::SlowTrickle) {
        const bool reset = kind == FakeFault::Kind::ConnectionReset;
        res.set_content_provider(body->size(), reply.contentType.c_str(),
                                 [this, body, reset, trickleMs](size_t offset, size_t, httplib::DataSink &sink) {
            if (reset) {
                // Declared length, half the bytes, then the socket closes: a reset mid-body.
                const size_t half = body->size() / 2;
                if (offset < half)
                    sink.write(body->data() + offset, half - offset);
                return false;
            }
            const int chunks = 20;
            const size_t chunk = std::max<size_t>(1, (body->size() + chunks - 1) / chunks);
            size_t pos = offset;
            while (pos < body->size()) {
                if (!sleepMs(trickleMs / chunks))
                    return false;
                const size_t len = std::min(chunk, body->size() - pos);
                if (!sink.write(body->data() + pos, len))
                    return false;
                pos += len;
            }
            return true;
        });
        return;
    }
    res.set_content(*body, reply.contentType.c_str());
}

// ---------------------------------------------------------------------------------------
// Create

std::optional<Reply> FakeServer::Private::parseContent(const json &c, const QString &where,
                                                       ParsedCreate *out, bool currentTurn,
                                                       QImage *lastImage)
{
    if (!c.is_object() || !c.contains("type") || !c["type"].is_string())
        return invalidArgument(QStringLiteral("%1: each content part must be an object with a string \"type\".").arg(where));
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
            return invalidArgument(QStringLiteral("%1.uri: file URIs are not supported by the fake server; send inline base64 \"data\".").arg(where));
        if (!c.contains("data") || !c["data"].is_string())
            return invalidArgument(QStringLiteral("%1.data: an image part needs base64 \"data\".").arg(where));
        if (!c.contains("mime_type") || !c["mime_type"].is_string())
            return invalidArgument(QStringLiteral("%1.mime_type: an inline image needs a \"mime_type\".").arg(where));
        const QString mime = q(c["mime_type"].get<std::string>());
        static const QStringList mimes{QStringLiteral("image/png"),  QStringLiteral("image/jpeg"),
                                       QStringLiteral("image/webp"), QStringLiteral("image/heic"),
                                       QStringLiteral("image/heif"), QStringLiteral("image/gif"),
                                       QStringLiteral("image/bmp"),  QStringLiteral("image/tiff")};
        if (!mimes.contains(mime))
            return invalidArgument(QStringLiteral("%1.mime_type: Unsupported MIME type: %2").arg(where, mime));
        if (c.contains("resolution")) {
            static const QStringList res{QStringLiteral("low"), QStringLiteral("medium"), QStringLiteral("high"),
                                         QStringLiteral("ultra_high")};
            if (!c["resolution"].is_string() || !res.contains(q(c["resolution"].get<std::string>())))
                return invalidArgument(QStringLiteral("%1.resolution: must be one of low, medium, high, ultra_high.").arg(where));
        }
        QByteArray bytes;
        const std::string &data = c["data"].get_ref<const std::string &>();
        if (!decodeBase64Strict(data, &bytes))
            return invalidArgument(QStringLiteral("Invalid value at '%1.data' (TYPE_BYTES), Base64 decoding failed for \"%2\"")
                                       .arg(where, q(data.substr(0, 24)) + (data.size() > 24 ? QStringLiteral("...") : QString())));
        const QString sniffed = sniffImageMime(bytes);
        if (sniffed.isEmpty())
            return invalidArgument(QStringLiteral("Unable to process input image (%1). Please retry or report in "
                                                  "https://developers.generativeai.google/guide/troubleshooting").arg(where));
        if (!mimeCompatible(mime, sniffed))
            return invalidArgument(QStringLiteral("%1.mime_type is %2 but the data is %3.").arg(where, mime, sniffed));
        QImage pixels = QImage::fromData(bytes);
        if (pixels.isNull()) {
            static const QSet<QString> decodable{QStringLiteral("image/png"), QStringLiteral("image/jpeg"),
                                                 QStringLiteral("image/gif"), QStringLiteral("image/bmp")};
            if (decodable.contains(sniffed))
                return invalidArgument(QStringLiteral("Unable to process input image (%1). Please retry or report in "
                                                      "https://developers.generativeai.google/guide/troubleshooting").arg(where));
            // No decoder here for webp/heic/tiff: stand in a flat picture coloured by the bytes.
            const QByteArray h = QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
            pixels = QImage(1024, 1024, QImage::Format_RGB32);
            pixels.fill(QColor(uchar(h[0]), uchar(h[1]), uchar(h[2])));
        }
        if (currentTurn)
            out->images.append(InputImage{bytes, mime, pixels});
        else if (lastImage)
            *lastImage = pixels;
        return std::nullopt;
    }
    if (type == "audio" || type == "video" || type == "document")
        return invalidArgument(QStringLiteral("%1: input modality '%2' is not supported by this model (text and images only).")
                                   .arg(where, q(type)));
    return invalidArgument(QStringLiteral("%1.type: unknown content type '%2'.").arg(where, q(type)));
}

std::optional<Reply> FakeServer::Private::parseInput(const json &input, ParsedCreate *out)
{
    if (input.is_string()) {
        out->prompt = q(input.get<std::string>());
        if (out->prompt.trimmed().isEmpty())
            return invalidArgument(QStringLiteral("input: the prompt must not be empty."));
        out->userContent = json::array({json{{"type", "text"}, {"text", input}}});
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
            return invalidArgument(QStringLiteral("input[%1]: an input list must be all content parts or all steps.").arg(i));
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
        const QString where = rf.is_array() ? QStringLiteral("response_format[%1]").arg(i) : QStringLiteral("response_format");
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
            return invalidArgument(QStringLiteral("%1.type: output modality '%2' is not supported by this model.").arg(where, q(type)));
        image = true;
        for (const auto &[k, v] : f.items()) {
            if (k != "type" && k != "aspect_ratio" && k != "image_size" && k != "mime_type" && k != "delivery")
                return unknownField(where, k);
        }
        if (f.contains("aspect_ratio")) {
            const QStringList ratios = FakeImagePainter::aspectRatios();
            const QString ar = f["aspect_ratio"].is_string() ? q(f["aspect_ratio"].get<std::string>()) : QString();
            if (!ratios.contains(ar))
                return invalidArgument(QStringLiteral("%1.aspect_ratio: Unsupported aspect ratio \"%2\" for model %3. Allowed values are: %4.")
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
            return invalidArgument(QStringLiteral("%1.delivery: only \"inline\" is supported by the fake server.").arg(where));
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
                                                  "Please retry with other thinking level.").arg(level.toUpper()));
            if (!v.is_string() || !allowed.contains(level))
                return invalidArgument(QStringLiteral("%1: Unsupported thinking level \"%2\" for model %3. Allowed values are: %4.")
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
            return invalidArgument(QStringLiteral("%1 was removed; use response_format {\"type\":\"image\", \"aspect_ratio\": ...}.").arg(field));
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
    static const QSet<QString> known{
        QStringLiteral("model"), QStringLiteral("agent"), QStringLiteral("input"),
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
            return invalidArgument(QStringLiteral("%1 was removed from the Interactions API; use response_format.").arg(QLatin1String(removed)));
    }
    if (body.contains("safety_settings"))
        return invalidArgument(QStringLiteral("safety_settings: custom safety settings are not supported in the Interactions API."));
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
        static const QStringList tiers{QStringLiteral("flex"), QStringLiteral("standard"), QStringLiteral("priority"),
                                       QStringLiteral("deferred")};
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
        return invalidArgument(QStringLiteral("input: at most %1 images per request (got %2).").arg(kMaxInputImages).arg(out->images.size()));
    if (body.contains("previous_interaction_id")) {
        out->previousId = q(body["previous_interaction_id"].get<std::string>());
        if (out->previousId.isEmpty())
            return invalidArgument(QStringLiteral("previous_interaction_id: must not be empty."));
    }
    return std::nullopt;
}

Reply FakeServer::Private::create(const httplib::Request &req, const std::optional<FakeFault> &fault)
{
    if (req.body.size() > kMaxRequestBytes)
        return googleError(413, "INVALID_ARGUMENT",
                           QStringLiteral("Request payload size exceeds the limit: %1 bytes (got %2 bytes).")
                               .arg(kMaxRequestBytes).arg(req.body.size()));
    json body;
    try {
        body = json::parse(req.body);
    } catch (const json::parse_error &e) {
        return nativeError(400, "invalid_request",
                           QStringLiteral("Invalid JSON payload received. %1").arg(QString::fromUtf8(e.what())));
    }
    ParsedCreate pc;
    if (auto err = parseCreate(body, &pc))
        return *err;

    // The parent is looked up after validation, as the service reports bad arguments first.
    QByteArray parentJpeg;
    QStringList parentCaption;
    if (!pc.previousId.isEmpty()) {
        loadPersisted(pc.previousId);
        std::lock_guard<std::mutex> lock(mutex);
        auto it = store.find(pc.previousId);
        if (it == store.end())
            return notFoundInteraction(pc.previousId);
        if (it->status == QLatin1String("in_progress")
            && !(it->backgroundDoneAtMs && QDateTime::currentMSecsSinceEpoch() >= it->backgroundDoneAtMs))
            return nativeError(400, "invalid_request",
                               QStringLiteral("previous_interaction_id: interaction '%1' is still in progress.").arg(pc.previousId));
        parentJpeg = it->jpeg;
        parentCaption = it->caption;
    }
    const bool fixedImage = !opts.fixedImageJpeg.isEmpty(); // set at construction only
    const QImage parentPixels = (fixedImage || parentJpeg.isEmpty()) ? QImage() : QImage::fromData(parentJpeg, "JPEG");

    const bool refuse = fault && fault->kind == FakeFault::Kind::TextOnlyRefusal;
    const QImage base = !pc.images.isEmpty() ? pc.images.last().pixels
                        : !parentPixels.isNull() ? parentPixels
                                                 : pc.historyImage;
    QSize size = FakeImagePainter::sizeForAspect(pc.aspect);
    if (!size.isValid()) {
        if (pc.images.isEmpty() && !parentPixels.isNull())
            size = parentPixels.size(); // edits keep the chain's size unless asked otherwise
        else if (!base.isNull()) // uploaded or replayed image: the model matches its shape
            size = FakeImagePainter::sizeForAspect(FakeImagePainter::nearestAspect(base.size()));
        else
            size = FakeImagePainter::sizeForAspect(QStringLiteral("1:1"));
    }

    QImage pixels;
    QStringList caption;
    QString text;
    const QString shortPrompt = pc.prompt.size() > 80 ? pc.prompt.left(77) + QStringLiteral("...") : pc.prompt;
    if (refuse) {
        text = QStringLiteral("I can't create that image. I'm not able to help with requests like this one; "
                              "try describing something else.");
    } else if (!pc.wantImage) {
        text = QStringLiteral("(text only) You asked: %1").arg(shortPrompt);
    } else if (fixedImage) {
        text = QStringLiteral("Here is an image of %1.").arg(shortPrompt);
    } else if (!pc.images.isEmpty()) {
        const QImage style = pc.images.size() >= 2 ? pc.images.first().pixels : QImage();
        pixels = FakeImagePainter::editLocal(pc.images.last().pixels, style, pc.prompt, size, &caption);
        text = style.isNull() ? QStringLiteral("I've edited your image: %1.").arg(shortPrompt)
                              : QStringLiteral("I've edited your image in the style of the reference: %1.").arg(shortPrompt);
    } else if (!base.isNull()) {
        pixels = FakeImagePainter::edit(base, pc.prompt, size, parentCaption, &caption);
        text = QStringLiteral("I've updated the image: %1.").arg(shortPrompt);
    } else {
        pixels = FakeImagePainter::generate(pc.prompt, size, &caption);
        text = QStringLiteral("Here is an image of %1.").arg(shortPrompt);
    }

    const QString id = pc.store ? newInteractionId() : QString();
    const QString created = isoNow();
    json interaction = json::object();
    if (pc.store)
        interaction["id"] = s(id);
    interaction["object"] = "interaction";
    interaction["model"] = s(pc.model);
    interaction["status"] = "completed";
    interaction["created"] = s(created);
    interaction["updated"] = s(created);
    if (!pc.previousId.isEmpty())
        interaction["previous_interaction_id"] = s(pc.previousId);

    json thought = json::object();
    thought["type"] = "thought";
    thought["signature"] = s(newSignature());
    json summary = json::array();
    summary.push_back(json{{"type", "text"},
                           {"text", s(QStringLiteral("**Planning the picture**\n\nWorking out the composition for: %1").arg(shortPrompt))}});
    const bool sendFixed = fixedImage && pc.wantImage && !refuse;
    if (!pixels.isNull() || sendFixed) {
        const QByteArray draft = sendFixed ? fixedDraftJpeg : FakeImagePainter::encodeJpeg(FakeImagePainter::draft(pixels), 70);
        summary.push_back(json{{"type", "image"}, {"data", draft.toBase64().toStdString()}, {"mime_type", "image/jpeg"}});
    }
    thought["summary"] = summary;

    json output = json::object();
    output["type"] = "model_output";
    json content = json::array();
    content.push_back(json{{"type", "text"}, {"text", s(text)}});
    QByteArray jpeg;
    if (!pixels.isNull() || sendFixed) {
        jpeg = sendFixed ? opts.fixedImageJpeg : FakeImagePainter::encodeJpeg(pixels);
        content.push_back(json{{"type", "image"}, {"data", jpeg.toBase64().toStdString()}, {"mime_type", "image/jpeg"}});
    }
    output["content"] = content;
    interaction["steps"] = json::array({thought, output});

    const int inText = textTokens(pc.prompt) + (parentJpeg.isEmpty() ? 0 : 1120 + 8);
    const int inImages = int(pc.images.size()) * 258 + (pc.historyImage.isNull() ? 0 : 258);
    const int thoughtTokens = (pc.thinkingLevel == QLatin1String("high") ? 420 : 60) + int(qHash(pc.prompt, 7) % 40);
    const int outText = textTokens(text);
    const int outImage = jpeg.isEmpty() ? 0 : 1120;
    json usage = json::object();
    usage["total_input_tokens"] = inText + inImages;
    usage["total_output_tokens"] = outText + outImage;
    usage["total_thought_tokens"] = thoughtTokens;
    usage["total_tokens"] = inText + inImages + outText + outImage + thoughtTokens;
    json inMod = json::array({json{{"modality", "text"}, {"tokens", inText}}});
    if (inImages)
        inMod.push_back(json{{"modality", "image"}, {"tokens", inImages}});
    json outMod = json::array({json{{"modality", "text"}, {"tokens", outText}}});
    if (outImage)
        outMod.push_back(json{{"modality", "image"}, {"tokens", outImage}});
    usage["input_tokens_by_modality"] = inMod;
    usage["output_tokens_by_modality"] = outMod;
    interaction["usage"] = usage;

    int latency;
    std::optional<Stored> toPersist;
    {
        std::lock_guard<std::mutex> lock(mutex);
        latency = opts.latencyMs;
        if (pc.store) {
            Stored st;
            st.id = id;
            st.status = QStringLiteral("completed");
            st.interaction = interaction;
            st.userContent = pc.userContent;
            st.jpeg = jpeg;
            st.caption = caption;
            if (pc.background && !pc.stream) {
                st.status = QStringLiteral("in_progress");
                st.backgroundDoneAtMs = QDateTime::currentMSecsSinceEpoch() + std::max(200, latency);
            }
            store.insert(id, st);
            toPersist = st;
        }
    }
    if (toPersist)
        persist(*toPersist); // before the answer: a client that learns the id can always continue it

    if (pc.stream) {
        Reply r;
        r.sse = true;
        r.contentType = kSseType;
        r.events = sseEvents(interaction, latency);
        return r;
    }
    if (pc.background) {
        json brief = json::object();
        brief["id"] = s(id);
        brief["object"] = "interaction";
        brief["model"] = s(pc.model);
        brief["status"] = "in_progress";
        brief["created"] = s(created);
        brief["updated"] = s(created);
        if (!pc.previousId.isEmpty())
            brief["previous_interaction_id"] = s(pc.previousId);
        return jsonReply(200, brief);
    }
    return jsonReply(200, interaction);
}

// ---------------------------------------------------------------------------------------
// SSE (spec §5): created, status_update, thought step, model_output step, completed, [DONE]

std::string FakeServer::Private::frame(const char *eventType, int eventNo, json payload)
{
    json out = json::object();
    out["event_type"] = eventType;
    out["event_id"] = "e" + std::to_string(eventNo);
    for (auto &[k, v] : payload.items())
        out[k] = v;
    return std::string("event: ") + eventType + "\ndata: " + out.dump() + "\n\n";
}

std::vector<std::pair<int, std::string>> FakeServer::Private::sseEvents(const json &interaction, int latencyMs,
                                                                         int skipThrough) const
{
    std::vector<std::pair<int, std::string>> ev;
    int no = 0;
    auto add = [&](int delay, const char *type, json payload) {
        ++no;
        if (no > skipThrough)
            ev.emplace_back(delay, frame(type, no, std::move(payload)));
    };
    json head = json::object();
    for (const char *k : {"id", "status", "model", "object", "created", "previous_interaction_id"}) {
        if (interaction.contains(k))
            head[k] = interaction[k];
    }
    head["status"] = "in_progress";
    add(0, "interaction.created", json{{"interaction", head}});
    json su = json::object();
    if (interaction.contains("id"))
        su["interaction_id"] = interaction["id"];
    su["status"] = "in_progress";
    add(0, "interaction.status_update", su);

    const json &steps = interaction.contains("steps") ? interaction["steps"] : json::array();
    int firstDelay = latencyMs / 2;
    for (size_t i = 0; i < steps.size(); ++i) {
        const json &step = steps[i];
        const int index = int(i);
        const std::string type = step.value("type", std::string());
        if (type == "thought") {
            add(firstDelay, "step.start", json{{"index", index}, {"step", json{{"type", "thought"}}}});
            firstDelay = 0;
            if (step.contains("summary")) {
                for (const json &part : step["summary"])
                    add(0, "step.delta", json{{"index", index}, {"delta", json{{"type", "thought_summary"}, {"content", part}}}});
            }
            if (step.contains("signature"))
                add(0, "step.delta", json{{"index", index}, {"delta", json{{"type", "thought_signature"}, {"signature", step["signature"]}}}});
            add(0, "step.stop", json{{"index", index}});
        } else {
            json startStep = json::object();
            startStep["type"] = type;
            startStep["content"] = json::array();
            add(firstDelay + (latencyMs - latencyMs / 2), "step.start", json{{"index", index}, {"step", startStep}});
            firstDelay = 0;
            if (step.contains("content")) {
                for (const json &part : step["content"])
                    add(0, "step.delta", json{{"index", index}, {"delta", part}});
            }
            add(0, "step.stop", json{{"index", index}});
        }
    }
    json done = json::object();
    for (const char *k : {"id", "status", "model", "object", "created", "updated", "previous_interaction_id", "usage"}) {
        if (interaction.contains(k))
            done[k] = interaction[k];
    }
    add(0, "interaction.completed", json{{"interaction", done}});
    ev.emplace_back(0, "data: [DONE]\n\n");
    return ev;
}

// ---------------------------------------------------------------------------------------
// Get / delete / cancel

Reply FakeServer::Private::get(const httplib::Request &req, const QString &id)
{
    json interaction;
    json userContent;
    int latency;
    {
        std::lock_guard<std::mutex> lock(mutex);
        latency = opts.latencyMs;
        auto it = store.find(id);
        if (it == store.end())
            return notFoundInteraction(id);
        if (it->status == QLatin1String("in_progress") && it->backgroundDoneAtMs
            && QDateTime::currentMSecsSinceEpoch() >= it->backgroundDoneAtMs)
            it->status = QStringLiteral("completed");
        interaction = it->interaction;
        userContent = it->userContent;
        if (it->status != QLatin1String("completed")) {
            interaction["status"] = s(it->status);
            interaction.erase("steps");
            interaction.erase("usage");
        }
    }
    if (req.get_param_value("include_input") == "true" && interaction.contains("steps")) {
        json steps = json::array();
        steps.push_back(json{{"type", "user_input"}, {"content", userContent}});
        for (const json &st : interaction["steps"])
            steps.push_back(st);
        interaction["steps"] = steps;
    }
    if (req.get_param_value("stream") == "true") {
        int skip = 0;
        const std::string last = req.get_param_value("last_event_id");
        if (last.size() > 1 && last[0] == 'e')
            skip = std::atoi(last.c_str() + 1);
        Reply r;
        r.sse = true;
        r.contentType = kSseType;
        r.events = sseEvents(interaction, latency, skip);
        return r;
    }
    return jsonReply(200, interaction);
}

Reply FakeServer::Private::remove(const QString &id)
{
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (!store.remove(id))
            return notFoundInteraction(id);
    }
    unpersist(id);
    return jsonReply(200, json::object());
}

Reply FakeServer::Private::cancel(const QString &id)
{
    std::unique_lock<std::mutex> lock(mutex);
    auto it = store.find(id);
    if (it == store.end())
        return notFoundInteraction(id);
    const bool running = it->status == QLatin1String("in_progress")
                         && QDateTime::currentMSecsSinceEpoch() < it->backgroundDoneAtMs;
    if (!running)
        return nativeError(400, "invalid_request",
                           QStringLiteral("Only background interactions that are still in progress can be cancelled; '%1' is %2.")
                               .arg(id, it->status == QLatin1String("in_progress") ? QStringLiteral("completed") : it->status));
    it->status = QStringLiteral("cancelled");
    it->jpeg.clear();
    json out = it->interaction;
    out["status"] = "cancelled";
    out["updated"] = s(isoNow());
    out.erase("steps");
    out.erase("usage");
    it->interaction = out;
    const Stored cancelled = *it;
    lock.unlock();
    persist(cancelled);
    return jsonReply(200, out);
}

// ---------------------------------------------------------------------------------------
// Control endpoint for the standalone binary (and any out-of-process test)

Reply FakeServer::Private::requestLog() const
{
    QList<FakeRequest> copy;
    QString apiKey;
    {
        std::lock_guard<std::mutex> lock(mutex);
        copy = log;
        apiKey = opts.apiKey;
    }
    json arr = json::array();
    for (const FakeRequest &r : copy) {
        json e = json::object();
        e["method"] = s(r.method);
        e["path"] = s(r.path);
        e["query"] = s(r.query);
        json headers = json::object();
        for (auto it = r.headers.cbegin(); it != r.headers.cend(); ++it) {
            if (it.key() == QLatin1String("x-goog-api-key"))
                headers[s(it.key())] = it.value() == apiKey ? "[redacted; matches the configured key]"
                                                            : "[redacted; does not match the configured key]";
            else
                headers[s(it.key())] = s(it.value());
        }
        e["headers"] = headers;
        if (r.body.isEmpty()) {
            e["body"] = nullptr;
        } else {
            json parsed = json::parse(r.body.toStdString(), nullptr, false);
            if (parsed.is_discarded()) {
                e["body"] = nullptr;
                e["body_text"] = s(QString::fromUtf8(r.body.left(4096)));
            } else {
                e["body"] = parsed;
            }
        }
        e["body_size"] = r.body.size();
        arr.push_back(e);
    }
    return jsonReply(200, arr);
}

Reply FakeServer::Private::control(const httplib::Request &req, const std::string &path)
{
    if (path == "/_fake/requests" && req.method == "GET")
        return requestLog();
    if (path == "/_fake/requests" && req.method == "DELETE") {
        std::lock_guard<std::mutex> lock(mutex);
        log.clear();
        logBytes = 0;
        return jsonReply(200, json{{"ok", true}});
    }
    auto state = [this] {
        std::lock_guard<std::mutex> lock(mutex);
        json st = json::object();
        st["ok"] = true;
        st["interactions"] = store.size();
        st["pending_faults"] = faults.size();
        st["latency_ms"] = opts.latencyMs;
        json levels = json::array();
        for (const QString &l : opts.thinkingLevels)
            levels.push_back(s(l));
        st["thinking_levels"] = levels;
        st["require_key"] = opts.requireKey;
        st["thinking_error"] = opts.thinkingError == FakeServerOptions::ThinkingError::AllowedValues ? "allowed_values"
                                                                                                    : "not_supported";
        return st;
    };
    if (path == "/_fake/state" && req.method == "GET")
        return jsonReply(200, state());
    if (path != "/_fake/control" || req.method != "POST")
        return googleError(404, "NOT_FOUND", QStringLiteral("Unknown control endpoint."));

    const json body = json::parse(req.body, nullptr, false);
    if (!body.is_object())
        return nativeError(400, "invalid_request", QStringLiteral("control: body must be a JSON object."));
    static const QSet<QString> known{QStringLiteral("fault"), QStringLiteral("count"), QStringLiteral("retry_after"),
                                     QStringLiteral("retry_after_ms"), QStringLiteral("trickle_ms"),
                                     QStringLiteral("latency_ms"), QStringLiteral("forget"),
                                     QStringLiteral("thinking_levels"), QStringLiteral("clear_faults"),
                                     QStringLiteral("clear_requests"), QStringLiteral("require_key"),
                                     QStringLiteral("thinking_error"), QStringLiteral("status")};
    for (const auto &[k, v] : body.items()) {
        if (!known.contains(q(k)))
            return nativeError(400, "invalid_request", QStringLiteral("control: unknown field \"%1\".").arg(q(k)));
    }
    auto intField = [&](const char *k, int def) {
        return body.contains(k) && body[k].is_number_integer() ? body[k].get<int>() : def;
    };
    std::optional<FakeFault> fault;
    if (body.contains("fault")) {
        const auto kind = body["fault"].is_string() ? fakeFaultKindFromName(q(body["fault"].get<std::string>()))
                                                    : std::nullopt;
        if (!kind)
            return nativeError(400, "invalid_request",
                               QStringLiteral("control: unknown fault; use one of rate_limit, server_error, unavailable_html, "
                                              "connection_reset, truncated_json, slow_trickle, text_only, invalid_key, "
                                              "reset_before_first_byte."));
        FakeFault f;
        f.kind = *kind;
        f.retryAfterSeconds = intField("retry_after", 1);
        f.retryAfterMs = intField("retry_after_ms", -1);
        f.trickleMs = intField("trickle_ms", 2000);
        f.status = intField("status", 0);
        fault = f;
    }
    std::optional<FakeServerOptions::ThinkingError> wording;
    if (body.contains("thinking_error")) {
        if (body["thinking_error"] == "allowed_values")
            wording = FakeServerOptions::ThinkingError::AllowedValues;
        else if (body["thinking_error"] == "not_supported")
            wording = FakeServerOptions::ThinkingError::NotSupportedRetry;
        else
            return nativeError(400, "invalid_request",
                               QStringLiteral("control: thinking_error must be \"allowed_values\" or \"not_supported\"."));
    }
    QStringList forgotten;
    QStringList levels;
    if (body.contains("thinking_levels")) {
        if (!body["thinking_levels"].is_array())
            return nativeError(400, "invalid_request", QStringLiteral("control: thinking_levels must be an array of strings."));
        for (const json &l : body["thinking_levels"]) {
            if (!l.is_string())
                return nativeError(400, "invalid_request", QStringLiteral("control: thinking_levels must be an array of strings."));
            levels << q(l.get<std::string>());
        }
    }
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (body.value("clear_faults", false))
            faults.clear();
        if (body.value("clear_requests", false)) {
            log.clear();
            logBytes = 0;
        }
        if (fault) {
            for (int i = 0; i < std::max(1, intField("count", 1)); ++i)
                faults.push_back(*fault);
        }
        if (body.contains("latency_ms"))
            opts.latencyMs = std::max(0, intField("latency_ms", 0));
        if (body.contains("thinking_levels"))
            opts.thinkingLevels = levels;
        if (wording)
            opts.thinkingError = *wording;
        if (body.contains("require_key") && body["require_key"].is_boolean())
            opts.requireKey = body["require_key"].get<bool>();
        if (body.contains("forget")) {
            const json &f = body["forget"];
            if (f.is_string())
                forgotten << q(f.get<std::string>());
            else if (f.is_array()) {
                for (const json &one : f) {
                    if (one.is_string())
                        forgotten << q(one.get<std::string>());
                }
            }
            for (const QString &id : std::as_const(forgotten))
                store.remove(id);
        }
    }
    for (const QString &id : std::as_const(forgotten))
        unpersist(id);
    return jsonReply(200, state());
}

// ---------------------------------------------------------------------------------------
// Public API

std::optional<FakeFault::Kind> fakeFaultKindFromName(const QString &name)
{
    static const struct {
        const char *name;
        FakeFault::Kind kind;
    } names[] = {
        {"rate_limit", FakeFault::Kind::RateLimit},
        {"server_error", FakeFault::Kind::ServerErrorJson},
        {"unavailable_html", FakeFault::Kind::ServiceUnavailableHtml},
        {"connection_reset", FakeFault::Kind::ConnectionReset},
        {"truncated_json", FakeFault::Kind::TruncatedJson},
        {"slow_trickle", FakeFault::Kind::SlowTrickle},
        {"text_only", FakeFault::Kind::TextOnlyRefusal},
        {"invalid_key", FakeFault::Kind::InvalidKey},
        {"reset_before_first_byte", FakeFault::Kind::ResetBeforeFirstByte},
    };
    const QString n = name.trimmed().toLower().replace(QLatin1Char('-'), QLatin1Char('_'));
    for (const auto &e : names) {
        if (n == QLatin1String(e.name))
            return e.kind;
    }
    return std::nullopt;
}

QString fakeFaultKindName(FakeFault::Kind kind)
{
    switch (kind) {
    case FakeFault::Kind::RateLimit: return QStringLiteral("rate_limit");
    case FakeFault::Kind::ServerErrorJson: return QStringLiteral("server_error");
    case FakeFault::Kind::ServiceUnavailableHtml: return QStringLiteral("unavailable_html");
    case FakeFault::Kind::ConnectionReset: return QStringLiteral("connection_reset");
    case FakeFault::Kind::TruncatedJson: return QStringLiteral("truncated_json");
    case FakeFault::Kind::SlowTrickle: return QStringLiteral("slow_trickle");
    case FakeFault::Kind::TextOnlyRefusal: return QStringLiteral("text_only");
    case FakeFault::Kind::InvalidKey: return QStringLiteral("invalid_key");
    case FakeFault::Kind::ResetBeforeFirstByte: return QStringLiteral("reset_before_first_byte");
    }
    return {};
}

FakeServer::FakeServer(FakeServerOptions options) : d(std::make_unique<Private>(std::move(options))) {}

FakeServer::~FakeServer() { stop(); }

bool FakeServer::start(quint16 port)
{
    if (d->http)
        return true;
    d->stopping = false;
    auto http = std::make_unique<httplib::Server>();
    // Enough workers that slow answers (latency, trickle) never starve other requests.
    http->new_task_queue = [] { return new httplib::ThreadPool(24); };
    // Idle keep-alive connections hold a worker until this timeout; keep it short so
    // stop() is prompt. Clients see "Keep-Alive: timeout=1" and reconnect.
    http->set_keep_alive_timeout(1);
    http->set_read_timeout(2, 0); // bounds how long a stalled upload can delay stop()
    http->set_write_timeout(5, 0);
    http->set_payload_max_length(kHardBodyCap);
    // httplib's default adds SO_REUSEPORT, which would let a second server share our port
    // silently; a port clash must be an error instead.
    http->set_socket_options([](socket_t sock) {
        int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    });
    Private *p = d.get();
    auto handler = [p](const httplib::Request &req, httplib::Response &res) { p->handle(req, res); };
    http->Get(".*", handler);
    http->Post(".*", handler);
    http->Delete(".*", handler);
    http->set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request &, httplib::Response &res) {
        if (!res.body.empty() || res.content_provider_)
            return httplib::Server::HandlerResponse::Unhandled; // our own error body stands
        std::string message = res.status == 413 ? "Request payload size exceeds the limit: 20971520 bytes."
                                                : "The request could not be handled (HTTP " + std::to_string(res.status) + ").";
        json e = json::object();
        e["code"] = res.status;
        e["message"] = message;
        e["status"] = res.status == 404 ? "NOT_FOUND" : "INVALID_ARGUMENT";
        res.set_content(json{{"error", e}}.dump(), kJsonType);
        return httplib::Server::HandlerResponse::Handled;
    }));
    http->set_exception_handler([](const httplib::Request &, httplib::Response &res, std::exception_ptr) {
        res.status = 500;
        res.set_content(R"({"error":{"message":"fake server: unexpected exception","code":"internal"}})", kJsonType);
    });

    int bound = -1;
    if (port == 0)
        bound = http->bind_to_any_port("127.0.0.1");
    else if (http->bind_to_port("127.0.0.1", port))
        bound = port;
    if (bound <= 0) {
        std::lock_guard<std::mutex> lock(d->mutex);
        d->error = QStringLiteral("cannot listen on 127.0.0.1:%1 (port in use or not permitted)").arg(port);
        return false;
    }
    d->port = quint16(bound);
    httplib::Server *raw = http.get();
    d->http = std::move(http);
    d->thread = std::thread([raw] { raw->listen_after_bind(); });
    // httplib's stop() is a no-op until the accept loop runs, so a stop() right after
    // start() would hang; wait for the loop (normally well under a millisecond).
    for (int i = 0; i < 5000 && !raw->is_running(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    {
        std::lock_guard<std::mutex> lock(d->mutex);
        d->error.clear();
    }
    return true;
}

void FakeServer::stop()
{
    if (!d->http)
        return;
    {
        std::lock_guard<std::mutex> lock(d->stopMutex);
        d->stopping = true;
    }
    d->stopCv.notify_all();
    d->http->stop();
    if (d->thread.joinable())
        d->thread.join();
    d->http.reset();
    d->port = 0;
}

bool FakeServer::isRunning() const { return d->http != nullptr; }
quint16 FakeServer::port() const { return d->port; }
QString FakeServer::baseUrl() const { return QStringLiteral("http://127.0.0.1:%1").arg(d->port); }

QString FakeServer::errorString() const
{
    std::lock_guard<std::mutex> lock(d->mutex);
    return d->error;
}

void FakeServer::setLatencyMs(int ms)
{
    std::lock_guard<std::mutex> lock(d->mutex);
    d->opts.latencyMs = std::max(0, ms);
}

int FakeServer::latencyMs() const
{
    std::lock_guard<std::mutex> lock(d->mutex);
    return d->opts.latencyMs;
}

void FakeServer::setThinkingLevels(const QStringList &levels)
{
    std::lock_guard<std::mutex> lock(d->mutex);
    d->opts.thinkingLevels = levels;
}

QStringList FakeServer::thinkingLevels() const
{
    std::lock_guard<std::mutex> lock(d->mutex);
    return d->opts.thinkingLevels;
}

void FakeServer::setRequireKey(bool require)
{
    std::lock_guard<std::mutex> lock(d->mutex);
    d->opts.requireKey = require;
}

void FakeServer::setThinkingErrorWording(FakeServerOptions::ThinkingError wording)
{
    std::lock_guard<std::mutex> lock(d->mutex);
    d->opts.thinkingError = wording;
}

void FakeServer::injectFault(const FakeFault &fault, int count)
{
    std::lock_guard<std::mutex> lock(d->mutex);
    for (int i = 0; i < count; ++i)
        d->faults.push_back(fault);
}

void FakeServer::clearFaults()
{
    std::lock_guard<std::mutex> lock(d->mutex);
    d->faults.clear();
}

int FakeServer::pendingFaults() const
{
    std::lock_guard<std::mutex> lock(d->mutex);
    return int(d->faults.size());
}

void FakeServer::forget(const QString &interactionId)
{
    {
        std::lock_guard<std::mutex> lock(d->mutex);
        d->store.remove(interactionId);
    }
    d->unpersist(interactionId);
}

QList<FakeRequest> FakeServer::requests() const
{
    std::lock_guard<std::mutex> lock(d->mutex);
    return d->log;
}

void FakeServer::clearRequests()
{
    std::lock_guard<std::mutex> lock(d->mutex);
    d->log.clear();
    d->logBytes = 0;
}

int FakeServer::interactionCount() const
{
    std::lock_guard<std::mutex> lock(d->mutex);
    return int(d->store.size());
}

} // namespace nb2
