#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

namespace nb2 {

/**
 * Lets another thread cancel one call at any time. The client registers an abort hook for
 * the connection in flight and waits on the token while it backs off, so cancel() takes
 * effect within milliseconds rather than at the next timeout.
 */
class CancelToken
{
public:
    void cancel();
    bool isCancelled() const;

    /** Sleeps up to ms; returns false if cancelled meanwhile. */
    bool sleepFor(int ms);

    /** Installs the hook cancel() calls (runs it at once if already cancelled); pass {} to clear. */
    void setAbortHook(std::function<void()> hook);

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_cancelled = false;
    std::function<void()> m_abortHook;
};

using CancelTokenPtr = std::shared_ptr<CancelToken>;

} // namespace nb2
