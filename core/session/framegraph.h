#pragma once

#include "core/session/frame.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace nb2 {

/** One branch: the path from a root to a leaf (its head). */
struct Branch {
    QStringList path; // root first, head last
    QString head() const { return path.isEmpty() ? QString() : path.last(); }
    QString root() const { return path.isEmpty() ? QString() : path.first(); }
};

/**
 * The session's history as pure data: frames keyed by id, in insertion (creation) order,
 * with parent links. It derives everything else — children, roots, leaves, branches (every
 * root-to-leaf path), the path to a frame, the part of a branch no other branch shares —
 * and never touches disk or the network. Frames in the trash stay in the graph but are
 * invisible to the derived queries unless IncludeTrashed is passed.
 */
class FrameGraph
{
public:
    enum Visibility { LiveOnly, IncludeTrashed };

    FrameGraph();
    /** A copy shares the frames until one side changes, and has a rowsRevision() of its own. */
    FrameGraph(const FrameGraph &other);
    FrameGraph(FrameGraph &&other) noexcept;
    FrameGraph &operator=(const FrameGraph &other);
    FrameGraph &operator=(FrameGraph &&other) noexcept;
    ~FrameGraph();

    void clear();
    int size() const { return m_frames.size(); }
    bool isEmpty() const { return m_frames.isEmpty(); }
    bool contains(const QString &id) const { return m_index.contains(id); }

    /** nullptr when absent. The pointer is invalidated by upsert/remove. */
    const Frame *frame(const QString &id) const;
    Frame value(const QString &id) const;                   // default Frame when absent
    const QList<Frame> &frames() const { return m_frames; } // all, incl. trashed, creation order
    QStringList frameIds(Visibility v = LiveOnly) const;

    /** Insert, or replace the frame with the same id (keeping its position). */
    void upsert(const Frame &frame);
    void upsert(Frame &&frame);
    /** Room for n frames (a manifest being read). */
    void reserve(int n);
    /**
     * Replaces the table by frames, taken as they are (a manifest just read: no frame is copied
     * or moved, which at 10,000 frames of ~1 KB each was a second table's worth of memory).
     * Returns the position of the first frame whose id an earlier one has (the table then holds
     * every frame and the index the first of each id), -1 when the ids are unique.
     */
    int assign(QList<Frame> &&frames);
    bool remove(const QString &id);
    /**
     * Removes the frame of each listed id (ids not in the table are skipped) in one pass over
     * the table, keeping the others' order; returns how many went. Removing them one by one
     * moved the table and rebuilt the index per frame: emptying a trash of 1,000 frames from
     * a session of 10,000 took 1.7 s on the GUI thread.
     */
    int remove(const QStringList &ids);

    QString parent(const QString &id) const;
    QStringList children(const QString &id, Visibility v = LiveOnly) const; // creation order
    /**
     * children() of every frame at once, by parent id, in one pass: for walks that visit many
     * frames (children() scans the whole session each time, so a walk down a chain of 10,000
     * frames asking it at each step was 10,000 scans).
     */
    QHash<QString, QStringList> childrenById(Visibility v = LiveOnly) const;
    /** Looks from the newest frame back: a frame's children are usually among the last made. */
    bool hasChildren(const QString &id, Visibility v = LiveOnly) const;
    QStringList roots(Visibility v = LiveOnly) const;
    /** Live frames without live children: the heads of all branches. */
    QStringList heads() const;
    /** Every root-to-leaf path of live frames, in creation order of their heads. */
    QList<Branch> branches() const;
    /** Root..id (inclusive). Empty if id is absent or the parent chain is broken/cyclic. */
    QStringList pathTo(const QString &id) const;
    /** The id and every descendant (depth-first, creation order), incl. trashed when asked. */
    QStringList subtree(const QString &id, Visibility v = LiveOnly) const;
    /** Head of the branch continuing from id: follow the most recently created live child down to a leaf. */
    QString headFrom(const QString &id) const;
    /**
     * The frames only this branch has: walk up from head while the frame is its parent's
     * only live child. Deleting a branch trashes exactly these.
     */
    QStringList branchOwnFrames(const QString &headId) const;
    /** Frame ids starting with ref (exact match wins). */
    QStringList matchPrefix(const QString &ref, Visibility v = IncludeTrashed) const;
    /** Ids whose status is s (live only). */
    QStringList withStatus(FrameStatus s) const;
    /** Relative files (Frame::files()) named by frames other than those in `excluding`. */
    QStringList referencedFiles(const QStringList &excluding = {}) const;

    /**
     * How many frames (trashed included) set a keep-list (Frame::keepListSet). 0, the common
     * case, lets KeepList::effective() answer without walking the ancestry.
     */
    int keepListCount() const { return m_keepListCount; }
    /**
     * Changes whenever the live frames' order or parents may have changed: a removal, a frame
     * trashed or restored, a parent changed, the table replaced or cleared. Appending a frame
     * or changing any other field keeps it. Unique in the process: no other graph object (a
     * copy included) has it, so a view that made rows from this graph at revision r can trust
     * rows made from frames [0, n) while rowsRevision() == r (TimelineModel does).
     */
    quint64 rowsRevision() const { return m_rowsRevision; }

private:
    void reindex();
    static quint64 nextRowsRevision();
    /** Keeps the keep-list count and the revision right for a frame about to become `now`. */
    void noteReplacing(const Frame &old, const Frame &now);

    QList<Frame> m_frames;
    QHash<QString, int> m_index;
    int m_keepListCount = 0;
    quint64 m_rowsRevision;
};

} // namespace nb2
