// Internal to nb2fakeapi: the pieces the fake server's source files share (reply builders,
// the parsed request, the stored interaction, FakeServer::Private). Not installed, not
// included outside core/fakeapi.
#pragma once

#include "core/fakeapi/fakeimagepainter.h"
#include "core/fakeapi/fakeserver.h"

#include <QByteArray>
#include <QHash>
#include <QImage>
#include <QList>
#include <QString>
#include <QStringList>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace nb2::fakedetail {

using json = nlohmann::ordered_json;

inline constexpr size_t kMaxRequestBytes = 20u * 1024u * 1024u; // spec §2.1: whole request ≤ 20 MB
inline constexpr size_t kHardBodyCap = 64u * 1024u * 1024u;     // above this httplib itself answers 413
inline constexpr int kMaxLoggedRequests = 1000;
inline constexpr qsizetype kMaxLoggedBytes = 96 * 1024 * 1024; // long demo sessions must not grow without bound
inline constexpr int kMaxInputImages = 14;
inline const char *const kJsonType = "application/json; charset=UTF-8";
inline const char *const kSseType = "text/event-stream"; // exact: httplib does not gzip this type

/** Everything a handler decides; written to httplib by deliver(). */
/** A range of an answer's text: of Reply::body (text null) or of a string the server keeps. */
struct TextPiece {
    const std::string *text = nullptr;
    size_t at = 0, size = 0;
};

struct Reply {
    int status = 200;
    std::string contentType = kJsonType;
    std::string body;
    // When not empty: the answer is these pieces in order (body with the fixed-image stand-ins
    // cut out, the server's one copy of the base64 in their place), sent without joining them.
    std::vector<TextPiece> pieces;
    std::vector<std::pair<std::string, std::string>> headers;
    bool sse = false;
    std::vector<std::pair<int, std::string>> events; // (delay before, frame) when sse
    std::shared_ptr<struct InFlight> inFlight;       // see FakeServer::peakConcurrentRequests()
};

/** One request counted by FakeServer::peakConcurrentRequests() until released (or destroyed). */
struct InFlight {
    std::atomic<int> *counter;
    std::atomic<bool> released {false};
    explicit InFlight(std::atomic<int> *c) : counter(c) {}
    InFlight(const InFlight &) = delete;
    InFlight &operator=(const InFlight &) = delete;
    ~InFlight() { release(); }
    void release()
    {
        if (!released.exchange(true))
            --*counter;
    }
};

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
inline constexpr qint64 kMaxRecordBytes = 96 * 1024 * 1024;
inline constexpr const char *kRecordFormat = "nb2fakeapi-interaction";

inline std::string s(const QString &q)
{
    return q.toStdString();
}

inline QString q(const std::string &str)
{
    return QString::fromStdString(str);
}

QString isoNow(qint64 offsetMs = 0);

/**
 * Closes the connection a request came in on before any answer byte is written (the
 * reset_before_first_byte fault). httplib 0.11 gives a handler no socket, but it does give the
 * peer's and our port: the one socket of this process with that pair is the connection.
 * Returns false when it was not found (then the caller answers normally).
 */
bool shutDownConnection(const httplib::Request &req);

Reply jsonReply(int status, const json &body);

/** Shape 1 (Interactions-native, string code), spec §6. */
Reply nativeError(int status, const char *code, const QString &message);

/** Shape 2 (Google API style, numeric code + status), spec §6. */
Reply googleError(int status, const char *statusName, const QString &message);

inline Reply invalidArgument(const QString &message)
{
    return googleError(400, "INVALID_ARGUMENT", message);
}

/** Shape 3: the array-wrapped Google error the service sends for a bad key (spec §6). */
Reply keyError();

Reply notFoundInteraction(const QString &id);

/** Strict standard base64 (RFC 4648 §4, padding required), as the service expects. */
bool decodeBase64Strict(const std::string &in, QByteArray *out);

/** Image type from magic bytes; empty when the bytes are not an image we know. */
QString sniffImageMime(const QByteArray &b);

bool mimeCompatible(const QString &declared, const QString &sniffed);

QString randomAlnum(int n);

/** Looks like the real ids: "v1_" + base64url of a small protobuf (two 23-char fields). */
QString newInteractionId();

QString newSignature();

inline int textTokens(const QString &text)
{
    return std::max(1, int(text.toUtf8().size() + 3) / 4);
}

/** Ids are opaque to clients, but ours are "v1_" + base64url: anything else never names a file. */
bool isStorableId(const QString &id);

/** The output image of a stored interaction (last image of its model_output steps), or empty. */
QByteArray outputJpeg(const json &interaction);

json recordOf(const Stored &st);

/** A record written by recordOf(), checked field by field; nullopt when it is not one. */
std::optional<Stored> storedFromRecord(const QByteArray &bytes, const QString &id);

QString typeName(const json &j);

Reply unknownField(const QString &where, const std::string &key);

Reply wrongType(const QString &field, const json &value, const char *expected);

} // namespace nb2::fakedetail

namespace nb2 {

// The fake server's own files use the shared pieces unqualified.
using namespace fakedetail;

class FakeServer::Private
{
public:
    explicit Private(FakeServerOptions o) : opts(std::move(o)), storeDir(opts.storeDir)
    {
        if (!opts.fixedImageJpeg.isEmpty()) {
            fixedDraftJpeg = FakeImagePainter::encodeJpeg(
                FakeImagePainter::draft(QImage::fromData(opts.fixedImageJpeg, "JPEG")), 70);
            fixedImageBase64 = opts.fixedImageJpeg.toBase64().toStdString();
            fixedDraftBase64 = fixedDraftJpeg.toBase64().toStdString();
            const std::string nonce = s(randomAlnum(24));
            fixedImageToken = "nb2fake-fixed-image-" + nonce;
            fixedDraftToken = "nb2fake-fixed-draft-" + nonce;
        }
    }
    QByteArray fixedDraftJpeg; // the draft of opts.fixedImageJpeg, made once
    // FakeServerOptions::fixedImageJpeg, encoded once: an answer is built around a token that
    // stands for the ~1.3 MB of base64 (no copies in the JSON tree, no escaping scan in dump())
    // and the token is replaced by the bytes in the serialised text. The tokens carry a random
    // nonce, so no text a client sends can contain one.
    std::string fixedImageBase64, fixedDraftBase64;
    std::string fixedImageToken, fixedDraftToken; // empty without a fixed image

    /** Replaces the fixed-image tokens in serialised JSON text by the base64 they stand for. */
    void expandFixedImages(std::string &text) const;
    /** The same as pieces: text's own ranges and the base64 between them (empty: no token in text). */
    std::vector<TextPiece> fixedImagePieces(const std::string &text) const;

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
    std::atomic<bool> stopping {false};
    std::atomic<int> inFlight {0}, peakInFlight {0};
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
    std::optional<Reply> parseContent(
        const json &c, const QString &where, ParsedCreate *out, bool currentTurn, QImage *lastImage);
    std::optional<Reply> parseResponseFormat(const json &rf, ParsedCreate *out);
    std::optional<Reply> parseGenerationConfig(const json &gc, ParsedCreate *out);

    std::vector<std::pair<int, std::string>> sseEvents(
        const json &interaction, int latencyMs, int skipThrough = 0) const;
    static std::string frame(const char *eventType, int eventNo, json payload);
};

} // namespace nb2
