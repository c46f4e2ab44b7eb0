#include "core/session/sessionstore.h"

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

namespace {

const QLatin1String kFormat("format"), kSchema("schema_version"), kFrames("frames"), kCurrent("current_frame"),
    kUpdated("updated_at"), kJournalOffset("journal_offset");

QString extensionOrBin(const QString &mime)
{
    const QString extension = fileExtensionForImageMimeType(mime);
    return extension.isEmpty() ? QStringLiteral("bin") : extension;
}

void syncDirectory(const QString &dir)
{
#ifdef Q_OS_UNIX
    // The rename is only durable once the directory entry is on disk.
    const int fd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
#else
    Q_UNUSED(dir);
#endif
}

/** The one message for a session folder that cannot be written (read-only file system, no permission). */
Error notWritable(const QString &dir)
{
    return Error::make(ErrorKind::NotWritable,
        QStringLiteral("%1: folder not writable (read-only, or no permission to write in it); nothing was "
                       "changed. Make it writable or copy the session somewhere writable; reading it "
                       "(log, export) works as it is.")
            .arg(QDir::toNativeSeparators(dir)));
}

/** Takes the session's lock file (GUI thread at open/rebuild, the writer thread otherwise); Locked on timeout. */
Result<std::unique_ptr<QLockFile>> acquireLock(const QString &lockPath, int timeoutMs)
{
    auto lock = std::make_unique<QLockFile>(lockPath);
    // Age alone never makes a lock stale (a slow write is not a dead writer); a dead pid does.
    lock->setStaleLockTime(0);
    QDeadlineTimer deadline(timeoutMs);
    qint64 pid = 0;
    QString host, app;
    for (;;) {
        if (lock->tryLock(int(std::clamp<qint64>(deadline.remainingTime(), 0, 100))))
            return lock;
        if (lock->error() == QLockFile::PermissionError) {
            // Nobody holds it: the folder is read-only (or not ours). Waiting cannot help, and
            // "locked by another process" would send the user looking for one.
            const QString folder = QFileInfo(lockPath).absolutePath();
            return Error::make(ErrorKind::NotWritable,
                QStringLiteral("%1: the session folder is read-only (its lock file cannot be created), "
                               "so nothing can be added to it. Make the folder writable, or copy the "
                               "session to a writable folder and open that.")
                    .arg(QDir::toNativeSeparators(folder)));
        }
        // A writer killed between creating the lock file and writing its pid leaves a file
        // QLockFile cannot judge; once it is clearly not being written any more, it is stale.
        if (!lock->getLockInfo(&pid, &host, &app)
            && QFileInfo(lockPath).lastModified().msecsTo(QDateTime::currentDateTime()) > 2000)
            lock->removeStaleLockFile();
        if (deadline.hasExpired())
            break;
    }
    lock->getLockInfo(&pid, &host, &app);
    return Error::make(ErrorKind::Locked,
        QStringLiteral("%1: the session is locked by another process (pid %2%3) and did not "
                       "become free within %4 ms; try again")
            .arg(QDir::toNativeSeparators(lockPath))
            .arg(pid)
            .arg(app.isEmpty() ? QString() : QStringLiteral(", %1").arg(app))
            .arg(timeoutMs));
}

/**
 * What a manifest that no longer reads as a session still says about the session itself: its
 * top-level fields other than the frames (created_at, newer versions' fields) and
 * current_frame. A file that is not JSON any more gives what a plain search finds.
 */
void salvageManifestHead(const QByteArray &raw, QJsonObject *extra, QString *current)
{
    const QJsonDocument doc = QJsonDocument::fromJson(raw);
    if (doc.isObject()) {
        QJsonObject root = doc.object();
        *current = root.value(kCurrent).toString();
        for (const QLatin1String &k : {kFormat, kSchema, kFrames, kCurrent, kUpdated, kJournalOffset})
            root.remove(k);
        root.remove(QLatin1String("rebuilt_at"));
        *extra = root;
        return;
    }
    static const QRegularExpression created(QStringLiteral("\"created_at\"\\s*:\\s*\"([^\"]{10,40})\""));
    static const QRegularExpression currentRe(QStringLiteral("\"current_frame\"\\s*:\\s*\"([0-9a-f]{8})\""));
    const QString text = QString::fromUtf8(raw);
    if (const auto m = created.match(text); m.hasMatch() && fromIsoUtc(m.captured(1)).isValid())
        extra->insert(QLatin1String("created_at"), m.captured(1));
    if (const auto m = currentRe.match(text); m.hasMatch())
        *current = m.captured(1);
}

/** The image record of bytes stored at rel: checksum, type and size from the header (no decode). */
FrameImage describeImage(const QString &rel, const QByteArray &bytes)
{
    FrameImage image;
    image.file = rel;
    image.sha256 = SessionStore::sha256Hex(bytes);
    image.mimeType = sniffImageMimeType(bytes);
    QBuffer buf;
    buf.setData(bytes);
    buf.open(QIODevice::ReadOnly);
    const QSize size = QImageReader(&buf).size();
    image.width = size.width();
    image.height = size.height();
    return image;
}

/**
 * Serialises the whole frame table and replaces manifest.json atomically (temp, fsync, rename):
 * a checkpoint of everything the journal holds up to byte journalOffset. The caller holds the
 * lock. Returns the manifest's size.
 */
QByteArray manifestBytes(
    const FrameGraph &graph, const QString &current, const QJsonObject &extra, qint64 journalOffset)
{
    QJsonObject root = extra;
    root.insert(kFormat, QLatin1String(SessionStore::kFormatName));
    root.insert(kSchema, SessionStore::kSchemaVersion);
    root.insert(kUpdated, toIsoUtc(QDateTime::currentDateTimeUtc()));
    root.insert(kJournalOffset, journalOffset);
    if (!current.isEmpty())
        root.insert(kCurrent, current);
    else
        root.remove(kCurrent);
    QJsonArray frames;
    for (const Frame &f : graph.frames())
        frames.append(f.toJson());
    root.insert(kFrames, frames);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

Result<qint64> writeManifestFile(
    const QString &dir, const FrameGraph &graph, const QString &current, const QJsonObject &extra, qint64 journalOffset)
{
    const QByteArray raw = manifestBytes(graph, current, extra, journalOffset);
    const QString path = dir + QStringLiteral("/manifest.json");
    QSaveFile file(path); // temp + fsync + rename
    if (!file.open(QIODevice::WriteOnly) || file.write(raw) != raw.size() || !file.commit())
        return Error::make(writeFailureKind(path, &file),
            QStringLiteral("%1: cannot write the manifest: %2")
                .arg(QDir::toNativeSeparators(path), file.errorString()));
    syncDirectory(dir);
    return qint64(raw.size());
}

/** Applies one journal commit record to a frame table. */
void applyCommit(const JournalCommit &c, FrameGraph *graph, QString *current)
{
    for (const Frame &f : c.upserts)
        graph->upsert(f);
    for (const QString &id : c.removals)
        graph->remove(id);
    if (!c.current.isEmpty())
        *current = c.current;
}

/**
 * When the journal's tail has grown large enough that folding it into a new manifest pays:
 * the checkpoint costs the manifest's size, so it is written once the tail is an eighth of it
 * (open then parses at most ~1/8 more than the manifest, and each turn's share of checkpoint
 * writing stays a small constant), and at close once it is a sixteenth (a small session gets
 * a current manifest whenever it is closed).
 */
bool checkpointDue(qint64 tailBytes, qint64 manifestBytes, bool closing)
{
    if (tailBytes <= 0)
        return false;
    if (closing)
        return tailBytes * 16 >= manifestBytes;
    return tailBytes * 8 >= manifestBytes + 64 * 1024;
}

} // namespace

/**
 * What the GUI thread and the writer thread share. The queue, the counters and the results are
 * guarded by mutex; the disk view (graph, current, extra, journal positions) is touched only
 * by the writer (and by the GUI thread in startWriter(), while the writer is idle).
 */
struct SessionStore::WriterState {
    struct Task {
        quint64 gen = 0; // > 0: a change of the frame table
        QList<Frame> upserts;
        QStringList removals;
        QString current;
        std::function<Result<void>()> run; // a task (journal record, file removal)
        bool check = false;                // read what other processes appended (the watcher saw a write)
        bool checkpoint = false;           // write the manifest now if anything is not in it (close, export)
        bool closing = false;              // with checkpoint: only if the close policy says so
    };
    struct Report {
        bool external = false;        // another process changed the frame table
        QList<JournalCommit> commits; // ... by these commit records
        bool full = false;            // ... or replaced the session: graph/current/extra are the new disk view
        FrameGraph graph;
        QString current;
        QJsonObject extra;
        quint64 writtenGen = 0; // every change up to this one is on disk
        Result<void> error;     // a failed write or task
    };

    QMutex mutex;
    QWaitCondition cond;
    std::deque<Task> queue;
    bool running = false;
    quint64 writtenGen = 0;
    quint64 failedGen = 0; // the last generation whose write failed
    Error lastError;
    QList<Report> reports;
    SessionStore *owner = nullptr; // outlives every drain (its close() flushes)
    std::atomic<int> lockTimeoutMs {10000};

    // writer-only: the disk view = checkpoint + the journal's commit records up to journalEnd
    QString dir;
    QString writerId; // this store's mark on its commit records
    FrameGraph graph;
    QString current;
    QJsonObject extra;
    qint64 journalEnd = 0;       // journal bytes folded into the disk view
    qint64 checkpointOffset = 0; // journal bytes the manifest on disk holds
    qint64 manifestBytes = 0;    // its size
    QList<Task> unwritten;       // changes whose write failed: retried with the next one
    Journal journal;

    void drain();
    void writeChanges(const QList<Task> &changes);
    /** Folds what the journal gained since journalEnd; other writers' commits go into *r. */
    void foldTail(Report *r);
    void check();
    void checkpoint(bool closing, bool force);
    void report(Report r);
};

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
        current = cur;
        extra = ex;
        checkpointOffset = journalEnd = std::max<qint64>(offset, 0);
        tail = Journal::readCommits(path, journalEnd);
        r->full = true;
    }
    if (tail.unsafe)
        r->error = *tail.unsafe; // the safe commits before it still apply; the rest is never read
    for (const JournalCommit &c : std::as_const(tail.commits)) {
        applyCommit(c, &graph, &current);
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
    if (journalEnd > checkpointOffset || force) {
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

namespace {
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
} // namespace

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
    if (pre) {
        graph = std::move(pre->graph);
        current = pre->current;
        extra = pre->extra;
        offset = pre->offset;
        m_manifestBytes = pre->manifestBytes;
    } else if (const Result<void> read
               = readManifest(manifestPath(), &graph, &current, &extra, &offset, &m_manifestBytes);
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

QFuture<void> SessionStore::preload(const QString &dirIn)
{
    if (dirIn.isEmpty())
        return {};
    const QString dir = QDir::cleanPath(QFileInfo(dirIn).absoluteFilePath());
    const QString manifest = dir + QStringLiteral("/manifest.json");
    if (!QFileInfo(manifest).isFile())
        return {};
    QMutexLocker locker(&preloadMutex);
    preloadDir = dir;
    preloadFuture = QtConcurrent::run([dir, manifest] {
        auto p = std::make_shared<Preloaded>();
        const QFileInfo before(manifest);
        p->manifestSize = before.size();
        p->manifestModified = before.lastModified();
        p->read = readManifest(manifest, &p->graph, &p->current, &p->extra, &p->offset, &p->manifestBytes);
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

Result<void> SessionStore::openReadOnly(const QString &dir)
{
    // Nothing here may create, lock or write: a reading command leaves every byte as it was
    // (a schema-1 manifest is read as it is, not upgraded; the journal's tail is folded in memory).
    if (!QFileInfo(dir).isDir())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("%1: no such session folder").arg(dir));
    if (!QFileInfo::exists(dir + QStringLiteral("/manifest.json"))) {
        if (QFileInfo(dir + QStringLiteral("/journal.jsonl")).size() > 0)
            return Error::make(ErrorKind::Corrupt,
                QStringLiteral("%1: the session has a journal but no manifest.json; "
                               "rebuild it from the journal")
                    .arg(dir));
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("%1: not a session (no manifest.json)").arg(dir));
    }
    FrameGraph graph;
    QString current;
    QJsonObject extra;
    qint64 offset = -1;
    if (const Result<void> read
        = readManifest(dir + QStringLiteral("/manifest.json"), &graph, &current, &extra, &offset, nullptr);
        !read)
        return read;
    if (offset >= 0) {
        const Journal::Tail tail = Journal::readCommits(dir + QStringLiteral("/journal.jsonl"), offset);
        if (tail.unsafe)
            return *tail.unsafe;
        for (const JournalCommit &c : tail.commits)
            applyCommit(c, &graph, &current);
    }
    m_dir = dir;
    m_readOnly = true;
    m_journal.setPath(journalPath());
    QStringList a, c, r;
    adopt(std::move(graph), current, extra, &a, &c, &r);
    const Result<QList<Frame>> fixes = journalFixes();
    if (!fixes) {
        close();
        return fixes.error();
    }
    for (const Frame &f : fixes.value())
        m_graph.upsert(f); // shown, not written
    return {};
}

Result<QByteArray> SessionStore::foldedManifest(const QString &dir)
{
    const QString path = dir + QStringLiteral("/manifest.json");
    FrameGraph graph;
    QString current;
    QJsonObject extra;
    qint64 offset = -1;
    if (const Result<void> read = readManifest(path, &graph, &current, &extra, &offset, nullptr); !read)
        return read.error();
    const Journal::Tail tail
        = offset < 0 ? Journal::Tail {} : Journal::readCommits(dir + QStringLiteral("/journal.jsonl"), offset);
    if (tail.unsafe)
        return *tail.unsafe;
    if (tail.commits.isEmpty()) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return Error::make(ErrorKind::Io,
                QStringLiteral("%1: cannot read: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return file.readAll();
    }
    for (const JournalCommit &c : tail.commits)
        applyCommit(c, &graph, &current);
    return manifestBytes(graph, current, extra, tail.end);
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
    delete m_watcher;
    m_watcher = nullptr;
    m_reloadTimer->stop();
    m_lock.reset();
    m_dir.clear();
    m_graph.clear();
    m_currentFrameId.clear();
    m_extra = {};
    m_journalEnd = m_checkpointOffset = m_manifestBytes = 0;
    m_inFlight.clear();
    m_pendingErrors.clear();
}

Result<void> SessionStore::readManifest(
    const QString &path, FrameGraph *graph, QString *current, QJsonObject *extra, qint64 *journalOffset, qint64 *bytes)
{
    // Damage is Corrupt (rebuild() can recover from the journal); a file that is whole but not
    // ours to read is InvalidInput.
    auto fail = [&](ErrorKind kind, const QString &m) {
        return Error::make(kind, QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), m));
    };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(ErrorKind::Io, QStringLiteral("cannot read: %1").arg(file.errorString()));
    const QByteArray raw = file.readAll();
    if (raw.trimmed().isEmpty())
        return fail(ErrorKind::Corrupt, QStringLiteral("the file is empty"));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(raw, &pe);
    if (pe.error != QJsonParseError::NoError)
        return fail(
            ErrorKind::Corrupt, QStringLiteral("not valid JSON: %1 at byte %2").arg(pe.errorString()).arg(pe.offset));
    if (!doc.isObject())
        return fail(ErrorKind::Corrupt, QStringLiteral("expected a JSON object at the top level"));
    QJsonObject root = doc.object();
    if (root.value(kFormat).toString() != QLatin1String(kFormatName))
        return fail(ErrorKind::InvalidInput,
            QStringLiteral("not an NB2Lite session manifest (\"format\" is \"%1\", expected \"%2\")")
                .arg(root.value(kFormat).toString(), QLatin1String(kFormatName)));
    const int schema = root.value(kSchema).toInt(-1);
    if (schema < 1)
        return fail(ErrorKind::Corrupt, QStringLiteral("missing or invalid \"schema_version\""));
    if (schema > kSchemaVersion)
        return fail(ErrorKind::InvalidInput,
            QStringLiteral("written by a newer NB2Lite (schema %1; this version reads up to %2)")
                .arg(schema)
                .arg(kSchemaVersion));
    if (!root.value(kFrames).isArray())
        return fail(ErrorKind::Corrupt, QStringLiteral("\"frames\" is missing or not an array"));
    const QJsonArray frames = root.value(kFrames).toArray();
    const SessionPaths paths(QFileInfo(path).absolutePath()); // the folder made canonical once for every frame
    graph->clear();
    for (int i = 0; i < frames.size(); ++i) {
        if (!frames.at(i).isObject())
            return fail(ErrorKind::Corrupt, QStringLiteral("frames[%1] is not an object").arg(i));
        const Result<Frame> parsed = Frame::fromJson(frames.at(i).toObject());
        if (!parsed)
            return fail(ErrorKind::Corrupt, QStringLiteral("frames[%1]: %2").arg(i).arg(parsed.error().message));
        const Frame &f = parsed.value();
        if (graph->contains(f.id))
            return fail(ErrorKind::Corrupt, QStringLiteral("frames[%1]: duplicate frame id %2").arg(i).arg(f.id));
        // A path that leads out of the folder refuses the whole session: nothing may read it.
        if (const Result<void> inside = paths.check(f, QStringLiteral("manifest")); !inside)
            return fail(ErrorKind::Unsafe, inside.error().message);
        graph->upsert(f);
    }
    *current = root.value(kCurrent).toString();
    // Schema 2: the manifest is a checkpoint of the journal up to this byte offset.
    const double offset = root.value(kJournalOffset).toDouble(-1);
    *journalOffset = schema >= 2 && offset >= 0 ? qint64(offset) : -1;
    for (const QLatin1String &k : {kFormat, kSchema, kFrames, kCurrent, kUpdated, kJournalOffset})
        root.remove(k);
    *extra = root;
    if (bytes)
        *bytes = raw.size();
    return {};
}

void SessionStore::adopt(FrameGraph graph, const QString &current, const QJsonObject &extra, QStringList *added,
    QStringList *changed, QStringList *removed)
{
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
    w.graph = m_graph;
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
    for (const QString &id : removals)
        m_graph.remove(id);
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
                for (const QString &id : c.removals)
                    if (!ours.contains(id) && m_graph.remove(id))
                        removed.append(id);
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

Result<void> SessionStore::rebuild(const QString &dirIn)
{
    close();
    const QString dir = QDir::cleanPath(QFileInfo(dirIn).absoluteFilePath());
    if (!QDir().mkpath(dir))
        return Error::make(writeFailureKind(dir), QStringLiteral("%1: cannot create the session folder").arg(dir));
    if (!QFileInfo(dir).isWritable())
        return notWritable(dir);
    m_dir = dir;
    QDir().mkpath(imagesDir());
    QDir().mkpath(thumbsDir());
    m_journal.setPath(journalPath());
    if (const Result<void> locked = lock(); !locked) {
        m_dir.clear();
        return locked;
    }

    const qint64 journalSizeBeforeReplay = QFileInfo(journalPath()).size();
    const Journal::Replay replay = Journal::replay(journalPath());
    // A journal that names a file outside the folder is refused before anything is moved.
    for (const QString &id : replay.order) {
        if (!replay.frames.contains(id))
            continue;
        if (const Result<void> inside
            = SessionPaths::checkFrame(replay.frames.value(id), m_dir, QStringLiteral("journal"));
            !inside) {
            unlock();
            m_dir.clear();
            return Error::make(ErrorKind::Unsafe,
                QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(journalPath()), inside.error().message));
        }
    }

    // What the broken manifest still says about the session itself (when it began, the frame
    // the user was on, fields of newer versions) is kept; only its frames are rebuilt.
    QJsonObject extra;
    QString current;
    {
        QFile old(manifestPath());
        if (old.open(QIODevice::ReadOnly))
            salvageManifestHead(old.readAll(), &extra, &current);
    }

    // Keep the unreadable manifest for inspection; rebuilding must not destroy anything.
    if (QFileInfo::exists(manifestPath())) {
        QString aside = QStringLiteral("%1/manifest.broken-%2.json").arg(m_dir).arg(QDateTime::currentSecsSinceEpoch());
        for (int n = 1; QFileInfo::exists(aside); ++n)
            aside = QStringLiteral("%1/manifest.broken-%2-%3.json")
                        .arg(m_dir)
                        .arg(QDateTime::currentSecsSinceEpoch())
                        .arg(n);
        QFile::rename(manifestPath(), aside);
    }

    // A turn's result is written as images/<kind>_<unix>_<frame id>.<ext> (atomically) before
    // the journal's "end" record: a turn whose end record is lost (torn last line) but whose
    // picture is there finished. Newest file per frame (a retry writes a new one).
    static const QRegularExpression turnOutputRe(
        QStringLiteral("^(gen|edit|edit_local|style_edit)_(\\d+)_([0-9a-f]{8})\\.[a-z]+$"));
    QHash<QString, QPair<qint64, QString>> outputs; // frame id -> (unix, file name)
    for (const QString &name : QDir(imagesDir()).entryList(QDir::Files, QDir::Name)) {
        const auto m = turnOutputRe.match(name);
        if (!m.hasMatch())
            continue;
        const qint64 when = m.captured(2).toLongLong();
        if (!outputs.contains(m.captured(3)) || outputs.value(m.captured(3)).first <= when)
            outputs.insert(m.captured(3), {when, name});
    }

    FrameGraph graph;
    for (const QString &id : replay.order) {
        if (!replay.frames.contains(id))
            continue;
        Frame f = replay.frames.value(id);
        if ((f.isPending() || f.status == FrameStatus::Interrupted) && f.kind != FrameKind::Import
            && outputs.contains(f.id)) {
            const QString rel = QStringLiteral("images/") + outputs.value(f.id).second;
            QFile in(absolutePath(rel));
            const QByteArray bytes = in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray();
            if (!sniffImageMimeType(bytes).isEmpty() && imageDamage(bytes).isEmpty()) {
                f.status = FrameStatus::Done;
                f.error = {};
                f.ownerPid = 0;
                f.image = describeImage(rel, bytes);
                f.finishedAt = QDateTime::fromSecsSinceEpoch(outputs.value(f.id).first, Qt::UTC);
                if (f.interactionId.isEmpty())
                    f.interactionId = replay.interactionIds.value(f.id);
                if (f.kind == FrameKind::ReAnchor || f.reAnchored)
                    f.reAnchored = true;
            }
        }
        if (f.isDone() && (f.image.isNull() || !QFileInfo::exists(absolutePath(f.image.file)))) {
            f.status = FrameStatus::Interrupted;
            f.error.kind = errorKindName(ErrorKind::Io);
            f.error.message = QStringLiteral("the image file of this frame is missing; retry to make it again");
        }
        graph.upsert(f);
    }
    // Images nobody mentions become imported roots, so no picture is lost.
    const QStringList referenced = graph.referencedFiles();
    const QSet<QString> refSet(referenced.cbegin(), referenced.cend());
    static const QRegularExpression nameRe(QStringLiteral("^[a-z_]+_(\\d+)_([0-9a-f]{8})\\.[a-z]+$"));
    const QFileInfoList files = QDir(imagesDir()).entryInfoList(QDir::Files, QDir::Name);
    for (const QFileInfo &fi : files) {
        if (fi.fileName().startsWith(QLatin1Char('.')))
            continue; // a temp file of an interrupted write: never referenced
        const QString rel = QStringLiteral("images/") + fi.fileName();
        if (refSet.contains(rel))
            continue;
        QFile in(fi.absoluteFilePath());
        if (!in.open(QIODevice::ReadOnly))
            continue;
        const QByteArray bytes = in.readAll();
        if (sniffImageMimeType(bytes).isEmpty())
            continue;
        Frame f;
        const auto m = nameRe.match(fi.fileName());
        f.id = m.hasMatch() && !graph.contains(m.captured(2)) ? m.captured(2) : Frame::newId();
        while (graph.contains(f.id))
            f.id = Frame::newId();
        f.kind = FrameKind::Import;
        f.status = FrameStatus::Done;
        f.title = fi.fileName();
        f.requestedAt = m.hasMatch() ? QDateTime::fromSecsSinceEpoch(m.captured(1).toLongLong(), Qt::UTC)
                                     : fi.lastModified().toUTC();
        f.finishedAt = f.requestedAt;
        f.image = describeImage(rel, bytes);
        f.note = QStringLiteral("recovered from images/ when the session was rebuilt");
        graph.upsert(f);
    }
    // created_at: the old manifest's, else when the journal began, else the first frame's request.
    if (!extra.contains(QLatin1String("created_at"))) {
        QDateTime created = replay.firstAt;
        for (const Frame &f : graph.frames()) {
            if (f.requestedAt.isValid() && (!created.isValid() || f.requestedAt < created))
                created = f.requestedAt;
        }
        if (created.isValid())
            extra.insert(QLatin1String("created_at"), toIsoUtc(created));
    }
    extra.insert(QLatin1String("rebuilt_at"), toIsoUtc(QDateTime::currentDateTimeUtc()));
    // current_frame: the journal's last commit, else the old manifest's, else the frame the journal saw last.
    if (graph.contains(replay.current))
        current = replay.current;
    if (current.isEmpty() || !graph.contains(current))
        current = replay.lastFrameId;
    if (!graph.contains(current) || graph.frame(current)->isTrashed())
        current.clear();
    m_graph = std::move(graph);
    m_extra = extra;
    m_currentFrameId = current;
    // The new manifest holds the journal up to where it was when the replay began; records
    // appended since are folded again at open (whole frames: applying one twice is harmless).
    m_journalEnd = journalSizeBeforeReplay;
    const Result<void> written = writeManifestLocked();
    unlock();
    if (!written) {
        m_dir.clear();
        return written;
    }
    const QString keep = m_dir;
    return open(keep, OpenMode::OpenExisting);
}

QString SessionStore::sha256Hex(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

QString SessionStore::imageFileName(
    const QString &prefix, const QDateTime &when, const QString &uuid8, const QByteArray &bytes)
{
    return QStringLiteral("images/%1_%2_%3.%4")
        .arg(prefix)
        .arg(when.toSecsSinceEpoch())
        .arg(uuid8, extensionOrBin(sniffImageMimeType(bytes)));
}

Result<FrameImage> SessionStore::writeImageFile(
    const QString &sessionDir, const QString &relativePath, const QByteArray &bytes)
{
    const QString target = QDir(sessionDir).filePath(relativePath);
    const QFileInfo ti(target);
    QDir().mkpath(ti.absolutePath());
    const QString temp = ti.absolutePath() + QStringLiteral("/.") + ti.fileName()
        + QStringLiteral(".tmp-%1").arg(QUuid::createUuid().toString(QUuid::Id128).left(8));
    {
        QFile f(temp);
        bool written = f.open(QIODevice::WriteOnly);
        // A full disk first shows as a short write without an error; the next write reports it.
        for (qint64 done = 0; written && done < bytes.size();) {
            const qint64 n = f.write(bytes.constData() + done, bytes.size() - done);
            written = n > 0;
            done += qMax<qint64>(n, 0);
        }
        if (!written || !f.flush()) {
            ErrorKind kind = writeFailureKind(target, &f);
            if (kind == ErrorKind::Io && QStorageInfo(ti.absolutePath()).bytesAvailable() < bytes.size())
                kind = ErrorKind::DiskFull;
            const QString why = kind == ErrorKind::DiskFull
                ? QStringLiteral("no space left on the device (%1 bytes needed); free some space and retry")
                      .arg(bytes.size())
                : f.errorString();
            f.close();
            QFile::remove(temp);
            return Error::make(
                kind, QStringLiteral("%1: cannot write the image: %2").arg(QDir::toNativeSeparators(target), why));
        }
#ifdef Q_OS_UNIX
        ::fsync(f.handle());
#endif
        f.close();
    }
    if (std::rename(QFile::encodeName(temp).constData(), QFile::encodeName(target).constData()) != 0) {
        QFile::remove(temp);
        return Error::make(ErrorKind::Io,
            QStringLiteral("%1: cannot move the image into place").arg(QDir::toNativeSeparators(target)));
    }
    syncDirectory(ti.absolutePath());
    FrameImage image;
    image.file = relativePath;
    image.sha256 = sha256Hex(bytes);
    image.mimeType = sniffImageMimeType(bytes);
    QBuffer buf;
    buf.setData(bytes);
    buf.open(QIODevice::ReadOnly);
    const QSize size = QImageReader(&buf).size(); // header only, no decode
    image.width = size.width();
    image.height = size.height();
    return image;
}

Result<QString> SessionStore::copyInputImage(const QString &sessionDir, const QString &sourcePath)
{
    const Result<ImageInput> input = loadImageInput(sourcePath);
    if (!input)
        return input.error();
    const QString uuid = QUuid::createUuid().toString(QUuid::Id128).left(8);
    const QString rel
        = imageFileName(QStringLiteral("input"), QDateTime::currentDateTimeUtc(), uuid, input.value().bytes);
    const Result<FrameImage> written = writeImageFile(sessionDir, rel, input.value().bytes);
    if (!written)
        return written.error();
    return rel;
}

} // namespace nb2
