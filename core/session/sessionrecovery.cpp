// SessionController: cancel, retry and re-anchor of a turn, recovery of turns a crash or another
// process left pending, the retention of old frames, and waiting for idle.
#include "core/session/sessioncontroller.h"
#include "core/session/sessionjob.h"

#include "core/api/imageinput.h"
#include "core/api/inputpreparation.h"
#include "core/api/interactionsclient.h"
#include "core/session/costledger.h"
#include "core/session/framecommands.h"
#include "core/session/keeplist.h"
#include "core/session/ownerprocess.h"
#include "core/session/sessionpaths.h"
#include "core/session/sessionstore.h"
#include "core/session/turnplanner.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QSize>
#include <QThreadPool>
#include <QTimer>
#include <QUndoStack>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>

#include <optional>

namespace nb2 {

using sessionjob::currentPid;

bool SessionController::cancel(const QString &frameId)
{
    if (m_queue.contains(frameId)) {
        m_queue.removeAll(frameId);
        m_jobs.remove(frameId);
        Frame f = graph().value(frameId);
        if (f.id.isEmpty())
            return false;
        f.status = FrameStatus::Cancelled;
        f.finishedAt = QDateTime::currentDateTimeUtc();
        f.ownerPid = 0;
        commitFrames({f});
        recordFramesAfterWrite({f});
        Q_EMIT framesChanged({frameId});
        Q_EMIT turnFinished(frameId);
        pump();
        return true;
    }
    if (auto job = m_running.value(frameId)) {
        job->cancel->cancel();
        return true;
    }
    // Another process's turn: if that process is gone, recover it now instead of waiting for
    // the next owner check (a live owner's turn is not ours to cancel).
    const Frame *fp = graph().frame(frameId);
    if (fp && fp->isPending() && fp->ownerPid != currentPid() && !isOwnerProcessAlive(fp->ownerPid)) {
        recoverInterrupted();
        return true;
    }
    return false;
}

Result<QString> SessionController::retry(const QString &frameId)
{
    const Frame *fp = graph().frame(frameId);
    if (!fp)
        return Error::make(
            ErrorKind::InvalidInput, QStringLiteral("There is no frame %1 in this session.").arg(frameId));
    if (!isValidStatusTransition(fp->status, FrameStatus::Pending) || isTracked(frameId))
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Frame %1 is %2; only failed, cancelled or interrupted frames can be retried.")
                .arg(frameId, frameStatusName(fp->status)));
    if (fp->kind == FrameKind::Import)
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("An imported frame has nothing to retry."));
    if (!m_client)
        return Error::make(ErrorKind::Auth, QStringLiteral("No API client is configured (set an API key)."));
    Frame f = *fp;
    const bool recovers = f.isRecoverable(); // fetched by its id first (re-sent only if the server lost it)
    if (!recovers) {                         // a get of a known id costs nothing; a re-send does
        if (const Result<void> allowed
            = CostLedger(graph(), m_prices).checkBudget(m_settings.budgetUsd, f.kind, f.model);
            !allowed)
            return allowed.error();
    }
    auto job = std::make_shared<Job>();
    job->frameId = f.id;
    if (f.isRecoverable()) {
        // The server may have finished it: get it first, and send anew only if it is gone.
        job->recoverId = f.interactionId;
        job->createIfGone = true;
    } else {
        // A root edit (editInteraction) continues a server id, not a frame: nothing to check here.
        if ((f.kind == FrameKind::Edit || f.kind == FrameKind::ReAnchor) && !f.parentId.isEmpty()) {
            if (auto r = checkParentForChild(f.parentId, TurnParams {f.prompt, {}, {}, true, {}}, true); !r)
                return r;
            if (f.kind == FrameKind::Edit) {
                if (const Result<void> prepared = prepareEdit(f, graph().value(f.parentId)); !prepared)
                    return prepared.error();
            }
        }
        f.interactionId.clear();
    }
    f.status = FrameStatus::Pending;
    f.error = {};
    f.finishedAt = {};
    f.ownerPid = currentPid();
    if (!commitFrames({f}))
        return Error::make(ErrorKind::Io, QStringLiteral("Could not write the session manifest."));
    m_jobs.insert(f.id, job);
    m_queue.append(f.id);
    Q_EMIT framesChanged({f.id});
    pump();
    return f.id;
}

Result<QString> SessionController::reAnchor(const QString &frameId)
{
    const Frame *fp = graph().frame(frameId);
    if (!fp)
        return Error::make(
            ErrorKind::InvalidInput, QStringLiteral("There is no frame %1 in this session.").arg(frameId));
    if (fp->kind != FrameKind::Edit && fp->kind != FrameKind::ReAnchor)
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Frame %1 is not an edit of a parent frame; there is nothing to re-anchor.").arg(frameId));
    if (!isValidStatusTransition(fp->status, FrameStatus::Pending) || isTracked(frameId))
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Frame %1 is %2; only failed, cancelled or interrupted edits can be re-anchored.")
                .arg(frameId, frameStatusName(fp->status)));
    if (!m_client)
        return Error::make(ErrorKind::Auth, QStringLiteral("No API client is configured (set an API key)."));
    if (auto r = checkParentForChild(fp->parentId, TurnParams {fp->prompt, {}, {}, true, {}}, true); !r)
        return r;
    if (const Result<void> allowed
        = CostLedger(graph(), m_prices).checkBudget(m_settings.budgetUsd, FrameKind::ReAnchor, fp->model);
        !allowed)
        return allowed.error();
    Frame f = *fp;
    f.kind = FrameKind::ReAnchor;
    f.reAnchored = true;
    f.continuedInteractionId.clear();
    f.interactionId.clear();
    f.inputImages = {graph().value(f.parentId).image.file};
    f.status = FrameStatus::Pending;
    f.error = {};
    f.finishedAt = {};
    f.ownerPid = currentPid();
    if (!commitFrames({f}))
        return Error::make(ErrorKind::Io, QStringLiteral("Could not write the session manifest."));
    m_jobs.insert(f.id, std::make_shared<Job>());
    m_jobs[f.id]->frameId = f.id;
    m_queue.append(f.id);
    Q_EMIT framesChanged({f.id});
    pump();
    return f.id;
}

void SessionController::recoverInterrupted()
{
    if (!isOpen())
        return;
    m_recovered = 0;
    m_interrupted = 0;
    QList<Frame> interrupted;
    QStringList toFetch;
    std::optional<Journal::Replay> journal;       // read once, only if a dead turn's id is not in the manifest
    const QList<Frame> frames = graph().frames(); // shared, not copied; stays valid while commits change the graph
    for (const Frame &known : frames) {
        if (isTracked(known.id))
            continue;
        if (!known.isPending()) {
            // Interrupted or cut off earlier, with a known id: still the server's to give back.
            if (known.isRecoverable() && m_client)
                toFetch.append(known.id);
            continue;
        }
        Frame f = known; // only pending frames are copied (on open: every frame of the session)
        if (f.ownerPid != currentPid() && isOwnerProcessAlive(f.ownerPid))
            continue; // another live process is running this turn
        if (f.interactionId.isEmpty()) {
            // The owner may have died between journalling the id its stream revealed and the
            // manifest write that would have carried it: the journal has it, and get is free.
            if (!journal)
                journal = Journal::replay(m_store->journalPath());
            const QString journalled = journal->interactionIds.value(f.id);
            if (!journalled.isEmpty()) {
                f.interactionId = journalled;
                commitFrames({f});
            }
        }
        if (!f.interactionId.isEmpty() && !m_client)
            continue; // recoverable by get: leave it for an opening that has a client (key)
        if (f.interactionId.isEmpty()) {
            Frame g = f;
            g.status = FrameStatus::Interrupted;
            g.finishedAt = QDateTime::currentDateTimeUtc();
            g.ownerPid = 0;
            g.error.kind = errorKindName(ErrorKind::Network);
            g.error.message = QStringLiteral("The program stopped before the server confirmed this request. Nothing "
                                             "was re-sent; retry to send it.");
            interrupted.append(g);
        } else {
            toFetch.append(f.id);
        }
    }
    if (!interrupted.isEmpty()) {
        commitFrames(interrupted);
        QStringList ids;
        for (const Frame &g : std::as_const(interrupted)) {
            endTurn(g);
            ids.append(g.id);
        }
        Q_EMIT framesChanged(ids);
        for (const QString &id : std::as_const(ids))
            Q_EMIT turnFinished(id);
    }
    m_interrupted = interrupted.size();
    for (const QString &id : std::as_const(toFetch)) {
        Frame f = graph().value(id);
        f.status = FrameStatus::Pending; // a recoverable frame goes back to pending while it is fetched
        f.ownerPid = currentPid();       // ours now: another process must not recover it twice
        commitFrames({f});
        auto job = std::make_shared<Job>();
        job->frameId = id;
        job->recoverId = f.interactionId;
        m_jobs.insert(id, job);
        m_queue.append(id);
    }
    m_recovering = true;
    pump();
}

bool SessionController::hasForeignPendingTurn(bool *ownerDead) const
{
    bool any = false;
    // By id: a graph of frames on demand builds only the pending ones (a CLI turn asks at open).
    for (const QString &id : graph().withStatus(FrameStatus::Pending, FrameGraph::IncludeTrashed)) {
        const Frame &f = *graph().frame(id);
        if (isTracked(f.id) || f.ownerPid == currentPid())
            continue;
        any = true;
        if (ownerDead && !isOwnerProcessAlive(f.ownerPid)) {
            *ownerDead = true;
            return true;
        }
    }
    return any;
}

void SessionController::watchForeignOwners()
{
    // Another window or nb2lite may run a turn of this session and die with it (kill -9, a
    // crash): while such a turn is listed, look every couple of seconds whether its owner lives.
    if (isOpen() && hasForeignPendingTurn()) {
        if (!m_ownerCheck->isActive())
            m_ownerCheck->start();
    } else {
        m_ownerCheck->stop();
    }
}

void SessionController::checkForeignOwners()
{
    bool ownerDead = false;
    if (isOpen() && hasForeignPendingTurn(&ownerDead) && ownerDead)
        recoverInterrupted(); // get for known ids, "interrupted" (Retry) for the rest
    watchForeignOwners();
}

bool SessionController::applyRetentionToExistingFrames()
{
    QList<Frame> changed;
    for (const Frame &f : graph().frames()) {
        // An import's id came from its lineage record: when it was made is unknown.
        if (f.interactionId.isEmpty() || !f.finishedAt.isValid() || !f.isDone() || f.kind == FrameKind::Import)
            continue;
        Frame g = f;
        g.idExpiresAt = expiryFor(f.finishedAt);
        if (g.idExpiresAt != f.idExpiresAt)
            changed.append(g);
    }
    if (changed.isEmpty())
        return true;
    if (!commitFrames(changed))
        return false;
    QStringList ids;
    ids.reserve(changed.size());
    for (const Frame &f : std::as_const(changed))
        ids.append(f.id);
    Q_EMIT framesChanged(ids);
    return true;
}

bool SessionController::waitForIdle(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    // processEvents(flags, ms) drops WaitForMoreEvents (Qt polls with a zero timeout in a loop),
    // so waiting that way spun this thread at 100 % of a core while the turn's worker needed
    // it: on 2 cores that was most of a CLI turn's overhead. Block in the event loop instead;
    // the turn's own events wake it, the tick bounds each wait so the deadline is seen.
    QTimer tick;
    tick.start(50);
    while (!isIdle()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    // Idle also means on disk: callers (the CLI, tests) read the folder next.
    if (isOpen())
        m_store->flush();
    return true;
}

} // namespace nb2
