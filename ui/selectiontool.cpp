#include "ui/selectiontool.h"

#include <QLineF>

#include <cmath>

namespace nb2 {

SelectionMask::Op SelectionGesture::opFor(Qt::KeyboardModifiers modifiers)
{
    if (modifiers & (Qt::ControlModifier | Qt::AltModifier))
        return SelectionMask::Op::Subtract;
    if (modifiers & Qt::ShiftModifier)
        return SelectionMask::Op::Add;
    return SelectionMask::Op::Replace;
}

QRect SelectionGesture::dragRect(const QPointF &a, const QPointF &b)
{
    const int left = int(std::floor(std::min(a.x(), b.x())));
    const int top = int(std::floor(std::min(a.y(), b.y())));
    const int right = int(std::ceil(std::max(a.x(), b.x())));
    const int bottom = int(std::ceil(std::max(a.y(), b.y())));
    return QRect(QPoint(left, top), QPoint(std::max(left, right - 1), std::max(top, bottom - 1)));
}

void SelectionGesture::begin(
    SelectionTool tool, const QPointF &imagePos, Qt::KeyboardModifiers modifiers, SelectionMask *mask, double brushSize)
{
    if (tool == SelectionTool::None || !mask || mask->isNull()) {
        m_mask = nullptr;
        return;
    }
    m_tool = tool;
    m_mask = mask;
    m_op = opFor(modifiers);
    m_brush = brushSize;
    m_start = m_last = imagePos;
    m_lasso = QPolygonF {imagePos};
    if (tool == SelectionTool::Brush || tool == SelectionTool::Eraser)
        m_mask->stroke(imagePos, imagePos, m_brush, tool == SelectionTool::Eraser);
}

bool SelectionGesture::move(const QPointF &imagePos)
{
    if (!m_mask)
        return false;
    const QPointF from = m_last;
    m_last = imagePos;
    switch (m_tool) {
    case SelectionTool::Brush:
    case SelectionTool::Eraser:
        m_mask->stroke(from, imagePos, m_brush, m_tool == SelectionTool::Eraser);
        return true;
    case SelectionTool::Lasso:
        // Points closer than a pixel add nothing but work for the fill.
        if (QLineF(m_lasso.last(), imagePos).length() >= 1.0)
            m_lasso.append(imagePos);
        return false;
    default:
        return false;
    }
}

bool SelectionGesture::end(const QPointF &imagePos)
{
    if (!m_mask)
        return false;
    move(imagePos);
    SelectionMask *mask = m_mask;
    m_mask = nullptr;
    const QRect rect = dragRect(m_start, m_last);
    const bool dragged = QLineF(m_start, m_last).length() >= 1.0;
    switch (m_tool) {
    case SelectionTool::Rectangle:
    case SelectionTool::Ellipse:
        if (!dragged) {
            // A click without a drag deselects (Replace) or does nothing (Add/Subtract), as in image editors.
            if (m_op != SelectionMask::Op::Replace || mask->isEmpty())
                return false;
            mask->clear();
            return true;
        }
        if (m_tool == SelectionTool::Rectangle)
            mask->selectRect(rect, m_op);
        else
            mask->selectEllipse(rect, m_op);
        return true;
    case SelectionTool::Lasso:
        if (m_lasso.size() < 3)
            return false;
        mask->selectPolygon(m_lasso, m_op);
        return true;
    default:
        return true; // brush strokes were applied while moving
    }
}

QPainterPath SelectionGesture::previewPath() const
{
    QPainterPath path;
    if (!m_mask)
        return path;
    const QRectF r(dragRect(m_start, m_last)); // a QRect's pixels, as the area they cover
    switch (m_tool) {
    case SelectionTool::Rectangle:
        path.addRect(r);
        break;
    case SelectionTool::Ellipse:
        path.addEllipse(r);
        break;
    case SelectionTool::Lasso:
        path.addPolygon(m_lasso);
        path.closeSubpath();
        break;
    default:
        break;
    }
    return path;
}

} // namespace nb2
