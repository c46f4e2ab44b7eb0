#pragma once

#include "core/session/replayqueue.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace nb2 {

class ReplayRunner;
class SessionController;

/**
 * The replay dock: the range chosen on the timeline (Shift+click picks the other end along the
 * branch), "Replay onto…" (ReplayDialog), and the running replay's progress — one row per step
 * of every chain with its state and frame, a progress bar, Pause/Resume and Cancel, and the
 * quota or budget message when the queue waits or stops. Offers to resume a session's
 * unfinished replay (after a crash or a quit). Owns the one ReplayRunner at a time.
 */
class ReplayPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ReplayPanel(SessionController *session, QWidget *parent = nullptr);
    ~ReplayPanel() override;

    /** The range to replay; FROM and TO in either order (the ancestor becomes FROM). False (and says why) when invalid. */
    bool setRange(const QString &a, const QString &b);
    QString rangeFrom() const { return m_from; }
    QString rangeTo() const { return m_to; }
    /** Opens "Replay onto…" for the range (onto the given frame by default) and starts what it plans. */
    void openDialog(const QString &ontoId);
    /**
     * Starts a replay of a plan (what the dialog does on OK), every step at thinkingLevel (empty:
     * each step at its source's level); the error when the budget or the session refuses it.
     */
    Result<void> startReplay(const ReplayPlan &plan, const QString &thinkingLevel = {});
    /** Continues the session's oldest unfinished replay. */
    Result<void> resumeUnfinished();
    ReplayRunner *runner() const { return m_runner; }

    /** Drops the runner without cancelling (the session is closing or switching: resumable later). */
    void detach();
    /** Re-reads the session's unfinished replays (after a session was opened). */
    void refreshUnfinished();

Q_SIGNALS:
    /** A frame row was activated: select it on the timeline. */
    void frameActivated(const QString &frameId);

private:
    Result<void> run(ReplayState state);
    void rebuildRows();
    void updateRow(int chain, int step);
    void updateStatus();

    SessionController *m_session;
    ReplayRunner *m_runner = nullptr; // a child; one at a time
    QString m_from;
    QString m_to;
    QLabel *m_range = nullptr;
    QPushButton *m_replayButton = nullptr;
    QPushButton *m_resumeButton = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QTreeWidget *m_steps = nullptr;
    QPushButton *m_pauseButton = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QString m_waitReason;
};

} // namespace nb2
