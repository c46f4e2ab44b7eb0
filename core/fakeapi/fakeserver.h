#pragma once

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace nb2 {

/** One injected misbehaviour; consumed by the next create/get request(s). */
struct FakeFault {
    enum class Kind {
        RateLimit,              // 429 resource_exhausted with Retry-After (and retry-after-ms if set)
        ServerErrorJson,        // 500 {"error":{"code":"internal",...}}
        ServiceUnavailableHtml, // 503 text/html body (a proxy page)
        ConnectionReset,        // headers + part of the body, then the connection is dropped
        TruncatedJson,          // 200, complete HTTP message whose JSON body is cut in half
        SlowTrickle,            // 200, correct body sent in small chunks spread over trickleMs
        TextOnlyRefusal,        // 200 completed interaction with a text refusal and no image
        InvalidKey,             // 400 API_KEY_INVALID (array-wrapped google error) whatever the key
        ResetBeforeFirstByte,   // the connection is closed before any response byte; nothing is stored
    };
    Kind kind = Kind::RateLimit;
    int retryAfterSeconds = 1; // RateLimit: Retry-After header (seconds); < 0 = omit the header
    int retryAfterMs = -1;     // RateLimit: retry-after-ms header when >= 0
    int trickleMs = 2000;      // SlowTrickle: total time over which the body is spread
    /** ServerErrorJson / ServiceUnavailableHtml: the HTTP status (0 = the kind's own, 500 / 503),
     *  so that 500 and 503 can each be answered with a JSON or an HTML body. */
    int status = 0;
};

/** Stable lower-case names used by the binary's --fault flag and the control endpoint:
 *  rate_limit, server_error, unavailable_html, connection_reset, truncated_json,
 *  slow_trickle, text_only, invalid_key, reset_before_first_byte. */
std::optional<FakeFault::Kind> fakeFaultKindFromName(const QString &name);
QString fakeFaultKindName(FakeFault::Kind kind);

/** One request as received, for tests (e.g. SDK conformance compares bodies). The API key
 *  header is kept verbatim so tests can check it; never print it. */
struct FakeRequest {
    QString method;
    QString path;  // path without the query string, as sent (not decoded)
    QString query; // raw query string without '?', empty when none
    QByteArray body;
    QMap<QString, QString> headers; // header names lower-cased
};

struct FakeServerOptions {
    /** How a rejected thinking level is worded (both seen in the wild, spec §2.3). */
    enum class ThinkingError {
        AllowedValues,    // 400 Google shape, message ends "Allowed values are: low, high."
        NotSupportedRetry // 400 {"error":{"code":"invalid_request","message":"Thinking level
                          // THINKING_LEVEL_X is not supported for this model. Please retry ..."}}
    };

    QString apiKey = QStringLiteral("test-key");
    QStringList models {QStringLiteral("gemini-3.1-flash-lite-image")};
    QStringList thinkingLevels {QStringLiteral("low"), QStringLiteral("high")};
    int latencyMs = 0;      // added before every create/get/cancel answer (interruptible by stop())
    bool requireKey = true; // false: any (or no) key is accepted (CLI --demo)
    ThinkingError thinkingError = ThinkingError::AllowedValues;
    /**
     * Optional folder in which stored interactions outlive the process, as the real service's
     * do: each one is written there as `<id>.json` (atomically) when it is stored, and read
     * back when a request names an id that is not in memory; delete and forget remove the
     * file. Several short-lived fakes (nb2lite --demo, one per command) so continue each
     * other's chains. Empty: memory only. The folder is created on the first write.
     */
    QString storeDir;
    /**
     * Benchmarks: when set, every image answer is exactly these JPEG bytes (and a small draft
     * made from them once) instead of a painted picture, so a request costs the server no
     * painting, no decoding of the parent and no encoding, and the client's share of a turn can
     * be measured. Continuity is then not drawn (edits return the same picture).
     */
    QByteArray fixedImageJpeg;
};

/**
 * A strict, in-memory fake of the Gemini Interactions API (spec §1–9) served over plain
 * HTTP on 127.0.0.1 from its own thread pool. It is an independent reading of the spec:
 * it validates requests the way the real service does (key, model, thinking level, aspect
 * ratio, image size, previous id, base64, image bytes, 20 MB limit), keeps every stored
 * interaction's pixels so that edits visibly continue from their parent, draws
 * deterministic synthetic JPEGs without needing a QGuiApplication, answers JSON or SSE,
 * and misbehaves on request (injected faults, latency, forgotten ids) for tests and demos.
 * It owns the stored interactions and the request log; all methods are thread-safe.
 */
class FakeServer
{
public:
    explicit FakeServer(FakeServerOptions options = {});
    ~FakeServer(); // stops

    FakeServer(const FakeServer &) = delete;
    FakeServer &operator=(const FakeServer &) = delete;

    /** Binds 127.0.0.1:port (0 = ephemeral) and serves on background threads. */
    bool start(quint16 port = 0);
    /** Returns within about a second even while slow or trickled responses are in flight. */
    void stop();
    bool isRunning() const;
    quint16 port() const;
    QString baseUrl() const; // "http://127.0.0.1:PORT" (no trailing slash, no version)
    QString errorString() const;

    void setLatencyMs(int ms);
    int latencyMs() const;
    void setThinkingLevels(const QStringList &levels);
    QStringList thinkingLevels() const;
    void setRequireKey(bool require);
    void setThinkingErrorWording(FakeServerOptions::ThinkingError wording);

    /** The next `count` create/get requests get this fault instead of a normal answer. */
    void injectFault(const FakeFault &fault, int count = 1);
    void clearFaults();
    int pendingFaults() const;

    /** The id now answers 404, as if it expired on the server. */
    void forget(const QString &interactionId);

    QList<FakeRequest> requests() const;
    void clearRequests();

    /** Number of stored interactions held in memory (records in storeDir not yet read are not counted). */
    int interactionCount() const;

    /**
     * The most create/get requests answered at once since the start or the last reset (tests
     * check a client's concurrency limit with it). A request counts from its arrival until its
     * answer is handed to the connection; a streamed answer until its last event is written.
     */
    int peakConcurrentRequests() const;
    void resetPeakConcurrentRequests();

    class Private;

private:
    std::unique_ptr<Private> d;
};

} // namespace nb2
