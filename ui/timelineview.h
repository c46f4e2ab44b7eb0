#pragma once

#include <QAbstractItemView>
#include <QHash>
#include <QList>
#include <QSet>
#include <QTimer>

namespace nb2 {

class ThumbnailProvider;
class TimelineDelegate;

/**
 * The session's frames drawn like a commit graph laid on its side: columns are steps
 * along the interaction chain, rows are branch lanes, and each card is joined to its
 * parent. The selected frame's path to the root is highlighted, branch heads are marked,
 * and a dashed slot shows where the next frame will attach (so branching is visible
 * before it happens). Arrow keys follow the chain (left/right) and hop between lanes
 * (up/down). Layout comes from the model's Depth/Lane/ParentRow roles only.
 */
class TimelineView : public QAbstractItemView
{
    Q_OBJECT
public:
    /** What the dashed "next frame" slot shows. */
    enum class AttachHint { None, Generate, Edit, Branch };

    explicit TimelineView(QWidget *parent = nullptr);

    void setThumbnailProvider(ThumbnailProvider *provider);
    void setModel(QAbstractItemModel *model) override;

    void setAttachHint(AttachHint hint);
    /**
     * While start-up opens a session (after the window's first frame): an empty timeline says
     * "Opening the session…" in the view's font instead of "No frames yet" and the attach slot,
     * which would be wrong for a session of frames (and cost three font engines of their own).
     */
    void setOpening(bool opening);
    bool isOpening() const { return m_opening; }
    AttachHint attachHint() const { return m_attachHint; }
    /** The dashed slot's rectangle in viewport coordinates (empty when hidden). */
    QRect attachSlotRect() const;

    QRect visualRect(const QModelIndex &index) const override;
    void scrollTo(const QModelIndex &index, ScrollHint hint = EnsureVisible) override;
    QModelIndex indexAt(const QPoint &point) const override;

    /** The rows the view repaints while they spin (pending, or waiting to retry), ascending (for tests). */
    QList<int> pendingRows() const;

    /** Number of distinct lanes in use (for tests and the status bar). */
    int laneCount() const { return m_maxLane + 1; }

    /** A lane's header at the left edge: its branch's own cost ("$0.0780"; empty: no branch ends in it). */
    QString laneHeaderText(int lane) const;
    /** The header's tooltip: the own cost and the cost to reproduce the branch. */
    QString laneHeaderToolTip(int lane) const;
    /** Where the header is, in viewport coordinates. */
    QRect laneHeaderRect(int lane) const;
    /** Re-reads the lane headers (the price table changed). */
    void refreshLaneHeaders();
    /**
     * For tests: false paints every row (and every lane header), testing each against the
     * dirty rectangle, as the view did before it painted only the columns in view; the
     * reference the visible-range paint must match pixel for pixel.
     */
    void setPaintsOnlyVisibleRange(bool only) { m_onlyVisible = only; }

Q_SIGNALS:
    void cancelRequested(const QModelIndex &index);
    /** A card was double-clicked, or the dashed "next frame" slot was clicked: write the next prompt. */
    void promptRequested();
    void retryRequested(const QModelIndex &index);
    /** Shift+click on a card: the range from the current frame to the clicked one (replay, issue 14). */
    void rangeRequested(const QModelIndex &current, const QModelIndex &clicked);

protected:
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;
    int horizontalOffset() const override;
    int verticalOffset() const override;
    bool isIndexHidden(const QModelIndex &index) const override;
    void setSelection(const QRect &rect, QItemSelectionModel::SelectionFlags command) override;
    QRegion visualRegionForSelection(const QItemSelection &selection) const override;
    void updateGeometries() override;

    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void startDrag(Qt::DropActions supportedActions) override;

protected Q_SLOTS:
    void rowsInserted(const QModelIndex &parent, int start, int end) override;
    void rowsAboutToBeRemoved(const QModelIndex &parent, int start, int end) override;
    void dataChanged(
        const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles = QList<int>()) override;
    void currentChanged(const QModelIndex &current, const QModelIndex &previous) override;
    void reset() override;

private:
    struct Node {
        int depth = 0;
        int lane = 0;
        int parent = -1;
        QList<int> children;
    };
    void scheduleRelayout();
    void relayout();
    QRect contentRect(int depth, int lane) const; // card rect in content coordinates
    QRect itemContentRect(int row) const;
    QSet<int> selectedPath() const;
    /**
     * The rows whose card or connector (to the parent) may meet the content rectangle, in row
     * order (the order they are drawn in): those of the columns it covers, one more each side.
     * Every row when m_onlyVisible is off.
     */
    QList<int> rowsToPaint(const QRect &content) const;
    /** Re-reads whether rows first..last are pending (all rows when the range is large). */
    void updatePendingRows(int first, int last);
    void updatePendingTimer();
    QPoint attachSlotCell() const;        // (depth, lane); x < 0 when hidden
    QModelIndex laneHead(int lane) const; // the branch head that ends the lane
    void paintLaneHeaders(QPainter &p, const QRect &dirty);

    TimelineDelegate *m_delegate = nullptr;
    QList<Node> m_nodes;
    int m_maxDepth = -1;
    int m_maxLane = -1;
    QList<QList<int>> m_rowsAtDepth; // per column: its rows, ascending (what a paint looks at)
    bool m_onlyVisible = true;
    QList<int> m_laneHeads;                        // per lane: the row of its deepest frame (the branch head)
    mutable QHash<int, QString> m_laneHeaderTexts; // lane -> its header text; cleared when the model changes
    QSet<int> m_pendingRows;                       // rows drawn spinning: only these are repainted by the spin timer
    bool m_relayoutPending = false;
    AttachHint m_attachHint = AttachHint::None;
    bool m_opening = false;
    QTimer m_spinTimer;
    QPersistentModelIndex m_hoverAction; // the card whose cancel/retry button is under the mouse
};

} // namespace nb2
