// The replay tests' GUI stall yardstick: how long this thread's event loop stopped turning.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace nb2::test {

/** Records the longest gap between turns of the event loop (a 1 ms timer on this thread). */
class StallMeter : public QObject
{
public:
    StallMeter()
    {
        m_timer.setInterval(1);
        connect(&m_timer, &QTimer::timeout, this, [this] { m_longest = qMax(m_longest, m_clock.restart()); });
        m_clock.start();
        m_timer.start();
    }
    qint64 longestMs() const { return qMax(m_longest, m_clock.elapsed()); } // the gap still open counts too

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_longest = 0;
};

} // namespace nb2::test
