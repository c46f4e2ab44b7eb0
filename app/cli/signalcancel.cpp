#include "app/cli/signalcancel.h"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
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
    // The waiter sleeps until a signal or the destructor's wake-up. It used to wake every
    // 100 ms to look at a stop flag, and the destructor waited for that tick: every nb2lite
    // process ended up to 100 ms (50 on average) after its work was done.
    m_signalFd = signalfd(-1, &set, SFD_CLOEXEC);
    m_wakeFd = eventfd(0, EFD_CLOEXEC);
    m_waiter = std::thread([this] {
        while (!m_stop.load()) {
            pollfd fds[2] = {{m_signalFd, POLLIN, 0}, {m_wakeFd, POLLIN, 0}};
            if (poll(fds, 2, -1) < 0) {
                if (errno == EINTR)
                    continue;
                return; // cannot wait: signals stay blocked, as before a command cancels cleanly
            }
            if (fds[1].revents)
                return; // the destructor
            signalfd_siginfo info {};
            if (!(fds[0].revents & POLLIN) || read(m_signalFd, &info, sizeof info) != ssize_t(sizeof info))
                continue;
            const int signal = int(info.ssi_signo);
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
    const std::uint64_t one = 1;
    if (m_wakeFd >= 0 && write(m_wakeFd, &one, sizeof one) < 0) {
        // An eventfd write only fails when the counter would overflow: it is already awake.
    }
    if (m_waiter.joinable())
        m_waiter.join();
    if (m_signalFd >= 0)
        close(m_signalFd);
    if (m_wakeFd >= 0)
        close(m_wakeFd);
}

} // namespace nb2
