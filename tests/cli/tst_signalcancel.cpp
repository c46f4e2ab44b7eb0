// SignalCanceller (app/cli/signalcancel.h): a signal cancels the token once the command
// cancels cleanly, and the canceller ends at once when destroyed — it used to wait for a
// 100 ms tick, which every nb2lite process paid at exit.

#include "app/cli/signalcancel.h"

#include <QElapsedTimer>
#include <QTest>

#include <csignal>
#include <thread>
#include <unistd.h>

using namespace nb2;

class tst_SignalCancel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void destroyedAtOnce()
    {
        double best = 1e9;
        for (int i = 0; i < 5; ++i) {
            auto canceller = std::make_unique<SignalCanceller>();
            std::this_thread::sleep_for(std::chrono::milliseconds(5)); // the waiter is waiting now
            QElapsedTimer t;
            t.start();
            canceller.reset();
            best = qMin(best, t.nsecsElapsed() / 1e6);
        }
        // A waiter that looked at a flag every 100 ms took ~95 ms here, every time.
        QVERIFY2(best < 40, qPrintable(QStringLiteral("%1 ms").arg(best)));
    }

    void signalCancelsTheToken()
    {
        SignalCanceller canceller;
        canceller.setCancelsCleanly(true);
        const CancelTokenPtr token = canceller.token();
        QVERIFY(!token->isCancelled());
        QCOMPARE(::kill(::getpid(), SIGTERM), 0); // blocked in every thread: only the waiter takes it
        QTRY_VERIFY_WITH_TIMEOUT(token->isCancelled(), 10'000);
    }
};

QTEST_GUILESS_MAIN(tst_SignalCancel)
#include "tst_signalcancel.moc"
