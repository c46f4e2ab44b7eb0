// The replay record (<session>/replay/<id>.json) is written off the GUI thread: save() returns
// before the disk is touched, the newest state wins and none is written after a newer one, a
// destroyed runner, a finished run and a closing session leave the latest record on disk, a
// write that fails still reaches errorOccurred, a chain's first step waits for the record that
// names its start, and a resume after the record lagged behind the frames sends nothing twice.

#include "core/fakeapi/fakeserver.h"
#include "core/session/replayplan.h"
#include "core/session/replayqueue.h"
#include "core/session/replayrecordwriter.h"
#include "core/session/replayrunner.h"
#include "core/session/sessioncontroller.h"
#include "replaytestsession.h"
#include "sessiontestutil.h"
#include "stallmeter.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <condition_variable>
#include <memory>
#include <mutex>

using namespace nb2;

namespace {

const QString kLite = QStringLiteral("gemini-3.1-flash-lite-image");

/**
 * A disk as slow as the test wants: every record write waits until the gate is open (3 s at
 * most) and sleeps delayMs, then really writes. Counts the writes and keeps each written state's
 * stopReason, so the order is visible. Must outlive the writer that uses it.
 */
class SlowDisk
{
public:
    explicit SlowDisk(bool open, int delayMs = 0) : m_open(open), m_delayMs(delayMs) {}

    ReplayRecordWriter::SaveFunction function()
    {
        return [this](const QString &dir, const ReplayState &state) {
            {
                std::unique_lock lock(m_mutex);
                ++m_entered;
                m_changed.notify_all();
                // Never forever: a writer that waited on the caller's thread fails its test, not hangs it.
                m_changed.wait_for(lock, std::chrono::seconds(3), [this] { return m_open; });
            }
            if (m_delayMs > 0)
                QThread::msleep(m_delayMs);
            const Result<void> saved = saveReplayState(dir, state);
            std::lock_guard lock(m_mutex);
            m_written.append(state.stopReason);
            return saved;
        };
    }
    void open()
    {
        std::lock_guard lock(m_mutex);
        m_open = true;
        m_changed.notify_all();
    }
    /** Waits until n writes have begun (the writer thread is inside the n-th one). */
    bool waitEntered(int n)
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, std::chrono::seconds(10), [this, n] { return m_entered >= n; });
    }
    int entered()
    {
        std::lock_guard lock(m_mutex);
        return m_entered;
    }
    QStringList written()
    {
        std::lock_guard lock(m_mutex);
        return m_written;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_open;
    int m_delayMs;
    int m_entered = 0;
    QStringList m_written;
};

ReplayState sampleState(const QString &stopReason = {})
{
    ReplayPlan plan;
    plan.fromId = QStringLiteral("aaaaaaaa");
    plan.toId = QStringLiteral("aaaaaaaa");
    plan.steps = {ReplayStep {QStringLiteral("aaaaaaaa"), QStringLiteral("night"), {}, {}}};
    ReplayTarget t;
    t.frameId = QStringLiteral("bbbbbbbb");
    plan.targets = {t};
    ReplayState s = ReplayState::create(plan, kLite, {});
    s.stopReason = stopReason;
    return s;
}

QString recordPath(const QString &sessionDir, const QString &id)
{
    return QDir(replayFolder(sessionDir)).filePath(id + QStringLiteral(".json"));
}

} // namespace

class tst_ReplayRecord : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeServer> m_fake;
    std::unique_ptr<QTemporaryDir> m_tmp;

    QString sessionDir() const { return m_tmp->filePath(QStringLiteral("session")); }
    void openSession(SessionController &c) { test::openReplaySession(c, *m_fake, sessionDir(), kLite); }

    int createsWith(const QString &prompt) const { return test::createsWith(*m_fake, prompt); }
    int creates() const
    {
        int n = 0;
        for (const FakeRequest &r : m_fake->requests())
            n += r.method == QLatin1String("POST") && r.path.endsWith(QLatin1String("/interactions")) ? 1 : 0;
        return n;
    }

    /** root -> night -> lantern -> snow, replayed onto the root: three steps. */
    static ReplayState frameReplay(const SessionController &c, const QStringList &chain)
    {
        return ReplayState::create(planReplayOnto(c.graph(), chain[1], chain[3], chain[0]).value(), kLite, {});
    }

private Q_SLOTS:
    void init() { test::startReplayFixture(m_fake, m_tmp, kLite); }

    void cleanup()
    {
        m_fake.reset();
        m_tmp.reset();
    }

    /** save() hands the state over and returns; the disk is written later, on the writer's thread. */
    void saveReturnsBeforeTheWrite()
    {
        SlowDisk disk(false);
        ReplayRecordWriter writer;
        writer.setSaveFunction(disk.function());
        QSignalSpy settled(&writer, &ReplayRecordWriter::settledUpTo);
        const ReplayState state = sampleState(QStringLiteral("first"));
        QElapsedTimer clock;
        clock.start();
        const quint64 number = writer.save(sessionDir(), state);
        QVERIFY2(clock.elapsed() < 100, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(disk.waitEntered(1)); // on another thread, and stuck there: the caller was not
        QVERIFY(!QFile::exists(recordPath(sessionDir(), state.id)));
        QCOMPARE(writer.settled(), quint64(0));
        disk.open();
        QTRY_COMPARE_WITH_TIMEOUT(writer.settled(), number, 10000); // reported back on this thread's loop
        QCOMPARE(settled.count(), 1);
        QCOMPARE(loadReplayState(sessionDir(), state.id).value().stopReason, QStringLiteral("first"));
    }

    /** A burst of saves while one is written: the newest is written next, nothing older after it. */
    void newestStateWinsInOrder()
    {
        SlowDisk disk(false);
        ReplayRecordWriter writer;
        writer.setSaveFunction(disk.function());
        QSignalSpy settled(&writer, &ReplayRecordWriter::settledUpTo);
        ReplayState state = sampleState(QStringLiteral("0"));
        writer.save(sessionDir(), state);
        QVERIFY(disk.waitEntered(1)); // "0" is being written
        quint64 last = 0;
        for (int i = 1; i <= 50; ++i) {
            state.stopReason = QString::number(i);
            last = writer.save(sessionDir(), state);
        }
        disk.open();
        writer.flush();
        QCOMPARE(disk.written(), (QStringList {QStringLiteral("0"), QStringLiteral("50")}));
        QCOMPARE(loadReplayState(sessionDir(), state.id).value().stopReason, QStringLiteral("50"));
        QCOMPARE(writer.settled(), last);
        QVERIFY(!settled.isEmpty());
        QCOMPARE(settled.last().at(0).value<quint64>(), last);
        // A state for another folder is not swallowed by the newer one of this folder.
        const QString other = m_tmp->filePath(QStringLiteral("other"));
        QVERIFY(QDir().mkpath(other));
        state.stopReason = QStringLiteral("other");
        writer.save(other, state);
        state.stopReason = QStringLiteral("51");
        writer.save(sessionDir(), state);
        writer.flush();
        QCOMPARE(loadReplayState(other, state.id).value().stopReason, QStringLiteral("other"));
        QCOMPARE(loadReplayState(sessionDir(), state.id).value().stopReason, QStringLiteral("51"));
    }

    /** Destroying the writer waits for what was saved: nothing is lost at a normal exit. */
    void destructionFlushes()
    {
        SlowDisk disk(true, 300);
        const ReplayState state = sampleState(QStringLiteral("last words"));
        {
            ReplayRecordWriter writer;
            writer.setSaveFunction(disk.function());
            writer.save(sessionDir(), sampleState(QStringLiteral("older")));
            writer.save(sessionDir(), state);
            QVERIFY(!QFile::exists(recordPath(sessionDir(), state.id)));
        }
        QCOMPARE(loadReplayState(sessionDir(), state.id).value().stopReason, QStringLiteral("last words"));
    }

    /** The replay folder is a symbolic link: the write is refused, and the session's errorOccurred says so. */
    void writeErrorReachesErrorOccurred()
    {
        SessionController c;
        openSession(c);
        const QStringList chain = test::makeFoxChain(c, 3);
        const QString elsewhere = m_tmp->filePath(QStringLiteral("elsewhere"));
        QVERIFY(QDir().mkpath(elsewhere));
        QVERIFY(QFile::link(elsewhere, replayFolder(sessionDir())));
        QSignalSpy errors(&c, &SessionController::errorOccurred);
        ReplayRunner runner(&c, frameReplay(c, chain));
        QSignalSpy done(&runner, &ReplayRunner::finished);
        QVERIFY(runner.start());
        QVERIFY(done.count() > 0 || done.wait(30000)); // a record that cannot be written stops nothing, as before
        QVERIFY(!errors.isEmpty());
        QVERIFY2(errors.first().at(0).toString().contains(QStringLiteral("symbolic link")),
            qPrintable(errors.first().at(0).toString()));
        QVERIFY(QDir(elsewhere).isEmpty()); // never written through the link
        QCOMPARE(runner.state().doneSteps(), 3);
    }

    /**
     * Every record write takes 400 ms (a slow disk): start() returns at once, and the record on
     * disk when finished() comes is the finished state (finishing waits for the last write).
     */
    void slowDiskStartReturnsFinishWaits()
    {
        SessionController c;
        openSession(c);
        const QStringList chain = test::makeFoxChain(c, 3);
        SlowDisk disk(true, 400);
        ReplayRunner runner(&c, frameReplay(c, chain));
        runner.recordWriter()->setSaveFunction(disk.function());
        QSignalSpy done(&runner, &ReplayRunner::finished);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(runner.start());
        const qint64 startMs = clock.elapsed();
        QVERIFY2(startMs < 200, qPrintable(QString::number(startMs)));
        QVERIFY(done.wait(60000));
        qInfo("3 steps with 400 ms record writes: start() %lld ms, run %lld ms, %d writes", startMs, clock.elapsed(),
            disk.entered());
        QCOMPARE(runner.state().status, ReplayStatus::Finished);
        const ReplayState onDisk = loadReplayState(sessionDir(), runner.state().id).value();
        QCOMPARE(onDisk.status, ReplayStatus::Finished);
        QCOMPARE(onDisk.doneSteps(), 3);
        QCOMPARE(onDisk.toJson(), runner.state().toJson());
        QCOMPARE(createsWith(QStringLiteral("make it night")), 2); // the original and the replay, once
    }

    /** The same, measured before the finish: the loop's longest gap while steps change stays far below a write. */
    void stepChangesDoNotWaitForTheDisk()
    {
        SessionController c;
        openSession(c);
        const QStringList chain = test::makeFoxChain(c, 3);
        SlowDisk disk(true, 400);
        m_fake->setLatencyMs(100);
        ReplayRunner runner(&c, frameReplay(c, chain));
        runner.recordWriter()->setSaveFunction(disk.function());
        QSignalSpy done(&runner, &ReplayRunner::finished); // before start(): the run may end inside the wait below
        QVERIFY(runner.start());
        test::StallMeter meter;
        QTRY_VERIFY_WITH_TIMEOUT(runner.state().doneSteps() >= 2, 30000); // several step changes, each saved
        const qint64 longest = meter.longestMs();
        QVERIFY2(longest < 200, qPrintable(QStringLiteral("longest stall %1 ms").arg(longest)));
        QVERIFY(done.count() > 0 || done.wait(30000));
    }

    /**
     * A chain's first step is sent only once the record naming its start frame is on disk
     * (a kill before it can then cost at most a second import, never a second turn).
     */
    void firstStepWaitsForTheRecordOfItsStart()
    {
        SessionController c;
        openSession(c);
        const QStringList chain = test::makeFoxChain(c, 3);
        const QString photo
            = test::writeFile(m_tmp->filePath(QStringLiteral("a.png")), test::pngBytes(Qt::green, 64, 48));
        SlowDisk disk(false);
        ReplayRunner runner(
            &c, ReplayState::create(planReplayOnPhotos(c.graph(), chain[1], chain[3], {photo}).value(), kLite, {}));
        runner.recordWriter()->setSaveFunction(disk.function());
        QVERIFY(runner.start());
        QTRY_VERIFY_WITH_TIMEOUT(!runner.state().chains[0].startFrameId.isEmpty(), 30000); // imported
        QTest::qWait(300);
        QCOMPARE(createsWith(QStringLiteral("make it night")), 1); // only the original's: nothing sent yet
        QCOMPARE(runner.state().chains[0].steps[0].state, ReplayStepState::Waiting);
        disk.open();
        QSignalSpy done(&runner, &ReplayRunner::finished);
        QVERIFY(done.wait(30000));
        QCOMPARE(runner.state().status, ReplayStatus::Finished);
        QCOMPARE(createsWith(QStringLiteral("make it night")), 2);

        // A frame target: a new run sends nothing before its record exists.
        SlowDisk closed(false);
        ReplayRunner onFrame(&c, frameReplay(c, chain));
        onFrame.recordWriter()->setSaveFunction(closed.function());
        QVERIFY(onFrame.start());
        QTest::qWait(300);
        QCOMPARE(createsWith(QStringLiteral("make it night")), 2);
        QVERIFY(!QFile::exists(recordPath(sessionDir(), onFrame.state().id)));
        closed.open();
        QSignalSpy frameDone(&onFrame, &ReplayRunner::finished);
        QVERIFY(frameDone.wait(30000));
        QCOMPARE(createsWith(QStringLiteral("make it night")), 3);
    }

    /** Closing the session (another one opens) waits for the record: the folder's last record is the latest state. */
    void closingTheSessionWritesTheRecord()
    {
        SessionController c;
        openSession(c);
        const QStringList chain = test::makeFoxChain(c, 3);
        SlowDisk disk(true, 300);
        m_fake->setLatencyMs(300);
        ReplayRunner runner(&c, frameReplay(c, chain));
        runner.recordWriter()->setSaveFunction(disk.function());
        QVERIFY(runner.start());
        runner.pause();
        c.close();
        QCOMPARE(loadReplayState(sessionDir(), runner.state().id).value().status, ReplayStatus::Paused);
    }

    /**
     * A kill -9 while the record lagged behind the frames: the record on disk is the one
     * start() wrote (no frame named), yet all three steps were made. The resumed run sends
     * nothing and finds every frame by its replay_run tag, step by step from the start.
     */
    void resumeAfterTheRecordLaggedSendsNothingTwice()
    {
        QStringList made;
        QString replayId;
        ReplayState atStart;
        {
            SessionController c;
            openSession(c);
            const QStringList chain = test::makeFoxChain(c, 3);
            ReplayRunner runner(&c, frameReplay(c, chain));
            replayId = runner.state().id;
            atStart = runner.state(); // what start() writes first: running, no frame named
            QSignalSpy done(&runner, &ReplayRunner::finished);
            QVERIFY(runner.start());
            QVERIFY(done.count() > 0 || done.wait(30000));
            for (const ReplayStepRun &r : runner.state().chains[0].steps)
                made << r.frameId;
            QVERIFY(c.waitForIdle(10000));
        }
        QVERIFY(atStart.chains[0].steps[0].frameId.isEmpty());
        QVERIFY(saveReplayState(sessionDir(), atStart)); // the later writes never reached the disk
        const int createsBefore = creates();
        SessionController c;
        openSession(c);
        ReplayRunner resumed(&c, loadReplayState(sessionDir(), replayId).value());
        QSignalSpy done(&resumed, &ReplayRunner::finished);
        QVERIFY(resumed.start());
        QVERIFY(done.count() > 0 || done.wait(30000));
        QCOMPARE(creates(), createsBefore);
        QCOMPARE(resumed.state().status, ReplayStatus::Finished);
        QStringList found;
        for (const ReplayStepRun &r : resumed.state().chains[0].steps)
            found << r.frameId;
        QCOMPARE(found, made);
        QCOMPARE(loadReplayState(sessionDir(), replayId).value().doneSteps(), 3);
    }

    /**
     * The record names an import and its first step's frame, the kill took both from the
     * session (the manifest's write had not landed; the turn was never sent): the photo is
     * imported once more and the step sent, instead of the chain failing on a missing frame.
     */
    void lostImportAndItsStepAreMadeAgain()
    {
        SessionController c;
        openSession(c);
        const QStringList chain = test::makeFoxChain(c, 3);
        const QString photo
            = test::writeFile(m_tmp->filePath(QStringLiteral("a.png")), test::pngBytes(Qt::green, 64, 48));
        ReplayState state
            = ReplayState::create(planReplayOnPhotos(c.graph(), chain[1], chain[3], {photo}).value(), kLite, {});
        state.chains[0].startFrameId = QStringLiteral("0badf00d");
        state.chains[0].steps[0] = ReplayStepRun {QStringLiteral("0badbeef"), ReplayStepState::Sent, {}};
        ReplayRunner runner(&c, state);
        QSignalSpy done(&runner, &ReplayRunner::finished);
        QVERIFY(runner.start());
        QVERIFY(done.count() > 0 || done.wait(30000));
        QCOMPARE(runner.state().status, ReplayStatus::Finished);
        QCOMPARE(runner.state().doneSteps(), 3);
        QCOMPARE(c.graph().value(runner.state().chains[0].startFrameId).kind, FrameKind::Import);
        QCOMPARE(createsWith(QStringLiteral("make it night")), 2);
    }
};

QTEST_GUILESS_MAIN(tst_ReplayRecord)
#include "tst_replayrecord.moc"
