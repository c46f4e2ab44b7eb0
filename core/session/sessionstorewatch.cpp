// SessionStore's side of what happens to the session elsewhere: the writer thread's reports
// (acknowledged writes, errors, other processes' commits) applied to the GUI thread's graph,
// and the watcher on the journal that asks the writer to look.
#include "core/session/sessionstore.h"
#include "core/session/sessionstoreinternal.h"

#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QMutexLocker>
#include <QSet>
#include <QTimer>

namespace nb2 {

using namespace storedetail;

bool SessionStore::applyWriterResults()
{
    QList<WriterState::Report> reports;
    {
        QMutexLocker locker(&m_writer->mutex);
        reports.swap(m_writer->reports);
    }
    bool external = false;
    for (WriterState::Report &r : reports) {
        // Acknowledged changes are on disk; the rest are re-applied over any newer disk view.
        while (!m_inFlight.isEmpty() && m_inFlight.first().gen <= r.writtenGen)
            m_inFlight.removeFirst();
        if (!r.error) {
            m_pendingErrors.append(r.error.error());
            Q_EMIT writeFailed(r.error.error().message);
        }
        if (!r.external || !isOpen())
            continue;
        QStringList added, changed, removed;
        if (r.full) {
            // The session was replaced under us: diff the whole table (rare).
            FrameGraph graph = std::move(r.graph);
            QString current = r.current;
            for (const Change &c : std::as_const(m_inFlight))
                applyCommit(JournalCommit {QString(), c.upserts, c.removals, c.current}, &graph, &current);
            adopt(std::move(graph), current, r.extra, &added, &changed, &removed);
        } else {
            // Another process's commits: apply just them (the cost is theirs, not the session's
            // size), except to frames our own queued changes will overwrite anyway.
            QSet<QString> ours;
            for (const Change &c : std::as_const(m_inFlight)) {
                for (const Frame &f : c.upserts)
                    ours.insert(f.id);
                for (const QString &id : c.removals)
                    ours.insert(id);
            }
            for (const JournalCommit &c : std::as_const(r.commits)) {
                for (const Frame &f : c.upserts) {
                    if (ours.contains(f.id))
                        continue;
                    const Frame *old = m_graph.frame(f.id);
                    if (!old)
                        added.append(f.id);
                    else if (old->toJson() != f.toJson())
                        changed.append(f.id);
                    else
                        continue;
                    m_graph.upsert(f);
                }
                QStringList gone;
                for (const QString &id : c.removals)
                    if (!ours.contains(id) && m_graph.contains(id))
                        gone.append(id);
                gone.removeDuplicates();
                m_graph.remove(gone);
                removed += gone;
                if (!c.current.isEmpty())
                    m_currentFrameId = c.current;
            }
            added.removeDuplicates();
            changed.removeDuplicates();
            for (const QString &id : std::as_const(added))
                changed.removeAll(id);
        }
        if (added.isEmpty() && changed.isEmpty() && removed.isEmpty())
            continue;
        external = true;
        Q_EMIT changedExternally(added, changed, removed);
    }
    return external;
}

bool SessionStore::reload()
{
    if (!isOpen() || m_readOnly)
        return false;
    if (m_watcher && !m_watcher->files().contains(journalPath()) && QFileInfo::exists(journalPath()))
        m_watcher->addPath(journalPath());
    WriterState::Task t;
    t.check = true;
    postTask(m_writer, m_writerPool, std::move(t));
    {
        QMutexLocker locker(&m_writer->mutex);
        while (m_writer->running || !m_writer->queue.empty())
            m_writer->cond.wait(&m_writer->mutex);
    }
    return applyWriterResults();
}

void SessionStore::watch()
{
    delete m_watcher;
    m_watcher = new QFileSystemWatcher(this);
    // Other processes' changes arrive as journal appends (the manifest is only a checkpoint).
    m_watcher->addPath(m_dir);
    if (QFileInfo::exists(journalPath()))
        m_watcher->addPath(journalPath());
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, [this] { onWatcherEvent(); });
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] { onWatcherEvent(); });
}

void SessionStore::onWatcherEvent()
{
    m_reloadTimer->start(); // coalesce the burst of events one atomic replace makes
}

} // namespace nb2
