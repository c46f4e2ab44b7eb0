#pragma once

#include <QThreadPool>

namespace nb2 {

/**
 * One worker thread at a lower CPU priority (lowerThisThreadPriority(), nice +10), for start-up
 * work the first frame does not need: the session's checkpoint preload. On two cores that parse
 * (~30 ms at 10,000 frames) ran beside the GUI thread, the font warm-up and the demo server's
 * start, and took CPU from the thread that builds and paints the window (issue 10, window start).
 * Only this pool's thread is lowered; the global pool keeps its priority.
 */
class BackgroundPool : public QThreadPool
{
public:
    static constexpr int kNice = 10;
    explicit BackgroundPool(QObject *parent = nullptr);
    ~BackgroundPool() override;
};

} // namespace nb2
