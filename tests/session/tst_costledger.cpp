#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/appsettings.h"
#include "core/session/costledger.h"
#include "core/session/pricetable.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace nb2;

namespace {

const QString kLite = QStringLiteral("gemini-3.1-flash-lite-image");

Usage usage(qint64 in, qint64 out, qint64 thought, qint64 imageOut = -1)
{
    Usage u;
    u.inputTokens = in;
    u.outputTokens = out;
    u.thoughtTokens = thought;
    u.imageOutputTokens = imageOut;
    return u;
}

Frame frame(const QString &id, const QString &parent, FrameKind kind, const Usage &u, bool withImage = true)
{
    Frame f;
    f.id = id;
    f.parentId = parent;
    f.kind = kind;
    f.status = FrameStatus::Done;
    f.model = kLite;
    f.usage = u;
    if (withImage)
        f.image.file = QStringLiteral("images/%1.jpg").arg(id);
    return f;
}

/** A simple table, so the hand computations below are easy to check: $1 input, $2 output, $10 image per 1M. */
PriceTable simpleTable()
{
    PriceTable t;
    t.asOf = QStringLiteral("2026-01-01");
    t.source = QStringLiteral("test");
    t.models = {{kLite, 1.0, 2.0, 10.0}};
    return t;
}

bool near(double a, double b)
{
    return qAbs(a - b) < 1e-12;
}

} // namespace

/** The cost ledger: prices, per-frame, per-branch and session totals, estimates, and the budget refusing before sending. */
class tst_CostLedger : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void frameCostFromUsage_data()
    {
        QTest::addColumn<qint64>("in");
        QTest::addColumn<qint64>("out");
        QTest::addColumn<qint64>("thought");
        QTest::addColumn<qint64>("imageOut");
        QTest::addColumn<bool>("withImage");
        QTest::addColumn<double>("expected");
        // in*1 + image*10 + (out-image+thought)*2, per 1M tokens.
        QTest::newRow("split by modality") << qint64(1000) << qint64(1200) << qint64(60) << qint64(1120) << true
                                           << (1000 * 1.0 + 1120 * 10.0 + 140 * 2.0) / 1e6;
        QTest::newRow("no split, image: all output at image rate")
            << qint64(500) << qint64(1150) << qint64(0) << qint64(-1) << true << (500 * 1.0 + 1150 * 10.0) / 1e6;
        QTest::newRow("no image: text rate")
            << qint64(500) << qint64(300) << qint64(100) << qint64(-1) << false << (500 * 1.0 + 400 * 2.0) / 1e6;
        QTest::newRow("thought only") << qint64(-1) << qint64(-1) << qint64(50) << qint64(-1) << false << 100.0 / 1e6;
    }
    void frameCostFromUsage()
    {
        QFETCH(qint64, in);
        QFETCH(qint64, out);
        QFETCH(qint64, thought);
        QFETCH(qint64, imageOut);
        QFETCH(bool, withImage);
        QFETCH(double, expected);
        const FrameCost c = frameCost(
            frame(QStringLiteral("a"), {}, FrameKind::Generate, usage(in, out, thought, imageOut), withImage),
            simpleTable());
        QVERIFY(c.hasUsage);
        QVERIFY(c.exactPrice);
        QVERIFY2(near(c.usd, expected), qPrintable(QString::number(c.usd, 'g', 17)));
        QVERIFY(near(c.usd, c.inputUsd + c.outputUsd + c.imageOutputUsd));
    }

    void defaultTableLiteImage()
    {
        // $0.25 in, $1.50 out, $30 image per 1M (Google's list as of the table's date):
        // 20 input + 1120 image + 80 thinking tokens = 0.000005 + 0.0336 + 0.00012.
        const PriceTable t = PriceTable::defaults();
        QVERIFY(!t.asOf.isEmpty());
        QVERIFY(t.source.contains(QLatin1String("estimate")));
        const FrameCost c
            = frameCost(frame(QStringLiteral("a"), {}, FrameKind::Generate, usage(20, 1120, 80, 1120)), t);
        QVERIFY2(near(c.usd, 0.000005 + 0.0336 + 0.00012), qPrintable(QString::number(c.usd, 'g', 17)));
        QCOMPARE(formatUsd(c.usd), QStringLiteral("$0.0337"));
    }

    void importsAndMissingUsageCostNothing()
    {
        Frame imp = frame(QStringLiteral("i"), {}, FrameKind::Import, usage(10, 10, 10));
        QVERIFY(!frameCost(imp, simpleTable()).hasUsage);
        QCOMPARE(frameCost(imp, simpleTable()).usd, 0.0);
        QVERIFY(!frameCost(frame(QStringLiteral("a"), {}, FrameKind::Generate, Usage {}), simpleTable()).hasUsage);
    }

    void unknownModelUsesFirstRowAndSaysSo()
    {
        Frame f = frame(QStringLiteral("a"), {}, FrameKind::Generate, usage(1000, 0, 0));
        f.model = QStringLiteral("some-new-model");
        const FrameCost c = frameCost(f, simpleTable());
        QVERIFY(!c.exactPrice);
        QVERIFY(near(c.usd, 1000 / 1e6));
    }

    void ledgerTotalsBranchesAndReproduce()
    {
        // a -> b -> {c, d}; e is a trashed child of a; i an import root.
        FrameGraph g;
        g.upsert(frame(QStringLiteral("a"), {}, FrameKind::Generate, usage(10, 1000, 0, 1000))); // 0.01001
        g.upsert(frame(QStringLiteral("b"), QStringLiteral("a"), FrameKind::Edit, usage(2000, 1000, 0, 1000))); // 0.012
        g.upsert(
            frame(QStringLiteral("c"), QStringLiteral("b"), FrameKind::Edit, usage(3000, 1000, 500, 1000)));    // 0.014
        g.upsert(frame(QStringLiteral("d"), QStringLiteral("b"), FrameKind::Edit, usage(1000, 2000, 0, 2000))); // 0.021
        Frame e = frame(QStringLiteral("e"), QStringLiteral("a"), FrameKind::Edit, usage(0, 100, 0, 100));      // 0.001
        e.trashedAt = QDateTime::currentDateTimeUtc();
        g.upsert(e);
        g.upsert(frame(QStringLiteral("i"), {}, FrameKind::Import, Usage {}));
        const PriceTable t = simpleTable();
        const CostLedger ledger(g, t);
        QVERIFY(near(ledger.frame(QStringLiteral("a")).usd, 0.01001));
        QVERIFY(near(ledger.frame(QStringLiteral("c")).usd, 0.003 + 0.01 + 0.001));
        QVERIFY2(near(ledger.sessionTotal(), 0.01001 + 0.012 + 0.014 + 0.021 + 0.001),
            qPrintable(QString::number(ledger.sessionTotal(), 'g', 17)));
        QCOMPARE(ledger.framesWithoutUsage(), 0);
        QVERIFY(near(ledger.reproduceCost(QStringLiteral("c")), 0.01001 + 0.012 + 0.014));
        QVERIFY(near(ledger.reproduceCost(QStringLiteral("d")), 0.01001 + 0.012 + 0.021));

        const QList<BranchCost> branches = ledger.branches();
        QCOMPARE(branches.size(), 3);
        QHash<QString, BranchCost> byHead;
        for (const BranchCost &b : branches)
            byHead.insert(b.branch.head(), b);
        QVERIFY(near(byHead.value(QStringLiteral("c")).ownUsd, 0.014)); // b is shared with d
        QVERIFY(near(byHead.value(QStringLiteral("d")).ownUsd, 0.021));
        QVERIFY(near(byHead.value(QStringLiteral("c")).reproduceUsd, 0.03601));
        QVERIFY(near(byHead.value(QStringLiteral("i")).ownUsd, 0.0));
    }

    void estimateIsMedianOfSimilarTurns()
    {
        FrameGraph g;
        const PriceTable t = simpleTable();
        // Nothing similar yet: the table with typical tokens.
        const TurnEstimate fromTable = estimateTurn(g, t, FrameKind::Generate, kLite);
        QCOMPARE(fromTable.samples, 0);
        QVERIFY(fromTable.usd > 0.011 && fromTable.usd < 0.012); // ~1120 image tokens at $10/1M
        g.upsert(frame(QStringLiteral("a"), {}, FrameKind::Generate, usage(0, 1000, 0, 1000))); // 0.010
        g.upsert(frame(QStringLiteral("b"), {}, FrameKind::Generate, usage(0, 3000, 0, 3000))); // 0.030
        g.upsert(frame(QStringLiteral("c"), {}, FrameKind::Generate, usage(0, 2000, 0, 2000))); // 0.020
        g.upsert(
            frame(QStringLiteral("x"), QStringLiteral("a"), FrameKind::Edit, usage(0, 9000, 0, 9000))); // not similar
        Frame failed = frame(QStringLiteral("f"), {}, FrameKind::Generate, usage(0, 100000, 0, 100000));
        failed.status = FrameStatus::Failed; // only finished turns count
        g.upsert(failed);
        const TurnEstimate gen = estimateTurn(g, t, FrameKind::Generate, kLite);
        QCOMPARE(gen.samples, 3);
        QVERIFY(near(gen.usd, 0.020));
        const TurnEstimate edit = estimateTurn(g, t, FrameKind::EditLocal, kLite); // an image-input kind, like Edit
        QCOMPARE(edit.samples, 1);
        QVERIFY(near(edit.usd, 0.090));
        QCOMPARE(estimateTurn(g, t, FrameKind::Generate, QStringLiteral("other")).samples, 0);
    }

    void reproduceCostEstimatesFramesWithoutUsage()
    {
        // A long chain (an agent's session) whose frames mostly lack usage: each such frame
        // counts at the estimate for its model and kind of input, the imports at nothing.
        FrameGraph g;
        const PriceTable t = simpleTable();
        g.upsert(frame(QStringLiteral("r"), {}, FrameKind::Generate, usage(0, 2000, 0, 2000)));              // 0.020
        g.upsert(frame(QStringLiteral("s"), QStringLiteral("r"), FrameKind::Edit, usage(0, 4000, 0, 4000))); // 0.040
        double expected = 0.020 + 0.040;
        QString parent = QStringLiteral("s");
        for (int i = 0; i < 3000; ++i) {
            const QString id = QStringLiteral("f%1").arg(i);
            const FrameKind kind = i % 3 == 0 ? FrameKind::Generate : i % 3 == 1 ? FrameKind::Edit : FrameKind::Import;
            Frame f = frame(id, parent, kind, Usage {});
            if (i % 5 == 0)
                f.model = QStringLiteral("another-model"); // no similar turn: the table's typical turn
            g.upsert(f);
            if (kind != FrameKind::Import)
                expected += estimateTurn(g, t, kind, f.model).usd;
            parent = id;
        }
        const CostLedger ledger(g, t);
        QElapsedTimer timer;
        timer.start();
        const double total = ledger.reproduceCost(parent);
        QVERIFY2(qAbs(total - expected) < 1e-9,
            qPrintable(QStringLiteral("%1 vs %2").arg(total, 0, 'g', 17).arg(expected, 0, 'g', 17)));
        // One estimate per (model, kind of input), not one scan of the session per frame.
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
    }

    void branchesAgreeWithFrameByFrameDefinition()
    {
        // A session like an agent's: forks, trashed frames, imports, frames without usage, a
        // second model, and a parent the graph lacks. Each branch's figures must be exactly
        // what the definitions give, walked frame by frame: own = the frames
        // FrameGraph::branchOwnFrames() names, reproduce = every turn on pathTo(head).
        FrameGraph g;
        const PriceTable t = simpleTable();
        QStringList ids;
        for (int i = 0; i < 600; ++i) {
            const QString id = QStringLiteral("f%1").arg(i);
            QString parent;
            if (i == 300)
                parent = QStringLiteral("gone"); // removed for good: the path starts here
            else if (i % 50 != 0)
                parent = ids.at(i % 10 == 0 ? (i * 7) % i : i - 1); // a fork every 10 frames
            const FrameKind kind = i % 50 == 0 ? FrameKind::Generate
                : i % 13 == 0                  ? FrameKind::Import
                                               : FrameKind::Edit;
            Frame f = frame(id, parent, kind, i % 4 == 0 ? Usage {} : usage(100 + i, 1000 + i, i % 7, 1000));
            if (i % 9 == 0)
                f.model = QStringLiteral("another-model");
            if (i % 23 == 0)
                f.trashedAt = QDateTime::currentDateTimeUtc();
            g.upsert(f);
            ids.append(id);
        }
        const CostLedger ledger(g, t);
        const QList<BranchCost> branches = ledger.branches();
        QCOMPARE(branches.size(), g.branches().size());
        QVERIFY(branches.size() > 50);
        for (const BranchCost &b : branches) {
            double own = 0;
            for (const QString &id : g.branchOwnFrames(b.branch.head()))
                own += ledger.frame(id).usd;
            double reproduce = 0;
            for (const QString &id : g.pathTo(b.branch.head())) {
                const Frame *f = g.frame(id);
                if (f->kind == FrameKind::Import)
                    continue;
                const FrameCost c = frameCost(*f, t);
                reproduce += c.hasUsage ? c.usd : estimateTurn(g, t, f->kind, f->model).usd;
            }
            QCOMPARE(b.ownUsd, own); // same frames, same order: the same double
            QCOMPARE(b.reproduceUsd, reproduce);
            QCOMPARE(ledger.reproduceCost(b.branch.head()), reproduce);
        }
    }

    void parentCycleHasNothingToReproduce()
    {
        // Corrupt data: a and b are each other's parent. No path, so no cost (and no endless walk).
        FrameGraph g;
        g.upsert(frame(QStringLiteral("a"), QStringLiteral("b"), FrameKind::Edit, usage(0, 1000, 0, 1000)));
        g.upsert(frame(QStringLiteral("b"), QStringLiteral("a"), FrameKind::Edit, usage(0, 1000, 0, 1000)));
        g.upsert(frame(QStringLiteral("c"), QStringLiteral("a"), FrameKind::Edit, usage(0, 1000, 0, 1000)));
        const PriceTable t = simpleTable();
        const CostLedger ledger(g, t);
        QCOMPARE(ledger.reproduceCost(QStringLiteral("c")), 0.0);
        QCOMPARE(ledger.reproduceCost(QStringLiteral("a")), 0.0);
        QVERIFY(ledger.branches().isEmpty()); // c's path is not a path (FrameGraph::branches())
    }

    void branchCostsOfTwentyThousandFramesAreQuick()
    {
        // The benchmark's shape, doubled: a fork every 10 frames, 2,000 branches. Walking every
        // branch's own frames with a scan of the session per step, and every branch's whole
        // path, took 2.6 s here (`nb2lite cost` on 10,000 frames: ~1.1 s); now 40-50 ms.
        FrameGraph g;
        g.reserve(20000);
        QString parent;
        QStringList ids;
        for (int i = 0; i < 20000; ++i) {
            const QString id = QStringLiteral("f%1").arg(i);
            g.upsert(frame(
                id, i % 10 == 0 && i > 0 ? ids.at(i / 2) : parent, FrameKind::Edit, usage(100, 1000, 0, 1000), false));
            ids.append(id);
            parent = id;
        }
        const PriceTable t = simpleTable();
        const CostLedger ledger(g, t);
        QElapsedTimer timer;
        timer.start();
        const QList<BranchCost> branches = ledger.branches();
        const qint64 ms = timer.elapsed();
        QCOMPARE(branches.size(), 2000);
        qInfo("branch costs of 20,000 frames: %lld ms", ms);
        QVERIFY2(ms < 1000, qPrintable(QStringLiteral("%1 ms for 2,000 branches of 20,000 frames").arg(ms)));
    }

    void budgetRefusesOverAndAllowsUnder()
    {
        FrameGraph g;
        g.upsert(frame(QStringLiteral("a"), {}, FrameKind::Generate, usage(0, 1000, 0, 1000))); // 0.010 spent
        const PriceTable t = simpleTable();
        const CostLedger ledger(g, t);
        QVERIFY(ledger.checkBudget(0, FrameKind::Generate, kLite));    // no budget
        QVERIFY(ledger.checkBudget(0.02, FrameKind::Generate, kLite)); // 0.010 + 0.010
        const Result<void> over = ledger.checkBudget(0.019, FrameKind::Generate, kLite);
        QVERIFY(!over);
        QCOMPARE(over.error().kind, ErrorKind::Budget);
        QVERIFY(over.error().message.contains(QLatin1String("$0.0190")));
        QVERIFY(over.error().message.contains(QLatin1String("--budget")));
        QVERIFY(!ledger.checkBudget(0.03, FrameKind::Generate, kLite, 3)); // a batch is checked whole
    }

    void priceTableRoundTripsAndRejectsNonsense()
    {
        const PriceTable d = PriceTable::defaults();
        const Result<PriceTable> back = PriceTable::fromText(d.toText());
        QVERIFY(back);
        QCOMPARE(back.value(), d);
        QCOMPARE(PriceTable::fromText(QStringLiteral("[1]")).error().kind, ErrorKind::Corrupt);
        QJsonObject bad = d.toJson();
        QJsonArray rows = bad.value(QLatin1String("models")).toArray();
        QJsonObject row = rows.first().toObject();
        row.insert(QStringLiteral("input_per_mtok"), -1);
        rows.replace(0, row);
        bad.insert(QStringLiteral("models"), rows);
        QCOMPARE(PriceTable::fromJson(bad).error().kind, ErrorKind::Corrupt);
    }

    void priceTableIsStoredWithAppSettings()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("settings.ini"));
        {
            QSettings s(file, QSettings::IniFormat);
            QCOMPARE(AppSettings::load(s).prices, PriceTable::defaults()); // nothing stored: the defaults
            AppSettings a = AppSettings::load(s);
            a.prices = simpleTable();
            a.session.budgetUsd = 2.5;
            a.save(s);
        }
        {
            QSettings s(file, QSettings::IniFormat);
            const AppSettings a = AppSettings::load(s);
            QCOMPARE(a.prices, simpleTable());
            QCOMPARE(a.session.budgetUsd, 2.5);
            s.setValue(QStringLiteral("cost/priceTable"), QStringLiteral("{not json"));
            s.setValue(QStringLiteral("session/budgetUsd"), -4);
            QCOMPARE(AppSettings::load(s).prices, PriceTable::defaults()); // a broken table falls back
            QCOMPARE(AppSettings::load(s).session.budgetUsd, 0.0);
        }
    }

    void budgetRefusesBeforeSending()
    {
        FakeServer fake;
        QVERIFY(fake.start(0));
        QTemporaryDir dir;
        ClientConfig cfg;
        cfg.baseUrl = fake.baseUrl();
        cfg.apiKey = ApiKey(QStringLiteral("test-key"), QStringLiteral("test"));
        cfg.maxRetries = 0;
        cfg.model = kLite;
        SessionController c;
        c.setClient(std::make_shared<InteractionsClient>(cfg));
        SessionSettings s;
        s.budgetUsd = 0.05; // the default table: about $0.034 a turn
        c.setSettings(s);
        QVERIFY(c.open(dir.path()));
        QVERIFY(c.waitForIdle(10000));

        const Result<QString> first = c.generate(TurnParams {QStringLiteral("a red fox"), {}, {}, false});
        QVERIFY2(first, qPrintable(first.error().message));
        QVERIFY(c.waitForIdle(20000));
        const Frame done = c.graph().value(first.value());
        QCOMPARE(done.status, FrameStatus::Done);
        QVERIFY(done.usage.imageOutputTokens > 0); // the split by modality reached the frame
        const int requestsBefore = int(fake.requests().size());
        const int framesBefore = c.graph().size();

        const Result<QString> second = c.generate(TurnParams {QStringLiteral("a blue fox"), {}, {}, false});
        QVERIFY(!second);
        QCOMPARE(second.error().kind, ErrorKind::Budget);
        const Result<QString> edit = c.edit(first.value(), TurnParams {QStringLiteral("add snow"), {}, {}, false});
        QCOMPARE(edit.error().kind, ErrorKind::Budget);
        QVERIFY(c.waitForIdle(5000));
        QCOMPARE(int(fake.requests().size()), requestsBefore); // nothing was sent
        QCOMPARE(c.graph().size(), framesBefore);              // nothing was added

        // A larger budget lets the same turn through.
        s.budgetUsd = 1;
        c.setSettings(s);
        QVERIFY(c.generate(TurnParams {QStringLiteral("a blue fox"), {}, {}, false}));
        QVERIFY(c.waitForIdle(20000));
        QCOMPARE(int(fake.requests().size()), requestsBefore + 1);
    }
};

QTEST_GUILESS_MAIN(tst_CostLedger)
#include "tst_costledger.moc"
