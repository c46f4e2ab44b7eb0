#pragma once

#include <QRect>
#include <QSize>
#include <QString>

namespace nb2 {

/** The part of the parent a region edit sends, and the ratio the server is asked for. */
struct CropBox {
    QRect rect;             // in parent pixels; contains the selection (plus margin where it fits)
    QString aspectRatio;    // one of supportedAspectRatios()
    bool exactRatio = true; // false: no supported ratio fits inside the image around the selection;
                            // rect is then the selection's box plus margin and the result is scaled unevenly
};

/**
 * The crop of a region edit: the selection's bounding box plus `margin` on each side (clipped
 * to the image), widened along one axis to the nearest supported aspect ratio that still fits
 * inside the image (within 3 %: the model's own sizes are near their ratio, e.g. 1344x768 for
 * 16:9), and shifted back inside the image when widening pushed it over an edge.
 * The box always contains the selection. Widening is the smallest that reaches the ratio; of the ratios that fit, the one closest (in log ratio) to the box is used.
 */
CropBox cropBoxFor(const QRect &selection, const QSize &image, int margin);

/** w:h of a ratio string ("16:9" -> 16/9.0); 0 when it is not one. */
double aspectRatioValue(const QString &ratio);

} // namespace nb2
