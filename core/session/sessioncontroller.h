#pragma once

#include "core/common/error.h"
#include "core/session/framegraph.h"
#include "core/session/pricetable.h"
#include "core/session/sessionsettings.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <memory>

class QTimer;
class QUndoStack;
class QThreadPool;

namespace nb2 {

class InteractionsClient;
class SessionStore;

/** What the user asks for in one turn (the parent and the images are separate arguments). */
struct TurnParams {
    QString prompt;
    QString aspectRatio;   // empty: generate "1:1", edit keeps the parent's, edit-local/style: model's choice
    QString thinkingLevel; // empty: omitted
    /** The parent already has children: fork a new branch on purpose (what branchFrom() sets). */
    bool newBranch = false;
    /** A precision edit (issue 13): mode, mask, feather and crop from PrecisionEdit::prepare(); empty for a plain turn. */
    FrameRegionEdit regionEdit = {};
    /** A replayed step (core/session/replayrunner): the frame it repeats and the run it belongs to; empty otherwise. */
    QString replayOf = {};
    QString replayRun = {};
};

/**
 * How importImage() brings a file in. The session never reads file metadata itself (that is
 * core/export's readProvenance(), a layer above); the caller passes what the record said.
 */
struct ImportOptions {
    QString title;        // empty: the file name
    FrameLineage lineage; // the file's embedded lineage record; empty: none (a plain import)
    /**
     * Make lineage.interactionId the import frame's server id (expiry unknown, so taken as
     * possibly valid): an edit of the frame then sends it as previous_interaction_id, and if the
     * server no longer has it (404) the edit re-anchors from the imported pixels and the id is
     * dropped from the frame. False: the lineage is only kept for reference.
     */
    bool continueChain = true;
};

/**
 * Runs a session: the GUI-thread object that turns user requests into frames. It validates
 * a turn, adds a pending frame to the graph at once (the manifest write is queued on the
 * store's serial writer), runs the blocking InteractionsClient call on a worker thread
 * (QtConcurrent + QFutureWatcher, at most concurrencyLimit at once, the rest queued) which
 * first waits until the manifest lists the frame and appends the journal "begin" record, then
 * sends; it writes the image (temp, fsync, rename) on the worker, and on the GUI thread marks
 * the frame done/failed and queues the manifest update and then the journal "end" record on
 * the writer, so the GUI thread never waits for a lock, an fsync or a manifest serialisation. It re-anchors turns whose parent id is expired, missing or 404, recovers
 * crashed turns on open (get for known ids; "interrupted" otherwise — nothing is re-sent
 * unasked), and keeps local edits (delete/restore, title, star, note) on a QUndoStack whose
 * commands never call the API. Owns the store, the undo stack and the worker pool.
 *
 * Usage:
 *   nb2::SessionController session;
 *   session.setClient(std::make_shared<nb2::InteractionsClient>(config));
 *   session.setSettings(nb2::SessionSettings::load(QSettings()));
 *   if (auto opened = session.open(dir); !opened) { ... maybe session.rebuild(dir) if Corrupt ... }
 *   connect(&session, &nb2::SessionController::framesChanged, view, ...);
 *   auto r = session.generate({QStringLiteral("a red fox"), QStringLiteral("1:1")});
 *   if (!r) show(r.error().message);         // invalid input: nothing was added or sent
 *   // ... after turnFinished(r.value()) reports it done:
 *   auto e = session.edit(r.value(), {QStringLiteral("make it blue")});
 *   if (!e && session.graph().hasChildren(r.value())) session.branchFrom(r.value(), {...}); // fork on purpose
 *   session.undoStack()->undo();             // local ops only
 */
class SessionController : public QObject
{
    Q_OBJECT

public:
    explicit SessionController(QObject *parent = nullptr);
    ~SessionController() override; // cancels nothing; waits for running turns to come back

    // ---- setup ----
    void setClient(std::shared_ptr<InteractionsClient> client);
    std::shared_ptr<InteractionsClient> client() const { return m_client; }
    void setSettings(const SessionSettings &settings);
    const SessionSettings &settings() const { return m_settings; }
    /** The prices the session budget (settings().budgetUsd) is checked with; default PriceTable::defaults(). */
    void setPriceTable(const PriceTable &prices) { m_prices = prices; }
    const PriceTable &priceTable() const { return m_prices; }
    /**
     * Budget (the cost ledger's check): refused with ErrorKind::Budget when `turns` more turns
     * of this kind would take the session over settings().budgetUsd. Every turn method calls it
     * before anything is added or sent; a batch (variants, replay) calls it for the whole batch.
     */
    Result<void> checkBudget(FrameKind kind, int turns = 1) const;
    /** Frame::origin of every turn started here: empty for a person (app, CLI), kFrameOriginMcp for the agent bridge. */
    void setTurnOrigin(const QString &origin) { m_turnOrigin = origin; }
    QString turnOrigin() const { return m_turnOrigin; }
    /**
     * A time limit for each turn from the moment it starts, every retry, wait and follow-up
     * get included (nb2lite --timeout); 0: none. A turn past it fails as a timeout (and stays
     * recoverable when the server had already named its id).
     */
    void setTurnTimeoutMs(int ms) { m_turnTimeoutMs = ms; }

    /** Opens/creates the session; with recoverOnOpen, starts recovery of crashed turns. */
    Result<void> open(const QString &dir);
    /** SessionStore::rebuild, then open. */
    Result<void> rebuild(const QString &dir);
    void close();
    bool isOpen() const;

    SessionStore *store() const { return m_store; }
    const FrameGraph &graph() const;
    QUndoStack *undoStack() const { return m_undoStack; }

    // ---- turns (return the new frame's id, or an error with nothing added or sent) ----
    Result<QString> generate(const TurnParams &params);
    /** Continues parent's server id. Fails with Conflict naming branchFrom() if parent has children (unless params.newBranch). */
    Result<QString> edit(const QString &parentId, const TurnParams &params);
    /** edit() that forks a new branch from a parent that already has children; emits branchCreated. */
    Result<QString> branchFrom(const QString &parentId, const TurnParams &params);
    /**
     * Continues a server interaction no frame of this session made (an agent's id from an earlier
     * conversation): a new root Edit frame whose continuedInteractionId is that id, so the history
     * records where it came from. params.aspectRatio is required (the caller learns it, e.g. by a
     * get). There are no stored pixels to re-anchor from: if the server no longer has the id, the
     * frame fails.
     */
    Result<QString> editInteraction(const QString &interactionId, const TurnParams &params);
    /**
     * Edit-local: sends a target image inline. targetFile empty: the parent's stored pixels.
     * parentId empty: a new root (targetFile required; copied into the session).
     */
    Result<QString> editLocal(const QString &parentId, const QString &targetFile, const TurnParams &params);
    /** Style edit: style image from styleFile (copied in); target from targetFile or the parent's pixels. */
    Result<QString> styleEdit(
        const QString &parentId, const QString &targetFile, const QString &styleFile, const TurnParams &params);
    /** A root frame from a local file, done at once, no API call. */
    Result<QString> importImage(const QString &file, const QString &title = {});
    /** importImage() that keeps the file's lineage and may continue its interaction (see ImportOptions). */
    Result<QString> importImage(const QString &file, const ImportOptions &options);
    /**
     * The import frame for a picture a worker has already written into this session's images/
     * (SessionStore::writeImageFile): records it without touching a file, so the GUI thread
     * never writes image bytes. options.title should be set (the picture's name).
     */
    Result<QString> importStoredImage(
        const FrameImage &image, const QDateTime &writtenAt, const ImportOptions &options);
    /**
     * The file half of importImage(): checks the picture (loadImageInput) and writes it into
     * sessionDir's images/ as import_<writtenAt>_… (temp + fsync + rename). Thread-safe and
     * blocking: a worker calls it, then the GUI thread calls importStoredImage() with the result.
     */
    static Result<FrameImage> storeImportFile(
        const QString &sessionDir, const QString &file, const QDateTime &writtenAt);

    /** Cancels a pending frame (queued: at once; running: aborts the call; another process's turn whose process died: recovers it). */
    bool cancel(const QString &frameId);
    /** Re-runs a failed/cancelled/interrupted frame's stored request (same frame, attempts accumulate). */
    Result<QString> retry(const QString &frameId);
    /** Explicitly re-anchors a failed/interrupted edit: re-sends the parent's pixels inline with the same prompt. */
    Result<QString> reAnchor(const QString &frameId);
    /**
     * Crashed turns (pending, owner process gone or a zombie): get() for ids the manifest or the
     * journal knows (left pending when no client is set); others become Interrupted (Retry).
     * Runs on open and, while another process's turn is pending, whenever a check every 2 s
     * finds that process dead. Emits recoveryFinished.
     */
    void recoverInterrupted();

    /** Recomputes every server id's expiry (finish time + the current retention setting), e.g. after the user says the key is free-tier. */
    bool applyRetentionToExistingFrames();

    int runningCount() const { return m_running.size(); }
    int queuedCount() const { return m_queue.size(); }
    bool isIdle() const { return m_running.isEmpty() && m_queue.isEmpty(); }
    /** Blocks (spinning the event loop) until idle or timeout. For the CLI and tests. */
    bool waitForIdle(int timeoutMs);

    /** Frame ids a user-facing reference means: full id, unique prefix, "head" (of the current branch). */
    Result<QString> resolveFrameRef(const QString &ref) const;

    // ---- undoable local operations (QUndoStack; never call the API) ----
    /**
     * Records what was computed from a finished frame's pixels after its turn (the composite of
     * a region/protect edit, the raw image beside it, the drift reading; PrecisionEdit makes
     * them on a worker). Only those fields are taken from `updated`; not undoable (no API call
     * to repeat, and the raw image stays). InvalidInput when the frame is unknown or not done.
     */
    Result<void> recordDerived(const Frame &updated);

    bool setTitle(const QString &frameId, const QString &title);
    bool setStarred(const QString &frameId, bool starred);
    bool setNote(const QString &frameId, const QString &note);
    /** Sets the keep-list in force from this frame down (set false: inherit the ancestors' again); undoable. See keeplist.h. */
    bool setKeepList(const QString &frameId, const QStringList &items, bool set = true);
    /** Folds or unfolds frames (one undo step): folded frames stay in the session, drawn collapsed. */
    bool setFolded(const QStringList &frameIds, bool folded);
    /**
     * Picks one of a batch of variants: stars `chosenId` (and unfolds it) and folds the other
     * `siblings` (never deletes them), as one undo step. False when chosenId is not a frame.
     */
    bool pickVariant(const QString &chosenId, const QStringList &siblings);
    /** Moves the frame and its descendants to the trash. Refused (Conflict) while any of them is pending. */
    Result<void> deleteFrame(const QString &frameId);
    /** Moves the frames only this branch has (see FrameGraph::branchOwnFrames) to the trash. */
    Result<void> deleteBranch(const QString &headId);
    /** Brings the frame's trash group (and trashed ancestors) back. */
    Result<void> restoreFrame(const QString &frameId);
    /** Removes trashed frames for good and deletes their files unless another frame uses them. Not undoable (clears the undo stack). */
    Result<void> emptyTrash();

Q_SIGNALS:
    void opened();
    /** The open session is about to be closed (its turns are over): last writes into its folder go now. */
    void aboutToClose();
    void frameAdded(const QString &frameId);
    /**
     * Frames changed in place (status, image, title, star, trash, restore...): one signal per
     * change of the session, however many frames it touched, so a view refreshes once (one
     * signal per frame: re-dating 5,000 ids for a new key tier froze the window for ~750 ms).
     */
    void framesChanged(const QStringList &frameIds);
    /**
     * Frames left the session for good (the trash emptied, another process's removal): one
     * signal for all of them, so a view refreshes once (per frame, emptying a trash of 1,000
     * frames in a 6,000-frame session refreshed the timeline 1,000 times: 10 s).
     */
    void framesRemoved(const QStringList &frameIds);
    void turnStarted(const QString &frameId);  // the request left the queue
    void turnFinished(const QString &frameId); // reached done/failed/cancelled/interrupted
    void turnFailed(const QString &frameId, const nb2::Error &error);
    /** An attempt of a running turn failed; the client tries again after delayMs (progress for the user). */
    void turnRetrying(const QString &frameId, int attempt, int maxAttempts, int delayMs, const nb2::Error &error);
    void frameReAnchored(const QString &frameId);
    /** A streaming turn sent a draft image (encoded bytes) from its thought step. */
    void draftReceived(const QString &frameId, const QByteArray &imageBytes);
    void branchCreated(const QString &parentId, const QString &frameId);
    /** An input was sent in another type than stored (an animated GIF as its first frame in PNG, ...); note says so. */
    void inputConverted(const QString &frameId, const QString &note);
    void recoveryFinished(int recovered, int interrupted);
    void changedExternally(); // another process wrote the session
    void idle();
    void errorOccurred(const QString &message); // local I/O problems (lock timeout, disk full)

public:
    struct Job;
    struct JobResult;
    /** Used by the undo commands: writes only the user fields (title, star, note, trash) of these frames. */
    bool applyUserFields(const QList<Frame> &frames);
    /** Called (queued) by a worker when streaming reveals a running turn's interaction id. */
    void onInteractionIdLearned(const QString &frameId, const QString &interactionId);

private:
    /** The session-relative path of an input picture, copying it into images/ unless it is already there. */
    Result<QString> inputInSession(const QString &file) const;
    Result<QString> checkParams(const TurnParams &params, FrameKind kind) const;
    Result<QString> checkParentForChild(const QString &parentId, const TurnParams &params, bool needsImage) const;
    Frame newFrame(FrameKind kind, const QString &parentId, const TurnParams &params) const;
    Result<QString> addAndQueue(Frame frame, bool branchCreated);
    /** Fills continuedInteractionId or switches an edit to the re-anchor form; NotFound when auto re-anchor is off. */
    Result<void> prepareEdit(Frame &frame, const Frame &parent) const;
    void pump();
    void launch(const QString &frameId);
    void finishJob(const JobResult &result);
    bool commitFrames(const QList<Frame> &frames, const QString &current = {});
    /** Queues the journal "end" record behind the manifest write that has the result. */
    void endTurn(const Frame &frame);
    /** Queues the journal "frame" records behind the manifest write that has the change (one write). */
    void recordFramesAfterWrite(const QList<Frame> &frames);
    void onStoreChanged(const QStringList &added, const QStringList &changed, const QStringList &removed);
    QDateTime expiryFor(const QDateTime &from) const;
    Result<void> trash(const QStringList &ids, const QString &text);
    bool isTracked(const QString &frameId) const;
    /** A pending turn owned by another process (ownerDead: and its process is gone); stops at the first dead one. */
    bool hasForeignPendingTurn(bool *ownerDead = nullptr) const;
    /** Starts or stops the owner check to match hasForeignPendingTurn(). */
    void watchForeignOwners();
    void checkForeignOwners();

    SessionStore *m_store = nullptr;
    QUndoStack *m_undoStack = nullptr;
    QThreadPool *m_pool = nullptr;
    std::shared_ptr<InteractionsClient> m_client;
    SessionSettings m_settings;
    PriceTable m_prices = PriceTable::defaults();
    QStringList m_queue;                            // pending frame ids waiting for a slot
    QHash<QString, std::shared_ptr<Job>> m_jobs;    // queued or running jobs by frame id
    QHash<QString, std::shared_ptr<Job>> m_running; // the running subset
    QTimer *m_ownerCheck = nullptr;                 // while another process's turn is pending
    bool m_recovering = false;
    int m_recovered = 0;
    int m_interrupted = 0;
    QString m_turnOrigin;
    int m_turnTimeoutMs = 0;
};

} // namespace nb2
