// SessionController: setup, open and close, and the life of a turn once it is asked for:
// queuing it (budget, pending frame), running it on a worker, and recording its result
// (frame, manifest, journal). The turn requests that make the pending frame are in
// sessionturnrequests.cpp; cancel/retry/recovery in sessionrecovery.cpp; local edits in
// sessionframeops.cpp.
#include "core/session/sessioncontroller.h"
#include "core/session/sessionjob.h"

#include "core/api/inputpreparation.h"
#include "core/api/interactionsclient.h"
#include "core/session/costledger.h"
#include "core/session/framecommands.h"
#include "core/session/ownerprocess.h"
#include "core/session/sessionpaths.h"
#include "core/session/sessionstore.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFile>
#include <QFutureWatcher>
#include <QThreadPool>
#include <QTimer>
#include <QUndoStack>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#include <optional>

namespace nb2 {

namespace {
/** How often a session with another process's pending turn checks that the process still lives. */
constexpr int kOwnerCheckMs = 2000;

} // namespace

using sessionjob::currentPid;

SessionController::SessionController(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<nb2::Error>();
    m_store = new SessionStore(this);
    m_undoStack = new QUndoStack(this);
    m_pool = new QThreadPool(this);
    m_pool->setMaxThreadCount(2 * m_settings.concurrencyLimit + 1); // see pump(): turns writing their image
    connect(m_store, &SessionStore::changedExternally, this, &SessionController::onStoreChanged);
    connect(m_store, &SessionStore::writeFailed, this, &SessionController::errorOccurred);
    m_ownerCheck = new QTimer(this);
    m_ownerCheck->setInterval(kOwnerCheckMs);
    connect(m_ownerCheck, &QTimer::timeout, this, &SessionController::checkForeignOwners);
}

SessionController::~SessionController()
{
    close();
}

void SessionController::setClient(std::shared_ptr<InteractionsClient> client)
{
    m_client = std::move(client);
}

void SessionController::setSettings(const SessionSettings &settings)
{
    m_settings = settings;
    m_pool->setMaxThreadCount(2 * qMax(1, settings.concurrencyLimit) + 1);
    m_store->setLockTimeoutMs(settings.lockTimeoutMs);
    pump();
}

Result<void> SessionController::open(const QString &dir)
{
    close();
    if (Result<void> opened = m_store->open(dir, SessionStore::OpenMode::CreateIfMissing); !opened)
        return opened;
    m_undoStack->clear();
    Q_EMIT opened();
    if (m_settings.recoverOnOpen)
        recoverInterrupted();
    watchForeignOwners();
    return {};
}

Result<void> SessionController::rebuild(const QString &dir)
{
    close();
    if (Result<void> rebuilt = m_store->rebuild(dir); !rebuilt)
        return rebuilt;
    m_undoStack->clear();
    Q_EMIT opened();
    if (m_settings.recoverOnOpen)
        recoverInterrupted();
    watchForeignOwners();
    return {};
}

void SessionController::close()
{
    // Queued turns stay pending on disk and come back as "interrupted" (never re-sent unasked).
    m_queue.clear();
    for (auto it = m_jobs.begin(); it != m_jobs.end();)
        it = m_running.contains(it.key()) ? std::next(it) : m_jobs.erase(it);
    while (!m_running.isEmpty())
        waitForIdle(60000);
    if (isOpen())
        Q_EMIT aboutToClose();
    m_ownerCheck->stop();
    m_store->close();
    m_undoStack->clear();
}

bool SessionController::isOpen() const
{
    return m_store->isOpen();
}

const FrameGraph &SessionController::graph() const
{
    return m_store->graph();
}

bool SessionController::isTracked(const QString &frameId) const
{
    return m_jobs.contains(frameId);
}

QDateTime SessionController::expiryFor(const QDateTime &from) const
{
    return from.addSecs(qint64(m_settings.retentionDays()) * 24 * 3600);
}

Result<void> SessionController::checkBudget(FrameKind kind, int turns) const
{
    const QString model = m_client ? m_client->config().model : QString();
    return CostLedger(graph(), m_prices).checkBudget(m_settings.budgetUsd, kind, model, turns);
}

Result<QString> SessionController::addAndQueue(Frame frame, bool forks)
{
    // Last stop before anything is written or sent: a turn over the budget leaves no trace.
    if (const Result<void> allowed
        = CostLedger(graph(), m_prices).checkBudget(m_settings.budgetUsd, frame.kind, frame.model);
        !allowed)
        return allowed.error();
    if (!m_store->commitAsync({frame}, {}, frame.id))
        return Error::make(ErrorKind::Io, QStringLiteral("No session is open."));
    auto job = std::make_shared<Job>();
    job->frameId = frame.id;
    m_jobs.insert(frame.id, job);
    m_queue.append(frame.id);
    Q_EMIT frameAdded(frame.id);
    if (forks)
        Q_EMIT branchCreated(frame.parentId, frame.id);
    pump();
    return frame.id;
}

void SessionController::pump()
{
    // Every caller queues a frame right after committing it as pending, then pumps: the write
    // generation now is one that lists it. A queued turn waits for that write only, not for the
    // results other turns committed since (a turn ending would otherwise hold up the next one
    // until its result was on disk, though the next turn does not depend on it).
    for (const QString &id : std::as_const(m_queue)) {
        if (const std::shared_ptr<Job> job = m_jobs.value(id); job && job->listedGeneration == 0)
            job->listedGeneration = m_store->queuedGeneration();
    }
    // The limit counts turns talking to the server. A turn whose answer has arrived gives its slot
    // back while it makes its image durable (networkDone): the next request need not wait for
    // that fsync. Its frame still becomes done only after the image is on disk (finishJob).
    // The pool has room for the limit's worth of such turns besides the ones in flight.
    const auto inFlight = [this] {
        return std::count_if(m_running.cbegin(), m_running.cend(), [](const auto &job) { return !job->slotReleased; });
    };
    while (!m_queue.isEmpty() && inFlight() < qMax(1, m_settings.concurrencyLimit))
        launch(m_queue.takeFirst());
    if (isIdle()) {
        if (m_recovering) {
            m_recovering = false;
            Q_EMIT recoveryFinished(m_recovered, m_interrupted);
        }
        Q_EMIT idle();
    }
}

void SessionController::launch(const QString &frameId)
{
    std::shared_ptr<Job> job = m_jobs.value(frameId);
    const Frame *fp = graph().frame(frameId);
    if (!job || !fp || !fp->isPending()) {
        m_jobs.remove(frameId);
        return;
    }
    Frame f = *fp;
    job->kind = f.kind;
    job->prompt = f.promptSent.isEmpty() ? f.prompt : f.promptSent;
    job->aspectRatio = f.aspectRatio;
    job->thinkingLevel = f.thinkingLevel;
    job->previousInteractionId = f.continuedInteractionId;
    job->inputFiles.clear();
    job->setupError.reset();
    // Checked again at use: what is sent inline must be a file of this session.
    for (const QString &rel : std::as_const(f.inputImages)) {
        const Result<QString> file
            = SessionPaths::resolveInside(m_store->dir(), rel, QStringLiteral("input of frame %1").arg(f.id));
        if (!file)
            job->setupError = file.error();
        job->inputFiles.append(file ? file.value() : QString());
    }
    const Frame parent = graph().value(f.parentId);
    job->canReAnchor = f.kind == FrameKind::Edit && m_settings.autoReAnchor && !parent.image.isNull();
    if (job->canReAnchor) {
        const Result<QString> file = SessionPaths::resolveInside(
            m_store->dir(), parent.image.file, QStringLiteral("image of frame %1").arg(parent.id));
        job->reAnchorFile = file ? file.value() : QString();
        job->canReAnchor = file.ok();
    }
    job->sessionDir = m_store->dir();
    job->stream = m_settings.streamTurns;
    job->deadline = m_turnTimeoutMs > 0 ? QDeadlineTimer(m_turnTimeoutMs) : QDeadlineTimer(QDeadlineTimer::Forever);
    job->client = m_client;
    job->journal = &m_store->journal();
    job->controller = this;
    // The worker appends the journal "begin" record (after the manifest lists the frame) before sending.
    job->beginFrame = f;
    job->manifestWritten
        = m_store->waiterFor(job->listedGeneration > 0 ? job->listedGeneration : m_store->queuedGeneration());
    job->networkDone = [this, frameId] {
        QMetaObject::invokeMethod(
            this,
            [this, frameId] {
                const std::shared_ptr<Job> running = m_running.value(frameId);
                if (running && !running->slotReleased) {
                    running->slotReleased = true;
                    pump();
                }
            },
            Qt::QueuedConnection);
    };
    m_running.insert(frameId, job);
    auto *watcher = new QFutureWatcher<JobResult>(this);
    connect(watcher, &QFutureWatcher<JobResult>::finished, this, [this, watcher] {
        const JobResult result = watcher->result();
        watcher->deleteLater();
        finishJob(result);
    });
    watcher->setFuture(QtConcurrent::run(m_pool, sessionjob::runTurnJob, job));
    Q_EMIT turnStarted(frameId);
}

void SessionController::onInteractionIdLearned(const QString &frameId, const QString &interactionId)
{
    if (!m_running.contains(frameId))
        return;
    const Frame *fp = graph().frame(frameId);
    if (!fp || !fp->isPending() || fp->interactionId == interactionId)
        return;
    Frame f = *fp;
    f.interactionId = interactionId;
    if (commitFrames({f}))
        Q_EMIT framesChanged({frameId});
}

void SessionController::finishJob(const JobResult &result)
{
    std::shared_ptr<Job> job = m_running.take(result.frameId);
    m_jobs.remove(result.frameId);
    for (const QString &note : result.notes)
        Q_EMIT inputConverted(result.frameId, note);
    const Frame *fp = graph().frame(result.frameId);
    if (!fp) {
        pump();
        return;
    }
    Frame f = *fp;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    f.attempts += result.attempts;
    f.finishedAt = now;
    f.ownerPid = 0;
    if (result.ok) {
        f.status = FrameStatus::Done;
        f.error = {};
        f.image = result.image;
        f.interactionId = result.interaction.id;
        f.idExpiresAt = f.interactionId.isEmpty() ? QDateTime() : expiryFor(now);
        f.modelText = result.interaction.text;
        f.usage = result.interaction.usage;
        if (!result.interaction.model.isEmpty())
            f.model = result.interaction.model;
        if (result.reAnchored) {
            const QString goneId = f.continuedInteractionId;
            f.kind = FrameKind::ReAnchor;
            f.reAnchored = true;
            f.continuedInteractionId.clear();
            f.inputImages = {graph().value(f.parentId).image.file};
            // An imported lineage id has no known expiry: once the server says it is gone, drop
            // it so later edits of that frame re-anchor at once (the lineage still records it).
            const Frame parent = graph().value(f.parentId);
            if (parent.kind == FrameKind::Import && !goneId.isEmpty() && parent.interactionId == goneId) {
                Frame p = parent;
                p.interactionId.clear();
                p.idExpiresAt = {};
                if (commitFrames({p})) {
                    recordFramesAfterWrite({p});
                    Q_EMIT framesChanged({p.id});
                }
            }
        }
        if (result.recovery)
            ++m_recovered;
    } else if (result.error.kind == ErrorKind::Cancelled) {
        f.status = FrameStatus::Cancelled;
        f.error = FrameError::fromError(result.error);
    } else if (result.recovery) {
        f.status = FrameStatus::Interrupted;
        f.error = FrameError::fromError(result.error);
        if (result.error.kind == ErrorKind::NotFound)
            f.interactionId.clear(); // gone on the server: a retry has to send it again
        ++m_interrupted;
    } else {
        f.status = FrameStatus::Failed;
        f.error = FrameError::fromError(result.error);
        // An answer cut after the id arrived: the server may finish it; recover/retry get it.
        if (!result.error.api.interactionId.isEmpty())
            f.interactionId = result.error.api.interactionId;
        if (result.error.kind == ErrorKind::NotFound && f.kind == FrameKind::Edit && !f.parentId.isEmpty())
            f.error.message = QStringLiteral("The server no longer has the parent's interaction %1 and automatic "
                                             "re-anchoring is off. Re-anchor this frame to send the parent's stored "
                                             "image instead (continuity may differ).")
                                  .arg(f.continuedInteractionId);
        if (!result.error.api.modelText.isEmpty())
            f.modelText = result.error.api.modelText;
    }
    if (!commitFrames({f}))
        Q_EMIT errorOccurred(QStringLiteral("Could not record the result of frame %1 in the manifest.").arg(f.id));
    endTurn(f);
    Q_EMIT framesChanged({f.id});
    if (f.reAnchored && f.isDone())
        Q_EMIT frameReAnchored(f.id);
    Q_EMIT turnFinished(f.id);
    if (f.status != FrameStatus::Done) {
        Error e = result.error;
        Q_EMIT turnFailed(f.id, e);
    }
    pump();
}

void SessionController::endTurn(const Frame &frame)
{
    // On the writer, after the manifest write that has the result ("end" follows the manifest).
    Journal *journal = &m_store->journal();
    m_store->enqueue([journal, frame] { return journal->endTurn(frame); });
}

void SessionController::recordFramesAfterWrite(const QList<Frame> &frames)
{
    // One task and one fdatasync'ed write for all: Delete Branch of 1,000 frames queued 1,000
    // writes (an open, a write and an fdatasync each), and a turn that finished meanwhile
    // waited behind them for its own write.
    Journal *journal = &m_store->journal();
    m_store->enqueue([journal, frames] { return journal->recordFrames(frames); });
}

bool SessionController::commitFrames(const QList<Frame> &frames, const QString &current)
{
    // The graph changes at once; the manifest write runs on the store's writer (errors come back by writeFailed).
    if (m_store->commitAsync(frames, {}, current))
        return true;
    Q_EMIT errorOccurred(QStringLiteral("No session is open."));
    return false;
}

Result<void> SessionController::recordDerived(const Frame &updated)
{
    const Frame *current = graph().frame(updated.id);
    if (!current || !current->isDone())
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Frame %1 is not a finished frame of this session.").arg(updated.id));
    Frame f = *current;
    f.image = updated.image;
    f.regionEdit = updated.regionEdit;
    f.drift = updated.drift;
    if (!commitFrames({f}))
        return Error::make(ErrorKind::Io, QStringLiteral("Could not write the session manifest."));
    recordFramesAfterWrite({f});
    Q_EMIT framesChanged({f.id});
    return {};
}

Result<QString> SessionController::resolveFrameRef(const QString &ref) const
{
    if (ref.isEmpty())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("Empty frame reference."));
    if (ref == QLatin1String("head")) {
        QString start = m_store->currentFrameId();
        if (start.isEmpty() || !graph().contains(start) || graph().frame(start)->isTrashed()) {
            const QStringList heads = graph().heads();
            if (heads.isEmpty())
                return Error::make(ErrorKind::InvalidInput, QStringLiteral("The session has no frames yet."));
            start = heads.last();
        }
        return graph().headFrom(start);
    }
    const QStringList matches = graph().matchPrefix(ref);
    if (matches.isEmpty())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("No frame matches \"%1\".").arg(ref));
    if (matches.size() > 1)
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("\"%1\" is ambiguous: it matches %2.").arg(ref, matches.join(QStringLiteral(", "))));
    return matches.first();
}

void SessionController::onStoreChanged(const QStringList &added, const QStringList &changed, const QStringList &removed)
{
    for (const QString &id : added)
        Q_EMIT frameAdded(id);
    if (!changed.isEmpty())
        Q_EMIT framesChanged(changed);
    if (!removed.isEmpty())
        Q_EMIT framesRemoved(removed);
    Q_EMIT changedExternally();
    watchForeignOwners();
}

} // namespace nb2
