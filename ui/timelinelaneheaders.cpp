// TimelineView's lane headers (issue 14): each branch's own cost in a column that stays in
// view while the timeline scrolls sideways; the cost to reproduce the branch on hover.
#include "core/session/pricetable.h"
#include "ui/thumbnailprovider.h"
#include "ui/timelinedelegate.h"
#include "ui/timelineroles.h"
#include "ui/timelineview.h"
#include <QDateTime>
#include <QDrag>
#include <QHelpEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include "ui/theme.h"

namespace nb2 {

QModelIndex TimelineView::laneHead(int lane) const
{
    if (!model() || lane < 0 || lane >= m_laneHeads.size() || m_laneHeads[lane] < 0)
        return {};
    return model()->index(m_laneHeads[lane], 0, rootIndex());
}

QRect TimelineView::laneHeaderRect(int lane) const
{
    if (lane < 0 || lane >= m_laneHeads.size())
        return {};
    const QRect card = contentRect(0, lane).translated(0, -verticalOffset());
    return QRect(0, card.top(), TimelineDelegate::laneHeaderWidth(), card.height());
}

QString TimelineView::laneHeaderText(int lane) const
{
    // Cached: a branch's cost walks the graph, and the headers repaint with every scroll.
    if (const auto it = m_laneHeaderTexts.constFind(lane); it != m_laneHeaderTexts.cend())
        return *it;
    const QModelIndex head = laneHead(lane);
    const double own = head.isValid() ? head.data(TimelineRole::BranchCostUsd).toDouble() : -1;
    const QString text = own < 0 ? QString() : formatUsd(own);
    m_laneHeaderTexts.insert(lane, text);
    return text;
}

void TimelineView::refreshLaneHeaders()
{
    m_laneHeaderTexts.clear();
    viewport()->update(QRect(0, 0, TimelineDelegate::laneHeaderWidth(), viewport()->height()));
}

QString TimelineView::laneHeaderToolTip(int lane) const
{
    const QModelIndex head = laneHead(lane);
    if (!head.isValid())
        return {};
    const double own = head.data(TimelineRole::BranchCostUsd).toDouble();
    const double reproduce = head.data(TimelineRole::BranchReproduceUsd).toDouble();
    if (own < 0 || reproduce < 0)
        return {};
    return tr("This branch's own frames: %1 (estimate).\nCost to reproduce this branch (every turn from its root to "
              "#%2 again): %3.")
        .arg(formatUsd(own), QString::number(head.data(TimelineRole::Number).toInt()), formatUsd(reproduce));
}

void TimelineView::paintLaneHeaders(QPainter &p, const QRect &dirty)
{
    const int width = TimelineDelegate::laneHeaderWidth();
    if (dirty.left() >= width || m_laneHeads.isEmpty())
        return;
    const QPalette pal = palette();
    // The column stays put while the cards scroll under it.
    p.fillRect(QRect(0, 0, width, viewport()->height()), pal.color(QPalette::Window));
    p.fillRect(QRect(width - 1, 0, 1, viewport()->height()),
        mixColors(pal.color(QPalette::Window), pal.color(QPalette::WindowText), 0.12));
    // Only the lanes in view (a 10,000-frame session has about a thousand).
    int first = 0;
    int last = int(m_laneHeads.size()) - 1;
    if (m_onlyVisible) {
        const int top = contentRect(0, 0).top();
        const int pitch = contentRect(0, 1).top() - top;
        first = qMax(0, (dirty.top() + verticalOffset() - top) / pitch - 1);
        last = qMin(last, (dirty.bottom() + verticalOffset() - top) / pitch + 1);
    }
    for (int lane = first; lane <= last; ++lane) {
        const QRect r = laneHeaderRect(lane);
        if (r.intersects(dirty) && m_laneHeads[lane] >= 0)
            TimelineDelegate::paintLaneHeader(&p, r, laneHeaderText(lane), TimelineDelegate::laneColor(lane, pal), pal);
    }
}

} // namespace nb2
