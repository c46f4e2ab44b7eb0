#pragma once

#include "ui/selectionoverlay.h"
#include "ui/selectiontool.h"

#include <QFutureWatcher>
#include <QImage>
#include <QPixmap>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class QAction;

namespace nb2 {

/**
 * Shows one image with zoom and pan, the way an image viewer does (Gwenview, Krita):
 * wheel zoom around the cursor, Ctrl+= / Ctrl+- / Ctrl+0 (fit) / Ctrl+1 (100 %), drag to
 * pan (arrow keys too, when zoomed in), double-click toggles fit and 100 %. Zoom is in device pixels: 100 % maps one image
 * pixel to one physical screen pixel, so high-DPI screens show the real image. Downscaled
 * views are resampled off the GUI thread; until that arrives the painter's bilinear
 * filter is used. Also draws an empty-state message, a zoom indicator and a "draft"
 * overlay for the preview image a streaming request shows before the final one.
 *
 * Selections (issue 13): with a selection tool chosen and a SelectionMask handed over (the
 * frame's, sized like the picture), a left drag draws a rectangle, ellipse or lasso, or
 * paints with the brush or eraser; the middle button and the wheel still pan and zoom. The
 * selection is drawn tinted with marching ants. The view does not own the mask.
 *
 * The image is handed over decoded (QImage decoded on a worker, or a QPixmap made on the
 * GUI thread); the view never touches files.
 */
class CanvasView : public QWidget
{
    Q_OBJECT
public:
    static constexpr double kMinZoom = 0.02;
    static constexpr double kMaxZoom = 32.0;
    static constexpr double kZoomStep = 1.25;

    explicit CanvasView(QWidget *parent = nullptr);
    ~CanvasView() override;

    /** Shows `image`. A new image of the same size keeps the current zoom and position
     *  (stepping through a chain stays put); any other size starts fitted. */
    void setImage(const QImage &image);
    void setPixmap(const QPixmap &pixmap);
    void clear();
    bool hasImage() const { return !m_image.isNull(); }
    const QImage &image() const { return m_image; }
    QSize imageSize() const { return m_image.size(); }

    /** 1.0 == one image pixel per device pixel. */
    double zoom() const { return m_zoom; }
    bool isFitMode() const { return m_fitMode; }
    /** The zoom "fit" would use now. Small images are not blown up past 100 %, except a draft,
     *  which stands in for a full-size image and is fitted to the view. */
    double fitZoom() const;
    /** Sets the zoom keeping the image point under `anchor` (widget coordinates) in place. */
    void setZoom(double zoom, const QPointF &anchor);
    void setZoom(double zoom);

    /** Widget (logical) coordinates <-> image pixel coordinates. */
    QPointF mapToImage(const QPointF &widgetPos) const;
    QPointF mapFromImage(const QPointF &imagePos) const;
    /** Where the image is drawn, in widget coordinates. */
    QRectF imageRect() const;

    /** The image point at the centre of the view; used to keep two views in step. */
    QPointF viewCenter() const;
    void setViewCenter(const QPointF &imagePos);
    /** Copies zoom, fit mode and centre from another view (compare views use this). */
    void setViewState(double zoom, bool fitMode, const QPointF &center);

    void setDraft(bool draft);
    bool isDraft() const { return m_draft; }
    void setDraftText(const QString &text);
    QString draftText() const { return m_draftText; }

    /** Shown without an image; the first line is the title, further lines a quieter hint. */
    void setEmptyText(const QString &text);
    QString emptyText() const { return m_emptyText; }

    /** The selection drawn and edited here (not owned; null: none, the tools do nothing). */
    void setSelectionMask(SelectionMask *mask);
    SelectionMask *selectionMask() const { return m_selection; }
    void setSelectionTool(SelectionTool tool);
    SelectionTool selectionTool() const { return m_tool; }
    /** Brush and eraser diameter in image pixels. */
    void setBrushSize(int pixels);
    int brushSize() const { return m_brushSize; }
    /** The mask was changed outside the view (invert, clear): draw it again. */
    void selectionChanged();

    void setZoomIndicatorVisible(bool visible);
    bool isZoomIndicatorVisible() const { return m_showZoomIndicator; }
    /** "Fit · 35 %" or "200 %", as the indicator shows it. */
    QString zoomText() const;

    /** View actions with icons, shortcuts (WidgetWithChildrenShortcut), tooltips and accessible
     *  names, ready for a toolbar or menu. Owned by the view. */
    QAction *zoomInAction() const { return m_zoomInAction; }
    QAction *zoomOutAction() const { return m_zoomOutAction; }
    QAction *zoomFitAction() const { return m_zoomFitAction; }
    QAction *zoomActualAction() const { return m_zoomActualAction; }

    /** Pure zoom math, exposed for tests. */
    static double fitZoomFor(const QSize &imageSize, const QSizeF &viewport, qreal devicePixelRatio);
    /** Offset (image top-left in widget coordinates) after zooming around `anchor`. */
    static QPointF offsetAfterZoom(const QPointF &offset, double oldScale, double newScale, const QPointF &anchor);
    /** One zoom step up or down; crossing 100 % stops at exactly 100 %. */
    static double steppedZoom(double zoom, double factor);

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    void zoomToActualSize();

Q_SIGNALS:
    void zoomChanged(double zoom);
    /** Zoom or position changed (by the user or programmatically). */
    void viewChanged();
    /** The user changed the selection with a tool. */
    void selectionEdited();

protected:
    /** Draws the image into `target` (widget coordinates); compare views override this. */
    virtual void drawImage(QPainter &painter, const QRectF &target);
    /** Logical pixels per image pixel. */
    double scale() const;
    /** Which pixmap to draw for the current zoom (a pre-scaled one when ready). */
    void drawPixmapScaled(
        QPainter &painter, const QRectF &target, const QPixmap &pixmap, const QPixmap &prescaled) const;

    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;

    bool canPan() const;
    bool isPanning() const { return m_panning; }

private:
    void setImageInternal(const QImage &image, const QPixmap &pixmap);
    void applyZoom(double zoom, const QPointF &anchor, bool fitMode);
    void clampOffset();
    void updateCursor();
    void updateActions();
    void scheduleRescale();
    void startRescale();
    void paintEmptyState(QPainter &painter);
    void paintOverlays(QPainter &painter);
    void paintSelection(QPainter &painter, const QRectF &target);
    /** A selection tool works here now: a mask of the picture's size, not a draft. */
    bool canSelect() const;

    QImage m_image;
    QPixmap m_pixmap;
    quint64 m_imageGeneration = 0;

    double m_zoom = 1.0;
    bool m_fitMode = true;
    QPointF m_offset;

    bool m_panning = false;
    QPointF m_panStart;
    QPointF m_panStartOffset;

    bool m_draft = false;
    QString m_draftText;
    QString m_emptyText;
    bool m_showZoomIndicator = true;

    // High-quality downscale, made off the GUI thread.
    QTimer m_rescaleTimer;
    QFutureWatcher<QImage> m_rescaleWatcher;
    double m_rescalePendingZoom = 0;
    quint64 m_rescalePendingGeneration = 0;
    QPixmap m_scaled;
    double m_scaledZoom = 0;
    quint64 m_scaledGeneration = 0;

    SelectionMask *m_selection = nullptr;
    SelectionTool m_tool = SelectionTool::None;
    int m_brushSize = 40;
    SelectionGesture m_gesture;
    SelectionOverlay m_overlay;
    QTimer m_antsTimer;
    int m_antsPhase = 0;
    QPointF m_hover; // widget position of the pointer, for the brush outline
    bool m_hovering = false;

    QAction *m_zoomInAction = nullptr;
    QAction *m_zoomOutAction = nullptr;
    QAction *m_zoomFitAction = nullptr;
    QAction *m_zoomActualAction = nullptr;
};

} // namespace nb2
