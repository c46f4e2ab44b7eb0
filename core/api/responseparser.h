#pragma once

#include "core/api/interaction.h"
#include "core/common/error.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

namespace nb2 {

/**
 * Reads what the server sends back (spec §3, §6): an Interaction body into the current turn's
 * image, caption, drafts and usage, and an error body of any of the three shapes (or HTML)
 * into an Error. Pure functions of the bytes, so that every rule can be tested without a
 * server; the client adds the request context (thinking level, ids, key source) to messages.
 */
class ResponseParser
{
public:
    /**
     * Parses an Interaction. A completed interaction without an image is ErrorKind::NoImage
     * (with the model's text); failed/cancelled/... is an error with the server's detail.
     * allowUnfinished accepts in_progress/queued/... interactions (a get() while it runs).
     */
    static Result<Interaction> parseInteraction(const QByteArray &body, bool allowUnfinished = false);

    /**
     * The top-level "id" of an Interaction body that arrived only in part (a connection cut,
     * a truncated answer): enough to get() the interaction instead of paying for it again.
     * Empty when the id is not (completely) in the bytes. Nested objects' ids are ignored.
     */
    static QString salvageInteractionId(const QByteArray &partialBody);

    /** Classifies a non-200 response; the message is generic until the client refines it. */
    static Error parseError(int httpStatus, const QByteArray &body);

    /** Standard or url-safe base64; tolerates whitespace and missing padding. */
    static QByteArray decodeBase64(const QByteArray &text, bool *ok = nullptr);

    /** Retry-After (seconds or HTTP-date) / retry-after-ms headers in ms; -1 when absent or unparsable. */
    static int parseRetryAfter(
        const QString &retryAfter, const QString &retryAfterMs, const QDateTime &now = QDateTime::currentDateTimeUtc());

    /** A protobuf Duration string ("7s", "1.5s", "250ms") in ms; -1 when unparsable. */
    static int parseDurationMs(const QString &text);

    /** Longest server message (error.message) kept, in characters; longer ones end in "…". */
    static constexpr int kMaxServerMessageChars = 2000;
    /** Largest error body parsed as JSON; a bigger one is read as text (its first 4 KB). */
    static constexpr qsizetype kMaxErrorBodyBytes = 1024 * 1024;
    /** Longest server error code kept (codes are short words; anything longer is noise). */
    static constexpr int kMaxServerCodeChars = 200;

    /**
     * The server's own text bounded to max characters (the last one an ellipsis when cut),
     * so a hostile or broken server cannot make us keep, store and print megabytes of it.
     */
    static QString boundedServerText(const QString &text, int max = kMaxServerMessageChars);

    /** Server text ready to be followed by ". " in our sentences (no doubled full stop). */
    static QString withoutFinalDot(const QString &text);

    /** The kind an in-body error code string implies ("resource_exhausted" -> RateLimited ...). */
    static ErrorKind kindForCode(const QString &code, ErrorKind fallback);
};

} // namespace nb2
