#pragma once

#include <QFuture>
#include <QImage>

namespace nb2 {

/** What one edit changed, as the drift meter saw it. */
struct DriftReading {
    double changed = 0;         // fraction of the picture that changed visibly, 0..1
    double outsideChanged = -1; // fraction of the protected area the model changed (-1: no selection)
    QImage heatmap;             // small (longest side kGrid), black = same, red..yellow = more change
    bool isValid() const { return !heatmap.isNull(); }
};

/**
 * The drift meter: how much of the picture an edit changed.
 *
 * Measure: CIE76 colour difference (ΔE*ab, Euclidean distance in CIE L*a*b*, D65, sRGB input)
 * between parent and child after both are area-averaged down to a grid whose longest side is
 * kGrid cells (about 4×4 pixels per cell for a 1024 frame: the "small blur" that hides JPEG
 * noise and one-pixel resampling shifts). A cell counts as changed when ΔE > kChangedDeltaE.
 * Why ΔE and not windowed SSIM: SSIM looks at local structure and contrast and barely reacts
 * to a flat colour shift (a sky turned orange, a shirt recoloured), which users do count as
 * drift; ΔE is per cell, so "outside the selection" is a plain count over the protected cells,
 * its threshold has a meaning (ΔE ≈ 2.3 is just noticeable, 10 is plainly visible), and it
 * costs a few milliseconds for a 1024×1024 frame.
 */
class DriftMeter
{
public:
    static constexpr int kGrid = 256;
    static constexpr double kChangedDeltaE = 10.0;

    /**
     * before and after are scaled to the same grid (the child may differ in size). weight, if
     * given, is the feathered selection in `before`'s size (Grayscale8): cells whose weight is 0
     * everywhere are "outside" and give outsideChanged.
     */
    static DriftReading measure(const QImage &before, const QImage &after, const QImage &weight = {});
    /** measure() on the global thread pool, so the GUI thread never waits for it. */
    static QFuture<DriftReading> measureAsync(const QImage &before, const QImage &after, const QImage &weight = {});
};

} // namespace nb2
