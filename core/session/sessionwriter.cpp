// SessionStore's writer thread: commit records appended to the journal (fdatasync'd), other
// processes' commits folded in, and the manifest checkpoint written when it is due.
#include "core/session/sessionstoreinternal.h"

#include "core/api/imageinput.h"
#include "core/session/sessionpaths.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFuture>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLockFile>
#include <QMutex>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStorageInfo>
#include <QThreadPool>
#include <QTimer>
#include <QUuid>
#include <QWaitCondition>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <deque>
#include <optional>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <unistd.h>
#endif

namespace nb2 {

using namespace storedetail;

void SessionStore::WriterState::report(Report r)
{
    {
        QMutexLocker locker(&mutex);
        reports.append(std::move(r));
    }
    SessionStore *store = owner;
    QMetaObject::invokeMethod(
        store, [store] { store->applyWriterResults(); }, Qt::QueuedConnection);
}

void SessionStore::WriterState::drain()
{
    for (;;) {
        std::deque<Task> batch;
        {
            QMutexLocker locker(&mutex);
            if (queue.empty()) {
                running = false;
                cond.wakeAll();
                return;
            }
            batch.swap(queue);
        }
        // Consecutive changes become one journal write; tasks keep their place between writes.
        QList<Task> changes;
        for (Task &t : batch) {
            if (t.gen > 0) {
                changes.append(std::move(t));
                continue;
            }
            if (!changes.isEmpty()) {
                writeChanges(changes);
                changes.clear();
            }
            if (t.check) {
                check();
            } else if (t.checkpoint) {
                checkpoint(t.closing, !t.closing);
            } else if (t.run) {
                if (Result<void> done = t.run(); !done) {
                    Report r;
                    r.error = done;
                    QMutexLocker locker(&mutex);
                    r.writtenGen = writtenGen;
                    locker.unlock();
                    report(std::move(r));
                }
            }
        }
        if (!changes.isEmpty())
            writeChanges(changes);
    }
}

void SessionStore::WriterState::foldTail(Report *r)
{
    const QString path = dir + QStringLiteral("/journal.jsonl");
    Journal::Tail tail = Journal::readCommits(path, journalEnd);
    if (tail.shrunk) {
        // The journal was replaced (a rebuild, a restored copy): start again from the manifest.
        FrameGraph g;
        QString cur;
        QJsonObject ex;
        qint64 offset = 0;
        if (!SessionStore::readManifest(dir + QStringLiteral("/manifest.json"), &g, &cur, &ex, &offset, &manifestBytes))
            return; // unreadable now: keep the view we have; the next event retries
        graph = std::move(g);
        graphLoaded = true;
        current = cur;
        extra = ex;
        checkpointOffset = journalEnd = std::max<qint64>(offset, 0);
        tail = Journal::readCommits(path, journalEnd);
        r->full = true;
    }
    if (tail.unsafe)
        r->error = *tail.unsafe; // the safe commits before it still apply; the rest is never read
    for (const JournalCommit &c : std::as_const(tail.commits)) {
        if (graphLoaded)
            applyCommit(c, &graph, &current);
        else if (!c.current.isEmpty())
            current = c.current;
        if (c.writer != writerId) {
            r->external = true;
            if (!r->full)
                r->commits.append(c);
        }
    }
    journalEnd = tail.end;
    if (r->full) {
        r->external = true;
        r->graph = graph;
        r->current = current;
        r->extra = extra;
    }
}

bool SessionStore::WriterState::loadGraph()
{
    FrameGraph g;
    QString cur;
    QJsonObject ex;
    qint64 offset = -1, bytes = 0;
    if (!SessionStore::readManifest(dir + QStringLiteral("/manifest.json"), &g, &cur, &ex, &offset, &bytes)
        || offset < 0 || offset > journalEnd)
        return false;
    const Journal::Tail tail = Journal::readCommits(dir + QStringLiteral("/journal.jsonl"), offset);
    // The lock is held and foldTail() has just read to journalEnd. Commit records are appended
    // only under the lock, so whatever follows journalEnd now (a turn's begin or end record,
    // written without it) holds no commit: these are exactly the commits up to journalEnd.
    if (tail.unsafe || tail.shrunk || tail.end < journalEnd)
        return false;
    for (const JournalCommit &c : tail.commits)
        applyCommit(c, &g, &cur);
    graph = std::move(g);
    current = cur;
    extra = ex;
    checkpointOffset = offset; // another process may have checkpointed since
    manifestBytes = bytes;
    graphLoaded = true;
    return true;
}

void SessionStore::WriterState::writeChanges(const QList<Task> &changesIn)
{
    QList<Task> changes = unwritten + changesIn;
    const quint64 gen = changes.last().gen;
    Report r;
    auto failed = [&](const Error &err) {
        unwritten = changes;
        {
            QMutexLocker locker(&mutex);
            failedGen = gen;
            lastError = err;
            r.writtenGen = writtenGen;
            cond.wakeAll();
        }
        r.error = err;
        report(std::move(r));
    };
    // The write path: one fdatasync'ed append of a commit record per change, under the lock
    // file like every write to the session (a rebuild or checkpoint in another process is never
    // interleaved with it; the lock is a small file, its cost does not grow with the session).
    const Result<std::unique_ptr<QLockFile>> lock = acquireLock(dir + QStringLiteral("/session.lock"), lockTimeoutMs);
    if (!lock)
        return failed(lock.error());
    QList<JournalCommit> commits;
    for (const Task &c : std::as_const(changes))
        commits.append(JournalCommit {writerId, c.upserts, c.removals, c.current});
    if (const Result<qint64> appended = journal.appendCommits(commits); !appended)
        return failed(appended.error());
    lock.value()->unlock();
    unwritten.clear();
    {
        QMutexLocker locker(&mutex);
        writtenGen = gen;
        r.writtenGen = gen;
        cond.wakeAll();
    }
    // Our records and whatever other processes appended before them join the disk view.
    foldTail(&r);
    report(std::move(r));
    if (checkpointDue(journalEnd - checkpointOffset, manifestBytes, false))
        checkpoint(false, false);
}

void SessionStore::WriterState::checkpoint(bool closing, bool force)
{
    if (!force && !checkpointDue(journalEnd - checkpointOffset, manifestBytes, closing))
        return;
    // The lock keeps two processes from writing the same checkpoint at once; either one would
    // be right (each holds exactly the journal up to its offset), so a busy lock just skips it.
    const Result<std::unique_ptr<QLockFile>> lock
        = acquireLock(dir + QStringLiteral("/session.lock"), force ? int(lockTimeoutMs) : 200);
    if (!lock) {
        if (force) {
            Report r;
            r.error = lock.error();
            QMutexLocker locker(&mutex);
            r.writtenGen = writtenGen;
            locker.unlock();
            report(std::move(r));
        }
        return;
    }
    Report r;
    {
        QMutexLocker locker(&mutex);
        r.writtenGen = writtenGen;
    }
    foldTail(&r); // everything up to the end of the journal goes in
    const bool wanted = journalEnd > checkpointOffset || force;
    if (wanted && !graphLoaded && !loadGraph()) {
        if (force)
            r.error = Error::make(ErrorKind::Corrupt,
                QStringLiteral("%1: the checkpoint could not be read back to fold the journal into it; "
                               "run `nb2lite rebuild` on the session")
                    .arg(QDir::toNativeSeparators(dir + QStringLiteral("/manifest.json"))));
    } else if (wanted) {
        const Result<qint64> written = writeManifestFile(dir, graph, current, extra, journalEnd);
        if (written) {
            checkpointOffset = journalEnd;
            manifestBytes = written.value();
        } else if (force) {
            r.error = written.error();
        }
    }
    lock.value()->unlock();
    if (r.external || !r.error)
        report(std::move(r));
}

void SessionStore::WriterState::check()
{
    Report r;
    {
        QMutexLocker locker(&mutex);
        r.writtenGen = writtenGen;
    }
    foldTail(&r);
    if (r.external)
        report(std::move(r));
}

void postTask(
    const std::shared_ptr<SessionStore::WriterState> &state, QThreadPool *pool, SessionStore::WriterState::Task task)
{
    QMutexLocker locker(&state->mutex);
    state->queue.push_back(std::move(task));
    if (state->running)
        return; // the running drain picks it up
    state->running = true;
    locker.unlock();
    pool->start([state] { state->drain(); });
}

} // namespace nb2
