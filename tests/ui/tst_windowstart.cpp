// Window start (issue 10, case 2): the first frame never waits for the session, and building
// the window loads no image-format plugin (the style's file-based icons load when drawn).
#include "app/studio/backgroundpool.h"
#include "core/session/sessionstore.h"
#include "ui/compareview.h"
#include "ui/deferredstyleicons.h"
#include "ui/firstpaint.h"
#include "ui/imagestage.h"
#include "ui/infopanel.h"
#include "ui/mainwindow.h"
#include "ui/noticepresenter.h"
#include "ui/pendingindicator.h"
#include "ui/promptpanel.h"
#include "ui/replaypanel.h"
#include "ui/selectionchoice.h"
#include "ui/sessionmanager.h"
#include "ui/theme.h"
#include "ui/timelineview.h"
#include "ui/wraplabel.h"

#include "tests/testpaths.h"
#include "uitesthelpers.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMainWindow>
#include <QMenuBar>
#include <QPainter>
#include <QProcess>
#include <QScreen>
#include <QScrollArea>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyleFactory>
#include <QStyleOption>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QToolButton>

#include <algorithm>
#include <atomic>
#include <cerrno>

#include <cstring>

#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace nb2;

namespace {

/** The image-format plugins (libqjpeg, libqwebp, ...) mapped into this process. */
QStringList loadedImagePlugins()
{
    QFile maps(QStringLiteral("/proc/self/maps"));
    if (!maps.open(QIODevice::ReadOnly))
        return {QStringLiteral("(no /proc/self/maps)")};
    QStringList found;
    for (const QByteArray &line : maps.readAll().split('\n')) {
        const qsizetype at = line.indexOf("/imageformats/");
        if (at >= 0 && !found.contains(QString::fromUtf8(line.mid(at))))
            found << QString::fromUtf8(line.mid(at));
    }
    return found;
}

/** Counts the paint events of one window's widgets. */
class PaintCounter : public QObject
{
public:
    explicit PaintCounter(QWidget *window) : m_window(window) { qApp->installEventFilter(this); }
    ~PaintCounter() override { qApp->removeEventFilter(this); }
    bool eventFilter(QObject *o, QEvent *e) override
    {
        if (e->type() == QEvent::Paint && o->isWidgetType() && static_cast<QWidget *>(o)->window() == m_window)
            ++count;
        return false;
    }
    int count = 0;

private:
    QWidget *m_window;
};

QImage render(const QIcon &icon, const QSize &size)
{
    return icon.pixmap(size).toImage().convertToFormat(QImage::Format_ARGB32_Premultiplied);
}

} // namespace

class tst_WindowStart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("NB2_NO_AUTO_SETTINGS", "1");
        QApplication::setOrganizationName(QStringLiteral("NB2LiteTest"));
        QApplication::setApplicationName(QStringLiteral("tst_windowstart"));
        applyTheme(*qApp, ThemeMode::Light);
    }

    /** First: nothing before it may have read an image. Qt's own icons for these load all plugins. */
    void buildingAndPaintingTheWindowLoadsNoImagePlugin()
    {
        QVERIFY2(loadedImagePlugins().isEmpty(), qPrintable(loadedImagePlugins().join(QLatin1Char(' '))));
        MainWindow window;
        auto *narrow = new QToolBar(QStringLiteral("narrow"), &window); // an extension button that is drawn
        for (int i = 0; i < 30; ++i)
            narrow->addAction(QStringLiteral("action %1").arg(i));
        window.addToolBar(narrow);
        auto *edit = new QLineEdit(&window);
        edit->setClearButtonEnabled(true);
        edit->setText(QStringLiteral("x")); // its clear button is drawn too
        window.statusBar()->addWidget(edit);
        PaintCounter painted(&window);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY(painted.count > 0);
        window.repaint();
        QVERIFY2(loadedImagePlugins().isEmpty(), qPrintable(loadedImagePlugins().join(QLatin1Char(' '))));
        // Nor libarchive: bundles load it when first used (core/export/archivelibrary.h).
        QFile maps(QStringLiteral("/proc/self/maps"));
        QVERIFY(maps.open(QIODevice::ReadOnly));
        QVERIFY2(!maps.readAll().contains("/libarchive.so"), "libarchive is linked into the studio again");
    }

    /** The deferred icons are Fusion's: same pixels, both layout directions. */
    void deferredIconsAreFusionsIcons_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<int>("direction");
        for (QStyle::StandardPixmap sp : {QStyle::SP_ToolBarHorizontalExtensionButton,
                 QStyle::SP_ToolBarVerticalExtensionButton, QStyle::SP_LineEditClearButton}) {
            QTest::addRow("%d ltr", int(sp)) << int(sp) << int(Qt::LeftToRight);
            QTest::addRow("%d rtl", int(sp)) << int(sp) << int(Qt::RightToLeft);
        }
    }
    void deferredIconsAreFusionsIcons()
    {
        QFETCH(int, which);
        QFETCH(int, direction);
        const auto sp = QStyle::StandardPixmap(which);
        QVERIFY(DeferredStyleIcons::isDeferred(sp));
        auto *style = qobject_cast<DeferredStyleIcons *>(QApplication::style());
        QVERIFY2(style, "applyTheme installs the deferring style");
        std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
        QStyleOption option;
        option.direction = Qt::LayoutDirection(direction);
        const QIcon deferred = style->standardIcon(sp, &option);
        const QIcon reference = fusion->standardIcon(sp, &option);
        QVERIFY(!deferred.isNull());
        for (const QSize size : {QSize(16, 16), QSize(32, 32), QSize(8, 8), QSize(24, 24)}) {
            QCOMPARE(deferred.actualSize(size), reference.actualSize(size));
            QCOMPARE(render(deferred, size), render(reference, size));
        }
        // Not deferred: asked of Fusion at once.
        QCOMPARE(render(style->standardIcon(QStyle::SP_TitleBarCloseButton), QSize(16, 16)),
            render(fusion->standardIcon(QStyle::SP_TitleBarCloseButton), QSize(16, 16)));
    }

    /** The dock title bar's buttons are made once (Fusion decodes an XPM per request) and are Fusion's. */
    void titleBarIconsAreMadeOnce()
    {
        auto *style = qobject_cast<DeferredStyleIcons *>(QApplication::style());
        QVERIFY(style);
        std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
        for (QStyle::StandardPixmap sp : {QStyle::SP_TitleBarNormalButton, QStyle::SP_TitleBarMinButton,
                 QStyle::SP_TitleBarCloseButton, QStyle::SP_DockWidgetCloseButton}) {
            QVERIFY(DeferredStyleIcons::isMadeOnce(sp));
            QStyleOption option;
            const QIcon first = style->standardIcon(sp, &option);
            QCOMPARE(style->standardIcon(sp).cacheKey(), first.cacheKey()); // the same icon, not made again
            for (const QSize size : {QSize(16, 16), QSize(11, 13), QSize(32, 32)})
                QCOMPARE(render(first, size), render(fusion->standardIcon(sp, &option), size));
        }
        QVERIFY(!DeferredStyleIcons::isMadeOnce(QStyle::SP_DialogOkButton)); // themed icons are still asked for
    }

    /**
     * The docks' panels and the status bar (whose making measures text, which waits for the
     * fonts) are put in place at the first show, once; until then nothing is lost: a status
     * message makes the status bar early, and the session label and cost go into it at the show.
     */
    void textWidgetsArePutInPlaceAtTheFirstShow()
    {
        MainWindow window;
        const auto dock = [&](const char *name) { return window.findChild<QDockWidget *>(QLatin1String(name)); };
        QVERIFY(!window.findChild<QStatusBar *>());
        for (const char *name : {"timelineDock", "promptDock", "infoDock"}) {
            QVERIFY2(dock(name), name);
            QVERIFY2(!dock(name)->widget(), name);
        }
        QVERIFY(dock("replayDock")->widget()); // its holder is empty: nothing to measure

        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(dock("timelineDock")->isAncestorOf(window.timelineView()));
        QVERIFY(dock("promptDock")->isAncestorOf(window.promptPanel()));
        QCOMPARE(dock("infoDock")->widget(), window.infoPanel());
        QStatusBar *bar = window.statusBar();
        QVERIFY(bar->isAncestorOf(window.pendingIndicator()));
        QVERIFY(bar->findChild<QLabel *>(QStringLiteral("sessionLabel")));
        QVERIFY(bar->findChild<QLabel *>(QStringLiteral("sessionCostLabel")));
        QVERIFY(window.promptPanel()->isVisible());
        QVERIFY(window.infoPanel()->isVisible());

        window.hide(); // a second show changes nothing
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.findChildren<QStatusBar *>().size(), 1);
        QCOMPARE(window.findChildren<QLabel *>(QStringLiteral("sessionLabel")).size(), 1);
        QCOMPARE(dock("infoDock")->widget(), window.infoPanel());

        MainWindow early;
        early.notices()->status(QStringLiteral("Saved."), 0);
        QCOMPARE(early.notices()->lastStatus(), QStringLiteral("Saved."));
        early.show();
        QVERIFY(QTest::qWaitForWindowExposed(&early));
        QCOMPARE(early.findChildren<QStatusBar *>().size(), 1);
        QCOMPARE(early.statusBar()->currentMessage(), QStringLiteral("Saved."));
        QVERIFY(early.statusBar()->isAncestorOf(early.pendingIndicator()));
    }

    /**
     * The keyboard's way through the window: the order Tab takes, read off the build in which
     * the panels went into their docks as they were made. Putting them in at the first show
     * keeps it (Qt orders the focus chain by when widgets are made, not by when they are
     * reparented); making the panels in another order would not.
     */
    void tabOrderIsTheSameWithThePanelsPutInAtTheShow()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QStringList chain;
        for (QWidget *w = window.nextInFocusChain(); w != &window; w = w->nextInFocusChain()) {
            if (w->isVisible() && (w->focusPolicy() & Qt::TabFocus) && !w->objectName().isEmpty())
                chain << w->objectName();
            QVERIFY(chain.size() < 200);
        }
        const QStringList expected {QStringLiteral("timelineView"), QStringLiteral("canvas"),
            QStringLiteral("findText"), QStringLiteral("findStarred"), QStringLiteral("findStatus"),
            QStringLiteral("findKind"), QStringLiteral("promptEdit"), QStringLiteral("aspectCombo"),
            QStringLiteral("thinkingCombo"), QStringLiteral("sendButton"), QStringLiteral("variantsSpin"),
            QStringLiteral("qt_spinbox_lineedit"), QStringLiteral("keepListAdd"), QStringLiteral("brushSizeBox"),
            QStringLiteral("qt_spinbox_lineedit")};
        QCOMPARE(chain, expected);
    }

    /** The saved dock layout is restored though the panels go into the docks after it (at the show). */
    void savedDockLayoutIsRestoredAroundThePanels()
    {
        int promptWidth = 0;
        int timelineHeight = 0;
        QSize windowSize;
        {
            MainWindow window;
            window.resize(window.screen()->availableGeometry().size() * 0.9); // as fitToScreen() leaves it
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            auto *prompt = window.findChild<QDockWidget *>(QStringLiteral("promptDock"));
            auto *timeline = window.findChild<QDockWidget *>(QStringLiteral("timelineDock"));
            window.resizeDocks({prompt}, {310}, Qt::Horizontal); // not what the window starts with
            window.resizeDocks({timeline}, {190}, Qt::Vertical);
            QTRY_VERIFY(qAbs(prompt->width() - 310) <= 8);
            promptWidth = prompt->width();
            timelineHeight = timeline->height();
            windowSize = window.size();
            QVERIFY(qAbs(timelineHeight - 190) <= 8);
            window.close(); // saves the layout
        }
        MainWindow window;
        window.restoreLastState(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE(window.findChild<QDockWidget *>(QStringLiteral("promptDock"))->width(), promptWidth);
        QCOMPARE(window.findChild<QDockWidget *>(QStringLiteral("timelineDock"))->height(), timelineHeight);
        QCOMPARE(window.size(), windowSize);
    }

    /** The compare view is built when first used, not with the window (it is hidden at start). */
    void compareViewIsBuiltOnFirstUse()
    {
        MainWindow window;
        QVERIFY(!window.findChild<CompareView *>());
        QVERIFY(!window.stage()->isCompareShown());
        CompareView *compare = window.stage()->compareView();
        QVERIFY(compare);
        QCOMPARE(window.findChild<CompareView *>(QStringLiteral("compareView")), compare);
        QCOMPARE(window.stage()->compareView(), compare); // once
        QVERIFY(!window.stage()->isCompareShown());
    }

    /**
     * The region choice (hidden until there is a selection) does not wrap its explanation while
     * hidden — that cost a text layout and a font engine before the first frame — and does once
     * a selection shows it.
     */
    void selectionExplanationIsMeasuredWhenShown()
    {
        MainWindow window;
        window.resize(1200, 800);
        SelectionChoice *choice = window.promptPanel()->selectionChoice();
        auto *explain = choice->findChild<QLabel *>(QStringLiteral("selectionExplain"));
        QVERIFY(explain);
        QVERIFY(choice->isHidden());
        QCOMPARE(explain->minimumHeight(), 0);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(explain->minimumHeight(), 0); // still hidden: still not measured
        choice->setState(true, false);
        QVERIFY(choice->isVisible());
        QVERIFY(explain->minimumHeight() >= explain->fontMetrics().height());
        QCOMPARE(explain->minimumHeight(), explain->heightForWidth(choice->width()));
    }

    /**
     * A WrapLabel answers heightForWidth() as QLabel does, lays each width out once, and lays it
     * out again when what the height depends on changes (text, font, margins, format).
     */
    void wrapLabelRemembersHeightsAndForgetsThemOnChange()
    {
        const QString text = QStringLiteral("Demo backend: images are synthetic — add a Gemini API key in Settings");
        for (const bool selectable : {false, true}) { // selectable text is laid out through a QTextDocument
            WrapLabel label(text);
            QLabel reference(text);
            reference.setWordWrap(true);
            if (selectable) {
                label.setTextInteractionFlags(Qt::TextBrowserInteraction);
                reference.setTextInteractionFlags(Qt::TextBrowserInteraction);
            }
            for (int w : {60, 126, 253, 400, 1000})
                QCOMPARE(label.heightForWidth(w), reference.heightForWidth(w));
            QCOMPARE(label.layoutsDone(), 5);
            for (int w : {126, 253, 126, 253, 1000})
                QCOMPARE(label.heightForWidth(w), reference.heightForWidth(w));
            QCOMPARE(label.layoutsDone(), 5); // remembered
            const int wide = label.heightForWidth(126);
            label.setText(text + text);
            reference.setText(text + text);
            QVERIFY(label.heightForWidth(126) > wide);
            QCOMPARE(label.heightForWidth(126), reference.heightForWidth(126));
            QFont big = label.font();
            big.setPointSizeF(big.pointSizeF() * 2);
            label.setFont(big);
            reference.setFont(big);
            QCOMPARE(label.heightForWidth(126), reference.heightForWidth(126));
            label.setContentsMargins(0, 20, 0, 0);
            reference.setContentsMargins(0, 20, 0, 0);
            QCOMPARE(label.heightForWidth(126), reference.heightForWidth(126));
            label.setTextFormat(Qt::RichText);
            reference.setTextFormat(Qt::RichText);
            label.setText(QStringLiteral("<b>%1</b>").arg(text));
            reference.setText(QStringLiteral("<b>%1</b>").arg(text));
            QCOMPARE(label.heightForWidth(126), reference.heightForWidth(126));
            // QLabel never answers below its minimum height, and neither does a remembered answer.
            label.setMinimumHeight(500);
            reference.setMinimumHeight(500);
            QCOMPARE(label.heightForWidth(126), reference.heightForWidth(126));
            label.setMinimumHeight(0);
            reference.setMinimumHeight(0);
            QCOMPARE(label.heightForWidth(126), reference.heightForWidth(126));
            QCOMPARE(label.layoutsDone(), 11);
        }
    }

    /**
     * The frame details' rows (hidden until a frame is shown) are made when the first frame is
     * shown, not with the window; then they work, and Tab reaches their buttons where it did
     * when they were made with the panel: right after the panel's scroll area.
     */
    void frameDetailsRowsAreMadeForTheFirstFrame()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        InfoPanel *info = window.infoPanel();
        QVERIFY(!info->findChild<QLabel *>(QStringLiteral("infoTitle")));
        QVERIFY(!info->findChild<QToolButton *>());
        QCOMPARE(info->rowText(QStringLiteral("infoPrompt")), QString());
        // The keep-list's item list too (hidden while empty): made for the first keep-list
        // (tst_driftui checks it then, and its place in the tab order).
        QVERIFY(!window.findChild<QListWidget *>(QStringLiteral("keepListItems")));

        Frame f;
        f.id = QStringLiteral("abcd1234");
        f.status = FrameStatus::Done;
        f.kind = FrameKind::Edit;
        f.prompt = QStringLiteral("make the sky orange");
        f.interactionId = QStringLiteral("v1_interaction_id_1234567890");
        f.parentId = QStringLiteral("abcd1233");
        info->setFrame(f, 2, 1, QStringLiteral("/tmp/frame.png"));
        QVERIFY(info->findChild<QLabel *>(QStringLiteral("infoTitle")));
        QCOMPARE(info->rowText(QStringLiteral("infoPrompt")), f.prompt);
        QCOMPARE(info->rowText(QStringLiteral("infoInteractionId")), f.interactionId);
        info->setCost(QStringLiteral("$0.04"));
        QCOMPARE(info->rowText(QStringLiteral("infoCost")), QStringLiteral("$0.04"));

        // The tab order: from the scroll area, the rows' tab stops come first, in the order made.
        auto *scroll = info->findChild<QScrollArea *>();
        QVERIFY(scroll);
        QList<QWidget *> stops;
        for (QWidget *w = scroll->nextInFocusChain(); w != scroll && stops.size() < 3; w = w->nextInFocusChain()) {
            if (w->focusPolicy() & Qt::TabFocus)
                stops << w;
        }
        QCOMPARE(stops.size(), 3);
        for (QWidget *w : std::as_const(stops))
            QVERIFY2(info->isAncestorOf(w), w->metaObject()->className());
        QCOMPARE(stops.at(0)->accessibleName(), InfoPanel::tr("Copy interaction id"));
        QCOMPARE(stops.at(1)->objectName(), QStringLiteral("infoParent"));
        QCOMPARE(stops.at(2)->accessibleName(), InfoPanel::tr("Show file in folder"));

        info->clear();
        QCOMPARE(info->rowText(QStringLiteral("infoPrompt")), QString());
        info->setFrame(f, 2, 1, {});
        QCOMPARE(info->rowText(QStringLiteral("infoPrompt")), f.prompt); // made once, shown again
    }

    /** While start-up opens a session, the empty timeline paints "opening", not its empty-session hints. */
    void timelineSaysOpeningWhileTheSessionOpens()
    {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        TimelineView *timeline = window.timelineView();
        timeline->setAttachHint(TimelineView::AttachHint::Generate); // the empty session's "+ new image" slot
        const QImage hints = timeline->viewport()->grab().toImage();
        timeline->setOpening(true);
        QVERIFY(timeline->isOpening());
        const QImage opening = timeline->viewport()->grab().toImage();
        QVERIFY(opening != hints);
        timeline->setOpening(false);
        QCOMPARE(timeline->viewport()->grab().toImage(), hints); // and back, once it is open
    }

    /** The replay panel (its dock hidden at start) is built once a session opens, or when its dock shows. */
    void replayPanelIsBuiltWhenNeeded()
    {
        QTemporaryDir dir;
        {
            MainWindow window;
            QVERIFY(!window.findChild<ReplayPanel *>());
            QVERIFY(window.sessions()->open(dir.path() + QStringLiteral("/s")));
            QVERIFY(window.findChild<ReplayPanel *>()); // its unfinished replays are looked up
            auto *dock = window.findChild<QDockWidget *>(QStringLiteral("replayDock"));
            QVERIFY(dock);
            QVERIFY(window.findChild<ReplayPanel *>()->isAncestorOf(dock) == false);
            QVERIFY(dock->isAncestorOf(window.findChild<ReplayPanel *>()));
        }
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.findChild<ReplayPanel *>());
        auto *dock = window.findChild<QDockWidget *>(QStringLiteral("replayDock"));
        dock->show(); // as the View menu or Replay Onto… does: a tab beside Frame Details, raised
        dock->raise();
        QTRY_VERIFY(window.findChild<ReplayPanel *>());
    }

    /**
     * The checkpoint preload runs on a thread below the GUI thread's priority (nice +10), so on a
     * shared core the window is built and painted first; the global pool keeps its priority,
     * and open() still takes what the preload read.
     */
    void preloadRunsBelowTheGuiThread()
    {
        const auto niceOfThisThread = [] {
            errno = 0;
            const int n = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
            return errno == 0 ? n : -100;
        };
        const int gui = niceOfThisThread();
        QVERIFY(gui != -100);
        BackgroundPool pool;
        // Waited for by polling: QFuture::waitForFinished() runs a task that has not started
        // yet on the waiting thread.
        std::atomic<int> background {-100};
        pool.start([&] { background = niceOfThisThread(); });
        QTRY_VERIFY(background != -100);
        QCOMPARE(background.load(), std::min(19, gui + BackgroundPool::kNice));
        std::atomic<int> global {-100};
        QThreadPool::globalInstance()->start([&] { global = niceOfThisThread(); });
        QTRY_VERIFY(global != -100);
        QCOMPARE(global.load(), gui);

        QTemporaryDir dir;
        const QString session = dir.path() + QStringLiteral("/s");
        {
            SessionStore store;
            QVERIFY(store.open(session));
            store.close();
        }
        QVERIFY(QFileInfo::exists(session + QStringLiteral("/manifest.json")));
        const QFuture<void> preloading = SessionStore::preload(session, &pool);
        QVERIFY(preloading.isValid());
        SessionStore store;
        QVERIFY(store.open(session));
        QVERIFY(store.openedFromPreload());
    }

    void gateRunsAfterTheFirstPaintOnly()
    {
        QWidget window;
        window.resize(200, 100);
        PaintCounter painted(&window);
        int paintsWhenRun = -1;
        afterFirstPaint(
            &window, [&] { paintsWhenRun = painted.count; }, 60000);
        QTest::qWait(100);
        QCOMPARE(paintsWhenRun, -1); // not shown, not painted: not run
        window.show();
        QTRY_VERIFY(paintsWhenRun != -1);
        QVERIFY(paintsWhenRun >= 1);
        const int once = paintsWhenRun;
        window.repaint();
        QTest::qWait(50);
        QCOMPARE(paintsWhenRun, once); // once only
    }

    void gateFallsBackWhenTheWindowNeverPaints()
    {
        QWidget window;
        bool ran = false;
        afterFirstPaint(
            &window, [&] { ran = true; }, 100);
        QTRY_VERIFY_WITH_TIMEOUT(ran, 5000);
    }

    /**
     * The binary, as the benchmark starts it: the session given on the command line (whose
     * checkpoint preload is done at once) is opened after the first frame, and is open in the end.
     */
    void studioOpensTheSessionAfterItsFirstPaint()
    {
        const QString studio = nb2test::studioProgram();
        QVERIFY(QFileInfo::exists(studio));
        QTemporaryDir home;
        QProcess app;
        QProcessEnvironment env = nb2test::isolatedStudioEnvironment(home.path());
        env.insert(QStringLiteral("NB2_BENCH_FIRST_PAINT"), QStringLiteral("2"));
        app.setProcessEnvironment(env);
        const QString session = home.path() + QStringLiteral("/session");
        app.start(studio, {QStringLiteral("--demo"), session});
        QVERIFY(app.waitForFinished(60000));
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 0);
        const QByteArray out = app.readAllStandardOutput();
        const auto value = [&out](const QByteArray &key) -> qint64 {
            const qsizetype at = out.indexOf(key + ' ');
            return at < 0 ? -1 : out.mid(at + key.size() + 1).split('\n').first().trimmed().toLongLong();
        };
        QVERIFY2(value("first_paint_us") > 0, out.constData());
        QCOMPARE(value("session_open_at_first_paint"), 0);
        QCOMPARE(
            value("demo_banner_at_first_paint"), 1); // the demo server starts on a worker, its banner shows at once
        // The HTTP code is a module loaded after the first frame (app/netmodule/netmodule.h).
        QCOMPARE(value("net_module_at_first_paint"), 0);
        QCOMPARE(value("libssl_at_first_paint"), 0);
        QCOMPARE(value("libcrypto_at_first_paint"), 0);
        // The session opens after the first frame: the timeline says "Opening the session…" until then.
        QCOMPARE(value("timeline_opening_at_first_paint"), 1);
        QCOMPARE(value("timeline_opening_at_session_open"), 0);
        // The window manager's icon is set after the first frame (an SVG: a plugin, and six
        // renderings on X11).
        QCOMPARE(value("window_icon_at_first_paint"), 0);
        QCOMPARE(value("window_icon_at_session_open"), 1);
        QVERIFY2(value("session_open_us") >= value("first_paint_us"), out.constData());
        // The end of the first paint pass (nb2lite-bench's "first frame complete"): after its start.
        QVERIFY2(value("first_frame_done_us") >= value("first_paint_us"), out.constData());
        QVERIFY(QFileInfo::exists(session + QStringLiteral("/manifest.json"))); // and it did open
        // ...with the demo server's address given to the window before it opened.
        const qsizetype at = out.indexOf("session_backend http://127.0.0.1:");
        QVERIFY2(at >= 0, out.constData());
        QVERIFY2(out.mid(at + 33).split('\n').first().toInt() > 0, out.constData());
    }

    /**
     * Without --demo or a key in the environment the key store is read (keychain first). Its
     * answer can take seconds (here: a session bus that accepts and never answers, until
     * KeyStore's 3 s timeout): the first frame does not wait for it; the session opens, with
     * the demo backend, once it has answered.
     */
    void firstPaintDoesNotWaitForTheKeyStore()
    {
        const QString studio = nb2test::studioProgram();
        QTemporaryDir home;
        const QByteArray busPath = QFile::encodeName(home.path() + QStringLiteral("/silent-bus"));
        const int bus = socket(AF_UNIX, SOCK_STREAM, 0);
        QVERIFY(bus >= 0);
        sockaddr_un address {};
        address.sun_family = AF_UNIX;
        QVERIFY(size_t(busPath.size()) < sizeof address.sun_path);
        std::memcpy(address.sun_path, busPath.constData(), size_t(busPath.size()));
        QCOMPARE(bind(bus, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
        QCOMPARE(listen(bus, 16), 0); // connections wait in the backlog: nothing ever answers

        QProcess app;
        QProcessEnvironment env = nb2test::isolatedStudioEnvironment(home.path());
        env.insert(QStringLiteral("NB2_BENCH_FIRST_PAINT"), QStringLiteral("2"));
        env.insert(
            QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("unix:path=") + QFile::decodeName(busPath));
        app.setProcessEnvironment(env);
        const QString session = home.path() + QStringLiteral("/session");
        const qint64 launched = QDateTime::currentMSecsSinceEpoch();
        app.start(studio, {session});
        QVERIFY(app.waitForFinished(60000));
        close(bus);
        QCOMPARE(app.exitCode(), 0);
        const QByteArray out = app.readAllStandardOutput();
        const auto value = [&out](const QByteArray &key) -> qint64 {
            const qsizetype at = out.indexOf(key + ' ');
            return at < 0 ? -1 : out.mid(at + key.size() + 1).split('\n').first().trimmed().toLongLong();
        };
        const qint64 painted = value("first_paint_us") / 1000 - launched;
        const qint64 opened = value("session_open_us") / 1000 - launched;
        QVERIFY2(value("first_paint_us") > 0 && value("session_open_us") > 0, out.constData());
        // The store answered after its timeout (so it did hang); the frame came long before.
        // KeyStore's 3 s timer is a coarse QTimer, which Qt may fire up to 5 % early (2,850 ms;
        // 2,879 ms was seen in a clean-clone run).
        QVERIFY2(opened >= 2850, qPrintable(QStringLiteral("session open after %1 ms").arg(opened)));
        QVERIFY2(painted < opened - 1500, qPrintable(QStringLiteral("first paint after %1 ms").arg(painted)));
        QVERIFY2(out.contains("session_backend http://127.0.0.1:"), out.constData()); // no key: the demo
    }
};

QTEST_MAIN(tst_WindowStart)
#include "tst_windowstart.moc"
