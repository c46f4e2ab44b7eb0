#pragma once

#include "core/api/interaction.h"
#include "core/api/sseparser.h"
#include "core/common/error.h"

#include <QList>
#include <QString>

#include <memory>
#include <optional>

namespace nb2 {

/**
 * Rebuilds an Interaction from its SSE events (spec §5): accumulates steps by index from
 * step.start / step.delta (text appended, consecutive image data of a step concatenated),
 * tracks id and status, and turns in-stream errors into an Error. What it reports while
 * running becomes StreamEvents; at the end interactionJson() is the body a unary create
 * would have returned, so that streaming and unary results go through the same parser.
 */
class StreamAssembler
{
public:
    StreamAssembler();
    ~StreamAssembler();
    StreamAssembler(const StreamAssembler &) = delete;
    StreamAssembler &operator=(const StreamAssembler &) = delete;

    /** Applies one event; returns what to tell the caller. */
    QList<StreamEvent> feed(const SseEvent &event);

    bool sawAnyEvent() const;
    bool isCompleted() const; // interaction.completed arrived
    bool isDone() const;      // completed, [DONE] or an error: stop reading
    const std::optional<Error> &error() const;
    QString interactionId() const;

    /** The accumulated interaction as JSON (steps, id, status, usage, ...). */
    QByteArray interactionJson() const;
    /**
     * ResponseParser::parseInteraction(interactionJson()), without serialising the tree and
     * parsing it again, and without decoding the image a second time.
     */
    Result<Interaction> parsedInteraction() const;

private:
    /** feed() without the guard that turns a JSON type error into a malformed-stream error. */
    QList<StreamEvent> apply(const SseEvent &event);

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace nb2
