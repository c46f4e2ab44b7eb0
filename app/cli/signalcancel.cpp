#include "app/cli/signalcancel.h"

#include <csignal>
#include <ctime>
#include <pthread.h>
#include <unistd.h>

namespace nb2 {

namespace {

sigset_t cancelSignals()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return set;
}

} // namespace

SignalCanceller::SignalCanceller() : m_token(std::make_shared<CancelToken>())
{
    const sigset_t set = cancelSignals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr); // inherited by every thread started later
    m_waiter = std::thread([this, set] {
        const timespec tick {0, 100'000'000}; // re-check m_stop ten times a second
        while (!m_stop.load()) {
            const int signal = sigtimedwait(&set, nullptr, &tick);
            if (signal <= 0 || m_stop.load())
                continue; // (the destructor's wake-up is not the user's signal)
            // Nothing to cancel cleanly, or the second Ctrl-C: the user really wants out.
            if (!m_cancelsCleanly.load() || m_token->isCancelled())
                _exit(128 + signal);
            m_token->cancel();
        }
    });
}

SignalCanceller::~SignalCanceller()
{
    m_stop.store(true);
    if (m_waiter.joinable()) {
        // Wake the waiter now instead of at its next tick: every nb2lite process used to spend
        // up to 100 ms (50 on average) of its exit here, a third of a zero-latency turn.
        pthread_kill(m_waiter.native_handle(), SIGTERM);
        m_waiter.join();
    }
}

} // namespace nb2
