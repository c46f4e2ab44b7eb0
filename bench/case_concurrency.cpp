// Case "concurrency" (issue 10, case 6): against a fake with 1 s latency, 8 turns on 8 branches
// at once (wall <= 1.3 s) and 32 queued turns with concurrency 4 (wall <= 8.5 s), with the GUI
// thread's longest stall measured meanwhile (<= 16 ms).

#include "bench/benchcases.h"
#include "bench/benchcontext.h"
#include "bench/stallmonitor.h"

#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QElapsedTimer>

namespace nb2::bench {

void runConcurrency(Context &ctx)
{
    const QString kCase = QStringLiteral("concurrency");
    std::unique_ptr<FakeServer> fake = startFake(1000);
    if (!fake)
        return ctx.report->addError(kCase, QStringLiteral("the fake server did not start"));
    struct Scenario {
        int turns;
        int limit;
        double target;
    };
    const Scenario full[] = {{8, 8, 1300}, {32, 4, 8500}};
    const Scenario quick[] = {{8, 8, 1300}, {8, 4, 2500}}; // --quick: proves it runs
    const auto &scenarios = ctx.quick ? quick : full;
    for (const Scenario &sc : scenarios) {
        Figure wall {kCase, QStringLiteral("%1 turns, concurrency %2, 1 s latency: wall").arg(sc.turns).arg(sc.limit),
            QStringLiteral("ms"), {}, Goal::AtMost, sc.target, {}};
        Figure stall {kCase, QStringLiteral("%1 turns, concurrency %2: longest GUI stall").arg(sc.turns).arg(sc.limit),
            QStringLiteral("ms"), {}, Goal::AtMost, 16, {}};
        for (int r = 0; r < ctx.runs(3, 1); ++r) {
            const QString dir
                = QStringLiteral("%1/concurrency-%2-%3-%4").arg(ctx.scratchDir).arg(sc.turns).arg(sc.limit).arg(r);
            SessionController c;
            c.setClient(clientFor(*fake));
            SessionSettings s;
            s.concurrencyLimit = sc.limit;
            s.recoverOnOpen = false;
            c.setSettings(s);
            if (!c.open(dir))
                return ctx.report->addError(kCase, QStringLiteral("cannot open %1").arg(dir));
            // A root to branch from (not timed).
            fake->setLatencyMs(0);
            const Result<QString> root
                = c.generate(TurnParams {QStringLiteral("a harbour"), QStringLiteral("1:1"), {}, false});
            if (!root || !c.waitForIdle(60000))
                return ctx.report->addError(kCase, QStringLiteral("the root turn failed"));
            fake->setLatencyMs(1000);
            StallMonitor monitor;
            monitor.start();
            QElapsedTimer t;
            t.start();
            for (int i = 0; i < sc.turns; ++i) {
                TurnParams p {QStringLiteral("branch %1: a different sky").arg(i), {}, {}, true};
                if (!c.branchFrom(root.value(), p))
                    return ctx.report->addError(kCase, QStringLiteral("branchFrom refused"));
            }
            // Wait as the app does: the event loop runs (waitForIdle() would also block on flush()).
            if (!waitUntil([&c] { return c.isIdle(); }, 120000))
                return ctx.report->addError(kCase, QStringLiteral("turns did not finish"));
            wall.samples.push_back(t.nsecsElapsed() / 1e6);
            stall.samples.push_back(monitor.stop());
            int done = 0;
            for (const Frame &f : c.graph().frames())
                done += f.isDone() ? 1 : 0;
            if (done != sc.turns + 1)
                return ctx.report->addError(kCase, QStringLiteral("%1 of %2 turns done").arg(done - 1).arg(sc.turns));
            c.close();
        }
        ctx.report->add(wall);
        ctx.report->add(stall);
    }
}

} // namespace nb2::bench
