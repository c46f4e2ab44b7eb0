// SessionController: the local operations on frames (title, star, note, keep-list, fold, pick a
// variant, trash, delete, restore, empty the trash), each an undoable command.
#include "core/session/sessioncontroller.h"

#include "core/api/imageinput.h"
#include "core/api/inputpreparation.h"
#include "core/api/interactionsclient.h"
#include "core/session/costledger.h"
#include "core/session/framecommands.h"
#include "core/session/keeplist.h"
#include "core/session/ownerprocess.h"
#include "core/session/sessionpaths.h"
#include "core/session/sessionstore.h"
#include "core/session/turnplanner.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QSet>
#include <QSize>
#include <QThreadPool>
#include <QTimer>
#include <QUndoStack>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>

#include <optional>

namespace nb2 {

bool SessionController::applyUserFields(const QList<Frame> &frames)
{
    QList<Frame> updated;
    for (const Frame &src : frames) {
        const Frame *cur = graph().frame(src.id);
        if (!cur)
            continue;
        Frame f = *cur;
        f.title = src.title;
        f.starred = src.starred;
        f.folded = src.folded;
        f.note = src.note;
        f.keepList = src.keepList;
        f.keepListSet = src.keepListSet;
        f.trashedAt = src.trashedAt;
        f.trashGroup = src.trashGroup;
        updated.append(f);
    }
    if (updated.isEmpty())
        return false;
    // The current frame ("head", the selection after reopening) must stay a live frame: when
    // it goes to the trash (delete, or redo of one) it moves to its nearest live ancestor,
    // else to the newest live head. Undo of a delete leaves it where it moved.
    QString current = m_store->currentFrameId();
    if (!current.isEmpty()) {
        QHash<QString, const Frame *> next;
        for (const Frame &f : std::as_const(updated))
            next.insert(f.id, &f);
        auto trashedAfter = [&](const QString &id) {
            if (const Frame *f = next.value(id))
                return f->isTrashed();
            const Frame *g = graph().frame(id);
            return !g || g->isTrashed();
        };
        if (trashedAfter(current)) {
            QString live;
            for (QString up = graph().value(current).parentId; !up.isEmpty(); up = graph().value(up).parentId) {
                if (!trashedAfter(up)) {
                    live = up;
                    break;
                }
            }
            if (live.isEmpty()) {
                const QList<Frame> all = graph().frames();
                for (auto it = all.crbegin(); it != all.crend() && live.isEmpty(); ++it)
                    if (!trashedAfter(it->id))
                        live = it->id;
            }
            current = live; // empty when nothing is left outside the trash: left as it was
        } else {
            current.clear(); // unchanged
        }
    }
    if (!commitFrames(updated, current))
        return false;
    recordFramesAfterWrite(updated); // so a rebuild keeps titles, stars, notes and the trash
    QStringList ids;
    ids.reserve(updated.size());
    for (const Frame &f : std::as_const(updated))
        ids.append(f.id);
    Q_EMIT framesChanged(ids);
    return true;
}

namespace {
template <typename Fn>
bool editUserField(SessionController *c, QUndoStack *stack, const QString &id, const QString &text, Fn change)
{
    const Frame *cur = c->graph().frame(id);
    if (!cur)
        return false;
    Frame after = *cur;
    change(after);
    stack->push(new FrameEditCommand(c, text, {*cur}, {after}));
    return true;
}
} // namespace

bool SessionController::setTitle(const QString &frameId, const QString &title)
{
    return editUserField(this, m_undoStack, frameId, tr("Rename frame"), [&](Frame &f) { f.title = title; });
}

bool SessionController::setStarred(const QString &frameId, bool starred)
{
    return editUserField(this, m_undoStack, frameId, starred ? tr("Star frame") : tr("Unstar frame"),
        [&](Frame &f) { f.starred = starred; });
}

bool SessionController::setNote(const QString &frameId, const QString &note)
{
    return editUserField(this, m_undoStack, frameId, tr("Edit note"), [&](Frame &f) { f.note = note; });
}

bool SessionController::setKeepList(const QString &frameId, const QStringList &items, bool set)
{
    return editUserField(this, m_undoStack, frameId, tr("Edit keep-list"), [&](Frame &f) {
        f.keepList = set ? KeepList::cleaned(items) : QStringList();
        f.keepListSet = set;
    });
}

bool SessionController::setFolded(const QStringList &frameIds, bool folded)
{
    QList<Frame> before, after;
    for (const QString &id : frameIds) {
        const Frame *f = graph().frame(id);
        if (!f || f->folded == folded)
            continue;
        before.append(*f);
        after.append(*f);
        after.last().folded = folded;
    }
    if (before.isEmpty())
        return false;
    m_undoStack->push(new FrameEditCommand(this, folded ? tr("Fold frames") : tr("Unfold frames"), before, after));
    return true;
}

bool SessionController::pickVariant(const QString &chosenId, const QStringList &siblings)
{
    const Frame *chosen = graph().frame(chosenId);
    if (!chosen)
        return false;
    QList<Frame> before {*chosen}, after {*chosen};
    after.last().starred = true;
    after.last().folded = false;
    for (const QString &id : siblings) {
        const Frame *f = graph().frame(id);
        if (!f || id == chosenId)
            continue;
        before.append(*f);
        after.append(*f);
        after.last().folded = true;
    }
    m_undoStack->push(new FrameEditCommand(this, tr("Pick variant"), before, after));
    return true;
}

Result<void> SessionController::trash(const QStringList &ids, const QString &text)
{
    if (ids.isEmpty())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("Nothing to delete."));
    QList<Frame> before, after;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QString group = QUuid::createUuid().toString(QUuid::Id128).left(8);
    for (const QString &id : ids) {
        const Frame *f = graph().frame(id);
        if (!f)
            continue;
        if (f->isPending())
            return Error::make(
                ErrorKind::Conflict, QStringLiteral("Frame %1 is still running; cancel it before deleting.").arg(id));
        before.append(*f);
        Frame a = *f;
        a.trashedAt = now;
        a.trashGroup = group;
        after.append(a);
    }
    m_undoStack->push(new FrameEditCommand(this, text, before, after));
    return {};
}

Result<void> SessionController::deleteFrame(const QString &frameId)
{
    if (!graph().contains(frameId) || graph().frame(frameId)->isTrashed())
        return Error::make(
            ErrorKind::InvalidInput, QStringLiteral("There is no frame %1 outside the trash.").arg(frameId));
    return trash(graph().subtree(frameId), tr("Delete frame"));
}

Result<void> SessionController::deleteBranch(const QString &headId)
{
    const QStringList own = graph().branchOwnFrames(headId);
    if (own.isEmpty())
        return Error::make(
            ErrorKind::InvalidInput, QStringLiteral("Frame %1 is not the head of a branch.").arg(headId));
    return trash(own, tr("Delete branch"));
}

Result<void> SessionController::restoreFrame(const QString &frameId)
{
    const Frame *f = graph().frame(frameId);
    if (!f || !f->isTrashed())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("Frame %1 is not in the trash.").arg(frameId));
    QStringList ids;
    for (const Frame &g : graph().frames())
        if (g.isTrashed() && g.trashGroup == f->trashGroup)
            ids.append(g.id);
    // A restored frame needs its ancestors back too, or it would hang off nothing. (A set: a
    // deleted branch of 1,000 frames has 1,000 trashed ancestors, each looked up in the group.)
    const QSet<QString> inGroup(ids.cbegin(), ids.cend());
    for (const QString &a : graph().pathTo(frameId))
        if (graph().frame(a)->isTrashed() && !inGroup.contains(a))
            ids.append(a);
    QList<Frame> before, after;
    for (const QString &id : std::as_const(ids)) {
        const Frame *g = graph().frame(id);
        before.append(*g);
        Frame a = *g;
        a.trashedAt = {};
        a.trashGroup.clear();
        after.append(a);
    }
    m_undoStack->push(new FrameEditCommand(this, tr("Restore from trash"), before, after));
    return {};
}

Result<void> SessionController::emptyTrash()
{
    QStringList trashed;
    for (const Frame &f : graph().frames())
        if (f.isTrashed())
            trashed.append(f.id);
    if (trashed.isEmpty())
        return {};
    const QStringList stillUsed = graph().referencedFiles(trashed);
    const QSet<QString> keep(stillUsed.cbegin(), stillUsed.cend());
    QStringList files;
    for (const QString &id : std::as_const(trashed))
        files.append(graph().frame(id)->files()); // its mask, raw image and heatmap too (they were left behind)
    files.removeDuplicates();
    // Manifest first: a crash after it leaves unreferenced files (harmless), never dangling
    // references. The removals run on the store's writer, after that write, and only if it worked.
    const quint64 gen = m_store->commitAsync({}, trashed, {});
    if (!gen)
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("No session is open."));
    QStringList doomed;
    for (const QString &rel : std::as_const(files))
        if (!keep.contains(rel))
            doomed.append(m_store->absolutePath(rel));
    const QString thumbsDir = m_store->thumbsDir();
    m_store->enqueue([written = m_store->waiterFor(gen), journal = &m_store->journal(), trashed, doomed,
                         thumbsDir]() -> Result<void> {
        if (Result<void> onDisk = written(); !onDisk)
            return onDisk; // the manifest still lists them: keep every file
        const Result<void> recorded = journal->recordRemoval(trashed);
        for (const QString &path : doomed)
            QFile::remove(path);
        // The removed pictures' cached thumbnails, found by their names' prefix in one listing.
        // (This looked for "<frame id>_*", a name the cache never used, one listing per frame:
        // deleted frames' thumbnails stayed for good.)
        QSet<QString> prefixes;
        for (const QString &path : doomed)
            prefixes.insert(SessionStore::thumbnailPrefix(path));
        const qsizetype prefixLength = SessionStore::thumbnailPrefix(QString()).size();
        for (const QString &t : QDir(thumbsDir).entryList(QDir::Files))
            if (prefixes.contains(t.left(prefixLength)))
                QFile::remove(thumbsDir + QLatin1Char('/') + t);
        return recorded;
    });
    m_undoStack->clear(); // the commands refer to frames that no longer exist
    Q_EMIT framesRemoved(trashed);
    return {};
}

} // namespace nb2
