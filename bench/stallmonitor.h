#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace nb2::bench {

/**
 * Measures how long the GUI thread's event loop stops answering: a 2 ms precise timer runs
 * while the monitor is active and the longest gap between its ticks, less the interval, is
 * the longest stall (what a user sees as a frozen frame when it passes 16 ms).
 */
class StallMonitor : public QObject
{
public:
    StallMonitor()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(2);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            m_longestNs = std::max(m_longestNs, now - m_last - 2'000'000);
            m_last = now;
        });
    }
    /**
     * Starts measuring now: the start counts as a tick, so work done right after start() (before
     * the timer first fires) is a stall too. (It was not counted before: a blocking open
     * called just after start() was invisible.)
     */
    void start()
    {
        m_longestNs = 0;
        m_clock.start();
        m_last = m_clock.nsecsElapsed();
        m_timer.start();
    }
    /** Stops and returns the longest stall in ms. */
    double stop()
    {
        m_longestNs = std::max(m_longestNs, m_clock.nsecsElapsed() - m_last - 2'000'000); // up to now
        m_timer.stop();
        return std::max<qint64>(m_longestNs, 0) / 1e6;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_longestNs = 0;
};

} // namespace nb2::bench
