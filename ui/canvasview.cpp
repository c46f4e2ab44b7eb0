#include "ui/canvasview.h"

#include "ui/theme.h"

#include <QAction>
#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace nb2 {

namespace {

constexpr double kSmoothBelowZoom = 2.0; // above this, show pixels as squares (like Krita)

void drawCheckerboard(QPainter &painter, const QRectF &rect)
{
    static const QPixmap tile = [] {
        QPixmap pm(16, 16);
        pm.fill(QColor(0xcc, 0xcc, 0xcc));
        QPainter p(&pm);
        p.fillRect(0, 0, 8, 8, QColor(0x99, 0x99, 0x99));
        p.fillRect(8, 8, 8, 8, QColor(0x99, 0x99, 0x99));
        return pm;
    }();
    painter.fillRect(rect, QBrush(tile));
}

void drawPill(QPainter &painter, const QRectF &rect, const QColor &fill, const QColor &border)
{
    painter.setPen(border.isValid() ? QPen(border, 1) : Qt::NoPen);
    painter.setBrush(fill);
    painter.drawRoundedRect(rect, rect.height() / 2, rect.height() / 2);
}

} // namespace

CanvasView::CanvasView(QWidget *parent)
    : QWidget(parent), m_draftText(tr("Draft — waiting for the final image")), m_emptyText(tr("No image selected"))
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(120, 90);
    setAccessibleName(tr("Image canvas"));
    // Marching ants: the dash moves while a selection is shown, and stops with it.
    m_antsTimer.setInterval(140);
    connect(&m_antsTimer, &QTimer::timeout, this, [this] {
        if (!m_selection || !isVisible() || m_selection->isEmpty()) {
            m_antsTimer.stop();
            return;
        }
        m_antsPhase = (m_antsPhase + 1) % 8;
        update();
    });
    setAccessibleDescription(
        tr("Shows the selected image. Scroll to zoom, drag to pan, double-click to switch between fit and 100 %."));

    auto makeAction = [this](const QString &icon, const QString &text, const QString &tip,
                          const QList<QKeySequence> &keys, void (CanvasView::*slot)()) {
        auto *a = new QAction(themeIcon(icon), text, this);
        a->setToolTip(tip);
        a->setStatusTip(tip);
        a->setShortcuts(keys);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        return a;
    };
    m_zoomInAction = makeAction(QStringLiteral("zoom-in"), tr("Zoom In"), tr("Zoom in (Ctrl++)"),
        {QKeySequence(Qt::CTRL | Qt::Key_Plus), QKeySequence(Qt::CTRL | Qt::Key_Equal)}, &CanvasView::zoomIn);
    m_zoomOutAction = makeAction(QStringLiteral("zoom-out"), tr("Zoom Out"), tr("Zoom out (Ctrl+−)"),
        {QKeySequence(Qt::CTRL | Qt::Key_Minus)}, &CanvasView::zoomOut);
    m_zoomFitAction = makeAction(QStringLiteral("zoom-fit"), tr("Fit to Window"),
        tr("Fit the whole image in the view (Ctrl+0)"), {QKeySequence(Qt::CTRL | Qt::Key_0)}, &CanvasView::zoomToFit);
    m_zoomActualAction = makeAction(QStringLiteral("zoom-100"), tr("Actual Size"),
        tr("Show the image at 100 %: one image pixel per screen pixel (Ctrl+1)"), {QKeySequence(Qt::CTRL | Qt::Key_1)},
        &CanvasView::zoomToActualSize);
    m_zoomFitAction->setCheckable(true);
    m_zoomFitAction->setChecked(true);

    m_rescaleTimer.setSingleShot(true);
    m_rescaleTimer.setInterval(80); // wait for the wheel to settle before resampling
    connect(&m_rescaleTimer, &QTimer::timeout, this, &CanvasView::startRescale);
    connect(&m_rescaleWatcher, &QFutureWatcher<QImage>::finished, this, [this] {
        const QImage scaled = m_rescaleWatcher.result();
        if (m_rescalePendingGeneration == m_imageGeneration && !scaled.isNull()) {
            m_scaled = QPixmap::fromImage(scaled);
            m_scaledZoom = m_rescalePendingZoom;
            m_scaledGeneration = m_rescalePendingGeneration;
            update();
        }
        // The view moved on while we were working: resample for where it is now.
        if (m_scaledGeneration != m_imageGeneration || m_scaledZoom != m_zoom)
            scheduleRescale();
    });
    updateActions();
}

CanvasView::~CanvasView() = default;

void CanvasView::setImage(const QImage &image)
{
    setImageInternal(image, image.isNull() ? QPixmap() : QPixmap::fromImage(image));
}

void CanvasView::setPixmap(const QPixmap &pixmap)
{
    setImageInternal(pixmap.isNull() ? QImage() : pixmap.toImage(), pixmap);
}

void CanvasView::clear()
{
    setImageInternal(QImage(), QPixmap());
}

void CanvasView::setImageInternal(const QImage &image, const QPixmap &pixmap)
{
    const bool sameSize = !m_image.isNull() && image.size() == m_image.size();
    m_image = image;
    m_pixmap = pixmap;
    m_pixmap.setDevicePixelRatio(1.0);
    ++m_imageGeneration;
    m_scaled = QPixmap();
    m_scaledZoom = 0;
    if (!sameSize || m_fitMode)
        applyZoom(fitZoom(), rect().center(), true);
    else
        clampOffset();
    scheduleRescale();
    updateCursor();
    updateActions();
    update();
}

double CanvasView::fitZoomFor(const QSize &imageSize, const QSizeF &viewport, qreal devicePixelRatio)
{
    if (imageSize.isEmpty() || viewport.isEmpty())
        return 1.0;
    const double fx = viewport.width() * devicePixelRatio / imageSize.width();
    const double fy = viewport.height() * devicePixelRatio / imageSize.height();
    return std::clamp(std::min({fx, fy, 1.0}), kMinZoom, kMaxZoom);
}

QPointF CanvasView::offsetAfterZoom(const QPointF &offset, double oldScale, double newScale, const QPointF &anchor)
{
    // The image point under the anchor, p = (anchor - offset) / oldScale, must stay under it.
    const QPointF imagePoint = (anchor - offset) / oldScale;
    return anchor - imagePoint * newScale;
}

double CanvasView::steppedZoom(double zoom, double factor)
{
    double next = zoom * factor;
    // Pass through 100 % exactly: it is the one zoom level users look for.
    if ((zoom < 1.0 && next > 1.0) || (zoom > 1.0 && next < 1.0))
        next = 1.0;
    return std::clamp(next, kMinZoom, kMaxZoom);
}

double CanvasView::fitZoom() const
{
    if (m_draft && !m_image.isNull() && !size().isEmpty()) {
        // A draft is a small preview of a full-size picture: show it as large as the final.
        const double dpr = devicePixelRatioF();
        return std::clamp(
            std::min(width() * dpr / m_image.width(), height() * dpr / m_image.height()), kMinZoom, kMaxZoom);
    }
    return fitZoomFor(m_image.size(), QSizeF(size()), devicePixelRatioF());
}

double CanvasView::scale() const
{
    return m_zoom / devicePixelRatioF();
}

QRectF CanvasView::imageRect() const
{
    return QRectF(m_offset, QSizeF(m_image.size()) * scale());
}

QPointF CanvasView::mapToImage(const QPointF &widgetPos) const
{
    return (widgetPos - m_offset) / scale();
}

QPointF CanvasView::mapFromImage(const QPointF &imagePos) const
{
    return m_offset + imagePos * scale();
}

QPointF CanvasView::viewCenter() const
{
    return mapToImage(QRectF(rect()).center());
}

void CanvasView::setViewCenter(const QPointF &imagePos)
{
    m_offset = QRectF(rect()).center() - imagePos * scale();
    clampOffset();
    update();
    Q_EMIT viewChanged();
}

void CanvasView::setViewState(double zoom, bool fitMode, const QPointF &center)
{
    if (fitMode) {
        if (!m_fitMode || m_zoom != fitZoom())
            applyZoom(fitZoom(), rect().center(), true);
        return;
    }
    const double z = std::clamp(zoom, kMinZoom, kMaxZoom);
    const bool zoomDiffers = z != m_zoom || m_fitMode;
    m_zoom = z;
    m_fitMode = false;
    m_offset = QRectF(rect()).center() - center * scale();
    clampOffset();
    updateCursor();
    updateActions();
    scheduleRescale();
    update();
    if (zoomDiffers)
        Q_EMIT zoomChanged(m_zoom);
    Q_EMIT viewChanged();
}

void CanvasView::setZoom(double zoom, const QPointF &anchor)
{
    applyZoom(zoom, anchor, false);
}

void CanvasView::setZoom(double zoom)
{
    applyZoom(zoom, QRectF(rect()).center(), false);
}

void CanvasView::applyZoom(double zoom, const QPointF &anchor, bool fitMode)
{
    const double newZoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    const double oldScale = scale();
    const bool changed = newZoom != m_zoom;
    m_fitMode = fitMode;
    if (m_image.isNull()) {
        m_zoom = newZoom;
    } else {
        m_zoom = newZoom;
        m_offset = offsetAfterZoom(m_offset, oldScale, scale(), anchor);
        clampOffset();
    }
    updateCursor();
    updateActions();
    scheduleRescale();
    update();
    if (changed)
        Q_EMIT zoomChanged(m_zoom);
    Q_EMIT viewChanged();
}

void CanvasView::clampOffset()
{
    if (m_image.isNull())
        return;
    const QSizeF shown = QSizeF(m_image.size()) * scale();
    const QSizeF view = QSizeF(size());
    // Smaller than the view on an axis: centre it. Larger: never show empty space past an edge.
    auto clampAxis = [](double offset, double shownLen, double viewLen) {
        if (shownLen <= viewLen)
            return (viewLen - shownLen) / 2.0;
        return std::clamp(offset, viewLen - shownLen, 0.0);
    };
    m_offset.setX(clampAxis(m_offset.x(), shown.width(), view.width()));
    m_offset.setY(clampAxis(m_offset.y(), shown.height(), view.height()));
}

bool CanvasView::canPan() const
{
    if (m_image.isNull())
        return false;
    const QSizeF shown = QSizeF(m_image.size()) * scale();
    return shown.width() > width() + 0.5 || shown.height() > height() + 0.5;
}

void CanvasView::updateCursor()
{
    if (m_tool != SelectionTool::None && !m_panning)
        setCursor(Qt::CrossCursor);
    else if (m_panning)
        setCursor(Qt::ClosedHandCursor);
    else if (canPan())
        setCursor(Qt::OpenHandCursor);
    else
        unsetCursor();
}

void CanvasView::updateActions()
{
    const bool has = hasImage();
    m_zoomInAction->setEnabled(has && m_zoom < kMaxZoom);
    m_zoomOutAction->setEnabled(has && m_zoom > kMinZoom);
    m_zoomFitAction->setEnabled(has);
    m_zoomActualAction->setEnabled(has);
    m_zoomFitAction->setChecked(m_fitMode);
}

void CanvasView::zoomIn()
{
    if (hasImage())
        setZoom(steppedZoom(m_zoom, kZoomStep));
}

void CanvasView::zoomOut()
{
    if (hasImage())
        setZoom(steppedZoom(m_zoom, 1.0 / kZoomStep));
}

void CanvasView::zoomToFit()
{
    applyZoom(fitZoom(), QRectF(rect()).center(), true);
}

void CanvasView::zoomToActualSize()
{
    setZoom(1.0);
}

QString CanvasView::zoomText() const
{
    const double pct = m_zoom * 100.0;
    const QString value = pct < 10.0 ? QString::number(pct, 'f', 1) : QString::number(qRound(pct));
    //: zoom level as a percentage, e.g. "35 %"
    const QString zoom = tr("%1 %").arg(value);
    //: the view fits the image; %1 is the zoom level
    return m_fitMode ? tr("Fit · %1").arg(zoom) : zoom;
}

void CanvasView::setDraft(bool draft)
{
    if (m_draft == draft)
        return;
    m_draft = draft;
    if (m_fitMode && hasImage())
        applyZoom(fitZoom(), QRectF(rect()).center(), true);
    update();
}

void CanvasView::setDraftText(const QString &text)
{
    m_draftText = text;
    update();
}

void CanvasView::setEmptyText(const QString &text)
{
    m_emptyText = text;
    update();
}

void CanvasView::setZoomIndicatorVisible(bool visible)
{
    m_showZoomIndicator = visible;
    update();
}

void CanvasView::scheduleRescale()
{
    if (m_image.isNull() || m_zoom >= 1.0)
        return;
    if (m_scaledGeneration == m_imageGeneration && m_scaledZoom == m_zoom)
        return;
    m_rescaleTimer.start();
}

void CanvasView::startRescale()
{
    if (m_image.isNull() || m_zoom >= 1.0 || m_rescaleWatcher.isRunning())
        return; // the finished handler reschedules
    const QSize target(std::max(1, qRound(m_image.width() * m_zoom)), std::max(1, qRound(m_image.height() * m_zoom)));
    m_rescalePendingZoom = m_zoom;
    m_rescalePendingGeneration = m_imageGeneration;
    const QImage source = m_image; // implicitly shared: the worker reads, nobody writes
    m_rescaleWatcher.setFuture(QtConcurrent::run(
        [source, target] { return source.scaled(target, Qt::IgnoreAspectRatio, Qt::SmoothTransformation); }));
}

void CanvasView::drawPixmapScaled(
    QPainter &painter, const QRectF &target, const QPixmap &pixmap, const QPixmap &prescaled) const
{
    if (!prescaled.isNull()) {
        painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
        painter.drawPixmap(target, prescaled, QRectF(prescaled.rect()));
        return;
    }
    painter.setRenderHint(QPainter::SmoothPixmapTransform, m_zoom < kSmoothBelowZoom || m_draft);
    painter.drawPixmap(target, pixmap, QRectF(pixmap.rect()));
}

void CanvasView::drawImage(QPainter &painter, const QRectF &target)
{
    const bool usePrescaled = m_zoom < 1.0 && m_scaledGeneration == m_imageGeneration && m_scaledZoom == m_zoom;
    drawPixmapScaled(painter, target, m_pixmap, usePrescaled ? m_scaled : QPixmap());
}

void CanvasView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), themeColor(ThemeColor::CanvasBackground));
    if (m_image.isNull()) {
        paintEmptyState(painter);
        return;
    }
    const QRectF target = imageRect();
    if (m_image.hasAlphaChannel())
        drawCheckerboard(painter, target.intersected(QRectF(rect())));
    drawImage(painter, target);
    paintSelection(painter, target);
    paintOverlays(painter);
}

bool CanvasView::canSelect() const
{
    return m_selection && !m_selection->isNull() && !m_draft && !m_image.isNull()
        && m_selection->size() == m_image.size();
}

void CanvasView::setSelectionMask(SelectionMask *mask)
{
    m_gesture.cancel();
    m_selection = mask;
    m_overlay.reset();
    selectionChanged();
}

void CanvasView::setSelectionTool(SelectionTool tool)
{
    m_gesture.cancel();
    m_tool = tool;
    updateCursor();
    update();
}

void CanvasView::setBrushSize(int pixels)
{
    m_brushSize = std::clamp(pixels, 1, 1000);
    update();
}

void CanvasView::selectionChanged()
{
    if (m_selection && !m_selection->isEmpty() && !m_antsTimer.isActive())
        m_antsTimer.start();
    update();
}

void CanvasView::paintSelection(QPainter &painter, const QRectF &target)
{
    if (!canSelect())
        return;
    const bool painting = m_gesture.isActive()
        && (m_gesture.tool() == SelectionTool::Brush || m_gesture.tool() == SelectionTool::Eraser);
    m_overlay.paint(painter, target, *m_selection, m_antsPhase, !painting);
    const QTransform toWidget = QTransform::fromTranslate(target.left(), target.top())
                                    .scale(target.width() / m_image.width(), target.height() / m_image.height());
    painter.save();
    if (const QPainterPath preview = m_gesture.previewPath(); !preview.isEmpty()) {
        const QPainterPath shown = toWidget.map(preview);
        painter.setPen(QPen(Qt::white, 0));
        painter.drawPath(shown);
        QPen dash(Qt::black, 0, Qt::DashLine);
        painter.setPen(dash);
        painter.drawPath(shown);
    }
    if ((m_tool == SelectionTool::Brush || m_tool == SelectionTool::Eraser) && m_hovering) {
        // The brush's footprint at the pointer, so its size is visible before painting.
        const double r = m_brushSize / 2.0 * toWidget.m11();
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(QColor(255, 255, 255, 220), 1.5));
        painter.drawEllipse(m_hover, r, r);
        painter.setPen(QPen(QColor(0, 0, 0, 200), 1, Qt::DashLine));
        painter.drawEllipse(m_hover, r, r);
    }
    painter.restore();
}

void CanvasView::paintEmptyState(QPainter &painter)
{
    if (m_emptyText.isEmpty())
        return;
    // First line is the title, the rest a quieter hint below it.
    const QString title = m_emptyText.section(QLatin1Char('\n'), 0, 0);
    const QString detail = m_emptyText.section(QLatin1Char('\n'), 1);
    const QColor text = palette().color(QPalette::WindowText);
    QFont titleFont = font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.25);
    const QFont detailFont = font();
    const QRect area = rect().adjusted(24, 0, -24, 0);
    const QRect titleRect = QFontMetrics(titleFont).boundingRect(area, Qt::AlignCenter | Qt::TextWordWrap, title);
    const QRect detailRect = detail.isEmpty()
        ? QRect()
        : QFontMetrics(detailFont).boundingRect(area, Qt::AlignCenter | Qt::TextWordWrap, detail);
    const int iconSize = 48;
    const int gap = 12;
    const int total = iconSize + gap + titleRect.height() + (detail.isEmpty() ? 0 : 6 + detailRect.height());
    int y = (height() - total) / 2;

    painter.save();
    painter.setOpacity(0.45);
    themeIcon(QStringLiteral("image"), text).paint(&painter, QRect((width() - iconSize) / 2, y, iconSize, iconSize));
    y += iconSize + gap;
    painter.setOpacity(0.8);
    painter.setPen(text);
    painter.setFont(titleFont);
    painter.drawText(QRect(area.left(), y, area.width(), titleRect.height()),
        Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, title);
    y += titleRect.height() + 6;
    if (!detail.isEmpty()) {
        painter.setOpacity(0.6);
        painter.setFont(detailFont);
        painter.drawText(QRect(area.left(), y, area.width(), detailRect.height()),
            Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, detail);
    }
    painter.restore();
}

void CanvasView::paintOverlays(QPainter &painter)
{
    painter.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(font());
    if (m_draft) {
        const QColor draft = themeColor(ThemeColor::Draft);
        // Dashed frame: the picture is provisional.
        QPen dash(draft, 2, Qt::DashLine);
        painter.setPen(dash);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(imageRect().intersected(QRectF(rect())).adjusted(1, 1, -1, -1));
        if (!m_draftText.isEmpty()) {
            const int w = fm.horizontalAdvance(m_draftText) + 28;
            const int h = fm.height() + 12;
            const QRectF pill((width() - w) / 2.0, 12, w, h);
            drawPill(painter, pill, QColor(0, 0, 0, 170), draft);
            painter.setPen(QColor(0xf5, 0xf5, 0xf5));
            painter.drawText(pill, Qt::AlignCenter, m_draftText);
        }
    }
    if (m_showZoomIndicator) {
        const QString text = zoomText();
        const int w = fm.horizontalAdvance(text) + 20;
        const int h = fm.height() + 8;
        const QRectF pill(width() - w - 10, height() - h - 10, w, h);
        drawPill(painter, pill, QColor(0, 0, 0, 140), QColor());
        painter.setPen(QColor(0xee, 0xee, 0xee));
        painter.drawText(pill, Qt::AlignCenter, text);
    }
}

void CanvasView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (m_image.isNull())
        return;
    if (m_fitMode) {
        applyZoom(fitZoom(), QRectF(rect()).center(), true);
    } else {
        // Keep what was at the centre at the centre.
        const QPointF oldCenter(event->oldSize().width() / 2.0, event->oldSize().height() / 2.0);
        const QPointF imagePoint = mapToImage(oldCenter);
        m_offset = QRectF(rect()).center() - imagePoint * scale();
        clampOffset();
        updateCursor();
        Q_EMIT viewChanged();
    }
}

void CanvasView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        m_zoomInAction->setIcon(themeIcon(QStringLiteral("zoom-in")));
        m_zoomOutAction->setIcon(themeIcon(QStringLiteral("zoom-out")));
        m_zoomFitAction->setIcon(themeIcon(QStringLiteral("zoom-fit")));
        m_zoomActualAction->setIcon(themeIcon(QStringLiteral("zoom-100")));
    }
    QWidget::changeEvent(event);
}

} // namespace nb2
