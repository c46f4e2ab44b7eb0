#include "ui/mainwindow.h"

#include "core/api/buildinfo.h"
#include "core/api/imageinput.h"
#include "core/api/interactionsclient.h"
#include "core/api/thinkinglevels.h"
#include "core/export/exporter.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "ui/bannerwidget.h"
#include "ui/canvasview.h"
#include "ui/compareview.h"
#include "ui/diagnosticsdialog.h"
#include "ui/exportdialog.h"
#include "ui/importcheck.h"
#include "ui/infopanel.h"
#include "ui/keystore.h"
#include "ui/pendingindicator.h"
#include "ui/promptpanel.h"
#include "ui/settingsdialog.h"
#include "ui/theme.h"
#include "ui/thumbnailprovider.h"
#include "ui/timelinemodel.h"
#include "ui/timelineview.h"
#include "ui/windowsettings.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDateTime>
#include <QDesktopServices>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QImageReader>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QBuffer>
#include <QUndoStack>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace nb2 {

namespace {

struct DecodedImage {
    QImage image;
    QString error;
};

// Worker: full-size decode (never on the GUI thread).
DecodedImage decodeImage(const QString &path)
{
    DecodedImage d;
    QImageReader reader(path);
    reader.setAutoTransform(true);
    d.image = reader.read();
    if (d.image.isNull())
        d.error = reader.errorString();
    return d;
}

bool copyTree(const QString &from, const QString &to, QString *error)
{
    QDir src(from);
    if (!QDir().mkpath(to)) {
        *error = QCoreApplication::translate("nb2::MainWindow", "Cannot create %1.").arg(to);
        return false;
    }
    QDirIterator it(from, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString rel = src.relativeFilePath(path);
        if (rel == QLatin1String("session.lock"))
            continue;
        const QString target = to + QLatin1Char('/') + rel;
        if (it.fileInfo().isDir()) {
            QDir().mkpath(target);
            continue;
        }
        QDir().mkpath(QFileInfo(target).absolutePath());
        if (!QFile::copy(path, target)) {
            *error = QCoreApplication::translate("nb2::MainWindow", "Cannot copy %1 to %2.").arg(path, target);
            return false;
        }
    }
    return true;
}

QString errorHint(const Error &e)
{
    switch (e.kind) {
    case ErrorKind::Auth:
        return MainWindow::tr("The API key was refused. Check it in Settings.");
    case ErrorKind::Network:
        return MainWindow::tr("Could not reach the server. Check the network or the base URL in Settings.");
    case ErrorKind::Timeout:
        return MainWindow::tr("The server did not answer in time. Retry, or try again later.");
    default:
        return {};
    }
}

} // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    setWindowIcon(QIcon(QStringLiteral(":/icons/app.svg")));

    m_levels = std::make_unique<ThinkingLevels>(
        QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/thinking-levels.json"));
    m_session = new SessionController(this);
    {
        QSettings s;
        m_session->setSettings(StudioSettings::load(s).session);
    }
    m_thumbs = new ThumbnailProvider(this);
    m_model = new TimelineModel(m_session, this);
    // App-wide, not the window's child: a pending QtKeychain (libsecret) job must outlive a
    // closed window, or its late answer lands on a deleted object.
    m_keyStore = new KeyStore(QCoreApplication::instance());

    buildLayout();
    buildActions();
    buildMenus();
    connectSession();
    updateTitle();
    updatePromptMode();
    updateActions();
    refreshThinkingLevels();
}

MainWindow::~MainWindow()
{
    for (QTimer *t : std::as_const(m_retryTimers))
        t->stop();
    // The controller goes first, while the window's members still exist: its teardown
    // (waiting for running turns, clearing the undo stack) emits signals we listen to.
    if (m_session->undoStack())
        disconnect(m_session->undoStack(), nullptr, this, nullptr);
    disconnect(m_session, nullptr, this, nullptr);
    disconnect(m_session, nullptr, m_model, nullptr);
    delete m_session;
    m_session = nullptr;
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
    connect(m_demoBanner, &BannerWidget::actionTriggered, this, &MainWindow::showSettings);
    m_demoBanner->hide();
    v->addWidget(m_demoBanner);

    m_messageBanner = new BannerWidget(center);
    m_messageBanner->setObjectName(QStringLiteral("messageBanner"));
    m_messageBanner->setCloseButtonVisible(true);
    connect(m_messageBanner, &BannerWidget::actionTriggered, this, [this] {
        auto action = m_messageAction;
        m_messageBanner->hide();
        if (action)
            action();
    });
    m_messageBanner->hide();
    v->addWidget(m_messageBanner);

    m_centerStack = new QStackedWidget(center);
    m_canvas = new CanvasView(m_centerStack);
    m_canvas->setObjectName(QStringLiteral("canvas"));
    m_canvas->setAccessibleName(tr("Image"));
    m_canvas->setEmptyText(tr("Describe an image in the Prompt panel and press Generate — or drop or paste a picture here."));
    m_compare = new CompareView(m_centerStack);
    m_compare->setObjectName(QStringLiteral("compareView"));
    m_centerStack->addWidget(m_canvas);
    m_centerStack->addWidget(m_compare);
    v->addWidget(m_centerStack, 1);
    setCentralWidget(center);

    // Timeline: along the bottom, full width, so long chains have room.
    m_timeline = new TimelineView(this);
    m_timeline->setObjectName(QStringLiteral("timelineView"));
    m_timeline->setThumbnailProvider(m_thumbs);
    m_timeline->setModel(m_model);
    m_timeline->setContextMenuPolicy(Qt::CustomContextMenu);
    auto *timelineDock = new QDockWidget(tr("Timeline"), this);
    timelineDock->setObjectName(QStringLiteral("timelineDock"));
    timelineDock->setWidget(m_timeline);
    timelineDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable
                              | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::BottomDockWidgetArea, timelineDock);

    // The right column: what to send next on top, what the selected frame is below.
    m_prompt = new PromptPanel(this);
    auto *promptDock = new QDockWidget(tr("Prompt"), this);
    promptDock->setObjectName(QStringLiteral("promptDock"));
    promptDock->setWidget(m_prompt);
    promptDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::RightDockWidgetArea, promptDock);

    m_info = new InfoPanel(this);
    auto *infoDock = new QDockWidget(tr("Frame Details"), this);
    infoDock->setObjectName(QStringLiteral("infoDock"));
    infoDock->setWidget(m_info);
    infoDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable
                          | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::RightDockWidgetArea, infoDock);
    splitDockWidget(promptDock, infoDock, Qt::Vertical);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    resizeDocks({promptDock}, {360}, Qt::Horizontal);
    resizeDocks({promptDock, infoDock}, {250, 470}, Qt::Vertical);
    resizeDocks({timelineDock}, {362}, Qt::Vertical);
    resize(1440, 900);

    m_pending = new PendingIndicator(this);
    statusBar()->addPermanentWidget(m_pending);
    m_sessionLabel = new QLabel(this);
    m_sessionLabel->setObjectName(QStringLiteral("sessionLabel"));
    statusBar()->addPermanentWidget(m_sessionLabel);

    connect(m_prompt, &PromptPanel::submitRequested, this, &MainWindow::submit);
    connect(m_prompt, &PromptPanel::newImageRequested, this, &MainWindow::newImage);
    connect(m_prompt, &PromptPanel::styleFileDropped, this, &MainWindow::setStyleReference);
    connect(m_info, &InfoPanel::parentActivated, this, &MainWindow::selectFrame);
    connect(m_timeline, &TimelineView::cancelRequested, this,
            [this](const QModelIndex &i) { cancelFrame(i.data(TimelineRole::FrameId).toString()); });
    connect(m_timeline, &TimelineView::promptRequested, m_prompt, &PromptPanel::focusPrompt);
    connect(m_timeline, &TimelineView::retryRequested, this,
            [this](const QModelIndex &i) { retryFrame(i.data(TimelineRole::FrameId).toString()); });
    connect(m_timeline->selectionModel(), &QItemSelectionModel::currentChanged, this, &MainWindow::onCurrentChanged);
    // A reset (deletion, undo, another process's write) loses the view's current index:
    // keep the user's place.
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this,
            [this] { m_selectionBeforeReset = currentFrameId(); });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        const QString keep = m_selectionBeforeReset;
        m_selectionBeforeReset.clear();
        if (!keep.isEmpty() && m_model->indexOf(keep).isValid()) {
            const bool force = m_forceGenerate;
            selectFrame(keep);
            m_forceGenerate = force;
            updatePromptMode();
        } else {
            onCurrentChanged();
        }
    });
    connect(m_timeline, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        const QModelIndex idx = m_timeline->indexAt(pos);
        QMenu menu(this);
        if (idx.isValid()) {
            const QString id = idx.data(TimelineRole::FrameId).toString();
            if (id != currentFrameId() && !currentFrameId().isEmpty()) {
                menu.addAction(tr("Compare with Selected Frame"), this, [this, id] { showCompare(id); });
                menu.addSeparator();
            } else {
                selectFrame(id);
            }
        }
        for (const char *name : {"compare", "retry", "cancel", "reAnchor", "star", "rename", "note", "copyImage",
                                 "deleteFrame", "deleteBranch"}) {
            if (QAction *a = action(QLatin1String(name)); a && a->isEnabled())
                menu.addAction(a);
        }
        if (!menu.isEmpty())
            menu.exec(m_timeline->viewport()->mapToGlobal(pos));
    });
}

QAction *MainWindow::action(const QString &objectName) const { return m_actions.value(objectName); }

void MainWindow::buildActions()
{
    auto make = [this](const char *name, const QString &text, const QString &tip, const QString &icon,
                       const QList<QKeySequence> &keys, auto slot) {
        auto *a = new QAction(text, this);
        a->setObjectName(QLatin1String(name));
        a->setToolTip(keys.isEmpty() ? tip : tip + QStringLiteral(" (%1)").arg(keys.first().toString(QKeySequence::NativeText)));
        a->setStatusTip(tip);
        QString plain = text;
        plain.remove(QLatin1Char('&'));
        plain.remove(QStringLiteral("…"));
        a->setProperty("accessibleName", plain);
        a->setWhatsThis(tip);
        if (!keys.isEmpty())
            a->setShortcuts(keys);
        if (!icon.isEmpty())
            a->setIcon(themeIcon(icon));
        connect(a, &QAction::triggered, this, slot);
        addAction(a); // shortcuts work even when menus/toolbars are hidden (full screen)
        m_actions.insert(QLatin1String(name), a);
        return a;
    };
    make("newSession", tr("&New Session"), tr("Start a new, empty session"), QStringLiteral("generate"),
         {QKeySequence::New}, [this] { QString e; if (!newSession(&e)) showMessage(int(BannerWidget::Kind::Error), e); });
    make("openSession", tr("&Open Session…"), tr("Open a session folder"), QStringLiteral("folder"),
         {QKeySequence::Open}, [this] { openSessionDialog(); });
    make("saveSessionAs", tr("Save Session &As…"), tr("Copy this session to a new folder and continue there"), {},
         {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)}, [this] { saveSessionAs(); });
    make("openImage", tr("Open &Image…"), tr("Import a picture from a file as a new frame"), QStringLiteral("import"),
         {QKeySequence(Qt::CTRL | Qt::Key_I)}, [this] { openImageDialog(); });
    make("export", tr("&Export…"), tr("Export the session's history"), QStringLiteral("export"),
         {QKeySequence(Qt::CTRL | Qt::Key_E)}, [this] { exportSession(); });
    make("settings", tr("&Settings…"), tr("API key, model, endpoint and session options"), QStringLiteral("settings"),
         {QKeySequence(Qt::CTRL | Qt::Key_Comma)}, [this] { showSettings(); });
    make("quit", tr("&Quit"), tr("Quit NB2Lite Studio"), {}, {QKeySequence::Quit}, [this] { close(); });

    QUndoStack *stack = m_session->undoStack();
    QAction *undo = stack ? stack->createUndoAction(this, tr("&Undo")) : new QAction(tr("&Undo"), this);
    undo->setObjectName(QStringLiteral("undo"));
    undo->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Z)});
    undo->setIcon(themeIcon(QStringLiteral("undo")));
    undo->setToolTip(tr("Undo the last local change: delete, restore, rename, star, note (Ctrl+Z)"));
    undo->setProperty("accessibleName", tr("Undo"));
    addAction(undo);
    m_actions.insert(QStringLiteral("undo"), undo);
    QAction *redo = stack ? stack->createRedoAction(this, tr("&Redo")) : new QAction(tr("&Redo"), this);
    redo->setObjectName(QStringLiteral("redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    redo->setIcon(themeIcon(QStringLiteral("redo")));
    redo->setToolTip(tr("Redo the change undone last (Ctrl+Shift+Z)"));
    redo->setProperty("accessibleName", tr("Redo"));
    addAction(redo);
    m_actions.insert(QStringLiteral("redo"), redo);

    make("copyImage", tr("&Copy Image"), tr("Copy the selected frame's image"), QStringLiteral("copy"),
         {QKeySequence::Copy}, [this] { copyImage(); });
    make("paste", tr("&Paste Image"), tr("Import the picture on the clipboard as a new frame"), {},
         {QKeySequence::Paste}, [this] { paste(); });
    make("deleteFrame", tr("&Delete Frame"), tr("Move the selected frame and what follows it to the trash (undoable)"),
         QStringLiteral("delete"), {QKeySequence::Delete}, [this] { deleteFrame(); });
    make("deleteBranch", tr("Delete &Branch"), tr("Move the frames only this branch has to the trash (undoable)"), {},
         {QKeySequence(Qt::SHIFT | Qt::Key_Delete)}, [this] { deleteBranch(); });
    make("star", tr("S&tar"), tr("Mark or unmark the selected frame as a favourite"), QStringLiteral("star"),
         {QKeySequence(Qt::CTRL | Qt::Key_D)}, [this] { toggleStar(); });
    make("rename", tr("&Rename…"), tr("Give the selected frame a title"), {}, {QKeySequence(Qt::Key_F2)},
         [this] { renameFrame(); });
    make("note", tr("Edit &Note…"), tr("Attach a note to the selected frame"), {}, {}, [this] { editNote(); });

    make("send", tr("&Send"), tr("Send the prompt: generate, edit or branch as the button says"),
         QStringLiteral("generate"),
         {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}, [this] { submit(); });
    make("newImage", tr("&New Image"), tr("Start a fresh image instead of editing the selected frame"),
         QStringLiteral("image"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N)}, [this] { newImage(); });
    make("retry", tr("&Retry"), tr("Send the selected frame's request again"), QStringLiteral("retry"),
         {QKeySequence(Qt::CTRL | Qt::Key_R)}, [this] { retryFrame(currentFrameId()); });
    make("cancel", tr("&Cancel Request"), tr("Cancel the selected frame's request"), QStringLiteral("cancel"),
         {QKeySequence(Qt::Key_Escape)}, [this] { cancelFrame(currentFrameId()); });
    make("reAnchor", tr("Re-&anchor"),
         tr("Send the parent's stored pixels instead of its expired server id, with the same prompt"),
         QStringLiteral("reanchor"), {}, [this] { reAnchorFrame(currentFrameId()); });
    QAction *compare = make("compare", tr("&Compare with Parent"),
                            tr("Compare the selected frame with its parent: side by side, swipe or difference"),
                            QStringLiteral("compare"), {QKeySequence(Qt::CTRL | Qt::Key_K)}, [this](bool on) {
                                if (on)
                                    showCompare(m_compareOtherId);
                                else
                                    showCanvas();
                            });
    compare->setCheckable(true);

    QAction *full = make("fullScreen", tr("&Full Screen"), tr("Show the window full screen"), {},
                         {QKeySequence(Qt::Key_F11)}, [this] { toggleFullScreen(); });
    full->setCheckable(true);
    make("diagnostics", tr("&Diagnostics…"), tr("Key status, endpoint, versions and a connection test"),
         QStringLiteral("info"), {}, [this] { showDiagnostics(); });
    make("about", tr("&About NB2Lite Studio"), tr("Version and credits"), {}, {}, [this] {
        QMessageBox::about(this, tr("About NB2Lite Studio"),
                           tr("<h3>NB2Lite Studio %1</h3><p>Iterative image editing over the Gemini Interactions "
                              "API (model gemini-3.1-flash-lite-image).</p><p>Every frame is kept on disk in the "
                              "session folder; server ids are a shortcut, not the history.</p>")
                               .arg(QStringLiteral(NB2_VERSION)));
    });
    for (QAction *a : {m_canvas->zoomInAction(), m_canvas->zoomOutAction(), m_canvas->zoomFitAction(),
                       m_canvas->zoomActualAction()}) {
        if (a)
            m_actions.insert(a->objectName().isEmpty() ? a->text() : a->objectName(), a);
    }
    connect(m_session->undoStack(), &QUndoStack::indexChanged, this, [this] { updateActions(); });
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(action(QStringLiteral("newSession")));
    file->addAction(action(QStringLiteral("openSession")));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    rebuildRecentMenu();
    file->addAction(action(QStringLiteral("saveSessionAs")));
    file->addSeparator();
    file->addAction(action(QStringLiteral("openImage")));
    file->addAction(action(QStringLiteral("export")));
    file->addSeparator();
    file->addAction(action(QStringLiteral("settings")));
    file->addSeparator();
    file->addAction(action(QStringLiteral("quit")));

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(action(QStringLiteral("undo")));
    edit->addAction(action(QStringLiteral("redo")));
    edit->addSeparator();
    edit->addAction(action(QStringLiteral("copyImage")));
    edit->addAction(action(QStringLiteral("paste")));
    edit->addSeparator();
    edit->addAction(action(QStringLiteral("star")));
    edit->addAction(action(QStringLiteral("rename")));
    edit->addAction(action(QStringLiteral("note")));
    edit->addSeparator();
    edit->addAction(action(QStringLiteral("deleteFrame")));
    edit->addAction(action(QStringLiteral("deleteBranch")));

    QMenu *frame = menuBar()->addMenu(tr("F&rame"));
    frame->addAction(action(QStringLiteral("send")));
    frame->addAction(action(QStringLiteral("newImage")));
    frame->addSeparator();
    frame->addAction(action(QStringLiteral("retry")));
    frame->addAction(action(QStringLiteral("cancel")));
    frame->addAction(action(QStringLiteral("reAnchor")));
    frame->addSeparator();
    frame->addAction(action(QStringLiteral("compare")));

    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (QAction *a : {m_canvas->zoomInAction(), m_canvas->zoomOutAction(), m_canvas->zoomFitAction(),
                       m_canvas->zoomActualAction()}) {
        if (a)
            view->addAction(a);
    }
    view->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    view->addAction(action(QStringLiteral("fullScreen")));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(action(QStringLiteral("diagnostics")));
    help->addAction(action(QStringLiteral("about")));

    QToolBar *tb = addToolBar(tr("Main Toolbar"));
    tb->setObjectName(QStringLiteral("mainToolbar"));
    tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tb->setIconSize(QSize(18, 18));
    tb->setMovable(false);
    tb->addAction(action(QStringLiteral("newSession")));
    tb->addAction(action(QStringLiteral("openSession")));
    tb->addAction(action(QStringLiteral("openImage")));
    tb->addSeparator();
    tb->addAction(action(QStringLiteral("undo")));
    tb->addAction(action(QStringLiteral("redo")));
    tb->addSeparator();
    tb->addAction(action(QStringLiteral("compare")));
    tb->addAction(action(QStringLiteral("export")));
    auto *spacer = new QWidget(tb);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    tb->addWidget(spacer);
    for (QAction *a : {m_canvas->zoomFitAction(), m_canvas->zoomActualAction()}) {
        if (a)
            tb->addAction(a);
    }
    tb->addSeparator();
    tb->addAction(action(QStringLiteral("settings")));
    // Icon-only where the text would crowd the bar.
    for (const char *name : {"undo", "redo", "settings"}) {
        if (QWidget *w = tb->widgetForAction(action(QLatin1String(name))))
            if (auto *b = qobject_cast<QToolButton *>(w))
                b->setToolButtonStyle(Qt::ToolButtonIconOnly);
    }
    for (QAction *a : {m_canvas->zoomFitAction(), m_canvas->zoomActualAction()}) {
        if (QWidget *w = a ? tb->widgetForAction(a) : nullptr)
            if (auto *b = qobject_cast<QToolButton *>(w))
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

void MainWindow::connectSession()
{
    connect(m_session, &SessionController::frameAdded, this, [this](const QString &) {
        updatePending();
        updateActions();
    });
    connect(m_session, &SessionController::frameChanged, this, [this](const QString &id) {
        if (id == currentFrameId()) {
            updateInfo();
            updatePromptMode();
            loadCanvasImage();
        }
        updatePending();
        updateActions();
    });
    connect(m_session, &SessionController::frameRemoved, this, [this](const QString &) {
        updatePending();
        updateActions();
    });
    connect(m_session, &SessionController::turnStarted, this, [this](const QString &) { updatePending(); });
    connect(m_session, &SessionController::turnFinished, this, &MainWindow::onTurnFinished);
    connect(m_session, &SessionController::turnFailed, this, &MainWindow::onTurnFailed);
    connect(m_session, &SessionController::frameReAnchored, this, [this](const QString &id) {
        statusBar()->showMessage(tr("%1 was re-anchored: the parent's id had expired, so its pixels were sent "
                                    "(continuity may differ).").arg(frameLabel(id)), 8000);
    });
    connect(m_session, &SessionController::changedExternally, this, [this] {
        statusBar()->showMessage(tr("The session was changed by another program; the timeline is up to date."), 6000);
        onCurrentChanged();
        updatePending();
    });
    connect(m_session, &SessionController::errorOccurred, this,
            [this](const QString &message) { showMessage(int(BannerWidget::Kind::Error), message); });
    connect(m_session, &SessionController::recoveryFinished, this, [this](int recovered, int interrupted) {
        if (interrupted > 0)
            showMessage(int(BannerWidget::Kind::Warning),
                        (interrupted == 1 ? tr("A request was interrupted when the app last closed; select it and press Retry to send it again.")
                                          : tr("%1 requests were interrupted when the app last closed; select one and press Retry "
                                               "to send it again.").arg(interrupted)));
        else if (recovered > 0)
            statusBar()->showMessage((recovered == 1 ? tr("An interrupted request was recovered from the server.")
                                                    : tr("%1 interrupted requests were recovered from the server.").arg(recovered)), 6000);
    });
    connect(m_session, &SessionController::idle, this, [this] { updatePending(); });
    connect(m_session, &SessionController::draftReceived, this, &MainWindow::onDraftReceived);
}

// ---------------------------------------------------------------- backend and sessions

void MainWindow::setBackend(const ClientConfig &config, bool demo)
{
    m_config = config;
    m_config.thinkingLevels = m_levels.get();
    m_demo = demo;
    m_session->setClient(std::make_shared<InteractionsClient>(m_config));
    if (demo) {
        m_demoBanner->setMessage(BannerWidget::Kind::Info,
                                 tr("Demo backend: images are synthetic — add a Gemini API key in Settings"));
        m_demoBanner->show();
    } else {
        m_demoBanner->hide();
    }
    refreshThinkingLevels();
    Q_EMIT backendChanged();
}

QString MainWindow::sessionDir() const
{
    return m_session->isOpen() && m_session->store() ? m_session->store()->dir() : QString();
}

bool MainWindow::openSession(const QString &dir, QString *errorMessage)
{
    const QString previous = sessionDir();
    if (!previous.isEmpty() && QFileInfo(previous) == QFileInfo(dir))
        return true;
    if (m_session->isOpen() && !m_session->isIdle()) {
        const QString e = tr("Requests are still running in this session; wait for them or cancel them first.");
        if (errorMessage)
            *errorMessage = e;
        return false;
    }
    for (QTimer *t : std::as_const(m_retryTimers))
        t->deleteLater();
    m_retryTimers.clear();
    m_session->close();
    if (const Result<void> opened = m_session->open(dir); !opened) {
        if (errorMessage)
            *errorMessage = opened.error().message;
        // Put the previous session back, so the window is never left without one.
        if (!previous.isEmpty())
            m_session->open(previous);
        m_model->refresh();
        return false;
    }
    m_thumbs->setDiskCacheDir(m_session->store()->thumbsDir());
    m_model->refresh();
    m_canvasFrameId.clear();
    m_compareOtherId.clear();
    {
        QSettings s;
        windowprefs::lastSession.write(s, QDir(dir).absolutePath());
    }
    addRecent(QDir(dir).absolutePath());
    clearMessage();
    // Select the frame the user worked on last (the store remembers it), else the newest head.
    QString select = m_session->store()->currentFrameId();
    if (select.isEmpty() || !m_session->graph().contains(select)) {
        const QStringList heads = m_session->graph().heads();
        select = heads.isEmpty() ? QString() : heads.last();
    }
    selectFrame(select);
    updateTitle();
    updatePending();
    updateActions();
    return true;
}

bool MainWindow::newSession(QString *errorMessage)
{
    QSettings s;
    const QString folder = StudioSettings::load(s).effectiveSessionsFolder();
    const QString base = QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH.mm"));
    QString dir = folder + QLatin1Char('/') + base;
    for (int n = 2; QFileInfo::exists(dir); ++n)
        dir = folder + QLatin1Char('/') + base + QStringLiteral(" (%1)").arg(n);
    if (!QDir().mkpath(dir)) {
        if (errorMessage)
            *errorMessage = tr("Cannot create the session folder %1. Choose another sessions folder in Settings.").arg(dir);
        return false;
    }
    return openSession(dir, errorMessage);
}

void MainWindow::restoreLastState()
{
    QSettings s;
    const QByteArray geometry = windowprefs::geometry.read(s);
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    const QByteArray state = windowprefs::state.read(s);
    if (!state.isEmpty())
        restoreState(state);
    m_prompt->setAspectRatio(windowprefs::aspectRatio.read(s));
    const QString last = windowprefs::lastSession.read(s);
    const QString frame = windowprefs::lastFrame.read(s);
    QString error;
    if (!last.isEmpty() && QFileInfo(last).isDir() && openSession(last, &error)) {
        if (!frame.isEmpty() && m_session->graph().contains(frame))
            selectFrame(frame);
        return;
    }
    const QString lastError = error;
    if (!newSession(&error))
        showMessage(int(BannerWidget::Kind::Error), error);
    else if (!last.isEmpty() && !lastError.isEmpty())
        reportOpenFailure(last, lastError); // a damaged last session: offer to rebuild it, never just move on
}

void MainWindow::saveWindowState()
{
    QSettings s;
    windowprefs::geometry.write(s, saveGeometry());
    windowprefs::state.write(s, saveState());
    windowprefs::lastFrame.write(s, currentFrameId());
    windowprefs::aspectRatio.write(s, m_prompt->mode() == PromptPanel::Mode::Generate ? m_prompt->aspectRatio()
                                                                                    : windowprefs::aspectRatio.read(s));
    if (!sessionDir().isEmpty())
        windowprefs::lastSession.write(s, sessionDir());
}

void MainWindow::addRecent(const QString &dir)
{
    QSettings s;
    QStringList recent = windowprefs::recentSessions.read(s);
    recent.removeAll(dir);
    recent.prepend(dir);
    while (recent.size() > windowprefs::kMaxRecent)
        recent.removeLast();
    windowprefs::recentSessions.write(s, recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    QSettings s;
    const QStringList recent = windowprefs::recentSessions.read(s);
    int n = 0;
    for (const QString &dir : recent) {
        if (!QFileInfo(dir).isDir())
            continue;
        ++n;
        QAction *a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(n).arg(QFileInfo(dir).fileName()));
        a->setToolTip(dir);
        a->setStatusTip(dir);
        connect(a, &QAction::triggered, this, [this, dir] {
            QString e;
            if (!openSession(dir, &e))
                showMessage(int(BannerWidget::Kind::Error), tr("Cannot open the session: %1").arg(e));
        });
    }
    m_recentMenu->setEnabled(n > 0);
}

void MainWindow::openSessionDialog()
{
    QSettings s;
    const QString start = StudioSettings::load(s).effectiveSessionsFolder();
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Session"), start);
    if (dir.isEmpty())
        return;
    // Never turn an arbitrary folder (Pictures, a project) into a session by opening it.
    const QDir d(dir);
    const bool isSession = d.exists(QStringLiteral("manifest.json")) || d.exists(QStringLiteral("journal.jsonl"));
    if (!isSession && !d.isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot)) {
        showMessage(int(BannerWidget::Kind::Error),
                    tr("“%1” is not an NB2Lite session (it has no manifest.json). Choose a session folder, or an "
                       "empty folder to start a new session there.").arg(QDir::toNativeSeparators(dir)));
        return;
    }
    QString e;
    if (!openSession(dir, &e))
        reportOpenFailure(dir, e);
}

void MainWindow::reportOpenFailure(const QString &dir, const QString &error)
{
    // Only damage is what a rebuild repairs (not a lock, a read-only folder or a newer format).
    SessionStore probe;
    const Result<void> read = probe.open(dir, SessionStore::OpenMode::ReadOnly);
    if (read || read.error().kind != ErrorKind::Corrupt) {
        showMessage(int(BannerWidget::Kind::Error), tr("Cannot open the session: %1").arg(error));
        return;
    }
    showMessage(int(BannerWidget::Kind::Error), tr("Cannot open the session: %1").arg(error), tr("Rebuild Session"),
                [this, dir] {
                    // Rebuild keeps the broken manifest aside and recovers frames from the journal and images.
                    if (!m_session->isIdle()) {
                        showMessage(int(BannerWidget::Kind::Error),
                                    tr("Wait for the running requests to finish before rebuilding another session."));
                        return;
                    }
                    m_session->close();
                    if (const Result<void> rebuilt = m_session->rebuild(dir); !rebuilt) {
                        showMessage(int(BannerWidget::Kind::Error), tr("The session could not be rebuilt: %1").arg(rebuilt.error().message));
                        return;
                    }
                    m_session->close();
                    QString reopenError;
                    if (!openSession(dir, &reopenError))
                        showMessage(int(BannerWidget::Kind::Error), reopenError);
                    else
                        statusBar()->showMessage(tr("Rebuilt the session from its journal and images."), 6000);
                });
}

void MainWindow::saveSessionAs()
{
    const QString from = sessionDir();
    if (from.isEmpty())
        return;
    const QString target = QFileDialog::getSaveFileName(this, tr("Save Session As"),
                                                        from + tr(" copy"), {}, nullptr,
                                                        QFileDialog::ShowDirsOnly);
    if (!target.isEmpty())
        saveSessionCopy(target);
}

bool MainWindow::saveSessionCopy(const QString &target)
{
    const QString from = sessionDir();
    if (from.isEmpty())
        return false;
    if (QFileInfo::exists(target)) {
        showMessage(int(BannerWidget::Kind::Error), tr("%1 already exists; choose a new name.").arg(target));
        return false;
    }
    if (!m_session->isIdle()) {
        showMessage(int(BannerWidget::Kind::Warning),
                    tr("Requests are still running; save a copy when they have finished (or cancel them)."));
        return false;
    }
    // Session writes are queued on the store's writer thread: the copy must see all of them.
    if (const Result<void> flushed = m_session->store()->flush(); !flushed) {
        const QString flushError = flushed.error().message;
        showMessage(int(BannerWidget::Kind::Error), tr("The session could not be saved before copying: %1").arg(flushError));
        return false;
    }
    statusBar()->showMessage(tr("Copying the session…"));
    // Every finished frame is already on disk: "Save As" is a copy of the folder, made on a
    // worker, after which the window continues in the copy.
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, target] {
        watcher->deleteLater();
        const QString error = watcher->result();
        if (!error.isEmpty()) {
            showMessage(int(BannerWidget::Kind::Error), tr("The copy failed: %1").arg(error));
            Q_EMIT sessionCopied(target, error);
            return;
        }
        QString e;
        if (openSession(target, &e))
            statusBar()->showMessage(tr("Saved a copy as %1; you are now working in the copy.").arg(target), 6000);
        else
            showMessage(int(BannerWidget::Kind::Error), e);
        Q_EMIT sessionCopied(target, e);
    });
    watcher->setFuture(QtConcurrent::run([from, target] {
        QString error;
        copyTree(from, target, &error);
        return error;
    }));
    return true;
}

void MainWindow::updateTitle()
{
    const QString dir = sessionDir();
    const QString name = dir.isEmpty() ? tr("No Session") : QFileInfo(dir).fileName();
    setWindowTitle(tr("%1 — NB2Lite Studio").arg(name));
    m_sessionLabel->setText(dir.isEmpty() ? QString() : tr("Session: %1").arg(name));
    m_sessionLabel->setToolTip(dir);
}

// ---------------------------------------------------------------- selection

QString MainWindow::currentFrameId() const
{
    return m_timeline->currentIndex().data(TimelineRole::FrameId).toString();
}

void MainWindow::selectFrame(const QString &frameId)
{
    const QModelIndex idx = m_model->indexOf(frameId);
    if (idx.isValid()) {
        m_timeline->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect);
        m_timeline->scrollTo(idx);
    } else {
        m_timeline->selectionModel()->clearCurrentIndex();
        m_timeline->selectionModel()->clearSelection();
    }
    onCurrentChanged();
}

void MainWindow::onCurrentChanged()
{
    m_forceGenerate = false;
    updateInfo();
    updatePromptMode();
    updateActions();
    if (isCompareShown())
        showCompare(m_compareOtherId);
    loadCanvasImage();
}

QString MainWindow::frameLabel(const QString &frameId) const
{
    const QModelIndex i = m_model->indexOf(frameId);
    return i.isValid() ? tr("#%1").arg(i.data(TimelineRole::Number).toInt()) : tr("the frame");
}

void MainWindow::updateInfo()
{
    const QString id = currentFrameId();
    if (id.isEmpty() || !m_session->isOpen() || !m_session->graph().contains(id)) {
        m_info->clear();
        return;
    }
    const Frame f = m_session->graph().value(id);
    const int number = m_model->indexOf(id).data(TimelineRole::Number).toInt();
    const int parentNumber = f.parentId.isEmpty() ? 0 : m_model->indexOf(f.parentId).data(TimelineRole::Number).toInt();
    m_info->setFrame(f, number, parentNumber, f.image.isNull() ? QString() : m_session->store()->absolutePath(f.image.file));
}

void MainWindow::updatePromptMode()
{
    const QString id = m_forceGenerate ? QString() : currentFrameId();
    if (id.isEmpty() || !m_session->isOpen() || !m_session->graph().contains(id)) {
        QSettings s;
        const bool wasLocked = m_prompt->mode() != PromptPanel::Mode::Generate;
        m_prompt->setMode(PromptPanel::Mode::Generate,
                          m_forceGenerate ? tr("<b>New image</b> — starts a new chain on its own lane.") : QString(),
                          wasLocked ? windowprefs::aspectRatio.read(s) : QString(), false);
        m_timeline->setAttachHint(TimelineView::AttachHint::Generate);
        return;
    }
    const Frame f = m_session->graph().value(id);
    const QString label = frameLabel(id);
    const int children = m_session->graph().children(id).size();
    if (!f.isDone()) {
        const QString why = f.isPending() ? tr("%1 is still being made; you can edit it when it is done.").arg(label)
                                          : tr("%1 has no image (%2). Retry it, or select another frame.")
                                                .arg(label, frameStatusName(f.status));
        m_prompt->setMode(PromptPanel::Mode::Edit, QStringLiteral("<i>%1</i>").arg(why.toHtmlEscaped()),
                          f.aspectRatio, true);
        m_prompt->sendButton()->setEnabled(false);
        m_timeline->setAttachHint(TimelineView::AttachHint::None);
        return;
    }
    // An imported picture is sent inline, unless it came with a server id to continue from.
    const bool local = f.kind == FrameKind::Import && f.interactionId.isEmpty();
    QString aspect = f.aspectRatio;
    if (aspect.isEmpty())
        aspect = nearestAspectRatio(QSize(f.image.width, f.image.height));
    if (children > 0) {
        m_prompt->setMode(PromptPanel::Mode::Branch,
                          tr("<b>Branch from %1</b> — it already has a continuation; this starts a new lane "
                             "(shown dashed on the timeline).").arg(label),
                          aspect, !local);
        m_timeline->setAttachHint(TimelineView::AttachHint::Branch);
    } else if (local) {
        m_prompt->setMode(PromptPanel::Mode::EditLocal,
                          tr("<b>Edit %1</b> — the picture is sent with the prompt (local edit).").arg(label), aspect, false);
        m_timeline->setAttachHint(TimelineView::AttachHint::Edit);
    } else {
        m_prompt->setMode(PromptPanel::Mode::Edit, tr("<b>Edit %1</b> — continues its chain.").arg(label), aspect, true);
        m_timeline->setAttachHint(TimelineView::AttachHint::Edit);
    }
}

void MainWindow::updateActions()
{
    const QString id = currentFrameId();
    const bool open = m_session->isOpen();
    const Frame f = open && !id.isEmpty() ? m_session->graph().value(id) : Frame();
    const bool has = open && !id.isEmpty() && m_session->graph().contains(id);
    action(QStringLiteral("copyImage"))->setEnabled(has && !f.image.isNull());
    action(QStringLiteral("deleteFrame"))->setEnabled(has);
    action(QStringLiteral("deleteBranch"))->setEnabled(has);
    action(QStringLiteral("star"))->setEnabled(has);
    action(QStringLiteral("star"))->setText(has && f.starred ? tr("Uns&tar") : tr("S&tar"));
    action(QStringLiteral("rename"))->setEnabled(has);
    action(QStringLiteral("note"))->setEnabled(has);
    const bool retryable = has && (f.status == FrameStatus::Failed || f.status == FrameStatus::Cancelled
                                   || f.status == FrameStatus::Interrupted);
    action(QStringLiteral("retry"))->setEnabled(retryable);
    action(QStringLiteral("cancel"))->setEnabled(has && f.isPending());
    action(QStringLiteral("reAnchor"))->setEnabled(retryable && !f.parentId.isEmpty());
    action(QStringLiteral("compare"))->setEnabled(has && (!f.parentId.isEmpty() || !m_compareOtherId.isEmpty()));
    action(QStringLiteral("saveSessionAs"))->setEnabled(open);
    action(QStringLiteral("newImage"))->setEnabled(open);
}

void MainWindow::updatePending()
{
    if (!m_session->isOpen()) {
        m_pending->setWork(0, 0, {});
        return;
    }
    QDateTime oldest;
    const QStringList pending = m_session->graph().withStatus(FrameStatus::Pending);
    for (const QString &id : pending) {
        const QDateTime t = m_session->graph().value(id).requestedAt;
        if (t.isValid() && (!oldest.isValid() || t < oldest))
            oldest = t;
    }
    m_pending->setWork(m_session->runningCount(), m_session->queuedCount(), oldest);
    QDateTime nextRetry;
    for (auto it = m_retryTimers.cbegin(); it != m_retryTimers.cend(); ++it) {
        const QDateTime at = m_model->retryAt(it.key());
        if (at.isValid() && (!nextRetry.isValid() || at < nextRetry))
            nextRetry = at;
    }
    m_pending->setRetryCountdown(nextRetry);
}

// ---------------------------------------------------------------- canvas

void MainWindow::loadCanvasImage()
{
    const QString id = currentFrameId();
    if (id.isEmpty() || !m_session->isOpen() || !m_session->graph().contains(id)) {
        ++m_canvasGeneration;
        m_canvasFrameId.clear();
        m_canvas->clear();
        return;
    }
    const Frame f = m_session->graph().value(id);
    if (f.isPending()) {
        const QImage streamed = m_model->indexOf(id).data(TimelineRole::Draft).value<QImage>();
        if (!streamed.isNull()) {
            if (m_canvasFrameId != id + QStringLiteral("|draft")) {
                ++m_canvasGeneration;
                m_canvasFrameId = id + QStringLiteral("|draft");
                m_canvas->setImage(streamed);
                m_canvas->setDraft(true);
                m_canvas->setDraftText(tr("Draft from the model's thinking — the final image of %1 is on its way")
                                           .arg(frameLabel(id)));
            }
            return;
        }
    }
    QString path = f.image.isNull() ? QString() : m_session->store()->absolutePath(f.image.file);
    bool draft = false;
    if (path.isEmpty()) {
        // No image yet: show the parent's (what the request starts from), marked as such.
        const Frame parent = m_session->graph().value(f.parentId);
        if (!parent.image.isNull())
            path = m_session->store()->absolutePath(parent.image.file);
        draft = true;
    }
    const QString draftText = canvasDraftText(id);
    const QString key = id + QLatin1Char('|') + path;
    if (key == m_canvasFrameId && m_canvas->isDraft() == draft) {
        m_canvas->setDraftText(draftText);
        m_canvas->update();
        return;
    }
    m_canvasFrameId = key;
    const quint64 generation = ++m_canvasGeneration;
    if (path.isEmpty()) {
        m_canvas->clear();
        m_canvas->setDraft(false);
        return;
    }
    auto *watcher = new QFutureWatcher<DecodedImage>(this);
    connect(watcher, &QFutureWatcher<DecodedImage>::finished, this, [this, watcher, generation, draft, id] {
        watcher->deleteLater();
        if (generation != m_canvasGeneration)
            return; // the user moved on
        const DecodedImage d = watcher->result();
        if (d.image.isNull()) {
            m_canvas->clear();
            showMessage(int(BannerWidget::Kind::Error), tr("The image of %1 cannot be read: %2").arg(frameLabel(id), d.error));
            return;
        }
        m_canvas->setImage(d.image);
        m_canvas->setDraft(draft);
        m_canvas->setDraftText(canvasDraftText(id)); // the frame may have changed while decoding
        Q_EMIT canvasImageShown(id);
    });
    watcher->setFuture(QtConcurrent::run(decodeImage, path));
}

QString MainWindow::canvasDraftText(const QString &id) const
{
    const Frame f = m_session->graph().value(id);
    if (f.isDone())
        return {};
    if (f.isPending())
        return tr("Working on %1 — showing the frame it starts from").arg(frameLabel(id));
    return tr("%1 has no image (%2) — showing the frame it started from").arg(frameLabel(id), frameStatusName(f.status));
}

void MainWindow::onDraftReceived(const QString &frameId, const QByteArray &bytes)
{
    auto *watcher = new QFutureWatcher<QImage>(this);
    connect(watcher, &QFutureWatcher<QImage>::finished, this, [this, watcher, frameId] {
        watcher->deleteLater();
        const QImage draft = watcher->result();
        const Frame f = m_session->graph().value(frameId);
        if (draft.isNull() || !f.isPending())
            return; // the final image won the race
        m_model->setDraft(frameId, draft);
        if (frameId == currentFrameId() && !isCompareShown()) {
            ++m_canvasGeneration; // a parent image still decoding must not replace the draft
            m_canvasFrameId = frameId + QStringLiteral("|draft");
            m_canvas->setImage(draft);
            m_canvas->setDraft(true);
            m_canvas->setDraftText(tr("Draft from the model's thinking — the final image of %1 is on its way")
                                       .arg(frameLabel(frameId)));
        }
        Q_EMIT draftShown(frameId);
    });
    // Small previews, but still a decode: on a worker like every other image.
    watcher->setFuture(QtConcurrent::run([bytes] { return QImage::fromData(bytes); }));
}

bool MainWindow::isCompareShown() const { return m_centerStack->currentWidget() == m_compare; }

void MainWindow::showCanvas()
{
    m_centerStack->setCurrentWidget(m_canvas);
    m_compareOtherId.clear();
    action(QStringLiteral("compare"))->setChecked(false);
}

void MainWindow::showCompare(const QString &otherId)
{
    const QString id = currentFrameId();
    if (id.isEmpty() || !m_session->isOpen())
        return;
    const Frame f = m_session->graph().value(id);
    const QString other = otherId.isEmpty() || !m_session->graph().contains(otherId) ? f.parentId : otherId;
    const Frame o = m_session->graph().value(other);
    if (other.isEmpty() || o.image.isNull() || f.image.isNull()) {
        statusBar()->showMessage(tr("Nothing to compare: both frames need an image."), 4000);
        action(QStringLiteral("compare"))->setChecked(isCompareShown());
        return;
    }
    m_compareOtherId = otherId;
    m_centerStack->setCurrentWidget(m_compare);
    action(QStringLiteral("compare"))->setChecked(true);
    const QString left = m_session->store()->absolutePath(o.image.file);
    const QString right = m_session->store()->absolutePath(f.image.file);
    m_compare->setLabels(other == f.parentId ? tr("%1 (parent)").arg(frameLabel(other)) : frameLabel(other),
                         frameLabel(id));
    const quint64 generation = ++m_canvasGeneration;
    using Pair = QPair<QImage, QImage>;
    auto *watcher = new QFutureWatcher<Pair>(this);
    connect(watcher, &QFutureWatcher<Pair>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_canvasGeneration)
            return;
        m_compare->setImages(watcher->result().first, watcher->result().second);
        m_canvasFrameId.clear(); // the canvas must reload when the compare view closes
    });
    watcher->setFuture(QtConcurrent::run([left, right] { return Pair(decodeImage(left).image, decodeImage(right).image); }));
}

// ---------------------------------------------------------------- turns

void MainWindow::submit()
{
    if (!m_session->isOpen()) {
        showMessage(int(BannerWidget::Kind::Error), tr("No session is open. Use File → New Session."));
        return;
    }
    const QString prompt = m_prompt->prompt();
    if (prompt.isEmpty()) {
        m_prompt->focusPrompt();
        statusBar()->showMessage(tr("Write a prompt first."), 3000);
        return;
    }
    TurnParams params;
    params.prompt = prompt;
    params.thinkingLevel = m_prompt->thinkingLevel();
    params.aspectRatio = m_prompt->aspectRatio();
    const QString styleFile = m_prompt->styleFile();
    const QString id = m_forceGenerate ? QString() : currentFrameId();
    Result<QString> r = Error{};
    if (id.isEmpty()) {
        if (!styleFile.isEmpty())
            statusBar()->showMessage(tr("The style reference applies to edits; select a frame to restyle it."), 5000);
        r = m_session->generate(params);
    } else {
        const Frame f = m_session->graph().value(id);
        if (!f.isDone()) {
            showMessage(int(BannerWidget::Kind::Warning),
                        tr("%1 has no finished image to edit yet. Select a finished frame, or press New Image.")
                            .arg(frameLabel(id)));
            return;
        }
        const bool hasChildren = m_session->graph().hasChildren(id);
        params.newBranch = hasChildren;
        if (!styleFile.isEmpty()) {
            const bool copied = m_styleCopy.first == styleFile && !m_styleCopy.second.isEmpty();
            r = m_session->styleEdit(id, {}, copied ? m_styleCopy.second : styleFile, params);
        } else if (f.kind == FrameKind::Import && f.interactionId.isEmpty())
            r = m_session->editLocal(id, {}, params);
        else if (hasChildren)
            r = m_session->branchFrom(id, params);
        else {
            if (!f.aspectRatio.isEmpty())
                params.aspectRatio = f.aspectRatio; // chains keep their ratio
            r = m_session->edit(id, params);
        }
    }
    if (!r) {
        const Error &e = r.error();
        showMessage(int(BannerWidget::Kind::Error), e.message.isEmpty() ? tr("The request was not sent.") : e.message);
        if (!e.api.allowedValues.isEmpty())
            refreshThinkingLevels();
        return;
    }
    clearMessage();
    m_prompt->clearPrompt();
    if (!styleFile.isEmpty() && !id.isEmpty())
        m_prompt->setStyleFile({});
    if (id.isEmpty()) {
        QSettings s;
        windowprefs::aspectRatio.write(s, params.aspectRatio);
    }
    selectFrame(r.value());
    m_timeline->setFocus(Qt::OtherFocusReason);
    updatePending();
}

void MainWindow::newImage()
{
    m_forceGenerate = true;
    m_timeline->selectionModel()->clearSelection();
    m_timeline->selectionModel()->clearCurrentIndex();
    m_forceGenerate = true; // clearing the current index reset it
    updateInfo();
    updatePromptMode();
    updateActions();
    loadCanvasImage();
    m_prompt->focusPrompt();
}

void MainWindow::retryFrame(const QString &frameId)
{
    if (frameId.isEmpty())
        return;
    cancelScheduledRetry(frameId);
    const Result<QString> r = m_session->retry(frameId);
    if (!r)
        showMessage(int(BannerWidget::Kind::Error), r.error().message);
    else
        clearMessage();
    updatePending();
}

void MainWindow::cancelFrame(const QString &frameId)
{
    if (frameId.isEmpty())
        return;
    cancelScheduledRetry(frameId);
    if (!m_session->cancel(frameId))
        statusBar()->showMessage(tr("%1 is not running.").arg(frameLabel(frameId)), 3000);
    else
        statusBar()->showMessage(tr("Cancelled %1.").arg(frameLabel(frameId)), 3000);
    updatePending();
}

void MainWindow::reAnchorFrame(const QString &frameId)
{
    if (frameId.isEmpty())
        return;
    cancelScheduledRetry(frameId);
    const Result<QString> r = m_session->reAnchor(frameId);
    if (!r)
        showMessage(int(BannerWidget::Kind::Error), r.error().message);
    else
        clearMessage();
}

void MainWindow::onTurnFinished(const QString &frameId)
{
    updatePending();
    updateActions();
    if (frameId == currentFrameId()) {
        updateInfo();
        updatePromptMode();
        loadCanvasImage();
    }
    const Frame f = m_session->graph().value(frameId);
    if (f.isDone())
        statusBar()->showMessage(tr("%1 is ready.").arg(frameLabel(frameId)), 4000);
}

void MainWindow::onTurnFailed(const QString &frameId, const Error &error)
{
    const QString label = frameLabel(frameId);
    const QString base = error.message.isEmpty() ? errorHint(error) : error.message;
    switch (error.kind) {
    case ErrorKind::Cancelled:
        return;
    case ErrorKind::RateLimited: {
        const int delay = error.api.retryAfterMs > 0 ? error.api.retryAfterMs : 30'000;
        scheduleRetry(frameId, delay);
        showMessage(int(BannerWidget::Kind::Warning),
                    tr("%1: the server is rate limiting requests; it will be retried automatically in %2 s.")
                        .arg(label).arg((delay + 999) / 1000),
                    tr("Retry Now"), [this, frameId] { retryFrame(frameId); });
        break;
    }
    case ErrorKind::Auth:
        showMessage(int(BannerWidget::Kind::Error), tr("%1: %2").arg(label, base), tr("Open Settings…"),
                    [this] { showSettings(); });
        if (!m_closing && isVisible() && !qEnvironmentVariableIsSet("NB2_NO_AUTO_SETTINGS"))
            QMetaObject::invokeMethod(this, &MainWindow::showSettings, Qt::QueuedConnection);
        break;
    case ErrorKind::NotFound:
        showMessage(int(BannerWidget::Kind::Error),
                    tr("%1: the parent's server id has expired or was deleted. Re-anchor sends the parent's stored "
                       "pixels instead.").arg(label),
                    tr("Re-anchor"), [this, frameId] { reAnchorFrame(frameId); });
        break;
    case ErrorKind::InvalidRequest:
        if (!error.api.allowedValues.isEmpty()) {
            refreshThinkingLevels();
            showMessage(int(BannerWidget::Kind::Error),
                        tr("%1: %2 The thinking choices now list what the server accepts: %3.")
                            .arg(label, base, error.api.allowedValues.join(QStringLiteral(", "))),
                        tr("Retry"), [this, frameId] { retryFrame(frameId); });
            break;
        }
        showMessage(int(BannerWidget::Kind::Error), tr("%1: %2").arg(label, base));
        break;
    case ErrorKind::NoImage:
        showMessage(int(BannerWidget::Kind::Warning),
                    tr("%1: the model answered without an image: “%2”. Rephrase the prompt and try again.")
                        .arg(label, error.api.modelText.isEmpty() ? base : error.api.modelText));
        break;
    default:
        showMessage(int(BannerWidget::Kind::Error), tr("%1: %2").arg(label, base), tr("Retry"),
                    [this, frameId] { retryFrame(frameId); });
        break;
    }
    updatePending();
    updateActions();
}

void MainWindow::scheduleRetry(const QString &frameId, int delayMs)
{
    cancelScheduledRetry(frameId);
    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setInterval(delayMs);
    connect(timer, &QTimer::timeout, this, [this, frameId] {
        const Frame f = m_session->graph().value(frameId);
        cancelScheduledRetry(frameId);
        if (f.status == FrameStatus::Failed)
            retryFrame(frameId);
    });
    m_retryTimers.insert(frameId, timer);
    m_model->setRetryAt(frameId, QDateTime::currentDateTimeUtc().addMSecs(delayMs));
    timer->start();
    updatePending();
}

void MainWindow::cancelScheduledRetry(const QString &frameId)
{
    if (QTimer *t = m_retryTimers.take(frameId)) {
        t->stop();
        t->deleteLater();
    }
    m_model->setRetryAt(frameId, {});
}

void MainWindow::refreshThinkingLevels()
{
    QSettings s;
    const QString preferred = studioprefs::thinkingLevel.read(s);
    m_prompt->setThinkingLevels(m_levels->allowed(m_config.model), preferred);
}

// ---------------------------------------------------------------- messages

void MainWindow::showMessage(int kind, const QString &text, const QString &actionText, std::function<void()> action)
{
    m_lastMessage = text;
    m_messageAction = std::move(action);
    m_messageBanner->setMessage(BannerWidget::Kind(kind), text);
    m_messageBanner->setActionText(m_messageAction ? actionText : QString());
    m_messageBanner->show();
}

void MainWindow::clearMessage()
{
    m_messageAction = {};
    m_messageBanner->hide();
}

// ---------------------------------------------------------------- local operations

void MainWindow::deleteFrame()
{
    const QString id = currentFrameId();
    if (id.isEmpty())
        return;
    const QString parent = m_session->graph().parent(id);
    if (const Result<void> deleted = m_session->deleteFrame(id); !deleted) {
        showMessage(int(BannerWidget::Kind::Error), deleted.error().message);
        return;
    }
    statusBar()->showMessage(tr("Moved %1 to the trash. Undo (Ctrl+Z) brings it back.").arg(frameLabel(id)), 6000);
    selectFrame(parent);
}

void MainWindow::deleteBranch()
{
    const QString id = currentFrameId();
    if (id.isEmpty())
        return;
    const QString head = m_session->graph().headFrom(id);
    const QStringList own = m_session->graph().branchOwnFrames(head);
    QString parent = own.isEmpty() ? QString() : m_session->graph().parent(own.first());
    if (const Result<void> deleted = m_session->deleteBranch(head); !deleted) {
        showMessage(int(BannerWidget::Kind::Error), deleted.error().message);
        return;
    }
    statusBar()->showMessage((own.size() == 1 ? tr("Moved the branch (1 frame) to the trash. Undo brings it back.")
                                                : tr("Moved the branch (%1 frames) to the trash. Undo brings it back.").arg(own.size())), 6000);
    selectFrame(parent);
}

void MainWindow::toggleStar()
{
    const QString id = currentFrameId();
    if (id.isEmpty())
        return;
    m_session->setStarred(id, !m_session->graph().value(id).starred);
    updateActions();
}

void MainWindow::renameFrame()
{
    const QString id = currentFrameId();
    if (id.isEmpty())
        return;
    bool ok = false;
    const QString title = QInputDialog::getText(this, tr("Rename Frame"), tr("Title of %1:").arg(frameLabel(id)),
                                                QLineEdit::Normal, m_session->graph().value(id).title, &ok);
    if (ok)
        m_session->setTitle(id, title.trimmed());
}

void MainWindow::editNote()
{
    const QString id = currentFrameId();
    if (id.isEmpty())
        return;
    bool ok = false;
    const QString note = QInputDialog::getMultiLineText(this, tr("Frame Note"), tr("Note for %1:").arg(frameLabel(id)),
                                                        m_session->graph().value(id).note, &ok);
    if (ok)
        m_session->setNote(id, note);
}

void MainWindow::copyImage()
{
    const QString id = currentFrameId();
    const Frame f = m_session->graph().value(id);
    if (f.image.isNull())
        return;
    const QString path = m_session->store()->absolutePath(f.image.file);
    auto *watcher = new QFutureWatcher<DecodedImage>(this);
    connect(watcher, &QFutureWatcher<DecodedImage>::finished, this, [this, watcher, path, id] {
        watcher->deleteLater();
        const DecodedImage d = watcher->result();
        if (d.image.isNull()) {
            showMessage(int(BannerWidget::Kind::Error), tr("Cannot read the image: %1").arg(d.error));
            return;
        }
        auto *mime = new QMimeData;
        mime->setImageData(d.image);
        mime->setUrls({QUrl::fromLocalFile(path)});
        QGuiApplication::clipboard()->setMimeData(mime);
        statusBar()->showMessage(tr("Copied the image of %1.").arg(frameLabel(id)), 3000);
    });
    watcher->setFuture(QtConcurrent::run(decodeImage, path));
}

void MainWindow::paste()
{
    const QMimeData *data = QGuiApplication::clipboard()->mimeData();
    if (!data || !importMimeData(data))
        statusBar()->showMessage(tr("The clipboard holds no picture to import."), 4000);
}

void MainWindow::openImageDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open Image"), QStandardPaths::writableLocation(QStandardPaths::PicturesLocation),
        tr("Images (*.png *.jpg *.jpeg *.webp *.gif *.bmp *.tif *.tiff);;All files (*)"));
    if (!files.isEmpty())
        importFiles(files);
}

void MainWindow::exportSession()
{
    if (!m_session->isOpen())
        return;
    // The dialog works on a copy of the graph and exports on a worker thread; a bundle also
    // reads manifest.json, so the store's queued writes go to disk first.
    if (const Result<void> flushed = m_session->store()->flush(); !flushed) {
        const QString flushError = flushed.error().message;
        showMessage(int(BannerWidget::Kind::Error), tr("The session could not be saved before exporting: %1").arg(flushError));
        return;
    }
    const QString current = currentFrameId();
    auto *dialog = new ExportDialog(m_session->graph(), sessionDir(),
                                    current.isEmpty() ? QStringList() : QStringList{current}, current, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::exportTo(const ExportRequest &request)
{
    if (const Result<void> flushed = m_session->store()->flush(); !flushed) {
        const QString flushError = flushed.error().message;
        showMessage(int(BannerWidget::Kind::Error), tr("The session could not be saved before exporting: %1").arg(flushError));
        Q_EMIT exportFinished({}, flushError);
        return;
    }
    const ExportSession snapshot = ExportSession::fromGraph(m_session->graph(), sessionDir());
    statusBar()->showMessage(tr("Exporting…"));
    auto *watcher = new QFutureWatcher<Result<ExportReport>>(this);
    connect(watcher, &QFutureWatcher<Result<ExportReport>>::finished, this, [this, watcher] {
        watcher->deleteLater();
        const Result<ExportReport> r = watcher->result();
        statusBar()->clearMessage();
        if (!r) {
            showMessage(int(BannerWidget::Kind::Error), tr("Export failed: %1").arg(r.error().message));
            Q_EMIT exportFinished({}, r.error().message);
            return;
        }
        const QString out = r.value().output;
        showMessage(int(BannerWidget::Kind::Success),
                    (r.value().frames == 1 ? tr("Exported 1 frame to %1.").arg(out)
                                            : tr("Exported %1 frames to %2.").arg(r.value().frames).arg(out)), tr("Show"),
                    [out] { QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(out).isDir() ? out
                                                                          : QFileInfo(out).absolutePath())); });
        Q_EMIT exportFinished(out, {});
    });
    watcher->setFuture(QtConcurrent::run([snapshot, request] { return Exporter::run(snapshot, request); }));
}

void MainWindow::showSettings()
{
    auto *dialog = findChild<SettingsDialog *>();
    if (dialog) {
        dialog->raise();
        dialog->activateWindow();
        return;
    }
    dialog = new SettingsDialog(m_keyStore, QProcessEnvironment::systemEnvironment(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setThinkingLevels(m_levels->allowed(m_config.model));
    connect(dialog, &SettingsDialog::settingsSaved, this, [this](bool keyChanged) {
        QSettings s;
        const StudioSettings settings = StudioSettings::load(s);
        m_session->setSettings(settings.session);
        refreshThinkingLevels();
        Q_EMIT settingsChanged(keyChanged);
    });
    dialog->open();
}

void MainWindow::showDiagnostics()
{
    DiagnosticsInfo info = DiagnosticsInfo::fromConfig(m_config);
    info.demoBackend = m_demo;
    info.opensslVersion = opensslVersion();
    info.thinkingLevels = m_levels->allowed(m_config.model);
    info.thinkingLevelsLearned = m_levels->isLearned(m_config.model);
    QSettings s;
    info.sessionsFolder = StudioSettings::load(s).effectiveSessionsFolder();
    auto *dialog = new DiagnosticsDialog(info, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setConnectionCheck(DiagnosticsDialog::clientCheck(m_config));
    dialog->open();
}

void MainWindow::toggleFullScreen()
{
    if (isFullScreen())
        showNormal();
    else
        showFullScreen();
}

// ---------------------------------------------------------------- import (drop, paste, open)

bool MainWindow::importMimeData(const QMimeData *data)
{
    if (!data)
        return false;
    QStringList files;
    QStringList remote;
    for (const QUrl &url : data->urls()) {
        if (url.isLocalFile())
            files << url.toLocalFile();
        else if (url.isValid())
            remote << url.toDisplayString();
    }
    if (!files.isEmpty())
        return importFiles(files);
    // Raw image bytes (from a browser or an image editor): the encoded form is preferred,
    // because it is exactly what the user copied.
    for (const QString &format : data->formats()) {
        if (!format.startsWith(QLatin1String("image/")))
            continue;
        const QByteArray bytes = data->data(format);
        if (bytes.isEmpty())
            continue;
        if (!m_pasteDir.isValid()) {
            showMessage(int(BannerWidget::Kind::Error), tr("Cannot create a temporary folder for the pasted image."));
            return true;
        }
        ImportCheck c;
        c.displayName = tr("pasted image");
        runImports({c}, {bytes});
        return true;
    }
    if (data->hasImage()) {
        // Only a decoded image is offered: encode it as PNG on a worker.
        const QImage image = qvariant_cast<QImage>(data->imageData());
        if (!image.isNull()) {
            ++m_importsInFlight;
            auto *watcher = new QFutureWatcher<QByteArray>(this);
            connect(watcher, &QFutureWatcher<QByteArray>::finished, this, [this, watcher] {
                watcher->deleteLater();
                --m_importsInFlight;
                ImportCheck c;
                c.displayName = tr("pasted image");
                runImports({c}, {watcher->result()});
            });
            watcher->setFuture(QtConcurrent::run([image] {
                QByteArray out;
                QBuffer buffer(&out);
                buffer.open(QIODevice::WriteOnly);
                image.save(&buffer, "PNG");
                return out;
            }));
            return true;
        }
    }
    if (!remote.isEmpty()) {
        showMessage(int(BannerWidget::Kind::Error),
                    tr("Only local files can be imported (%1 is on the web). Save the picture first, then drop the file.")
                        .arg(remote.first()));
        return true;
    }
    return false;
}

bool MainWindow::importFiles(const QStringList &paths)
{
    if (paths.isEmpty())
        return false;
    QList<ImportCheck> checks;
    for (const QString &p : paths) {
        ImportCheck c;
        c.path = p;
        checks << c;
    }
    runImports(checks, {});
    return true;
}

void MainWindow::runImports(const QList<ImportCheck> &pending, const QList<QByteArray> &data)
{
    if (!m_session->isOpen()) {
        showMessage(int(BannerWidget::Kind::Error), tr("No session is open. Use File → New Session first."));
        Q_EMIT importFinished({}, m_lastMessage);
        return;
    }
    ++m_importsInFlight;
    statusBar()->showMessage(tr("Checking the picture…"));
    const QString tmp = m_pasteDir.path();
    // The worker checks each picture and writes the good ones into the session's images/, so
    // the GUI thread only records frames.
    const QString dir = sessionDir();
    auto *watcher = new QFutureWatcher<QList<ImportCheck>>(this);
    connect(watcher, &QFutureWatcher<QList<ImportCheck>>::finished, this, [this, watcher, dir] {
        watcher->deleteLater();
        --m_importsInFlight;
        QList<ImportCheck> checks = watcher->result();
        if (sessionDir() != dir) { // another session was opened meanwhile: its images/ has none of these
            for (ImportCheck &c : checks) {
                if (c.ok())
                    c.error = tr("“%1” was not imported: the session changed while it was being copied.").arg(c.displayName);
            }
        }
        finishImports(checks);
    });
    watcher->setFuture(QtConcurrent::run([pending, data, tmp, dir] {
        QList<ImportCheck> out;
        for (int i = 0; i < pending.size(); ++i) {
            ImportCheck c = i < data.size() ? checkImportBytes(data[i], tmp, pending[i].displayName)
                                            : checkImportFile(pending[i].path, pending[i].displayName);
            storeInSession(c, dir);
            out << c;
        }
        return out;
    }));
}

void MainWindow::finishImports(const QList<ImportCheck> &checks)
{
    statusBar()->clearMessage();
    QStringList added;
    QStringList errors;
    QList<ImportCheck> withServerIds; // pictures that say which interaction made them: ask first
    for (const ImportCheck &c : checks) {
        if (!c.ok()) {
            errors << c.error;
            continue;
        }
        if (!c.lineageInteractionId.isEmpty() && m_session->isOpen()) {
            withServerIds << c;
            continue;
        }
        const Result<QString> r = importChecked(c, false);
        if (!r) {
            errors << tr("“%1” was not imported: %2").arg(c.displayName, r.error().message);
            continue;
        }
        added << r.value();
    }
    if (withServerIds.isEmpty() || !errors.isEmpty() || !added.isEmpty())
        announceImports(added, errors);
    if (!withServerIds.isEmpty())
        askToContinueChain(withServerIds);
}

Result<QString> MainWindow::importChecked(const ImportCheck &check, bool continueChain)
{
    ImportOptions options;
    options.title = QFileInfo(check.displayName).completeBaseName();
    if (!check.lineageJson.isEmpty())
        options.lineage = FrameLineage::fromRecordJson(check.lineageJson);
    options.continueChain = continueChain;
    return m_session->importStoredImage(check.stored, check.storedAt, options);
}

/**
 * An exported picture names the interaction it came from. Continuing from that id keeps the
 * server-side context; the user decides, one picture at a time, without blocking the window.
 */
void MainWindow::askToContinueChain(const QList<ImportCheck> &queue)
{
    const ImportCheck c = queue.first();
    const QList<ImportCheck> rest = queue.mid(1);
    QStringList rows;
    for (const auto &row : c.lineageRows)
        rows << QStringLiteral("<tr><td><b>%1</b>&nbsp;</td><td>%2</td></tr>").arg(row.first.toHtmlEscaped(), row.second.toHtmlEscaped());
    auto *box = new QMessageBox(QMessageBox::Question, tr("Continue the Chain?"),
                                tr("“%1” was exported by NB2Lite and records where it came from.").arg(c.displayName),
                                QMessageBox::NoButton, this);
    box->setInformativeText(tr("<table>%1</table><p>Continue the chain: edits send the recorded interaction id, so the "
                               "model keeps its context. If the server no longer has it, the picture's pixels are sent "
                               "instead (re-anchored).</p><p>Start from the pixels: a fresh chain from this picture.</p>")
                                .arg(rows.join(QString())));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("continueChainQuestion"));
    QPushButton *continueButton = box->addButton(tr("Continue the Chain"), QMessageBox::AcceptRole);
    QPushButton *pixelsButton = box->addButton(tr("Start from the Pixels"), QMessageBox::RejectRole);
    continueButton->setObjectName(QStringLiteral("continueChainButton"));
    pixelsButton->setObjectName(QStringLiteral("startFromPixelsButton"));
    box->setDefaultButton(continueButton);
    connect(box, &QMessageBox::finished, this, [this, box, continueButton, c, rest] {
        const bool continueChain = box->clickedButton() == continueButton;
        const Result<QString> r = importChecked(c, continueChain);
        if (r)
            announceImports({r.value()}, {});
        else
            announceImports({}, {tr("“%1” was not imported: %2").arg(c.displayName, r.error().message)});
        if (!rest.isEmpty())
            askToContinueChain(rest);
    });
    box->open();
}

void MainWindow::announceImports(const QStringList &added, const QStringList &errors)
{
    if (!errors.isEmpty()) {
        showMessage(int(BannerWidget::Kind::Error),
                    errors.size() == 1 ? errors.first()
                                       : tr("%1 files were not imported. %2").arg(errors.size()).arg(errors.first()));
    } else {
        clearMessage();
    }
    if (!added.isEmpty()) {
        selectFrame(added.last());
        m_prompt->focusPrompt();
        statusBar()->showMessage((added.size() == 1 ? tr("Imported the picture. Describe a change and press Edit this frame.")
                                                  : tr("Imported %1 pictures. Describe a change and press Edit this frame.").arg(added.size())), 6000);
    }
    Q_EMIT importFinished(added, errors.isEmpty() ? QString() : m_lastMessage);
}

void MainWindow::setStyleReference(const QString &path)
{
    const QString dir = sessionDir();
    auto *watcher = new QFutureWatcher<ImportCheck>(this);
    connect(watcher, &QFutureWatcher<ImportCheck>::finished, this, [this, watcher, dir] {
        watcher->deleteLater();
        ImportCheck c = watcher->result();
        if (sessionDir() != dir)
            c.stored = {}; // another session was opened meanwhile: use the original file
        if (!c.ok()) {
            showMessage(int(BannerWidget::Kind::Error), tr("Style reference not used: %1").arg(c.error));
            Q_EMIT styleReferenceChecked(c.path, c.error);
            return;
        }
        // The worker copied the picture into this session's images/ (see below); the style
        // edit sends that copy, so nothing is copied on the GUI thread. The slot shows the original.
        m_styleCopy = {c.path, c.stored.isNull() ? QString() : m_session->store()->absolutePath(c.stored.file)};
        m_prompt->setStyleFile(c.path, c.preview);
        statusBar()->showMessage(tr("Style reference set: the next edit restyles the selected frame after it."), 5000);
        Q_EMIT styleReferenceChecked(c.path, {});
    });
    watcher->setFuture(QtConcurrent::run([path, dir] {
        ImportCheck c = checkImportFile(path);
        if (c.ok() && !dir.isEmpty()) {
            if (const Result<QString> copied = SessionStore::copyInputImage(dir, path))
                c.stored.file = copied.value();
        }
        return c;
    }));
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QMimeData *d = event->mimeData();
    if (auto *src = qobject_cast<QWidget *>(event->source()); src && src->window() == this)
        return; // a frame dragged out of our own timeline is not an import
    bool image = d->hasUrls() || d->hasImage();
    for (const QString &f : d->formats())
        image = image || f.startsWith(QLatin1String("image/"));
    if (image)
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
    if (importMimeData(event->mimeData()))
        event->acceptProposedAction();
    else
        showMessage(int(BannerWidget::Kind::Error), tr("Nothing in the drop is a picture that can be imported."));
}

// ---------------------------------------------------------------- close

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_session->isOpen() && !m_session->isIdle()) {
        const int n = m_session->runningCount() + m_session->queuedCount();
        QMessageBox box(QMessageBox::Question, tr("Requests Still Running"),
                        n == 1 ? tr("A request is still running.") : tr("%1 requests are still running.").arg(n), QMessageBox::NoButton, this);
        box.setInformativeText(tr("If you quit now they are cancelled; you can retry them when you come back."));
        QPushButton *quit = box.addButton(tr("Cancel Requests and Quit"), QMessageBox::DestructiveRole);
        box.addButton(tr("Keep Working"), QMessageBox::RejectRole);
        box.setDefaultButton(qobject_cast<QPushButton *>(box.buttons().last()));
        box.exec();
        if (box.clickedButton() != quit) {
            event->ignore();
            return;
        }
        const QStringList pending = m_session->graph().withStatus(FrameStatus::Pending);
        for (const QString &id : pending)
            m_session->cancel(id);
        m_session->waitForIdle(5000);
    }
    m_closing = true;
    saveWindowState();
    event->accept();
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::WindowStateChange)
        action(QStringLiteral("fullScreen"))->setChecked(isFullScreen());
    QMainWindow::changeEvent(event);
}

} // namespace nb2
