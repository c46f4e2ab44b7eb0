#include "core/edit/cropbox.h"

#include "core/api/imageinput.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace nb2 {

double aspectRatioValue(const QString &ratio)
{
    const QStringList wh = ratio.split(QLatin1Char(':'));
    if (wh.size() != 2)
        return 0;
    const double w = wh.at(0).toDouble(), h = wh.at(1).toDouble();
    return w > 0 && h > 0 ? w / h : 0;
}

static constexpr double kRatioTolerance = 0.03;

// Shift [start, start+length) to lie inside [0, limit) (length <= limit).
static int shiftInside(int start, int length, int limit)
{
    return std::clamp(start, 0, limit - length);
}

CropBox cropBoxFor(const QRect &selection, const QSize &image, int margin)
{
    const QRect bounds(QPoint(0, 0), image);
    QRect box = selection.normalized().adjusted(-margin, -margin, margin, margin).intersected(bounds);
    if (box.isEmpty())
        box = bounds;
    const double current = std::log(double(box.width()) / box.height());

    CropBox best;
    double bestDistance = 1e9;
    for (const QString &ratio : supportedAspectRatios()) {
        const double r = aspectRatioValue(ratio);
        int w = box.width(), h = box.height();
        if (double(w) / h < r)
            w = int(std::lround(h * r));
        else
            h = int(std::lround(w / r));
        w = std::max(w, box.width());
        h = std::max(h, box.height());
        // The model's own sizes are near, not exactly at, their ratio (16:9 is 1344x768): a box
        // that overshoots the image by at most kRatioTolerance is clamped to it and still counts.
        if (w > image.width() && w <= image.width() * (1 + kRatioTolerance))
            w = image.width();
        if (h > image.height() && h <= image.height() * (1 + kRatioTolerance))
            h = image.height();
        if (w > image.width() || h > image.height())
            continue;
        const double distance = std::abs(std::log(r) - current);
        if (distance >= bestDistance)
            continue;
        bestDistance = distance;
        // Grow around the box's centre, then push back inside the image.
        const int x = shiftInside(box.left() - (w - box.width()) / 2, w, image.width());
        const int y = shiftInside(box.top() - (h - box.height()) / 2, h, image.height());
        best = CropBox {QRect(x, y, w, h), ratio, true};
    }
    if (best.aspectRatio.isEmpty())
        best = CropBox {box, nearestAspectRatio(box.size()), false};
    return best;
}

} // namespace nb2
