#include "core/session/framegraph.h"

#include <QSet>

namespace nb2 {

void FrameGraph::clear()
{
    m_frames.clear();
    m_index.clear();
}

const Frame *FrameGraph::frame(const QString &id) const
{
    const auto it = m_index.constFind(id);
    return it == m_index.cend() ? nullptr : &m_frames.at(*it);
}

Frame FrameGraph::value(const QString &id) const
{
    const Frame *f = frame(id);
    return f ? *f : Frame();
}

QStringList FrameGraph::frameIds(Visibility v) const
{
    QStringList ids;
    ids.reserve(m_frames.size());
    for (const Frame &f : m_frames)
        if (v == IncludeTrashed || !f.isTrashed())
            ids.append(f.id);
    return ids;
}

void FrameGraph::upsert(const Frame &frame)
{
    const auto it = m_index.constFind(frame.id);
    if (it != m_index.cend()) {
        m_frames[*it] = frame;
        return;
    }
    m_index.insert(frame.id, m_frames.size());
    m_frames.append(frame);
}

void FrameGraph::upsert(Frame &&frame)
{
    const auto it = m_index.constFind(frame.id);
    if (it != m_index.cend()) {
        m_frames[*it] = std::move(frame);
        return;
    }
    m_index.insert(frame.id, m_frames.size());
    m_frames.append(std::move(frame));
}

void FrameGraph::reserve(int n)
{
    m_frames.reserve(n);
    m_index.reserve(n);
}

int FrameGraph::assign(QList<Frame> &&frames)
{
    m_frames = std::move(frames);
    m_index.clear();
    m_index.reserve(m_frames.capacity());
    int duplicate = -1;
    for (int i = 0; i < m_frames.size(); ++i) {
        const qsizetype before = m_index.size();
        int &slot = m_index[m_frames.at(i).id]; // one lookup: inserted (0) unless the id is known
        if (m_index.size() != before)
            slot = i;
        else if (duplicate < 0)
            duplicate = i;
    }
    return duplicate;
}

bool FrameGraph::remove(const QString &id)
{
    const auto it = m_index.constFind(id);
    if (it == m_index.cend())
        return false;
    m_frames.removeAt(*it);
    reindex();
    return true;
}

void FrameGraph::reindex()
{
    m_index.clear();
    for (int i = 0; i < m_frames.size(); ++i)
        m_index.insert(m_frames.at(i).id, i);
}

QString FrameGraph::parent(const QString &id) const
{
    const Frame *f = frame(id);
    return f ? f->parentId : QString();
}

QStringList FrameGraph::children(const QString &id, Visibility v) const
{
    QStringList result;
    if (id.isEmpty())
        return result;
    for (const Frame &f : m_frames)
        if (f.parentId == id && (v == IncludeTrashed || !f.isTrashed()))
            result.append(f.id);
    return result;
}

bool FrameGraph::hasChildren(const QString &id, Visibility v) const
{
    for (const Frame &f : m_frames)
        if (f.parentId == id && !id.isEmpty() && (v == IncludeTrashed || !f.isTrashed()))
            return true;
    return false;
}

QStringList FrameGraph::roots(Visibility v) const
{
    QStringList result;
    for (const Frame &f : m_frames) {
        if (v == LiveOnly && f.isTrashed())
            continue;
        // A frame whose parent is unknown (e.g. removed for good) is shown as a root rather than lost.
        if (f.parentId.isEmpty() || !contains(f.parentId))
            result.append(f.id);
    }
    return result;
}

QStringList FrameGraph::heads() const
{
    QSet<QString> withLiveChildren;
    for (const Frame &f : m_frames)
        if (!f.isTrashed() && !f.parentId.isEmpty())
            withLiveChildren.insert(f.parentId);
    QStringList result;
    for (const Frame &f : m_frames)
        if (!f.isTrashed() && !withLiveChildren.contains(f.id))
            result.append(f.id);
    return result;
}

QList<Branch> FrameGraph::branches() const
{
    QList<Branch> result;
    const QStringList leafIds = heads();
    for (const QString &head : leafIds) {
        Branch b;
        b.path = pathTo(head);
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
    qsizetype stepsLeft = m_frames.size();
    QString cur = id;
    while (!cur.isEmpty()) {
        const Frame *f = frame(cur);
        if (!f)
            break; // unknown parent: the path starts at the last known frame
        if (stepsLeft-- == 0)
            return {};
        path.prepend(cur);
        cur = f->parentId;
    }
    return path;
}

QStringList FrameGraph::subtree(const QString &id, Visibility v) const
{
    QStringList result;
    const Frame *f = frame(id);
    if (!f || (v == LiveOnly && f->isTrashed()))
        return result;
    QStringList stack {id};
    QSet<QString> seen;
    while (!stack.isEmpty()) {
        const QString cur = stack.takeLast();
        if (seen.contains(cur))
            continue;
        seen.insert(cur);
        result.append(cur);
        const QStringList kids = children(cur, v);
        for (auto it = kids.crbegin(); it != kids.crend(); ++it)
            stack.append(*it);
    }
    return result;
}

QString FrameGraph::headFrom(const QString &id) const
{
    if (!contains(id))
        return {};
    QString cur = id;
    QSet<QString> seen;
    for (;;) {
        seen.insert(cur);
        const QStringList kids = children(cur, LiveOnly);
        if (kids.isEmpty() || seen.contains(kids.last()))
            return cur;
        cur = kids.last();
    }
}

QStringList FrameGraph::branchOwnFrames(const QString &headId) const
{
    QStringList result;
    const Frame *f = frame(headId);
    if (!f || f->isTrashed() || hasChildren(headId))
        return result;
    QString cur = headId;
    while (!cur.isEmpty()) {
        result.append(cur);
        const QString p = parent(cur);
        if (p.isEmpty() || !contains(p))
            break;
        if (children(p).size() != 1)
            break; // p is shared with another branch
        cur = p;
    }
    return result;
}

QStringList FrameGraph::matchPrefix(const QString &ref, Visibility v) const
{
    if (ref.isEmpty())
        return {};
    if (const Frame *f = frame(ref); f && (v == IncludeTrashed || !f->isTrashed()))
        return {ref};
    QStringList result;
    for (const Frame &fr : m_frames)
        if (fr.id.startsWith(ref) && (v == IncludeTrashed || !fr.isTrashed()))
            result.append(fr.id);
    return result;
}

QStringList FrameGraph::withStatus(FrameStatus s) const
{
    QStringList result;
    for (const Frame &f : m_frames)
        if (!f.isTrashed() && f.status == s)
            result.append(f.id);
    return result;
}

QStringList FrameGraph::referencedFiles(const QStringList &excluding) const
{
    const QSet<QString> skip(excluding.cbegin(), excluding.cend());
    QStringList files;
    for (const Frame &f : m_frames) {
        if (skip.contains(f.id))
            continue;
        if (!f.image.isNull())
            files.append(f.image.file);
        files.append(f.inputImages);
    }
    files.removeDuplicates();
    return files;
}

} // namespace nb2
