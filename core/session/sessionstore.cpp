#include "core/session/sessionstore.h"
#include "core/session/sessionstoreinternal.h"

#include "core/api/imageinput.h"
#include "core/common/hugepages.h"
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

SessionStore::SessionStore(QObject *parent) : QObject(parent)
{
    m_reloadTimer = new QTimer(this);
    m_reloadTimer->setSingleShot(true);
    m_reloadTimer->setInterval(30);
    connect(m_reloadTimer, &QTimer::timeout, this, [this] {
        if (!isOpen())
            return;
        if (m_watcher && !m_watcher->files().contains(journalPath()) && QFileInfo::exists(journalPath()))
            m_watcher->addPath(journalPath()); // created after the session was opened
        {
            WriterState::Task t;
            t.check = true;
            postTask(m_writer, m_writerPool, std::move(t));
        }
    });
    m_writerPool = new QThreadPool(this);
    m_writerPool->setMaxThreadCount(1); // one serial writer: writes never overlap or reorder
    m_writer = std::make_shared<WriterState>();
    m_writer->owner = this;
}

SessionStore::~SessionStore()
{
    close();
    m_writerPool->waitForDone();
}

void SessionStore::setLockTimeoutMs(int ms)
{
    m_lockTimeoutMs = ms;
    m_writer->lockTimeoutMs = ms;
}

QString SessionStore::manifestPath() const
{
    return m_dir + QStringLiteral("/manifest.json");
}
QString SessionStore::journalPath() const
{
    return m_dir + QStringLiteral("/journal.jsonl");
}
QString SessionStore::imagesDir() const
{
    return m_dir + QStringLiteral("/images");
}
QString SessionStore::thumbsDir() const
{
    return m_dir + QStringLiteral("/thumbs");
}
QString SessionStore::lockPath() const
{
    return m_dir + QStringLiteral("/session.lock");
}

QString SessionStore::absolutePath(const QString &relativePath) const
{
    if (relativePath.isEmpty())
        return {};
    return QDir(m_dir).filePath(relativePath);
}

struct SessionStore::Preloaded {
    qint64 manifestSize = -1;
    QDateTime manifestModified;
    Result<void> read;
    FrameGraph graph;
    QString current;
    QJsonObject extra;
    qint64 offset = -1;
    qint64 manifestBytes = 0;
    std::optional<Journal::Tail> tail; // from offset, when the manifest is a schema-2 checkpoint

    /** The manifest open() finds is the file this read (a checkpoint replaces it by rename). */
    bool sameManifest(const QString &path) const
    {
        const QFileInfo now(path);
        return now.size() == manifestSize && now.lastModified() == manifestModified;
    }
};

namespace {
QMutex preloadMutex;
QString preloadDir;                                              // guarded by preloadMutex
QFuture<std::shared_ptr<SessionStore::Preloaded>> preloadFuture; // guarded by preloadMutex
} // namespace

Result<void> SessionStore::open(const QString &dirIn, OpenMode mode)
{
    close();
    auto fail = [&](const Error &e) -> Result<void> {
        m_dir.clear();
        return e;
    };
    const QString dir = QDir::cleanPath(QFileInfo(dirIn).absoluteFilePath());
    if (mode == OpenMode::ReadOnly)
        return openReadOnly(dir);
    QDir d(dir);
    if (!d.exists()) {
        if (mode == OpenMode::OpenExisting)
            return fail(Error::make(ErrorKind::InvalidInput, QStringLiteral("%1: no such session folder").arg(dir)));
        if (!QDir().mkpath(dir))
            return fail(
                Error::make(writeFailureKind(dir), QStringLiteral("%1: cannot create the session folder").arg(dir)));
    }
    // Opening for work on a folder that cannot be written would only fail later, at every
    // write, after a lock timeout each: say so now, once.
    if (!QFileInfo(dir).isWritable())
        return fail(notWritable(dir));
    m_dir = dir;
    QDir().mkpath(imagesDir());
    QDir().mkpath(thumbsDir());
    m_journal.setPath(journalPath());

    if (!QFileInfo::exists(manifestPath())) {
        if (mode == OpenMode::OpenExisting)
            return fail(
                Error::make(ErrorKind::InvalidInput, QStringLiteral("%1: not a session (no manifest.json)").arg(dir)));
        // A crash before the first manifest write leaves only a journal: rebuild from it.
        if (QFileInfo(journalPath()).size() > 0) {
            const QString keep = m_dir;
            m_dir.clear();
            return rebuild(keep);
        }
        if (const Result<void> locked = lock(); !locked)
            return fail(locked.error());
        m_graph.clear();
        m_currentFrameId.clear();
        m_extra = QJsonObject {{QLatin1String("created_at"), toIsoUtc(QDateTime::currentDateTimeUtc())}};
        m_journalEnd = m_checkpointOffset = 0;
        const Result<void> written = QFileInfo::exists(manifestPath()) ? Result<void>() : writeManifestLocked();
        unlock();
        if (!written)
            return fail(written.error());
    }

    FrameGraph graph;
    QString current;
    QJsonObject extra;
    qint64 offset = -1;
    std::shared_ptr<Preloaded> pre = takePreload(dir);
    if (pre && (!pre->read || !pre->sameManifest(manifestPath())))
        pre.reset(); // replaced since (a checkpoint), or unreadable: read it here, with its error
    m_openedFromPreload = bool(pre);
    if (pre) {
        graph = std::move(pre->graph);
        current = pre->current;
        extra = pre->extra;
        offset = pre->offset;
        m_manifestBytes = pre->manifestBytes;
    } else if (const Result<void> read
               = readManifest(manifestPath(), &graph, &current, &extra, &offset, &m_manifestBytes, framesOnDemand());
               !read) {
        return fail(read.error());
    }
    if (offset < 0) {
        // Schema 1 (manifest rewritten on every change): everything in the journal is in it.
        // Checkpoint once as schema 2 before any commit record can follow.
        if (const Result<void> locked = lock(); !locked)
            return fail(locked.error());
        m_graph = graph;
        m_currentFrameId = current;
        m_extra = extra;
        m_checkpointOffset = m_journalEnd = QFileInfo(journalPath()).size();
        const Result<void> written = writeManifestLocked();
        unlock();
        if (!written)
            return fail(written.error());
        offset = m_journalEnd;
    }
    // Open = checkpoint + the journal's commit records after it.
    Journal::Tail tail;
    if (pre && pre->tail && pre->offset == offset && !pre->tail->shrunk && !pre->tail->unsafe) {
        // The preload read the tail up to tail.end; only what was appended since is read here.
        tail = std::move(*pre->tail);
        const Journal::Tail more = Journal::readCommits(journalPath(), tail.end);
        if (more.shrunk) {
            tail = Journal::readCommits(journalPath(), offset); // replaced meanwhile: read it all
        } else {
            tail.commits += more.commits;
            tail.end = more.end;
            tail.unsafe = more.unsafe;
        }
    } else {
        tail = Journal::readCommits(journalPath(), offset);
    }
    if (tail.unsafe)
        return fail(*tail.unsafe);
    for (const JournalCommit &c : tail.commits)
        applyCommit(c, &graph, &current);
    m_checkpointOffset = offset;
    m_journalEnd = tail.shrunk ? offset : tail.end;
    QStringList a, c, r;
    adopt(std::move(graph), current, extra, &a, &c, &r);
    startWriter();
    if (const Result<void> merged = mergeJournal(); !merged)
        return fail(merged.error());
    watch();
    return {};
}

QFuture<void> SessionStore::preload(const QString &dirIn, QThreadPool *pool)
{
    if (dirIn.isEmpty())
        return {};
    const QString dir = QDir::cleanPath(QFileInfo(dirIn).absoluteFilePath());
    const QString manifest = dir + QStringLiteral("/manifest.json");
    if (!QFileInfo(manifest).isFile())
        return {};
    QMutexLocker locker(&preloadMutex);
    // One read per open: a second call for the folder being read (start-up preloads it, then
    // the session manager asks again on its way to open it) waits for the same parse.
    if (preloadDir == dir && preloadFuture.isValid())
        return QFuture<void>(preloadFuture);
    preloadDir = dir;
    const bool onDemand = framesOnDemand(); // read here: preload() and open() of the same read agree
    preloadFuture = QtConcurrent::run(pool ? pool : QThreadPool::globalInstance(), [dir, manifest, onDemand] {
        preferHugePagesForThisThread(); // the frame table is allocated here
        auto p = std::make_shared<Preloaded>();
        const QFileInfo before(manifest);
        p->manifestSize = before.size();
        p->manifestModified = before.lastModified();
        p->read = readManifest(manifest, &p->graph, &p->current, &p->extra, &p->offset, &p->manifestBytes, onDemand);
        if (p->read && !p->sameManifest(manifest))
            p->read
                = Error::make(ErrorKind::Conflict, QStringLiteral("replaced while it was read")); // open() reads again
        if (p->read && p->offset >= 0)
            p->tail = Journal::readCommits(dir + QStringLiteral("/journal.jsonl"), p->offset);
        return p;
    });
    return QFuture<void>(preloadFuture);
}

std::shared_ptr<SessionStore::Preloaded> SessionStore::takePreload(const QString &dir)
{
    QMutexLocker locker(&preloadMutex);
    if (preloadDir.isEmpty())
        return nullptr;
    const bool mine = preloadDir == dir;
    QFuture<std::shared_ptr<Preloaded>> future = preloadFuture;
    preloadDir.clear();
    preloadFuture = {};
    locker.unlock();
    if (!mine)
        return nullptr; // left to finish on its own; its result is dropped
    return future.result();
}

namespace {
std::atomic<bool> keepTablesForExit {false};
QMutex keptMutex;
/** Never freed, on purpose (see setKeepTablesForExit()); reachable from this static. */
QList<FrameGraph> &keptTables()
{
    static auto *kept = new QList<FrameGraph>;
    return *kept;
}
} // namespace

void SessionStore::setKeepTablesForExit(bool keep)
{
    keepTablesForExit = keep;
}

namespace {
std::atomic<bool> fileChecksDeferredFlag {false};
} // namespace

void SessionStore::setFileChecksDeferred(bool deferred)
{
    fileChecksDeferredFlag = deferred;
}

bool SessionStore::fileChecksDeferred()
{
    return fileChecksDeferredFlag;
}

namespace {
std::atomic<bool> framesOnDemandFlag {false};
} // namespace

void SessionStore::setFramesOnDemand(bool onDemand)
{
    framesOnDemandFlag = onDemand;
}

bool SessionStore::framesOnDemand()
{
    return framesOnDemandFlag;
}

qsizetype SessionStore::framesKeptForExit()
{
    QMutexLocker locker(&keptMutex);
    qsizetype n = 0;
    for (const FrameGraph &g : std::as_const(keptTables()))
        n += g.size();
    return n;
}

Result<void> SessionStore::checkpoint(bool onlyIfDue)
{
    if (!isOpen())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("no session is open"));
    WriterState::Task t;
    t.checkpoint = true;
    t.closing = onlyIfDue;
    postTask(m_writer, m_writerPool, std::move(t));
    return flush();
}

void SessionStore::close()
{
    if (isOpen() && !m_readOnly)
        checkpoint(true); // everything queued reaches the disk; the manifest too when the tail is worth folding
    m_readOnly = false;
    m_openedFromPreload = false;
    delete m_watcher;
    m_watcher = nullptr;
    m_reloadTimer->stop();
    m_lock.reset();
    m_dir.clear();
    if (keepTablesForExit && !m_graph.isEmpty()) {
        // Everything is on disk and unlocked by now; only the freeing is skipped.
        m_writerPool->waitForDone();
        QMutexLocker locker(&keptMutex);
        keptTables().append(std::move(m_graph));
        m_graph = FrameGraph();
        if (m_writer->graphLoaded) {
            keptTables().append(std::move(m_writer->graph));
            m_writer->graph = FrameGraph();
            m_writer->graphLoaded = false;
        }
    }
    m_graph.clear();
    m_currentFrameId.clear();
    m_extra = {};
    m_journalEnd = m_checkpointOffset = m_manifestBytes = 0;
    m_inFlight.clear();
    m_pendingErrors.clear();
}

void SessionStore::adopt(FrameGraph graph, const QString &current, const QJsonObject &extra, QStringList *added,
    QStringList *changed, QStringList *removed)
{
    if (m_graph.isEmpty()) {
        // Opening: everything is new (and a graph of frames on demand is not built to say so).
        *added = graph.frameIds(FrameGraph::IncludeTrashed);
        m_graph = std::move(graph);
        m_currentFrameId = current;
        m_extra = extra;
        return;
    }
    for (const Frame &f : graph.frames()) {
        const Frame *old = m_graph.frame(f.id);
        if (!old)
            added->append(f.id);
        else if (old->toJson() != f.toJson())
            changed->append(f.id);
    }
    for (const Frame &f : m_graph.frames())
        if (!graph.contains(f.id))
            removed->append(f.id);
    m_graph = std::move(graph);
    m_currentFrameId = current;
    m_extra = extra;
}

Result<void> SessionStore::mergeJournal()
{
    const Result<QList<Frame>> fixes = journalFixes();
    if (!fixes)
        return fixes.error();
    if (fixes.value().isEmpty())
        return {};
    return commit(fixes.value(), {}, {});
}

Result<QList<Frame>> SessionStore::journalFixes() const
{
    // The journal may be ahead of the manifest after a crash: an id learned by streaming that
    // never reached the manifest (or, after a lost manifest, a begun turn it does not list).
    // A pending frame always reaches the manifest before its journal record, so a manifest
    // without pending frames has nothing to learn from the journal: skip reading it.
    if (m_graph.withStatus(FrameStatus::Pending).isEmpty() && !m_graph.isEmpty())
        return QList<Frame>();
    const Journal::Replay replay = Journal::replay(journalPath());
    QList<Frame> fixes;
    for (const QString &id : replay.openTurns) {
        if (replay.removed.contains(id))
            continue;
        const Frame *known = m_graph.frame(id);
        if (!known) {
            const Frame &fromJournal = replay.frames.value(id);
            if (const Result<void> inside = SessionPaths::checkFrame(fromJournal, m_dir, QStringLiteral("journal"));
                !inside)
                return inside.error();
            fixes.append(fromJournal);
            continue;
        }
        const QString iid = replay.interactionIds.value(id);
        if (known->isPending() && known->interactionId.isEmpty() && !iid.isEmpty()) {
            Frame f = *known;
            f.interactionId = iid;
            fixes.append(f);
        }
    }
    return fixes;
}

Result<void> SessionStore::lock()
{
    Result<std::unique_ptr<QLockFile>> taken = acquireLock(lockPath(), m_lockTimeoutMs);
    if (!taken)
        return taken.error();
    m_lock = std::move(taken.value());
    return {};
}

void SessionStore::unlock()
{
    if (m_lock)
        m_lock->unlock();
    m_lock.reset();
}

Result<void> SessionStore::writeManifestLocked()
{
    const Result<qint64> written = writeManifestFile(m_dir, m_graph, m_currentFrameId, m_extra, m_journalEnd);
    if (!written)
        return written.error();
    m_checkpointOffset = m_journalEnd;
    m_manifestBytes = written.value();
    return {};
}

void SessionStore::startWriter()
{
    // The writer is idle here (open/close flush): hand it the disk view we just read.
    m_writerPool->waitForDone();
    WriterState &w = *m_writer;
    QMutexLocker locker(&w.mutex);
    w.dir = m_dir;
    // Not m_graph: a shared copy would make the GUI thread's first change detach (copy) the
    // whole table. The writer reads its own when a checkpoint needs it (loadGraph()).
    w.graph.clear();
    w.graphLoaded = false;
    w.current = m_currentFrameId;
    w.extra = m_extra;
    w.writerId = QUuid::createUuid().toString(QUuid::Id128).left(12);
    w.journal.setPath(journalPath());
    w.journalEnd = m_journalEnd;
    w.checkpointOffset = m_checkpointOffset;
    w.manifestBytes = m_manifestBytes;
    w.unwritten.clear();
    w.reports.clear();
    w.writtenGen = m_generation;
    w.failedGen = 0;
    w.lastError = {};
    w.lockTimeoutMs = m_lockTimeoutMs;
    m_inFlight.clear();
}

namespace {
/**
 * A frame that names a path outside the session is never recorded: the journal is read back
 * (by this process and others) with the same check, and one such record would make the
 * session refuse to open. Lexical only: cheap enough for every change.
 */
Result<void> checkRecordable(const QList<Frame> &upserts)
{
    for (const Frame &f : upserts) {
        QStringList files = f.inputImages;
        if (!f.image.file.isEmpty())
            files.prepend(f.image.file);
        for (const QString &file : std::as_const(files)) {
            if (!SessionPaths::isSafeRelative(file))
                return Error::make(ErrorKind::Unsafe,
                    QStringLiteral("frame %1 names '%2', a path outside the session "
                                   "folder; the change was not recorded")
                        .arg(f.id, file));
        }
    }
    return {};
}
} // namespace

quint64 SessionStore::commitAsync(
    const QList<Frame> &upserts, const QStringList &removals, const QString &newCurrentFrameId)
{
    if (!isOpen() || m_readOnly)
        return 0;
    if (const Result<void> recordable = checkRecordable(upserts); !recordable) {
        m_pendingErrors.append(recordable.error());
        Q_EMIT writeFailed(recordable.error().message);
        return 0;
    }
    // The GUI's view changes now; the disk catches up on the writer.
    for (const Frame &f : upserts)
        m_graph.upsert(f);
    m_graph.remove(removals);
    if (!newCurrentFrameId.isEmpty())
        m_currentFrameId = newCurrentFrameId;
    Change c {++m_generation, upserts, removals, newCurrentFrameId};
    m_inFlight.append(c);
    WriterState::Task t;
    t.gen = c.gen;
    t.upserts = upserts;
    t.removals = removals;
    t.current = newCurrentFrameId;
    postTask(m_writer, m_writerPool, std::move(t));
    return c.gen;
}

Result<void> SessionStore::commit(
    const QList<Frame> &upserts, const QStringList &removals, const QString &newCurrentFrameId)
{
    if (!isOpen())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("no session is open"));
    if (m_readOnly)
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("the session was opened read-only"));
    if (const Result<void> recordable = checkRecordable(upserts); !recordable)
        return recordable;
    const quint64 gen = commitAsync(upserts, removals, newCurrentFrameId);
    const Result<void> flushed = flush();
    if (const Result<void> written = waiterFor(gen)(); !written)
        return written;
    return flushed;
}

std::function<Result<void>()> SessionStore::waiterFor(quint64 gen) const
{
    std::shared_ptr<WriterState> state = m_writer;
    return [state, gen]() -> Result<void> {
        QMutexLocker locker(&state->mutex);
        for (;;) {
            if (state->writtenGen >= gen)
                return {};
            if (state->failedGen >= gen)
                return state->lastError;
            state->cond.wait(&state->mutex);
        }
    };
}

void SessionStore::enqueue(std::function<Result<void>()> task)
{
    if (m_readOnly)
        return; // a reading command writes nothing, journal records included
    WriterState::Task t;
    t.run = std::move(task);
    postTask(m_writer, m_writerPool, std::move(t));
}

Result<void> SessionStore::flush()
{
    quint64 retry = 0;
    {
        QMutexLocker locker(&m_writer->mutex);
        if (m_writer->failedGen > m_writer->writtenGen && m_writer->queue.empty())
            retry = m_writer->failedGen; // changes a failed write left behind: try once more
    }
    if (retry > 0) {
        WriterState::Task t;
        t.gen = retry;
        postTask(m_writer, m_writerPool, std::move(t));
    }
    std::optional<Error> notWritten;
    {
        QMutexLocker locker(&m_writer->mutex);
        while (m_writer->running || !m_writer->queue.empty())
            m_writer->cond.wait(&m_writer->mutex);
        if (m_writer->failedGen > m_writer->writtenGen)
            notWritten = m_writer->lastError; // stays failed until the changes are on disk
    }
    applyWriterResults();
    const QList<Error> errors = std::exchange(m_pendingErrors, {});
    if (notWritten)
        return *notWritten;
    if (!errors.isEmpty())
        return errors.first();
    return {};
}

} // namespace nb2
