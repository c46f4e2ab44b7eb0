#pragma once

#include <QHash>
#include <QList>
#include <QString>

#include <atomic>
#include <vector>

namespace nb2 {

struct Frame;

/** One timeline row: a live frame and its place in the graph's shape (TimelineModel's rows). */
struct TimelineRow {
    QString id;
    QString parentId; // as the graph had it when the row was made (to see that it still holds)
    int parentRow = -1;
    int depth = 0;
    int lane = 0;
    int childCount = 0;
    int number = 0;
};

/**
 * What the timeline model computes per frame, as one value: the rows, each id's row, the lane
 * count and how many graph frames (trashed included) they were made from. Plain data with no
 * link to the session, so it can be built on a worker and handed to the GUI thread by value.
 */
struct TimelineRows {
    QList<TimelineRow> rows;
    QHash<QString, int> rowOf;
    int laneCount = 0;
    qsizetype frameCount = 0;
};

/** The part of a frame the rows are made from: what the GUI thread copies for a worker. */
struct TimelineRowSource {
    QString id;
    QString parentId;
    bool trashed = false;
};

/** The graph's frames (creation order, trashed included) as row sources: cheap copies of two strings each. */
std::vector<TimelineRowSource> timelineRowSources(const QList<Frame> &frames);

/**
 * The rows of the live frames, in creation order: a frame stays in its parent's lane when it is
 * the parent's first live child, any later child opens a new lane; numbers count trashed frames
 * too. A pure function: it runs on the GUI thread (TimelineModel::reload) or on a worker
 * (a background open) with the same result.
 */
TimelineRows buildTimelineRows(const std::vector<TimelineRowSource> &frames);
TimelineRows buildTimelineRows(const QList<Frame> &frames);

/**
 * Frames buildTimelineRows() has read so far on the GUI thread and off it (process-wide), for
 * tests: a background open's hand-over must read none of its frames on the GUI thread.
 */
struct TimelineRowStats {
    static std::atomic<qint64> framesOnGuiThread;
    static std::atomic<qint64> framesOffGuiThread;
};

} // namespace nb2
