#pragma once

#include "core/common/error.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <functional>

class QMenu;
class QWidget;

namespace nb2 {

class NoticePresenter;
class SessionController;

/**
 * The session's lifecycle, like Tiled's DocumentManager: it owns the SessionController and
 * opens, creates, rebuilds and copies ("Save As") session folders, keeps the recent list
 * and the last session, and flushes the store before anything reads the folder. It never
 * leaves the window without a session: a failed open puts the previous one back.
 */
class SessionManager : public QObject
{
    Q_OBJECT
public:
    SessionManager(NoticePresenter *notices, QWidget *dialogParent);
    ~SessionManager() override;

    SessionController *session() const { return m_session; }
    /** The open session's folder; empty when none. */
    QString dir() const;

    /**
     * Opens (or creates) a session folder, parsing it on the calling (GUI) thread. For tests and
     * callers that need the result at once; the window opens with openInBackground(). On
     * failure nothing is shown; the error says why.
     */
    Result<void> open(const QString &dir);
    /** What openInBackground() calls when the session is open (or failed to open). */
    using OpenDone = std::function<void(const Result<void> &)>;
    /**
     * Opens (or creates) a session folder with its checkpoint and journal parsed on a worker
     * (SessionStore::preload), so the window keeps answering while a big session is read:
     * the open session closes at once (no turn can start until the new one is open: the
     * controller refuses work while no session is open), the status bar says "Opening…",
     * and only the hand-over (graph, model reset, view layout) runs on the GUI thread. A
     * later call supersedes one still parsing. On failure the previous session is reopened
     * the same way. done hears the result (also when refused at once: requests running).
     */
    void openInBackground(const QString &dir, OpenDone done = {});
    /** A session is being parsed by openInBackground(); nothing is open meanwhile. */
    bool isOpening() const { return !m_openingDir.isEmpty(); }
    /**
     * switched() is being emitted by openInBackground(): its listeners may spread the rest of
     * their work over the next passes of the event loop (the window paints in between).
     */
    bool isHandingOver() const { return m_handingOver; }
    /**
     * A background open has taken its session in and its switched() is still to come (the
     * timeline's rows are built, the window paints first): selection changes meanwhile (the
     * model's rows swapped in) are superseded by the hand-over's own a frame or two later.
     */
    bool isHandOverPending() const;
    /**
     * What the window prepares on a worker when openInBackground() hands a session over (the
     * timeline's rows): while ready() is false, switched() waits, and handOverReady() says when
     * it may go on. No gate (the default): switched() follows a frame after the open.
     */
    void setHandOverGate(std::function<bool()> ready);
    /** The gate's work is done: a hand-over waiting for it goes on a frame later. */
    void handOverReady();
    /**
     * Frames of closed sessions freed on a worker (their table's last reference went there), for
     * tests: closing a big session must not free it on the GUI thread.
     */
    static qint64 framesReleasedOnWorker() { return s_framesReleasedOnWorker; }
    /**
     * Recent-list writes (last and recent sessions) made on the settings worker, for tests: each
     * is a locked, fdatasync'ed rewrite of the settings file (3-17 ms), never on the GUI thread.
     */
    static qint64 settingsWritesOnWorker() { return s_settingsWritesOnWorker; }
    /** Waits until the recent-list writes queued so far are on disk and announced (tests; the destructor waits too). */
    void waitForSettingsWritten();
    /** The folder openInBackground() is reading; empty when none. */
    QString openingDir() const { return m_openingDir; }
    /** A new, empty session in the sessions folder, named after the date and time. */
    Result<void> newSession();
    /**
     * Reopens the last session (and its frame), else starts a new one; problems go to the
     * banner. Synchronous: start-up calls it once SessionStore::preload() has parsed the last
     * session on a worker, so what is left here is the hand-over.
     */
    void restoreLast();
    /** Copies the session folder to target on a worker and continues there; sessionCopied() follows. */
    bool saveCopy(const QString &target);
    /** Session writes are queued on the store's writer thread: readers of the folder need them on disk. */
    Result<void> flush();
    /** Fills the "Open Recent" menu (existing folders only). */
    void fillRecentMenu(QMenu *menu);

public Q_SLOTS:
    void newSessionFromMenu();
    void openDialog();
    void saveAsDialog();

    /** Says why dir did not open; the banner offers "Rebuild Session" (journal and images, nothing deleted). */
    void offerRebuild(const QString &dir, const QString &error);

Q_SIGNALS:
    /**
     * openInBackground() is about to take the parsed session in (SessionController::open, on
     * the GUI thread): listeners may ask to build what they derive from it on a worker
     * (TimelineModel::prepareNextReload()).
     */
    void handOverStarting();
    /** About to close the open session (pending retries must go). */
    void aboutToSwitch();
    /** openInBackground() started reading dir (true) or handed over / gave up (false). */
    void openingChanged(bool opening, const QString &dir);
    /** A session is open (again): frameToSelect is where the user left off. */
    void switched(const QString &frameToSelect);
    void sessionCopied(const QString &target, const QString &error);
    /** The recent list changed: emitted once its write (on the settings worker) is done. */
    void recentChanged();

private:
    /**
     * After the parse: opens dir (taking what the worker read); announce: emits switched()
     * now. On failure reopens previous (in the background when asked) so the window is not
     * left without one.
     */
    Result<void> finishOpen(const QString &dir, const QString &previous, bool previousInBackground, bool announce);
    /** Where the user left off in the open session (else its newest head). */
    QString frameToSelect() const;
    /**
     * Remembers dir as the last and most recent session (settings written only when changed),
     * on the settings worker: recentChanged() follows when the list changed.
     */
    void remember(const QString &dir);
    void endOpening();
    /** Closes the open session; a big frame table is freed on a worker. */
    void closeSession();
    static std::atomic<qint64> s_framesReleasedOnWorker;
    static std::atomic<qint64> s_settingsWritesOnWorker;
    /** The last step of a background open: switched() (a frame after the model's rows are in), then done. */
    void announceHandOver(const OpenDone &done);

    NoticePresenter *m_notices;
    QWidget *m_dialogParent;
    SessionController *m_session;
    QString m_openingDir;
    QString m_fallbackDir;         // open before openInBackground() closed it: reopened on failure
    quint64 m_openSerial = 0;      // a newer openInBackground() call supersedes an older one
    quint64 m_pendingHandOver = 0; // the open (serial) taken in whose switched() is still to come
    QElapsedTimer m_gateOpenedAt;  // when handOverReady() came (the switch keeps a frame from it)
    std::function<bool()> m_handOverGate;
    std::function<void()> m_waitingHandOver; // the rest of a hand-over, waiting for the gate
    bool m_handingOver = false;
    // One thread, so the recent list's writes land in the order the sessions were opened; its
    // destructor (and ours) waits for them, so a closed window has written its list.
    QThreadPool m_settingsWriter;
};

} // namespace nb2
