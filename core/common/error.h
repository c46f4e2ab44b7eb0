#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>
#include <variant>

class QFileDevice;

namespace nb2 {

/**
 * What went wrong, in terms a user (and a retry policy) can act on. Every area uses the same
 * kinds; the API ones come first and keep their order. Each has a stable snake_case name
 * (errorKindName()) used in --json output and session files.
 */
enum class ErrorKind {
    None,
    InvalidInput,      // rejected locally before any request (empty prompt, bad ratio, not an image)
    InvalidRequest,    // the server answered 400 (e.g. unsupported thinking level)
    Auth,              // 401/403, or 400 with API_KEY_INVALID, or no key at all
    NotFound,          // 404: unknown, deleted or expired interaction id, or unknown model
    RateLimited,       // 429 (api.retryAfterMs says when to try again)
    Server,            // 5xx, or any other unexpected status
    Network,           // connection refused / reset / DNS
    Tls,               // certificate or host-name verification failed; insecure http refused
    Timeout,           // connect or read timeout
    Cancelled,         // the caller cancelled the call
    MalformedResponse, // a 200 whose body we could not understand
    NoImage,           // completed, but the model returned no image (api.modelText carries its words)
    TooLarge,          // request over the 20 MB inline limit (locally or 413), or an input over its bound
    Io,                // local file could not be read or written
    Conflict,          // the request contradicts the session's state (a continuation exists: branch on purpose)
    Unsafe,            // a path read from a file escapes its folder, or an output would follow a symlink
    Corrupt,           // a manifest, journal or bundle is damaged
    Locked,            // another process holds the session lock past the timeout
    NotWritable,       // the folder is read-only
    DiskFull,          // no space left on the device
    Budget,            // the cost budget does not allow the call
};

/** Stable snake_case name of a kind ("not_found", "disk_full", ...); "unknown" for a value outside the enum. */
QString errorKindName(ErrorKind kind);
/** The kind a name stands for; None for an empty or unknown name (e.g. one written by a newer build). */
ErrorKind errorKindFromName(const QString &name);

/** What an API call's failure adds to an Error; left at its defaults for every other failure. */
struct ApiDetail {
    int httpStatus = 0;        // 0 when no HTTP response was received
    QString serverMessage;     // the server's own words, verbatim (may be empty)
    QString serverCode;        // "invalid_request", "INVALID_ARGUMENT", "API_KEY_INVALID", ...
    QString modelText;         // NoImage: what the model said instead of drawing
    QStringList allowedValues; // InvalidRequest naming "Allowed values are: ..."
    int retryAfterMs = -1;     // RateLimited: server-suggested delay, -1 if none
    int attempts = 0;          // HTTP requests made for this call (a retried create may bill twice)
    QString interactionId;     // set when the server created an interaction anyway (NoImage, failed, stream cut)
};

/** A failure anywhere in the product: its kind, a readable message that names the fix, and the API detail if any. */
struct Error {
    ErrorKind kind = ErrorKind::None;
    QString message; // readable, one or two sentences, names the fix
    ApiDetail api;

    static Error make(ErrorKind kind, QString message);
};

/**
 * The kind of a failed write to path (a file, or a folder to create): DiskFull when file
 * reports the device full, NotWritable when the nearest existing folder is read-only, Io
 * otherwise. So that the message a user sees can name the right fix.
 */
ErrorKind writeFailureKind(const QString &path, const QFileDevice *file = nullptr);

/** The Error of a successful Result: kind None, no message. */
const Error &noError();

/**
 * The value every call that can fail returns: either T or an Error. No exception crosses a
 * layer. value() of a failed Result is a programming error (std::bad_variant_access);
 * error() of a successful one is noError().
 */
template <typename T> class Result
{
public:
    Result(T value) : m_data(std::move(value)) {}
    Result(Error error) : m_data(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_data); }
    explicit operator bool() const { return ok(); }
    const T &value() const { return std::get<T>(m_data); }
    T &value() { return std::get<T>(m_data); }
    const Error &error() const { return ok() ? noError() : std::get<Error>(m_data); }

private:
    std::variant<T, Error> m_data;
};

/** A call with nothing to return but success: default-constructed (or success()) is success. */
template <> class Result<void>
{
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)) {}
    static Result success() { return {}; }

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return m_error ? *m_error : noError(); }

private:
    std::optional<Error> m_error;
};

} // namespace nb2

Q_DECLARE_METATYPE(nb2::Error)
