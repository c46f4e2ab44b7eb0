#pragma once

#include "core/common/error.h"
#include "core/session/sessionpaths.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace nb2 {

class FrameGraph;
struct PriceTable;

/** One frame as the exporters see it: plain values, no link to the live session. */
struct ExportFrame {
    QString id;       // the session's frame id (stable, not a server id)
    int turn = 0;     // 1-based creation order in the session ("#3"); 0: use the position
    QString parentId; // empty for a root
    QString kind;     // "generate", "edit", "edit_local", "style_edit", "import", ...
    QString status;   // "done", "failed", "pending", ...
    QString prompt;
    QString modelText; // the model's own words for this turn
    QString model;
    QString interactionId;                     // server id; may be empty or expired
    QList<QPair<QString, QString>> parameters; // aspect ratio, thinking level, ... (display order)
    QDateTime created;
    QDateTime finished;        // invalid while pending
    QString replayOf;          // a replayed step: the frame whose prompt it repeats (issue 14)
    QString reanchor;          // non-empty: this turn re-sent stored pixels instead of the server id (why)
    QString error;             // failed turns: the readable message
    QString imagePath;         // absolute path of the image file on disk; empty when none
    QString imageRelPath;      // the same file relative to the session folder (what exports show)
    QString imageSha256;       // lower-case hex of the image bytes, from the manifest; may be empty
    QStringList inputRelPaths; // imported inputs (style reference, edit-local target), relative
    double costUsd = -1;       // the turn's estimated cost from its usage and the price table; -1: unknown / not priced

    bool hasImage() const { return !imagePath.isEmpty(); }
    bool isFailed() const { return status == QLatin1String("failed"); }
    /** The kind for people: "re-anchor", "style-edit". */
    QString kindText() const { return QString(kind).replace(QLatin1Char('_'), QLatin1Char('-')); }
};

/** A named branch: the frame it ends at. */
struct ExportBranch {
    QString name;
    QString headId;
};

/** What to export: everything, one branch (root to head), or chosen frames. */
struct ExportScope {
    enum class Kind { Session, Branch, Frames };
    Kind kind = Kind::Session;
    QString branch;       // Branch: a branch name, or a frame id taken as the head
    QStringList frameIds; // Frames

    static ExportScope session() { return {}; }
    static ExportScope ofBranch(const QString &nameOrHead) { return {Kind::Branch, nameOrHead, {}}; }
    static ExportScope ofFrames(const QStringList &ids) { return {Kind::Frames, {}, ids}; }
};

/**
 * The session as a read-only value for exporting: frames in creation order, branch heads and
 * the session folder's file list. Responsible for tree walks (tree order, root-to-frame
 * paths) and for resolving an ExportScope to frames; owns copies, never the live graph, so
 * an export can run on a worker thread while the user keeps working.
 */
struct ExportSession {
    QString title;
    QString sessionDir;        // absolute; never written into an export
    QList<ExportFrame> frames; // creation order
    QList<ExportBranch> branches;
    QStringList sessionFiles; // every file the session consists of, relative to sessionDir
    QString priceAsOf;        // the price table's date when costs were filled in (empty: no costs)
    QString priceSource;      // where the prices came from
    // frames' positions by id, made by fromGraph(): frame() is asked for a few ids each time a
    // control of the Export dialog changes, and a scan of 10,000 frames took a millisecond.
    QHash<QString, qsizetype> rowOfId;

    /**
     * The adapter from the live session: live (not trashed) frames of the graph, branches
     * numbered "1", "2", ... in FrameGraph::branches() order, and the session's files
     * (manifest.json, journal.jsonl, every image or input a frame refers to, trashed ones too).
     */
    static ExportSession fromGraph(const FrameGraph &graph, const QString &sessionDir);
    /** As above, with each frame's estimated cost (ExportFrame::costUsd) from `prices` and its date. */
    static ExportSession fromGraph(const FrameGraph &graph, const QString &sessionDir, const PriceTable &prices);

    /**
     * The file to read for a frame's image, checked at the moment of use: it must resolve
     * inside sessionDir (no absolute path, no `..`, no symlink leading out) whatever the
     * manifest said when the session was loaded. Unsafe error naming the frame otherwise.
     */
    Result<QString> imageFile(const ExportFrame &frame) const { return imageFileIn(SessionPaths(sessionDir), frame); }
    /** The same with a resolver made once for many frames (an exporter's loop). */
    static Result<QString> imageFileIn(const SessionPaths &paths, const ExportFrame &frame);

    const ExportFrame *frame(const QString &id) const;
    QList<const ExportFrame *> children(const QString &id) const; // creation order
    QList<const ExportFrame *> roots() const;
    /** Root first, ending at id. Empty if id is unknown. */
    QList<const ExportFrame *> pathTo(const QString &id) const;
    /** Depth-first pre-order, siblings in creation order: parents always before children. */
    QList<const ExportFrame *> treeOrder() const;
    /** The frames of a scope in tree order; failed turns only when includeFailed. */
    Result<QList<const ExportFrame *>> select(const ExportScope &scope, bool includeFailed) const;
    /**
     * The same with this session's treeOrder() already walked (ignored for a branch scope, which
     * is a path): a caller that selects several scopes, like the Export dialog counting them,
     * walks the tree once instead of once per scope.
     */
    Result<QList<const ExportFrame *>> select(
        const ExportScope &scope, bool includeFailed, const QList<const ExportFrame *> &inTreeOrder) const;
};

} // namespace nb2
