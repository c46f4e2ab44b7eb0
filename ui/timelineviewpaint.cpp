#include "ui/timelineview.h"

// How the timeline draws itself: only the columns and lane headers in view, the connectors
// between parent and child, the selected path highlighted, the attach slot and the empty state.

#include "ui/theme.h"
#include "ui/timelinedelegate.h"
#include "ui/timelineroles.h"
#include "ui/timelineviewmetrics.h"

#include <QPaintEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <numeric>

namespace nb2 {

using namespace timelinemetrics;

QSet<int> TimelineView::selectedPath() const
{
    QSet<int> path;
    int row = currentIndex().isValid() ? currentIndex().row() : -1;
    while (row >= 0 && row < m_nodes.size() && !path.contains(row)) {
        path.insert(row);
        row = m_nodes[row].parent;
    }
    return path;
}

QList<int> TimelineView::rowsToPaint(const QRect &content) const
{
    QList<int> rows;
    if (!m_onlyVisible || m_rowsAtDepth.size() != m_maxDepth + 1 || m_nodes.size() < 64) {
        rows.resize(m_nodes.size());
        std::iota(rows.begin(), rows.end(), 0);
        return rows;
    }
    // A card spans its column (plus its head marker); a connector spans the gap left of its
    // child's column. One column of slack each side covers both.
    const int column = TimelineDelegate::cardSize().width() + kGapX;
    const int first = qMax(0, (content.left() - marginX()) / column - 1);
    const int last = qMin(m_maxDepth, (content.right() - marginX()) / column + 1);
    for (int depth = first; depth <= last; ++depth)
        rows += m_rowsAtDepth.at(depth);
    std::sort(rows.begin(), rows.end());
    return rows;
}

void TimelineView::paintEvent(QPaintEvent *event)
{
    QPainter p(viewport());
    p.setRenderHint(QPainter::Antialiasing, true);
    const QPalette pal = palette();
    p.fillRect(event->rect(), pal.color(QPalette::Window).lighter(isEnabled() ? 100 : 105));

    const QPoint off(horizontalOffset(), verticalOffset());
    const QSet<int> path = selectedPath();
    const QColor highlight = pal.color(QPalette::Highlight);
    const QColor edge = mixColors(pal.color(QPalette::Window), pal.color(QPalette::WindowText), 0.35);

    auto connector = [&](const QRect &from, const QRect &to) {
        const QPointF a(from.right() + 1, from.center().y());
        const QPointF b(to.left(), to.center().y());
        QPainterPath path;
        path.moveTo(a);
        if (qAbs(a.y() - b.y()) < 1) {
            path.lineTo(b);
        } else {
            const qreal midX = a.x() + kGapX / 2.0;
            const qreal r = 8;
            const qreal dir = b.y() > a.y() ? 1 : -1;
            path.lineTo(midX - r, a.y());
            path.quadTo(midX, a.y(), midX, a.y() + dir * r);
            path.lineTo(midX, b.y() - dir * r);
            path.quadTo(midX, b.y(), midX + r, b.y());
            path.lineTo(b);
        }
        return path;
    };

    // Only the columns in view (10,000 frames: a few hundred rows instead of every one).
    const QList<int> rows = rowsToPaint(event->rect().translated(off));
    // Connectors first: dim ones, then the selected path on top.
    for (int pass = 0; pass < 2; ++pass) {
        for (const int row : rows) {
            const Node &n = m_nodes[row];
            if (n.parent < 0)
                continue;
            const bool onPath = path.contains(row) && path.contains(n.parent);
            if (onPath != (pass == 1))
                continue;
            const QRect from = itemContentRect(n.parent).translated(-off);
            const QRect to = itemContentRect(row).translated(-off);
            if (!event->rect().intersects(from.united(to).adjusted(-4, -4, 4, 4)))
                continue;
            const QColor c = onPath ? highlight : TimelineDelegate::laneColor(n.lane, pal);
            p.setPen(QPen(onPath ? c : mixColors(c, edge, 0.45), onPath ? 3.0 : 2.0, Qt::SolidLine, Qt::RoundCap));
            p.setBrush(Qt::NoBrush);
            p.drawPath(connector(from, to));
        }
    }

    // The dashed slot where the next frame will attach, with its connector.
    const bool opening = m_opening && m_nodes.isEmpty(); // start-up: a session is being opened
    const QPoint slot = opening ? QPoint(-1, -1) : attachSlotCell();
    if (slot.x() >= 0) {
        const QRect r = contentRect(slot.x(), slot.y()).translated(-off);
        const QColor c = m_attachHint == AttachHint::Branch ? TimelineDelegate::laneColor(slot.y(), pal) : highlight;
        if (currentIndex().isValid() && m_attachHint != AttachHint::Generate) {
            const QRect from = visualRect(currentIndex());
            p.setPen(QPen(c, 2.0, Qt::DashLine, Qt::RoundCap));
            p.drawPath(connector(from, r));
        }
        p.setPen(QPen(c, 1.5, Qt::DashLine));
        p.setBrush(mixColors(pal.color(QPalette::Window), c, 0.08));
        p.drawRoundedRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
        QFont f = font();
        f.setPixelSize(22);
        p.setFont(f);
        p.setPen(c);
        p.drawText(r.adjusted(0, 0, 0, -26), Qt::AlignCenter, QStringLiteral("+"));
        f.setPixelSize(11);
        f.setBold(true);
        p.setFont(f);
        const QString label = m_attachHint == AttachHint::Branch ? tr("new branch")
            : m_attachHint == AttachHint::Edit                   ? tr("next edit")
                                                                 : tr("new image");
        p.drawText(r.adjusted(4, 30, -4, 0), Qt::AlignCenter, label);
    }

    if (hasFocus() && !currentIndex().isValid()) { // focused but nothing current: mark the view itself
        p.setPen(QPen(highlight, 2, Qt::DotLine));
        p.drawRect(QRectF(viewport()->rect()).adjusted(1, 1, -1, -1));
    }
    // Cards.
    for (const int row : rows) {
        if (!model())
            break;
        const QRect r = itemContentRect(row).translated(-off);
        if (!event->rect().intersects(r.adjusted(-2, -2, 14, 2)))
            continue;
        const QModelIndex idx = model()->index(row, 0, rootIndex());
        QStyleOptionViewItem opt;
        initViewItemOption(&opt);
        opt.rect = r;
        opt.state |= QStyle::State_Enabled;
        if (selectionModel() && selectionModel()->isSelected(idx))
            opt.state |= QStyle::State_Selected;
        if (idx == currentIndex() && hasFocus())
            opt.state |= QStyle::State_HasFocus;
        const QPoint mouse = viewport()->mapFromGlobal(QCursor::pos());
        if (r.contains(mouse) && viewport()->underMouse())
            opt.state |= QStyle::State_MouseOver;
        m_delegate->paintFrame(&p, opt, idx, path.contains(row), m_hoverAction == idx);

        // Head marker: a lane-coloured ring right of a branch tip.
        if (m_nodes[row].children.isEmpty()) {
            const QColor c = TimelineDelegate::laneColor(m_nodes[row].lane, pal);
            const QPointF center(r.right() + 9, r.center().y());
            p.setPen(QPen(c, 2));
            p.setBrush(pal.color(QPalette::Window));
            p.drawEllipse(center, 4.5, 4.5);
            p.setBrush(c);
            p.setPen(Qt::NoPen);
            p.drawEllipse(center, 2.0, 2.0);
        }
    }

    paintLaneHeaders(p, event->rect());

    if (opening) {
        p.setPen(mixColors(pal.color(QPalette::Window), pal.color(QPalette::WindowText), 0.6));
        p.drawText(
            viewport()->rect().adjusted(24, 0, -16, 0), Qt::AlignLeft | Qt::AlignVCenter, tr("Opening the session…"));
    } else if (m_nodes.isEmpty()) {
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 1.05);
        p.setFont(f);
        p.setPen(mixColors(pal.color(QPalette::Window), pal.color(QPalette::WindowText), 0.6));
        const QRect slotRect = attachSlotRect();
        const int left = slotRect.isNull() ? 24 : slotRect.right() + 24;
        const QRect textRect = slotRect.isNull()
            ? QRect(left, 0, viewport()->width() - left - 16, viewport()->height())
            : QRect(left, slotRect.top(), viewport()->width() - left - 16, slotRect.height());
        p.drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
            tr("No frames yet. Describe an image in the prompt and press Generate, "
               "or drop or paste a picture to start from it."));
    }
}

} // namespace nb2
