#include "ui/timelinemodelrows.h"

#include "core/session/frame.h"

#include <QCoreApplication>
#include <QThread>

namespace nb2 {

std::atomic<qint64> TimelineRowStats::framesOnGuiThread {0};
std::atomic<qint64> TimelineRowStats::framesOffGuiThread {0};

namespace {

void count(qint64 frames)
{
    const QCoreApplication *app = QCoreApplication::instance();
    if (app && QThread::currentThread() == app->thread())
        TimelineRowStats::framesOnGuiThread += frames;
    else
        TimelineRowStats::framesOffGuiThread += frames;
}

template <typename Source> TimelineRows build(const Source &frames)
{
    count(qint64(frames.size()));
    TimelineRows out;
    out.frameCount = qsizetype(frames.size());
    // One pass over the frames in creation order; no per-frame lookups beyond the parent's row.
    out.rowOf.reserve(qsizetype(frames.size()));
    out.rows.reserve(qsizetype(frames.size()));
    int nextLane = 0;
    for (qsizetype i = 0; i < qsizetype(frames.size()); ++i) {
        const auto &f = frames[i];
        if (f.isTrashed())
            continue;
        TimelineRow r;
        r.id = f.id;
        r.parentId = f.parentId;
        r.number = int(i) + 1;
        const int p = f.parentId.isEmpty() ? -1 : out.rowOf.value(f.parentId, -1);
        r.parentRow = p;
        if (p >= 0) {
            TimelineRow &parent = out.rows[p];
            r.depth = parent.depth + 1;
            // The parent's first live child continues its lane; any later child opens a new one.
            r.lane = parent.childCount == 0 ? parent.lane : nextLane++;
            ++parent.childCount;
        } else {
            r.lane = nextLane++;
        }
        out.rowOf.insert(f.id, int(out.rows.size()));
        out.rows.append(r);
    }
    out.laneCount = nextLane;
    return out;
}

/** TimelineRowSource read like a Frame by build(). */
struct SourceView {
    const std::vector<TimelineRowSource> &v;
    struct Item {
        const TimelineRowSource &s;
        const QString &id;
        const QString &parentId;
        bool isTrashed() const { return s.trashed; }
    };
    size_t size() const { return v.size(); }
    Item operator[](qsizetype i) const { return Item {v[size_t(i)], v[size_t(i)].id, v[size_t(i)].parentId}; }
};

} // namespace

std::vector<TimelineRowSource> timelineRowSources(const QList<Frame> &frames)
{
    std::vector<TimelineRowSource> out;
    out.reserve(size_t(frames.size()));
    for (const Frame &f : frames)
        out.push_back({f.id, f.parentId, f.isTrashed()});
    return out;
}

TimelineRows buildTimelineRows(const std::vector<TimelineRowSource> &frames)
{
    return build(SourceView {frames});
}

TimelineRows buildTimelineRows(const QList<Frame> &frames)
{
    return build(frames);
}

} // namespace nb2
