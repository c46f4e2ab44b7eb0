#include "core/api/cancellation.h"

#include <chrono>

namespace nb2 {

void CancelToken::cancel()
{
    std::function<void()> hook;
    {
        std::lock_guard lock(m_mutex);
        if (m_cancelled)
            return;
        m_cancelled = true;
        hook = m_abortHook;
    }
    m_cv.notify_all();
    // Run outside the lock: the hook may take its own locks (the transfer's state).
    if (hook)
        hook();
}

bool CancelToken::isCancelled() const
{
    std::lock_guard lock(m_mutex);
    return m_cancelled;
}

bool CancelToken::sleepFor(int ms)
{
    std::unique_lock lock(m_mutex);
    if (ms > 0)
        m_cv.wait_for(lock, std::chrono::milliseconds(ms), [this] { return m_cancelled; });
    return !m_cancelled;
}

void CancelToken::setAbortHook(std::function<void()> hook)
{
    bool runNow = false;
    {
        std::lock_guard lock(m_mutex);
        m_abortHook = hook;
        runNow = m_cancelled && hook;
    }
    if (runNow)
        hook();
}

} // namespace nb2
