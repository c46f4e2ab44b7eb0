#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

namespace nb2 {

/** Encoded image bytes exactly as received or read (never re-encoded), with their MIME type. */
struct ImageData {
    QByteArray bytes;
    QString mimeType; // from the response, verified against the magic bytes
    bool isNull() const { return bytes.isEmpty(); }
};

/** Token counts; -1 where the server did not report the figure. */
struct Usage {
    qint64 inputTokens = -1;
    qint64 outputTokens = -1;
    qint64 thoughtTokens = -1;
    qint64 totalTokens = -1;
    /** The image part of outputTokens (output_tokens_by_modality "image"); -1: the server did not split it. Billed at the image-output rate. */
    qint64 imageOutputTokens = -1;

    bool operator==(const Usage &) const = default;
};

/** One interaction as the client understood it (spec §3): the current turn's image and text. */
struct Interaction {
    QString id;     // may be empty (store:false responses can lack it)
    QString status; // "completed", "in_progress", ... (unknown strings kept)
    QString model;
    QString previousInteractionId;
    QDateTime created; // invalid when absent
    QDateTime updated;
    ImageData image;         // last image of the current turn's model_output steps
    QString text;            // the model's caption: text parts of the same turn
    QList<ImageData> drafts; // images from thought steps (never the result)
    Usage usage;
    int attempts = 0; // HTTP requests made for this call
};

/** Result of a call with no payload (delete). */
struct Done {
    int attempts = 0; // HTTP requests made for this call
};

/** What a streaming create reports while it runs. */
struct StreamEvent {
    enum class Type {
        Created,       // interactionId is now known (persist it before anything else)
        StatusChanged, // status changed
        Draft,         // a draft image from a thought step
        Text,          // model text arrived (text holds the text so far)
        ImageReceived, // the final image bytes arrived (the call still has to finish)
    };
    Type type = Type::Created;
    QString interactionId;
    QString status;
    QString text;
    ImageData image;
};

} // namespace nb2
