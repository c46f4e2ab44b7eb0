#pragma once

#include "core/common/error.h"
#include "core/api/cancellation.h"
#include "core/api/clientconfig.h"
#include "core/api/interaction.h"
#include "core/api/turnrequest.h"

#include <functional>
#include <optional>

namespace nb2 {

using StreamHandler = std::function<void(const StreamEvent &)>;

/** The client is about to wait before its next attempt (a 429 with a short Retry-After, a 5xx, a dropped connection). */
struct RetryNotice {
    ErrorKind kind = ErrorKind::None; // what the last attempt ran into (RateLimited, Server, Network, ...)
    int attempt = 0;                  // the attempt that comes after the wait (2 = the first retry)
    int maxAttempts = 0;              // maxRetries + 1
    int delayMs = 0;                  // how long the client sleeps first
};
using RetryHandler = std::function<void(const RetryNotice &)>;

/** Per-call options. */
struct CallOptions {
    bool stream = false;          // use SSE (spec §5); events go to onEvent
    StreamHandler onEvent;        // called on the worker thread, in order
    CancelTokenPtr cancel;        // optional
    RetryHandler onRetry;         // optional; called on the worker thread before each wait
};

/**
 * Blocking, thread-safe client of the Gemini Interactions API. Every call validates its
 * input, sends exactly the JSON the official SDK sends, retries what is safe to retry, and
 * returns a Result: the parsed interaction or an Error. Each call uses its own
 * connection, so calls may run concurrently from worker threads.
 */
class InteractionsClient
{
public:
    explicit InteractionsClient(ClientConfig config);
    ~InteractionsClient();

    const ClientConfig &config() const { return m_config; }

    /** Local checks only (prompt, aspect ratio, thinking level vs the learned set, images, size). */
    std::optional<Error> validate(const TurnRequest &request) const;

    /** The JSON body create() would send, for logs and tests (never contains the key). */
    QByteArray requestBody(const TurnRequest &request, bool stream = false) const;

    Result<Interaction> create(const TurnRequest &request, const CallOptions &options = {});
    Result<Interaction> get(const QString &interactionId, const CallOptions &options = {});
    Result<Done> remove(const QString &interactionId, const CallOptions &options = {});

private:
    ClientConfig m_config;
};

} // namespace nb2
