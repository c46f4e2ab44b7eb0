// What the main window shows of the open session (see sessionpresenter.h): moved out of
// MainWindow so that the window only lays out its parts and wires them.
#include "ui/sessionpresenter.h"

#include "core/session/costledger.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionpaths.h"
#include "core/session/sessionstore.h"
#include "ui/actionmanager.h"
#include "ui/frameselection.h"
#include "ui/imagestage.h"
#include "ui/infopanel.h"
#include "ui/noticepresenter.h"
#include "ui/sessionmanager.h"
#include "ui/thumbnailprovider.h"
#include "ui/timelinemodel.h"
#include "ui/turndispatcher.h"

#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>

namespace nb2 {

SessionPresenter::SessionPresenter(const Parts &parts, QObject *parent)
    : QObject(parent)
    , m_window(parts.window)
    , m_sessions(parts.sessions)
    , m_selection(parts.selection)
    , m_turns(parts.turns)
    , m_stage(parts.stage)
    , m_actions(parts.actions)
    , m_model(parts.model)
    , m_thumbs(parts.thumbs)
    , m_info(parts.info)
    , m_notices(parts.notices)
{
    m_sessionLabel = new QLabel(m_window);
    m_sessionLabel->setObjectName(QStringLiteral("sessionLabel"));
    m_costLabel = new QLabel(m_window);
    m_costLabel->setObjectName(QStringLiteral("sessionCostLabel"));

    SessionController *s = session();
    connect(m_selection, &FrameSelection::currentChanged, this, &SessionPresenter::onSelectionChanged);
    connect(m_sessions, &SessionManager::switched, this, &SessionPresenter::onSessionSwitched);
    // A background open's hand-over: the timeline's rows are built on a worker, and the
    // selection (switched) waits for them.
    connect(m_sessions, &SessionManager::handOverStarting, m_model, &TimelineModel::prepareNextReload);
    m_sessions->setHandOverGate([model = m_model] { return !model->isPreparing(); });
    connect(m_model, &TimelineModel::rowsPrepared, m_sessions, &SessionManager::handOverReady);
    connect(m_sessions, &SessionManager::openingChanged, this, [this](bool opening) {
        if (!opening)
            return;
        onSessionSwitched({}); // the old session is closed: an empty window says "Opening…" until it is in
        // Frame Details' rows are made while the worker parses (the GUI thread is idle then), a
        // frame later so this pass stays short: not in the hand-over pass that shows the frame.
        QTimer::singleShot(FrameSelection::kNextFrameMs, Qt::PreciseTimer, m_info, &InfoPanel::prepare);
    });

    // What the session says: the selected frame is re-read when it changes.
    // Once per change of the session, however many frames it touched (the actions and the cost
    // line each read the whole session).
    auto refreshCurrent = [this](const QStringList &ids) {
        if (ids.contains(m_selection->currentId())) {
            updateInfo();
            m_turns->updatePlan();
            m_stage->reload();
        }
        updateActions();
        updateCost();
    };
    connect(s, &SessionController::frameAdded, this, &SessionPresenter::updateActions);
    connect(s, &SessionController::framesRemoved, this, &SessionPresenter::updateActions);
    connect(s, &SessionController::framesChanged, this, refreshCurrent);
    connect(s, &SessionController::turnFinished, this, [refreshCurrent](const QString &id) { refreshCurrent({id}); });
    connect(s, &SessionController::draftReceived, m_stage, &ImageStage::showDraft);
    connect(s, &SessionController::frameReAnchored, this, [this](const QString &id) {
        m_notices->status(tr("%1 was re-anchored: the parent's id had expired, so its pixels were sent "
                             "(continuity may differ).")
                              .arg(m_selection->label(id)),
            8000);
    });
    connect(s, &SessionController::changedExternally, this, [this] {
        m_notices->status(tr("The session was changed by another program; the timeline is up to date."), 6000);
        onSelectionChanged();
        m_turns->updatePending();
    });
    connect(s, &SessionController::errorOccurred, this,
        [this](const QString &message) { m_notices->show(NoticeKind::Error, message); });
    connect(s, &SessionController::recoveryFinished, this, [this](int recovered, int interrupted) {
        if (interrupted > 0)
            m_notices->show(NoticeKind::Warning,
                tr("%n request(s) were interrupted when the app last closed; select one and press Retry to "
                   "send it again.",
                    nullptr, interrupted));
        else if (recovered > 0)
            m_notices->status(
                tr("%n interrupted request(s) were recovered from the server.", nullptr, recovered), 6000);
    });
    connect(s->undoStack(), &QUndoStack::indexChanged, this, &SessionPresenter::updateActions);
}

QList<QWidget *> SessionPresenter::statusWidgets() const
{
    return {m_sessionLabel, m_costLabel};
}

SessionController *SessionPresenter::session() const
{
    return m_sessions->session();
}

void SessionPresenter::onSessionSwitched(const QString &frameToSelect)
{
    // What a selection change before the switch deferred (the prepared rows' reset) is
    // superseded: the switch's own selection updates everything.
    ++m_selectionSerial;
    if (session()->isOpen()) {
        // The cache is written to: only the session's own thumbs folder, never one that is a
        // link out (a crafted session); without it thumbnails are made in memory only.
        const SessionStore *store = session()->store();
        m_thumbs->setDiskCacheDir(
            SessionPaths::isOwnFolder(store->dir(), QStringLiteral("thumbs")) ? store->thumbsDir() : QString());
    }
    m_model->refresh();
    m_stage->reset();
    // A background open's hand-over: Frame Details and the plan follow after the first paint.
    if (m_sessions->isHandingOver()) {
        m_splitNextSelection = true; // the announcement's work is spread over two frames too
        m_selection->selectAndAnnounceLater(frameToSelect);
    } else
        m_selection->select(frameToSelect);
    updateTitle();
    m_turns->updatePending();
    updateActions();
}

void SessionPresenter::onSelectionChanged()
{
    updateInfo();
    const quint64 serial = ++m_selectionSerial;
    // The timeline's rows swapped in before the hand-over's switched() (a model reset announces
    // the selection): that pass has the reset's layout and paint of 10,000 rows, and the
    // hand-over's own announcement follows; the rest a frame later, unless superseded.
    const bool beforeHandOver = m_sessions->isHandOverPending();
    if (std::exchange(m_splitNextSelection, false) || beforeHandOver) {
        // A background open's hand-over: Frame Details now, the turn plan and the image a frame
        // later, so the window paints in between (each is milliseconds at 10,000 frames). A
        // selection made meanwhile supersedes it and updates everything at once.
        QTimer::singleShot(FrameSelection::kNextFrameMs, Qt::PreciseTimer, this, [this, serial] {
            if (serial == m_selectionSerial)
                finishSelectionChanged(true);
        });
        return;
    }
    finishSelectionChanged();
}

void SessionPresenter::finishSelectionChanged(bool handOver)
{
    if (handOver)
        m_turns->updatePlanEstimateLater(); // the send button's cost tooltip a frame later
    else
        m_turns->updatePlan();
    updateActions();
    m_stage->reload();
}

void SessionPresenter::updateTitle()
{
    const QString dir = m_sessions->dir();
    const QString name = dir.isEmpty() ? tr("No Session") : QFileInfo(dir).fileName();
    m_window->setWindowTitle(tr("%1 — NB2Lite Studio").arg(name));
    m_sessionLabel->setText(dir.isEmpty() ? QString() : tr("Session: %1").arg(name));
    m_sessionLabel->setToolTip(dir);
    updateCost();
}

void SessionPresenter::updateCost()
{
    if (!session()->isOpen()) {
        m_costLabel->clear();
        return;
    }
    const PriceTable &prices = session()->priceTable();
    const CostLedger ledger(session()->graph(), prices);
    const double budget = session()->settings().budgetUsd;
    QString text = tr("Cost: %1").arg(formatUsd(ledger.sessionTotal()));
    if (budget > 0)
        text += tr(" of %1").arg(formatUsd(budget));
    m_costLabel->setText(text);
    m_costLabel->setToolTip(tr("Estimated from the frames' token usage and the price table (%1, as of %2). "
                               "Edit the prices in Settings.")
                                .arg(prices.source, prices.asOf));
}

void SessionPresenter::updateActions()
{
    const QString id = m_selection->currentId();
    const Frame f = m_selection->current();
    ActionState st;
    st.sessionOpen = session()->isOpen();
    st.hasFrame = st.sessionOpen && !id.isEmpty() && session()->graph().contains(id);
    st.hasImage = !f.image.isNull();
    st.starred = f.starred;
    st.retryable
        = f.status == FrameStatus::Failed || f.status == FrameStatus::Cancelled || f.status == FrameStatus::Interrupted;
    st.pending = f.isPending();
    st.hasParent = !f.parentId.isEmpty();
    st.canCompare = st.hasParent || !m_stage->compareOtherId().isEmpty();
    m_actions->apply(st);
}

void SessionPresenter::updateInfo()
{
    const QString id = m_selection->currentId();
    if (id.isEmpty() || !session()->isOpen() || !session()->graph().contains(id)) {
        m_info->clear();
        return;
    }
    const Frame f = session()->graph().value(id);
    const int number = m_model->indexOf(id).data(TimelineRole::Number).toInt();
    const int parentNumber = f.parentId.isEmpty() ? 0 : m_model->indexOf(f.parentId).data(TimelineRole::Number).toInt();
    m_info->setFrame(
        f, number, parentNumber, f.image.isNull() ? QString() : session()->store()->absolutePath(f.image.file));
    const CostLedger ledger(session()->graph(), session()->priceTable());
    QStringList cost;
    if (const FrameCost c = ledger.frame(id); c.hasUsage)
        cost << tr("%1 (estimate)").arg(formatUsd(c.usd));
    if (f.kind != FrameKind::Import)
        cost << tr("%1 to reproduce this branch up to here").arg(formatUsd(ledger.reproduceCost(id)));
    m_info->setCost(cost.join(QStringLiteral(" · ")));
}

} // namespace nb2
