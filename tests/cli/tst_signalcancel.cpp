// SignalCanceller (app/cli/signalcancel.h): a signal cancels the token once the command
// cancels cleanly, and the canceller ends at once when destroyed — it used to wait for a
// 100 ms tick, which every nb2lite process paid at exit.

#include "app/cli/signalcancel.h"

#include <QElapsedTimer>
#include <QTest>

#include <csignal>
#include <sys/wait.h>
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
        // In a child process: QtTest's own threads do not block SIGTERM, so in this process the
        // signal could land on one of them instead of the canceller's waiter.
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            SignalCanceller canceller;
            canceller.setCancelsCleanly(true);
            const CancelTokenPtr token = canceller.token();
            if (token->isCancelled())
                ::_exit(2);
            ::kill(::getpid(), SIGTERM); // blocked in every thread: only the waiter takes it
            for (int i = 0; i < 1000 && !token->isCancelled(); ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            ::_exit(token->isCancelled() ? 0 : 3);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY2(WIFEXITED(status), "the child was killed by the signal instead of cancelling");
        QCOMPARE(WEXITSTATUS(status), 0);
    }
};

QTEST_GUILESS_MAIN(tst_SignalCancel)
#include "tst_signalcancel.moc"
