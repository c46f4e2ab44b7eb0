#include "core/session/editfinisher.h"

#include "core/session/precisionedit.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFutureWatcher>
#include <QHash>
#include <QPair>
#include <QtConcurrent/QtConcurrentRun>

#include <iterator>
#include <utility>

namespace nb2 {

namespace {

/**
 * The measurements running for each session, by controller and "folder/frame": the window
 * has two finishers on one controller (DriftWatch's for every edit, a replay's for its steps),
 * and both ask for a replayed step. The second waits for the first one's worker instead of
 * decoding both pictures again; whichever hears first records the reading, and the other
 * finds it recorded. Used on the controllers' thread only.
 */
using MeasurementKey = QPair<const SessionController *, QString>;
QHash<MeasurementKey, QFuture<Result<Frame>>> &runningMeasurements()
{
    static QHash<MeasurementKey, QFuture<Result<Frame>>> running;
    return running;
}

MeasurementKey measurementKey(const SessionController *session, const QString &dir, const QString &frameId)
{
    return {session, dir + QLatin1Char('\n') + frameId};
}

/** Forgets a measurement once it has finished (whoever started it). */
void forgetIfFinished(const MeasurementKey &key)
{
    auto &running = runningMeasurements();
    if (const auto it = running.constFind(key); it != running.cend() && it->isFinished())
        running.erase(it);
}

/** Forgets every finished measurement of a session's controller (at its close). */
void forgetFinished(const SessionController *session)
{
    auto &running = runningMeasurements();
    for (auto it = running.begin(); it != running.end();)
        it = it.key().first == session && it->isFinished() ? running.erase(it) : std::next(it);
}

} // namespace

EditFinisher::EditFinisher(SessionController *session, QObject *parent, Trigger trigger)
    : QObject(parent), m_session(session)
{
    if (trigger == Trigger::EveryTurn)
        connect(session, &SessionController::turnFinished, this, &EditFinisher::finishLater);
    connect(session, &SessionController::aboutToClose, this, &EditFinisher::finishRunningNow);
}

EditFinisher::~EditFinisher()
{
    // The controller may outlive us (the window's children go in any order): what runs now is
    // recorded while its session is open, and nothing is written into the folder after we are gone.
    finishRunningNow();
}

bool EditFinisher::warrantsWarning(const Frame &frame)
{
    if (frame.drift.isEmpty())
        return false;
    if (!frame.regionEdit.isEmpty())
        return frame.drift.outsideChanged > kOutsideWarning;
    switch (frame.kind) {
    case FrameKind::Edit:
    case FrameKind::EditLocal:
    case FrameKind::ReAnchor:
        return frame.drift.changed > kChangedWarning;
    case FrameKind::Generate:
    case FrameKind::StyleEdit:
    case FrameKind::Import:
        break;
    }
    return false;
}

bool EditFinisher::needsFinishing(const Frame &child, const Frame &parent)
{
    return child.isDone() && !child.image.isNull() && !child.parentId.isEmpty() && child.kind != FrameKind::Import
        && child.drift.isEmpty() && parent.id == child.parentId && !parent.image.isNull();
}

Result<Frame> EditFinisher::compute(const QString &sessionDir, const Frame &parent, const Frame &child)
{
    return child.regionEdit.isEmpty() ? PrecisionEdit::measureDrift(sessionDir, parent, child)
                                      : PrecisionEdit::finish(sessionDir, parent, child);
}

Result<void> EditFinisher::finishNow(SessionController &session, const QString &frameId)
{
    const Frame child = session.graph().value(frameId);
    const Frame parent = session.graph().value(child.parentId);
    if (!needsFinishing(child, parent))
        return {};
    Result<Frame> updated = compute(session.store()->dir(), parent, child);
    if (!updated)
        return updated.error();
    return session.recordDerived(updated.value());
}

void EditFinisher::finishLater(const QString &frameId)
{
    if (!m_session || !m_session->store() || m_running.contains(frameId))
        return;
    const Frame child = m_session->graph().value(frameId);
    const Frame parent = m_session->graph().value(child.parentId);
    if (!needsFinishing(child, parent) || (m_regionEditsElsewhere && !child.regionEdit.isEmpty()))
        return;
    const QString dir = m_session->store()->dir();
    const MeasurementKey key = measurementKey(m_session, dir, frameId);
    forgetIfFinished(key);
    QFuture<Result<Frame>> measurement = runningMeasurements().value(key);
    if (!measurement.isValid()) { // nobody measures it yet: start the worker
        measurement = QtConcurrent::run([dir, parent, child] { return compute(dir, parent, child); });
        runningMeasurements().insert(key, measurement);
    }
    auto *watcher = new Watcher(this);
    m_running.insert(frameId, watcher);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, frameId, dir, key] {
        watcher->deleteLater();
        forgetIfFinished(key);
        if (m_running.value(frameId) != watcher)
            return; // already recorded when the session closed
        m_running.remove(frameId);
        const Result<Frame> updated = watcher->result();
        if (!updated) {
            Q_EMIT failed(frameId, updated.error());
            return;
        }
        if (const Result<void> recorded = record(frameId, dir, updated); !recorded) {
            Q_EMIT failed(frameId, recorded.error());
            return;
        }
        Q_EMIT finished(frameId);
    });
    watcher->setFuture(measurement);
}

Result<void> EditFinisher::record(const QString &frameId, const QString &dir, const Result<Frame> &updated)
{
    if (!updated)
        return updated.error();
    // A measurement is recorded before its session closes (finishRunningNow), so a reading
    // for another folder here is a bug, not a race: say so rather than write it anywhere.
    if (!m_session || !m_session->isOpen() || m_session->store()->dir() != dir)
        return Error::make(ErrorKind::Cancelled,
            QStringLiteral("The session of frame %1 was closed before its change was recorded.").arg(frameId));
    if (const Frame *now = m_session->graph().frame(frameId); now && !now->drift.isEmpty())
        return {}; // another finisher of this session recorded the same measurement first
    return m_session->recordDerived(updated.value());
}

void EditFinisher::finishRunningNow()
{
    // The session is closing (or we are going): no warning or notice is shown for it, the
    // readings are only recorded. waitForFinished() runs a measurement that has not started yet
    // on this thread, so none is left to write after the store is closed.
    const QHash<QString, Watcher *> running = std::exchange(m_running, {});
    const QString dir = m_session && m_session->isOpen() ? m_session->store()->dir() : QString();
    for (auto it = running.cbegin(); it != running.cend(); ++it) {
        it.value()->waitForFinished();
        if (!dir.isEmpty())
            (void)record(it.key(), dir, it.value()->result());
    }
    forgetFinished(m_session);
}

bool EditFinisher::waitForIdle(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!m_running.isEmpty() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return m_running.isEmpty();
}

} // namespace nb2
