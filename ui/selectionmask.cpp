#include "ui/selectionmask.h"

#include <algorithm>
#include <cmath>

namespace nb2 {

SelectionMask::SelectionMask(const QSize &size)
{
    if (size.isEmpty())
        return;
    m_grey = QImage(size, QImage::Format_Grayscale8);
    m_grey.fill(0);
}

bool SelectionMask::isEmpty() const
{
    return boundingRect().isEmpty();
}

QRect SelectionMask::boundingRect() const
{
    if (m_grey.isNull())
        return {};
    if (m_boundsRevision != m_revision) {
        int left = m_grey.width(), top = -1, right = -1, bottom = -1;
        for (int y = 0; y < m_grey.height(); ++y) {
            const uchar *line = m_grey.constScanLine(y);
            const uchar *end = line + m_grey.width();
            const uchar *first = std::find_if(line, end, [](uchar v) { return v != 0; });
            if (first == end)
                continue;
            int lastX = m_grey.width() - 1;
            while (line[lastX] == 0)
                --lastX;
            left = std::min(left, int(first - line));
            right = std::max(right, lastX);
            if (top < 0)
                top = y;
            bottom = y;
        }
        m_bounds = right < 0 ? QRect() : QRect(QPoint(left, top), QPoint(right, bottom));
        m_boundsRevision = m_revision;
    }
    return m_bounds;
}

qint64 SelectionMask::selectedCount() const
{
    qint64 n = 0;
    for (int y = 0; y < m_grey.height(); ++y) {
        const uchar *line = m_grey.constScanLine(y);
        n += std::count_if(line, line + m_grey.width(), [](uchar v) { return v != 0; });
    }
    return n;
}

void SelectionMask::begin(Op op)
{
    if (op == Op::Replace)
        m_grey.fill(0);
}

void SelectionMask::setSpan(int y, int x0, int x1, uchar value)
{
    if (y < 0 || y >= m_grey.height())
        return;
    x0 = std::max(x0, 0);
    x1 = std::min(x1, m_grey.width() - 1);
    if (x0 > x1)
        return;
    std::fill(m_grey.scanLine(y) + x0, m_grey.scanLine(y) + x1 + 1, value);
}

void SelectionMask::selectRect(const QRect &rect, Op op)
{
    if (m_grey.isNull())
        return;
    begin(op);
    const QRect r = rect.normalized();
    for (int y = r.top(); y <= r.bottom() && !r.isEmpty(); ++y)
        setSpan(y, r.left(), r.right(), op == Op::Subtract ? 0 : 255);
    touch();
}

void SelectionMask::selectEllipse(const QRect &bounds, Op op)
{
    if (m_grey.isNull())
        return;
    begin(op);
    const QRect r = bounds.normalized();
    const double a = r.width() / 2.0, b = r.height() / 2.0;
    const double cx = r.left() + a, cy = r.top() + b;
    for (int y = r.top(); y <= r.bottom() && a > 0 && b > 0; ++y) {
        // Pixel centres inside (x - cx)²/a² + (y - cy)²/b² <= 1.
        const double dy = (y + 0.5 - cy) / b;
        if (dy * dy > 1)
            continue;
        const double half = a * std::sqrt(1 - dy * dy);
        const int x0 = int(std::ceil(cx - half - 0.5));
        const int x1 = int(std::floor(cx + half - 0.5));
        setSpan(y, x0, x1, op == Op::Subtract ? 0 : 255);
    }
    touch();
}

void SelectionMask::selectPolygon(const QPolygonF &polygon, Op op)
{
    if (m_grey.isNull())
        return;
    begin(op);
    if (polygon.size() >= 3) {
        const QRect box = polygon.boundingRect().toAlignedRect().intersected(QRect(QPoint(0, 0), m_grey.size()));
        QList<double> xs;
        for (int y = box.top(); y <= box.bottom() && !box.isEmpty(); ++y) {
            // Even-odd scanline fill at the row's pixel centres.
            const double py = y + 0.5;
            xs.clear();
            for (int i = 0, n = int(polygon.size()); i < n; ++i) {
                const QPointF p = polygon.at(i), q = polygon.at((i + 1) % n);
                if ((p.y() <= py) == (q.y() <= py))
                    continue;
                xs.append(p.x() + (py - p.y()) * (q.x() - p.x()) / (q.y() - p.y()));
            }
            std::sort(xs.begin(), xs.end());
            for (int i = 0; i + 1 < xs.size(); i += 2) {
                // Pixels whose centre x + 0.5 lies in [xs[i], xs[i+1]).
                const int x0 = int(std::ceil(xs.at(i) - 0.5));
                const int x1 = int(std::ceil(xs.at(i + 1) - 0.5)) - 1;
                setSpan(y, x0, x1, op == Op::Subtract ? 0 : 255);
            }
        }
    }
    touch();
}

void SelectionMask::disc(const QPointF &c, double radius, uchar value)
{
    const int y0 = int(std::floor(c.y() - radius)), y1 = int(std::ceil(c.y() + radius));
    for (int y = y0; y <= y1; ++y) {
        const double dy = y + 0.5 - c.y();
        if (dy * dy > radius * radius)
            continue;
        const double half = std::sqrt(radius * radius - dy * dy);
        setSpan(y, int(std::ceil(c.x() - half - 0.5)), int(std::floor(c.x() + half - 0.5)), value);
    }
}

void SelectionMask::stroke(const QPointF &from, const QPointF &to, double diameter, bool erase)
{
    if (m_grey.isNull())
        return;
    const double radius = std::max(0.5, diameter / 2);
    const double length = std::hypot(to.x() - from.x(), to.y() - from.y());
    // Stamps a quarter of the radius apart: the stroke's edge is smooth at every size.
    const int steps = std::max(1, int(std::ceil(length / std::max(0.5, radius / 4))));
    for (int i = 0; i <= steps; ++i)
        disc(from + (to - from) * (double(i) / steps), radius, erase ? 0 : 255);
    touch();
}

void SelectionMask::invert()
{
    if (m_grey.isNull())
        return;
    m_grey.invertPixels();
    touch();
}

void SelectionMask::clear()
{
    if (m_grey.isNull())
        return;
    m_grey.fill(0);
    touch();
}

} // namespace nb2
