// "Replay Onto…" photos: the photo's check and copy into images/ run on a worker, the GUI thread
// only records the import frame. The event loop keeps turning while large photos are imported
// (measured: the longest stall), the chain comes out as before, pause / cancel / a runner
// destroyed mid-import behave, a bad photo fails only its chain, and a resume imports nothing twice.

#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/replayplan.h"
#include "core/session/replayqueue.h"
#include "core/session/replayrunner.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionsettings.h"
#include "core/session/sessionstore.h"
#include "fifophoto.h"
#include "replaytestsession.h"
#include "sessiontestutil.h"
#include "stallmeter.h"

#include <QBuffer>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>

#include <memory>

using namespace nb2;

namespace {

const QString kLite = QStringLiteral("gemini-3.1-flash-lite-image");

/**
 * A camera-sized JPEG (8000×6000, noisy enough to be ~8-14 MB, under the 20 MB inline limit
 * once base64-encoded): what makes a synchronous import stall the window.
 */
QByteArray largeJpeg()
{
    QImage img(8000, 6000, QImage::Format_RGB32);
    QRandomGenerator rng(42);
    for (int y = 0; y < img.height(); ++y) {
        auto *line = reinterpret_cast<QRgb *>(img.scanLine(y));
        for (int x = 0; x < img.width(); ++x) {
            const quint32 r = rng.generate();
            line[x] = qRgb((x / 32 + (r & 0x3f)) & 0xff, (y / 24 + ((r >> 8) & 0x3f)) & 0xff, (r >> 16) & 0x7f);
        }
    }
    for (int quality : {60, 40, 25, 15}) {
        QByteArray bytes;
        QBuffer buf(&bytes);
        buf.open(QIODevice::WriteOnly);
        img.save(&buf, "JPEG", quality);
        if (bytes.size() * 4 / 3 < 19 * 1000 * 1000)
            return bytes;
    }
    return {};
}

} // namespace

class tst_ReplayImport : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeServer> m_fake;
    std::unique_ptr<QTemporaryDir> m_tmp;

    void openSession(SessionController &c, const QString &dir) { test::openReplaySession(c, *m_fake, dir, kLite); }

    /** generate -> night -> lantern: returns {root, e1, e2}. */
    static QStringList makeChain(SessionController &c) { return test::makeFoxChain(c, 2); }

    /** FROM..TO onto these paths as photos (planReplayOnPhotos() refuses a FIFO: it is not a regular file). */
    static ReplayState photoReplay(
        const SessionController &c, const QString &from, const QString &to, const QStringList &paths)
    {
        ReplayPlan plan = planReplayOnto(c.graph(), from, to, to).value();
        plan.targets.clear();
        for (const QString &path : paths)
            plan.targets.append(ReplayTarget {ReplayTarget::Kind::Photo, {}, path});
        return ReplayState::create(plan, kLite, {});
    }

    static int importFrames(const SessionController &c)
    {
        int n = 0;
        for (const Frame &f : c.graph().frames())
            n += f.kind == FrameKind::Import ? 1 : 0;
        return n;
    }

    static int importFilesIn(const QString &sessionDir)
    {
        return int(QDir(QDir(sessionDir).filePath(QStringLiteral("images")))
                       .entryList({QStringLiteral("import_*")}, QDir::Files)
                       .size());
    }

    int createsWith(const QString &prompt) const { return test::createsWith(*m_fake, prompt); }

private Q_SLOTS:
    void init()
    {
        test::startReplayFixture(m_fake, m_tmp, kLite);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(QDir(m_tmp->path()).mkpath(QStringLiteral("shoot")));
    }

    void cleanup()
    {
        m_fake.reset();
        m_tmp.reset();
    }

    /** The photo is read on a worker: start() returns and the loop turns while the file cannot be read yet. */
    void importRunsOffTheGuiThread()
    {
        const QString dir = m_tmp->filePath(QStringLiteral("session"));
        SessionController c;
        openSession(c, dir);
        const QStringList chain = makeChain(c);
        test::FifoPhoto photo(m_tmp->filePath(QStringLiteral("shoot/slow.png")));
        QVERIFY(photo.isMade());
        ReplayRunner photoRunner(
            &c, photoReplay(c, chain[1], chain[2], {m_tmp->filePath(QStringLiteral("shoot/slow.png"))}));
        QSignalSpy changed(&photoRunner, &ReplayRunner::stepChanged);
        photo.feed(test::pngBytes(Qt::magenta, 64, 48), 1500); // imported on this thread, start() waits for it
        QElapsedTimer clock;
        clock.start();
        QVERIFY(photoRunner.start());
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
        ticker.start(10);
        QTest::qWait(300);
        QVERIFY2(ticks >= 10, qPrintable(QString::number(ticks))); // the loop turned while the photo was unreadable
        QVERIFY(photoRunner.isImporting(0));
        QCOMPARE(photoRunner.importsInFlight(), 1);
        QCOMPARE(photoRunner.state().chains[0].steps[0].state, ReplayStepState::Waiting); // not failed, not sent
        QVERIFY(photoRunner.state().chains[0].startFrameId.isEmpty());
        QCOMPARE(createsWith(QStringLiteral("make it night")), 1); // only the original chain's
        QVERIFY(changed.count() >= 1);                             // the panel hears "importing"
        QSignalSpy done(&photoRunner, &ReplayRunner::finished);
        QVERIFY(done.wait(30000));
        QCOMPARE(photoRunner.state().status, ReplayStatus::Finished);
        QVERIFY(!photoRunner.isImporting(0));
        const Frame root = c.graph().value(photoRunner.state().chains[0].startFrameId);
        QCOMPARE(root.kind, FrameKind::Import);
        QCOMPARE(root.title, QStringLiteral("slow.png"));
        QCOMPARE(createsWith(QStringLiteral("make it night")), 2);
        QVERIFY(c.waitForIdle(10000));
    }

    /** Same frames as the synchronous import made: roots titled by the file, chain order, parents, kinds. */
    void chainComesOutAsBefore()
    {
        const QString dir = m_tmp->filePath(QStringLiteral("session"));
        SessionController c;
        openSession(c, dir);
        const QStringList chain = makeChain(c);
        const QString a
            = test::writeFile(m_tmp->filePath(QStringLiteral("shoot/a.jpg")), test::jpegBytes(Qt::green, 64, 48));
        const QString b
            = test::writeFile(m_tmp->filePath(QStringLiteral("shoot/b.png")), test::pngBytes(Qt::yellow, 48, 48));
        ReplayRunner runner(
            &c, ReplayState::create(planReplayOnPhotos(c.graph(), chain[1], chain[2], {a, b}).value(), kLite, {}));
        QSignalSpy done(&runner, &ReplayRunner::finished);
        QVERIFY(runner.start());
        QVERIFY(done.wait(60000));
        QCOMPARE(runner.state().status, ReplayStatus::Finished);
        QCOMPARE(runner.state().doneSteps(), 4);
        const QStringList titles {QStringLiteral("a.jpg"), QStringLiteral("b.png")};
        for (int i = 0; i < 2; ++i) {
            const ReplayChain &rc = runner.state().chains[i];
            const Frame root = c.graph().value(rc.startFrameId);
            QCOMPARE(root.kind, FrameKind::Import);
            QCOMPARE(root.title, titles[i]);
            QVERIFY(root.parentId.isEmpty());
            QCOMPARE(root.image.sha256, SessionStore::sha256Hex(test::readFile(i == 0 ? a : b)));
            const Frame first = c.graph().value(rc.steps[0].frameId);
            QCOMPARE(first.parentId, root.id);
            QCOMPARE(first.kind, FrameKind::EditLocal);
            QCOMPARE(first.replayOf, chain[1]);
            const Frame second = c.graph().value(rc.steps[1].frameId);
            QCOMPARE(second.parentId, first.id);
            QCOMPARE(second.kind, FrameKind::Edit);
            QCOMPARE(second.replayOf, chain[2]);
        }
        QCOMPARE(importFrames(c), 2);
        QCOMPARE(importFilesIn(dir), 2);
        QVERIFY(c.waitForIdle(10000));
        c.close();
        QCOMPARE(test::checkInvariants(dir), QStringList());
    }

    /** Cancel while the photo is copied: nothing appears in the session, the copy is removed, finished comes after. */
    void cancelDuringImportRecordsNothing()
    {
        const QString dir = m_tmp->filePath(QStringLiteral("session"));
        SessionController c;
        openSession(c, dir);
        const QStringList chain = makeChain(c);
        test::FifoPhoto photo(m_tmp->filePath(QStringLiteral("shoot/slow.png")));
        QVERIFY(photo.isMade());
        ReplayRunner runner(
            &c, photoReplay(c, chain[1], chain[2], {m_tmp->filePath(QStringLiteral("shoot/slow.png"))}));
        QSignalSpy done(&runner, &ReplayRunner::finished);
        QVERIFY(runner.start());
        QVERIFY(runner.isImporting(0));
        runner.cancel();
        QCOMPARE(runner.state().status, ReplayStatus::Cancelled);
        QCOMPARE(runner.state().chains[0].steps[0].state, ReplayStepState::Cancelled);
        QCOMPARE(done.count(), 0); // not over while the worker still writes into images/
        photo.feed(test::pngBytes(Qt::magenta, 64, 48));
        QVERIFY(done.wait(30000));
        QVERIFY(!runner.isImporting(0));
        QCOMPARE(importFrames(c), 0);
        QCOMPARE(importFilesIn(dir), 0);
        QVERIFY(runner.state().chains[0].startFrameId.isEmpty());
        QCOMPARE(createsWith(QStringLiteral("make it night")), 1);
        QCOMPARE(loadReplayState(dir, runner.state().id).value().status, ReplayStatus::Cancelled);
    }

    /** Pause while the photo is copied: the import finishes and is recorded, its step waits for Resume. */
    void pauseDuringImportRecordsThenWaits()
    {
        const QString dir = m_tmp->filePath(QStringLiteral("session"));
        SessionController c;
        openSession(c, dir);
        const QStringList chain = makeChain(c);
        test::FifoPhoto photo(m_tmp->filePath(QStringLiteral("shoot/slow.png")));
        QVERIFY(photo.isMade());
        ReplayRunner runner(
            &c, photoReplay(c, chain[1], chain[2], {m_tmp->filePath(QStringLiteral("shoot/slow.png"))}));
        QVERIFY(runner.start());
        runner.pause();
        runner.resume(); // must not start a second import of the same photo
        runner.pause();
        QCOMPARE(runner.importsInFlight(), 1);
        photo.feed(test::pngBytes(Qt::magenta, 64, 48));
        QTRY_VERIFY_WITH_TIMEOUT(!runner.state().chains[0].startFrameId.isEmpty(), 30000);
        QTest::qWait(200);
        QCOMPARE(runner.state().chains[0].steps[0].state, ReplayStepState::Waiting);
        QCOMPARE(createsWith(QStringLiteral("make it night")), 1); // nothing sent while paused
        QCOMPARE(importFrames(c), 1);
        // Named in the record at once: a quit now and a resume later would not import it again.
        QCOMPARE(loadReplayState(dir, runner.state().id).value().chains[0].startFrameId,
            runner.state().chains[0].startFrameId);
        QSignalSpy done(&runner, &ReplayRunner::finished);
        runner.resume();
        QVERIFY(done.wait(30000));
        QCOMPARE(runner.state().status, ReplayStatus::Finished);
        QCOMPARE(importFrames(c), 1);
        QCOMPARE(importFilesIn(dir), 1);
        QCOMPARE(createsWith(QStringLiteral("make it night")), 2);
    }

    /** A photo that cannot be imported fails its own chain with the import's message; the other chains go on. */
    void badPhotoFailsOnlyItsChain()
    {
        const QString dir = m_tmp->filePath(QStringLiteral("session"));
        SessionController c;
        openSession(c, dir);
        const QStringList chain = makeChain(c);
        const QString a
            = test::writeFile(m_tmp->filePath(QStringLiteral("shoot/a.jpg")), test::jpegBytes(Qt::green, 64, 48));
        const QString bad
            = test::writeFile(m_tmp->filePath(QStringLiteral("shoot/b.jpg")), QByteArray("not a picture"));
        const QString d
            = test::writeFile(m_tmp->filePath(QStringLiteral("shoot/d.png")), test::pngBytes(Qt::cyan, 48, 48));
        const Result<QString> direct = c.importImage(bad, QStringLiteral("b.jpg"));
        QVERIFY(!direct);
        ReplayRunner runner(
            &c, ReplayState::create(planReplayOnPhotos(c.graph(), chain[1], chain[2], {a, bad, d}).value(), kLite, {}));
        QSignalSpy done(&runner, &ReplayRunner::finished);
        QVERIFY(runner.start());
        QVERIFY(done.wait(60000));
        const ReplayState &s = runner.state();
        QCOMPARE(s.chains[1].steps[0].state, ReplayStepState::Failed);
        QCOMPARE(s.chains[1].steps[0].error, direct.error().message); // the same words as the direct import
        QCOMPARE(s.chains[1].steps[1].state, ReplayStepState::Waiting);
        QVERIFY(s.chains[1].startFrameId.isEmpty());
        QCOMPARE(s.doneSteps(), 4);                // chains 0 and 2 in full
        QCOMPARE(s.status, ReplayStatus::Stopped); // resumable, as any failed step leaves it
        QCOMPARE(importFrames(c), 2);
        QCOMPARE(createsWith(QStringLiteral("add a lantern")), 3); // the original + two chains
    }

    /** At most concurrencyLimit chains import at once; the others wait their turn. */
    void importsShareTheConcurrencyLimit()
    {
        const QString dir = m_tmp->filePath(QStringLiteral("session"));
        SessionController c;
        openSession(c, dir);
        const QStringList chain = makeChain(c);
        SessionSettings s = c.settings();
        s.concurrencyLimit = 2;
        c.setSettings(s);
        QStringList paths;
        std::vector<std::unique_ptr<test::FifoPhoto>> photos;
        for (int i = 0; i < 3; ++i) {
            paths << m_tmp->filePath(QStringLiteral("shoot/p%1.png").arg(i));
            photos.push_back(std::make_unique<test::FifoPhoto>(paths.last()));
            QVERIFY(photos.back()->isMade());
        }
        m_fake->setLatencyMs(400);
        ReplayRunner runner(&c, photoReplay(c, chain[1], chain[2], paths));
        QSignalSpy done(&runner, &ReplayRunner::finished);
        QVERIFY(runner.start());
        QCOMPARE(runner.importsInFlight(), 2);
        QVERIFY(runner.isImporting(0) && runner.isImporting(1) && !runner.isImporting(2));
        photos[0]->feed(test::pngBytes(Qt::red, 64, 48));
        // Chain 0's photo is in: its first turn takes the slot (once the record naming the import
        // is on disk; the chain holds the slot meanwhile), chain 2 still waits.
        QTRY_VERIFY_WITH_TIMEOUT(!runner.state().chains[0].startFrameId.isEmpty(), 30000);
        QVERIFY(!runner.isImporting(2));
        QTRY_VERIFY_WITH_TIMEOUT(runner.state().chains[0].steps[0].state != ReplayStepState::Waiting, 10000);
        QVERIFY(!runner.isImporting(2));
        photos[1]->feed(test::pngBytes(Qt::green, 64, 48));
        photos[2]->feed(test::pngBytes(Qt::blue, 64, 48));
        QVERIFY(done.wait(60000));
        QCOMPARE(runner.state().status, ReplayStatus::Finished);
        QCOMPARE(importFrames(c), 3);
    }

    /**
     * The runner goes away mid-import (the session closes, the app quits): nothing is recorded,
     * the copy is removed; the resumed run imports the photo once, and a run resumed after the
     * import was recorded never imports it again.
     */
    void resumeImportsEachPhotoOnce()
    {
        const QString dir = m_tmp->filePath(QStringLiteral("session"));
        const QString slow = m_tmp->filePath(QStringLiteral("shoot/slow.png"));
        const QString a
            = test::writeFile(m_tmp->filePath(QStringLiteral("shoot/a.jpg")), test::jpegBytes(Qt::green, 64, 48));
        QString replayId;
        {
            SessionController c;
            openSession(c, dir);
            const QStringList chain = makeChain(c);
            test::FifoPhoto photo(slow);
            QVERIFY(photo.isMade());
            m_fake->setLatencyMs(400);
            auto runner = std::make_unique<ReplayRunner>(&c, photoReplay(c, chain[1], chain[2], {a, slow}));
            replayId = runner->state().id;
            QVERIFY(runner->start());
            // a's import is recorded and its first turn sent; slow.png is still being read.
            QTRY_VERIFY_WITH_TIMEOUT(runner->state().chains[0].steps[0].state == ReplayStepState::Sent, 30000);
            QVERIFY(runner->isImporting(1));
            runner.reset();
            photo.feed(test::pngBytes(Qt::magenta, 64, 48));
            photo.waitFed();
            QVERIFY(QThreadPool::globalInstance()->waitForDone(20000)); // the worker wrote its copy
            QTest::qWait(100);                                          // and its watcher ran
            QCOMPARE(importFilesIn(dir), 1);                            // slow.png's copy removed again: only a.jpg's
            QCOMPARE(importFrames(c), 1);
            QVERIFY(c.waitForIdle(30000));
        }
        const ReplayState cut = loadReplayState(dir, replayId).value();
        QVERIFY(!cut.chains[0].startFrameId.isEmpty());
        QVERIFY(cut.chains[1].startFrameId.isEmpty());
        QVERIFY(QFile::remove(slow));
        test::writeFile(slow, test::pngBytes(Qt::magenta, 64, 48));
        m_fake->setLatencyMs(0);
        SessionController c;
        openSession(c, dir);
        ReplayRunner resumed(&c, cut);
        QSignalSpy done(&resumed, &ReplayRunner::finished);
        QVERIFY(resumed.start());
        QVERIFY(!resumed.isImporting(0)); // recorded before: never imported again
        QVERIFY(done.wait(60000));
        QCOMPARE(resumed.state().status, ReplayStatus::Finished);
        QCOMPARE(resumed.state().chains[0].startFrameId, cut.chains[0].startFrameId);
        QCOMPARE(importFrames(c), 2);
        QCOMPARE(importFilesIn(dir), 2);
        QCOMPARE(createsWith(QStringLiteral("make it night")), 3); // original + one per chain
        QCOMPARE(createsWith(QStringLiteral("add a lantern")), 3);
    }

    /** The record names an import frame the session lost (a crash before its write was durable): imported once more, not failed. */
    void recordedImportLostIsImportedAgain()
    {
        const QString dir = m_tmp->filePath(QStringLiteral("session"));
        SessionController c;
        openSession(c, dir);
        const QStringList chain = makeChain(c);
        const QString a
            = test::writeFile(m_tmp->filePath(QStringLiteral("shoot/a.jpg")), test::jpegBytes(Qt::green, 64, 48));
        ReplayState state = photoReplay(c, chain[1], chain[2], {a});
        state.chains[0].startFrameId = QStringLiteral("0badf00d");
        QVERIFY(!c.graph().contains(state.chains[0].startFrameId));
        ReplayRunner runner(&c, state);
        QSignalSpy done(&runner, &ReplayRunner::finished);
        QVERIFY(runner.start());
        QVERIFY(done.wait(60000));
        QCOMPARE(runner.state().status, ReplayStatus::Finished);
        QCOMPARE(importFrames(c), 1);
        QCOMPARE(c.graph().value(runner.state().chains[0].startFrameId).kind, FrameKind::Import);
    }

    /**
     * The measurement: the longest GUI-thread stall while a replay onto 4 camera-sized photos
     * starts (concurrency 4: all four are imported at once). A synchronous import stalls for
     * all four reads, copies and fsyncs; off the GUI thread the loop keeps turning.
     */
    void largePhotosKeepTheLoopTurning()
    {
        const QString dir = m_tmp->filePath(QStringLiteral("session"));
        SessionController c;
        openSession(c, dir);
        const QStringList chain = makeChain(c);
        SessionSettings s = c.settings();
        s.concurrencyLimit = 4;
        c.setSettings(s);
        const QByteArray big = largeJpeg();
        QVERIFY(!big.isEmpty());
        QStringList photos;
        for (int i = 0; i < 4; ++i) {
            QByteArray bytes = big;
            bytes.insert(2, QByteArray("\xff\xfe\x00\x04", 4) + char('a' + i) + char('0')); // a COM segment: 4 files
            photos << test::writeFile(m_tmp->filePath(QStringLiteral("shoot/IMG_%1.jpg").arg(i)), bytes);
        }
        // The same run's yardstick: what the runner did before, SessionController::importImage()
        // of each photo on this thread, one after another.
        qint64 syncLongest = 0;
        {
            test::StallMeter syncMeter;
            QTest::qWait(50);
            for (const QString &photo : std::as_const(photos))
                QVERIFY(c.importImage(photo, QFileInfo(photo).fileName()));
            QTest::qWait(20);
            syncLongest = syncMeter.longestMs();
        }
        m_fake->setLatencyMs(300); // the turns are not the point: the start is
        ReplayRunner runner(
            &c, ReplayState::create(planReplayOnPhotos(c.graph(), chain[1], chain[2], photos).value(), kLite, {}));
        const auto allImported = [&runner] {
            for (const ReplayChain &rc : runner.state().chains) {
                if (rc.startFrameId.isEmpty())
                    return false;
            }
            return true;
        };
        test::StallMeter meter;
        QTest::qWait(50);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(runner.start());
        const qint64 startMs = clock.elapsed();
        QTRY_VERIFY_WITH_TIMEOUT(allImported(), 60000);
        const qint64 importedMs = clock.elapsed();
        QTest::qWait(20);
        const qint64 longest = meter.longestMs();
        qInfo("replay onto 4 photos of %.1f MB: start() %lld ms, all imported after %lld ms, longest GUI stall "
              "%lld ms (the same 4 imports on the GUI thread, as before: %lld ms)",
            big.size() / 1e6, startMs, importedMs, longest, syncLongest);
        // Off the GUI thread, no single pass holds the loop for most of the import time.
        QVERIFY2(longest * 2 < importedMs,
            qPrintable(QStringLiteral("longest stall %1 ms of %2 ms")
                           .arg(QString::number(longest), QString::number(importedMs))));
        runner.cancel();
        QVERIFY(c.waitForIdle(30000));
    }
};

QTEST_GUILESS_MAIN(tst_ReplayImport)
#include "tst_replayimport.moc"
