#include "core/edit/compositor.h"

#include "core/edit/editmask.h"

#include <QPainter>

namespace nb2 {

static Error sizeError(const char *what)
{
    return Error::make(ErrorKind::InvalidInput,
        QStringLiteral("Cannot composite: %1. Pick the frame again and resend the edit.").arg(QLatin1String(what)));
}

Result<QImage> Compositor::blend(const QImage &parent, const QImage &child, const QImage &weight)
{
    if (parent.isNull() || child.isNull())
        return sizeError("the parent or the edited image is empty");
    if (weight.size() != parent.size())
        return sizeError("the mask is not the parent's size");
    const QImage base = parent.convertToFormat(QImage::Format_ARGB32);
    QImage top = child.convertToFormat(QImage::Format_ARGB32);
    if (top.size() != base.size())
        top = top.scaled(base.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation)
                  .convertToFormat(QImage::Format_ARGB32);
    const QImage w8 = weight.convertToFormat(QImage::Format_Grayscale8);
    QImage out = base.copy();
    for (int y = 0; y < out.height(); ++y) {
        const QRgb *b = reinterpret_cast<const QRgb *>(base.constScanLine(y));
        const QRgb *t = reinterpret_cast<const QRgb *>(top.constScanLine(y));
        const uchar *a = w8.constScanLine(y);
        QRgb *o = reinterpret_cast<QRgb *>(out.scanLine(y));
        for (int x = 0; x < out.width(); ++x) {
            const uint k = a[x];
            if (k == 0)
                continue; // the parent's pixel, untouched
            if (k == 255) {
                o[x] = t[x];
                continue;
            }
            auto mix = [k](uint p, uint c) { return (p * (255 - k) + c * k + 127) / 255; };
            o[x] = qRgba(int(mix(uint(qRed(b[x])), uint(qRed(t[x])))), int(mix(uint(qGreen(b[x])), uint(qGreen(t[x])))),
                int(mix(uint(qBlue(b[x])), uint(qBlue(t[x])))), int(mix(uint(qAlpha(b[x])), uint(qAlpha(t[x])))));
        }
    }
    return out;
}

Result<QImage> Compositor::protect(const QImage &parent, const QImage &edited, const EditMask &mask, int feather)
{
    if (mask.size() != parent.size())
        return sizeError("the mask is not the parent's size");
    return blend(parent, edited, mask.feathered(feather));
}

Result<QImage> Compositor::pasteRegion(
    const QImage &parent, const QImage &regionResult, const QRect &crop, const EditMask &mask, int feather)
{
    if (mask.size() != parent.size())
        return sizeError("the mask is not the parent's size");
    if (regionResult.isNull() || crop.isEmpty() || !QRect(QPoint(0, 0), parent.size()).contains(crop))
        return sizeError("the region result is empty or its crop lies outside the parent");
    QImage canvas = parent.convertToFormat(QImage::Format_ARGB32);
    const QImage scaled = regionResult.convertToFormat(QImage::Format_ARGB32)
                              .scaled(crop.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation)
                              .convertToFormat(QImage::Format_ARGB32);
    for (int y = 0; y < crop.height(); ++y)
        std::copy_n(reinterpret_cast<const QRgb *>(scaled.constScanLine(y)), crop.width(),
            reinterpret_cast<QRgb *>(canvas.scanLine(crop.top() + y)) + crop.left());
    QImage weight = mask.feathered(feather);
    // Only the crop came back from the model: nothing outside it may change.
    for (int y = 0; y < weight.height(); ++y) {
        uchar *line = weight.scanLine(y);
        for (int x = 0; x < weight.width(); ++x)
            if (!crop.contains(x, y))
                line[x] = 0;
    }
    return blend(parent, canvas, weight);
}

} // namespace nb2
