// SessionPresenter's hand-over after a background open (issue 10, case 5): the steps come in
// order, each in its own pass of the event loop (the timeline's rows, then Frame Details, then
// the turn plan, then the plan's cost estimate), none runs in the pass that swaps the rows in,
// and an open superseded while it parses leaves nothing behind. Also what the hand-over moved
// off the GUI thread: the recent list's settings write.
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "mainwindowfixture.h"
#include "openingsession.h"
#include "ui/frameselection.h"
#include "ui/infopanel.h"
#include "ui/mainwindow.h"
#include "ui/sessionmanager.h"
#include "ui/thumbnailprovider.h"
#include "ui/timelinemodel.h"
#include "ui/turndispatcher.h"
#include "ui/windowpreferences.h"
#include "uitesthelpers.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

class tst_SessionPresenter : public test::MainWindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void theHandOverStepsComeInOrderEachInItsOwnPass();
    void aSupersededOpenLeavesNothingBehind();
    void theRecentListIsWrittenOnAWorker();
    void frameDetailsRowsAreMadeWhileTheSessionParses();
    void thumbnailsAreNeverCachedThroughALinkedThumbsFolder();

private:
    QString sendTip() const;
};

QString tst_SessionPresenter::sendTip() const
{
    const auto *send = m_window->findChild<QPushButton *>(QStringLiteral("sendButton"));
    return send ? send->toolTip() : QString();
}

void tst_SessionPresenter::theHandOverStepsComeInOrderEachInItsOwnPass()
{
    const QString big = m_dir->path() + QStringLiteral("/big");
    test::makeOpeningSession(big, 1500, QStringLiteral("b"));
    SessionManager *sessions = m_window->sessions();
    FrameSelection *selection = m_window->findChild<FrameSelection *>();
    TurnDispatcher *turns = m_window->findChild<TurnDispatcher *>();
    TimelineModel *model = m_window->timelineModel();
    QVERIFY(selection && turns && model);

    // What happened, in order, with the time it happened.
    QElapsedTimer clock;
    clock.start();
    QStringList steps;
    QList<qint64> at;
    auto note = [&](const QString &step) {
        steps << step;
        at << clock.elapsed();
    };
    int plans = 0;
    int plansAtReset = -1;
    QString tipAtPlan;
    QMetaObject::Connection c1 = connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [&] {
        if (model->rowCount() == 0 && sessions->isHandOverPending())
            plansAtReset = plans; // the prepared rows are about to come in
    });
    // Connected after the window's own listeners: it runs after FrameSelection and the presenter.
    QMetaObject::Connection c2 = connect(model, &QAbstractItemModel::modelReset, this, [&] {
        if (plansAtReset >= 0 && model->rowCount() > 0) {
            note(QStringLiteral("rows"));
            QCOMPARE(plans, plansAtReset); // no plan in the pass that swaps 1,500 rows in
        }
    });
    QMetaObject::Connection c3
        = connect(sessions, &SessionManager::switched, this, [&] { note(QStringLiteral("switched")); });
    QMetaObject::Connection c4 = connect(selection, &FrameSelection::currentChanged, this, [&] {
        if (selection->currentId().isEmpty())
            return;
        // The presenter heard it first: Frame Details show the frame now.
        QVERIFY(m_window->findChild<InfoPanel *>()->rowText(QStringLiteral("infoKind")).startsWith(QLatin1Char('#')));
        note(QStringLiteral("details"));
    });
    QMetaObject::Connection c5 = connect(turns, &TurnDispatcher::planChanged, this, [&] {
        ++plans;
        if (!selection->currentId().isEmpty() && !steps.contains(QStringLiteral("plan"))) {
            tipAtPlan = sendTip(); // still the estimate for a new image (nothing was selected)
            note(QStringLiteral("plan"));
        }
    });

    bool done = false;
    sessions->openInBackground(big, [&](const Result<void> &r) {
        QVERIFY(r);
        done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(steps.contains(QStringLiteral("plan")), 5000);
    // The plan's cost estimate (an edit's, not a new image's) comes after the plan.
    QTRY_VERIFY_WITH_TIMEOUT(sendTip() != tipAtPlan, 5000);
    note(QStringLiteral("estimate"));
    for (const auto &c : {c1, c2, c3, c4, c5})
        disconnect(c);

    qInfo("%s", qPrintable(steps.join(QLatin1Char(' '))));
    QCOMPARE(steps,
        QStringList({QStringLiteral("rows"), QStringLiteral("switched"), QStringLiteral("details"),
            QStringLiteral("plan"), QStringLiteral("estimate")}));
    QVERIFY(tipAtPlan.contains(QStringLiteral("Estimated cost")));
    // The end state is what an immediate plan gives.
    const QString tip = sendTip();
    QVERIFY(tip.contains(QStringLiteral("Estimated cost")));
    turns->updatePlan();
    QCOMPARE(sendTip(), tip);
    // Each step a frame (16 ms timer) after the one before: never in the same pass.
    for (int i = 1; i < at.size(); ++i)
        QVERIFY2(at.at(i) - at.at(i - 1) >= FrameSelection::kNextFrameMs - 1,
            qPrintable(
                QStringLiteral("%1 -> %2: %3 ms").arg(steps.at(i - 1), steps.at(i)).arg(at.at(i) - at.at(i - 1))));
    // The end state is what a synchronous open shows: the last frame, its details and plan.
    QCOMPARE(selection->currentId(), QStringLiteral("b%1").arg(1499, 7, 16, QLatin1Char('0')));
    QVERIFY(
        m_window->findChild<InfoPanel *>()->rowText(QStringLiteral("infoKind")).startsWith(QStringLiteral("#1500 ")));
    QVERIFY(!sessions->isHandOverPending());
}

void tst_SessionPresenter::aSupersededOpenLeavesNothingBehind()
{
    // Opening b while a still parses: only b is handed over, its frame is shown and planned
    // once, and nothing deferred for a lands on b (nor is a's frame ever selected).
    const QString a = m_dir->path() + QStringLiteral("/a");
    const QString b = m_dir->path() + QStringLiteral("/b");
    test::makeOpeningSession(a, 1500, QStringLiteral("a"));
    test::makeOpeningSession(b, 30, QStringLiteral("b"));
    SessionManager *sessions = m_window->sessions();
    FrameSelection *selection = m_window->findChild<FrameSelection *>();
    TurnDispatcher *turns = m_window->findChild<TurnDispatcher *>();
    QStringList selected;
    QStringList planned;
    connect(selection, &FrameSelection::currentChanged, this, [&] {
        if (!selection->currentId().isEmpty())
            selected << selection->currentId();
    });
    connect(turns, &TurnDispatcher::planChanged, this, [&] {
        if (!selection->currentId().isEmpty())
            planned << selection->currentId();
    });
    QSignalSpy switched(sessions, &SessionManager::switched);
    int doneA = 0, doneB = 0;
    sessions->openInBackground(a, [&](const Result<void> &) { ++doneA; });
    sessions->openInBackground(b, [&](const Result<void> &r) { doneB += r ? 1 : 100; });
    QTRY_COMPARE_WITH_TIMEOUT(doneB, 1, 30000);
    QTest::qWait(300); // a's parse ends too, and everything deferred has run
    QCOMPARE(doneA, 0);
    QCOMPARE(switched.count(), 1);
    const QString last = QStringLiteral("b%1").arg(29, 7, 16, QLatin1Char('0'));
    QCOMPARE(selection->currentId(), last);
    QCOMPARE(selected, QStringList {last});
    // Planned for b's frame only (other listeners, such as the canvas selection being cleared
    // for the new image, may plan it again; nothing plans a's).
    QVERIFY(!planned.isEmpty());
    QCOMPARE(planned.filter(QStringLiteral("a")), QStringList());
    QCOMPARE(QSet<QString>(planned.cbegin(), planned.cend()), QSet<QString> {last});
    QVERIFY(m_window->findChild<InfoPanel *>()
                ->rowText(QStringLiteral("infoPrompt"))
                .startsWith(QStringLiteral("b prompt")));
    QVERIFY(sendTip().contains(QStringLiteral("Estimated cost")));
    QVERIFY(!sessions->isHandOverPending());
    QVERIFY(!sessions->isOpening());
}

void tst_SessionPresenter::theRecentListIsWrittenOnAWorker()
{
    const QString b = m_dir->path() + QStringLiteral("/recent");
    test::makeOpeningSession(b, 5, QStringLiteral("r"));
    SessionManager *sessions = m_window->sessions();
    sessions->waitForSettingsWritten();
    const qint64 before = SessionManager::settingsWritesOnWorker();
    QSignalSpy recent(sessions, &SessionManager::recentChanged);
    bool done = false;
    sessions->openInBackground(b, [&](const Result<void> &r) {
        QVERIFY(r);
        done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(recent.count(), 1, 5000); // once it is written
    QCOMPARE(SessionManager::settingsWritesOnWorker(), before + 1);
    QCOMPARE(WindowPreferences::lastSession(), QDir(b).absolutePath());
    QCOMPARE(WindowPreferences::recentSessions().value(0), QDir(b).absolutePath());
    // Opening the first one again moves it to the top; written in the order the opens came.
    const QString first = m_dir->path() + QStringLiteral("/s1"); // the fixture's session
    QVERIFY(sessions->open(first));
    QVERIFY(sessions->open(b));
    QVERIFY(sessions->open(first));
    sessions->waitForSettingsWritten();
    QCOMPARE(WindowPreferences::lastSession(), QDir(first).absolutePath());
    QCOMPARE(WindowPreferences::recentSessions().mid(0, 2),
        QStringList({QDir(first).absolutePath(), QDir(b).absolutePath()}));
    // Reopening the same session again writes nothing.
    const qint64 written = SessionManager::settingsWritesOnWorker();
    QVERIFY(sessions->open(b));
    QVERIFY(sessions->open(b)); // already open: nothing to do
    sessions->waitForSettingsWritten();
    QCOMPARE(SessionManager::settingsWritesOnWorker(), written + 1);
}

void tst_SessionPresenter::frameDetailsRowsAreMadeWhileTheSessionParses()
{
    // A fresh window has no Frame Details rows yet (the first paint has only the hint); an open
    // from the menu makes them while it parses, not in the pass that shows the frame.
    delete m_window;
    m_window = new MainWindow;
    m_window->setBackend(nb2test::fakeConfig(*m_server, QStringLiteral("ui-test-key")), true);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    InfoPanel *info = m_window->findChild<InfoPanel *>();
    QVERIFY(!info->isPrepared());
    const QString big = m_dir->path() + QStringLiteral("/big");
    test::makeOpeningSession(big, 1500, QStringLiteral("b"));
    bool preparedAtSwitch = false;
    connect(m_window->sessions(), &SessionManager::switched, this, [&] { preparedAtSwitch = info->isPrepared(); });
    bool done = false;
    m_window->sessions()->openInBackground(big, [&](const Result<void> &) { done = true; });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QVERIFY(preparedAtSwitch);
    QTRY_VERIFY_WITH_TIMEOUT(!info->rowText(QStringLiteral("infoKind")).isEmpty(), 5000);
}

void tst_SessionPresenter::thumbnailsAreNeverCachedThroughALinkedThumbsFolder()
{
    // The thumbnail cache is written to: a session whose thumbs folder is a link out (crafted)
    // gets thumbnails in memory only, and the folder it points to stays untouched.
    const QString own = m_dir->path() + QStringLiteral("/own");
    test::makeOpeningSession(own, 3, QStringLiteral("a"));
    QVERIFY(m_window->sessions()->open(own));
    auto *thumbs = m_window->findChild<ThumbnailProvider *>();
    QVERIFY(thumbs);
    QCOMPARE(thumbs->diskCacheDir(), m_window->session()->store()->thumbsDir());

    const QString linked = m_dir->path() + QStringLiteral("/linked");
    test::makeOpeningSession(linked, 3, QStringLiteral("b"));
    const QString elsewhere = m_dir->path() + QStringLiteral("/elsewhere");
    QVERIFY(QDir().mkpath(elsewhere));
    QVERIFY(QDir(linked + QStringLiteral("/thumbs")).removeRecursively());
    QVERIFY(QFile::link(elsewhere, linked + QStringLiteral("/thumbs")));
    QVERIFY(m_window->sessions()->open(linked));
    QVERIFY(thumbs->diskCacheDir().isEmpty());
    // A picture asked for now is made and kept in memory, and nothing is written elsewhere.
    const QString picture = m_dir->filePath(QStringLiteral("picture.png"));
    QImage image(32, 32, QImage::Format_RGB32);
    image.fill(Qt::darkCyan);
    QVERIFY(image.save(picture));
    QSignalSpy ready(thumbs, &ThumbnailProvider::thumbnailReady);
    QVERIFY(thumbs->thumbnail(picture, picture, 24).isNull());
    QVERIFY(ready.wait(5000));
    QVERIFY(!thumbs->thumbnail(picture, picture, 24).isNull());
    QVERIFY(QDir(elsewhere).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty());
}

QTEST_MAIN(tst_SessionPresenter)
#include "tst_sessionpresenter.moc"
