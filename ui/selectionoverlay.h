#pragma once

#include <QImage>
#include <QPainterPath>
#include <QRectF>

class QPainter;

namespace nb2 {

class SelectionMask;

/**
 * Draws a selection over the picture: the selected pixels tinted and their outline as
 * marching ants (a white line under a black dashed one whose offset the canvas advances).
 * The tint image and the outline are rebuilt only when the mask's revision changes; the
 * outline, the costlier part, is skipped while a brush stroke is being painted.
 */
class SelectionOverlay
{
public:
    /** `target`: where the picture is drawn (widget coordinates); `antsPhase`: the dash offset. */
    void paint(QPainter &painter, const QRectF &target, const SelectionMask &mask, int antsPhase, bool outline);
    /** Forget the cache (a new mask of the same revision number). */
    void reset();

private:
    void rebuildTint(const SelectionMask &mask);
    void rebuildOutline(const SelectionMask &mask);

    const SelectionMask *m_tintMask = nullptr;
    quint64 m_tintRevision = 0;
    QImage m_tint;
    const SelectionMask *m_outlineMask = nullptr;
    quint64 m_outlineRevision = 0;
    QPainterPath m_outline; // image pixels
};

} // namespace nb2
