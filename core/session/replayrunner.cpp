#include "core/session/replayrunner.h"

#include "core/api/interactionsclient.h"
#include "core/session/costledger.h"
#include "core/session/precisionedit.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QRegularExpression>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace nb2 {

namespace {

struct Text {
    Q_DECLARE_TR_FUNCTIONS(ReplayRunner)
};

/** When the server names no retry time: wait this long before trying the refused turn again. */
constexpr int kDefaultRateLimitPauseMs = 10000;

/** What the import worker hands back: the copy in images/ (or why there is none) and when it was made. */
struct StoredPhoto {
    Result<FrameImage> image;
    QDateTime writtenAt;
};

/** A copy in images/ that no frame will name (the run was cancelled, the runner or session went away). */
void removeUnrecordedCopy(const QString &sessionDir, const FrameImage &image)
{
    if (image.file.startsWith(QLatin1String("images/import_"))) // only ever a copy storeImportFile made
        QFile::remove(QDir(sessionDir).filePath(image.file));
}

} // namespace

ReplayRunner::ReplayRunner(SessionController *session, ReplayState state, QObject *parent)
    : QObject(parent), m_session(session), m_state(std::move(state)), m_rateTimer(new QTimer(this))
{
    m_rateTimer->setSingleShot(true);
    connect(m_rateTimer, &QTimer::timeout, this, &ReplayRunner::endRateLimit);
    connect(session, &SessionController::turnFinished, this, &ReplayRunner::onTurnFinished);
    connect(session, &SessionController::turnFailed, this,
        [this](const QString &frameId, const Error &error) { m_lastError.insert(frameId, error); });
    connect(session, &SessionController::turnRetrying, this,
        [this](const QString &frameId, int, int, int delayMs, const Error &error) {
            onTurnRetrying(frameId, delayMs, error);
        });
}

ReplayRunner::~ReplayRunner() = default;

bool ReplayRunner::isZeroQuota(const Error &error)
{
    if (error.kind != ErrorKind::RateLimited)
        return false;
    // Google's words for a quota whose limit is zero: "... Quota exceeded for metric: ..., limit: 0".
    const QString text = error.api.serverMessage.isEmpty() ? error.message : error.api.serverMessage;
    static const QRegularExpression zero(QStringLiteral("limit:\\s*0(?!\\d)"));
    return text.contains(zero);
}

bool ReplayRunner::isRateLimited() const
{
    return m_rateLimitedUntil.isValid() && m_rateLimitedUntil > QDateTime::currentDateTimeUtc();
}

Result<void> ReplayRunner::start()
{
    if (!m_session || !m_session->isOpen())
        return Error::make(ErrorKind::InvalidInput, Text::tr("No session is open."));
    if (m_state.isOver())
        return Error::make(ErrorKind::InvalidInput,
            Text::tr("Replay %1 is %2; there is nothing to resume.").arg(m_state.id, replayStatusName(m_state.status)));
    const QString model = m_session->client() ? m_session->client()->config().model : m_state.model;
    // The whole batch against the budget before the first import or turn: nothing sent when refused.
    if (const int unsent = m_state.unsentSteps(); unsent > 0) {
        const Result<void> allowed = CostLedger(m_session->graph(), m_session->priceTable())
                                         .checkBudget(m_session->settings().budgetUsd, FrameKind::Edit, model, unsent);
        if (!allowed)
            return allowed;
    }
    m_started = true;
    if (m_state.status == ReplayStatus::Stopped)
        m_state.stopReason.clear();
    m_userPaused = m_state.status == ReplayStatus::Paused;
    if (!m_userPaused)
        m_state.status = ReplayStatus::Running;
    reconcile();
    save();
    pump();
    checkFinished();
    return {};
}

void ReplayRunner::pause()
{
    if (isOver() || m_userPaused)
        return;
    m_userPaused = true;
    m_state.status = ReplayStatus::Paused;
    save();
    Q_EMIT paused(-1, Text::tr("Paused: running steps finish, no new step is sent."));
}

void ReplayRunner::resume()
{
    if (isOver() || !m_userPaused)
        return;
    m_userPaused = false;
    m_state.status = ReplayStatus::Running;
    save();
    Q_EMIT resumed();
    pump();
}

void ReplayRunner::cancel()
{
    if (m_state.isOver())
        return;
    m_state.status = ReplayStatus::Cancelled;
    m_rateTimer->stop();
    for (int c = 0; c < m_state.chains.size(); ++c) {
        ReplayChain &chain = m_state.chains[c];
        for (int s = 0; s < chain.steps.size(); ++s) {
            ReplayStepRun &run = chain.steps[s];
            if (run.state == ReplayStepState::Sent && m_session)
                m_session->cancel(run.frameId);
            if (run.state == ReplayStepState::Sent || run.state == ReplayStepState::Waiting) {
                run.state = ReplayStepState::Cancelled;
                Q_EMIT stepChanged(c, s);
            }
        }
    }
    save();
    checkFinished();
}

int ReplayRunner::inFlight() const
{
    int n = int(m_importing.size()); // an import holds its chain's slot, as the turn after it will
    for (const ReplayChain &c : m_state.chains) {
        for (const ReplayStepRun &s : c.steps)
            n += s.state == ReplayStepState::Sent ? 1 : 0;
    }
    return n;
}

std::pair<int, int> ReplayRunner::stepOf(const QString &frameId) const
{
    if (frameId.isEmpty())
        return {-1, -1};
    for (int c = 0; c < m_state.chains.size(); ++c) {
        const QList<ReplayStepRun> &steps = m_state.chains.at(c).steps;
        for (int s = 0; s < steps.size(); ++s) {
            if (steps.at(s).frameId == frameId)
                return {c, s};
        }
    }
    return {-1, -1};
}

void ReplayRunner::save()
{
    if (!m_session || !m_session->store())
        return;
    ++m_saves;
    if (const Result<void> saved = saveReplayState(m_session->store()->dir(), m_state); !saved)
        Q_EMIT m_session->errorOccurred(saved.error().message);
}

void ReplayRunner::setStep(int chain, int step, ReplayStepState state, const QString &error)
{
    ReplayStepRun &run = m_state.chains[chain].steps[step];
    run.state = state;
    run.error = error;
    save();
    Q_EMIT stepChanged(chain, step);
}

void ReplayRunner::markSent(int chain, int step, const QString &frameId)
{
    ReplayStepRun &run = m_state.chains[chain].steps[step];
    run.frameId = frameId;
    run.state = ReplayStepState::Sent;
    run.error.clear();
    save(); // before the event loop runs again: the record names the frame before its answer can arrive
    Q_EMIT stepChanged(chain, step);
}

/** A frame this run made for (chain, step) that the record does not name: made just before a crash. */
bool ReplayRunner::adopt(int chain, int step)
{
    const ReplayChain &c = m_state.chains.at(chain);
    const QString parent = c.parentOf(step);
    if (parent.isEmpty())
        return false;
    const QString source = m_state.plan.steps.at(step).sourceFrameId;
    for (const QString &childId : m_session->graph().children(parent, FrameGraph::IncludeTrashed)) {
        const Frame *f = m_session->graph().frame(childId);
        if (f && f->replayRun == m_state.id && f->replayOf == source && stepOf(childId).first < 0) {
            m_state.chains[chain].steps[step].frameId = childId;
            return true;
        }
    }
    return false;
}

void ReplayRunner::reconcile()
{
    const FrameGraph &g = m_session->graph();
    for (int c = 0; c < m_state.chains.size(); ++c) {
        ReplayChain &chain = m_state.chains[c];
        const bool nothingMade = std::all_of(
            chain.steps.cbegin(), chain.steps.cend(), [](const ReplayStepRun &s) { return s.frameId.isEmpty(); });
        if (chain.target.kind == ReplayTarget::Kind::Photo && !chain.startFrameId.isEmpty() && nothingMade
            && !g.contains(chain.startFrameId))
            chain.startFrameId.clear(); // the record named the import, the crash took the frame: import it once more
        if (chain.target.kind == ReplayTarget::Kind::Photo && chain.startFrameId.isEmpty())
            continue; // not imported yet: pump() does it
        for (int s = 0; s < chain.steps.size(); ++s) {
            ReplayStepRun &run = chain.steps[s];
            if (run.state == ReplayStepState::Cancelled
                || (run.state == ReplayStepState::Failed && run.frameId.isEmpty()))
                run.state = ReplayStepState::Waiting; // a resumed run goes on where it was cut
            if (run.frameId.isEmpty() && !adopt(c, s))
                break; // the first step never made: pump() sends it, and the rest after it
            const Frame *f = g.frame(run.frameId);
            if (!f) { // recorded, but the session never got it (lost with a crash before the write)
                run.frameId.clear();
                run.state = ReplayStepState::Waiting;
                break;
            }
            if (f->isDone()) {
                run.state = ReplayStepState::Done;
                if (f->drift.isEmpty())
                    measureDrift(f->id);
                continue;
            }
            if (f->isPending()) {
                run.state = ReplayStepState::Sent; // running here, or being recovered (a get of its id)
                break;
            }
            // Failed, cancelled or interrupted: retry() fetches a turn the server knows before it
            // would ever send it again; one it never named is sent anew.
            const Result<QString> retried = m_session->retry(f->id);
            if (retried) {
                run.state = ReplayStepState::Sent;
            } else {
                run.state = ReplayStepState::Failed;
                run.error = retried.error().message;
            }
            break;
        }
    }
}

void ReplayRunner::pump()
{
    if (!m_started || !m_session || isOver() || m_userPaused || isRateLimited())
        return;
    const int limit = qMax(1, m_session->settings().concurrencyLimit);
    for (int c = 0; c < m_state.chains.size() && inFlight() < limit && !isOver(); ++c) {
        const ReplayChain &chain = m_state.chains.at(c);
        if (chain.isFinished() || m_importing.contains(c))
            continue; // done, or its photo is on its way (never imported twice)
        const int next = chain.nextStep();
        if (next >= chain.steps.size() || chain.steps.at(next).state != ReplayStepState::Waiting)
            continue; // done, or its step is on its way
        submit(c, next);
    }
}

void ReplayRunner::submit(int chain, int step)
{
    ReplayChain &c = m_state.chains[chain];
    if (c.target.kind == ReplayTarget::Kind::Photo && c.startFrameId.isEmpty()) {
        startImport(chain, step); // onImported() goes on from here
        return;
    }
    if (adopt(chain, step)) { // made before a crash, after the record was last written
        save();
        reconcile();
        Q_EMIT stepChanged(chain, step);
        return;
    }
    const ReplayStep &source = m_state.plan.steps.at(step);
    TurnParams params;
    params.prompt = source.prompt;
    params.thinkingLevel = m_state.thinkingLevel.isEmpty() ? source.thinkingLevel : m_state.thinkingLevel;
    params.newBranch = step == 0; // the first step forks a new branch at the target: on purpose
    params.replayOf = source.sourceFrameId;
    params.replayRun = m_state.id;
    const QString parentId = c.parentOf(step);
    const Frame *parent = m_session->graph().frame(parentId);
    if (!parent) {
        setStep(chain, step, ReplayStepState::Failed, Text::tr("Frame %1 is gone from the session.").arg(parentId));
        checkFinished();
        return;
    }
    // A photo (or any frame without a usable server id) is sent inline; a frame the server
    // still has is continued by its id.
    const Result<QString> started
        = parent->hasUsableId() ? m_session->edit(parentId, params) : m_session->editLocal(parentId, QString(), params);
    if (!started) {
        if (started.error().kind == ErrorKind::Budget) {
            stop(started.error());
            return;
        }
        setStep(chain, step, ReplayStepState::Failed, started.error().message);
        checkFinished();
        return;
    }
    markSent(chain, step, started.value());
}

/**
 * Reading a 15 MB camera photo, hashing it and copying it with an fsync takes hundreds of ms:
 * on a worker. The watcher belongs to the session (which outlives this runner), so a runner
 * destroyed meanwhile still has its unrecorded copy removed.
 */
void ReplayRunner::startImport(int chain, int step)
{
    m_importing.insert(chain);
    Q_EMIT stepChanged(chain, step); // shown as importing
    const QString dir = m_session->store()->dir();
    const QString file = m_state.chains.at(chain).target.photoFile;
    const QDateTime writtenAt = QDateTime::currentDateTimeUtc();
    auto *watcher = new QFutureWatcher<StoredPhoto>(m_session.data());
    const QPointer<ReplayRunner> self(this);
    connect(watcher, &QFutureWatcher<StoredPhoto>::finished, watcher, [self, watcher, chain, step, dir] {
        watcher->deleteLater();
        const StoredPhoto stored = watcher->result();
        if (self)
            self->onImported(chain, step, dir, stored.image, stored.writtenAt);
        else if (stored.image)
            removeUnrecordedCopy(dir, stored.image.value());
    });
    watcher->setFuture(QtConcurrent::run([dir, file, writtenAt] {
        return StoredPhoto {SessionController::storeImportFile(dir, file, writtenAt), writtenAt};
    }));
}

void ReplayRunner::onImported(
    int chain, int step, const QString &sessionDir, const Result<FrameImage> &stored, const QDateTime &writtenAt)
{
    m_importing.remove(chain);
    ReplayChain &c = m_state.chains[chain];
    const bool sameSession = m_session && m_session->isOpen() && m_session->store()->dir() == sessionDir;
    if (m_state.status == ReplayStatus::Cancelled || !sameSession) {
        // Cancelled (or the session changed) while the photo was copied: nothing more appears
        // in the session, and no record is written into another session's folder.
        if (stored)
            removeUnrecordedCopy(sessionDir, stored.value());
        Q_EMIT stepChanged(chain, step);
        checkFinished();
        return;
    }
    Result<QString> recorded = stored.error();
    if (stored) {
        ImportOptions options;
        options.title = QFileInfo(c.target.photoFile).fileName();
        options.continueChain = false;
        recorded = m_session->importStoredImage(stored.value(), writtenAt, options);
        if (!recorded)
            removeUnrecordedCopy(sessionDir, stored.value());
    }
    if (!recorded) {
        // Unreadable, not an image, too large, disk full: this chain fails, the others go on.
        setStep(chain, step, ReplayStepState::Failed, recorded.error().message);
        pump();
        checkFinished();
        return;
    }
    // The frame is named in the record in this same pass, so a resume (or a crash after it)
    // never imports the photo again; paused or stopped meanwhile, its first step waits. The
    // record's save fsyncs, and waits behind the other imports' fsyncs: once per pass, so when
    // pump() sends a step (markSent saves the whole state, this frame included) it is not
    // saved twice.
    c.startFrameId = recorded.value();
    const int savesBefore = m_saves;
    pump();
    if (m_saves == savesBefore)
        save();
    Q_EMIT stepChanged(chain, step);
    checkFinished();
}

void ReplayRunner::onTurnFinished(const QString &frameId)
{
    const auto [chain, step] = stepOf(frameId);
    if (chain < 0 || !m_session)
        return;
    const Frame *f = m_session->graph().frame(frameId);
    if (f && f->isDone()) {
        m_lastError.remove(frameId);
        setStep(chain, step, ReplayStepState::Done);
        measureDrift(frameId);
        pump();
        checkFinished();
        return;
    }
    // turnFailed follows turnFinished: look at the error once it has arrived.
    QMetaObject::invokeMethod(
        this, [this, frameId] { onTurnEnded(frameId); }, Qt::QueuedConnection);
}

void ReplayRunner::onTurnEnded(const QString &frameId)
{
    const auto [chain, step] = stepOf(frameId);
    if (chain < 0 || !m_session)
        return;
    const Frame f = m_session->graph().value(frameId);
    Error error = m_lastError.take(frameId);
    if (error.kind == ErrorKind::None)
        error = Error::make(errorKindFromName(f.error.kind), f.error.message);
    if (m_state.isOver() || f.status == FrameStatus::Cancelled) {
        setStep(chain, step, ReplayStepState::Cancelled);
        checkFinished();
        return;
    }
    if (error.kind == ErrorKind::RateLimited) {
        if (isZeroQuota(error)) {
            setStep(chain, step, ReplayStepState::Waiting);
            stop(error);
            return;
        }
        m_heldForRateLimit.insert(frameId); // a 429 created nothing: the same frame is sent again after the pause
        pauseForRateLimit(error.api.retryAfterMs > 0 ? error.api.retryAfterMs : kDefaultRateLimitPauseMs, error);
        return;
    }
    setStep(chain, step, ReplayStepState::Failed, f.error.message.isEmpty() ? error.message : f.error.message);
    pump();
    checkFinished();
}

void ReplayRunner::onTurnRetrying(const QString &frameId, int delayMs, const Error &error)
{
    if (stepOf(frameId).first < 0 || error.kind != ErrorKind::RateLimited)
        return;
    if (isZeroQuota(error)) {
        stop(error);
        return;
    }
    pauseForRateLimit(delayMs, error); // the client waits out this turn; the queue waits with it
}

void ReplayRunner::pauseForRateLimit(int delayMs, const Error &error)
{
    const QDateTime until = QDateTime::currentDateTimeUtc().addMSecs(qMax(0, delayMs));
    if (!m_rateLimitedUntil.isValid() || until > m_rateLimitedUntil)
        m_rateLimitedUntil = until;
    const qint64 left = QDateTime::currentDateTimeUtc().msecsTo(m_rateLimitedUntil);
    m_rateTimer->start(int(qMax<qint64>(0, left)));
    Q_UNUSED(error)
    Q_EMIT paused(
        int(left), Text::tr("Rate limited (429): the queue waits %1 s, as the server asked.").arg((left + 999) / 1000));
}

void ReplayRunner::endRateLimit()
{
    m_rateLimitedUntil = {};
    if (isOver())
        return;
    Q_EMIT resumed();
    const QSet<QString> held = std::exchange(m_heldForRateLimit, {});
    for (const QString &frameId : held) {
        const auto [chain, step] = stepOf(frameId);
        if (chain < 0)
            continue;
        const Result<QString> retried = m_session->retry(frameId);
        if (!retried)
            setStep(chain, step, ReplayStepState::Failed, retried.error().message);
    }
    pump();
    checkFinished();
}

void ReplayRunner::stop(const Error &error)
{
    if (isOver())
        return;
    m_state.status = ReplayStatus::Stopped;
    if (isZeroQuota(error))
        m_state.stopReason
            = Text::tr("Stopped: the API quota for this model is 0 (the server said: %1). Image models have no "
                       "free tier: enable billing for the key's project, or use another key, then resume the "
                       "replay.")
                  .arg(error.api.serverMessage.isEmpty() ? error.message : error.api.serverMessage);
    else
        m_state.stopReason = error.message;
    m_rateTimer->stop();
    // What is still running would meet the same refusal: cancel it (resume sends it again).
    for (const ReplayChain &c : std::as_const(m_state.chains)) {
        for (const ReplayStepRun &s : c.steps) {
            if (s.state == ReplayStepState::Sent && m_session)
                m_session->cancel(s.frameId);
        }
    }
    save();
    Error reported = error;
    reported.message = m_state.stopReason;
    Q_EMIT stopped(reported);
}

void ReplayRunner::measureDrift(const QString &frameId)
{
    const Frame child = m_session->graph().value(frameId);
    const Frame parent = m_session->graph().value(child.parentId);
    if (!child.isDone() || child.image.isNull() || parent.image.isNull() || !child.regionEdit.isEmpty())
        return;
    ++m_driftJobs;
    auto *watcher = new QFutureWatcher<Result<Frame>>(this);
    connect(watcher, &QFutureWatcher<Result<Frame>>::finished, this, [this, watcher] {
        watcher->deleteLater();
        --m_driftJobs;
        const Result<Frame> measured = watcher->result();
        if (measured && m_session) {
            if (const Result<void> recorded = m_session->recordDerived(measured.value()); !recorded)
                Q_EMIT m_session->errorOccurred(recorded.error().message);
        }
        checkFinished();
    });
    const QString dir = m_session->store()->dir();
    // Decoding two full pictures: never on the GUI thread.
    watcher->setFuture(
        QtConcurrent::run([dir, parent, child] { return PrecisionEdit::measureDrift(dir, parent, child); }));
}

void ReplayRunner::checkFinished()
{
    if (m_finishedEmitted || !m_started || m_driftJobs > 0 || !m_importing.isEmpty()
        || m_state.status == ReplayStatus::Stopped)
        return;
    int failed = 0;
    for (const ReplayChain &c : std::as_const(m_state.chains)) {
        if (!c.isFinished())
            return;
        for (const ReplayStepRun &s : c.steps) {
            if (s.state == ReplayStepState::Sent)
                return;
            failed += s.state == ReplayStepState::Failed || s.state == ReplayStepState::Cancelled ? 1 : 0;
        }
    }
    if (m_state.status != ReplayStatus::Cancelled) {
        // A step that failed or was cancelled on its own keeps the run resumable: resume retries it.
        m_state.status = failed ? ReplayStatus::Stopped : ReplayStatus::Finished;
        if (failed)
            m_state.stopReason = Text::tr(
                "%n step(s) failed or were cancelled; resume the replay to send them again.", nullptr, failed);
    }
    save();
    m_finishedEmitted = true;
    Q_EMIT finished();
}

} // namespace nb2
