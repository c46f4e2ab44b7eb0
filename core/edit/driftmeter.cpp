#include "core/edit/driftmeter.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <array>
#include <cmath>

namespace nb2 {

namespace {

struct Lab {
    float l, a, b;
};

const std::array<float, 256> &srgbToLinear()
{
    static const std::array<float, 256> table = [] {
        std::array<float, 256> t {};
        for (int i = 0; i < 256; ++i) {
            const double c = i / 255.0;
            t[size_t(i)] = float(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
        }
        return t;
    }();
    return table;
}

float labF(float t)
{
    return t > 0.008856f ? std::cbrt(t) : 7.787f * t + 16.0f / 116.0f;
}

Lab toLab(QRgb px)
{
    const auto &lin = srgbToLinear();
    const float r = lin[size_t(qRed(px))], g = lin[size_t(qGreen(px))], b = lin[size_t(qBlue(px))];
    // sRGB -> XYZ (D65), normalised by the white point.
    const float x = (0.4124f * r + 0.3576f * g + 0.1805f * b) / 0.95047f;
    const float y = 0.2126f * r + 0.7152f * g + 0.0722f * b;
    const float z = (0.0193f * r + 0.1192f * g + 0.9505f * b) / 1.08883f;
    const float fx = labF(x), fy = labF(y), fz = labF(z);
    return {116.0f * fy - 16.0f, 500.0f * (fx - fy), 200.0f * (fy - fz)};
}

QSize gridSize(const QSize &size)
{
    if (size.isEmpty())
        return {};
    if (std::max(size.width(), size.height()) <= DriftMeter::kGrid)
        return size;
    return size.scaled(DriftMeter::kGrid, DriftMeter::kGrid, Qt::KeepAspectRatio).expandedTo(QSize(1, 1));
}

QImage toGrid(const QImage &image, const QSize &grid, QImage::Format format)
{
    QImage in = image.convertToFormat(format);
    if (in.size() != grid)
        in = in.scaled(grid, Qt::IgnoreAspectRatio, Qt::SmoothTransformation).convertToFormat(format);
    return in;
}

QRgb heat(double deltaE)
{
    // 0 -> black, kChangedDeltaE -> dark red, 4x that -> yellow.
    const double t = std::clamp(deltaE / (4 * DriftMeter::kChangedDeltaE), 0.0, 1.0);
    const int r = int(std::lround(255 * std::min(1.0, 2 * t)));
    const int g = int(std::lround(255 * std::max(0.0, 2 * t - 1)));
    return qRgb(r, g, 0);
}

} // namespace

DriftReading DriftMeter::measure(const QImage &before, const QImage &after, const QImage &weight)
{
    DriftReading reading;
    if (before.isNull() || after.isNull())
        return reading;
    const QSize grid = gridSize(before.size());
    const QImage a = toGrid(before, grid, QImage::Format_RGB32);
    const QImage b = toGrid(after, grid, QImage::Format_RGB32);
    // Max, not mean, when scaling the weight: a cell touched by the selection or its band is not "outside".
    QImage outside;
    if (!weight.isNull() && weight.size() == before.size()) {
        outside = QImage(grid, QImage::Format_Grayscale8);
        outside.fill(255);
        const QImage w8 = weight.convertToFormat(QImage::Format_Grayscale8);
        for (int y = 0; y < w8.height(); ++y) {
            const uchar *line = w8.constScanLine(y);
            uchar *cells = outside.scanLine(int(qint64(y) * grid.height() / w8.height()));
            for (int x = 0; x < w8.width(); ++x)
                if (line[x])
                    cells[qint64(x) * grid.width() / w8.width()] = 0;
        }
    }
    reading.heatmap = QImage(grid, QImage::Format_RGB32);
    qint64 changed = 0, outsideCells = 0, outsideChanged = 0;
    const double threshold2 = kChangedDeltaE * kChangedDeltaE;
    for (int y = 0; y < grid.height(); ++y) {
        const QRgb *pa = reinterpret_cast<const QRgb *>(a.constScanLine(y));
        const QRgb *pb = reinterpret_cast<const QRgb *>(b.constScanLine(y));
        const uchar *out = outside.isNull() ? nullptr : outside.constScanLine(y);
        QRgb *h = reinterpret_cast<QRgb *>(reading.heatmap.scanLine(y));
        for (int x = 0; x < grid.width(); ++x) {
            double d2 = 0;
            if ((pa[x] & 0xffffff) != (pb[x] & 0xffffff)) {
                const Lab la = toLab(pa[x]), lb = toLab(pb[x]);
                d2 = double(la.l - lb.l) * (la.l - lb.l) + double(la.a - lb.a) * (la.a - lb.a)
                    + double(la.b - lb.b) * (la.b - lb.b);
            }
            const bool isChanged = d2 > threshold2;
            changed += isChanged;
            if (out && out[x]) {
                ++outsideCells;
                outsideChanged += isChanged;
            }
            h[x] = heat(std::sqrt(d2));
        }
    }
    const qint64 cells = qint64(grid.width()) * grid.height();
    reading.changed = cells ? double(changed) / double(cells) : 0;
    if (!outside.isNull())
        reading.outsideChanged = outsideCells ? double(outsideChanged) / double(outsideCells) : 0;
    return reading;
}

QFuture<DriftReading> DriftMeter::measureAsync(const QImage &before, const QImage &after, const QImage &weight)
{
    return QtConcurrent::run([before, after, weight] { return measure(before, after, weight); });
}

} // namespace nb2
