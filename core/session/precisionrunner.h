#pragma once

#include "core/common/error.h"
#include "core/edit/editmask.h"
#include "core/session/frameedit.h"
#include "core/session/precisionedit.h"
#include "core/session/sessioncontroller.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>

class QFutureWatcherBase;
template <typename T> class QFutureWatcher;

namespace nb2 {

/** How a precision turn is sent once its mask (and crop) are written. */
struct PrecisionRequest {
    QString parentId;
    RegionMode mode = RegionMode::Region;
    EditMask mask;     // parent pixels; white may change, black is protected (Protect: the inverted selection)
    int feather = 4;   // PrecisionEdit::kDefaultFeather
    TurnParams params; // prompt, thinking, newBranch; aspect and regionEdit are filled in here
    /** Protect only: send the parent's pixels inline (a local picture, or a composite) instead of its id. */
    bool inlineParent = false;
};

/**
 * The window's side of a precision edit (issue 13), the same steps as the CLI's
 * app/cli/precisioncommand.cpp, but never blocking the GUI thread: start() writes the mask
 * and the crop (PrecisionEdit::prepare) on a worker, then starts the turn on the GUI thread —
 * Region: the crop inline (edit-local form) at the crop's ratio; Protect: the whole picture
 * by interaction id (or inline when asked). When a region/protect turn finishes, the
 * composite and the drift reading are made on a worker (PrecisionEdit::finish) and committed
 * with SessionController::recordDerived(); the raw server image stays beside the PNG
 * composite. Composites a crash left unmade are finished when a session opens. Plain edits
 * are not touched here (their drift is the drift meter's hook). Work still running when the
 * session closes is waited for first, so no file is written into a folder after it closed.
 */
class PrecisionRunner : public QObject
{
    Q_OBJECT
public:
    explicit PrecisionRunner(SessionController *session, QObject *parent = nullptr);
    ~PrecisionRunner() override;

    /**
     * Checks the request at once (a done parent with a picture, a non-empty mask of its size),
     * then prepares on a worker and sends; the outcome is reported by started() or failed()
     * with the returned ticket. Refusals found at once come back as an error, nothing sent.
     */
    Result<int> start(const PrecisionRequest &request);

    /** Frames whose composite is being made now. */
    bool isCompositing(const QString &frameId) const { return m_compositing.contains(frameId); }
    /** Waits (spinning the event loop) until no preparation or composite is running. For tests and the CLI. */
    bool waitForIdle(int timeoutMs);
    bool isIdle() const { return m_compositing.isEmpty() && m_preparing.isEmpty(); }

    /** Finishes a done region/protect frame whose composite is missing (also called for each finished turn). */
    void composite(const QString &frameId);

Q_SIGNALS:
    void started(int ticket, const QString &frameId);
    void failed(int ticket, const nb2::Error &error);
    /** The composite and drift of a region/protect frame are recorded (framesChanged was emitted too). */
    void composited(const QString &frameId);
    void compositeFailed(const QString &frameId, const nb2::Error &error);

private:
    void onTurnFinished(const QString &frameId);
    void finishAllMissing();
    Result<QString> send(const PrecisionRequest &request, const PreparedRegion &prepared);
    /**
     * At session close (and when we go): blocks until every worker is done (one not started
     * yet runs here), records the composites made, and leaves the prepared edits unsent
     * (their failed() comes when their watcher reports, with the session already closed).
     */
    void finishRunningNow();

    QPointer<SessionController> m_session;
    QHash<QString, QFutureWatcher<Result<Frame>> *> m_compositing;
    QSet<QFutureWatcherBase *> m_preparing;
    int m_nextTicket = 1;
};

} // namespace nb2
