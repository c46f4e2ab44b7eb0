// Internal to core/session: what SessionStore's source files share — the manifest's keys, the
// file helpers (lock, atomic manifest write, directory sync) and the writer thread's state.
// Included only by the store's own sources.
#pragma once

#include "core/common/error.h"
#include "core/session/framegraph.h"
#include "core/session/journal.h"
#include "core/session/sessionstore.h"

#include <QJsonObject>
#include <QLockFile>
#include <QMutex>
#include <QThreadPool>
#include <QWaitCondition>

#include <deque>
#include <functional>
#include <memory>

namespace nb2 {

namespace storedetail {

inline const QLatin1String kFormat("format"), kSchema("schema_version"), kFrames("frames"), kCurrent("current_frame"),
    kUpdated("updated_at"), kJournalOffset("journal_offset");

QString extensionOrBin(const QString &mime);

void syncDirectory(const QString &dir);

/** The one message for a session folder that cannot be written (read-only file system, no permission). */
Error notWritable(const QString &dir);

/** Takes the session's lock file (GUI thread at open/rebuild, the writer thread otherwise); Locked on timeout. */
Result<std::unique_ptr<QLockFile>> acquireLock(const QString &lockPath, int timeoutMs);

/**
 * What a manifest that no longer reads as a session still says about the session itself: its
 * top-level fields other than the frames (created_at, newer versions' fields) and
 * current_frame. A file that is not JSON any more gives what a plain search finds.
 */
void salvageManifestHead(const QByteArray &raw, QJsonObject *extra, QString *current);

/** The image record of bytes stored at rel: checksum, type and size from the header (no decode). */
FrameImage describeImage(const QString &rel, const QByteArray &bytes);

/**
 * The text of a checkpoint of graph (everything the journal holds up to byte journalOffset):
 * the other fields on the first line, then one frame per line (the reader guesses where to
 * split a big array by that layout).
 */
QByteArray manifestBytes(
    const FrameGraph &graph, const QString &current, const QJsonObject &extra, qint64 journalOffset);

/**
 * Replaces manifest.json by manifestBytes() atomically (temp, fsync, rename). The caller holds
 * the lock. Returns the manifest's size.
 */
Result<qint64> writeManifestFile(const QString &dir, const FrameGraph &graph, const QString &current,
    const QJsonObject &extra, qint64 journalOffset);

/** Applies one journal commit record to a frame table. */
void applyCommit(const JournalCommit &c, FrameGraph *graph, QString *current);

/**
 * When the journal's tail has grown large enough that folding it into a new manifest pays:
 * the checkpoint costs the manifest's size, so it is written once the tail is an eighth of it
 * (open then parses at most ~1/8 more than the manifest, and each turn's share of checkpoint
 * writing stays a small constant), and at close once it is a sixteenth (a small session gets
 * a current manifest whenever it is closed).
 */
bool checkpointDue(qint64 tailBytes, qint64 manifestBytes, bool closing);

} // namespace storedetail

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
    // The frame table of the disk view, read from disk only when a checkpoint needs it (see
    // loadGraph()): sharing the GUI thread's table made its first change copy all of it
    // (implicit sharing detaches), ~12 ms per CLI turn on a 10,000-frame session.
    FrameGraph graph;
    bool graphLoaded = false;
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
    /**
     * Reads the disk view's frame table (manifest + journal commits up to journalEnd) into
     * graph. Called with the lock held, right after foldTail(), so the journal cannot grow in
     * between. false: unreadable now (the checkpoint is skipped, the next one retries).
     */
    bool loadGraph();
    void check();
    void checkpoint(bool closing, bool force);
    void report(Report r);
};

/** Queues a task for the writer thread, starting a drain on pool unless one is running. */
void postTask(
    const std::shared_ptr<SessionStore::WriterState> &state, QThreadPool *pool, SessionStore::WriterState::Task task);

} // namespace nb2
