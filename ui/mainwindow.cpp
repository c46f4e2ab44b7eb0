#include "ui/mainwindow.h"

#include "core/api/interactionsclient.h"
#include "core/api/thinkinglevels.h"
#include "core/session/precisionrunner.h"
#include "core/session/sessioncontroller.h"
#include "ui/actionmanager.h"
#include "ui/bannerwidget.h"
#include "ui/canvasview.h"
#include "ui/driftwatch.h"
#include "ui/findbar.h"
#include "ui/frameeditor.h"
#include "ui/frameselection.h"
#include "ui/imagestage.h"
#include "ui/importcontroller.h"
#include "ui/infopanel.h"
#include "ui/keeplistwidget.h"
#include "ui/noticepresenter.h"
#include "ui/pendingindicator.h"
#include "ui/promptpanel.h"
#include "ui/replaypanel.h"
#include "ui/screenfit.h"
#include "ui/selectioncontroller.h"
#include "ui/sessionmanager.h"
#include "ui/sessionpresenter.h"
#include "ui/thumbnailprovider.h"
#include "ui/timelinemodel.h"
#include "ui/timelineview.h"
#include "ui/turndispatcher.h"
#include "ui/variantsdispatch.h"
#include "ui/windowdialogs.h"
#include "ui/windowpreferences.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace nb2 {

namespace {
/** A dock without its content yet: the window's text-heavy panels go in at its first show (attachTextWidgets()). */
QDockWidget *makeDock(QMainWindow *window, const QString &title, const char *name, bool closable)
{
    auto *dock = new QDockWidget(title, window);
    dock->setObjectName(QLatin1String(name));
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable
        | (closable ? QDockWidget::DockWidgetClosable : QDockWidget::NoDockWidgetFeatures));
    return dock;
}

TimelineView::AttachHint attachHintFor(const TurnPlan &plan, int variants)
{
    if (!plan.sendable)
        return TimelineView::AttachHint::None;
    if (plan.kind == TurnMode::Generate)
        return TimelineView::AttachHint::Generate;
    // Several variants of an edit are sibling branches: the slot says "new branch" too.
    return plan.newBranch || variants > 1 ? TimelineView::AttachHint::Branch : TimelineView::AttachHint::Edit;
}
} // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    // No window icon here: nb2lite-studio sets it after the first frame (app/studio/main.cpp).
    m_levels = std::make_unique<ThinkingLevels>(
        QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/thinking-levels.json"));

    buildLayout();
    buildControllers();
    buildMenus();
    wireActions();
    wireSession();
    m_shown->updateTitle();
    m_turns->updatePlan();
    m_shown->updateActions();
    refreshThinkingLevels();
}

MainWindow::~MainWindow()
{
    // The session goes first, while every controller still exists: its teardown (waiting for
    // running turns, clearing the undo stack) must not reach a half-destroyed window.
    m_turns->clearScheduledRetries();
    delete m_sessions;
    m_sessions = nullptr;
}

SessionController *MainWindow::session() const
{
    return m_sessions ? m_sessions->session() : nullptr;
}
QAction *MainWindow::action(ActionId id) const
{
    return m_actions->action(id);
}

// ---------------------------------------------------------------- layout

void MainWindow::buildLayout()
{
    auto *center = new QWidget(this);
    center->setObjectName(QStringLiteral("centralArea"));
    auto *v = new QVBoxLayout(center);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(0);
    m_demoBanner = new BannerWidget(center);
    m_demoBanner->setObjectName(QStringLiteral("demoBanner"));
    m_demoBanner->setCloseButtonVisible(false);
    m_demoBanner->setActionText(tr("Open Settings…"), tr("Add a Gemini API key"));
    m_demoBanner->hide();
    v->addWidget(m_demoBanner);
    m_messageBanner = new BannerWidget(center);
    m_messageBanner->setObjectName(QStringLiteral("messageBanner"));
    m_messageBanner->setCloseButtonVisible(true);
    m_messageBanner->hide();
    v->addWidget(m_messageBanner);

    // Every controller reports through the notices, and everything lives in a session.
    m_notices = new NoticePresenter(m_messageBanner, this, this);
    m_sessions = new SessionManager(m_notices, this);
    m_thumbs = new ThumbnailProvider(this);
    m_model = new TimelineModel(session(), this);

    // Timeline: along the bottom, full width, so long chains have room.
    m_timeline = new TimelineView(this);
    m_timeline->setObjectName(QStringLiteral("timelineView"));
    m_timeline->setThumbnailProvider(m_thumbs);
    m_timeline->setModel(m_model);
    m_timeline->setContextMenuPolicy(Qt::CustomContextMenu);
    m_selection = new FrameSelection(session(), m_model, m_timeline, this);
    m_stage = new ImageStage(session(), m_model, m_selection, m_notices, center);
    v->addWidget(m_stage->widget(), 1);
    setCentralWidget(center);

    // Find sits above the timeline it filters: matches bright, the rest dimmed (TimelineModel::setFilter).
    auto *timelinePane = new QWidget(this);
    auto *timelineColumn = new QVBoxLayout(timelinePane);
    timelineColumn->setContentsMargins(0, 0, 0, 0);
    timelineColumn->setSpacing(0);
    m_find = new FindBar(timelinePane);
    timelineColumn->addWidget(m_find);
    timelineColumn->addWidget(m_timeline, 1);
    connect(m_find, &FindBar::filterChanged, this, [this](const FrameFilter &filter) {
        m_model->setFilter(filter);
        m_find->setMatchCount(m_model->matchCount(), m_model->rowCount());
    });
    const auto recount = [this] { m_find->setMatchCount(m_model->matchCount(), m_model->rowCount()); };
    connect(m_model, &QAbstractItemModel::dataChanged, m_find, recount);
    connect(m_model, &QAbstractItemModel::rowsInserted, m_find, recount);
    connect(m_model, &QAbstractItemModel::modelReset, m_find, recount);
    auto *findShortcut = new QShortcut(QKeySequence::Find, this);
    connect(findShortcut, &QShortcut::activated, m_find, &FindBar::focusText);
    QDockWidget *timelineDock = makeDock(this, tr("Timeline"), "timelineDock", true);
    m_dockContents.append({timelineDock, timelinePane});
    addDockWidget(Qt::BottomDockWidgetArea, timelineDock);
    // The right column: what to send next on top, what the selected frame is below.
    m_prompt = new PromptPanel(this);
    auto *promptColumn = new QWidget(this); // the branch's keep-list above the prompt (issue 13)
    auto *promptLayout = new QVBoxLayout(promptColumn);
    promptLayout->setContentsMargins(0, 0, 0, 0);
    promptLayout->setSpacing(0);
    promptLayout->addWidget(new KeepListWidget(session(), m_selection, promptColumn));
    promptLayout->addWidget(m_prompt, 1);
    QDockWidget *promptDock = makeDock(this, tr("Prompt"), "promptDock", false);
    m_dockContents.append({promptDock, promptColumn});
    addDockWidget(Qt::RightDockWidgetArea, promptDock);
    m_info = new InfoPanel(this);
    QDockWidget *infoDock = makeDock(this, tr("Frame Details"), "infoDock", true);
    m_dockContents.append({infoDock, m_info});
    addDockWidget(Qt::RightDockWidgetArea, infoDock);
    splitDockWidget(promptDock, infoDock, Qt::Vertical);
    // The replay panel is built when first needed (a range picked, Replay Onto…, the session's
    // unfinished replays once it is open): its dock is hidden at start.
    m_replayHolder = new QWidget(this);
    auto *replayColumn = new QVBoxLayout(m_replayHolder);
    replayColumn->setContentsMargins(0, 0, 0, 0);
    QDockWidget *replayDock = makeDock(this, tr("Replay"), "replayDock", true);
    replayDock->setWidget(m_replayHolder); // empty: nothing to measure
    connect(replayDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            replayPanel();
    });
    tabifyDockWidget(infoDock, replayDock);
    replayDock->hide(); // shown when a range is picked or Replay Onto… is chosen (View menu too)
    infoDock->raise();
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    resizeDocks({promptDock}, {360}, Qt::Horizontal);
    resizeDocks({promptDock, infoDock}, {250, 470}, Qt::Vertical);
    resizeDocks({timelineDock}, {362}, Qt::Vertical);
    resize(1440, 900);
    fitToScreen(this);

    m_pending = new PendingIndicator(this);
}

void MainWindow::setVisible(bool visible)
{
    if (visible)
        attachTextWidgets();
    QMainWindow::setVisible(visible);
}

void MainWindow::attachTextWidgets()
{
    if (m_dockContents.isEmpty())
        return; // done at the first show
    for (const auto &[dock, content] : std::as_const(m_dockContents))
        dock->setWidget(content);
    m_dockContents.clear();
    statusBar()->addPermanentWidget(m_pending);
    for (QWidget *widget : m_shown->statusWidgets())
        statusBar()->addPermanentWidget(widget);
}

void MainWindow::buildControllers()
{
    m_actions = new ActionManager(this, session()->undoStack());
    CanvasView *canvas = m_stage->canvas();
    m_actions->adopt(ActionId::ZoomIn, canvas->zoomInAction());
    m_actions->adopt(ActionId::ZoomOut, canvas->zoomOutAction());
    m_actions->adopt(ActionId::ZoomFit, canvas->zoomFitAction());
    m_actions->adopt(ActionId::ZoomActual, canvas->zoomActualAction());
    m_imports = new ImportController(m_sessions, m_selection, m_prompt, m_notices, this);
    m_turns = new TurnDispatcher(m_sessions, m_selection, m_prompt, m_imports, m_notices, m_model, m_pending, this);
    m_selectionTools = new SelectionController(m_sessions, m_selection, m_stage, m_actions, this);
    auto *precision = new PrecisionRunner(session(), this);
    m_turns->setPrecision(m_selectionTools, precision);
    m_variants = new VariantsDispatch(m_sessions, m_selection, m_prompt, m_turns, m_notices, m_thumbs, this);
    m_editor = new FrameEditor(session(), m_selection, m_notices, this);
    m_dialogs = new WindowDialogs(m_sessions, m_selection, m_notices, m_actions, m_levels.get(), this);
    // Drift of every edit, on a worker (issue 13); region/protect frames are composited and
    // measured by the PrecisionRunner, whose readings the watch only reports.
    new DriftWatch(session(), m_selection, m_stage, m_notices, precision, this);
}

void MainWindow::buildMenus()
{
    // Groups of ids, a separator between groups.
    auto fill = [this](QWidget *target, std::initializer_list<std::initializer_list<ActionId>> groups) {
        bool first = true;
        for (const auto &group : groups) {
            if (!first) {
                auto *separator = new QAction(target);
                separator->setSeparator(true);
                target->addAction(separator);
            }
            first = false;
            for (ActionId id : group)
                target->addAction(action(id));
        }
    };
    QMenu *file = menuBar()->addMenu(tr("&File"));
    fill(file, {{ActionId::NewSession, ActionId::OpenSession}});
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    m_sessions->fillRecentMenu(m_recentMenu);
    file->addAction(action(ActionId::SaveSessionAs));
    file->addSeparator();
    fill(file, {{ActionId::OpenImage, ActionId::Export}, {ActionId::Settings}, {ActionId::Quit}});
    fill(menuBar()->addMenu(tr("&Edit")),
        {{ActionId::Undo, ActionId::Redo}, {ActionId::CopyImage, ActionId::Paste},
            {ActionId::Star, ActionId::Rename, ActionId::Note}, {ActionId::DeleteFrame, ActionId::DeleteBranch}});
    fill(menuBar()->addMenu(tr("F&rame")),
        {{ActionId::Send, ActionId::NewImage, ActionId::FocusPrompt},
            {ActionId::Retry, ActionId::Cancel, ActionId::ReAnchor}, {ActionId::Compare, ActionId::ReplayOnto}});
    const std::initializer_list<std::initializer_list<ActionId>> selectGroups {
        {ActionId::SelectPan, ActionId::SelectRectangle, ActionId::SelectEllipse, ActionId::SelectLasso,
            ActionId::SelectBrush, ActionId::SelectEraser},
        {ActionId::BrushSmaller, ActionId::BrushLarger}, {ActionId::SelectInvert, ActionId::SelectClear}};
    fill(menuBar()->addMenu(tr("&Select")), selectGroups);
    QMenu *view = menuBar()->addMenu(tr("&View"));
    fill(view, {{ActionId::ZoomIn, ActionId::ZoomOut, ActionId::ZoomFit, ActionId::ZoomActual}});
    view->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    view->addAction(action(ActionId::FullScreen));
    fill(menuBar()->addMenu(tr("&Help")), {{ActionId::KeyboardShortcuts, ActionId::Diagnostics, ActionId::About}});

    QToolBar *tb = addToolBar(tr("Main Toolbar"));
    tb->setObjectName(QStringLiteral("mainToolbar"));
    tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tb->setIconSize(QSize(18, 18));
    tb->setMovable(false);
    fill(tb,
        {{ActionId::NewSession, ActionId::OpenSession, ActionId::OpenImage}, {ActionId::Undo, ActionId::Redo},
            {ActionId::Compare, ActionId::Export}});
    auto *spacer = new QWidget(tb);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    tb->addWidget(spacer);
    fill(tb, {{ActionId::ZoomFit, ActionId::ZoomActual}, {ActionId::Settings}});
    // The selection tools (issue 13) in their own row under the main bar (on the left they
    // would widen the window past what an 800×600 screen allows); text only, with short names
    // (the menu keeps the long ones).
    addToolBarBreak(Qt::TopToolBarArea);
    auto *selectBar = new QToolBar(tr("Select Toolbar"), this);
    addToolBar(Qt::TopToolBarArea, selectBar);
    selectBar->setMovable(false);
    selectBar->setObjectName(QStringLiteral("selectToolbar"));
    selectBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    fill(selectBar,
        {{ActionId::SelectPan, ActionId::SelectRectangle, ActionId::SelectEllipse, ActionId::SelectLasso,
            ActionId::SelectBrush, ActionId::SelectEraser}});
    selectBar->addWidget(m_selectionTools->brushSizeBox(selectBar));
    fill(selectBar, {{ActionId::SelectInvert, ActionId::SelectClear}});
    const QList<QPair<ActionId, QString>> shortNames {{ActionId::SelectPan, tr("Pan")},
        {ActionId::SelectRectangle, tr("Rect")}, {ActionId::SelectEllipse, tr("Ellipse")},
        {ActionId::SelectLasso, tr("Lasso")}, {ActionId::SelectBrush, tr("Brush")},
        {ActionId::SelectEraser, tr("Eraser")}, {ActionId::SelectInvert, tr("Invert")},
        {ActionId::SelectClear, tr("Deselect")}};
    for (const auto &[id, name] : shortNames)
        action(id)->setIconText(name);
    // Icon-only where the text would crowd the bar.
    for (ActionId id : {ActionId::Undo, ActionId::Redo, ActionId::Settings, ActionId::ZoomFit, ActionId::ZoomActual}) {
        if (auto *b = qobject_cast<QToolButton *>(tb->widgetForAction(action(id))))
            b->setToolButtonStyle(Qt::ToolButtonIconOnly);
    }
    // Accessible names of the tool buttons (screen readers read these, not tooltips).
    for (QAction *a : tb->actions()) {
        if (QWidget *w = tb->widgetForAction(a)) {
            const QString name = a->property("accessibleName").toString();
            w->setAccessibleName(name.isEmpty() ? a->text().remove(QLatin1Char('&')) : name);
        }
    }
}

void MainWindow::wireActions()
{
    auto on
        = [this](ActionId id, auto receiver, auto slot) { connect(action(id), &QAction::triggered, receiver, slot); };
    // The inner lambda captures plain pointers, not `this` through the outer lambda: GCC 12 at
    // -O2 miscompiled that nested capture (UBSan saw `this` pointing into a QAction).
    auto onCurrent = [this](ActionId id, void (TurnDispatcher::*slot)(const QString &)) {
        TurnDispatcher *turns = m_turns;
        FrameSelection *selection = m_selection;
        connect(action(id), &QAction::triggered, turns,
            [turns, selection, slot] { (turns->*slot)(selection->currentId()); });
    };
    on(ActionId::NewSession, m_sessions, &SessionManager::newSessionFromMenu);
    on(ActionId::OpenSession, m_sessions, &SessionManager::openDialog);
    on(ActionId::SaveSessionAs, m_sessions, &SessionManager::saveAsDialog);
    on(ActionId::OpenImage, m_imports, &ImportController::openImageDialog);
    on(ActionId::Paste, m_imports, &ImportController::paste);
    on(ActionId::Export, m_dialogs, &WindowDialogs::showExport);
    on(ActionId::Settings, m_dialogs, &WindowDialogs::showSettings);
    on(ActionId::Diagnostics, m_dialogs, &WindowDialogs::showDiagnostics);
    on(ActionId::About, m_dialogs, &WindowDialogs::showAbout);
    on(ActionId::KeyboardShortcuts, m_dialogs, &WindowDialogs::showShortcuts);
    on(ActionId::Quit, this, &QWidget::close);
    on(ActionId::Undo, m_editor, &FrameEditor::announceUndo); // after the stack's own connection: the step is undone
    on(ActionId::Redo, m_editor, &FrameEditor::announceRedo);
    on(ActionId::CopyImage, m_stage, &ImageStage::copyImage);
    on(ActionId::DeleteFrame, m_editor, &FrameEditor::deleteFrame);
    on(ActionId::DeleteBranch, m_editor, &FrameEditor::deleteBranch);
    on(ActionId::Star, m_editor, &FrameEditor::toggleStar);
    on(ActionId::Rename, m_editor, &FrameEditor::renameFrame);
    on(ActionId::Note, m_editor, &FrameEditor::editNote);
    on(ActionId::Send, m_turns, &TurnDispatcher::submit);
    onCurrent(ActionId::Retry, &TurnDispatcher::retry);
    onCurrent(ActionId::Cancel, &TurnDispatcher::cancel);
    onCurrent(ActionId::ReAnchor, &TurnDispatcher::reAnchor);
    on(ActionId::FocusPrompt, m_prompt, &PromptPanel::focusPrompt);
    auto newImage = [this] {
        m_selection->requestNewImage();
        m_prompt->focusPrompt();
    };
    on(ActionId::NewImage, this, newImage);
    connect(m_prompt, &PromptPanel::newImageRequested, this, newImage);
    on(ActionId::Compare, this, [this](bool shown) {
        if (shown)
            m_stage->showCompare(m_stage->compareOtherId());
        else
            m_stage->showCanvas();
    });
    connect(m_stage, &ImageStage::compareShownChanged, action(ActionId::Compare), &QAction::setChecked);
    on(ActionId::FullScreen, this, [this] { isFullScreen() ? showNormal() : showFullScreen(); });
}

void MainWindow::wireSession()
{
    m_shown = new SessionPresenter({.window = this,
                                       .sessions = m_sessions,
                                       .selection = m_selection,
                                       .turns = m_turns,
                                       .stage = m_stage,
                                       .actions = m_actions,
                                       .model = m_model,
                                       .thumbs = m_thumbs,
                                       .info = m_info,
                                       .notices = m_notices},
        this);
    connect(m_sessions, &SessionManager::recentChanged, this, [this] { m_sessions->fillRecentMenu(m_recentMenu); });
    connect(m_turns, &TurnDispatcher::planChanged, this,
        [this](const TurnPlan &p) { m_timeline->setAttachHint(attachHintFor(p, m_prompt->variants())); });
    connect(m_prompt, &PromptPanel::variantsChanged, this,
        [this](int n) { m_timeline->setAttachHint(attachHintFor(m_prompt->plan(), n)); });
    connect(m_turns, &TurnDispatcher::thinkingLevelsChanged, this, &MainWindow::refreshThinkingLevels);
    connect(m_turns, &TurnDispatcher::settingsRequested, this, [this] {
        if (isVisible())
            m_dialogs->showSettings();
    });
    connect(m_dialogs, &WindowDialogs::settingsSaved, this, [this](bool keyChanged) {
        refreshThinkingLevels();
        m_timeline->refreshLaneHeaders(); // the prices may have changed
        Q_EMIT settingsChanged(keyChanged);
    });
    connect(m_demoBanner, &BannerWidget::actionTriggered, m_dialogs, &WindowDialogs::showSettings);
    connect(m_prompt, &PromptPanel::styleFileDropped, m_imports, &ImportController::setStyleReference);
    connect(m_info, &InfoPanel::parentActivated, m_selection, &FrameSelection::select);
    connect(m_timeline, &TimelineView::promptRequested, m_prompt, &PromptPanel::focusPrompt);
    connect(m_timeline, &TimelineView::cancelRequested, m_turns,
        [this](const QModelIndex &i) { m_turns->cancel(i.data(TimelineRole::FrameId).toString()); });
    connect(m_timeline, &TimelineView::retryRequested, m_turns,
        [this](const QModelIndex &i) { m_turns->retry(i.data(TimelineRole::FrameId).toString()); });
    connect(m_timeline, &QWidget::customContextMenuRequested, this, &MainWindow::showTimelineMenu);
    // Replay: Shift+click picks the range, "Replay Onto…" plans it, the panel shows its progress.
    auto showReplay = [this] {
        if (auto *dock = findChild<QDockWidget *>(QStringLiteral("replayDock"))) {
            dock->show();
            dock->raise();
        }
    };
    connect(m_timeline, &TimelineView::rangeRequested, this,
        [this, showReplay](const QModelIndex &a, const QModelIndex &b) {
            replayPanel()->setRange(a.data(TimelineRole::FrameId).toString(), b.data(TimelineRole::FrameId).toString());
            showReplay();
        });
    connect(action(ActionId::ReplayOnto), &QAction::triggered, this, [this, showReplay] {
        showReplay();
        if (replayPanel()->rangeFrom().isEmpty())
            m_notices->status(
                tr("Choose the range first: select a frame, then Shift+click another frame of its branch."));
        else
            replayPanel()->openDialog(m_selection->currentId());
    });
    connect(m_sessions, &SessionManager::aboutToSwitch, this, [this] {
        if (!m_replay)
            return; // nothing to detach
        m_replay->detach();
        m_replay->setRange({}, {});
    });
    connect(m_sessions, &SessionManager::switched, this, [this] { replayPanel()->refreshUnfinished(); });
}

ReplayPanel *MainWindow::replayPanel()
{
    if (!m_replay) {
        m_replay = new ReplayPanel(session(), m_replayHolder);
        m_replayHolder->layout()->addWidget(m_replay);
        connect(m_replay, &ReplayPanel::frameActivated, m_selection, &FrameSelection::select);
    }
    return m_replay;
}

void MainWindow::showTimelineMenu(const QPoint &pos)
{
    const QModelIndex idx = m_timeline->indexAt(pos);
    QMenu menu(this);
    if (idx.isValid()) {
        const QString id = idx.data(TimelineRole::FrameId).toString();
        if (id != m_selection->currentId() && !m_selection->currentId().isEmpty()) {
            menu.addAction(tr("Compare with Selected Frame"), this, [this, id] { m_stage->showCompare(id); });
            menu.addSeparator();
        } else {
            m_selection->select(id);
        }
    }
    for (ActionId id : {ActionId::Compare, ActionId::Retry, ActionId::Cancel, ActionId::ReAnchor, ActionId::Star,
             ActionId::Rename, ActionId::Note, ActionId::CopyImage, ActionId::DeleteFrame, ActionId::DeleteBranch}) {
        if (action(id)->isEnabled())
            menu.addAction(action(id));
    }
    if (idx.isValid())
        m_variants->addFoldAction(&menu, idx.data(TimelineRole::FrameId).toString());
    if (!menu.isEmpty())
        menu.exec(m_timeline->viewport()->mapToGlobal(pos));
}

// ---------------------------------------------------------------- state shown

void MainWindow::showBackend(const ClientConfig &config, bool demo)
{
    m_config = config;
    m_config.thinkingLevels = m_levels.get();
    m_demo = demo;
    if (demo)
        m_demoBanner->setMessage(
            BannerWidget::Kind::Info, tr("Demo backend: images are synthetic — add a Gemini API key in Settings"));
    m_demoBanner->setVisible(demo);
    refreshThinkingLevels();
}

void MainWindow::setBackend(const ClientConfig &config, bool demo)
{
    showBackend(config, demo);
    session()->setClient(std::make_shared<InteractionsClient>(m_config));
    m_turns->setKeySource(demo ? QString() : m_config.apiKey.source());
    m_dialogs->setBackend(m_config, demo);
    Q_EMIT backendChanged();
}

void MainWindow::restoreLastState(bool openLastSession)
{
    if (const QByteArray geometry = WindowPreferences::geometry(); !geometry.isEmpty())
        restoreGeometry(geometry);
    if (const QByteArray state = WindowPreferences::dockState(); !state.isEmpty())
        restoreState(state);
    fitToScreen(this); // a layout saved on a larger screen (or at another scale) must still fit
    m_prompt->setAspectRatio(WindowPreferences::generateAspect());
    if (openLastSession)
        m_sessions->restoreLast();
}

void MainWindow::refreshThinkingLevels()
{
    m_prompt->setThinkingLevels(m_levels->allowed(m_config.model), WindowPreferences::preferredThinkingLevel());
}

// ---------------------------------------------------------------- events

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (auto *src = qobject_cast<QWidget *>(event->source()); src && src->window() == this)
        return; // a frame dragged out of our own timeline is not an import
    if (ImportController::canImport(event->mimeData()))
        event->acceptProposedAction();
}

void MainWindow::dragMoveEvent(QDragMoveEvent *event)
{
    if (auto *src = qobject_cast<QWidget *>(event->source()); src && src->window() == this)
        return;
    event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    if (m_imports->importMimeData(event->mimeData()))
        event->acceptProposedAction();
    else
        m_notices->show(NoticeKind::Error, tr("Nothing in the drop is a picture that can be imported."));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    SessionController *s = session();
    if (s->isOpen() && !s->isIdle()) {
        const int n = s->runningCount() + s->queuedCount();
        QMessageBox box(QMessageBox::Question, tr("Requests Still Running"),
            tr("%n request(s) still running.", nullptr, n), QMessageBox::NoButton, this);
        box.setInformativeText(tr("If you quit now they are cancelled; you can retry them when you come back."));
        QPushButton *quit = box.addButton(tr("Cancel Requests and Quit"), QMessageBox::DestructiveRole);
        box.setDefaultButton(box.addButton(tr("Keep Working"), QMessageBox::RejectRole));
        box.exec();
        if (box.clickedButton() != quit) {
            event->ignore();
            return;
        }
        for (const QString &id : s->graph().withStatus(FrameStatus::Pending))
            s->cancel(id);
        s->waitForIdle(5000);
    }
    m_turns->clearScheduledRetries();
    WindowPreferences::setLayout(saveGeometry(), saveState());
    WindowPreferences::setLastFrame(m_selection->currentId());
    if (m_prompt->mode() == PromptPanel::Mode::Generate)
        WindowPreferences::setGenerateAspect(m_prompt->aspectRatio());
    m_sessions->waitForSettingsWritten(); // the recent list's writes (a worker's) land before this one
    if (!m_sessions->dir().isEmpty())
        WindowPreferences::setLastSession(m_sessions->dir());
    event->accept();
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::WindowStateChange && m_actions)
        action(ActionId::FullScreen)->setChecked(isFullScreen());
    QMainWindow::changeEvent(event);
}

} // namespace nb2
