// EditFinisher and PrecisionRunner at session close: a drift measurement or composite still
// running when the session closes is finished and recorded in that session first. Here it has
// provably not even started (the pool is held by PoolBlocker until the close begins), and its
// report never reached the event loop. Before, it was dropped and its heatmap written
// afterwards into a folder that no longer named it (an orphan file, or a test folder being removed).
#include "controllerfixture.h"
#include "core/session/editfinisher.h"
#include "core/session/precisionedit.h"
#include "core/session/precisionrunner.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "poolblocker.h"

#include <QDir>
#include <QFileInfo>
#include <QSignalSpy>

using namespace nb2;
using nb2::test::PoolBlocker;

class tst_EditFinisher : public test::ControllerFixture
{
    Q_OBJECT

private:
    QString dirA() const { return m_tmp->filePath(QStringLiteral("a")); }
    QString dirB() const { return m_tmp->filePath(QStringLiteral("b")); }

    /** The frame as the session folder holds it (read apart from the controller under test). */
    static Frame onDisk(const QString &dir, const QString &id)
    {
        SessionStore store;
        if (!store.open(dir, SessionStore::OpenMode::ReadOnly))
            return {};
        return store.graph().value(id);
    }

    /** drift_*.png files in the folder's images/ that no frame names: written after the session stopped recording. */
    static QStringList orphanHeatmaps(const QString &dir)
    {
        SessionStore store;
        if (!store.open(dir, SessionStore::OpenMode::ReadOnly))
            return {QStringLiteral("(session does not open)")};
        QStringList orphans;
        for (const QString &name : QDir(dir + QStringLiteral("/images")).entryList({QStringLiteral("drift_*.png")})) {
            bool named = false;
            for (const Frame &f : store.graph().frames())
                named = named || f.drift.heatmapFile == QStringLiteral("images/") + name;
            if (!named)
                orphans.append(name);
        }
        return orphans;
    }

    /** "dusk" as a protect edit of the frame root that keeps its top-left 20×20 corner (the mask prepared in the session). */
    static Result<TurnParams> protectedCornerEdit(const SessionController &c, const QString &root)
    {
        const Frame parent = c.graph().value(root);
        const QSize size(parent.image.width, parent.image.height);
        const Result<PreparedRegion> prepared = PrecisionEdit::prepare(
            c.store()->dir(), parent, RegionMode::Protect, EditMask::fromRect(size, QRect(0, 0, 20, 20)), 2);
        if (!prepared)
            return prepared.error();
        TurnParams params = p("dusk");
        params.regionEdit = prepared.value().edit;
        return params;
    }

    /** Overwrites the session's manifest with text that is not JSON. */
    static bool breakManifest(const QString &dir)
    {
        QFile manifest(dir + QStringLiteral("/manifest.json"));
        return manifest.open(QIODevice::WriteOnly | QIODevice::Truncate) && manifest.write("{ not json") > 0;
    }

    /**
     * Holds the pool from the end of the first turn after root until the session starts to
     * close. Both connections come before the finisher's or runner's own (make it after this):
     * its work is queued behind the held pool, and the pool is free again when it is waited for.
     */
    static std::shared_ptr<PoolBlocker> holdPoolAfterTurn(SessionController &c, const QString &root)
    {
        auto blocker = std::make_shared<PoolBlocker>();
        connect(&c, &SessionController::turnFinished, &c, [blocker, root](const QString &id) {
            if (id != root)
                blocker->hold();
        });
        connect(&c, &SessionController::aboutToClose, &c, [blocker] { blocker->release(); });
        return blocker;
    }

private Q_SLOTS: // init and cleanup: ControllerFixture
    void measurementQueuedAtCloseIsRecordedInItsSession()
    {
        SessionController c;
        c.setClient(client());
        QVERIFY(c.open(dirA()));
        const QString root = finish(c, c.generate(p("a lighthouse"))).id;
        QVERIFY(!root.isEmpty());
        // Connected before the finisher's own slot, so the pool is held when it starts the worker.
        const std::shared_ptr<PoolBlocker> blocker = holdPoolAfterTurn(c, root);
        EditFinisher finisher(&c);
        QSignalSpy finished(&finisher, &EditFinisher::finished);
        QSignalSpy failed(&finisher, &EditFinisher::failed);
        const QString edit = finish(c, c.edit(root, p("make it night"))).id;
        QVERIFY(!edit.isEmpty());
        QCOMPARE(finisher.runningCount(), 1); // queued behind the held pool: not measured yet

        QVERIFY(c.open(dirB())); // closes a: the measurement is made and recorded there first
        QCOMPARE(finisher.runningCount(), 0);
        const Frame recorded = onDisk(dirA(), edit);
        QVERIFY2(!recorded.drift.isEmpty(), "the reading was dropped at close");
        QVERIFY(recorded.drift.changed >= 0);
        QVERIFY(QFileInfo::exists(dirA() + QLatin1Char('/') + recorded.drift.heatmapFile));

        QThreadPool::globalInstance()->waitForDone();
        QTest::qWait(50);             // the watcher's report comes late and is ignored
        QCOMPARE(finished.size(), 0); // nothing is announced for a session that is gone
        QCOMPARE(failed.size(), 0);
        QCOMPARE(orphanHeatmaps(dirA()), QStringList());
        QVERIFY(c.graph().frames().isEmpty()); // and nothing was recorded into b
    }

    void finisherGoingAwayRecordsWhatRuns()
    {
        SessionController c;
        c.setClient(client());
        QVERIFY(c.open(dirA()));
        const QString root = finish(c, c.generate(p("a lighthouse"))).id;
        const std::shared_ptr<PoolBlocker> blocker = holdPoolAfterTurn(c, root);
        QString edit;
        {
            EditFinisher finisher(&c);
            edit = finish(c, c.edit(root, p("make it night"))).id;
            QCOMPARE(finisher.runningCount(), 1);
            blocker->release();
        } // the window closing: its finisher goes before the controller, nothing between
        QVERIFY2(!c.graph().value(edit).drift.isEmpty(), "the reading was dropped with the finisher");
        c.close();
        QThreadPool::globalInstance()->waitForDone();
        QCOMPARE(orphanHeatmaps(dirA()), QStringList());
    }

    void twoFinishersOfOneSessionShareOneMeasurement()
    {
        // The window's finisher (every edit) and a replay's (its steps) both ask for a replayed
        // step: one worker measures it, the reading is recorded once, and both announce it.
        SessionController c;
        c.setClient(client());
        QVERIFY(c.open(dirA()));
        const QString root = finish(c, c.generate(p("a lighthouse"))).id;
        const std::shared_ptr<PoolBlocker> blocker = holdPoolAfterTurn(c, root);
        EditFinisher window(&c);
        EditFinisher replay(&c, nullptr, EditFinisher::Trigger::WhenAsked);
        QSignalSpy windowFinished(&window, &EditFinisher::finished);
        QSignalSpy replayFinished(&replay, &EditFinisher::finished);
        const QString edit = finish(c, c.edit(root, p("make it night"))).id;
        QVERIFY(!edit.isEmpty());
        QCOMPARE(window.runningCount(), 1); // queued behind the held pool
        QSignalSpy changed(&c, &SessionController::framesChanged);
        replay.finishLater(edit);
        QCOMPARE(replay.runningCount(), 1);

        blocker->release();
        QVERIFY(window.waitForIdle(10000));
        QVERIFY(replay.waitForIdle(10000));
        QCOMPARE(windowFinished.size(), 1);
        QCOMPARE(replayFinished.size(), 1);
        QVERIFY(!c.graph().value(edit).drift.isEmpty());
        int recordings = 0;
        for (const QList<QVariant> &args : std::as_const(changed))
            recordings += args.at(0).toStringList().count(edit);
        QCOMPARE(recordings, 1); // before: each finisher measured and recorded it

        // Asked again once recorded, neither measures it a second time.
        replay.finishLater(edit);
        window.finishLater(edit);
        QCOMPARE(replay.runningCount() + window.runningCount(), 0);
        c.close();
        QThreadPool::globalInstance()->waitForDone();
        QCOMPARE(orphanHeatmaps(dirA()), QStringList());
    }

    void derivedFilesBelongToTheirFrame()
    {
        // A measured edit's heatmap and a precision edit's mask and raw server image belong to
        // their frame: a rebuild does not take them for pictures nobody mentions (it made each
        // an imported frame), and emptying the trash removes them with the frame (they stayed).
        QString root, edit, region;
        Frame regionFrame, editFrame;
        {
            SessionController c;
            c.setClient(client());
            QVERIFY(c.open(dirA()));
            root = finish(c, c.generate(p("a harbour"))).id;
            EditFinisher finisher(&c);
            PrecisionRunner runner(&c);
            edit = finish(c, c.edit(root, p("make it night"))).id;
            const Result<TurnParams> params = protectedCornerEdit(c, root);
            QVERIFY(params);
            region = finish(c, c.branchFrom(root, params.value())).id;
            QVERIFY(finisher.waitForIdle(10000));
            QTRY_VERIFY(runner.isIdle());
            editFrame = c.graph().value(edit);
            regionFrame = c.graph().value(region);
            QVERIFY(!editFrame.drift.heatmapFile.isEmpty());
            QVERIFY(!regionFrame.regionEdit.maskFile.isEmpty());
            QVERIFY(!regionFrame.regionEdit.rawFile.isEmpty());
            QVERIFY(!regionFrame.drift.heatmapFile.isEmpty());
        }
        QVERIFY(breakManifest(dirA())); // a rebuild's case: the frames come back from the journal
        {
            SessionStore store;
            QVERIFY(store.rebuild(dirA()));
            QCOMPARE(store.graph().frameIds(), (QStringList {root, edit, region}));
        }

        SessionController c;
        c.setClient(client());
        QVERIFY(c.open(dirA()));
        QVERIFY(c.deleteBranch(region));
        QVERIFY(c.emptyTrash());
        QVERIFY(c.store()->flush());
        for (const QString &file : regionFrame.files())
            QVERIFY2(!QFileInfo::exists(dirA() + QLatin1Char('/') + file), qPrintable(file));
        for (const QString &file : editFrame.files())
            QVERIFY2(QFileInfo::exists(dirA() + QLatin1Char('/') + file), qPrintable(file));
    }

    void anUnsentSelectionIsNotRecoveredAsAPicture()
    {
        // Selections prepared (a protect edit's mask, a region edit's mask and crop written)
        // but never sent, then the manifest lost: the rebuild recovers the picture nobody
        // mentions, and leaves the selections' files alone (before, each became an imported frame).
        QString root;
        QStringList selectionFiles;
        {
            SessionController c;
            c.setClient(client());
            QVERIFY(c.open(dirA()));
            root = finish(c, c.generate(p("a harbour"))).id;
            const Result<TurnParams> protect = protectedCornerEdit(c, root);
            QVERIFY(protect);
            selectionFiles << protect.value().regionEdit.maskFile;
            const Frame parent = c.graph().value(root);
            const Result<PreparedRegion> region = PrecisionEdit::prepare(c.store()->dir(), parent,
                RegionMode::Region, EditMask::fromRect({parent.image.width, parent.image.height}, {10, 10, 30, 30}), 2);
            QVERIFY(region);
            selectionFiles << region.value().edit.maskFile << region.value().cropFile;
            QVERIFY(QFile::copy(dirA() + QLatin1Char('/') + parent.image.file, dirA() + QStringLiteral("/images/holiday.png")));
        }
        for (const QString &file : std::as_const(selectionFiles))
            QVERIFY2(PrecisionEdit::isDerivedFileName(QFileInfo(file).fileName()), qPrintable(file));
        QVERIFY(!PrecisionEdit::isDerivedFileName(QStringLiteral("holiday.png")));
        QVERIFY(!PrecisionEdit::isDerivedFileName(QStringLiteral("mask_1234.png")));
        QVERIFY(breakManifest(dirA())); // a rebuild's case: the frames come back from the journal

        SessionStore store;
        QVERIFY(store.rebuild(dirA()));
        const QStringList ids = store.graph().frameIds();
        QCOMPARE(ids.size(), 2);
        QCOMPARE(ids.first(), root);
        const Frame recovered = store.graph().value(ids.last());
        QCOMPARE(recovered.kind, FrameKind::Import);
        QCOMPARE(recovered.image.file, QStringLiteral("images/holiday.png"));
        for (const QString &file : std::as_const(selectionFiles)) // left where they were
            QVERIFY2(QFileInfo::exists(dirA() + QLatin1Char('/') + file), qPrintable(file));
    }

    void compositeQueuedAtCloseIsRecordedInItsSession()
    {
        SessionController c;
        c.setClient(client());
        QVERIFY(c.open(dirA()));
        const QString root = finish(c, c.generate(p("a harbour"))).id;
        const Result<TurnParams> params = protectedCornerEdit(c, root);
        QVERIFY(params);
        const std::shared_ptr<PoolBlocker> blocker = holdPoolAfterTurn(c, root);
        PrecisionRunner runner(&c);
        QSignalSpy composited(&runner, &PrecisionRunner::composited);
        const QString edit = finish(c, c.edit(root, params.value())).id;
        QVERIFY(!edit.isEmpty());
        QVERIFY(runner.isCompositing(edit));

        QVERIFY(c.open(dirB()));
        QVERIFY(runner.isIdle());
        const Frame recorded = onDisk(dirA(), edit);
        QVERIFY2(!recorded.regionEdit.rawFile.isEmpty(), "the composite was dropped at close");
        QVERIFY(!recorded.drift.isEmpty());
        QVERIFY(QFileInfo::exists(dirA() + QLatin1Char('/') + recorded.image.file));
        QThreadPool::globalInstance()->waitForDone();
        QTest::qWait(50);
        QCOMPARE(composited.size(), 0);
        QCOMPARE(orphanHeatmaps(dirA()), QStringList());
    }
};

QTEST_GUILESS_MAIN(tst_EditFinisher)
#include "tst_editfinisher.moc"
