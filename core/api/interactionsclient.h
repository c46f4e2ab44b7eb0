#pragma once

#include "core/api/cancellation.h"
#include "core/api/clientconfig.h"
#include "core/api/interaction.h"
#include "core/api/turnrequest.h"
#include "core/common/error.h"

#include <QDeadlineTimer>

#include <functional>
#include <optional>

namespace nb2 {

using StreamHandler = std::function<void(const StreamEvent &)>;

/** An attempt failed and the call will try again after delayMs (for progress lines). */
struct RetryNotice {
    int attempt = 0; // the attempt that failed, 1-based
    int maxAttempts = 0;
    int delayMs = 0; // the wait before the next attempt
    Error error;     // why it failed
};

/** Per-call options. */
struct CallOptions {
    bool stream = false;   // use SSE (spec §5); events go to onEvent
    StreamHandler onEvent; // called on the worker thread, in order
    CancelTokenPtr cancel; // optional
    /**
     * The whole call's time limit, every attempt, wait and follow-up get included: the call
     * ends with a Timeout error when it passes (nb2lite --timeout). Forever by default.
     */
    QDeadlineTimer deadline {QDeadlineTimer::Forever};
    /** Called (on the calling thread) before each wait between attempts, so a front end can say so. */
    std::function<void(const RetryNotice &)> onRetry;
};

/**
 * Blocking, thread-safe client of the Gemini Interactions API. Every call validates its
 * input, sends exactly the JSON the official SDK sends, retries what is safe to retry, and
 * returns a Result: the parsed interaction or an Error. Each call uses its own
 * connection, so calls may run concurrently from worker threads.
 *
 * A create is never sent twice once its answer has begun to arrive (headers, bytes or
 * stream events): the interaction exists and a second POST would be billed again. If the
 * answer is then cut or unreadable, the id is taken from what did arrive and the
 * interaction is fetched with get (polling briefly while the server finishes it); without
 * an id the call fails and says so. Retry-After is a lower bound on our own backoff, never
 * a reason to retry faster; CallOptions::deadline bounds the whole call.
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
