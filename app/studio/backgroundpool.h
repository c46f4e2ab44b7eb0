#pragma once

#include <QThreadPool>

namespace nb2 {

/**
 * One worker thread at a lower CPU priority (nice +10), for start-up work the first frame does
 * not need: the session's checkpoint preload. On two cores that parse (~30 ms at 10,000 frames)
 * ran beside the GUI thread, the font warm-up and the demo server's start, and took CPU from the
 * thread that builds and paints the window (issue 10, window start: the first paint on 10,000
 * frames took ~7 ms longer than on an empty session). At nice +10 a thread sharing a core with the
 * GUI thread gets ~10% of it; the parse still runs at full speed on an idle core, and once the
 * window has painted (when the GUI thread waits for it). Not QThread::IdlePriority (SCHED_IDLE):
 * that starves behind any busy process, and an unprivileged thread cannot undo it. Only this
 * pool's thread is lowered; the global pool keeps its priority.
 */
class BackgroundPool : public QThreadPool
{
public:
    static constexpr int kNice = 10;
    explicit BackgroundPool(QObject *parent = nullptr);
    ~BackgroundPool() override;
};

} // namespace nb2
