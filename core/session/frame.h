#pragma once

#include "core/api/interaction.h"
#include "core/common/error.h"
#include "core/session/frameedit.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace nb2 {

/** How a frame came to be. ReAnchor: an edit whose parent's server id was gone, sent as the parent's stored pixels inline (edit-local form). */
enum class FrameKind { Generate, Edit, EditLocal, StyleEdit, Import, ReAnchor };

/** Lifecycle of a frame's turn. Done is terminal; Failed/Cancelled/Interrupted may go back to Pending by retry(). */
enum class FrameStatus { Pending, Done, Failed, Cancelled, Interrupted };

QString frameKindName(FrameKind kind); // "generate", "edit", "edit_local", "style_edit", "import", "re_anchor"
FrameKind frameKindFromName(const QString &name, bool *ok = nullptr);
QString frameStatusName(FrameStatus status); // "pending", "done", "failed", "cancelled", "interrupted"
FrameStatus frameStatusFromName(const QString &name, bool *ok = nullptr);
/** Image-file prefix of a kind: gen, edit, edit_local, style_edit, import (ReAnchor uses edit_local: it is that wire form). */
QString frameKindFilePrefix(FrameKind kind);

/** Whether a frame may move from one status to another (the session's state machine). */
bool isValidStatusTransition(FrameStatus from, FrameStatus to);

/** Why a turn failed, as stored in the session (from an Error). */
struct FrameError {
    QString kind; // errorKindName(): "not_found", "network", ... empty = no error
    int httpStatus = 0;
    QString serverMessage; // verbatim
    QString message;       // readable, names the fix

    bool isEmpty() const { return kind.isEmpty() && message.isEmpty(); }
    static FrameError fromError(const Error &error);
};

/** A frame's image on disk, relative to the session folder (e.g. "images/gen_1767000000_ab12cd34.jpg"). */
struct FrameImage {
    QString file;   // relative path; empty = no image
    QString sha256; // lower-case hex of the file's bytes
    QString mimeType;
    int width = 0;
    int height = 0;

    bool isNull() const { return file.isEmpty(); }
};

/**
 * Where an imported image came from, as read from the lineage record embedded in the file
 * (core/export writes and reads that record; the session only keeps what it said). Kept in the
 * manifest as the frame's "lineage" object with the record's own key names, so the manifest and
 * the file agree. It never holds a key or a local path: it has no field that could.
 */
struct FrameLineage {
    QString app;          // "nb2lite 0.1.0"
    QString frameId;      // the frame id in the session that exported the image
    QString parentSha256; // hex sha256 of that frame's parent image
    QString model;
    QString interactionId;   // the server id that produced the image (may have expired since)
    QString kind;            // generate / edit / ...
    QStringList promptChain; // root first (the tail when truncated)
    int promptChainTotal = 0;

    bool isEmpty() const
    {
        return app.isEmpty() && frameId.isEmpty() && parentSha256.isEmpty() && model.isEmpty()
            && interactionId.isEmpty() && kind.isEmpty() && promptChain.isEmpty();
    }
    /** Keys as in the exported record: app, frame, parentSha256, model, interaction, kind, prompts, promptsTotal. */
    QJsonObject toJson() const;
    /** Unknown keys (e.g. "schema") are ignored; wrong types read as empty. */
    static FrameLineage fromJson(const QJsonObject &object);
    /** From the record's JSON text (Provenance::toJson() in core/export); empty when it is not a JSON object. */
    static FrameLineage fromRecordJson(const QByteArray &json);
    bool operator==(const FrameLineage &other) const = default;
};

/**
 * One node of a session's history: what was asked (kind, prompt, parameters, parent, input
 * images), what the server answered (ids, image, text, usage, error), and what the user added
 * (title, star, note). A plain value; the manifest stores one JSON object per frame and keeps
 * any field it does not know in `extra`, so a newer writer's data survives an older reader.
 */
struct Frame {
    QString id;       // local frame id: 8 lower-case hex chars, unique in the session
    QString parentId; // empty for roots
    FrameKind kind = FrameKind::Generate;
    QString prompt;
    QString aspectRatio;   // empty: model's choice
    QString thinkingLevel; // empty: omitted
    QString model;
    QString interactionId;          // the id this turn produced (may be empty)
    QString continuedInteractionId; // previous_interaction_id sent (Edit only)
    FrameStatus status = FrameStatus::Pending;
    FrameError error;
    QDateTime requestedAt; // UTC
    QDateTime finishedAt;  // UTC; invalid while pending
    FrameImage image;
    QStringList inputImages; // relative files sent inline: EditLocal/ReAnchor {target}; StyleEdit {style, target}
    QString modelText;
    Usage usage;
    int attempts = 0;        // HTTP requests made for this frame, over all tries
    bool reAnchored = false; // "re-anchored (continuity may differ)"
    QString title;
    bool starred = false;
    bool folded = false; // a variant not picked: drawn collapsed in the timeline, never deleted
    QString note;
    QDateTime idExpiresAt; // when interactionId stops being usable as a parent (invalid: no id)
    QDateTime trashedAt;   // valid: the frame is in the trash
    QString trashGroup;    // frames trashed by one delete share a group; restore brings the group back
    qint64 ownerPid = 0;   // pid of the process running this pending turn (crash recovery)
    FrameLineage lineage;  // Import only: the embedded record of the imported file (empty: none)
    QString origin;        // who asked for the turn: empty = a person (app, CLI); kFrameOriginMcp = an agent
    FrameRegionEdit
        regionEdit;    // a region/protect edit: its mask, mode, crop and the server's raw image (image = composite)
    FrameDrift drift;  // how much this edit changed its parent (empty: not measured)
    QString replayOf;  // a replayed step: the frame whose prompt it repeats (empty: not a replay)
    QString replayRun; // the replay run that made it (its <session>/replay/<id>.json), so a resumed run finds it
    QString
        promptSent; // the prompt as sent when it differs from `prompt` (the branch's keep-list appended); empty: `prompt` was sent
    QStringList keepList;     // the keep-list set on this frame for it and its descendants (core/session/keeplist.h)
    bool keepListSet = false; // keepList applies from here (an empty list set here clears an inherited one)

    QJsonObject extra; // unknown fields, preserved verbatim

    bool isTrashed() const { return trashedAt.isValid(); }
    bool isPending() const { return status == FrameStatus::Pending; }
    bool isDone() const { return status == FrameStatus::Done; }
    /** The server id can be continued at `now` (present and not expired). */
    bool hasUsableId(const QDateTime &now = QDateTime::currentDateTimeUtc()) const;
    /**
     * The turn did not finish here but the server knows its id: interrupted, or failed on the
     * way back (network, timeout, a cut or malformed answer, a server error). recover fetches
     * it with get, and retry gets it before it would ever send (and pay for) a new request.
     */
    bool isRecoverable() const;
    /**
     * Every session file the frame names, relative: its picture, the inputs sent inline, a
     * precision edit's mask and raw server image, the drift heatmap. What a clean-up keeps
     * while a frame names it, and what a rebuild must not take for a picture nobody mentions.
     */
    QStringList files() const;
    /** "re-anchored (continuity may differ)", "interrupted — retry to re-send", ... for views. */
    QString statusText() const;

    QJsonObject toJson() const;
    /** Missing optional fields take defaults; a Corrupt error naming the field when id/kind/status are unusable. */
    static Result<Frame> fromJson(const QJsonObject &object);

    static QString newId(); // 8 hex chars from a random UUID
};

} // namespace nb2

// Every member is a Qt implicitly shared value or a plain value: a frame may be moved in
// memory as bytes, so a list of 10,000 frames grows by realloc instead of 10,000 moves.
Q_DECLARE_TYPEINFO(nb2::FrameError, Q_RELOCATABLE_TYPE);
Q_DECLARE_TYPEINFO(nb2::FrameImage, Q_RELOCATABLE_TYPE);
Q_DECLARE_TYPEINFO(nb2::FrameLineage, Q_RELOCATABLE_TYPE);
Q_DECLARE_TYPEINFO(nb2::Frame, Q_RELOCATABLE_TYPE);

namespace nb2 {

/** Frame::origin of turns an agent asked for through the MCP bridge (`nb2lite mcp`). */
inline constexpr QLatin1String kFrameOriginMcp("mcp");

/** "1767000000" style UTC seconds and ISO-8601 helpers used by the manifest/journal. */
QString toIsoUtc(const QDateTime &dt);
QDateTime fromIsoUtc(const QString &text);

} // namespace nb2
