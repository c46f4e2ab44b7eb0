#include "ui/turndispatcher.h"

#include "core/api/interactionsclient.h"
#include "core/session/costledger.h"
#include "core/session/precisionrunner.h"
#include "core/session/pricetable.h"
#include "core/session/sessioncontroller.h"
#include "ui/frameselection.h"
#include "ui/importcontroller.h"
#include "ui/noticepresenter.h"
#include "ui/pendingindicator.h"
#include "ui/promptpanel.h"
#include "ui/selectionchoice.h"
#include "ui/selectioncontroller.h"
#include "ui/sessionmanager.h"
#include "ui/timelinemodel.h"
#include "ui/windowpreferences.h"

#include <QTimer>

namespace nb2 {

namespace {
QString errorHint(const Error &e)
{
    switch (e.kind) {
    case ErrorKind::Auth:
        return TurnDispatcher::tr("The API key was refused. Check it in Settings.");
    case ErrorKind::Network:
        return TurnDispatcher::tr("Could not reach the server. Check the network or the base URL in Settings.");
    case ErrorKind::Timeout:
        return TurnDispatcher::tr("The server did not answer in time. Retry, or try again later.");
    default:
        return {};
    }
}

int seconds(qint64 ms)
{
    return int((ms + 999) / 1000);
}
} // namespace

TurnDispatcher::TurnDispatcher(SessionManager *sessions, FrameSelection *selection, PromptPanel *prompt,
    ImportController *imports, NoticePresenter *notices, TimelineModel *model, PendingIndicator *pending,
    QObject *parent)
    : QObject(parent)
    , m_sessions(sessions)
    , m_selection(selection)
    , m_prompt(prompt)
    , m_imports(imports)
    , m_notices(notices)
    , m_model(model)
    , m_pending(pending)
{
    SessionController *s = m_sessions->session();
    connect(s, &SessionController::turnFinished, this, &TurnDispatcher::onTurnFinished);
    connect(s, &SessionController::turnFailed, this, &TurnDispatcher::onTurnFailed);
    connect(s, &SessionController::turnRetrying, this,
        [this](const QString &id, int failedAttempt, int maxAttempts, int delayMs, const Error &error) {
            if (error.kind == ErrorKind::RateLimited) // shown as the attempt that comes after the wait
                onRetryWaiting(id, failedAttempt + 1, maxAttempts, delayMs);
        });
    connect(s, &SessionController::turnStarted, this, &TurnDispatcher::updatePending);
    connect(s, &SessionController::frameAdded, this, &TurnDispatcher::updatePending);
    connect(s, &SessionController::framesRemoved, this, &TurnDispatcher::updatePending);
    connect(s, &SessionController::idle, this, &TurnDispatcher::updatePending);
    connect(m_sessions, &SessionManager::aboutToSwitch, this, &TurnDispatcher::clearScheduledRetries);
    connect(m_prompt, &PromptPanel::submitRequested, this, &TurnDispatcher::submit);
    connect(m_prompt, &PromptPanel::styleFileChanged, this, &TurnDispatcher::updatePlan);
}

bool TurnDispatcher::isKeyFromEnvironment() const
{
    return m_keySource == QLatin1String("GEMINI_API_KEY") || m_keySource == QLatin1String("GOOGLE_API_KEY");
}

TurnPlan TurnDispatcher::plan() const
{
    SessionController *s = m_sessions->session();
    const QString id = m_selection->isNewImageRequested() || !s->isOpen() ? QString() : m_selection->currentId();
    TurnInput in = TurnInput::fromGraph(s->graph(), id, m_selection->label(id));
    in.newImageRequested = m_selection->isNewImageRequested();
    in.styleReference = !m_prompt->styleFile().isEmpty();
    in.generateAspect = WindowPreferences::generateAspect();
    if (m_selections && m_selections->hasSelection())
        in.selection = m_prompt->selectionChoice()->mode() == RegionMode::None ? RegionMode::Region
                                                                               : m_prompt->selectionChoice()->mode();
    in.continueFromRaw = m_prompt->selectionChoice()->continueFromRaw();
    return TurnPlanner::plan(in);
}

void TurnDispatcher::setPrecision(SelectionController *selections, PrecisionRunner *runner)
{
    m_selections = selections;
    m_precision = runner;
    connect(selections, &SelectionController::changed, this, &TurnDispatcher::updatePlan);
    connect(m_prompt->selectionChoice(), &SelectionChoice::choiceChanged, this, &TurnDispatcher::updatePlan);
    connect(runner, &PrecisionRunner::started, this, &TurnDispatcher::onRegionStarted);
    connect(runner, &PrecisionRunner::failed, this, [this](int ticket, const Error &error) {
        if (!m_regionSends.remove(ticket))
            return;
        m_notices->show(NoticeKind::Error, NoticePresenter::describe(error)); // the prompt stays for another try
    });
    connect(runner, &PrecisionRunner::compositeFailed, this, [this](const QString &frameId, const Error &error) {
        m_notices->show(NoticeKind::Error,
            tr("%1: the edit came back but could not be composited with its parent: %2")
                .arg(m_selection->label(frameId), NoticePresenter::describe(error)));
    });
    updatePlan();
}

void TurnDispatcher::updateCostEstimate(const TurnPlan &plan)
{
    // Issue 14: before sending, what a turn will cost (the median of similar recent turns in
    // this session, else the price table) and, with a budget, what is already used.
    SessionController *s = m_sessions->session();
    if (!s->isOpen() || !plan.sendable) {
        m_prompt->setCostEstimate(-1, {}, {});
        return;
    }
    const QString model = s->client() ? s->client()->config().model : QString();
    const TurnEstimate e = estimateTurn(s->graph(), s->priceTable(), frameKindOf(plan.kind), model);
    QString budgetLine;
    if (const double budget = s->settings().budgetUsd; budget > 0) {
        const CostLedger ledger(s->graph(), s->priceTable());
        budgetLine = tr("Budget: %1 of %2 used or on its way")
                         .arg(formatUsd(ledger.sessionTotal() + ledger.pendingEstimate()), formatUsd(budget));
    }
    m_prompt->setCostEstimate(e.usd, e.basis, budgetLine);
}

TurnPlan TurnDispatcher::applyPlan()
{
    ++m_planSerial;
    SessionController *s = m_sessions->session();
    const QString id = m_selection->isNewImageRequested() || !s->isOpen() ? QString() : m_selection->currentId();
    const Frame f = id.isEmpty() ? Frame() : s->graph().value(id);
    m_prompt->selectionChoice()->setState(m_selections && m_selections->hasSelection() && !id.isEmpty(),
        !f.regionEdit.isEmpty() && f.isDone() && !f.interactionId.isEmpty());
    const TurnPlan p = plan();
    m_prompt->setPlan(p);
    return p;
}

void TurnDispatcher::updatePlan()
{
    const TurnPlan p = applyPlan();
    updateCostEstimate(p);
    Q_EMIT planChanged(p);
}

void TurnDispatcher::updatePlanEstimateLater()
{
    const TurnPlan p = applyPlan();
    const quint64 serial = m_planSerial;
    Q_EMIT planChanged(p);
    QTimer::singleShot(FrameSelection::kNextFrameMs, Qt::PreciseTimer, this, [this, serial, p] {
        if (serial == m_planSerial)
            updateCostEstimate(p);
    });
}

void TurnDispatcher::submit()
{
    SessionController *s = m_sessions->session();
    if (!s->isOpen()) {
        m_notices->show(NoticeKind::Error, tr("No session is open. Use File → New Session."));
        return;
    }
    const QString prompt = m_prompt->prompt();
    if (prompt.isEmpty()) {
        m_prompt->focusPrompt();
        m_notices->status(tr("Write a prompt first."), 3000);
        return;
    }
    const TurnPlan p = plan();
    const QString id = p.kind == TurnMode::Generate ? QString() : m_selection->currentId();
    if (!p.sendable) {
        m_notices->show(NoticeKind::Warning,
            tr("%1 has no finished image to edit yet. Select a finished frame, or press New Image.")
                .arg(m_selection->label(id)));
        return;
    }
    TurnParams params;
    params.prompt = prompt;
    params.thinkingLevel = m_prompt->thinkingLevel();
    params.aspectRatio = p.aspectLocked && !p.aspectRatio.isEmpty() ? p.aspectRatio : m_prompt->aspectRatio();
    params.newBranch = p.newBranch;
    if (p.region != RegionMode::None) {
        submitRegion(p, id, params);
        return;
    }
    const QString styleFile = m_prompt->styleFile();
    if (m_prompt->variants() > 1) { // one prompt, N sibling turns: ui/variantsdispatch
        const QString copy = p.kind == TurnMode::Style ? m_imports->styleCopyFor(styleFile) : QString();
        Q_EMIT variantsRequested(p, params, id, copy.isEmpty() ? styleFile : copy);
        return;
    }
    Result<QString> r = Error {};
    switch (p.kind) {
    case TurnMode::Generate:
        if (p.styleIgnored)
            m_notices->status(tr("The style reference applies to edits; select a frame to restyle it."), 5000);
        r = s->generate(params);
        break;
    case TurnMode::Style: {
        const QString copy = m_imports->styleCopyFor(styleFile);
        r = s->styleEdit(id, {}, copy.isEmpty() ? styleFile : copy, params);
        break;
    }
    case TurnMode::EditLocal:
        r = s->editLocal(id, {}, params);
        break;
    case TurnMode::Branch:
        r = s->branchFrom(id, params);
        break;
    case TurnMode::Edit:
        r = s->edit(id, params);
        break;
    }
    if (!r) {
        const Error &e = r.error();
        m_notices->show(
            NoticeKind::Error, e.message.isEmpty() ? tr("The request was not sent.") : NoticePresenter::describe(e));
        if (!e.api.allowedValues.isEmpty())
            Q_EMIT thinkingLevelsChanged();
        return;
    }
    m_notices->clear();
    m_prompt->clearPrompt();
    if (p.kind == TurnMode::Style)
        m_prompt->setStyleFile({});
    if (p.kind == TurnMode::Generate)
        WindowPreferences::setGenerateAspect(params.aspectRatio);
    // The keyboard focus stays where it was (usually the prompt): the next prompt can be typed
    // while this one runs, and nothing typed is lost when it finishes.
    m_selection->select(r.value());
    updatePending();
}

void TurnDispatcher::submitRegion(const TurnPlan &p, const QString &parentId, const TurnParams &params)
{
    if (!m_precision || !m_selections) {
        m_notices->show(NoticeKind::Error, tr("Region edits are not available here."));
        return;
    }
    if (!m_regionSends.isEmpty()) {
        m_notices->status(tr("The selection is still being prepared; the edit is sent in a moment."), 3000);
        return;
    }
    const EditMask selection = m_selections->currentMask();
    PrecisionRequest request;
    request.parentId = parentId;
    request.mode = p.region;
    // The stored mask says what may change: the selection for Edit region, the rest for Protect.
    request.mask = p.region == RegionMode::Protect ? selection.inverted() : selection;
    request.feather = m_prompt->selectionChoice()->feather();
    request.params = params;
    request.inlineParent = p.kind == TurnMode::EditLocal;
    const Result<int> ticket = m_precision->start(request);
    if (!ticket) {
        m_notices->show(NoticeKind::Error, NoticePresenter::describe(ticket.error()));
        return;
    }
    m_regionSends.insert(ticket.value(), {parentId, params.prompt});
    m_notices->status(p.region == RegionMode::Region ? tr("Preparing the selected region…")
                                                     : tr("Preparing the protected selection…"),
        3000);
}

void TurnDispatcher::onRegionStarted(int ticket, const QString &frameId)
{
    if (!m_regionSends.contains(ticket))
        return;
    const RegionSend sent = m_regionSends.take(ticket);
    m_notices->clear();
    if (m_prompt->prompt() == sent.prompt) // not if the user has started the next prompt meanwhile
        m_prompt->clearPrompt();
    m_selections->copySelection(sent.parentId, frameId);
    if (m_selection->currentId() == sent.parentId)
        m_selection->select(frameId);
    updatePending();
}

void TurnDispatcher::retry(const QString &frameId)
{
    retryNow(frameId, false);
}

void TurnDispatcher::retryNow(const QString &frameId, bool automatic)
{
    if (frameId.isEmpty())
        return;
    cancelScheduledRetry(frameId);
    if (!automatic)
        m_autoRetries.remove(frameId); // the user asked: the automatic count starts again
    const Result<QString> r = m_sessions->session()->retry(frameId);
    if (!r)
        m_notices->show(NoticeKind::Error, NoticePresenter::describe(r.error()));
    else
        m_notices->clear();
    updatePending();
}

void TurnDispatcher::cancel(const QString &frameId)
{
    if (frameId.isEmpty())
        return;
    cancelScheduledRetry(frameId);
    m_autoRetries.remove(frameId);
    if (!m_sessions->session()->cancel(frameId))
        m_notices->status(tr("%1 is not running.").arg(m_selection->label(frameId)), 3000);
    else
        m_notices->status(tr("Cancelled %1.").arg(m_selection->label(frameId)), 3000);
    updatePending();
}

void TurnDispatcher::reAnchor(const QString &frameId)
{
    if (frameId.isEmpty())
        return;
    cancelScheduledRetry(frameId);
    const Result<QString> r = m_sessions->session()->reAnchor(frameId);
    if (!r)
        m_notices->show(NoticeKind::Error, NoticePresenter::describe(r.error()));
    else
        m_notices->clear();
}

void TurnDispatcher::onTurnFinished(const QString &frameId)
{
    m_clientWaits.remove(frameId);
    updatePending();
    const Frame f = m_sessions->session()->graph().value(frameId);
    if (f.isDone()) {
        m_autoRetries.remove(frameId);
        m_notices->status(tr("%1 is ready.").arg(m_selection->label(frameId)), 4000);
    }
}

void TurnDispatcher::onRetryWaiting(const QString &frameId, int attempt, int maxAttempts, int delayMs)
{
    m_clientWaits.insert(frameId, {QDateTime::currentDateTimeUtc().addMSecs(delayMs), attempt, maxAttempts});
    updatePending();
}

void TurnDispatcher::onTurnFailed(const QString &frameId, const Error &error)
{
    m_clientWaits.remove(frameId);
    const QString label = m_selection->label(frameId);
    const QString base = error.message.isEmpty() ? errorHint(error) : NoticePresenter::describe(error);
    switch (error.kind) {
    case ErrorKind::Cancelled:
        // The user's own doing: a neutral word in the status bar, not an error banner.
        m_notices->status(tr("Cancelled %1; Retry sends it again.").arg(label), 4000);
        break;
    case ErrorKind::RateLimited: {
        const int delay = error.api.retryAfterMs > 0 ? error.api.retryAfterMs : 30'000;
        const int attempt = m_autoRetries.value(frameId) + 1;
        if (attempt > kMaxAutoRetries) {
            m_notices->show(NoticeKind::Error,
                tr("%1: still rate limited after %n automatic retries. Retry when the quota allows "
                   "(the server asked to wait %2 s).",
                    nullptr, kMaxAutoRetries)
                    .arg(label)
                    .arg(seconds(delay)),
                tr("Retry"), [this, frameId] { retry(frameId); });
            break;
        }
        m_autoRetries.insert(frameId, attempt);
        scheduleRetry(frameId, delay);
        m_notices->show(NoticeKind::Warning,
            tr("%1: rate limited, retrying in %2 s (attempt %3 of %4).")
                .arg(label)
                .arg(seconds(delay))
                .arg(attempt)
                .arg(kMaxAutoRetries),
            tr("Retry Now"), [this, frameId] { retry(frameId); });
        break;
    }
    case ErrorKind::Auth:
        if (isKeyFromEnvironment()) {
            // Settings cannot change an environment variable: say where the key is instead.
            m_notices->show(NoticeKind::Error,
                tr("%1: the server refused the API key from %2. Settings cannot change it: set a valid "
                   "key in %2 (or unset it to use the key saved in Settings) and restart.")
                    .arg(label, m_keySource));
            break;
        }
        m_notices->show(NoticeKind::Error, tr("%1: %2").arg(label, base), tr("Open Settings…"),
            [this] { Q_EMIT settingsRequested(); });
        if (!qEnvironmentVariableIsSet("NB2_NO_AUTO_SETTINGS"))
            QMetaObject::invokeMethod(this, &TurnDispatcher::settingsRequested, Qt::QueuedConnection);
        break;
    case ErrorKind::NotFound:
        m_notices->show(NoticeKind::Error,
            tr("%1: the parent's server id has expired or was deleted. Re-anchor sends the parent's stored "
               "pixels instead.")
                .arg(label),
            tr("Re-anchor"), [this, frameId] { reAnchor(frameId); });
        break;
    case ErrorKind::InvalidRequest:
        if (!error.api.allowedValues.isEmpty()) {
            Q_EMIT thinkingLevelsChanged();
            m_notices->show(NoticeKind::Error,
                tr("%1: %2 The thinking choices now list what the server accepts: %3.")
                    .arg(label, base, error.api.allowedValues.join(QStringLiteral(", "))),
                tr("Retry"), [this, frameId] { retry(frameId); });
            break;
        }
        m_notices->show(NoticeKind::Error, tr("%1: %2").arg(label, base));
        break;
    case ErrorKind::NoImage:
        restoreRefusedPrompt(frameId);
        m_notices->show(NoticeKind::Warning,
            tr("%1: the model answered without an image: “%2”. Rephrase the prompt — it is back in the "
               "prompt box — and send again.")
                .arg(label, NoticePresenter::shortenIds(error.api.modelText.isEmpty() ? base : error.api.modelText)));
        break;
    default:
        m_notices->show(
            NoticeKind::Error, tr("%1: %2").arg(label, base), tr("Retry"), [this, frameId] { retry(frameId); });
        break;
    }
    updatePending();
}

void TurnDispatcher::restoreRefusedPrompt(const QString &frameId)
{
    const Frame f = m_sessions->session()->graph().value(frameId);
    // Back to where the request started, so the rephrased prompt continues the parent (the
    // refused frame is no continuation) — unless the user has moved on.
    if (m_selection->currentId() == frameId) {
        if (f.parentId.isEmpty())
            m_selection->requestNewImage();
        else
            m_selection->select(f.parentId);
    }
    if (m_prompt->prompt().isEmpty()) {
        m_prompt->setPrompt(f.prompt);
        m_prompt->focusPrompt();
    }
}

void TurnDispatcher::scheduleRetry(const QString &frameId, int delayMs)
{
    cancelScheduledRetry(frameId);
    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setInterval(delayMs);
    connect(timer, &QTimer::timeout, this, [this, frameId] {
        const Frame f = m_sessions->session()->graph().value(frameId);
        cancelScheduledRetry(frameId);
        if (f.status == FrameStatus::Failed)
            retryNow(frameId, true);
    });
    m_retryTimers.insert(frameId, timer);
    m_model->setRetryAt(frameId, QDateTime::currentDateTimeUtc().addMSecs(delayMs));
    timer->start();
    updatePending();
}

void TurnDispatcher::cancelScheduledRetry(const QString &frameId)
{
    if (QTimer *t = m_retryTimers.take(frameId)) {
        t->stop();
        t->deleteLater();
    }
    m_model->setRetryAt(frameId, {});
}

void TurnDispatcher::clearScheduledRetries()
{
    for (QTimer *t : std::as_const(m_retryTimers)) {
        t->stop();
        t->deleteLater();
    }
    m_retryTimers.clear();
    m_autoRetries.clear();
    m_clientWaits.clear();
}

void TurnDispatcher::updatePending()
{
    SessionController *s = m_sessions->session();
    if (!s->isOpen()) {
        m_pending->setWork(0, 0, {});
        m_pending->setRetryCountdown({});
        return;
    }
    QDateTime oldest;
    for (const QString &id : s->graph().withStatus(FrameStatus::Pending)) {
        const QDateTime t = s->graph().value(id).requestedAt;
        if (t.isValid() && (!oldest.isValid() || t < oldest))
            oldest = t;
    }
    m_pending->setWork(s->runningCount(), s->queuedCount(), oldest);
    // The soonest retry: one the window scheduled, or a wait inside a running request.
    QDateTime next;
    int attempt = 0;
    int maxAttempts = 0;
    for (auto it = m_retryTimers.cbegin(); it != m_retryTimers.cend(); ++it) {
        const QDateTime at = m_model->retryAt(it.key());
        if (at.isValid() && (!next.isValid() || at < next)) {
            next = at;
            attempt = m_autoRetries.value(it.key());
            maxAttempts = kMaxAutoRetries;
        }
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (auto it = m_clientWaits.cbegin(); it != m_clientWaits.cend(); ++it) {
        if (it->until > now && (!next.isValid() || it->until < next)) {
            next = it->until;
            attempt = it->attempt;
            maxAttempts = it->maxAttempts;
        }
    }
    m_pending->setRetryCountdown(next, attempt, maxAttempts);
}

} // namespace nb2
