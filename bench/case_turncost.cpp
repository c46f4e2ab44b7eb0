// Case "turncost" (issue 10, case 4): the same edit on a 10,000-frame session (1,000 in a full
// run too; 200 in --quick) and on a 1-frame session, alternated run by run so that each ratio
// sample compares turns made moments apart. In process (SessionController: from the call to
// the image on disk and the session's record of it durable) and as the `nb2lite --json edit`
// process (from launch to exit), also with a budget set. Target: ratio <= 1.2.

#include "bench/benchcases.h"
#include "bench/benchcontext.h"

#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QDir>
#include <QElapsedTimer>

#include <utility>

namespace nb2::bench {

namespace {

/** One controller turn on the head of c's session: edit, wait for it, wait until it is durable. */
double controllerTurn(SessionController &c, int i, QString *error)
{
    QElapsedTimer t;
    t.start();
    TurnParams p;
    p.prompt = QStringLiteral("turn %1: a little more light on the water").arg(i);
    const Result<QString> head = c.resolveFrameRef(QStringLiteral("head"));
    const Result<QString> r = head ? c.edit(head.value(), p) : Result<QString>(head.error());
    if (!r || !c.waitForIdle(60000) || !c.graph().frame(r.value())->isDone()) {
        *error = r ? c.graph().frame(r.value())->error.message : r.error().message;
        return -1;
    }
    if (const Result<void> flushed = c.store()->flush(); !flushed) {
        *error = flushed.error().message;
        return -1;
    }
    return t.nsecsElapsed() / 1e6;
}

} // namespace

void runTurnCost(Context &ctx)
{
    const QString kCase = QStringLiteral("turncost");
    std::unique_ptr<FakeServer> fake = startFake();
    if (!fake)
        return ctx.report->addError(kCase, QStringLiteral("the fake server did not start"));
    const Result<QString> one = ensureSession(ctx, 1);
    if (!one)
        return ctx.report->addError(kCase, one.error().message);
    for (int n : ctx.bigSizes()) {
        const Result<QString> big = ensureSession(ctx, n);
        if (!big)
            return ctx.report->addError(kCase, big.error().message);
        const Result<QString> smallCopy = copySession(one.value(), ctx.scratchDir + QStringLiteral("/turncost-1"));
        const Result<QString> bigCopy
            = copySession(big.value(), ctx.scratchDir + QStringLiteral("/turncost-%1").arg(n));
        if (!smallCopy || !bigCopy)
            return ctx.report->addError(kCase, (!smallCopy ? smallCopy : bigCopy).error().message);
        const int runs = ctx.runs(15);

        // In process: both sessions open side by side, turns alternated.
        {
            SessionSettings s;
            s.recoverOnOpen = false;
            SessionController small, large;
            for (SessionController *c : {&small, &large}) {
                c->setClient(clientFor(*fake));
                c->setSettings(s);
            }
            if (!small.open(smallCopy.value()) || !large.open(bigCopy.value()))
                return ctx.report->addError(kCase, QStringLiteral("cannot open the sessions"));
            QString error;
            controllerTurn(small, -1, &error); // warm both paths
            controllerTurn(large, -1, &error);
            Figure fs {kCase, QStringLiteral("controller turn, 1 frame"), QStringLiteral("ms"), {}, Goal::None, 0, {}};
            Figure fl {kCase, QStringLiteral("controller turn, %1 frames").arg(n), QStringLiteral("ms"), {}, Goal::None,
                0, {}};
            Figure ratio {kCase, QStringLiteral("controller turn ratio, %1 frames / 1 frame").arg(n),
                QStringLiteral("x"), {}, Goal::AtMost, 1.2, {}};
            for (int r = 0; r < runs; ++r) {
                const bool smallFirst = r % 2 == 0;
                double a = 0, b = 0;
                if (smallFirst) {
                    a = controllerTurn(small, r, &error);
                    b = controllerTurn(large, r, &error);
                } else {
                    b = controllerTurn(large, r, &error);
                    a = controllerTurn(small, r, &error);
                }
                if (a < 0 || b < 0)
                    return ctx.report->addError(kCase, error);
                fs.samples.push_back(a);
                fl.samples.push_back(b);
                ratio.samples.push_back(b / a);
            }
            ctx.report->add(fs);
            ctx.report->add(fl);
            ctx.report->add(ratio);
        }

        // As the CLI process, launch to exit.
        {
            const QProcessEnvironment env = cliEnvironment(*fake);
            // NB2_BENCH_CLI: another build's nb2lite (a before/after comparison in one run).
            const QString cli = qEnvironmentVariable("NB2_BENCH_CLI", ctx.cliPath);
            // With a budget the turn first sums what every frame cost (CostLedger::checkBudget):
            // that pass must not build the big session's frames either.
            auto cliTurn = [&](const QString &dir, int i, bool budget, QString *error) {
                QStringList args {QStringLiteral("--session"), dir, QStringLiteral("--json")};
                if (budget)
                    args << QStringLiteral("--budget") << QStringLiteral("100000");
                args << QStringLiteral("edit") << QStringLiteral("head")
                     << QStringLiteral("cli turn %1: a little more light on the water").arg(i);
                return runProcess(cli, args, env, 120000, error);
            };
            QString error;
            cliTurn(smallCopy.value(), -1, false, &error);
            cliTurn(bigCopy.value(), -1, false, &error);
            Figure fs {
                kCase, QStringLiteral("nb2lite edit process, 1 frame"), QStringLiteral("ms"), {}, Goal::None, 0, {}};
            Figure fl {kCase, QStringLiteral("nb2lite edit process, %1 frames").arg(n), QStringLiteral("ms"), {},
                Goal::None, 0, {}};
            Figure ratio {kCase, QStringLiteral("nb2lite edit ratio, %1 frames / 1 frame").arg(n), QStringLiteral("x"),
                {}, Goal::AtMost, 1.2, {}};
            Figure budgetRatio {kCase, QStringLiteral("nb2lite edit --budget ratio, %1 frames / 1 frame").arg(n),
                QStringLiteral("x"), {}, Goal::AtMost, 1.2, {}};
            // One pair of turns, the two sessions in alternating order: {1 frame, N frames}.
            auto pair = [&](int r, bool budget) -> std::pair<double, double> {
                double a = 0, b = 0;
                if (r % 2 == 0) {
                    a = cliTurn(smallCopy.value(), r, budget, &error);
                    b = cliTurn(bigCopy.value(), r, budget, &error);
                } else {
                    b = cliTurn(bigCopy.value(), r, budget, &error);
                    a = cliTurn(smallCopy.value(), r, budget, &error);
                }
                return {a, b};
            };
            for (int r = 0; r < runs; ++r) {
                const auto [a, b] = pair(r, false);
                const auto [ba, bb] = pair(r + 1, true); // r + 1: the other session goes first
                if (a < 0 || b < 0 || ba < 0 || bb < 0)
                    return ctx.report->addError(kCase, error);
                fs.samples.push_back(a);
                fl.samples.push_back(b);
                ratio.samples.push_back(b / a);
                budgetRatio.samples.push_back(bb / ba);
            }
            ctx.report->add(fs);
            ctx.report->add(fl);
            ctx.report->add(ratio);
            ctx.report->add(budgetRatio);
        }
        QDir(smallCopy.value()).removeRecursively();
        QDir(bigCopy.value()).removeRecursively();
    }
}

} // namespace nb2::bench
