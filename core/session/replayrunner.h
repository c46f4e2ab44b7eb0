#pragma once

#include "core/common/error.h"
#include "core/session/frame.h"
#include "core/session/replayqueue.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>

class QTimer;

namespace nb2 {

class ReplayRecordWriter;
class EditFinisher;
class SessionController;

/**
 * Runs a replay (ReplayState) on an open session: the queue of its chains. Each chain's steps
 * go in order (step i edits step i-1's frame; a photo is imported first); chains run side by
 * side, at most the session's concurrencyLimit at once. Turns are the controller's ordinary
 * edits, tagged replay_of/replay_run, so they are journaled, recovered and shown like any
 * other. Quota-aware: a 429 the client waits out, or one it gave up on, pauses the whole
 * queue for the server's retry time (the refused turn is then retried: a 429 created
 * nothing); a zero-limit quota stops the run with the explanation. The state file is saved
 * the moment a step's frame exists and whenever a step changes, on a writer thread
 * (ReplayRecordWriter: the GUI thread never waits for the disk), so after a crash or a quit a
 * new runner on the same state (start() again) sends no step twice: done steps are kept,
 * pending ones are left to the controller's recovery (a get of the known id), frames made
 * after the record was last written are found again by their replay_run tag (why that is
 * enough: see markSent()). Destroying the runner, finishing the run and closing the session
 * wait for the record's last write. Every done step gets its drift
 * reading against its own parent (measured off the GUI thread). A photo chain's picture is
 * checked and copied into images/ on a worker (SessionController::storeImportFile); the GUI
 * thread only records the import frame. While it is imported the chain's first step holds one
 * of the concurrencyLimit slots (isImporting()); pause and a stop let the import finish and
 * record the frame (saved at once: a resume never imports it again), cancel (and a runner
 * destroyed meanwhile) records nothing and removes the copy. Owns only its timers; the session
 * must outlive it.
 */
class ReplayRunner : public QObject
{
    Q_OBJECT

public:
    ReplayRunner(SessionController *session, ReplayState state, QObject *parent = nullptr);
    ~ReplayRunner() override; // sends nothing more; turns already sent finish in the session; the record is written

    /**
     * Checks the budget for every step not sent yet (Budget error, nothing sent or imported),
     * takes stock of what an earlier run made, saves the state and starts sending.
     */
    Result<void> start();
    /** No new step is sent (running ones finish); resume() goes on. Saved, so a quit stays paused. */
    void pause();
    void resume();
    /** Cancels the running turns and every step not sent; the run is over. */
    void cancel();

    const ReplayState &state() const { return m_state; }
    bool isPaused() const { return m_userPaused || isRateLimited(); }
    bool isRateLimited() const;
    bool isOver() const { return m_state.isOver() || m_state.status == ReplayStatus::Stopped; }
    /** The chain's photo is being checked and copied on a worker: its first step is on its way. */
    bool isImporting(int chain) const { return m_importing.contains(chain); }
    int importsInFlight() const { return int(m_importing.size()); }

    /** Waits until the record on disk is the state now (a reader of the replay folder is next). */
    void flushRecord();
    /** Writes the record (a test puts a slow or failing disk behind it). */
    ReplayRecordWriter *recordWriter() const { return m_writer; }

    /** A 429 that no waiting will fix: the quota's limit is 0 (free tier for an image model, or a spend cap hit). */
    static bool isZeroQuota(const Error &error);

Q_SIGNALS:
    void stepChanged(int chain, int step);
    /** The queue waits: for the server's retry time (delayMs > 0) or for resume() (delayMs < 0). */
    void paused(int delayMs, const QString &reason);
    void resumed();
    /** The run cannot go on (zero quota, budget): the reason names the fix. */
    void stopped(const nb2::Error &error);
    /** Every chain is done, failed or cancelled (and every drift reading recorded). */
    void finished();

private:
    void pump();
    void submit(int chain, int step);
    void startImport(int chain, int step);
    void onImported(
        int chain, int step, const QString &sessionDir, const Result<FrameImage> &stored, const QDateTime &writtenAt);
    void reconcile();
    bool adopt(int chain, int step);
    void markSent(int chain, int step, const QString &frameId);
    void setStep(int chain, int step, ReplayStepState state, const QString &error = {});
    void onTurnFinished(const QString &frameId);
    void onTurnEnded(const QString &frameId);
    void onTurnRetrying(const QString &frameId, int delayMs, const Error &error);
    void pauseForRateLimit(int delayMs, const Error &error);
    void endRateLimit();
    void stop(const Error &error);
    void measureDrift(const QString &frameId);
    quint64 save();
    void onRecordSettled();
    bool awaitsRecord(int chain) const;
    void checkFinished();
    int inFlight() const;
    std::pair<int, int> stepOf(const QString &frameId) const;

    QPointer<SessionController> m_session;
    ReplayState m_state;
    QHash<QString, Error> m_lastError; // turnFailed comes right after turnFinished
    QSet<QString> m_heldForRateLimit;  // refused by a 429: retried when the pause ends
    QSet<int> m_importing;             // chains whose photo a worker is importing
    bool m_userPaused = false;
    bool m_started = false;
    bool m_finishedEmitted = false;
    QDateTime m_rateLimitedUntil;
    QTimer *m_rateTimer = nullptr;
    ReplayRecordWriter *m_writer = nullptr;
    EditFinisher *m_finisher = nullptr; // the drift of every replayed edit, on a worker
    // Chain -> the save whose record names its start frame: its first step is not sent before
    // that record is on disk (a resume after a kill finds every frame from there; see markSent()).
    QHash<int, quint64> m_startUnrecorded;
    bool m_closing = false; // in the destructor: a settled record sends nothing more
};

} // namespace nb2
