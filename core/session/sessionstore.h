#pragma once

#include "core/common/error.h"
#include "core/session/framegraph.h"
#include "core/session/journal.h"

#include <QByteArray>
#include <QFuture>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QFileSystemWatcher;
class QLockFile;
class QThreadPool;
class QTimer;

namespace nb2 {

/**
 * One session folder on disk and its frame graph in memory:
 *   journal.jsonl  the write path: every change of the frame table is one fdatasync'ed
 *                  "commit" record (whole frames), beside the request records (see Journal)
 *   manifest.json  a checkpoint (schema 2): the frame table folded from the journal up to
 *                  "journal_offset"; unknown top-level and per-frame fields are preserved
 *   images/        generated, imported and copied input images (relative paths only)
 *   thumbs/        disposable thumbnail cache
 *   session.lock   lock file serialising checkpoints, opens and rebuilds across processes
 * Open = the checkpoint + the commit records after its offset. A change costs one small
 * append whatever the session's size; the whole manifest is rewritten only when the journal's
 * tail has grown to an eighth of it (and at close from a sixteenth), so open never parses much
 * beyond the checkpoint (docs/architecture-storage.md). Schema-1 sessions are checkpointed
 * once as schema 2 when opened.
 * The in-memory graph is the GUI thread's truth and changes at once; the disk work runs on one
 * serial writer thread (a QThreadPool of one thread), so the GUI thread never waits for an
 * fsync or a checkpoint. The writer coalesces queued changes into one append, then folds what
 * the journal gained (its own records and any other process's) into its disk view. Tasks
 * queued with enqueue() (journal records that must follow a change, file removals) run in
 * order between writes. Other processes' commits (seen by a QFileSystemWatcher on the journal,
 * read on the writer) come back by queued call, are applied as deltas and announced by
 * changedExternally(). Image files are written temp + fsync + rename before any record refers
 * to them. flush() waits for everything queued (shutdown, CLI, tests). Owns the graph, the
 * journal, the lock, the watcher and the writer; lives on the GUI thread (the static file
 * helpers, waiterFor()'s function and the journal are thread-safe).
 */
class SessionStore : public QObject
{
    Q_OBJECT

public:
    static constexpr int kSchemaVersion = 2; // 2: manifest is a checkpoint of the journal
    static constexpr const char *kFormatName = "nb2lite-session";

    explicit SessionStore(QObject *parent = nullptr);
    ~SessionStore() override;

    /**
     * OpenExisting and CreateIfMissing open for work (lock, writer, watcher; folders are made).
     * ReadOnly is for commands that only read (log, export): it never creates, locks or writes
     * anything, merges what the journal knows in memory only, and commitAsync() refuses.
     */
    enum class OpenMode { OpenExisting, CreateIfMissing, ReadOnly };

    /**
     * Opens (or creates) the session in dir. On an unreadable manifest fails (Corrupt) with a
     * message naming the file and the problem (e.g. "…/manifest.json: parse error at byte
     * 120: unterminated string"); nothing is changed on disk — call rebuild() to recover.
     * Other failures: Locked (lock timeout), NotWritable/DiskFull/Io (cannot write),
     * InvalidInput (not a session, a newer schema).
     */
    Result<void> open(const QString &dir, OpenMode mode = OpenMode::CreateIfMissing);
    /**
     * Starts reading dir's checkpoint (manifest.json) and journal tail on a worker thread, so
     * the parse overlaps other start-up work (the studio calls it before building its window).
     * The next open() of dir in this process uses what was read if manifest.json is still the
     * same file, and then reads only the journal bytes appended since; otherwise it reads as
     * usual. The checks are the same either way (the worker runs the same readers).
     * pool: where the parse runs (default: the global pool; start-up passes an idle-priority one).
     */
    static QFuture<void> preload(const QString &dir, QThreadPool *pool = nullptr);
    /**
     * Rebuilds the manifest from the journal and the files in images/ (images no journal
     * record mentions become Import frames). A broken manifest is kept aside as
     * manifest.broken-<unix>.json; nothing is deleted.
     */
    Result<void> rebuild(const QString &dir);
    void close();
    /**
     * For a process that closes its sessions only on its way out (a one-shot CLI command):
     * close() then still writes, syncs and unlocks everything as always, and instead of
     * freeing the frame table (10,000 frames: ~40 allocations each, 4-20 ms) hands it to a
     * process-wide list that is never freed — memory the exit returns at once, the way
     * compilers skip freeing their trees. The list stays reachable from a static, so leak
     * checkers (LeakSanitizer, valgrind --errors-for-leak-kinds=definite,possible) do not
     * count it. Off by default; never for a long-running process (the app, `nb2lite mcp`).
     */
    static void setKeepTablesForExit(bool keep);
    /**
     * For a process that runs one command on a few frames (a CLI edit on the head): open()
     * still checks every path of every frame lexically and resolves every folder they name,
     * but leaves each file's own last step (is images/x.jpg a link out, a FIFO?) to the code
     * that reads it, which resolves the file then (SessionPaths::resolveInside()). That saves
     * listing images/ and looking up every frame's files (~30 ms of CPU at 10,000 frames), at
     * the price that a link out in a frame the command never reads no longer refuses the
     * session. Off by default: the studio, `nb2lite mcp`, export, bundles and log read every
     * frame's files and refuse such a session when they open it. Read by open() and preload().
     */
    static void setFileChecksDeferred(bool deferred);
    static bool fileChecksDeferred();
    /**
     * For a process that runs one command on a few frames (a CLI turn): open() and preload()
     * read and check every frame of the checkpoint as always, but keep only each frame's node
     * (FrameGraph's frames on demand) and build a frame when the command asks for it. A CLI
     * edit on a 10,000-frame session built ~10 MB of frames to use two. Anything that reads
     * every frame builds them all, so the only difference a command can see is its time. Off
     * by default (the studio and `nb2lite mcp` read every frame anyway). Read by open() and
     * preload(); the journal's tail and everything written later are applied to the graph as
     * usual.
     */
    static void setFramesOnDemand(bool onDemand);
    static bool framesOnDemand();
    /** Frames close() has handed to that list so far (tests). */
    static qsizetype framesKeptForExit();
    bool isOpen() const { return !m_dir.isEmpty(); }
    /** Opened with OpenMode::ReadOnly: nothing will be written. */
    bool isReadOnly() const { return m_readOnly; }
    /** The last open() took its checkpoint from preload() (parsed on a worker, not here). */
    bool openedFromPreload() const { return m_openedFromPreload; }

    QString dir() const { return m_dir; }
    QString manifestPath() const;
    QString journalPath() const;
    QString imagesDir() const;
    QString thumbsDir() const;
    QString lockPath() const;
    /** Absolute path of a session-relative file. */
    QString absolutePath(const QString &relativePath) const;

    const FrameGraph &graph() const { return m_graph; }
    Journal &journal() { return m_journal; }
    /** The frame "head" resolves from (the last frame the user worked on); may be empty. */
    QString currentFrameId() const { return m_currentFrameId; }

    void setLockTimeoutMs(int ms);

    /**
     * The one write path: upserts/removes the frames in the in-memory graph at once (optionally
     * setting the current frame) and queues the manifest write on the writer thread. Returns the
     * write's generation (see waiterFor()), 0 when no session is open. Failures are reported
     * by writeFailed() (the change stays queued and is retried with the next write).
     */
    quint64 commitAsync(
        const QList<Frame> &upserts, const QStringList &removals = {}, const QString &newCurrentFrameId = {});
    /** commitAsync() and flush(): returns once the change is on disk (the error if not). */
    Result<void> commit(
        const QList<Frame> &upserts, const QStringList &removals = {}, const QString &newCurrentFrameId = {});
    /** The generation of the last queued write (what a worker waits for before sending). */
    quint64 queuedGeneration() const { return m_generation; }
    /**
     * A thread-safe function that blocks until write generation gen is on disk (success) or
     * failed (the write's error). Workers call it before appending a journal "begin" record, so
     * a pending frame is always in the manifest before the journal mentions it.
     */
    std::function<Result<void>()> waiterFor(quint64 gen) const;
    /**
     * Runs task on the writer thread after every write and task queued before it (journal
     * records that follow a manifest write, removals of files the manifest no longer lists).
     * A failed task's error is reported by writeFailed().
     */
    void enqueue(std::function<Result<void>()> task);
    /**
     * Blocks until every queued write and task has run and their results (external changes,
     * errors) are applied here. For shutdown, the CLI and tests; fails with the first error
     * since the last flush.
     */
    Result<void> flush();
    /** Same as flush(). */
    Result<void> waitForWrites() { return flush(); }
    /**
     * flush(), then folds the whole journal into manifest.json, so a reader of the folder's
     * files alone (a bundle, a preview, another tool) sees every frame. onlyIfDue: only when
     * the checkpoint policy says it pays (what close() does).
     */
    Result<void> checkpoint(bool onlyIfDue = false);
    /** Re-reads the manifest now and waits (normally the watcher does this, without waiting). Returns true if it changed. */
    bool reload();

    // ---- thread-safe file helpers (used by workers) ----
    /**
     * How every cached thumbnail of one image begins in thumbs/ ("<16 hex>-", then its size and
     * ".png"): a hash of the key the window asks with (the image's absolute path), so no file
     * name trusts a frame's data. The window's thumbnail cache writes by it; emptying the trash
     * removes by it.
     */
    static QString thumbnailPrefix(const QString &key);
    /** images/<prefix>_<unix>_<uuid8>.<ext>, ext from the bytes' magic (jpg, png, webp, ...). */
    static QString imageFileName(
        const QString &prefix, const QDateTime &when, const QString &uuid8, const QByteArray &bytes);
    /** Writes bytes to dir/relativePath via temp + fsync + rename; fills sha256, mime, width/height (header only). */
    static Result<FrameImage> writeImageFile(
        const QString &sessionDir, const QString &relativePath, const QByteArray &bytes);
    /** Copies a local image into images/ as input_<unix>_<uuid8>.<ext>; returns the relative path. */
    static Result<QString> copyInputImage(const QString &sessionDir, const QString &sourcePath);
    /**
     * Deletes a copy that storeImportFile or copyInputImage just made in sessionDir and that no
     * frame will name: the import was refused, or the session changed while it was copied. Only
     * images/import_… and images/input_… files directly in images/ are touched; anything else
     * (a generated picture, a path out of the folder) is left where it is.
     */
    static void removeUnrecordedCopy(const QString &sessionDir, const QString &relativePath);
    static QString sha256Hex(const QByteArray &bytes);
    /**
     * The bytes of a complete manifest for the session in dir: manifest.json with the journal's
     * commit records after its checkpoint folded in (for bundles: a reader of the manifest alone
     * sees every frame). Reads only; thread-safe.
     */
    static Result<QByteArray> foldedManifest(const QString &dir);

    /** Unknown top-level manifest fields (preserved). */
    QJsonObject manifestExtra() const { return m_extra; }

Q_SIGNALS:
    /** Another process changed the manifest; the graph has been reloaded. Lists are frame ids. */
    void changedExternally(const QStringList &added, const QStringList &changed, const QStringList &removed);
    /** A queued write or task failed (lock timeout, disk full, unreadable manifest). */
    void writeFailed(const QString &message);

public:
    struct WriterState;
    struct Preloaded; // what preload() read, for open()

private:
    /** The preload of dir, waited for (nullptr when there is none); a preload is used once. */
    static std::shared_ptr<Preloaded> takePreload(const QString &dir);
    /**
     * journalOffset: the schema-2 checkpoint's offset, -1 for schema 1; bytes: the file's size.
     * onDemand: the graph builds its frames on demand (setFramesOnDemand()); the checks are the same.
     */
    static Result<void> readManifest(const QString &path, FrameGraph *graph, QString *current, QJsonObject *extra,
        qint64 *journalOffset, qint64 *bytes, bool onDemand = false);
    Result<void> writeManifestLocked();
    /** Replaces the in-memory state by what was read; returns the frame-level differences. */
    void adopt(FrameGraph graph, const QString &current, const QJsonObject &extra, QStringList *added,
        QStringList *changed, QStringList *removed);
    /** What the journal knows that the manifest does not (after a crash); Unsafe if it names a path outside. */
    Result<QList<Frame>> journalFixes() const;
    Result<void> openReadOnly(const QString &dir);
    Result<void> mergeJournal();
    Result<void> lock();
    void unlock();
    void watch();
    void onWatcherEvent();
    /** Starts the writer on the state just opened. */
    void startWriter();
    /** Applies what the writer reported (acks, other processes' changes, errors); returns true if the graph changed externally. */
    bool applyWriterResults();

    /** A queued change not yet known to be on disk (re-applied over another process's version). */
    struct Change {
        quint64 gen = 0;
        QList<Frame> upserts;
        QStringList removals;
        QString current;
    };

    QString m_dir;
    bool m_readOnly = false;
    bool m_openedFromPreload = false;
    FrameGraph m_graph;
    QString m_currentFrameId;
    QJsonObject m_extra;
    qint64 m_journalEnd = 0;       // journal bytes folded into what was opened
    qint64 m_checkpointOffset = 0; // journal bytes manifest.json holds
    qint64 m_manifestBytes = 0;
    Journal m_journal;
    std::unique_ptr<QLockFile> m_lock;
    int m_lockTimeoutMs = 10000;
    QFileSystemWatcher *m_watcher = nullptr;
    QTimer *m_reloadTimer = nullptr;
    quint64 m_generation = 0;     // last queued write
    QList<Change> m_inFlight;     // queued, not yet acknowledged by the writer
    QList<Error> m_pendingErrors; // reported since the last flush()
    QThreadPool *m_writerPool = nullptr;
    std::shared_ptr<WriterState> m_writer;
};

} // namespace nb2
