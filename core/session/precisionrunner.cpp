#include "core/session/precisionrunner.h"

#include "core/session/sessionstore.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFutureWatcher>
#include <QImageReader>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace nb2 {

PrecisionRunner::PrecisionRunner(SessionController *session, QObject *parent) : QObject(parent), m_session(session)
{
    connect(session, &SessionController::turnFinished, this, &PrecisionRunner::onTurnFinished);
    connect(session, &SessionController::opened, this, &PrecisionRunner::finishAllMissing);
    connect(session, &SessionController::aboutToClose, this, &PrecisionRunner::finishRunningNow);
}

PrecisionRunner::~PrecisionRunner()
{
    // The controller may outlive us: nothing may be written into its folder after we are gone.
    finishRunningNow();
}

void PrecisionRunner::finishRunningNow()
{
    for (QFutureWatcherBase *watcher : std::exchange(m_preparing, {}))
        watcher->waitForFinished(); // its mask and crop are written now; the lambda reports it unsent
    const auto compositing = std::exchange(m_compositing, {});
    SessionController *s = m_session;
    for (auto it = compositing.cbegin(); it != compositing.cend(); ++it) {
        it.value()->waitForFinished();
        const Result<Frame> updated = it.value()->result();
        if (updated && s && s->isOpen())
            (void)s->recordDerived(updated.value()); // silently: the session is closing
    }
}

Result<int> PrecisionRunner::start(const PrecisionRequest &request)
{
    SessionController *s = m_session;
    if (!s || !s->isOpen())
        return Error::make(ErrorKind::InvalidInput, tr("No session is open. Open or create a session first."));
    const Frame parent = s->graph().value(request.parentId);
    if (!parent.isDone() || parent.image.isNull())
        return Error::make(ErrorKind::InvalidInput,
            tr("%1 has no finished image to select from; select a finished frame.").arg(request.parentId));
    if (request.mode == RegionMode::None)
        return Error::make(ErrorKind::InvalidInput, tr("Choose Edit region or Protect for the selection."));
    if (request.mask.isNull() || request.mask.boundingRect().isEmpty())
        return Error::make(ErrorKind::InvalidInput,
            tr("The selection is empty; select the area first (M, L or B), or clear it (Ctrl+D)."));
    if (const QSize size(parent.image.width, parent.image.height); size.isValid() && request.mask.size() != size)
        return Error::make(ErrorKind::InvalidInput,
            tr("The selection was made on a picture of another size; clear it (Ctrl+D) and select again."));

    const int ticket = m_nextTicket++;
    const QString dir = s->store()->dir();
    auto *watcher = new QFutureWatcher<Result<PreparedRegion>>(this);
    m_preparing.insert(watcher);
    connect(watcher, &QFutureWatcher<Result<PreparedRegion>>::finished, this, [this, watcher, ticket, request, dir] {
        watcher->deleteLater();
        m_preparing.remove(watcher);
        Result<PreparedRegion> prepared = watcher->result();
        if (!m_session || !m_session->isOpen() || m_session->store()->dir() != dir) {
            Q_EMIT failed(
                ticket, Error::make(ErrorKind::Cancelled, tr("The session was closed before the edit was sent.")));
            return;
        }
        if (!prepared) {
            Q_EMIT failed(ticket, prepared.error());
            return;
        }
        Result<QString> sent = send(request, prepared.value());
        if (!sent)
            Q_EMIT failed(ticket, sent.error());
        else
            Q_EMIT started(ticket, sent.value());
    });
    watcher->setFuture(QtConcurrent::run([dir, parent, request] {
        return PrecisionEdit::prepare(dir, parent, request.mode, request.mask, request.feather);
    }));
    return ticket;
}

Result<QString> PrecisionRunner::send(const PrecisionRequest &request, const PreparedRegion &prepared)
{
    SessionController *s = m_session;
    TurnParams params = request.params;
    params.regionEdit = prepared.edit;
    if (request.mode == RegionMode::Region) {
        // The crop is the picture to edit, sent inline at the ratio it was widened to.
        params.aspectRatio = prepared.edit.cropAspect;
        return s->editLocal(request.parentId, s->store()->absolutePath(prepared.cropFile), params);
    }
    if (request.inlineParent)
        return s->editLocal(request.parentId, {}, params);
    return params.newBranch ? s->branchFrom(request.parentId, params) : s->edit(request.parentId, params);
}

void PrecisionRunner::onTurnFinished(const QString &frameId)
{
    composite(frameId);
}

void PrecisionRunner::composite(const QString &frameId)
{
    SessionController *s = m_session;
    if (!s || !s->isOpen() || m_compositing.contains(frameId))
        return;
    // Checked before copying: on open every done frame of the session is asked (10,000 copies).
    const Frame *candidate = s->graph().frame(frameId);
    if (!candidate || candidate->regionEdit.isEmpty() || !candidate->isDone() || candidate->image.isNull()
        || !candidate->regionEdit.rawFile.isEmpty())
        return;
    const Frame child = *candidate;
    const Frame parent = s->graph().value(child.parentId);
    if (parent.image.isNull())
        return;
    const QString dir = s->store()->dir();
    auto *watcher = new QFutureWatcher<Result<Frame>>(this);
    m_compositing.insert(frameId, watcher);
    connect(watcher, &QFutureWatcher<Result<Frame>>::finished, this, [this, watcher, frameId, dir] {
        watcher->deleteLater();
        if (m_compositing.value(frameId) != watcher)
            return; // recorded when the session closed
        m_compositing.remove(frameId);
        const Result<Frame> updated = watcher->result();
        if (!m_session || !m_session->isOpen() || m_session->store()->dir() != dir)
            return; // another session now: made when this one opens again
        Result<void> recorded = updated ? m_session->recordDerived(updated.value()) : Result<void>(updated.error());
        if (!recorded) {
            Q_EMIT compositeFailed(frameId, recorded.error());
            return;
        }
        Q_EMIT composited(frameId);
    });
    // Compositing and the drift reading read and write PNGs: never on the GUI thread.
    watcher->setFuture(QtConcurrent::run([dir, parent, child] { return PrecisionEdit::finish(dir, parent, child); }));
}

void PrecisionRunner::finishAllMissing()
{
    SessionController *s = m_session;
    if (!s || !s->isOpen())
        return;
    // One pass over the table, asking only frames with a region edit (few, often none): this
    // runs in the pass that takes an opened session in, where listing every done frame's id and
    // looking each up again took 1-9 ms of the GUI thread at 10,000 frames.
    QStringList missing;
    for (const Frame &f : s->graph().frames()) {
        if (!f.regionEdit.isEmpty() && f.regionEdit.rawFile.isEmpty() && f.isDone())
            missing.append(f.id);
    }
    for (const QString &id : std::as_const(missing))
        composite(id); // checks the rest (image, parent) and starts the worker
}

bool PrecisionRunner::waitForIdle(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!isIdle()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(2);
    }
    return true;
}

} // namespace nb2
