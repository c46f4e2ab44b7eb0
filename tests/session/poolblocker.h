#pragma once

// Holds every thread of the global pool until released, so work started meanwhile (a drift
// measurement, a composite) stays queued: a test knows, without timing, that the work has not
// run yet. Release it before anything waits for that work: with Qt 6.4, QImage's smooth
// scaling runs its slices on the global pool too, so work run while the pool is held deadlocks.

#include <QSemaphore>
#include <QThreadPool>

namespace nb2::test {

class PoolBlocker
{
public:
    PoolBlocker() = default;
    /** Returns once every pool thread is held (after the work already running has finished). */
    void hold()
    {
        if (m_threads > 0)
            return;
        m_threads = QThreadPool::globalInstance()->maxThreadCount();
        for (int i = 0; i < m_threads; ++i) {
            QThreadPool::globalInstance()->start([this] {
                m_held.release();
                m_release.acquire();
            });
        }
        m_held.acquire(m_threads);
    }
    ~PoolBlocker()
    {
        release();
        QThreadPool::globalInstance()->waitForDone(); // m_release must outlive the held threads
    }
    PoolBlocker(const PoolBlocker &) = delete;
    PoolBlocker &operator=(const PoolBlocker &) = delete;

    /** Lets the pool run again (what was queued behind us starts now). */
    void release() { m_release.release(std::exchange(m_threads, 0)); }

private:
    int m_threads = 0;
    QSemaphore m_held;
    QSemaphore m_release;
};

} // namespace nb2::test
