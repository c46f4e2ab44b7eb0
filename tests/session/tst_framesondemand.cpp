// FrameGraph with frames on demand (what a CLI turn opens: SessionStore::setFramesOnDemand()):
// read from a checkpoint's text as nodes, it must answer every query as the graph of built
// frames does, build no frame for those queries, build only the frames asked for, and become
// the built graph when something reads every frame.

#include "core/session/costledger.h"
#include "core/session/framegraph.h"
#include "core/session/manifestparse.h"
#include "graphspec.h"

#include <QJsonDocument>
#include <QRandomGenerator>
#include <QtTest>

using namespace nb2;

class tst_FramesOnDemand : public QObject
{
    Q_OBJECT

private:
    /** The graph's frames as a checkpoint's text, one frame per line as the store writes it. */
    static QByteArray checkpointText(const FrameGraph &g)
    {
        QByteArray text = "{\"format\":\"nb2lite-session\",\"schema_version\":2,\"frames\":[\n";
        for (qsizetype i = 0; i < g.frames().size(); ++i) {
            if (i)
                text += ",\n";
            text += QJsonDocument(g.frames().at(i).toJson()).toJson(QJsonDocument::Compact);
        }
        return text + "\n]}";
    }
    /** The same graph read back with frames on demand. */
    static FrameGraph onDemandCopy(const FrameGraph &g)
    {
        const QByteArray text = checkpointText(g);
        Result<ParsedManifest> parsed = parseManifest(text, FrameDepth::Nodes);
        if (!parsed || !parsed.value().nodesOnly)
            return {};
        FrameGraph lazy;
        lazy.assignOnDemand(std::move(parsed.value().nodes), std::move(parsed.value().frames),
            std::make_shared<const FrameSource>(text));
        return lazy;
    }
    /** Every derived query of a and b, for every id (and some unknown ones): the same answers. */
    static void expectSameAnswers(const FrameGraph &a, const FrameGraph &b)
    {
        QCOMPARE(a.size(), b.size());
        QCOMPARE(a.keepListCount(), b.keepListCount());
        QCOMPARE(a.heads(), b.heads());
        QCOMPARE(a.branches().size(), b.branches().size());
        for (qsizetype i = 0; i < a.branches().size(); ++i)
            QCOMPARE(a.branches().at(i).path, b.branches().at(i).path);
        for (const auto v : {FrameGraph::LiveOnly, FrameGraph::IncludeTrashed}) {
            QCOMPARE(a.frameIds(v), b.frameIds(v));
            QCOMPARE(a.roots(v), b.roots(v));
            QCOMPARE(a.childrenById(v), b.childrenById(v));
            for (const FrameStatus st : {FrameStatus::Pending, FrameStatus::Done, FrameStatus::Failed})
                QCOMPARE(a.withStatus(st, v), b.withStatus(st, v));
        }
        QStringList ids = b.frameIds(FrameGraph::IncludeTrashed);
        ids << QString() << QStringLiteral("gone0") << QStringLiteral("f");
        for (const QString &id : std::as_const(ids)) {
            QCOMPARE(a.contains(id), b.contains(id));
            QCOMPARE(a.parent(id), b.parent(id));
            QCOMPARE(a.pathTo(id), b.pathTo(id));
            QCOMPARE(a.headFrom(id), b.headFrom(id));
            QCOMPARE(a.branchOwnFrames(id), b.branchOwnFrames(id));
            QCOMPARE(a.matchPrefix(id.left(2)), b.matchPrefix(id.left(2)));
            for (const auto v : {FrameGraph::LiveOnly, FrameGraph::IncludeTrashed}) {
                QCOMPARE(a.children(id, v), b.children(id, v));
                QCOMPARE(a.hasChildren(id, v), b.hasChildren(id, v));
                QCOMPARE(a.subtree(id, v), b.subtree(id, v));
            }
        }
    }

private Q_SLOTS:
    void anOnDemandGraphAnswersAsTheBuiltOne()
    {
        // A graph whose frames are built on demand (a CLI turn's) must be indistinguishable from
        // the built one, except in what it costs: its queries build no frame, frame() builds the
        // one asked for, and whatever reads every frame builds them all and gets the same.
        QRandomGenerator rng(20261204);
        for (int round = 0; round < 12; ++round) {
            FrameGraph built;
            for (int i = 0; i < 300; ++i) {
                Frame f;
                f.id = QStringLiteral("f%1").arg(i);
                f.parentId = i == 0 || rng.bounded(9) == 0 ? QString() : QStringLiteral("f%1").arg(rng.bounded(i));
                f.status = FrameStatus(rng.bounded(3));
                f.kind = FrameKind(rng.bounded(2));
                f.prompt = QStringLiteral("prompt \"%1\" \u00e9").arg(i);
                f.ownerPid = rng.bounded(3) == 0 ? 4242 : 0;
                if (rng.bounded(2))
                    f.image.file = QStringLiteral("images/gen_%1.jpg").arg(i);
                if (rng.bounded(7) == 0)
                    f.trashedAt = QDateTime::fromMSecsSinceEpoch(1767000000000 + i, Qt::UTC);
                if (rng.bounded(11) == 0) { // a frame the single pass leaves to QJsonDocument: held built
                    f.keepListSet = true;
                    f.keepList = {QStringLiteral("the red door")};
                }
                built.upsert(f);
            }
            FrameGraph lazy = onDemandCopy(built);
            QVERIFY(lazy.onDemand());
            expectSameAnswers(lazy, built);
            if (QTest::currentTestFailed())
                return;
            QCOMPARE(lazy.framesBuiltOnDemand(), 0); // no query above built a frame

            // A frame asked for is built once, and is the frame the checkpoint holds.
            const QString asked = QStringLiteral("f%1").arg(rng.bounded(300));
            const Frame *first = lazy.frame(asked);
            QVERIFY(first);
            QCOMPARE(first->toJson(), built.frame(asked)->toJson());
            const int afterOne = lazy.framesBuiltOnDemand();
            QVERIFY(afterOne <= 1); // 0 when it was held built
            QCOMPARE(lazy.frame(asked), first);
            QCOMPARE(lazy.framesBuiltOnDemand(), afterOne);

            // Changes apply to both alike, without building the rest.
            for (int step = 0; step < 40; ++step) {
                Frame f;
                if (rng.bounded(2) == 0) {
                    f.id = QStringLiteral("n%1_%2").arg(round).arg(step);
                    f.parentId = QStringLiteral("f%1").arg(rng.bounded(300));
                } else {
                    f = built.value(QStringLiteral("f%1").arg(rng.bounded(300)));
                    f.trashedAt = f.isTrashed() ? QDateTime() : QDateTime::currentDateTimeUtc();
                    f.status = FrameStatus::Done;
                    if (rng.bounded(3) == 0)
                        f.parentId = QString();
                    if (rng.bounded(4) == 0)
                        f.keepListSet = !f.keepListSet;
                }
                built.upsert(f);
                lazy.upsert(f);
            }
            QVERIFY(lazy.onDemand());
            expectSameAnswers(lazy, built);
            QVERIFY(lazy.framesBuiltOnDemand() <= afterOne);

            // A pointer frame() gave stays valid while other frames are built, and while
            // frames() builds them all (the contract: only a change invalidates it).
            for (int k = 0; k < 50; ++k)
                QVERIFY(lazy.frame(QStringLiteral("f%1").arg(rng.bounded(300))));
            QCOMPARE(first->id, asked);
            const QList<Frame> &all = lazy.frames();
            QVERIFY(!lazy.onDemand());
            QCOMPARE(first->id, asked);
            QCOMPARE(all.size(), built.frames().size());
            for (qsizetype i = 0; i < all.size(); ++i)
                QCOMPARE(all.at(i).toJson(), built.frames().at(i).toJson());
            expectSameAnswers(lazy, built);
        }
    }

    void aCostLedgerReadsNodesWithoutBuildingFrames()
    {
        // A budget check sums every frame's cost before each turn: on a one-shot command's
        // graph it must read the nodes (model, usage, kind, status, picture) and get the sums
        // of the built frames, to the cent, without building one.
        QRandomGenerator rng(4122026);
        const PriceTable prices = PriceTable::defaults();
        const QStringList models {
            QStringLiteral("gemini-3.1-flash-lite-image"), QStringLiteral("unpriced-model"), QString()};
        FrameGraph built;
        for (int i = 0; i < 400; ++i) {
            Frame f;
            f.id = QStringLiteral("c%1").arg(i);
            f.parentId = i ? QStringLiteral("c%1").arg(rng.bounded(i)) : QString();
            f.kind = FrameKind(rng.bounded(6)); // every kind: imports are free, edits send an image
            f.status = FrameStatus(rng.bounded(5));
            f.model = models.at(rng.bounded(models.size()));
            if (rng.bounded(3))
                f.image.file = QStringLiteral("images/c%1.jpg").arg(i);
            if (rng.bounded(4)) { // usage reported, with or without the per-modality split
                f.usage.inputTokens = rng.bounded(2000);
                f.usage.outputTokens = rng.bounded(1500);
                f.usage.thoughtTokens = rng.bounded(2) ? rng.bounded(200) : -1;
                f.usage.imageOutputTokens = rng.bounded(2) ? rng.bounded(1500) : -1;
            }
            if (rng.bounded(9) == 0)
                f.trashedAt = QDateTime::fromMSecsSinceEpoch(1767000000000 + i, Qt::UTC);
            built.upsert(f);
        }
        const FrameGraph lazy = onDemandCopy(built);
        QVERIFY(lazy.onDemand());
        const CostLedger fromNodes(lazy, prices), fromFrames(built, prices);
        QCOMPARE(fromNodes.sessionTotal(), fromFrames.sessionTotal());
        QVERIFY(fromFrames.sessionTotal() > 0);
        QCOMPARE(fromNodes.framesWithoutUsage(), fromFrames.framesWithoutUsage());
        QCOMPARE(fromNodes.pendingEstimate(), fromFrames.pendingEstimate());
        for (const QString &model : models) {
            for (const FrameKind kind : {FrameKind::Generate, FrameKind::Edit}) {
                const TurnEstimate a = estimateTurn(lazy, prices, kind, model);
                const TurnEstimate b = estimateTurn(built, prices, kind, model);
                QCOMPARE(a.usd, b.usd);
                QCOMPARE(a.samples, b.samples);
                QCOMPARE(a.basis, b.basis);
                const double spent = fromFrames.sessionTotal() + fromFrames.pendingEstimate();
                QVERIFY(b.usd > 0);
                // Room for two more turns: allowed; for half of one: refused, with the same message.
                for (const bool room : {true, false}) {
                    const double budget = spent + (room ? b.usd * 2 : b.usd / 2);
                    const Result<void> x = fromNodes.checkBudget(budget, kind, model);
                    const Result<void> y = fromFrames.checkBudget(budget, kind, model);
                    QCOMPARE(bool(y), room);
                    QCOMPARE(bool(x), room);
                    if (!room)
                        QCOMPARE(x.error().message, y.error().message);
                }
            }
        }
        QCOMPARE(lazy.framesBuiltOnDemand(), 0);
        QVERIFY(lazy.onDemand());
    }

    void anOnDemandGraphBuildsEverythingToRemove()
    {
        FrameGraph built = test::graphFromSpec(QStringLiteral("a b<a c<b d<a e!<d"));
        FrameGraph lazy = onDemandCopy(built);
        QVERIFY(lazy.onDemand());
        // No listed id is in the graph: nothing to build (every journal commit applies its
        // removals, mostly none).
        QCOMPARE(lazy.remove(QStringList {QStringLiteral("zz")}), 0);
        QCOMPARE(lazy.remove(QStringList {}), 0);
        QVERIFY(lazy.onDemand());
        QCOMPARE(lazy.remove(QStringList {QStringLiteral("b"), QStringLiteral("e")}), 2);
        QCOMPARE(built.remove(QStringList {QStringLiteral("b"), QStringLiteral("e")}), 2);
        QVERIFY(!lazy.onDemand());
        expectSameAnswers(lazy, built);
        // A copy taken while on demand answers alike and builds on its own.
        FrameGraph again = onDemandCopy(built);
        const FrameGraph copy = again;
        QVERIFY(copy.frame(QStringLiteral("c")));
        QCOMPARE(copy.framesBuiltOnDemand(), 1);
        QCOMPARE(again.framesBuiltOnDemand(), 0);
        expectSameAnswers(copy, built);
        expectSameAnswers(again, built);
    }
};

QTEST_GUILESS_MAIN(tst_FramesOnDemand)
#include "tst_framesondemand.moc"
