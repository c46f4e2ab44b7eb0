#include "core/session/replayrunner.h"

#include "core/api/interactionsclient.h"
#include "core/session/costledger.h"
#include "core/session/editfinisher.h"
#include "core/session/replayrecordwriter.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QCoreApplication>
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

} // namespace

ReplayRunner::ReplayRunner(SessionController *session, ReplayState state, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_state(std::move(state))
    , m_rateTimer(new QTimer(this))
    , m_writer(new ReplayRecordWriter(this))
    , m_finisher(new EditFinisher(session, this, EditFinisher::Trigger::WhenAsked))
{
    m_rateTimer->setSingleShot(true);
    // Region edits are composited (and measured) by whoever sent them; the rest is measured here.
    m_finisher->setRegionEditsHandledElsewhere(true);
    connect(m_finisher, &EditFinisher::finished, this, &ReplayRunner::checkFinished);
    connect(m_finisher, &EditFinisher::failed, this, [this](const QString &, const Error &error) {
        // Trouble with the session's files (a picture that cannot be read or written, a full disk)
        // is reported, as the record's own write errors are; anything else only lacks a reading.
        const bool fileTrouble
            = error.kind == ErrorKind::Io || error.kind == ErrorKind::DiskFull || error.kind == ErrorKind::NotWritable;
        if (fileTrouble && m_session)
            Q_EMIT m_session->errorOccurred(error.message);
        checkFinished();
    });
    connect(m_writer, &ReplayRecordWriter::settledUpTo, this, &ReplayRunner::onRecordSettled);
    connect(m_writer, &ReplayRecordWriter::failed, this, [this](const Error &error) {
        if (m_session)
            Q_EMIT m_session->errorOccurred(error.message);
    });
    // The record of this session is on disk before its folder is let go (another session opens).
    connect(session, &SessionController::aboutToClose, this, &ReplayRunner::flushRecord);
    connect(m_rateTimer, &QTimer::timeout, this, &ReplayRunner::endRateLimit);
    connect(session, &SessionController::turnFinished, this, &ReplayRunner::onTurnFinished);
    connect(session, &SessionController::turnFailed, this,
        [this](const QString &frameId, const Error &error) { m_lastError.insert(frameId, error); });
    connect(session, &SessionController::turnRetrying, this,
        [this](const QString &frameId, int, int, int delayMs, const Error &error) {
            onTurnRetrying(frameId, delayMs, error);
        });
}

ReplayRunner::~ReplayRunner()
{
    m_closing = true;
    flushRecord(); // a quit or a closed panel leaves the latest record: the resume reads it
}

void ReplayRunner::flushRecord()
{
    m_writer->flush();
}

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
    // No chain's first step goes out before a record naming its start frame is on disk (for a
    // new run: before the record exists at all). See markSent().
    const quint64 recorded = save();
    for (int c = 0; c < m_state.chains.size(); ++c) {
        const ReplayChain &chain = m_state.chains.at(c);
        if (!chain.startFrameId.isEmpty() && chain.steps.first().frameId.isEmpty())
            m_startUnrecorded.insert(c, recorded);
    }
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
    for (int c = 0; c < m_state.chains.size(); ++c) {
        const ReplayChain &chain = m_state.chains.at(c);
        n += awaitsRecord(c) && !chain.isFinished() ? 1 : 0; // so does a first step waiting for the record
        for (const ReplayStepRun &s : chain.steps)
            n += s.state == ReplayStepState::Sent ? 1 : 0;
    }
    return n;
}

bool ReplayRunner::awaitsRecord(int chain) const
{
    const auto it = m_startUnrecorded.constFind(chain);
    return it != m_startUnrecorded.cend() && it.value() > m_writer->settled();
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

/**
 * Queues the record's write (the writer thread writes it; a failure reaches errorOccurred on
 * this thread) and returns its number; 0 when no session is open (nothing is written then).
 */
quint64 ReplayRunner::save()
{
    if (!m_session || !m_session->isOpen() || !m_session->store())
        return 0;
    return m_writer->save(m_session->store()->dir(), m_state);
}

/**
 * A record is on disk (or could not be written: that was reported, and the run goes on as it
 * always did without one): the chains whose start it names may send their first step.
 */
void ReplayRunner::onRecordSettled()
{
    const qsizetype waiting = m_startUnrecorded.size();
    m_startUnrecorded.removeIf(
        [this](const QHash<int, quint64>::iterator &it) { return it.value() <= m_writer->settled(); });
    if (m_closing || m_startUnrecorded.size() == waiting)
        return;
    // Not from inside flush() (a session closing, a run finishing): pump() once that caller is done.
    QMetaObject::invokeMethod(this, &ReplayRunner::pump, Qt::QueuedConnection);
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
    // Queued, not written here: the record may lag behind the session by a write or two, and a
    // kill -9 can land in between. A resume still sends no step twice and finds every frame,
    // because the frames, not the record, are the truth and the record only has to lead to them:
    // - A step's frame is in the session's manifest, tagged replay_run/replay_of, before its
    //   request leaves (SessionController's worker waits for the manifest to list it, then
    //   sends): a turn that went out, and was paid for, survives the kill.
    // - reconcile() walks each chain from its start frame: a step the record does not name is
    //   adopted from its parent's children carrying this run's tag (adopt()), and becomes the
    //   next step's parent; so any number of steps made after the last write are found again.
    // - That walk needs the start frame named by the record on disk: a frame target is named from
    //   the first write, an imported photo from the write after its import. So a chain's first
    //   step is sent only once that write is done (m_startUnrecorded, onRecordSettled()); a kill
    //   before it leaves at worst an import frame the record does not name, and the resume
    //   imports that photo once more: nothing is sent twice.
    // - Whatever the record says of a step (sent, done, failed) reconcile() reads again from the
    //   frame; a frame it names that the kill took from the manifest never left (first point):
    //   sent anew. Only a pause, cancel or stop made in the last write's few ms can be lost.
    save();
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
        // What the record names but the session lacks was lost with a crash before the manifest
        // write: never sent (a turn is sent only once its frame is listed).
        const bool nothingMade = std::all_of(chain.steps.cbegin(), chain.steps.cend(),
            [&g](const ReplayStepRun &s) { return s.frameId.isEmpty() || !g.contains(s.frameId); });
        if (chain.target.kind == ReplayTarget::Kind::Photo && !chain.startFrameId.isEmpty() && nothingMade
            && !g.contains(chain.startFrameId)) {
            chain.startFrameId.clear(); // the record named the import, the crash took the frame: import it once more
            for (ReplayStepRun &run : chain.steps)
                run = ReplayStepRun {}; // and the steps made on it, lost with it
        }
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
    if (!m_started || !m_session || !m_session->isOpen() || isOver() || m_userPaused || isRateLimited())
        return;
    const int limit = qMax(1, m_session->settings().concurrencyLimit);
    for (int c = 0; c < m_state.chains.size() && inFlight() < limit && !isOver(); ++c) {
        const ReplayChain &chain = m_state.chains.at(c);
        if (chain.isFinished() || m_importing.contains(c) || awaitsRecord(c))
            continue; // done, its photo is on its way (never imported twice), or the record naming it is
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
            SessionStore::removeUnrecordedCopy(dir, stored.image.value().file);
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
            SessionStore::removeUnrecordedCopy(sessionDir, stored.value().file);
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
            SessionStore::removeUnrecordedCopy(sessionDir, stored.value().file);
    }
    if (!recorded) {
        // Unreadable, not an image, too large, disk full: this chain fails, the others go on.
        setStep(chain, step, ReplayStepState::Failed, recorded.error().message);
        pump();
        checkFinished();
        return;
    }
    // The frame is named in the record saved now, so a resume never imports the photo again;
    // its first step is sent once that record is on disk (see markSent()), and paused or
    // stopped meanwhile, it waits. The chain keeps its slot until then.
    c.startFrameId = recorded.value();
    m_startUnrecorded.insert(chain, save());
    pump();
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
    // Decoding two full pictures: on a worker; recorded before the session closes.
    m_finisher->finishLater(frameId);
}

void ReplayRunner::checkFinished()
{
    if (m_finishedEmitted || !m_started || m_finisher->runningCount() > 0 || !m_importing.isEmpty()
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
    flushRecord(); // whoever hears finished() reads the final record (the panel's resume offer)
    Q_EMIT finished();
}

} // namespace nb2
