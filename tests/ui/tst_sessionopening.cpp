// Opening a session from the menu or the recent list (SessionManager::openInBackground, issue 10
// case 5): the checkpoint is parsed on a worker, the window says it is opening, no turn can
// start on a half-open session, a later open supersedes an earlier one, and a failed open puts
// the previous session back.
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "mainwindowfixture.h"
#include "openingsession.h"
#include "ui/frameselection.h"
#include "ui/infopanel.h"
#include "ui/mainwindow.h"
#include "ui/sessionmanager.h"
#include "ui/timelinemodel.h"
#include "ui/timelinemodelrows.h"
#include "ui/timelineview.h"
#include "uitesthelpers.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

class tst_SessionOpening : public test::MainWindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void theParseRunsOnAWorkerAndNoTurnStartsMeanwhile();
    void theSynchronousOpenParsesHere();
    void aLaterOpenSupersedesOneStillParsing();
    void aFailedOpenPutsThePreviousSessionBack();
    void frameDetailsFollowTheHandOverAndEndAsAfterTheSynchronousOpen();
    void aSelectionDuringTheHandOverIsKept();
};

void tst_SessionOpening::theParseRunsOnAWorkerAndNoTurnStartsMeanwhile()
{
    const QString big = m_dir->path() + QStringLiteral("/big");
    test::makeOpeningSession(big, 3000, {}, true);
    SessionManager *sessions = m_window->sessions();
    SessionController *session = sessions->session();
    QSignalSpy opening(sessions, &SessionManager::openingChanged);
    QSignalSpy switched(sessions, &SessionManager::switched);
    bool done = false;
    QString error;
    const qint64 rowsOnGui = TimelineRowStats::framesOnGuiThread;
    const qint64 rowsOffGui = TimelineRowStats::framesOffGuiThread;
    sessions->openInBackground(big, [&](const Result<void> &r) {
        done = true;
        error = r ? QString() : r.error().message;
    });
    // Until the parse is handed over nothing is open, and the window says so.
    QVERIFY(sessions->isOpening());
    QCOMPARE(QFileInfo(sessions->openingDir()), QFileInfo(big));
    QCOMPARE(opening.count(), 1);
    QCOMPARE(opening.at(0).at(0).toBool(), true);
    QVERIFY(!session->isOpen());
    const Result<QString> turn = session->generate(TurnParams {QStringLiteral("too early"), {}, {}, false});
    QVERIFY(!turn);
    QVERIFY(session->isIdle());
    QCOMPARE(m_window->findChild<TimelineModel *>()->rowCount(), 0); // the old session's rows are gone

    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(!sessions->isOpening());
    QCOMPARE(opening.last().at(0).toBool(), false);
    QVERIFY(session->isOpen());
    QVERIFY(session->store()->openedFromPreload()); // the checkpoint was parsed on the worker
    QCOMPARE(session->graph().size(), 3000);
    QCOMPARE(session->graph().value(QStringLiteral("00000001")).title, QStringLiteral("in the tail"));
    QCOMPARE(m_window->findChild<TimelineModel *>()->rowCount(), 3000);
    // The timeline's rows were built on a worker; the GUI thread only swapped them in.
    QCOMPARE(TimelineRowStats::framesOnGuiThread.load(), rowsOnGui);
    QCOMPARE(TimelineRowStats::framesOffGuiThread.load(), rowsOffGui + 3000);
    QVERIFY(!switched.isEmpty());
    QCOMPARE(QFileInfo(sessions->dir()), QFileInfo(big));
    // Once open, turns start again.
    QVERIFY(session->generate(TurnParams {QStringLiteral("now"), {}, {}, false}));
    QVERIFY(session->waitForIdle(30000));

    // Opening another session closes this one: its 3,000 frames are freed on a worker, which
    // held their table's last reference.
    const qint64 released = SessionManager::framesReleasedOnWorker();
    bool reopened = false;
    sessions->openInBackground(
        m_dir->path() + QStringLiteral("/small"), [&](const Result<void> &) { reopened = true; });
    QTRY_VERIFY_WITH_TIMEOUT(reopened, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(SessionManager::framesReleasedOnWorker(), released + 3001, 10000);
}

void tst_SessionOpening::theSynchronousOpenParsesHere()
{
    // The control for the test above: open() (tests, the bundle opener) reads on this thread.
    const QString big = m_dir->path() + QStringLiteral("/big");
    test::makeOpeningSession(big, 200, {}, true);
    QVERIFY(m_window->sessions()->open(big));
    QVERIFY(!m_window->sessions()->session()->store()->openedFromPreload());
    QCOMPARE(m_window->sessions()->session()->graph().size(), 200);
}

void tst_SessionOpening::aLaterOpenSupersedesOneStillParsing()
{
    const QString a = m_dir->path() + QStringLiteral("/a");
    const QString b = m_dir->path() + QStringLiteral("/b");
    test::makeOpeningSession(a, 2000, {}, true);
    test::makeOpeningSession(b, 50, {}, true);
    SessionManager *sessions = m_window->sessions();
    int doneA = 0, doneB = 0;
    sessions->openInBackground(a, [&](const Result<void> &) { ++doneA; });
    sessions->openInBackground(b, [&](const Result<void> &r) { doneB += r ? 1 : 100; });
    QTRY_COMPARE_WITH_TIMEOUT(doneB, 1, 30000);
    QTest::qWait(200); // a's parse finishes too: it must not replace b
    QCOMPARE(doneA, 0);
    QCOMPARE(QFileInfo(sessions->dir()), QFileInfo(b));
    QCOMPARE(sessions->session()->graph().size(), 50);
    QVERIFY(!sessions->isOpening());
}

void tst_SessionOpening::aFailedOpenPutsThePreviousSessionBack()
{
    const QString first = m_window->sessions()->dir();
    const QString broken = m_dir->path() + QStringLiteral("/broken");
    test::makeOpeningSession(broken, 20, {}, true);
    {
        QFile manifest(broken + QStringLiteral("/manifest.json"));
        QVERIFY(manifest.open(QIODevice::WriteOnly | QIODevice::Truncate));
        manifest.write("{ not json");
    }
    SessionManager *sessions = m_window->sessions();
    bool done = false;
    QString error;
    sessions->openInBackground(broken, [&](const Result<void> &r) {
        done = true;
        error = r ? QString() : r.error().message;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QVERIFY(error.contains(QStringLiteral("manifest.json")));
    QTRY_VERIFY_WITH_TIMEOUT(sessions->session()->isOpen() && !sessions->isOpening(), 30000);
    QCOMPARE(QFileInfo(sessions->dir()), QFileInfo(first));
}

namespace {
/** What Frame Details, the timeline's "next frame" slot and the selection show. */
QStringList windowShows(MainWindow *window)
{
    QStringList shown {window->findChild<FrameSelection *>()->currentId()};
    const InfoPanel *info = window->findChild<InfoPanel *>();
    for (const char *row : {"infoPrompt", "infoKind", "infoStatus", "infoParent", "infoCost", "infoModel"})
        shown << QStringLiteral("%1=%2").arg(QLatin1String(row), info->rowText(QLatin1String(row)));
    shown << QString::number(int(window->findChild<TimelineView *>()->attachHint()));
    return shown;
}
} // namespace

void tst_SessionOpening::frameDetailsFollowTheHandOverAndEndAsAfterTheSynchronousOpen()
{
    // The hand-over selects the frame at once and announces it (Frame Details, the plan) in a
    // later pass, after the window painted: the window must end as the synchronous open leaves it.
    const QString first = m_window->sessions()->dir();
    const QString big = m_dir->path() + QStringLiteral("/big");
    test::makeOpeningSession(big, 500, {}, true);
    SessionManager *sessions = m_window->sessions();
    FrameSelection *selection = m_window->findChild<FrameSelection *>();
    QVERIFY(sessions->open(big));
    QVERIFY(!selection->isAnnouncementPending()); // the synchronous open announces at once
    const QStringList expected = windowShows(m_window);
    QVERIFY(!expected.first().isEmpty());
    QVERIFY2(expected.at(2).contains(QStringLiteral("#")), qPrintable(expected.join(QLatin1Char('\n'))));
    QVERIFY(sessions->open(first));
    QVERIFY(windowShows(m_window) != expected);

    QSignalSpy announced(selection, &FrameSelection::currentChanged);
    bool done = false;
    bool pendingWhenDone = false;
    QString selectedWhenDone;
    int before = -1;
    sessions->openInBackground(big, [&](const Result<void> &r) {
        QVERIFY(r);
        done = true;
        pendingWhenDone = selection->isAnnouncementPending();
        selectedWhenDone = selection->currentId();
        before = int(announced.count());
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QCOMPARE(selectedWhenDone, expected.first()); // selected in the hand-over...
    QVERIFY(pendingWhenDone);                     // ...announced later
    QTRY_VERIFY_WITH_TIMEOUT(!selection->isAnnouncementPending(), 5000);
    QCOMPARE(announced.count(), before + 1);
    // Frame Details come with the announcement; the turn plan (the "next frame" slot) a frame
    // after it, so that the window paints in between.
    QTRY_COMPARE_WITH_TIMEOUT(windowShows(m_window), expected, 5000);
    // The cost row (set after the others) has the height its wrapped text needs.
    const auto *cost = m_window->findChild<InfoPanel *>()->findChild<QLabel *>(QStringLiteral("infoCost"));
    QVERIFY(cost && !cost->text().isEmpty());
    QCOMPARE(cost->minimumHeight(), cost->heightForWidth(qMax(1, cost->width())));
}

void tst_SessionOpening::aSelectionDuringTheHandOverIsKept()
{
    // A frame chosen before the deferred announcement comes (a click, a turn) announces itself;
    // the hand-over's announcement is then dropped and must not bring its frame back.
    const QString big = m_dir->path() + QStringLiteral("/big");
    test::makeOpeningSession(big, 100, {}, true);
    SessionManager *sessions = m_window->sessions();
    FrameSelection *selection = m_window->findChild<FrameSelection *>();
    QSignalSpy announced(selection, &FrameSelection::currentChanged);
    const QString other = QStringLiteral("%1").arg(3, 8, 16, QLatin1Char('0'));
    bool done = false;
    bool pendingBefore = false;
    bool pendingAfter = true;
    QString handedOver;
    int before = -1;
    sessions->openInBackground(big, [&](const Result<void> &) {
        // Right after the hand-over, before its announcement: the user picks another frame.
        done = true;
        pendingBefore = selection->isAnnouncementPending();
        handedOver = selection->currentId();
        before = int(announced.count());
        selection->select(other);
        pendingAfter = selection->isAnnouncementPending();
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QVERIFY(pendingBefore);
    QVERIFY(!pendingAfter);
    QVERIFY(!handedOver.isEmpty());
    QVERIFY(other != handedOver);
    QTest::qWait(50);
    QCOMPARE(announced.count(), before + 1);
    QCOMPARE(selection->currentId(), other);
    QVERIFY(m_window->findChild<InfoPanel *>()->rowText(QStringLiteral("infoKind")).startsWith(QStringLiteral("#4 ")));
}

QTEST_MAIN(tst_SessionOpening)
#include "tst_sessionopening.moc"
