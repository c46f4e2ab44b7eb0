#pragma once

#include <QString>
#include <QStringList>

#include <variant>

namespace nb2 {

/** What went wrong with one API call, in terms a user (and a retry policy) can act on. */
enum class ErrorKind {
    None,
    InvalidInput,      // rejected locally before any request (empty prompt, bad ratio, not an image)
    InvalidRequest,    // the server answered 400 (e.g. unsupported thinking level)
    Auth,              // 401/403, or 400 with API_KEY_INVALID, or no key at all
    NotFound,          // 404: unknown, deleted or expired interaction id, or unknown model
    RateLimited,       // 429 (retryAfterMs says when to try again)
    Server,            // 5xx, or any other unexpected status
    Network,           // connection refused / reset / DNS
    Tls,               // certificate or host-name verification failed; insecure http refused
    Timeout,           // connect or read timeout
    Cancelled,         // the caller cancelled the call
    MalformedResponse, // a 200 whose body we could not understand
    NoImage,           // completed, but the model returned no image (text carries its words)
    TooLarge,          // request over the 20 MB inline limit (locally or 413)
    Io,                // local file could not be read or written
};

/** Stable snake_case name of a kind, used in --json output and session files. */
QString errorKindName(ErrorKind kind);
ErrorKind errorKindFromName(const QString &name);

/** A failed call: the kind, what the server said verbatim, and a readable message that names the fix. */
struct ApiError {
    ErrorKind kind = ErrorKind::None;
    int httpStatus = 0;           // 0 when no HTTP response was received
    QString message;              // readable, one or two sentences, names the fix
    QString serverMessage;        // the server's own words, verbatim (may be empty)
    QString serverCode;           // "invalid_request", "INVALID_ARGUMENT", "API_KEY_INVALID", ...
    QString modelText;            // NoImage: what the model said instead of drawing
    QStringList allowedValues;    // InvalidRequest naming "Allowed values are: ..."
    int retryAfterMs = -1;        // RateLimited: server-suggested delay, -1 if none
    int attempts = 0;             // HTTP requests made for this call (a retried create may bill twice)
    QString interactionId;        // set when the server created an interaction anyway (NoImage, failed, stream cut)
};

/**
 * The value every API call returns: either T or an ApiError. No exception crosses the
 * core/api boundary.
 */
template <typename T>
class Result
{
public:
    Result(T value) : m_data(std::move(value)) {}
    Result(ApiError error) : m_data(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_data); }
    explicit operator bool() const { return ok(); }
    const T &value() const { return std::get<T>(m_data); }
    T &value() { return std::get<T>(m_data); }
    const ApiError &error() const { return std::get<ApiError>(m_data); }

private:
    std::variant<T, ApiError> m_data;
};

/** Result of a call with no payload (delete). */
struct Done {
    int attempts = 0;
};

} // namespace nb2
