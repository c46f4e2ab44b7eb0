#include "ui/canvasview.h"

// How the canvas answers the mouse, the wheel and the keyboard: zoom about the pointer, pan by
// dragging or with the arrow keys, paint or drag a selection when a selection tool is active.

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <cmath>

namespace nb2 {

void CanvasView::wheelEvent(QWheelEvent *event)
{
    if (m_image.isNull()) {
        event->ignore();
        return;
    }
    // angleDelta is in eighths of a degree; 120 is one notch. Trackpads send smaller steps.
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0.0) {
        event->ignore();
        return;
    }
    const double factor = std::pow(kZoomStep, notches);
    setZoom(steppedZoom(m_zoom, factor), event->position());
    event->accept();
}

void CanvasView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && m_tool != SelectionTool::None) {
        // With a tool chosen the left button selects; the middle button still pans.
        if (canSelect()) {
            m_gesture.begin(m_tool, mapToImage(event->position()), event->modifiers(), m_selection, m_brushSize);
            if (m_gesture.tool() == SelectionTool::Brush || m_gesture.tool() == SelectionTool::Eraser) {
                m_overlay.reset();
                Q_EMIT selectionEdited();
            }
            update();
        }
        event->accept();
        return;
    }
    if ((event->button() == Qt::LeftButton || event->button() == Qt::MiddleButton) && canPan()) {
        m_panning = true;
        m_panStart = event->position();
        m_panStartOffset = m_offset;
        updateCursor();
        event->accept();
        return;
    }
    QWidget::mousePressEvent(event);
}

void CanvasView::mouseMoveEvent(QMouseEvent *event)
{
    m_hover = event->position();
    m_hovering = true;
    if (m_gesture.isActive()) {
        if (m_gesture.move(mapToImage(event->position())))
            Q_EMIT selectionEdited();
        update();
        event->accept();
        return;
    }
    if (m_tool == SelectionTool::Brush || m_tool == SelectionTool::Eraser)
        update();
    if (m_panning) {
        m_offset = m_panStartOffset + (event->position() - m_panStart);
        clampOffset();
        update();
        Q_EMIT viewChanged();
        event->accept();
        return;
    }
    QWidget::mouseMoveEvent(event);
}

void CanvasView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_gesture.isActive() && event->button() == Qt::LeftButton) {
        if (m_gesture.end(mapToImage(event->position())))
            Q_EMIT selectionEdited();
        selectionChanged();
        event->accept();
        return;
    }
    if (m_panning && (event->button() == Qt::LeftButton || event->button() == Qt::MiddleButton)) {
        m_panning = false;
        updateCursor();
        event->accept();
        return;
    }
    QWidget::mouseReleaseEvent(event);
}

void CanvasView::keyPressEvent(QKeyEvent *event)
{
    // Arrow keys pan a zoomed picture (a tenth of the view per press, Shift for a half);
    // otherwise they go to the parent (e.g. the timeline's chain navigation).
    QPointF step;
    switch (event->key()) {
    case Qt::Key_Left:
        step = QPointF(1, 0);
        break;
    case Qt::Key_Right:
        step = QPointF(-1, 0);
        break;
    case Qt::Key_Up:
        step = QPointF(0, 1);
        break;
    case Qt::Key_Down:
        step = QPointF(0, -1);
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    if (!canPan() || (event->modifiers() & ~(Qt::ShiftModifier | Qt::KeypadModifier))) {
        event->ignore();
        return;
    }
    const double fraction = (event->modifiers() & Qt::ShiftModifier) ? 0.5 : 0.1;
    const QPointF before = m_offset;
    m_offset += QPointF(step.x() * width(), step.y() * height()) * fraction;
    clampOffset();
    if (m_offset == before) {
        event->ignore(); // already at that edge
        return;
    }
    update();
    Q_EMIT viewChanged();
    event->accept();
}

void CanvasView::leaveEvent(QEvent *event)
{
    m_hovering = false;
    if (m_tool == SelectionTool::Brush || m_tool == SelectionTool::Eraser)
        update();
    QWidget::leaveEvent(event);
}

void CanvasView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && m_tool != SelectionTool::None) {
        mousePressEvent(event); // a quick second click of a tool is a click, not a zoom toggle
        return;
    }
    if (event->button() == Qt::LeftButton && hasImage()) {
        if (m_fitMode && std::abs(fitZoom() - 1.0) > 1e-9)
            setZoom(1.0, event->position());
        else
            zoomToFit();
        event->accept();
        return;
    }
    QWidget::mouseDoubleClickEvent(event);
}

} // namespace nb2
