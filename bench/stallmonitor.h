#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QList>
#include <QObject>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace nb2::bench {

/**
 * Measures how long the GUI thread's event loop stops answering: a 2 ms precise timer runs
 * while the monitor is active and the longest gap between its ticks, less the interval, is
 * the longest stall (what a user sees as a frozen frame when it passes 16 ms).
 * It also says what the longest gap was made of: the GUI thread's own CPU time in it (the
 * app's work) and, on Linux, its time waiting in the run queue (runnable, but the CPU was
 * given to other threads or processes: the machine's load, not the app's work).
 *
 * With NB2_BENCH_STALL_TRACE=<ms> it prints every gap over that many ms to stderr, with its
 * start and end on CLOCK_MONOTONIC, the clock of `perf record -k CLOCK_MONOTONIC`: `perf script
 * --tid <pid> --time <start>,<end>` then shows what the GUI thread ran in exactly that stall.
 */
class StallMonitor : public QObject
{
public:
    StallMonitor()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(2);
        connect(&m_timer, &QTimer::timeout, this, [this] { tick(); });
    }
    /**
     * Starts measuring now: the start counts as a tick, so work done right after start() (before
     * the timer first fires) is a stall too. (It was not counted before: a blocking open
     * called just after start() was invisible.)
     */
    void start()
    {
        m_longestNs = 0;
        m_cpuInLongestNs = m_waitInLongestNs = 0;
        m_traceOverNs = qint64(qEnvironmentVariableIntValue("NB2_BENCH_STALL_TRACE")) * 1'000'000;
        m_clock.start();
        m_last = m_clock.nsecsElapsed();
        m_lastCpu = threadCpuNs();
        m_lastWait = runQueueWaitNs();
        m_timer.start();
    }
    /** Stops and returns the longest stall in ms (the time since the last tick included). */
    double stop()
    {
        tick();
        m_timer.stop();
        return std::max<qint64>(m_longestNs, 0) / 1e6;
    }
    /** The GUI thread's own CPU time during the longest stall, ms. */
    double cpuInLongestMs() const { return m_cpuInLongestNs / 1e6; }
    /** The GUI thread's time waiting for a CPU during the longest stall, ms (0 where unknown). */
    double runQueueWaitInLongestMs() const { return m_waitInLongestNs / 1e6; }

private:
    void tick()
    {
        const qint64 now = m_clock.nsecsElapsed();
        const qint64 cpu = threadCpuNs();
        const qint64 wait = runQueueWaitNs();
        if (m_traceOverNs > 0 && now - m_last - 2'000'000 > m_traceOverNs) {
            const double end = monotonicSeconds();
            std::fprintf(stderr, "  [stall] %.1f ms (GUI CPU %.1f, waiting for a CPU %.1f) monotonic %.6f,%.6f\n",
                (now - m_last - 2'000'000) / 1e6, (cpu - m_lastCpu) / 1e6, (wait - m_lastWait) / 1e6,
                end - (now - m_last) / 1e9, end);
        }
        if (now - m_last - 2'000'000 > m_longestNs) {
            m_longestNs = now - m_last - 2'000'000;
            m_cpuInLongestNs = cpu - m_lastCpu;
            m_waitInLongestNs = wait - m_lastWait;
        }
        m_last = now;
        m_lastCpu = cpu;
        m_lastWait = wait;
    }
    static qint64 threadCpuNs()
    {
        timespec ts {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
    }
    static double monotonicSeconds()
    {
        timespec ts {};
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return double(ts.tv_sec) + ts.tv_nsec / 1e9;
    }
    static qint64 runQueueWaitNs()
    {
        // Linux: "<cpu ns> <run-queue wait ns> <timeslices>" for the calling thread.
        QFile f(QStringLiteral("/proc/thread-self/schedstat"));
        if (!f.open(QIODevice::ReadOnly))
            return 0;
        const QList<QByteArray> parts = f.readAll().split(' ');
        return parts.size() > 1 ? parts.at(1).toLongLong() : 0;
    }

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_longestNs = 0;
    qint64 m_lastCpu = 0;
    qint64 m_lastWait = 0;
    qint64 m_cpuInLongestNs = 0;
    qint64 m_waitInLongestNs = 0;
    qint64 m_traceOverNs = 0; // NB2_BENCH_STALL_TRACE: 0 = off
};

} // namespace nb2::bench
