#pragma once

#include <QStyledItemDelegate>

namespace nb2 {

class ThumbnailProvider;

/**
 * Paints one frame card on the timeline: the thumbnail (or the streaming draft), a caption
 * with number and kind, and the state overlays — pending spinner with elapsed seconds and
 * a cancel button, failed / interrupted badge with a retry button, re-anchored, expiring
 * id, starred. It reads only TimelineRole data and asks the ThumbnailProvider for pixmaps,
 * so painting never decodes an image.
 */
class TimelineDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit TimelineDelegate(QObject *parent = nullptr);

    void setThumbnailProvider(ThumbnailProvider *provider) { m_thumbs = provider; }

    /** Card size in device-independent pixels. */
    static QSize cardSize();
    /** The cancel / retry button inside a card rect. */
    static QRect actionButtonRect(const QRect &card);
    /** Thumbnail area inside a card rect. */
    static QRect imageRect(const QRect &card);

    /** Which button (if any) a card shows for a state. */
    enum class Action { None, Cancel, Retry };
    static Action actionFor(const QModelIndex &index);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    /** As paint(), with the selected-path emphasis the view knows about. */
    void paintFrame(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index,
        bool onSelectedPath, bool actionHovered) const;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    /** The drift badge's words for a fraction changed (0..1): "38 % changed"; empty when not measured (< 0). */
    static QString driftBadgeText(double changed);

    /** Accent colour of a lane (commit-graph style), readable on light and dark palettes. */
    static QColor laneColor(int lane, const QPalette &palette);

    /** Width of the lane header column at the timeline's left edge. */
    static int laneHeaderWidth();
    /**
     * A lane's header (the strip left of the lane, kept in view while scrolling sideways):
     * the lane's colour and its branch's own cost ("$0.078"); `text` empty paints the strip only.
     */
    static void paintLaneHeader(
        QPainter *painter, const QRect &rect, const QString &text, const QColor &laneColor, const QPalette &palette);

private:
    /** A folded variant: collapsed (a small, faint picture) and labelled, never hidden. */
    void paintFolded(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const;
    void paintIconBadge(QPainter *painter, const QPoint &center, const QColor &fill, const QString &iconName) const;
    void paintSpinner(QPainter *painter, const QRect &area, const QColor &color) const;
    void paintAgentMark(QPainter *painter, const QRect &image, const QFont &font) const;
    void paintDriftBadge(QPainter *painter, const QRect &image, const QFont &font, double changed, bool warning) const;
    void paintBadge(QPainter *painter, const QPoint &center, const QColor &fill, const QString &glyph,
        const QColor &glyphColor) const;

    ThumbnailProvider *m_thumbs = nullptr;
};

} // namespace nb2
