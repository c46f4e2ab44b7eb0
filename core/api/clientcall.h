// Internal to core/api: one HTTP attempt of the Interactions client (a blocking httplib call
// on its own thread, cancellable in any phase). Included only by core/api's own sources.
#pragma once

#include "core/api/clientconfig.h"
#include "core/api/interactionsclient.h"
#include "core/api/turnrequest.h"

#include <QByteArray>
#include <QString>

#include <httplib.h>

#include <chrono>
#include <functional>
#include <string>

namespace nb2::apidetail {

using Clock = std::chrono::steady_clock;

/** Where Debian keeps the system's CA certificates (used when no bundle is configured). */
inline constexpr auto kSystemCaBundle = "/etc/ssl/certs/ca-certificates.crt";

struct Endpoint {
    std::string schemeHostPort; // what httplib::Client wants
    std::string pathPrefix;     // "" or "/some/prefix"
    QString host;
    bool https = false;
};

/** Parses a base URL into what httplib wants and the path prefix. */
Endpoint parseEndpoint(const QString &baseUrl);

/** Exponential backoff with jitter for attempt (0-based), capped by the config. */
int backoffMs(const ClientConfig &config, int attempt);

/** Statuses worth another attempt (timeouts, conflicts, rate limits, server errors). */
bool isRetryableStatus(int status);

// Everything one HTTP attempt produced, seen from the calling thread.
struct AttemptOutcome {
    int status = 0; // 0: no response
    QString contentType;
    QString retryAfter;
    QString retryAfterMs;
    QByteArray body; // unless a chunk handler consumed it
    httplib::Error error = httplib::Error::Success;
    long tlsVerifyResult = 0;
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

/**
 * One HTTP attempt. The blocking httplib call runs on its own thread and hands headers and
 * body chunks over through Transfer; this thread only waits on a condition variable, so a
 * cancel (or a stream handler that has seen the end) ends the attempt at once, in any phase
 * including connect and TLS handshake, which httplib::Client::stop() alone cannot interrupt.
 */
class ClientCall
{
public:
    ClientCall(const ClientConfig &config, const CallOptions &options) : m_config(config), m_options(options) {}

    AttemptOutcome attempt(const std::string &method, const std::string &path, const std::string &body, bool stream,
        const ChunkHandler &onChunk);

private:
    const ClientConfig &m_config;
    const CallOptions &m_options;
};

} // namespace nb2::apidetail
