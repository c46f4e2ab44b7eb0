#pragma once

#include "core/common/error.h"

#include <QImage>
#include <QRect>

namespace nb2 {

class EditMask;

/**
 * Puts the model's pixels where the user allowed them and the parent's everywhere else. Works
 * on decoded pixels in Format_ARGB32: where the weight is 0 the output pixel is the parent's
 * decoded pixel bit for bit, where it is 255 it is the model's, in between a rounded blend.
 * The results are meant to be stored losslessly (PNG) so that this stays true on disk.
 */
class Compositor
{
public:
    /** Blend `child` (scaled to the parent's size if it differs) over `parent` by `weight` (Grayscale8, parent size). */
    static Result<QImage> blend(const QImage &parent, const QImage &child, const QImage &weight);

    /**
     * Protect mode: the whole picture was edited; the parent's pixels go back over the
     * protected area (black in `mask`), with a band of `feather` pixels.
     */
    static Result<QImage> protect(const QImage &parent, const QImage &edited, const EditMask &mask, int feather);

    /**
     * Region mode: `regionResult` is the model's answer for the crop `crop` of the parent; it is
     * scaled to the crop, put in place, and blended in by the feathered mask. Outside the crop
     * the parent is untouched whatever the feather.
     */
    static Result<QImage> pasteRegion(
        const QImage &parent, const QImage &regionResult, const QRect &crop, const EditMask &mask, int feather);
};

} // namespace nb2
