#pragma once

#include <QFutureWatcher>
#include <QImage>
#include <QWidget>

class QButtonGroup;
class QLabel;
class QStackedWidget;
class QToolButton;

namespace nb2 {

class CanvasView;
class SwipeCanvas;

/** What a difference image says in numbers. */
struct DifferenceStats {
    double meanDifference = 0.0;  // mean |a-b| over all RGB channels, 0..1
    double changedFraction = 0.0; // share of pixels whose largest channel difference exceeds kChangedThreshold
    int maxDifference = 0;        // largest channel difference, 0..255
    bool resized = false;         // b was resampled to a's size first
};

/** The difference image and its numbers, computed together on a worker. */
struct DifferenceResult {
    QImage image;
    DifferenceStats stats;
};

/**
 * Compares two images: side by side (zoom and pan kept in step), as a swipe (one image
 * over the other, split by a draggable divider) or as a difference image computed off
 * the GUI thread. The caller hands over decoded images and a caption for each; the view
 * owns nothing else.
 */
class CompareView : public QWidget
{
    Q_OBJECT
public:
    enum class Mode { SideBySide, Swipe, Difference };
    Q_ENUM(Mode)

    static constexpr int kChangedThreshold = 8; // of 255: below this, compression noise

    explicit CompareView(QWidget *parent = nullptr);
    ~CompareView() override;

    void setImages(const QImage &left, const QImage &right);
    void setLabels(const QString &left, const QString &right);
    QString leftLabel() const { return m_leftLabel; }
    QString rightLabel() const { return m_rightLabel; }
    void clear();

    Mode mode() const { return m_mode; }
    void setMode(Mode mode);

    /** Divider position as a fraction of the image width, 0 (all right image) .. 1 (all left). */
    double swipePosition() const;
    void setSwipePosition(double position);

    /** Gain applied to the shown difference (1 = exact |a-b|); small changes become visible. */
    int differenceGain() const { return m_gain; }
    void setDifferenceGain(int gain);

    /** The last computed difference (null until differenceReady()). */
    const QImage &differenceImage() const { return m_difference.image; }
    DifferenceStats differenceStats() const { return m_difference.stats; }
    bool isDifferenceReady() const { return !m_difference.image.isNull(); }

    /**
     * The drift meter's heatmap of the right image (the child) against its parent: small,
     * black = same, red..yellow = changed (core/edit/driftmeter.h). Null: none (the toggle is
     * disabled). Shown semi-transparent over the right image when heatmapShown().
     */
    void setHeatmap(const QImage &heatmap);
    bool hasHeatmap() const { return !m_heatmap.isNull(); }
    bool isHeatmapShown() const { return m_heatShown; }
    void setHeatmapShown(bool shown);
    /** The right image as shown (with the heatmap blended in once ready). */
    QImage shownRightImage() const { return m_rightShown; }
    /** The child with the heatmap scaled over it: alpha follows the heat, so unchanged areas stay as they are. */
    static QImage overlayHeatmap(const QImage &child, const QImage &heatmap);

    /**
     * Offers "Raw ↔ composite": a region/protect frame's raw server image against the stored
     * composite. The view only shows the choice; ImageStage loads the images on rawCompareToggled.
     */
    void setRawCompareAvailable(bool available);
    bool isRawCompareAvailable() const;
    bool isRawCompare() const;
    void setRawCompare(bool on);

    /** Per-channel |a-b| times `gain` (clamped), opaque; b is resampled to a's size when they differ. */
    static DifferenceResult computeDifference(const QImage &a, const QImage &b, int gain = 1);

    /** For tests and embedding: the views behind each mode. */
    CanvasView *leftView() const { return m_leftView; }
    CanvasView *rightView() const { return m_rightView; }
    CanvasView *swipeView() const;
    CanvasView *differenceView() const { return m_diffView; }
    /** Centre of the swipe divider's handle, in swipeView() coordinates. */
    QPointF swipeHandlePosition() const;

Q_SIGNALS:
    void modeChanged(nb2::CompareView::Mode mode);
    void swipePositionChanged(double position);
    void differenceReady();
    void heatmapShownChanged(bool shown);
    /** The heatmap overlay is blended in (or removed) on the right image. */
    void heatmapApplied();
    void rawCompareToggled(bool on);

protected:
    void changeEvent(QEvent *event) override;

private:
    void styleSegments();
    void syncFrom(CanvasView *source);
    void startDifference();
    void updateCaptions();
    void updateDifferenceSummary();
    void applyRightImage();

    Mode m_mode = Mode::SideBySide;
    QImage m_left;
    QImage m_right;
    QString m_leftLabel;
    QString m_rightLabel;
    int m_gain = 4;

    QImage m_heatmap;
    QImage m_rightShown;
    bool m_heatShown = false;
    quint64 m_heatGeneration = 0;
    QToolButton *m_heatButton = nullptr;
    QToolButton *m_rawButton = nullptr;

    QButtonGroup *m_modeGroup = nullptr;
    QToolButton *m_gainButton = nullptr;
    QLabel *m_summary = nullptr;
    QStackedWidget *m_stack = nullptr;
    QLabel *m_leftCaption = nullptr;
    QLabel *m_rightCaption = nullptr;
    CanvasView *m_leftView = nullptr;
    CanvasView *m_rightView = nullptr;
    SwipeCanvas *m_swipeView = nullptr;
    CanvasView *m_diffView = nullptr;

    bool m_syncing = false;
    quint64 m_diffGeneration = 0;
    quint64 m_diffPendingGeneration = 0;
    bool m_diffDirty = true;
    QFutureWatcher<DifferenceResult> m_diffWatcher;
    DifferenceResult m_difference;
};

} // namespace nb2
