#include "core/session/editfinisher.h"

#include "core/session/precisionedit.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace nb2 {

EditFinisher::EditFinisher(SessionController *session, QObject *parent) : QObject(parent), m_session(session)
{
    connect(session, &SessionController::turnFinished, this, &EditFinisher::finishLater);
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
    m_running.insert(frameId);
    auto *watcher = new QFutureWatcher<Result<Frame>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, frameId, dir] {
        watcher->deleteLater();
        m_running.remove(frameId);
        const Result<Frame> updated = watcher->result();
        // Another session may have been opened meanwhile: the reading belongs to the old one.
        if (!m_session || !m_session->store() || m_session->store()->dir() != dir)
            return;
        if (!updated) {
            Q_EMIT failed(frameId, updated.error());
            return;
        }
        if (const Result<void> recorded = m_session->recordDerived(updated.value()); !recorded) {
            Q_EMIT failed(frameId, recorded.error());
            return;
        }
        Q_EMIT finished(frameId);
    });
    watcher->setFuture(QtConcurrent::run([dir, parent, child] { return compute(dir, parent, child); }));
}

bool EditFinisher::waitForIdle(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!m_running.isEmpty() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return m_running.isEmpty();
}

} // namespace nb2
