#pragma once

#include "core/common/error.h"

#include <QImage>
#include <QRect>
#include <QSize>

namespace nb2 {

/**
 * Where an edit may change the picture: a grey image the size of the parent frame, white
 * (>= 128) may change, black is protected. It owns only that image. The API takes no mask,
 * so the client enforces it: feathered() turns the hard selection into a per-pixel weight
 * whose band lies *outside* the selection and ends at exactly zero `feather` pixels away, so
 * every pixel beyond the band can be copied from the parent bit for bit.
 */
class EditMask
{
public:
    EditMask() = default;
    /** The selection as given: converted to Grayscale8; not scaled. */
    explicit EditMask(const QImage &grey);

    /** A rectangle of `size` (pixels of the parent) that may change; clipped to the image. */
    static EditMask fromRect(const QSize &size, const QRect &region);
    /** Any grey (or colour: its luminance) image, scaled to `size`; InvalidInput when empty or null. */
    static Result<EditMask> fromImage(const QImage &image, const QSize &size);
    /** A mask file (PNG, JPEG, ...) read and scaled to `size`. */
    static Result<EditMask> fromFile(const QString &path, const QSize &size);

    bool isNull() const { return m_grey.isNull(); }
    QSize size() const { return m_grey.size(); }
    const QImage &image() const { return m_grey; }
    bool isSelected(int x, int y) const;
    /** Bounding box of the selected pixels; empty when nothing is selected. */
    QRect boundingRect() const;
    /** How many pixels may change. */
    qint64 selectedCount() const;
    /** Black becomes white and white black (Ctrl+Shift+I). */
    EditMask inverted() const;

    /**
     * Weight of the edit per pixel, Grayscale8: 255 inside the selection, falling linearly
     * with the Euclidean distance d to it as 255 * (1 - d / (feather + 1)), 0 for d > feather.
     * Non-increasing in d, so the band is monotone. feather <= 0: the hard selection.
     */
    QImage feathered(int feather) const;

private:
    QImage m_grey; // Format_Grayscale8
};

/** Squared Euclidean distance of every pixel to the nearest selected pixel (exact; Felzenszwalb–Huttenlocher). */
QVector<float> squaredDistanceToSelection(const QImage &grey8);

} // namespace nb2
