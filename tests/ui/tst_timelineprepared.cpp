// The timeline's rows built on a worker for a background open's hand-over (issue 10, case 5):
// TimelineModel::prepareNextReload() and buildTimelineRows() must give exactly the rows the model
// builds on the GUI thread, for sessions with branches, trashed frames and pending turns, and
// catch up with what changed while the worker built.
#include "core/session/sessionstore.h"
#include "timelinefixture.h"
#include "ui/timelinemodelrows.h"

#include <QSignalSpy>

using namespace nb2;

class tst_TimelinePrepared : public TimelineFixture
{
    Q_OBJECT

private:
    /** Branches, a trashed frame in the middle (and its child), pending turns: written by a second store. */
    void makeMixedSession()
    {
        const QString root = import();
        QVERIFY(!root.isEmpty());
        const Frame base = m_session->graph().value(root);
        QVERIFY(m_session->store()->flush());
        SessionStore other;
        QVERIFY(other.open(m_session->store()->dir(), SessionStore::OpenMode::OpenExisting));
        QStringList ids {root};
        QList<Frame> frames;
        for (int i = 0; i < 60; ++i) {
            Frame f = base;
            f.id = Frame::newId();
            f.parentId = i % 7 == 3 ? ids.at((i * 13) % ids.size()) : ids.last(); // forks into old frames
            f.kind = FrameKind::Edit;
            if (i % 11 == 5)
                f.status = FrameStatus::Pending;
            if (i == 20 || i == 21)
                f.trashedAt = QDateTime::currentDateTimeUtc();
            frames << f;
            ids << f.id;
        }
        QVERIFY(other.commit(frames));
        other.close();
        QTRY_COMPARE_WITH_TIMEOUT(m_session->graph().size(), qsizetype(ids.size()), 20000);
    }
    /** Every shape role of model equals a model built on the GUI thread from the same controller. */
    void compareWithGuiBuilt(const TimelineModel &model)
    {
        TimelineModel expected(m_session.get());
        QCOMPARE(model.rowCount(), expected.rowCount());
        QCOMPARE(model.laneCount(), expected.laneCount());
        for (int row = 0; row < expected.rowCount(); ++row) {
            for (int role : {int(TimelineRole::FrameId), int(TimelineRole::ParentId), int(TimelineRole::ParentRow),
                     int(TimelineRole::Depth), int(TimelineRole::Lane), int(TimelineRole::ChildCount),
                     int(TimelineRole::Number), int(TimelineRole::IsHead), int(TimelineRole::State)}) {
                QCOMPARE(model.index(row).data(role), expected.index(row).data(role));
            }
            QCOMPARE(model.indexOf(expected.frameIdAt(row)).row(), row);
        }
        QCOMPARE(model.data({}, TimelineRole::LayoutTable), expected.data({}, TimelineRole::LayoutTable));
        QCOMPARE(model.data({}, TimelineRole::PendingRows), expected.data({}, TimelineRole::PendingRows));
    }

private Q_SLOTS:
    void rowsFromSourcesEqualRowsFromFrames()
    {
        makeMixedSession();
        const QList<Frame> &frames = m_session->graph().frames();
        const TimelineRows direct = buildTimelineRows(frames);
        const TimelineRows copied = buildTimelineRows(timelineRowSources(frames));
        QCOMPARE(direct.frameCount, frames.size());
        QCOMPARE(copied.frameCount, direct.frameCount);
        QCOMPARE(copied.laneCount, direct.laneCount);
        QCOMPARE(copied.rowOf, direct.rowOf);
        QCOMPARE(copied.rows.size(), direct.rows.size());
        QCOMPARE(direct.rows.size(), frames.size() - 2); // the two trashed frames have no row
        for (qsizetype i = 0; i < direct.rows.size(); ++i) {
            const TimelineRow &a = direct.rows.at(i);
            const TimelineRow &b = copied.rows.at(i);
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.parentId, a.parentId);
            QCOMPARE(b.parentRow, a.parentRow);
            QCOMPARE(b.depth, a.depth);
            QCOMPARE(b.lane, a.lane);
            QCOMPARE(b.childCount, a.childCount);
            QCOMPARE(b.number, a.number);
        }
    }

    void preparedReloadBuildsOnAWorkerTheSameRows()
    {
        makeMixedSession();
        const QString dir = m_session->store()->dir();
        m_session->close();
        m_tester.reset();
        m_model.reset(); // the fixture's model would build its rows here when the session opens
        TimelineModel prepared(m_session.get());
        QAbstractItemModelTester tester(&prepared, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy ready(&prepared, &TimelineModel::rowsPrepared);
        const qint64 onGui = TimelineRowStats::framesOnGuiThread;
        const qint64 offGui = TimelineRowStats::framesOffGuiThread;
        {
            // The worker's rows reach the model through the event loop, which does not run in
            // this block: what the GUI thread did here is all the open cost it.
            prepared.prepareNextReload();
            QVERIFY(m_session->open(dir));
            QVERIFY(prepared.isPreparing());
            QCOMPARE(prepared.rowCount(), 0);
            QCOMPARE(TimelineRowStats::framesOnGuiThread.load(), onGui); // no row was made here
        }
        QVERIFY(ready.wait(20000));
        QVERIFY(!prepared.isPreparing());
        QCOMPARE(TimelineRowStats::framesOnGuiThread.load(), onGui);
        QCOMPARE(TimelineRowStats::framesOffGuiThread.load(), offGui + m_session->graph().size());
        compareWithGuiBuilt(prepared);
        // Only that one reload: the next one (another open) builds here again.
        QTest::qWait(10);
        m_session->close();
        QVERIFY(m_session->open(dir));
        QVERIFY(!prepared.isPreparing());
        compareWithGuiBuilt(prepared);
    }

    void changesWhileTheWorkerBuildsAreCaughtUp()
    {
        makeMixedSession();
        const QString dir = m_session->store()->dir();
        m_session->close();
        m_tester.reset();
        m_model.reset(); // the fixture's model would build its rows here when the session opens
        TimelineModel prepared(m_session.get());
        QAbstractItemModelTester tester(&prepared, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy ready(&prepared, &TimelineModel::rowsPrepared);
        {
            // No event is processed in this block: the worker's rows cannot be in yet.
            prepared.prepareNextReload();
            QVERIFY(m_session->open(dir));
            QVERIFY(prepared.isPreparing());
            // A frame added and a branch trashed before the rows are in.
            QVERIFY(!import().isEmpty());
            QString head;
            for (const QString &h : m_session->graph().heads()) {
                if (!m_session->graph().value(h).isPending() && m_session->graph().value(h).parentId.size() > 0)
                    head = h;
            }
            QVERIFY(!head.isEmpty());
            QVERIFY(m_session->deleteBranch(head));
            QCOMPARE(prepared.rowCount(), 0); // still empty: the worker's rows come first
        }
        QVERIFY(ready.wait(20000));
        compareWithGuiBuilt(prepared);
    }

    void aSecondOpenSupersedesRowsStillBeingBuilt()
    {
        makeMixedSession();
        const QString dir = m_session->store()->dir();
        m_session->close();
        m_tester.reset();
        m_model.reset(); // the fixture's model would build its rows here when the session opens
        TimelineModel prepared(m_session.get());
        QSignalSpy ready(&prepared, &TimelineModel::rowsPrepared);
        {
            // No event is processed in this block: the worker's rows cannot be in yet.
            prepared.prepareNextReload();
            QVERIFY(m_session->open(dir));
            QVERIFY(prepared.isPreparing());
            m_session->close();
            QVERIFY(m_session->open(dir)); // built here: the rows in the pool are stale
            QVERIFY(!prepared.isPreparing());
            QCOMPARE(ready.count(), 1); // whoever waited for the prepared rows hears they are in
            compareWithGuiBuilt(prepared);
        }
        QTest::qWait(200); // the stale rows arrive and are dropped
        QCOMPARE(ready.count(), 1);
        compareWithGuiBuilt(prepared);
    }
};

QTEST_MAIN(tst_TimelinePrepared)
#include "tst_timelineprepared.moc"
