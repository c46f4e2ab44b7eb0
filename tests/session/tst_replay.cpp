// Replay a chain (issue 14): the plan from a range, the dry run's numbers, the budget, the
// queue against the fake (onto a frame, onto photos), the replay_of links, a 429, and a run
// destroyed mid-queue then resumed without sending any step twice.

#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/costledger.h"
#include "core/session/replayplan.h"
#include "core/session/replayqueue.h"
#include "core/session/replayrunner.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "replaytestsession.h"
#include "sessiontestutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace nb2;

namespace {

const QString kLite = QStringLiteral("gemini-3.1-flash-lite-image");
const QString kOther = QStringLiteral("gemini-3-pro-image");

TurnParams p(const QString &prompt)
{
    TurnParams t;
    t.prompt = prompt;
    return t;
}

bool hasInlineImage(const QJsonValue &v)
{
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        if (o.value(QStringLiteral("type")).toString() == QLatin1String("image") && o.contains(QStringLiteral("data")))
            return true;
        for (const QJsonValue &c : o)
            if (hasInlineImage(c))
                return true;
    } else if (v.isArray()) {
        for (const QJsonValue &c : v.toArray())
            if (hasInlineImage(c))
                return true;
    }
    return false;
}

/** The create requests the fake saw, in order: their prompt-bearing body, previous id and whether a picture went inline. */
struct Sent {
    QString body;
    QString previousId;
    bool inlineImage = false;
};

} // namespace

class tst_Replay : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeServer> m_fake;
    std::unique_ptr<QTemporaryDir> m_tmp;

    void openSession(SessionController &c, const QString &model = kLite, int maxRetries = 0)
    {
        test::openReplaySession(c, *m_fake, m_tmp->path(), model, maxRetries);
    }

    static Frame finish(SessionController &c, const Result<QString> &r) { return test::finishedFrame(c, r); }

    /** generate "a red fox" -> night -> lantern -> snow: returns {root, e1, e2, e3}. */
    static QStringList makeChain(SessionController &c) { return test::makeFoxChain(c, 3); }

    QList<Sent> creates() const
    {
        QList<Sent> out;
        for (const FakeRequest &r : m_fake->requests()) {
            if (r.method != QLatin1String("POST") || !r.path.endsWith(QLatin1String("/interactions")))
                continue;
            const QJsonObject o = QJsonDocument::fromJson(r.body).object();
            Sent s;
            s.body = QString::fromUtf8(r.body);
            s.previousId = o.value(QStringLiteral("previous_interaction_id")).toString();
            s.inlineImage = hasInlineImage(o.value(QStringLiteral("input")));
            out.append(s);
        }
        return out;
    }

    int createsWith(const QString &prompt) const
    {
        int n = 0;
        for (const Sent &s : creates())
            n += s.body.contains(prompt) ? 1 : 0;
        return n;
    }

    static bool runToEnd(ReplayRunner &runner, int timeoutMs = 60000)
    {
        QSignalSpy done(&runner, &ReplayRunner::finished);
        if (!runner.start())
            return false;
        return done.count() > 0 || done.wait(timeoutMs);
    }

private Q_SLOTS:
    void init()
    {
        FakeServerOptions options;
        options.models = {kLite, kOther};
        m_fake = std::make_unique<FakeServer>(options);
        QVERIFY(m_fake->start(0));
        m_tmp = std::make_unique<QTemporaryDir>();
    }

    void cleanup()
    {
        m_fake.reset();
        m_tmp.reset();
    }

    void planFromRange()
    {
        SessionController c;
        openSession(c);
        const QStringList chain = makeChain(c);
        QCOMPARE(chain.size(), 4);
        const Frame sibling = finish(c, c.branchFrom(chain[1], p(QStringLiteral("a side branch"))));

        // FROM..TO: both ends included, in order.
        const Result<ReplayPlan> plan = planReplayOnto(c.graph(), chain[1], chain[3], chain[0]);
        QVERIFY2(plan, qPrintable(plan.error().message));
        QCOMPARE(plan.value().steps.size(), 3);
        QCOMPARE(plan.value().steps[0].prompt, QStringLiteral("make it night"));
        QCOMPARE(plan.value().steps[2].prompt, QStringLiteral("let it snow"));
        QCOMPARE(plan.value().steps[1].sourceFrameId, chain[2]);
        QCOMPARE(plan.value().turns(), 3);
        // A single frame is a range of one.
        QCOMPARE(planReplayOnto(c.graph(), chain[2], chain[2], chain[0]).value().steps.size(), 1);

        // Invalid ranges: reversed, across branches, unknown frames, a target with no picture.
        const Result<ReplayPlan> reversed = planReplayOnto(c.graph(), chain[3], chain[1], chain[0]);
        QVERIFY(!reversed);
        QCOMPARE(reversed.error().kind, ErrorKind::InvalidInput);
        QVERIFY2(
            reversed.error().message.contains(QStringLiteral("not on the path")), qPrintable(reversed.error().message));
        QVERIFY(!planReplayOnto(c.graph(), sibling.id, chain[3], chain[0]));
        QVERIFY(!planReplayOnto(c.graph(), QStringLiteral("deadbeef"), chain[3], chain[0]));
        QVERIFY(!planReplayOnto(c.graph(), chain[1], chain[3], QStringLiteral("deadbeef")));
        QVERIFY(!planReplayOnPhotos(c.graph(), chain[1], chain[3], {m_tmp->filePath(QStringLiteral("missing.jpg"))}));
        QVERIFY(!planReplayOnPhotos(c.graph(), chain[1], chain[3], {}));

        // Photos: files and folders (their pictures in name order).
        QDir(m_tmp->path()).mkpath(QStringLiteral("shoot"));
        test::writeFile(m_tmp->filePath(QStringLiteral("shoot/b.jpg")), test::jpegBytes(Qt::green));
        test::writeFile(m_tmp->filePath(QStringLiteral("shoot/a.png")), test::pngBytes(Qt::blue));
        test::writeFile(m_tmp->filePath(QStringLiteral("shoot/notes.txt")), "not a picture");
        const Result<ReplayPlan> photos
            = planReplayOnPhotos(c.graph(), chain[1], chain[3], {m_tmp->filePath(QStringLiteral("shoot"))});
        QVERIFY2(photos, qPrintable(photos.error().message));
        QCOMPARE(photos.value().targets.size(), 2);
        QVERIFY(photos.value().targets[0].photoFile.endsWith(QLatin1String("a.png")));
        QCOMPARE(photos.value().turns(), 6);
    }

    void dryRunEstimate()
    {
        SessionController c;
        openSession(c);
        const QStringList chain = makeChain(c);
        ReplayPlan plan = planReplayOnto(c.graph(), chain[1], chain[3], chain[0]).value();
        plan.targets.append(plan.targets.first()); // two copies: six turns
        const ReplayEstimate e = estimateReplay(c.graph(), c.priceTable(), plan, kLite);
        QCOMPARE(e.turns, 6);
        const TurnEstimate one = estimateTurn(c.graph(), c.priceTable(), FrameKind::Edit, kLite);
        QVERIFY(one.usd > 0);
        QCOMPARE(e.perTurnUsd, one.usd);
        QVERIFY(qAbs(e.totalUsd - 6 * one.usd) < 1e-12);
        QVERIFY(!e.basis.isEmpty());
    }

    void budgetRefusalSendsNothing()
    {
        SessionController c;
        openSession(c);
        const QStringList chain = makeChain(c);
        const CostLedger ledger(c.graph(), c.priceTable());
        SessionSettings s = c.settings();
        // Room for one more turn, not for three.
        s.budgetUsd = ledger.sessionTotal() + 1.5 * estimateTurn(c.graph(), c.priceTable(), FrameKind::Edit, kLite).usd;
        c.setSettings(s);
        const int requestsBefore = int(m_fake->requests().size());
        const int framesBefore = c.graph().size();
        test::writeFile(m_tmp->filePath(QStringLiteral("p.jpg")), test::jpegBytes());
        ReplayRunner runner(&c,
            ReplayState::create(
                planReplayOnPhotos(c.graph(), chain[1], chain[3], {m_tmp->filePath(QStringLiteral("p.jpg"))}).value(),
                kLite, {}));
        const Result<void> started = runner.start();
        QVERIFY(!started);
        QCOMPARE(started.error().kind, ErrorKind::Budget);
        QVERIFY(c.waitForIdle(5000));
        QCOMPARE(int(m_fake->requests().size()), requestsBefore); // the fake's log: nothing sent
        QCOMPARE(c.graph().size(), framesBefore);                 // not even the photo was imported
    }

    void replayOntoFrameLinksAndCompares()
    {
        QStringList chain;
        {
            SessionController c;
            openSession(c);
            chain = makeChain(c);
        }
        // Another model onto the chain's own start: a sibling branch, old vs new.
        SessionController c;
        openSession(c, kOther);
        const Frame start = c.graph().value(chain[0]);
        m_fake->clearRequests();
        ReplayRunner runner(
            &c, ReplayState::create(planReplayOnto(c.graph(), chain[1], chain[3], chain[0]).value(), kOther, {}));
        QVERIFY(runToEnd(runner));
        QCOMPARE(runner.state().status, ReplayStatus::Finished);
        QCOMPARE(runner.state().doneSteps(), 3);

        const QStringList children = c.graph().children(chain[0]);
        QCOMPARE(children.size(), 2); // the original chain and the replay, side by side
        QStringList made;
        for (const ReplayStepRun &r : runner.state().chains[0].steps)
            made << r.frameId;
        QCOMPARE(c.graph().parent(made[0]), chain[0]);
        QCOMPARE(c.graph().parent(made[1]), made[0]);
        QCOMPARE(c.graph().parent(made[2]), made[1]);
        for (int i = 0; i < 3; ++i) {
            const Frame f = c.graph().value(made[i]);
            QCOMPARE(f.status, FrameStatus::Done);
            QCOMPARE(f.replayOf, chain[i + 1]); // the link back
            QCOMPARE(f.replayRun, runner.state().id);
            QCOMPARE(f.model, kOther);
            QCOMPARE(f.prompt, c.graph().value(chain[i + 1]).prompt);
            QVERIFY2(!f.drift.isEmpty(), "every replayed frame gets its drift against its parent");
        }
        // The request log: the prompts in order, each continuing the one before.
        const QList<Sent> sent = creates();
        QCOMPARE(sent.size(), 3);
        QVERIFY(sent[0].body.contains(QStringLiteral("make it night")));
        QVERIFY(sent[1].body.contains(QStringLiteral("add a lantern")));
        QVERIFY(sent[2].body.contains(QStringLiteral("let it snow")));
        QCOMPARE(sent[0].previousId, start.interactionId);
        QCOMPARE(sent[1].previousId, c.graph().value(made[0]).interactionId);
        QCOMPARE(sent[2].previousId, c.graph().value(made[1]).interactionId);
        QVERIFY(!sent[0].inlineImage);

        // The links survive a reopen (manifest/journal), and the state file says finished.
        c.close();
        SessionStore reader;
        QVERIFY(reader.open(m_tmp->path(), SessionStore::OpenMode::OpenExisting));
        QCOMPARE(reader.graph().value(made[2]).replayOf, chain[3]);
        QCOMPARE(loadReplayState(m_tmp->path(), runner.state().id).value().status, ReplayStatus::Finished);
        QVERIFY(unfinishedReplays(m_tmp->path()).isEmpty());
    }

    void replayOntoTwoPhotos()
    {
        SessionController c;
        openSession(c);
        const QStringList chain = makeChain(c);
        const QString a = test::writeFile(m_tmp->filePath(QStringLiteral("a.jpg")), test::jpegBytes(Qt::green, 64, 48));
        const QString b = test::writeFile(m_tmp->filePath(QStringLiteral("b.png")), test::pngBytes(Qt::yellow, 48, 48));
        m_fake->clearRequests();
        ReplayRunner runner(
            &c, ReplayState::create(planReplayOnPhotos(c.graph(), chain[1], chain[3], {a, b}).value(), kLite, {}));
        QVERIFY(runToEnd(runner));
        QCOMPARE(runner.state().doneSteps(), 6);
        QCOMPARE(creates().size(), 6);
        for (const ReplayChain &rc : runner.state().chains) {
            const Frame root = c.graph().value(rc.startFrameId);
            QCOMPARE(root.kind, FrameKind::Import);
            QVERIFY(root.parentId.isEmpty());
            const Frame first = c.graph().value(rc.steps[0].frameId);
            QCOMPARE(first.parentId, root.id);
            QCOMPARE(first.kind, FrameKind::EditLocal); // the photo goes inline
            QCOMPARE(first.replayOf, chain[1]);
            for (int i = 1; i < 3; ++i) {
                const Frame f = c.graph().value(rc.steps[i].frameId);
                QCOMPARE(f.parentId, rc.steps[i - 1].frameId);
                QCOMPARE(f.kind, FrameKind::Edit);
                QCOMPARE(f.continuedInteractionId, c.graph().value(rc.steps[i - 1].frameId).interactionId);
                QCOMPARE(f.replayOf, chain[i + 1]);
            }
        }
        // Per chain, in order: an inline picture first, then continuations.
        int inlineFirst = 0;
        for (const Sent &s : creates())
            inlineFirst
                += s.body.contains(QStringLiteral("make it night")) && s.inlineImage && s.previousId.isEmpty() ? 1 : 0;
        QCOMPARE(inlineFirst, 2);
        QCOMPARE(createsWith(QStringLiteral("let it snow")), 2);
    }

    void rateLimitPausesThenContinues()
    {
        SessionController c;
        openSession(c); // maxRetries 0: the 429 reaches the runner, which waits and sends the same frame again
        const QStringList chain = makeChain(c);
        m_fake->clearRequests();
        FakeFault fault;
        fault.kind = FakeFault::Kind::RateLimit;
        fault.retryAfterSeconds = 1;
        m_fake->injectFault(fault, 1);
        ReplayRunner runner(
            &c, ReplayState::create(planReplayOnto(c.graph(), chain[1], chain[3], chain[3]).value(), kLite, {}));
        QSignalSpy paused(&runner, &ReplayRunner::paused);
        QSignalSpy resumed(&runner, &ReplayRunner::resumed);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(runToEnd(runner));
        QCOMPARE(paused.count(), 1);
        QVERIFY2(paused.first().at(0).toInt() >= 900, qPrintable(QString::number(paused.first().at(0).toInt())));
        QVERIFY(resumed.count() >= 1);
        QVERIFY(clock.elapsed() >= 900);
        QCOMPARE(runner.state().doneSteps(), 3);
        QCOMPARE(creates().size(), 4);                             // the refused one, then each step once
        QCOMPARE(createsWith(QStringLiteral("make it night")), 2); // refused (429: nothing created) and sent again
        QCOMPARE(c.graph().children(chain[3]).size(), 1);          // one frame for it, not two
    }

    void zeroQuotaStops()
    {
        Error e = Error::make(ErrorKind::RateLimited, QStringLiteral("quota"));
        e.api.serverMessage
            = QStringLiteral("Quota exceeded for metric: generate_content_free_tier_requests, limit: 0, model: x");
        QVERIFY(ReplayRunner::isZeroQuota(e));
        e.api.serverMessage = QStringLiteral("Quota exceeded for metric: requests, limit: 10");
        QVERIFY(!ReplayRunner::isZeroQuota(e));
        e.api.serverMessage = QStringLiteral("limit: 0");
        e.kind = ErrorKind::Server;
        QVERIFY(!ReplayRunner::isZeroQuota(e));
    }

    void destroyedMidReplayResumesWithoutResending()
    {
        QStringList chain;
        QString replayId;
        QString a, b;
        {
            SessionController c;
            openSession(c);
            chain = makeChain(c);
            a = test::writeFile(m_tmp->filePath(QStringLiteral("a.jpg")), test::jpegBytes(Qt::green, 64, 48));
            b = test::writeFile(m_tmp->filePath(QStringLiteral("b.jpg")), test::jpegBytes(Qt::cyan, 64, 48));
            m_fake->clearRequests();
            m_fake->setLatencyMs(150);
            auto runner = std::make_unique<ReplayRunner>(
                &c, ReplayState::create(planReplayOnPhotos(c.graph(), chain[1], chain[3], {a, b}).value(), kLite, {}));
            replayId = runner->state().id;
            QVERIFY(runner->start());
            QTRY_VERIFY_WITH_TIMEOUT(runner->state().doneSteps() >= 2, 30000);
            runner.reset(); // the app quits (or crashes) mid-queue: turns in flight finish without it
            QVERIFY(c.waitForIdle(30000));
        }
        const ReplayState cut = loadReplayState(m_tmp->path(), replayId).value();
        QVERIFY(cut.doneSteps() < 6);
        QCOMPARE(unfinishedReplays(m_tmp->path()).size(), 1);

        // Worst case of a crash: the record lost the last frame it made (written, then cut
        // before the record was). The resumed run must find it again by its replay_run tag.
        ReplayState damaged = cut;
        for (ReplayChain &rc : damaged.chains) {
            for (int i = int(rc.steps.size()) - 1; i >= 0; --i) {
                if (!rc.steps[i].frameId.isEmpty()) {
                    rc.steps[i] = ReplayStepRun {};
                    break;
                }
            }
        }
        QVERIFY(saveReplayState(m_tmp->path(), damaged));

        m_fake->setLatencyMs(0);
        SessionController c;
        openSession(c);
        const int framesBefore = c.graph().size();
        ReplayRunner resumed(&c, loadReplayState(m_tmp->path(), replayId).value());
        QVERIFY(runToEnd(resumed));
        QCOMPARE(resumed.state().status, ReplayStatus::Finished);
        QCOMPARE(resumed.state().doneSteps(), 6);
        // The fake's log over both runs: every step of every chain sent exactly once.
        QCOMPARE(creates().size(), 6);
        QCOMPARE(createsWith(QStringLiteral("make it night")), 2);
        QCOMPARE(createsWith(QStringLiteral("add a lantern")), 2);
        QCOMPARE(createsWith(QStringLiteral("let it snow")), 2);
        // And the session holds exactly 2 imports + 6 replayed frames from this run.
        int tagged = 0;
        for (const Frame &f : c.graph().frames())
            tagged += f.replayRun == replayId ? 1 : 0;
        QCOMPARE(tagged, 6);
        QVERIFY(c.graph().size() - framesBefore <= 6);
    }

    void stateRoundTrip()
    {
        ReplayPlan plan;
        plan.fromId = QStringLiteral("aaaaaaaa");
        plan.toId = QStringLiteral("bbbbbbbb");
        plan.steps = {ReplayStep {QStringLiteral("aaaaaaaa"), QStringLiteral("night"), QStringLiteral("low"), {}},
            ReplayStep {QStringLiteral("bbbbbbbb"), QStringLiteral("snow"), {}, QStringLiteral("note")}};
        ReplayTarget t;
        t.kind = ReplayTarget::Kind::Photo;
        t.photoFile = QStringLiteral("/tmp/x.jpg");
        plan.targets = {t};
        ReplayState s = ReplayState::create(plan, kLite, QStringLiteral("high"));
        s.chains[0].startFrameId = QStringLiteral("cccccccc");
        s.chains[0].steps[0] = ReplayStepRun {QStringLiteral("dddddddd"), ReplayStepState::Done, {}};
        const Result<ReplayState> back = ReplayState::fromJson(s.toJson());
        QVERIFY2(back, qPrintable(back.error().message));
        QCOMPARE(back.value().toJson(), s.toJson());
        QCOMPARE(back.value().unsentSteps(), 1);
        // Damaged records are refused, not guessed at.
        QJsonObject bad = s.toJson();
        bad.insert(QStringLiteral("id"), QStringLiteral("../../x"));
        QCOMPARE(ReplayState::fromJson(bad).error().kind, ErrorKind::Corrupt);
        QCOMPARE(loadReplayState(m_tmp->path(), QStringLiteral("../x")).error().kind, ErrorKind::InvalidInput);
    }
};

QTEST_GUILESS_MAIN(tst_Replay)
#include "tst_replay.moc"
