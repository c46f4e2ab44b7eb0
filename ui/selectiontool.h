#pragma once

#include "ui/selectionmask.h"

#include <QPainterPath>
#include <QPointF>
#include <QPolygonF>

namespace nb2 {

/** The canvas tools (issue 13). None pans, as the canvas always did. */
enum class SelectionTool { None, Rectangle, Ellipse, Lasso, Brush, Eraser };

/**
 * One drag of a selection tool, in image pixels: a rectangle or ellipse from the press to
 * the pointer, a lasso along the pointer's path (closed on release), a brush or eraser
 * stroke painted as the pointer moves. Shift adds to the selection and Ctrl (or Alt)
 * subtracts, as in image editors; a plain drag of a shape replaces it. It owns no mask: the
 * canvas hands over the frame's SelectionMask.
 */
class SelectionGesture
{
public:
    static SelectionMask::Op opFor(Qt::KeyboardModifiers modifiers);

    bool isActive() const { return m_mask != nullptr; }
    SelectionTool tool() const { return m_tool; }
    void begin(SelectionTool tool, const QPointF &imagePos, Qt::KeyboardModifiers modifiers, SelectionMask *mask,
        double brushSize);
    /** Brush and eraser paint at once (returns true: the mask changed); shapes only move their preview. */
    bool move(const QPointF &imagePos);
    /** Applies a shape (returns true when the mask changed) and ends the gesture. */
    bool end(const QPointF &imagePos);
    void cancel() { m_mask = nullptr; }
    /** The shape being dragged, in image pixels (empty for brush and eraser). */
    QPainterPath previewPath() const;

    /** The pixel rectangle a drag from `a` to `b` covers: every pixel either point touches and those between. */
    static QRect dragRect(const QPointF &a, const QPointF &b);

private:
    SelectionTool m_tool = SelectionTool::None;
    SelectionMask *m_mask = nullptr;
    SelectionMask::Op m_op = SelectionMask::Op::Replace;
    double m_brush = 0;
    QPointF m_start;
    QPointF m_last;
    QPolygonF m_lasso;
};

} // namespace nb2
