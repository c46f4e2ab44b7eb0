#include "app/studio/backgroundpool.h"

#include "core/common/threadpriority.h"

namespace nb2 {

BackgroundPool::BackgroundPool(QObject *parent) : QThreadPool(parent)
{
    // One thread, kept: it is lowered by its first task and every later task runs on it.
    setMaxThreadCount(1);
    setExpiryTimeout(-1);
    start([] { lowerThisThreadPriority(kNice); });
}

BackgroundPool::~BackgroundPool()
{
    waitForDone();
}

} // namespace nb2
