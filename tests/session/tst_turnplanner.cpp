// The rules of a turn without a window: TurnPlanner's table, every combination of its inputs,
// and which children count as continuations.
#include "core/session/framegraph.h"
#include "core/session/turnplanner.h"

#include <QtTest>

using namespace nb2;

Q_DECLARE_METATYPE(nb2::TurnMode)
Q_DECLARE_METATYPE(nb2::FrameStatus)
Q_DECLARE_METATYPE(nb2::FrameKind)
Q_DECLARE_METATYPE(nb2::RegionMode)

namespace {
enum class Source { Generated, LocalImport, ImportWithId };

TurnInput selected(FrameStatus status, Source source, int continuations, bool style)
{
    TurnInput in;
    in.hasFrame = true;
    in.frameLabel = QStringLiteral("#3");
    in.status = status;
    in.kind = source == Source::Generated ? FrameKind::Generate : FrameKind::Import;
    in.hasInteractionId = source != Source::LocalImport;
    in.frameAspect = source == Source::Generated ? QStringLiteral("3:2") : QString();
    in.imageSize = QSize(1600, 900); // nearest supported ratio: 16:9
    in.continuations = continuations;
    in.styleReference = style;
    in.generateAspect = QStringLiteral("4:3");
    return in;
}
} // namespace

class tst_TurnPlanner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void plan_data()
    {
        QTest::addColumn<TurnInput>("input");
        QTest::addColumn<TurnMode>("kind");
        QTest::addColumn<bool>("newBranch");
        QTest::addColumn<bool>("sendable");
        QTest::addColumn<QString>("aspect");
        QTest::addColumn<bool>("locked");
        QTest::addColumn<QString>("reasonPart");

        TurnInput none;
        none.generateAspect = QStringLiteral("4:3");
        QTest::newRow("nothing selected") << none << TurnMode::Generate << false << true << "4:3" << false << "";
        TurnInput fresh = selected(FrameStatus::Done, Source::Generated, 0, false);
        fresh.newImageRequested = true;
        QTest::newRow("new image over a selection")
            << fresh << TurnMode::Generate << false << true << "4:3" << false << "New image";
        TurnInput styleNoFrame = none;
        styleNoFrame.styleReference = true;
        QTest::newRow("style without a frame")
            << styleNoFrame << TurnMode::Generate << false << true << "4:3" << false << "applies to edits";

        QTest::newRow("edit") << selected(FrameStatus::Done, Source::Generated, 0, false) << TurnMode::Edit << false
                              << true << "3:2" << true << "continues its chain";
        QTest::newRow("branch") << selected(FrameStatus::Done, Source::Generated, 1, false) << TurnMode::Branch << true
                                << true << "3:2" << true << "Branch from #3";
        QTest::newRow("local import") << selected(FrameStatus::Done, Source::LocalImport, 0, false)
                                      << TurnMode::EditLocal << false << true << "16:9" << false << "local edit";
        QTest::newRow("local import with a continuation")
            << selected(FrameStatus::Done, Source::LocalImport, 2, false) << TurnMode::EditLocal << true << true
            << "16:9" << false << "Branch from #3";
        QTest::newRow("import that continues a chain")
            << selected(FrameStatus::Done, Source::ImportWithId, 0, false) << TurnMode::Edit << false << true << "16:9"
            << true << "continues its chain";
        QTest::newRow("style") << selected(FrameStatus::Done, Source::Generated, 0, true) << TurnMode::Style << false
                               << true << "3:2" << false << "Restyle #3";
        QTest::newRow("style beats local") << selected(FrameStatus::Done, Source::LocalImport, 0, true)
                                           << TurnMode::Style << false << true << "16:9" << false << "Restyle #3";
        QTest::newRow("style with a continuation")
            << selected(FrameStatus::Done, Source::Generated, 1, true) << TurnMode::Style << true << true << "3:2"
            << false << "Branch from #3";
        QTest::newRow("pending") << selected(FrameStatus::Pending, Source::Generated, 0, false) << TurnMode::Edit
                                 << false << false << "3:2" << true << "still being made";
        QTest::newRow("failed") << selected(FrameStatus::Failed, Source::Generated, 0, true) << TurnMode::Edit << false
                                << false << "3:2" << true << "has no image (failed)";
        QTest::newRow("cancelled") << selected(FrameStatus::Cancelled, Source::Generated, 1, false) << TurnMode::Edit
                                   << false << false << "3:2" << true << "Retry it";
        QTest::newRow("interrupted") << selected(FrameStatus::Interrupted, Source::LocalImport, 0, false)
                                     << TurnMode::Edit << false << false << "" << true << "interrupted";
    }

    void plan()
    {
        QFETCH(TurnInput, input);
        const TurnPlan p = TurnPlanner::plan(input);
        QTEST(p.kind, "kind");
        QTEST(p.newBranch, "newBranch");
        QTEST(p.sendable, "sendable");
        QTEST(p.aspectRatio, "aspect");
        QTEST(p.aspectLocked, "locked");
        QFETCH(QString, reasonPart);
        if (reasonPart.isEmpty())
            QVERIFY2(p.reason.isEmpty(), qPrintable(p.reason));
        else
            QVERIFY2(p.reason.contains(reasonPart), qPrintable(p.reason));
        QCOMPARE(p.styleIgnored, p.kind == TurnMode::Generate && input.styleReference);
    }

    /** Issue 13: a selection (Region/Protect) and the continuation after a composited frame. */
    void regionPlan_data()
    {
        QTest::addColumn<TurnInput>("input");
        QTest::addColumn<TurnMode>("kind");
        QTest::addColumn<bool>("newBranch");
        QTest::addColumn<bool>("sendable");
        QTest::addColumn<bool>("locked");
        QTest::addColumn<RegionMode>("region");
        QTest::addColumn<bool>("compositeInline");
        QTest::addColumn<QString>("reasonPart");

        const auto with = [](TurnInput in, RegionMode selection, bool composited = false, bool fromRaw = false) {
            in.selection = selection;
            in.composited = composited;
            in.continueFromRaw = fromRaw;
            return in;
        };
        const TurnInput gen = selected(FrameStatus::Done, Source::Generated, 0, false);
        const TurnInput genBranch = selected(FrameStatus::Done, Source::Generated, 1, false);
        const TurnInput local = selected(FrameStatus::Done, Source::LocalImport, 0, false);
        const TurnInput styled = selected(FrameStatus::Done, Source::Generated, 0, true);
        using R = RegionMode;
        QTest::newRow("region") << with(gen, R::Region) << TurnMode::EditLocal << false << true << true << R::Region
                                << false << "Edit the selected region of #3";
        QTest::newRow("region, branch") << with(genBranch, R::Region) << TurnMode::EditLocal << true << true << true
                                        << R::Region << false << "edit the selected region";
        QTest::newRow("region of a composite") << with(gen, R::Region, true) << TurnMode::EditLocal << false << true
                                               << true << R::Region << false << "pasted back";
        QTest::newRow("region of a local import") << with(local, R::Region) << TurnMode::EditLocal << false << true
                                                  << true << R::Region << false << "selected region";
        QTest::newRow("protect") << with(gen, R::Protect) << TurnMode::Edit << false << true << true << R::Protect
                                 << false << "selected pixels are then restored exactly";
        QTest::newRow("protect, branch") << with(genBranch, R::Protect) << TurnMode::Branch << true << true << true
                                         << R::Protect << false << "restored exactly";
        QTest::newRow("protect a local import") << with(local, R::Protect) << TurnMode::EditLocal << false << true
                                                << false << R::Protect << false << "local edit";
        QTest::newRow("protect a composite") << with(gen, R::Protect, true) << TurnMode::EditLocal << false << true
                                             << true << R::Protect << true << "composited image (sent inline)";
        QTest::newRow("protect a composite from raw") << with(gen, R::Protect, true, true) << TurnMode::Edit << false
                                                      << true << true << R::Protect << false << "raw image by id";
        QTest::newRow("after a composite") << with(gen, R::None, true) << TurnMode::EditLocal << false << true << true
                                           << R::None << true << "continues from your composited image (sent inline)";
        QTest::newRow("after a composite, branch") << with(genBranch, R::None, true) << TurnMode::EditLocal << true
                                                   << true << true << R::None << true << "composited image";
        QTest::newRow("after a composite, from raw") << with(gen, R::None, true, true) << TurnMode::Edit << false
                                                     << true << true << R::None << false << "server's raw image by id";
        QTest::newRow("after a composite, from raw, branch")
            << with(genBranch, R::None, true, true) << TurnMode::Branch << true << true << true << R::None << false
            << "raw image by id";
        TurnInput noId = with(local, R::None, true, true);
        QTest::newRow("raw asked but no server id") << noId << TurnMode::EditLocal << false << true << true << R::None
                                                    << true << "composited image (sent inline)";
        TurnInput compositing = with(gen, R::Region, true);
        compositing.compositePending = true;
        QTest::newRow("composite not made yet")
            << compositing << TurnMode::Edit << false << false << true << R::None << false << "being composited";
        QTest::newRow("style ignores the selection") << with(styled, R::Region) << TurnMode::Style << false << true
                                                     << false << R::None << false << "not used by a restyle";
        TurnInput pending = with(selected(FrameStatus::Pending, Source::Generated, 0, false), R::Region);
        QTest::newRow("selection on a pending frame")
            << pending << TurnMode::Edit << false << false << true << R::None << false << "still being made";
        TurnInput fresh = with(gen, R::Region);
        fresh.newImageRequested = true;
        QTest::newRow("new image ignores the selection")
            << fresh << TurnMode::Generate << false << true << false << R::None << false << "New image";
    }

    void regionPlan()
    {
        QFETCH(TurnInput, input);
        const TurnPlan p = TurnPlanner::plan(input);
        QTEST(p.kind, "kind");
        QTEST(p.newBranch, "newBranch");
        QTEST(p.sendable, "sendable");
        QTEST(p.aspectLocked, "locked");
        QTEST(p.region, "region");
        QTEST(p.compositeInline, "compositeInline");
        if (input.composited && !input.compositePending && p.kind != TurnMode::Style)
            QCOMPARE(p.aspectRatio, QStringLiteral("16:9")); // the composite's shape, not the crop's recorded ratio
        QFETCH(QString, reasonPart);
        QVERIFY2(p.reason.contains(reasonPart), qPrintable(p.reason));
    }

    /** Every combination of the inputs: one rule order, no contradictions. */
    void everyCombinationIsConsistent()
    {
        const QList<FrameStatus> statuses {FrameStatus::Pending, FrameStatus::Done, FrameStatus::Failed,
            FrameStatus::Cancelled, FrameStatus::Interrupted};
        int cases = 0;
        for (bool hasFrame : {false, true})
            for (bool newImage : {false, true})
                for (FrameStatus status : statuses)
                    for (Source source : {Source::Generated, Source::LocalImport, Source::ImportWithId})
                        for (int continuations : {0, 1, 3})
                            for (bool style : {false, true}) {
                                TurnInput in = selected(status, source, continuations, style);
                                in.hasFrame = hasFrame;
                                in.newImageRequested = newImage;
                                const TurnPlan p = TurnPlanner::plan(in);
                                ++cases;
                                const QByteArray where
                                    = QStringLiteral("frame=%1 new=%2 status=%3 source=%4 cont=%5 style=%6")
                                          .arg(hasFrame)
                                          .arg(newImage)
                                          .arg(frameStatusName(status))
                                          .arg(int(source))
                                          .arg(continuations)
                                          .arg(style)
                                          .toUtf8();
                                QCOMPARE(TurnPlanner::plan(in), p); // pure: same input, same plan
                                if (!hasFrame || newImage) {
                                    QVERIFY2(p.kind == TurnMode::Generate && p.sendable && !p.aspectLocked, where);
                                    QVERIFY2(p.aspectRatio == in.generateAspect && !p.newBranch, where);
                                    continue;
                                }
                                QVERIFY2(p.kind != TurnMode::Generate, where);
                                QVERIFY2(!p.reason.isEmpty() && p.reason.contains(in.frameLabel), where);
                                if (status != FrameStatus::Done) {
                                    QVERIFY2(!p.sendable && p.aspectLocked && !p.newBranch, where);
                                    continue;
                                }
                                QVERIFY2(p.sendable, where);
                                QVERIFY2(p.newBranch == (continuations > 0), where);
                                const TurnMode expected = style     ? TurnMode::Style
                                    : source == Source::LocalImport ? TurnMode::EditLocal
                                    : continuations > 0             ? TurnMode::Branch
                                                                    : TurnMode::Edit;
                                QVERIFY2(p.kind == expected, where);
                                // Only a server continuation keeps the chain's ratio locked.
                                QVERIFY2(
                                    p.aspectLocked == (p.kind == TurnMode::Edit || p.kind == TurnMode::Branch), where);
                                QVERIFY2(p.newBranch == p.reason.contains(QStringLiteral("Branch from")), where);
                            }
        QCOMPARE(cases, 2 * 2 * 5 * 3 * 3 * 2);
    }

    void continuations_data()
    {
        QTest::addColumn<FrameStatus>("childStatus");
        QTest::addColumn<bool>("trashed");
        QTest::addColumn<bool>("counts");
        QTest::newRow("done") << FrameStatus::Done << false << true;
        QTest::newRow("pending") << FrameStatus::Pending << false << true;
        QTest::newRow("failed or refused") << FrameStatus::Failed << false << false;
        QTest::newRow("cancelled") << FrameStatus::Cancelled << false << false;
        QTest::newRow("interrupted") << FrameStatus::Interrupted << false << false;
        QTest::newRow("done but trashed") << FrameStatus::Done << true << false;
    }

    void continuations()
    {
        QFETCH(FrameStatus, childStatus);
        QFETCH(bool, trashed);
        QFETCH(bool, counts);
        FrameGraph g;
        Frame parent;
        parent.id = QStringLiteral("p");
        parent.status = FrameStatus::Done;
        parent.interactionId = QStringLiteral("v1_parent");
        parent.aspectRatio = QStringLiteral("1:1");
        g.upsert(parent);
        Frame child;
        child.id = QStringLiteral("c");
        child.parentId = parent.id;
        child.status = childStatus;
        if (trashed)
            child.trashedAt = QDateTime::currentDateTimeUtc();
        g.upsert(child);
        QCOMPARE(TurnPlanner::countsAsContinuation(child), counts);
        QCOMPARE(TurnPlanner::continuationCount(g, parent.id), counts ? 1 : 0);
        // From the graph: a refused child leaves the parent an Edit, not a forced Branch.
        const TurnPlan p = TurnPlanner::plan(TurnInput::fromGraph(g, parent.id, QStringLiteral("#1")));
        QCOMPARE(p.kind, counts ? TurnMode::Branch : TurnMode::Edit);
        QCOMPARE(p.aspectRatio, QStringLiteral("1:1"));
    }

    void fromGraphWithoutFrameIsGenerate()
    {
        FrameGraph g;
        QVERIFY(!TurnInput::fromGraph(g, QStringLiteral("missing"), {}).hasFrame);
        QVERIFY(!TurnInput::fromGraph(g, QString(), {}).hasFrame);
    }
};

QTEST_GUILESS_MAIN(tst_TurnPlanner)
#include "tst_turnplanner.moc"
