#pragma once

#include "core/api/cancellation.h"

#include <atomic>
#include <thread>

namespace nb2 {

/**
 * Turns the first SIGINT/SIGTERM into a cancel of the call in flight, so Ctrl-C ends a
 * slow request with a clean "cancelled" result (and exit status) instead of a dead
 * process; a second signal exits at once. Until a command declares that it cancels cleanly,
 * the first signal exits at once too, as if no handler were installed. The signals are
 * blocked in every thread and collected by one waiting thread, so no work happens in a
 * signal handler. Construct it first thing in main(), before any other thread starts, so that
 * no signal can arrive before it is in place.
 */
class SignalCanceller
{
public:
    SignalCanceller();
    ~SignalCanceller();

    SignalCanceller(const SignalCanceller &) = delete;
    SignalCanceller &operator=(const SignalCanceller &) = delete;

    CancelTokenPtr token() const { return m_token; }
    /** The running command cancels token() cleanly: from now on the first signal cancels, the second exits. */
    void setCancelsCleanly(bool clean) { m_cancelsCleanly.store(clean); }

private:
    CancelTokenPtr m_token;
    std::atomic<bool> m_stop {false};
    std::atomic<bool> m_cancelsCleanly {false};
    std::thread m_waiter;
};

} // namespace nb2
