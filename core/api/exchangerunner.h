// Internal to core/api: one logical call of the Interactions client — attempts, failure
// classification, backoff and Retry-After, the deadline — and the error refinement shared by
// create, get and delete. Included only by core/api's own sources.
#pragma once

#include "core/api/streamassembler.h"
#include "core/api/transport.h"
#include "core/common/error.h"

#include <optional>
#include <string>
#include <type_traits>

namespace nb2::apidetail {

// Adds what only the caller knows (which level, which id, which key source) to the message.
void refineError(Error &e, const RequestContext &ctx, const ClientConfig &config);

// The key must never leave in a message, even if a server or proxy echoed it back.
void scrubKey(Error &e, const ClientConfig &config);

/** The result of an operation with its attempt count, the error refined and the key scrubbed. */
template <typename T>
Result<T> finish(Result<T> result, int attempts, const RequestContext &ctx, const ClientConfig &config)
{
    if (result.ok()) {
        if constexpr (std::is_same_v<T, Interaction> || std::is_same_v<T, Done>)
            result.value().attempts = attempts;
        return result;
    }
    Error e = result.error();
    e.api.attempts = attempts;
    refineError(e, ctx, config);
    scrubKey(e, config);
    return e;
}

// What a successful exchange hands back to the operation.
struct Exchange {
    int status = 0;
    QByteArray body;
    bool streamed = false;
};

/** Why an exchange ended early, beyond its Error: what of the answer arrived. */
struct ExchangeTrace {
    bool answerBegan = false; // headers, bytes or stream events arrived before it broke
    QByteArray partialBody;   // the bytes of a plain (non-stream) answer that was cut
};

/** One logical call: attempts, classification of failures, backoff and Retry-After, the deadline. */
class ExchangeRunner
{
public:
    ExchangeRunner(const ClientConfig &config, const CallOptions &options) : m_config(config), m_options(options) {}

    /**
     * Runs the request with retries; streamed 200 bodies go through assembler. A request
     * that is not idempotent (create) is never sent again once its answer began (trace).
     */
    Result<Exchange> run(const std::string &method, const std::string &path, const std::string &body, bool stream,
        StreamAssembler *assembler, int &attempts, bool idempotent, ExchangeTrace *trace = nullptr);

private:
    bool deadlinePassed() const { return !m_options.deadline.isForever() && m_options.deadline.hasExpired(); }
    Error deadlineError(int attempts, const std::optional<Error> &last) const;

    const ClientConfig &m_config;
    const CallOptions &m_options;
};

/** Checks made before any request: transport security, API version, a key (unless the server is local). */
std::optional<Error> preflight(const ClientConfig &config);

/** The interactions collection's path and one interaction's path under the base URL. */
std::string collectionPath(const ClientConfig &config);
std::string itemPath(const ClientConfig &config, const QString &id);

} // namespace nb2::apidetail
