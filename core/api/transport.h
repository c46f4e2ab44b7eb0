// Internal to core/api: the HTTP transport as the Interactions client sees it — one attempt,
// described in types of our own (no httplib or OpenSSL types), so that the code which links
// cpp-httplib and OpenSSL can live in a module an app loads after its first frame
// (nb2lite-studio: libnb2net.so, app/netmodule/). Included only by core/api's own sources
// and the module's.
#pragma once

#include "core/api/clientconfig.h"
#include "core/api/interactionsclient.h"
#include "core/api/turnrequest.h"
#include "core/common/error.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <functional>
#include <string>

namespace nb2::apidetail {

using Clock = std::chrono::steady_clock;

/** Where Debian keeps the system's CA certificates (used when no bundle is configured). */
inline constexpr auto kSystemCaBundle = "/etc/ssl/certs/ca-certificates.crt";

struct Endpoint {
    std::string schemeHostPort; // what the HTTP library wants: scheme://host:port
    std::string pathPrefix;     // "" or "/some/prefix"
    QString host;
    bool https = false;
};

/** Parses a base URL into scheme://host:port and the path prefix. */
Endpoint parseEndpoint(const QString &baseUrl);

/** Exponential backoff with jitter for attempt (0-based), capped by the config. */
int backoffMs(const ClientConfig &config, int attempt);

/** Statuses worth another attempt (timeouts, conflicts, rate limits, server errors). */
bool isRetryableStatus(int status);

// How an attempt failed below HTTP, in our words (the transport maps its library's errors).
enum class TransportError {
    Success,
    Connection,            // could not connect (refused, unreachable, DNS)
    ConnectionTimeout,     // the connect or a socket wait ran out of time
    Read,                  // the connection broke while reading
    SslConnection,         // the TLS handshake failed
    SslLoadingCerts,       // the CA bundle could not be loaded
    SslServerVerification, // the certificate or host name did not verify
    Other,
};

// Everything one HTTP attempt produced, seen from the calling thread.
struct AttemptOutcome {
    int status = 0; // 0: no response
    QString contentType;
    QString retryAfter;
    QString retryAfterMs;
    QByteArray body; // unless a chunk handler consumed it
    TransportError error = TransportError::Success;
    QString errorName;        // the HTTP library's name for `error` ("Connection", "Read", ...)
    long tlsVerifyResult = 0; // OpenSSL's X509 verify result, with its words in tlsVerifyReason
    QString tlsVerifyReason;
    bool cancelled = false;
    bool timedOut = false;         // our own watchdog or a read that ran into the timeout
    bool stoppedByHandler = false; // the chunk handler had all it needed
    bool deadlineHit = false;      // CallOptions::deadline passed during the attempt
};

using ChunkHandler = std::function<bool(int status, const QString &contentType, const QByteArray &chunk)>;

struct RequestContext {
    const TurnRequest *turn = nullptr;
    QString interactionId; // get / remove
    QString operation;     // "create", "get", "delete"
};

/** What the HTTP code offers the rest of the program: one attempt, and its libraries' versions. */
struct NetBackend {
    AttemptOutcome (*attempt)(const ClientConfig &config, const CallOptions &options, const std::string &method,
        const std::string &path, const std::string &body, bool stream, const ChunkHandler &onChunk);
    QString (*opensslVersion)();
    QString (*httplibVersion)();
};

/**
 * The HTTP code. Defined twice and linked once: nb2core_http's definition (netbackendlinked.cpp,
 * the transport linked in: the CLI, the tests, the bench) or an app's own, which loads the
 * transport as a module (nb2lite-studio: app/studio/netbackendloaded.cpp) and waits for it.
 * An error names the missing file and the package that provides it.
 */
Result<const NetBackend *> netBackend();

} // namespace nb2::apidetail
