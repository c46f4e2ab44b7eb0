#include "ui/selectionoverlay.h"

#include "ui/selectionmask.h"

#include <QBitmap>
#include <QPainter>
#include <QRegion>

namespace nb2 {

void SelectionOverlay::reset()
{
    m_tintMask = m_outlineMask = nullptr;
    m_tintRevision = m_outlineRevision = 0;
    m_tint = QImage();
    m_outline = QPainterPath();
}

void SelectionOverlay::rebuildTint(const SelectionMask &mask)
{
    // A selection-blue tint, light enough to see the picture through it.
    const QRgb tint = qPremultiply(qRgba(64, 150, 255, 86));
    m_tint = QImage(mask.size(), QImage::Format_ARGB32_Premultiplied);
    const QImage &grey = mask.image();
    for (int y = 0; y < grey.height(); ++y) {
        const uchar *in = grey.constScanLine(y);
        auto *out = reinterpret_cast<QRgb *>(m_tint.scanLine(y));
        for (int x = 0; x < grey.width(); ++x)
            out[x] = in[x] ? tint : 0;
    }
    m_tintMask = &mask;
    m_tintRevision = mask.revision();
}

void SelectionOverlay::rebuildOutline(const SelectionMask &mask)
{
    // QBitmap sets the bits of black pixels: invert so the selected (white) pixels are set.
    QImage mono = mask.image().convertToFormat(QImage::Format_Mono, Qt::ThresholdDither);
    mono.invertPixels();
    QPainterPath path;
    path.addRegion(QRegion(QBitmap::fromImage(mono)));
    m_outline = path.simplified();
    m_outlineMask = &mask;
    m_outlineRevision = mask.revision();
}

void SelectionOverlay::paint(
    QPainter &painter, const QRectF &target, const SelectionMask &mask, int antsPhase, bool outline)
{
    if (mask.isNull() || mask.isEmpty() || target.isEmpty())
        return;
    if (m_tintMask != &mask || m_tintRevision != mask.revision())
        rebuildTint(mask);
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(target, m_tint);
    if (outline) {
        if (m_outlineMask != &mask || m_outlineRevision != mask.revision())
            rebuildOutline(mask);
        QTransform toWidget;
        toWidget.translate(target.left(), target.top());
        toWidget.scale(target.width() / mask.size().width(), target.height() / mask.size().height());
        const QPainterPath shown = toWidget.map(m_outline);
        painter.setRenderHint(QPainter::Antialiasing, false);
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(Qt::white, 0));
        painter.drawPath(shown);
        QPen ants(Qt::black, 0, Qt::CustomDashLine);
        ants.setDashPattern({4, 4});
        ants.setDashOffset(antsPhase);
        painter.setPen(ants);
        painter.drawPath(shown);
    }
    painter.restore();
}

} // namespace nb2
