#include "app/studio/backgroundpool.h"

#include <algorithm>
#include <cerrno>

#include <sys/resource.h>
#include <unistd.h>

namespace nb2 {

BackgroundPool::BackgroundPool(QObject *parent) : QThreadPool(parent)
{
    // One thread, kept: it is lowered by its first task and every later task runs on it.
    setMaxThreadCount(1);
    setExpiryTimeout(-1);
    start([] {
        // Relative to the process's own nice value (a niced start stays niced), at most 19.
        // Raising it needs no privilege; it applies to this thread only (Linux).
        const auto self = static_cast<id_t>(gettid());
        errno = 0;
        const int current = getpriority(PRIO_PROCESS, self);
        if (errno == 0)
            setpriority(PRIO_PROCESS, self, std::min(19, current + kNice));
    });
}

BackgroundPool::~BackgroundPool()
{
    waitForDone();
}

} // namespace nb2
