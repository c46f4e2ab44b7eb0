#pragma once

#include "core/common/error.h"
#include "core/session/frame.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

template <typename T> class QFutureWatcher;

namespace nb2 {

class SessionController;

/**
 * What happens to an edit after its turn (issue 13), the same for the window, the CLI and
 * tests: a region/protect edit gets its composite (PrecisionEdit::finish), every other edit
 * its drift reading (PrecisionEdit::measureDrift). Both read and write image files only, so
 * they run on a worker; the reading is then recorded on the controller's thread
 * (SessionController::recordDerived).
 *
 * Attached to a controller (the window), it watches turnFinished and does this for every edit
 * that finishes done, on the global thread pool: the GUI thread never decodes or measures. The
 * CLI calls finishNow() after waiting for its turn, which blocks the calling thread.
 *
 * A measurement still running when its session closes (another one opened, the window gone)
 * is waited for and recorded before the store closes: otherwise its heatmap would be written
 * afterwards into a folder that no longer records it (an orphan file, or a folder being removed).
 *
 * Finishers of one controller share their work: when two ask for the same frame (the
 * window's, for every edit, and a replay's, for its steps), the second waits for the first
 * one's worker, the reading is recorded once, and both announce finished().
 */
class EditFinisher : public QObject
{
    Q_OBJECT
public:
    /** EveryTurn: every edit that finishes in the session (the window). WhenAsked: finishLater() only (a replay). */
    enum class Trigger { EveryTurn, WhenAsked };
    explicit EditFinisher(SessionController *session, QObject *parent = nullptr, Trigger trigger = Trigger::EveryTurn);
    /** Waits for the running measurements and records them while the session is still open. */
    ~EditFinisher() override;

    /**
     * When a "small edit" changed too much (issue 13's gentle warning). A small edit is one
     * that asked for part of the picture:
     *  - a region/protect edit whose raw server image changed more than kOutsideWarning of the
     *    area the user kept out of the selection (the composite hides it, but the server's
     *    conversation now continues from that drifted picture);
     *  - any ordinary edit (edit, edit-local, re-anchor) that changed more than kChangedWarning
     *    of the picture: an edit rarely means "redo most of it", so this is most likely bleed.
     * Generations, imports and style edits (which restyle everything on purpose) never warn.
     */
    static constexpr double kOutsideWarning = 0.30;
    static constexpr double kChangedWarning = 0.60;
    static bool warrantsWarning(const Frame &frame);

    /** A done edit with a parent whose image is known and no drift reading yet. */
    static bool needsFinishing(const Frame &child, const Frame &parent);
    /** The blocking work (worker-safe): composite + drift, or drift only. Touches no frame graph. */
    static Result<Frame> compute(const QString &sessionDir, const Frame &parent, const Frame &child);
    /** compute() + recordDerived() on the calling thread (the CLI). Nothing to do is not an error. */
    static Result<void> finishNow(SessionController &session, const QString &frameId);

    /**
     * When another component composites region/protect edits (the window's PrecisionRunner),
     * finishLater() leaves those frames alone; finishNow() (the CLI) still does both.
     */
    void setRegionEditsHandledElsewhere(bool elsewhere) { m_regionEditsElsewhere = elsewhere; }

    /** Edits being measured now (for tests and the window's idle state). */
    int runningCount() const { return int(m_running.size()); }
    /** Spins the event loop until no edit is being measured or timeoutMs passed. For tests. */
    bool waitForIdle(int timeoutMs);

public Q_SLOTS:
    /** Starts the work for frameId on a worker when it needs it (what turnFinished triggers). */
    void finishLater(const QString &frameId);

Q_SIGNALS:
    /** The frame's drift (and composite) are recorded in the session. */
    void finished(const QString &frameId);
    void failed(const QString &frameId, const nb2::Error &error);

private:
    using Watcher = QFutureWatcher<Result<Frame>>;
    /** Records the worker's result in the open session; its error, or one if dir is not that session's. */
    Result<void> record(const QString &frameId, const QString &dir, const Result<Frame> &updated);
    /** Blocks until every running measurement is done (a queued one runs here) and records each, silently. */
    void finishRunningNow();

    QPointer<SessionController> m_session;
    QHash<QString, Watcher *> m_running;
    bool m_regionEditsElsewhere = false;
};

} // namespace nb2
