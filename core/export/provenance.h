#pragma once

#include "core/common/error.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace nb2 {

struct ExportSession;

/** Which parts of the lineage record the user allows into exported files. */
struct ProvenanceOptions {
    bool stripPrompts = false; // no prompt chain
    bool stripIds = false;     // no frame id, interaction id or parent image hash
};

/**
 * The compact lineage record NB2Lite writes into exported images and reads back when an image
 * is imported: where the picture came from, never who made it or where it lived. It holds no
 * API key and no local path by construction (there is no field that could carry one). The
 * JSON form is stable and versioned by `schema`; unknown keys are ignored when reading so that
 * newer records stay readable.
 */
struct Provenance {
    static constexpr int kSchemaVersion = 1;
    static constexpr int kMaxChainPrompts = 16; // keeps the record compact (and a JPEG segment small)
    static constexpr int kMaxPromptChars = 500;

    int schema = kSchemaVersion;
    QString app; // "nb2lite 0.1.0"
    QString frameId;
    QString parentSha256; // hex sha256 of the parent frame's image bytes
    QString model;
    QString interactionId;
    QString kind;             // generate / edit / ...
    QString replayOf;         // a replayed step: the frame id whose prompt it repeats (an id: stripped with the ids)
    QStringList promptChain;  // root first, this frame's prompt last (the tail when truncated)
    int promptChainTotal = 0; // how many prompts the full chain had (> promptChain.size() when truncated)

    bool isEmpty() const
    {
        return frameId.isEmpty() && model.isEmpty() && interactionId.isEmpty() && promptChain.isEmpty();
    }

    QByteArray toJson() const; // compact, keys in a fixed order
    static Result<Provenance> fromJson(const QByteArray &json);

    /** The record for one frame of a session, with the options applied. */
    static Provenance forFrame(const ExportSession &session, const QString &frameId, const ProvenanceOptions &options);

    /**
     * Exactly the fields that will be written with these options, as (label, value) rows for
     * the export dialog; values are shown as they will appear (prompts abbreviated).
     */
    static QList<QPair<QString, QString>> fieldsToWrite(const Provenance &record);
};

/** The keyword of the PNG iTXt chunk and the XMP property carrying the record. */
inline constexpr char kProvenanceKeyword[] = "nb2lite:provenance";

/**
 * Returns the image bytes with the record embedded in the container (PNG iTXt chunk, or JPEG
 * APP1 XMP packet / COM segment when the file already has foreign XMP). Pixel data is copied
 * unchanged; an older nb2lite record is replaced. Other formats: an InvalidInput error.
 */
Result<QByteArray> embedProvenance(const QByteArray &imageBytes, const Provenance &record);

/** True when embedProvenance() supports this encoded image (PNG or JPEG). */
bool canEmbedProvenance(const QByteArray &imageBytes);

/** Reads the record from image bytes; an InvalidInput error saying why when there is none. */
Result<Provenance> readProvenanceFromBytes(const QByteArray &imageBytes);

/** Reads the record from an image file (what import and drop use); Io error if unreadable. */
Result<Provenance> readProvenance(const QString &path);

} // namespace nb2
