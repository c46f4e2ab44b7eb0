// Small frame graphs written as text, for the FrameGraph tests (tst_framegraph, tst_framesondemand).
#pragma once

#include "core/session/framegraph.h"

namespace nb2::test {

/** "a b<a c<a d<b x!<c": id, optional "<parent", "!" = trashed; every frame Done. */
inline FrameGraph graphFromSpec(const QString &spec)
{
    FrameGraph g;
    for (const QString &item : spec.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        Frame f;
        QString s = item;
        if (const int lt = s.indexOf(QLatin1Char('<')); lt >= 0) {
            f.parentId = s.mid(lt + 1);
            s = s.left(lt);
        }
        if (s.endsWith(QLatin1Char('!'))) {
            s.chop(1);
            f.trashedAt = QDateTime::currentDateTimeUtc();
        }
        f.id = s;
        f.status = FrameStatus::Done;
        g.upsert(f);
    }
    return g;
}

} // namespace nb2::test
