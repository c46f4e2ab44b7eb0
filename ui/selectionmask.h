#pragma once

#include "core/edit/editmask.h"

#include <QImage>
#include <QPolygonF>
#include <QRect>

namespace nb2 {

/**
 * The canvas selection (issue 13): a hard mask in the parent picture's pixels, Grayscale8,
 * 255 selected and 0 not, so what the user sees is exactly what PrecisionEdit receives (the
 * soft edge is the feather, added when compositing). Shapes are rasterised here by pixel
 * centres, not by QPainter, so the result does not depend on the paint engine: a rectangle
 * selects exactly its pixels, an ellipse the pixels whose centre lies inside it, a lasso
 * the pixels whose centre lies inside the polygon (even-odd), a brush the pixels within
 * half its size of the stroke.
 */
class SelectionMask
{
public:
    /** How a new shape combines with what is selected: Shift adds, Alt subtracts, as in image editors. */
    enum class Op { Replace, Add, Subtract };

    SelectionMask() = default;
    explicit SelectionMask(const QSize &size);

    bool isNull() const { return m_grey.isNull(); }
    QSize size() const { return m_grey.size(); }
    const QImage &image() const { return m_grey; }
    /** Nothing selected (a null mask is empty too). */
    bool isEmpty() const;
    QRect boundingRect() const;
    qint64 selectedCount() const;
    bool isSelected(int x, int y) const { return m_grey.constScanLine(y)[x] != 0; }
    /** Bumped by every change: overlays cache what they drew by it. */
    quint64 revision() const { return m_revision; }

    void selectRect(const QRect &rect, Op op = Op::Replace);
    void selectEllipse(const QRect &bounds, Op op = Op::Replace);
    void selectPolygon(const QPolygonF &polygon, Op op = Op::Replace);
    /** A brush (erase: eraser) stroke from `from` to `to` with a round tip of `diameter` pixels. */
    void stroke(const QPointF &from, const QPointF &to, double diameter, bool erase);
    void invert();
    void clear();

    /** The mask PrecisionEdit takes: white may change (the selection). */
    EditMask toEditMask() const { return EditMask(m_grey); }

private:
    void begin(Op op);
    void setSpan(int y, int x0, int x1, uchar value); // inclusive, clipped
    void disc(const QPointF &centre, double radius, uchar value);
    void touch()
    {
        ++m_revision;
        m_boundsRevision = 0;
    }

    QImage m_grey;
    quint64 m_revision = 1;
    mutable quint64 m_boundsRevision = 0; // revision m_bounds was computed at (0: stale)
    mutable QRect m_bounds;
};

} // namespace nb2
