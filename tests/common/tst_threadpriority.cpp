// lowerThisThreadPriority(): the calling thread, and only it, goes 10 nice steps down, once.
#include "core/common/threadpriority.h"

#include <QtTest>

#include <algorithm>
#include <cerrno>
#include <thread>

#include <sys/resource.h>
#include <unistd.h>

namespace {

int niceOfThisThread()
{
    errno = 0;
    const int n = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
    return errno == 0 ? n : -100;
}

} // namespace

class TstThreadPriority : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lowersOnlyTheCallingThreadAndOnlyOnce()
    {
        const int main = niceOfThisThread();
        QVERIFY(main != -100);
        int first = -100, second = -100;
        std::thread worker([&] {
            nb2::lowerThisThreadPriority();
            first = niceOfThisThread();
            nb2::lowerThisThreadPriority(); // a pool thread runs many tasks: no deeper each time
            second = niceOfThisThread();
        });
        worker.join();
        QCOMPARE(first, std::min(19, main + 10));
        QCOMPARE(second, first);
        QCOMPARE(niceOfThisThread(), main);
    }

    void staysWithinTheNiceRange()
    {
        int reached = -100;
        std::thread worker([&] {
            nb2::lowerThisThreadPriority(40);
            reached = niceOfThisThread();
        });
        worker.join();
        QCOMPARE(reached, 19);
    }
};

QTEST_GUILESS_MAIN(TstThreadPriority)
#include "tst_threadpriority.moc"
