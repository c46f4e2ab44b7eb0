#pragma once

#include "core/api/cancellation.h"

#include <atomic>
#include <thread>

namespace nb2 {

/**
 * Turns the first SIGINT/SIGTERM into a cancel of the call in flight, so Ctrl-C ends a
 * slow request with a clean "cancelled" result (and exit status) instead of a dead
 * process; a second signal exits at once. The signals are blocked in every thread and
 * collected by one waiting thread, so no work happens in a signal handler. Construct it
 * before any other thread starts.
 */
class SignalCanceller
{
public:
    SignalCanceller();
    ~SignalCanceller();

    SignalCanceller(const SignalCanceller &) = delete;
    SignalCanceller &operator=(const SignalCanceller &) = delete;

    CancelTokenPtr token() const { return m_token; }

private:
    CancelTokenPtr m_token;
    std::atomic<bool> m_stop{false};
    std::thread m_waiter;
};

} // namespace nb2
