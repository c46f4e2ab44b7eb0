#include "core/session/framefilter.h"

#include "core/session/framegraph.h"

namespace nb2 {

bool FrameFilter::matches(const Frame &frame) const
{
    if (starredOnly && !frame.starred)
        return false;
    if (status && frame.status != *status)
        return false;
    if (kind && frame.kind != *kind)
        return false;
    const QString needle = text.trimmed();
    if (needle.isEmpty())
        return true;
    return frame.prompt.contains(needle, Qt::CaseInsensitive) || frame.title.contains(needle, Qt::CaseInsensitive);
}

QSet<QString> FrameFilter::matchingIds(const FrameGraph &graph) const
{
    QSet<QString> ids;
    for (const QString &id : graph.frameIds()) {
        if (const Frame *f = graph.frame(id); f && matches(*f))
            ids.insert(id);
    }
    return ids;
}

QSet<QString> FrameFilter::pathIds(const FrameGraph &graph) const
{
    QSet<QString> ids;
    for (const QString &id : matchingIds(graph)) {
        for (const QString &onPath : graph.pathTo(id))
            ids.insert(onPath);
    }
    return ids;
}

} // namespace nb2
