#pragma once

#include "core/session/frame.h"
#include "core/session/framesource.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <unordered_map>

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
 *
 * Frames on demand (assignOnDemand()): a one-shot command on a 10,000-frame session uses a
 * few frames, and building the other ~10 MB of them was most of what its cost grew by. Then
 * the graph holds one FrameNode per frame (id, parent, status, trash: what the derived queries
 * read) and the checkpoint's bytes, and builds a frame the first time frame() or value() asks
 * for it. Everything that reads every frame (frames(), referencedFiles(), a removal) first
 * builds them all, so a reader that was never written for nodes gets whole frames. Such a
 * graph belongs to one thread at a time, like every graph: building is a change of its
 * (mutable) state, even through a const method.
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
    int size() const { return int(onDemand() ? m_nodes.size() : m_frames.size()); }
    bool isEmpty() const { return size() == 0; }
    bool contains(const QString &id) const { return m_index.contains(id); }

    /** nullptr when absent. The pointer is invalidated by upsert/remove/assign/clear. */
    const Frame *frame(const QString &id) const;
    Frame value(const QString &id) const; // default Frame when absent
    /** All, incl. trashed, in creation order (frames on demand: every frame is built first). */
    const QList<Frame> &frames() const
    {
        if (onDemand())
            buildAll();
        return m_frames;
    }
    QStringList frameIds(Visibility v = LiveOnly) const;
    /**
     * fn(x) for the frame at position i (0 <= i < size(): creation order, trashed included),
     * building nothing: x is the Frame in an ordinary graph and its FrameNode with frames on
     * demand, so fn reads only what a node has (a generic lambda, or overloads for both). For
     * passes over every frame that need no more, such as a budget check's sums (costledger.h).
     */
    template <typename Fn> decltype(auto) visitAt(qsizetype i, Fn &&fn) const
    {
        if (onDemand())
            return fn(m_nodes.at(i));
        return fn(m_frames.at(i));
    }

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
    /**
     * assign() with frames on demand: one node per frame, in order; a node with an offset is
     * built from source when asked for, one without takes the next of `built` (frames read
     * whole, in the same order). Returns what assign() returns.
     */
    int assignOnDemand(QList<FrameNode> &&nodes, QList<Frame> &&built, std::shared_ptr<const FrameSource> source);
    /** Frames are built on demand and not all are built yet (tests, benchmarks). */
    bool onDemand() const { return bool(m_source); }
    /** Frames built from the source so far (tests: a command builds only what it reads). */
    int framesBuiltOnDemand() const { return m_builtCount; }
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
    QStringList withStatus(FrameStatus s, Visibility v = LiveOnly) const;
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
    // What the derived queries read of the frame at position i, built or not.
    const QString &idAt(qsizetype i) const { return onDemand() ? m_nodes.at(i).id : m_frames.at(i).id; }
    const QString &parentAt(qsizetype i) const { return onDemand() ? m_nodes.at(i).parentId : m_frames.at(i).parentId; }
    bool trashedAt(qsizetype i) const { return onDemand() ? m_nodes.at(i).trashed : m_frames.at(i).isTrashed(); }
    FrameStatus statusAt(qsizetype i) const { return onDemand() ? m_nodes.at(i).status : m_frames.at(i).status; }
    bool liveAt(qsizetype i, Visibility v) const { return v == IncludeTrashed || !trashedAt(i); }
    /** Frames on demand: the frame at position i, built now if it was not. */
    const Frame &builtAt(qsizetype i) const;
    /** Frames on demand: builds every frame and becomes an ordinary graph (pointers stay valid). */
    void buildAll() const;
    /**
     * Rebuilds the index by id and the keep-list count from the table (built or nodes); returns
     * the position of the first frame whose id an earlier one has, -1 when the ids are unique.
     */
    int reindex();
    static quint64 nextRowsRevision();
    /** Keeps the keep-list count and the revision right for a frame about to become `now`. */
    void noteReplacing(bool oldKeepListSet, const QString &oldParent, bool oldTrashed, const Frame &now);

    mutable QList<Frame> m_frames; // every frame; frames on demand: empty until buildAll()
    QHash<QString, int> m_index;   // id -> position
    int m_keepListCount = 0;
    quint64 m_rowsRevision;
    // Frames on demand (m_source set): a node per position, and the frames built or changed so
    // far by position (a node-based map: a pointer frame() gave stays valid while others are built).
    mutable std::shared_ptr<const FrameSource> m_source;
    mutable QList<FrameNode> m_nodes;
    mutable std::unordered_map<qsizetype, Frame> m_built;
    // The built frames buildAll() copied from: kept until the next change, so that pointers
    // frame() gave before a frames() call stay valid as the contract above says.
    mutable std::unordered_map<qsizetype, Frame> m_retired;
    mutable int m_builtCount = 0;
};

} // namespace nb2
