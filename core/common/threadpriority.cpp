#include "core/common/threadpriority.h"

#include <algorithm>
#include <cerrno>

#if defined(Q_OS_LINUX) || defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace nb2 {

void lowerThisThreadPriority(int niceSteps)
{
    thread_local bool lowered = false;
    if (lowered)
        return;
    lowered = true;
#if defined(__linux__)
    const auto self = static_cast<id_t>(gettid());
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, self);
    if (errno == 0)
        setpriority(PRIO_PROCESS, self, std::min(19, current + niceSteps));
#else
    (void)niceSteps;
#endif
}

bool helperThreadsWelcome()
{
#if defined(__linux__)
    // Nice values are per thread on Linux; the process's is its main thread's.
    return getpriority(PRIO_PROCESS, id_t(gettid())) <= getpriority(PRIO_PROCESS, id_t(getpid()));
#else
    return true;
#endif
}

} // namespace nb2
