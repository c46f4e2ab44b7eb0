#include "core/session/framegraph.h"

#include <QSet>

#include <algorithm>
#include <atomic>
#include <optional>
#include <utility>
#include <vector>

namespace nb2 {

namespace {

/**
 * children() for a walk down the graph: a scan of the session per lookup while the walk is
 * short, every frame's children in one pass (childrenById()) once it is not. A walk usually
 * starts at or near a head, and at 10,000 frames one scan takes ~0.12 ms against ~4.5 ms for
 * the map; a walk down a long chain scanning at every step took seconds.
 */
class ChildrenLookup
{
public:
    ChildrenLookup(const FrameGraph &graph, FrameGraph::Visibility v) : m_graph(graph), m_visibility(v) {}

    QStringList of(const QString &id)
    {
        if (!m_all && ++m_scans > kScans)
            m_all = m_graph.childrenById(m_visibility);
        return m_all ? m_all->value(id) : m_graph.children(id, m_visibility);
    }

private:
    static constexpr int kScans = 8;
    const FrameGraph &m_graph;
    const FrameGraph::Visibility m_visibility;
    int m_scans = 0;
    std::optional<QHash<QString, QStringList>> m_all;
};

} // namespace

quint64 FrameGraph::nextRowsRevision()
{
    static std::atomic<quint64> last {0};
    return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

FrameGraph::FrameGraph() : m_rowsRevision(nextRowsRevision()) {}

// A copy and its original change apart from here: each needs a revision of its own (rowsRevision()).
FrameGraph::FrameGraph(const FrameGraph &other)
    : m_frames(other.m_frames)
    , m_index(other.m_index)
    , m_keepListCount(other.m_keepListCount)
    , m_rowsRevision(nextRowsRevision())
    , m_source(other.m_source)
    , m_nodes(other.m_nodes)
    , m_built(other.m_built)
    , m_builtCount(other.m_builtCount)
{}

FrameGraph::FrameGraph(FrameGraph &&other) noexcept
    : m_frames(std::move(other.m_frames))
    , m_index(std::move(other.m_index))
    , m_keepListCount(std::exchange(other.m_keepListCount, 0))
    , m_rowsRevision(std::exchange(other.m_rowsRevision, nextRowsRevision()))
    , m_source(std::move(other.m_source))
    , m_nodes(std::move(other.m_nodes))
    , m_built(std::move(other.m_built))
    , m_retired(std::move(other.m_retired))
    , m_builtCount(std::exchange(other.m_builtCount, 0))
{
    other.clear();
}

FrameGraph &FrameGraph::operator=(const FrameGraph &other)
{
    if (this != &other)
        *this = FrameGraph(other);
    return *this;
}

FrameGraph &FrameGraph::operator=(FrameGraph &&other) noexcept
{
    if (this == &other)
        return *this;
    m_frames = std::move(other.m_frames);
    m_index = std::move(other.m_index);
    m_keepListCount = std::exchange(other.m_keepListCount, 0);
    m_rowsRevision = std::exchange(other.m_rowsRevision, nextRowsRevision());
    m_source = std::move(other.m_source);
    m_nodes = std::move(other.m_nodes);
    m_built = std::move(other.m_built);
    m_retired = std::move(other.m_retired);
    m_builtCount = std::exchange(other.m_builtCount, 0);
    other.clear();
    return *this;
}

FrameGraph::~FrameGraph() = default;

void FrameGraph::clear()
{
    m_frames.clear();
    m_index.clear();
    m_keepListCount = 0;
    m_rowsRevision = nextRowsRevision();
    m_source.reset();
    m_nodes.clear();
    m_built.clear();
    m_retired.clear();
    m_builtCount = 0;
}

const Frame *FrameGraph::frame(const QString &id) const
{
    const auto it = m_index.constFind(id);
    if (it == m_index.cend())
        return nullptr;
    return onDemand() ? &builtAt(*it) : &m_frames.at(*it);
}

const Frame &FrameGraph::builtAt(qsizetype i) const
{
    const auto it = m_built.find(i);
    if (it != m_built.end())
        return it->second;
    ++m_builtCount;
    return m_built.emplace(i, m_source->build(m_nodes.at(i))).first->second;
}

void FrameGraph::buildAll() const
{
    QList<Frame> all;
    // With room for the turns to come, as the store leaves after a read (no move of them all).
    all.reserve(m_nodes.size() + m_nodes.size() / 16 + 64);
    for (qsizetype i = 0; i < m_nodes.size(); ++i) {
        const auto it = m_built.find(i);
        if (it != m_built.end()) {
            all.append(it->second); // a copy: frame()'s pointers into m_built stay valid
        } else {
            all.append(m_source->build(m_nodes.at(i)));
            ++m_builtCount;
        }
    }
    m_frames = std::move(all);
    m_retired = std::move(m_built); // a node-based map moved whole: its frames keep their addresses
    m_built.clear();
    m_nodes.clear();
    m_source.reset();
}

Frame FrameGraph::value(const QString &id) const
{
    const Frame *f = frame(id);
    return f ? *f : Frame();
}

QStringList FrameGraph::frameIds(Visibility v) const
{
    QStringList ids;
    ids.reserve(size());
    for (qsizetype i = 0; i < size(); ++i)
        if (liveAt(i, v))
            ids.append(idAt(i));
    return ids;
}

void FrameGraph::upsert(const Frame &frame)
{
    upsert(Frame(frame));
}

void FrameGraph::upsert(Frame &&frame)
{
    m_retired.clear();
    const auto it = m_index.constFind(frame.id);
    if (onDemand()) {
        FrameNode node = FrameNode::of(frame);
        if (it != m_index.cend()) {
            FrameNode &old = m_nodes[*it];
            noteReplacing(old.keepListSet, old.parentId, old.trashed, frame);
            old = std::move(node);
            m_built.insert_or_assign(*it, std::move(frame));
            return;
        }
        const qsizetype at = m_nodes.size();
        m_index.insert(frame.id, int(at));
        m_keepListCount += int(frame.keepListSet);
        m_nodes.append(std::move(node));
        m_built.insert_or_assign(at, std::move(frame));
        return;
    }
    if (it != m_index.cend()) {
        const Frame &old = m_frames.at(*it);
        noteReplacing(old.keepListSet, old.parentId, old.isTrashed(), frame);
        m_frames[*it] = std::move(frame);
        return;
    }
    m_index.insert(frame.id, m_frames.size());
    m_frames.append(std::move(frame));
    m_keepListCount += int(m_frames.constLast().keepListSet);
}

void FrameGraph::noteReplacing(bool oldKeepListSet, const QString &oldParent, bool oldTrashed, const Frame &now)
{
    m_keepListCount += int(now.keepListSet) - int(oldKeepListSet);
    if (oldParent != now.parentId || oldTrashed != now.isTrashed())
        m_rowsRevision = nextRowsRevision();
}

void FrameGraph::reserve(int n)
{
    if (onDemand())
        m_nodes.reserve(n);
    else
        m_frames.reserve(n);
    m_index.reserve(n);
}

int FrameGraph::assignOnDemand(
    QList<FrameNode> &&nodes, QList<Frame> &&built, std::shared_ptr<const FrameSource> source)
{
    if (nodes.isEmpty() || !source)
        return assign(std::move(built));
    clear();
    m_source = std::move(source);
    m_nodes = std::move(nodes);
    qsizetype next = 0;
    for (qsizetype i = 0; i < m_nodes.size(); ++i) {
        if (m_nodes.at(i).offset >= 0)
            continue;
        Q_ASSERT(next < built.size());
        if (next < built.size())
            m_built.emplace(i, std::move(built[next++]));
    }
    return reindex();
}

int FrameGraph::assign(QList<Frame> &&frames)
{
    clear();
    m_frames = std::move(frames);
    return reindex();
}

bool FrameGraph::remove(const QString &id)
{
    return remove(QStringList {id}) == 1;
}

int FrameGraph::remove(const QStringList &ids)
{
    const bool any = std::any_of(ids.cbegin(), ids.cend(), [this](const QString &id) { return contains(id); });
    if (!any)
        return 0; // every commit record applies its removals, mostly none
    if (onDemand())
        buildAll(); // rare (emptying the trash): the ordinary table's removal below
    m_retired.clear();
    std::vector<bool> doomed(size_t(m_frames.size()), false);
    int count = 0;
    for (const QString &id : ids) {
        const auto it = m_index.constFind(id);
        if (it != m_index.cend() && !doomed[size_t(*it)]) {
            doomed[size_t(*it)] = true;
            ++count;
        }
    }
    if (count == 0)
        return 0;
    Frame *table = m_frames.data(); // one detach, then plain moves down the table
    qsizetype kept = 0;
    for (qsizetype i = 0; i < m_frames.size(); ++i) {
        if (doomed[size_t(i)])
            continue;
        if (kept != i)
            table[kept] = std::move(table[i]);
        ++kept;
    }
    m_frames.resize(kept);
    reindex(); // and the keep-list count
    m_rowsRevision = nextRowsRevision();
    return count;
}

int FrameGraph::reindex()
{
    // The first frame of an id is the one found (a table read with a duplicate id is refused by
    // the store, but the index and the table must never disagree on which one).
    m_index.clear();
    m_index.reserve(onDemand() ? m_nodes.capacity() : m_frames.capacity()); // room for new turns
    m_keepListCount = 0;
    int duplicate = -1;
    for (int i = 0; i < size(); ++i) {
        m_keepListCount += int(onDemand() ? m_nodes.at(i).keepListSet : m_frames.at(i).keepListSet);
        const qsizetype before = m_index.size();
        int &slot = m_index[idAt(i)]; // one lookup: inserted (0) unless the id is known
        if (m_index.size() != before)
            slot = i;
        else if (duplicate < 0)
            duplicate = i;
    }
    return duplicate;
}

QString FrameGraph::parent(const QString &id) const
{
    const auto it = m_index.constFind(id);
    return it == m_index.cend() ? QString() : parentAt(*it);
}

QStringList FrameGraph::children(const QString &id, Visibility v) const
{
    QStringList result;
    if (id.isEmpty())
        return result;
    for (qsizetype i = 0; i < size(); ++i)
        if (parentAt(i) == id && liveAt(i, v))
            result.append(idAt(i));
    return result;
}

QHash<QString, QStringList> FrameGraph::childrenById(Visibility v) const
{
    QHash<QString, QStringList> result;
    for (qsizetype i = 0; i < size(); ++i)
        if (!parentAt(i).isEmpty() && liveAt(i, v))
            result[parentAt(i)].append(idAt(i));
    return result;
}

bool FrameGraph::hasChildren(const QString &id, Visibility v) const
{
    if (id.isEmpty())
        return false;
    // Newest first: the variants just asked for from a frame are found at once. A frame
    // without children still costs a full scan.
    for (qsizetype i = size() - 1; i >= 0; --i)
        if (parentAt(i) == id && liveAt(i, v))
            return true;
    return false;
}

QStringList FrameGraph::roots(Visibility v) const
{
    QStringList result;
    for (qsizetype i = 0; i < size(); ++i) {
        if (!liveAt(i, v))
            continue;
        // A frame whose parent is unknown (e.g. removed for good) is shown as a root rather than lost.
        if (parentAt(i).isEmpty() || !contains(parentAt(i)))
            result.append(idAt(i));
    }
    return result;
}

QStringList FrameGraph::heads() const
{
    QSet<QString> withLiveChildren;
    for (qsizetype i = 0; i < size(); ++i)
        if (!trashedAt(i) && !parentAt(i).isEmpty())
            withLiveChildren.insert(parentAt(i));
    QStringList result;
    for (qsizetype i = 0; i < size(); ++i)
        if (!trashedAt(i) && !withLiveChildren.contains(idAt(i)))
            result.append(idAt(i));
    return result;
}

QList<Branch> FrameGraph::branches() const
{
    // Each path as pathTo() walks it, but by position: every frame's parent is looked up by id
    // once, not once per branch through it. An agent's session has a thousand branches sharing
    // thousands of frames; the lookups by id were most of `nb2lite cost` at 10,000 frames.
    std::vector<int> parentPosition(size_t(size()), -1);
    for (qsizetype i = 0; i < size(); ++i) {
        const QString &parent = parentAt(i);
        if (!parent.isEmpty())
            parentPosition[size_t(i)] = m_index.value(parent, -1);
    }
    QList<Branch> result;
    const QStringList leafIds = heads();
    for (const QString &head : leafIds) {
        Branch b;
        qsizetype stepsLeft = size();
        for (int at = m_index.value(head, -1); at >= 0; at = parentPosition[size_t(at)]) {
            if (stepsLeft-- == 0) {
                b.path.clear(); // a cycle (corrupt data): no path, as pathTo() says
                break;
            }
            b.path.append(idAt(at));
        }
        std::reverse(b.path.begin(), b.path.end()); // root first
        if (!b.path.isEmpty())
            result.append(b);
    }
    return result;
}

QStringList FrameGraph::pathTo(const QString &id) const
{
    // A walk of more steps than there are frames has met a frame twice: a cycle (corrupt data),
    // where no path is invented. Counting instead of remembering each id: paths are thousands
    // of frames long in an agent's session, and a set of them cost ~1 us a step (the cost
    // line of Frame Details walks the whole path when a frame is selected).
    QStringList path;
    qsizetype stepsLeft = size();
    QString cur = id;
    while (!cur.isEmpty()) {
        const auto it = m_index.constFind(cur);
        if (it == m_index.cend())
            break; // unknown parent: the path starts at the last known frame
        if (stepsLeft-- == 0)
            return {};
        path.prepend(cur);
        cur = parentAt(*it);
    }
    return path;
}

QStringList FrameGraph::subtree(const QString &id, Visibility v) const
{
    QStringList result;
    const auto at = m_index.constFind(id);
    if (at == m_index.cend() || !liveAt(*at, v))
        return result;
    ChildrenLookup childrenOf(*this, v);
    QStringList stack {id};
    QSet<QString> seen;
    while (!stack.isEmpty()) {
        const QString cur = stack.takeLast();
        if (seen.contains(cur))
            continue;
        seen.insert(cur);
        result.append(cur);
        const QStringList kids = childrenOf.of(cur);
        for (auto it = kids.crbegin(); it != kids.crend(); ++it)
            stack.append(*it);
    }
    return result;
}

QString FrameGraph::headFrom(const QString &id) const
{
    if (!contains(id))
        return {};
    ChildrenLookup childrenOf(*this, LiveOnly);
    QString cur = id;
    QSet<QString> seen;
    for (;;) {
        seen.insert(cur);
        const QStringList kids = childrenOf.of(cur);
        if (kids.isEmpty() || seen.contains(kids.last()))
            return cur;
        cur = kids.last();
    }
}

QStringList FrameGraph::branchOwnFrames(const QString &headId) const
{
    QStringList result;
    const auto at = m_index.constFind(headId);
    if (at == m_index.cend() || trashedAt(*at) || hasChildren(headId))
        return result;
    // Each step asked children(), a scan of the whole session: Delete Branch of an agent's
    // 1,000-frame branch in a 6,000-frame session took ~60 ms on the GUI thread. `seen` ends
    // the walk in a damaged table whose parents loop through a trashed frame (trashed children
    // do not count, so every frame of such a loop looks like its parent's only child).
    ChildrenLookup childrenOf(*this, LiveOnly);
    QSet<QString> seen;
    QString cur = headId;
    while (!cur.isEmpty() && !seen.contains(cur)) {
        seen.insert(cur);
        result.append(cur);
        const QString p = parent(cur);
        if (p.isEmpty() || !contains(p))
            break;
        if (childrenOf.of(p).size() != 1)
            break; // p is shared with another branch
        cur = p;
    }
    return result;
}

QStringList FrameGraph::matchPrefix(const QString &ref, Visibility v) const
{
    if (ref.isEmpty())
        return {};
    if (const auto at = m_index.constFind(ref); at != m_index.cend() && liveAt(*at, v))
        return {ref};
    QStringList result;
    for (qsizetype i = 0; i < size(); ++i)
        if (idAt(i).startsWith(ref) && liveAt(i, v))
            result.append(idAt(i));
    return result;
}

QStringList FrameGraph::withStatus(FrameStatus s, Visibility v) const
{
    QStringList result;
    for (qsizetype i = 0; i < size(); ++i)
        if (liveAt(i, v) && statusAt(i) == s)
            result.append(idAt(i));
    return result;
}

QStringList FrameGraph::referencedFiles(const QStringList &excluding) const
{
    const QSet<QString> skip(excluding.cbegin(), excluding.cend());
    QStringList files;
    for (const Frame &f : frames()) { // every frame built: a clean-up must see every path
        if (!skip.contains(f.id))
            files.append(f.files());
    }
    files.removeDuplicates();
    return files;
}

} // namespace nb2
