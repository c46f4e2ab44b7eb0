// What a keyboard user noticed in the window (issue 12), one test per papercut, against the
// in-process fake server. The controllers are driven directly; the views are only read.
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "ui/actionmanager.h"
#include "ui/exportdialog.h"
#include "ui/frameeditor.h"
#include "ui/frameselection.h"
#include "ui/importcontroller.h"
#include "ui/infopanel.h"
#include "ui/mainwindow.h"
#include "ui/noticepresenter.h"
#include "ui/pendingindicator.h"
#include "ui/promptpanel.h"
#include "ui/screenfit.h"
#include "ui/sessionmanager.h"
#include "ui/settingsdialog.h"
#include "ui/shortcutsdialog.h"
#include "ui/timelinemodel.h"
#include "ui/timelineview.h"
#include "ui/turndispatcher.h"
#include "uitesthelpers.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace nb2;

class tst_WindowPapercuts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void promptKeepsFocusAfterFinishedTurn();
    void timelineShowsWhereTheFocusIs();
    void frameDetailsWrapAndElide();
    void frameDetailsShowTheStar();
    void frameDetailsRowsShrinkForAShorterText();
    void promptPanelDoesNotOverlapAt800x600();
    void windowAndDialogsFitTheScreen();
    void rateLimitCountsAttemptsAndStops();
    void clientRateLimitWaitIsNamed();
    void cancelIsNeutral();
    void undoSaysWhatItUndid();
    void refusalRestoresThePromptAndEditsTheParent();
    void errorTextsNameIdsAndServerOnce();
    void badEnvironmentKeyDoesNotOpenSettings();
    void timelineScrollsToFramesAddedElsewhere();
    void keyboardShortcutsAreListed();
    void keyTierChangeRedatesTheOpenSessionsIds();
    void keyTierChangeOnAnAgentSizedSessionIsQuick();
    void promptHasAShortcut();

private:
    QString frameAt(int row) const { return m_window->timelineModel()->frameIdAt(row); }
    Frame frame(const QString &id) const { return m_window->session()->graph().value(id); }
    void send(const QString &prompt);
    bool waitStatus(const QString &id, FrameStatus status, int timeoutMs = 20000);
    QString importOne(const QString &name);

    std::unique_ptr<FakeServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    MainWindow *m_window = nullptr;
};

void tst_WindowPapercuts::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    qputenv("NB2_NO_AUTO_SETTINGS", "1");
    QApplication::setOrganizationName(QStringLiteral("NB2LiteTest"));
    QApplication::setApplicationName(QStringLiteral("tst_windowpapercuts"));
    FakeServerOptions options;
    options.apiKey = QStringLiteral("ui-test-key");
    m_server = std::make_unique<FakeServer>(options);
    QVERIFY2(m_server->start(0), qPrintable(m_server->errorString()));
}

void tst_WindowPapercuts::init()
{
    m_server->clearFaults();
    m_server->setLatencyMs(0);
    m_dir = std::make_unique<QTemporaryDir>();
    {
        QSettings s;
        s.clear();
        appprefs::sessionsFolder.write(s, m_dir->path() + QStringLiteral("/sessions"));
    }
    m_window = new MainWindow;
    m_window->setBackend(nb2test::fakeConfig(*m_server, QStringLiteral("ui-test-key")), true);
    const Result<void> opened = m_window->sessions()->open(m_dir->path() + QStringLiteral("/s1"));
    QVERIFY2(opened, qPrintable(opened.error().message));
    m_window->resize(780, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window));
}

void tst_WindowPapercuts::cleanup()
{
    if (m_window) {
        m_window->session()->waitForIdle(10000);
        delete m_window;
        m_window = nullptr;
    }
    m_dir.reset();
}

void tst_WindowPapercuts::send(const QString &prompt)
{
    PromptPanel *p = m_window->promptPanel();
    p->setPrompt(prompt);
    p->editor()->setFocus();
    QTest::keyClick(p->editor(), Qt::Key_Return, Qt::ControlModifier);
}

bool tst_WindowPapercuts::waitStatus(const QString &id, FrameStatus status, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        if (frame(id).status == status)
            return true;
        QTest::qWait(20);
    }
    return false;
}

QString tst_WindowPapercuts::importOne(const QString &name)
{
    const QString png = nb2test::writePng(m_dir->path() + QLatin1Char('/') + name);
    QSignalSpy spy(m_window->imports(), &ImportController::importFinished);
    m_window->imports()->importFiles({png});
    if (!spy.wait(10000))
        return {};
    return spy.first().at(0).toStringList().value(0);
}

void tst_WindowPapercuts::promptKeepsFocusAfterFinishedTurn()
{
    m_server->setLatencyMs(300);
    send(QStringLiteral("a lighthouse"));
    const QString id = frameAt(0);
    QPlainTextEdit *editor = m_window->promptPanel()->editor();
    QVERIFY(editor->hasFocus()); // still there while the turn runs
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("make it "));
    QVERIFY(waitStatus(id, FrameStatus::Done));
    QTest::qWait(50);
    QVERIFY(editor->hasFocus()); // and after it finished
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("night"));
    QCOMPARE(m_window->promptPanel()->prompt(), QStringLiteral("make it night")); // nothing typed was lost
    QCOMPARE(m_window->promptPanel()->mode(), PromptPanel::Mode::Edit);
    QVERIFY(m_window->promptPanel()->sendButton()->isEnabled());
}

void tst_WindowPapercuts::timelineShowsWhereTheFocusIs()
{
    const QString id = importOne(QStringLiteral("a.png"));
    QVERIFY(!id.isEmpty());
    TimelineView *view = m_window->timelineView();
    m_window->selection()->select(id);
    m_window->promptPanel()->editor()->setFocus();
    QTRY_VERIFY(!view->hasFocus());
    QTest::qWait(50);
    const QRect card = view->visualRect(m_window->timelineModel()->indexOf(id));
    const QImage unfocused = view->viewport()->grab(card).toImage();
    view->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(view->hasFocus());
    QTest::qWait(50);
    const QImage focused = view->viewport()->grab(card).toImage();
    QVERIFY2(focused != unfocused, "the selected card looks the same with and without keyboard focus");
}

void tst_WindowPapercuts::frameDetailsWrapAndElide()
{
    send(QStringLiteral("a harbour at night with many small boats and a long, long quay"));
    const QString id = frameAt(0);
    QVERIFY(waitStatus(id, FrameStatus::Done));
    m_window->selection()->select(id);
    InfoPanel *info = m_window->infoPanel();
    info->window()->resize(780, 760);
    info->setFixedWidth(220); // a narrow dock
    QTest::qWait(100);
    // The id is one line, elided in the middle, never wider than its row.
    auto *idField = info->findChild<QWidget *>(QStringLiteral("infoInteractionId"));
    QVERIFY(idField);
    QCOMPARE(info->rowText(QStringLiteral("infoInteractionId")), frame(id).interactionId);
    QVERIFY(idField->geometry().right() <= info->width());
    // Every wrapped row got the height its text needs at its width, and no row overlaps the next.
    QList<QRect> rows;
    for (const char *name : {"infoPrompt", "infoKind", "infoStatus", "infoModel", "infoModelText", "infoUsage",
             "infoRequested", "infoFile"}) {
        auto *label = info->findChild<QLabel *>(QLatin1String(name));
        if (label && label->isVisible())
            rows << QRect(label->mapTo(info, QPoint(0, 0)), label->size());
    }
    QVERIFY(rows.size() >= 5);
    for (int i = 1; i < rows.size(); ++i)
        QVERIFY2(
            rows[i].top() >= rows[i - 1].bottom(), qPrintable(QStringLiteral("row %1 overlaps the one above").arg(i)));
    for (const char *name : {"infoPrompt", "infoModel", "infoUsage", "infoFile", "infoKind"}) {
        auto *label = info->findChild<QLabel *>(QLatin1String(name));
        QVERIFY(label);
        if (!label->isVisible())
            continue;
        QVERIFY2(label->height() >= label->heightForWidth(label->width()),
            qPrintable(QStringLiteral("%1: %2 < %3")
                           .arg(QLatin1String(name))
                           .arg(label->height())
                           .arg(label->heightForWidth(label->width()))));
        QVERIFY2(label->geometry().right() <= label->parentWidget()->width(), name);
    }
}

void tst_WindowPapercuts::frameDetailsShowTheStar()
{
    const QString id = importOne(QStringLiteral("a.png"));
    m_window->selection()->select(id);
    QVERIFY(m_window->infoPanel()->rowText(QStringLiteral("infoStar")).isEmpty());
    m_window->action(ActionId::Star)->trigger();
    QTRY_VERIFY(m_window->infoPanel()->rowText(QStringLiteral("infoStar")).contains(QStringLiteral("★")));
    m_window->action(ActionId::Undo)->trigger();
    QTRY_VERIFY(m_window->infoPanel()->rowText(QStringLiteral("infoStar")).isEmpty());
}

// A one-line prompt shown after a long one gets one line: QLabel's heightForWidth() never
// answers less than the minimum height the long prompt had reserved, which left its lines as a
// gap under the short one (docs/screenshots/keep-list-800x600.png showed it).
void tst_WindowPapercuts::frameDetailsRowsShrinkForAShorterText()
{
    InfoPanel panel;
    panel.resize(330, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    Frame f;
    f.id = QStringLiteral("aaaa1111");
    f.status = FrameStatus::Done;
    f.kind = FrameKind::Generate;
    f.prompt = QStringLiteral("A glass jar of honey on a kitchen table, a handwritten label, morning light from the "
                              "left and a wooden spoon beside it");
    panel.setFrame(f, 1, 0, {});
    auto *prompt = panel.findChild<QLabel *>(QStringLiteral("infoPrompt"));
    QVERIFY(prompt);
    const int line = prompt->fontMetrics().lineSpacing();
    QTRY_VERIFY(prompt->height() >= 3 * line); // the long prompt wraps
    f.id = QStringLiteral("bbbb2222");
    f.kind = FrameKind::Edit;
    f.prompt = QStringLiteral("Add a bee");
    panel.setFrame(f, 2, 1, {});
    QTRY_VERIFY2(prompt->height() < 2 * line,
        qPrintable(QStringLiteral("a one-line prompt is %1 px high (a line: %2)").arg(prompt->height()).arg(line)));
    // And it grows again for a long one.
    f.prompt = QStringLiteral("Add a bee on the lid of the jar, and a second one flying over the handwritten label");
    panel.setFrame(f, 3, 2, {});
    QTRY_VERIFY(prompt->height() >= 2 * line);
    QCOMPARE(prompt->height(), prompt->heightForWidth(prompt->width()));
}

void tst_WindowPapercuts::promptPanelDoesNotOverlapAt800x600()
{
    const QString id = importOne(QStringLiteral("a.png"));
    m_window->selection()->select(id); // a long context line (local edit) above the editor
    m_window->resize(800, 600);
    QTest::qWait(200);
    PromptPanel *panel = m_window->promptPanel();
    auto rectIn = [panel](QWidget *w) { return QRect(w->mapTo(panel, QPoint(0, 0)), w->size()); };
    const QRect editor = rectIn(panel->editor());
    const QRect aspect = rectIn(panel->findChild<QComboBox *>(QStringLiteral("aspectCombo")));
    const QRect style = rectIn(panel->findChild<QWidget *>(QStringLiteral("styleSlot")));
    const QRect send = rectIn(panel->sendButton());
    QVERIFY2(!editor.intersects(aspect), "prompt box overlaps the aspect-ratio row");
    QVERIFY2(!editor.intersects(style), "prompt box overlaps the style slot");
    QVERIFY2(!aspect.intersects(send) && !style.intersects(send), "choosers overlap the Send button");
    QVERIFY(panel->editor()->height() >= 40);
}

void tst_WindowPapercuts::windowAndDialogsFitTheScreen()
{
    const QRect avail = m_window->screen()->availableGeometry();
    {
        // A new window asks for 1440×900; the offscreen screen is 800×800 (like 1600×1000 at
        // QT_SCALE_FACTOR=2): it opens fitted.
        MainWindow fresh;
        QVERIFY2(fresh.width() <= avail.width() && fresh.height() <= avail.height(),
            qPrintable(QStringLiteral("%1x%2").arg(fresh.width()).arg(fresh.height())));
    }
    m_window->resize(avail.width() * 2, avail.height() * 2); // what 1440×900 at QT_SCALE_FACTOR=2 asks for
    fitToScreen(m_window);
    QVERIFY(m_window->width() <= avail.width());
    QVERIFY(m_window->height() <= avail.height());
    QVERIFY(m_window->minimumWidth() <= avail.width());

    send(QStringLiteral("a windmill"));
    QVERIFY(waitStatus(frameAt(0), FrameStatus::Done));
    m_window->action(ActionId::Export)->trigger();
    ExportDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_window->findChild<ExportDialog *>()) != nullptr);
    QVERIFY(dialog->width() <= avail.width());
    QVERIFY(dialog->height() <= avail.height());
    QVERIFY(dialog->minimumHeight() <= avail.height());
    dialog->reject();
}

void tst_WindowPapercuts::rateLimitCountsAttemptsAndStops()
{
    FakeFault fault;
    fault.kind = FakeFault::Kind::RateLimit;
    fault.retryAfterSeconds = 2; // longer than the client waits (1 s): the window schedules the retries
    m_server->injectFault(fault, 100);
    send(QStringLiteral("a fox"));
    const QString id = frameAt(0);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->notices()->lastMessage().contains(QStringLiteral("attempt 1 of 3")), 10000);
    QVERIFY2(m_window->notices()->lastMessage().contains(QStringLiteral("rate limited, retrying in 2 s")),
        qPrintable(m_window->notices()->lastMessage()));
    QTRY_VERIFY(m_window->pendingIndicator()->text().contains(QStringLiteral("(attempt 1 of 3)")));
    // The cap is visible: after three automatic retries it stops and says so.
    QTRY_VERIFY_WITH_TIMEOUT(m_window->notices()->lastMessage().contains(QStringLiteral("still rate limited")), 30000);
    QCOMPARE(m_window->turns()->autoRetryCount(id), TurnDispatcher::kMaxAutoRetries);
    QCOMPARE(m_window->notices()->actionText(), QStringLiteral("Retry"));
    QCOMPARE(frame(id).status, FrameStatus::Failed);
    QTest::qWait(2500);
    QCOMPARE(frame(id).status, FrameStatus::Failed); // no fourth automatic retry
}

void tst_WindowPapercuts::clientRateLimitWaitIsNamed()
{
    ClientConfig config = nb2test::fakeConfig(*m_server, QStringLiteral("ui-test-key"));
    config.maxRateLimitWaitMs = 5000; // the client sleeps through a short Retry-After itself
    m_window->setBackend(config, true);
    FakeFault fault;
    fault.kind = FakeFault::Kind::RateLimit;
    fault.retryAfterSeconds = 3;
    m_server->injectFault(fault, 1);
    send(QStringLiteral("a quiet lake"));
    const QString id = frameAt(0);
    QTRY_VERIFY_WITH_TIMEOUT(
        m_window->pendingIndicator()->text().contains(QStringLiteral("rate limited, retrying in")), 5000);
    QVERIFY2(m_window->pendingIndicator()->text().contains(QStringLiteral("(attempt 2 of 2)")),
        qPrintable(m_window->pendingIndicator()->text()));
    QVERIFY(waitStatus(id, FrameStatus::Done));
}

void tst_WindowPapercuts::cancelIsNeutral()
{
    m_server->setLatencyMs(15000);
    send(QStringLiteral("a slow painting"));
    const QString id = frameAt(0);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->session()->runningCount(), 1, 5000);
    m_window->selection()->select(id);
    m_window->action(ActionId::Cancel)->trigger();
    QVERIFY(waitStatus(id, FrameStatus::Cancelled, 5000));
    QTRY_VERIFY(m_window->infoPanel()->rowText(QStringLiteral("infoStatus")).contains(QStringLiteral("cancelled")));
    QCOMPARE(m_window->infoPanel()->rowText(QStringLiteral("infoError")), QString()); // no red "Error: Cancelled."
    QVERIFY(!m_window->notices()->isShown() || m_window->notices()->lastKind() != NoticeKind::Error);
    QVERIFY(m_window->notices()->lastStatus().contains(QStringLiteral("Cancelled")));
}

void tst_WindowPapercuts::undoSaysWhatItUndid()
{
    importOne(QStringLiteral("a.png"));
    const QString victim = importOne(QStringLiteral("b.png"));
    m_window->selection()->select(victim);
    m_window->action(ActionId::DeleteFrame)->trigger();
    QVERIFY(m_window->notices()->lastStatus().contains(QStringLiteral("trash")));
    m_window->action(ActionId::Undo)->trigger();
    QVERIFY(m_window->timelineModel()->indexOf(victim).isValid());
    QVERIFY2(!m_window->notices()->lastStatus().contains(QStringLiteral("Moved")),
        qPrintable(m_window->notices()->lastStatus()));
    QVERIFY2(m_window->notices()->lastStatus().startsWith(QStringLiteral("Undone:")),
        qPrintable(m_window->notices()->lastStatus()));
    m_window->action(ActionId::Redo)->trigger();
    QVERIFY(m_window->notices()->lastStatus().startsWith(QStringLiteral("Redone:")));
}

void tst_WindowPapercuts::refusalRestoresThePromptAndEditsTheParent()
{
    send(QStringLiteral("a red barn"));
    const QString parent = frameAt(0);
    QVERIFY(waitStatus(parent, FrameStatus::Done));
    FakeFault refusal;
    refusal.kind = FakeFault::Kind::TextOnlyRefusal;
    m_server->injectFault(refusal, 1);
    send(QStringLiteral("something the model refuses"));
    const QString refused = frameAt(1);
    QVERIFY(waitStatus(refused, FrameStatus::Failed));
    QTRY_COMPARE(m_window->promptPanel()->prompt(), QStringLiteral("something the model refuses"));
    QCOMPARE(m_window->selection()->currentId(), parent);
    QCOMPARE(m_window->promptPanel()->mode(), PromptPanel::Mode::Edit); // not "Branch from here"
    QVERIFY(m_window->notices()->lastMessage().contains(QStringLiteral("back in the prompt box")));
    m_window->promptPanel()->setPrompt(QStringLiteral("something allowed"));
    m_window->action(ActionId::Send)->trigger();
    const QString rephrased = frameAt(2);
    QVERIFY(waitStatus(rephrased, FrameStatus::Done));
    QCOMPARE(frame(rephrased).parentId, parent);
    QCOMPARE(frame(rephrased).kind, FrameKind::Edit);
}

void tst_WindowPapercuts::errorTextsNameIdsAndServerOnce()
{
    const QString id = QStringLiteral("v1_ChdQa3VfZWlfWmJNdFJ0T1FfLTlQenFnEhdQa3VfZWlfWmJNdFJ0T1FfLTlQenFn");
    Error e = Error::make(ErrorKind::NotFound,
        QStringLiteral("The previous interaction '%1' is no longer on the server (HTTP 404: Interaction "
                       "%1 not found.).")
            .arg(id));
    e.api.serverMessage = QStringLiteral("Interaction %1 not found.").arg(id);
    const QString text = NoticePresenter::describe(e);
    QVERIFY2(!text.contains(id), qPrintable(text));
    QVERIFY2(text.count(QStringLiteral("not found")) == 1, qPrintable(text));
    QVERIFY(text.contains(id.left(10) + QStringLiteral("…")));

    // A server message the client did not quote is added once.
    Error other = Error::make(ErrorKind::Server, QStringLiteral("The server failed (HTTP 500). Try again later."));
    other.api.serverMessage = QStringLiteral("backend overloaded");
    QCOMPARE(NoticePresenter::describe(other).count(QStringLiteral("backend overloaded")), 1);

    // Frame Details: rows never overlap, also with a long error in a narrow dock.
    {
        Frame g;
        g.id = QStringLiteral("abcd1235");
        g.status = FrameStatus::Failed;
        g.kind = FrameKind::Edit;
        g.prompt = QStringLiteral("Add a small sailing boat on the horizon");
        g.aspectRatio = QStringLiteral("3:2");
        g.error.kind = QStringLiteral("rate_limited");
        g.error.message
            = QStringLiteral("Rate limited by the server (HTTP 429: Resource has been exhausted (e.g. check "
                             "quota)). Try again in 42 s.");
        InfoPanel narrow;
        narrow.resize(300, 700);
        narrow.show();
        narrow.setFrame(g, 7, 4, {});
        QTest::qWait(100);
        QList<QRect> rows;
        for (const char *name : {"infoPrompt", "infoKind", "infoStatus", "infoError", "infoAspect", "infoRequested"}) {
            auto *label = narrow.findChild<QLabel *>(QLatin1String(name));
            if (label && label->isVisible())
                rows << QRect(label->mapTo(&narrow, QPoint(0, 0)), label->size());
        }
        for (int i = 1; i < rows.size(); ++i)
            QVERIFY2(rows[i].top() > rows[i - 1].bottom(),
                qPrintable(QStringLiteral("row %1 overlaps the one above").arg(i)));
    }

    // Frame Details: the id in its row only.
    Frame f;
    f.id = QStringLiteral("abcd1234");
    f.status = FrameStatus::Failed;
    f.interactionId = id;
    f.error.kind = QStringLiteral("server");
    f.error.message = QStringLiteral("The interaction %1 ended with status 'failed': overloaded.").arg(id);
    f.error.serverMessage = QStringLiteral("overloaded.");
    InfoPanel panel;
    panel.setFrame(f, 1, 0, {});
    QVERIFY2(!panel.rowText(QStringLiteral("infoError")).contains(id),
        qPrintable(panel.rowText(QStringLiteral("infoError"))));
    QCOMPARE(panel.rowText(QStringLiteral("infoError")).count(QStringLiteral("overloaded")), 1);
    QCOMPARE(panel.rowText(QStringLiteral("infoInteractionId")), id);
}

void tst_WindowPapercuts::badEnvironmentKeyDoesNotOpenSettings()
{
    qunsetenv("NB2_NO_AUTO_SETTINGS");
    ClientConfig config = nb2test::fakeConfig(*m_server, QStringLiteral("ui-test-key"));
    config.apiKey = ApiKey(QStringLiteral("ui-test-key"), QStringLiteral("GEMINI_API_KEY"));
    m_window->setBackend(config, false);
    FakeFault fault;
    fault.kind = FakeFault::Kind::InvalidKey;
    m_server->injectFault(fault, 5);
    send(QStringLiteral("a blue door"));
    QVERIFY(waitStatus(frameAt(0), FrameStatus::Failed));
    QTest::qWait(300);
    qputenv("NB2_NO_AUTO_SETTINGS", "1");
    QVERIFY(m_window->findChild<SettingsDialog *>() == nullptr);
    QVERIFY(m_window->notices()->lastMessage().contains(QStringLiteral("GEMINI_API_KEY")));
    QVERIFY(m_window->notices()->actionText().isEmpty()); // no "Open Settings…" that cannot help
}

void tst_WindowPapercuts::timelineScrollsToFramesAddedElsewhere()
{
    QStringList pngs;
    for (int i = 0; i < 12; ++i)
        pngs << nb2test::writePng(m_dir->path() + QStringLiteral("/p%1.png").arg(i));
    QSignalSpy spy(m_window->imports(), &ImportController::importFinished);
    m_window->imports()->importFiles(pngs);
    QVERIFY(spy.wait(20000));
    QVERIFY(m_window->session()->store()->flush());
    const QString first = frameAt(0);
    m_window->selection()->select(first);
    TimelineView *view = m_window->timelineView();
    view->scrollTo(m_window->timelineModel()->index(0));

    // The CLI (another process) continues the last picture.
    SessionStore other;
    QVERIFY(other.open(m_window->sessions()->dir(), SessionStore::OpenMode::OpenExisting));
    Frame child = other.graph().value(frameAt(11));
    child.id = Frame::newId();
    child.parentId = frameAt(11);
    QVERIFY(other.commit({child}));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->timelineModel()->indexOf(child.id).isValid(), 10000);
    QTRY_VERIFY(view->viewport()->rect().intersects(view->visualRect(m_window->timelineModel()->indexOf(child.id))));
    QCOMPARE(m_window->selection()->currentId(), first); // shown, not selected
}

void tst_WindowPapercuts::keyTierChangeRedatesTheOpenSessionsIds()
{
    send(QStringLiteral("a lighthouse"));
    const QString id = frameAt(0);
    QVERIFY(waitStatus(id, FrameStatus::Done));
    const QDateTime finished = frame(id).finishedAt;
    QVERIFY(qAbs(frame(id).idExpiresAt.secsTo(finished.addDays(55))) <= 1); // paid, the default

    // Settings > Key tier: each change re-dates the ids the open session already holds.
    const auto chooseTier = [this](const QString &tier) {
        m_window->action(ActionId::Settings)->trigger();
        SettingsDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = m_window->findChild<SettingsDialog *>()) != nullptr);
        auto *combo = dialog->findChild<QComboBox *>(QStringLiteral("tierCombo"));
        QVERIFY(combo);
        combo->setCurrentIndex(combo->findData(tier));
        dialog->accept();
        QTRY_VERIFY(m_window->findChild<SettingsDialog *>() == nullptr || !dialog->isVisible());
    };
    chooseTier(QStringLiteral("free"));
    QTRY_VERIFY(qAbs(frame(id).idExpiresAt.secsTo(finished.addDays(1))) <= 1);
    QVERIFY2(m_window->notices()->lastStatus().contains(QStringLiteral("1 day")),
        qPrintable(m_window->notices()->lastStatus()));
    QVERIFY(frame(id).hasUsableId()); // finished a moment ago: still kept under either tier
    chooseTier(QStringLiteral("paid"));
    QTRY_VERIFY(qAbs(frame(id).idExpiresAt.secsTo(finished.addDays(55))) <= 1);

    // On disk too: a reopened session keeps the re-dated expiry.
    QVERIFY(m_window->sessions()->flush());
    SessionStore store;
    QVERIFY(store.open(m_dir->path() + QStringLiteral("/s1"), SessionStore::OpenMode::ReadOnly));
    QCOMPARE(store.graph().value(id).idExpiresAt, frame(id).idExpiresAt);
}

void tst_WindowPapercuts::keyTierChangeOnAnAgentSizedSessionIsQuick()
{
    // 5,000 finished frames with ids (an agent's session, written by another process): a tier
    // change re-dates them all in one change, so the window refreshes once, not once per frame.
    send(QStringLiteral("a lighthouse"));
    const QString root = frameAt(0);
    QVERIFY(waitStatus(root, FrameStatus::Done));
    const Frame base = frame(root);
    QList<Frame> frames;
    for (int i = 1; i < 5000; ++i) {
        Frame f = base;
        f.id = QStringLiteral("%1").arg(i, 8, 16, QLatin1Char('0'));
        f.kind = FrameKind::Edit;
        f.parentId = i % 10 == 0 ? root : frames.isEmpty() ? root : frames.last().id; // a fork every 10 frames
        f.interactionId = QStringLiteral("agent-%1").arg(i);
        frames << f;
    }
    {
        SessionStore other;
        QVERIFY(other.open(m_dir->path() + QStringLiteral("/s1"), SessionStore::OpenMode::OpenExisting));
        QVERIFY(other.commit(frames));
    }
    QTRY_COMPARE_WITH_TIMEOUT(m_window->timelineModel()->rowCount(), 5000, 30000);

    m_window->action(ActionId::Settings)->trigger();
    SettingsDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_window->findChild<SettingsDialog *>()) != nullptr);
    auto *combo = dialog->findChild<QComboBox *>(QStringLiteral("tierCombo"));
    QVERIFY(combo);
    combo->setCurrentIndex(combo->findData(QStringLiteral("free")));
    QElapsedTimer t;
    t.start();
    dialog->accept(); // re-dates the open session's ids at once
    const qint64 ms = t.elapsed();
    const Frame last = frame(frames.last().id);
    QVERIFY(qAbs(last.idExpiresAt.secsTo(last.finishedAt.addDays(1))) <= 1);
    qInfo("key tier change on 5,000 frames: %lld ms on the GUI thread", ms);
    // Was ~750 ms: a timeline update, a find pass, the actions and the cost total per frame.
    QVERIFY2(ms < 500, qPrintable(QStringLiteral("%1 ms").arg(ms)));
}

void tst_WindowPapercuts::keyboardShortcutsAreListed()
{
    m_window->action(ActionId::KeyboardShortcuts)->trigger();
    ShortcutsDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_window->findChild<ShortcutsDialog *>()) != nullptr);
    QVERIFY(dialog->rowCount() >= 20);
    QStringList commands;
    for (const auto &row : m_window->actions()->shortcutTable())
        commands << row.first;
    QVERIFY(commands.contains(QStringLiteral("Focus Prompt")));
    QVERIFY(commands.contains(QStringLiteral("Keyboard Shortcuts")));
    dialog->close();
}

void tst_WindowPapercuts::promptHasAShortcut()
{
    m_window->timelineView()->setFocus();
    QTRY_VERIFY(m_window->timelineView()->hasFocus());
    QTest::keyClick(m_window->timelineView(), Qt::Key_L, Qt::ControlModifier);
    QVERIFY(m_window->promptPanel()->editor()->hasFocus());
}

QTEST_MAIN(tst_WindowPapercuts)
#include "tst_windowpapercuts.moc"
