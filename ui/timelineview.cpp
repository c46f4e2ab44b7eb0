#include "ui/timelineview.h"

#include "core/session/pricetable.h"
#include "ui/thumbnailprovider.h"
#include "ui/timelinedelegate.h"
#include "ui/timelineroles.h"
#include "ui/timelineviewmetrics.h"

#include <QDateTime>
#include <QDrag>
#include <QHelpEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <numeric>

#include "ui/theme.h"

namespace nb2 {

using namespace timelinemetrics;

TimelineView::TimelineView(QWidget *parent) : QAbstractItemView(parent)
{
    m_delegate = new TimelineDelegate(this);
    setItemDelegate(m_delegate);
    setSelectionMode(SingleSelection);
    setSelectionBehavior(SelectItems);
    setEditTriggers(NoEditTriggers);
    setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_Hover, true);
    setDragEnabled(true);
    setDragDropMode(DragOnly);
    setHorizontalScrollMode(ScrollPerPixel);
    setVerticalScrollMode(ScrollPerPixel);
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Timeline"));
    setAccessibleDescription(tr("Frames of the session; left and right follow the chain, up and down switch branches"));
    m_spinTimer.setInterval(60);
    connect(&m_spinTimer, &QTimer::timeout, this, [this] {
        // Repaint only pending cards: cheap even with 10,000 frames.
        for (const int row : std::as_const(m_pendingRows)) {
            if (model() && row < m_nodes.size())
                viewport()->update(visualRect(model()->index(row, 0, rootIndex())));
        }
    });
}

void TimelineView::setThumbnailProvider(ThumbnailProvider *provider)
{
    m_delegate->setThumbnailProvider(provider);
    if (provider) {
        connect(provider, &ThumbnailProvider::thumbnailReady, viewport(), qOverload<>(&QWidget::update),
            Qt::UniqueConnection);
    }
}

void TimelineView::setModel(QAbstractItemModel *newModel)
{
    if (model()) {
        disconnect(model(), nullptr, this, nullptr);
    }
    QAbstractItemView::setModel(newModel);
    if (newModel) {
        // After these the model is consistent again: lay out at once so no paint sees stale rows.
        connect(newModel, &QAbstractItemModel::layoutChanged, this, &TimelineView::relayout);
        connect(newModel, &QAbstractItemModel::rowsRemoved, this, &TimelineView::relayout);
        connect(newModel, &QAbstractItemModel::rowsMoved, this, &TimelineView::relayout);
    }
    relayout();
}

void TimelineView::setAttachHint(AttachHint hint)
{
    if (hint == m_attachHint)
        return;
    m_attachHint = hint;
    updateGeometries();
    viewport()->update();
}

void TimelineView::setOpening(bool opening)
{
    if (opening == m_opening)
        return;
    m_opening = opening;
    viewport()->update();
}

QRect TimelineView::contentRect(int depth, int lane) const
{
    const QSize card = TimelineDelegate::cardSize();
    return QRect(marginX() + depth * (card.width() + kGapX), kMarginY + lane * (card.height() + kGapY), card.width(),
        card.height());
}

QRect TimelineView::itemContentRect(int row) const
{
    if (row < 0 || row >= m_nodes.size())
        return {};
    return contentRect(m_nodes[row].depth, m_nodes[row].lane);
}

QRect TimelineView::visualRect(const QModelIndex &index) const
{
    if (!index.isValid() || index.parent() != rootIndex())
        return {};
    return itemContentRect(index.row()).translated(-horizontalOffset(), -verticalOffset());
}

QPoint TimelineView::attachSlotCell() const
{
    switch (m_attachHint) {
    case AttachHint::None:
        return {-1, -1};
    case AttachHint::Generate:
        return {0, m_maxLane + 1};
    case AttachHint::Edit:
    case AttachHint::Branch: {
        const int row = currentIndex().isValid() ? currentIndex().row() : -1;
        if (row < 0 || row >= m_nodes.size())
            return {-1, -1};
        const Node &n = m_nodes[row];
        if (n.children.isEmpty() && m_attachHint == AttachHint::Edit)
            return {n.depth + 1, n.lane};
        return {n.depth + 1, m_maxLane + 1};
    }
    }
    return {-1, -1};
}

QRect TimelineView::attachSlotRect() const
{
    const QPoint cell = attachSlotCell();
    if (cell.x() < 0)
        return {};
    return contentRect(cell.x(), cell.y()).translated(-horizontalOffset(), -verticalOffset());
}

void TimelineView::scrollTo(const QModelIndex &index, ScrollHint)
{
    const QRect r = visualRect(index);
    if (r.isNull())
        return;
    const QRect area = viewport()->rect();
    if (r.left() < TimelineDelegate::laneHeaderWidth()) // under the lane headers, which stay in view
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + r.left() - marginX());
    else if (r.right() > area.right())
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + r.right() - area.right() + kEdgeX);
    if (r.top() < 0)
        verticalScrollBar()->setValue(verticalScrollBar()->value() + r.top() - kMarginY);
    else if (r.bottom() > area.bottom())
        verticalScrollBar()->setValue(verticalScrollBar()->value() + r.bottom() - area.bottom() + kMarginY);
}

QModelIndex TimelineView::indexAt(const QPoint &point) const
{
    if (!model() || point.x() < TimelineDelegate::laneHeaderWidth()) // the lane headers, not a card
        return {};
    const QPoint p = point + QPoint(horizontalOffset(), verticalOffset());
    const QSize card = TimelineDelegate::cardSize();
    const int depth = (p.x() - marginX()) / (card.width() + kGapX);
    const int lane = (p.y() - kMarginY) / (card.height() + kGapY);
    if (p.x() < marginX() || p.y() < kMarginY)
        return {};
    for (int row = 0; row < m_nodes.size(); ++row) {
        if (m_nodes[row].depth == depth && m_nodes[row].lane == lane) {
            if (contentRect(depth, lane).contains(p))
                return model()->index(row, 0, rootIndex());
            return {};
        }
    }
    return {};
}

QModelIndex TimelineView::moveCursor(CursorAction action, Qt::KeyboardModifiers)
{
    if (!model() || m_nodes.isEmpty())
        return {};
    const QModelIndex cur = currentIndex();
    if (!cur.isValid() || cur.row() >= m_nodes.size())
        return model()->index(0, 0, rootIndex());
    const int row = cur.row();
    const Node &n = m_nodes[row];
    auto idx = [this](int r) { return model()->index(r, 0, rootIndex()); };
    switch (action) {
    case MoveLeft:
    case MovePrevious:
        return n.parent >= 0 ? idx(n.parent) : cur;
    case MoveRight:
    case MoveNext: {
        if (n.children.isEmpty())
            return cur;
        for (int c : n.children) {
            if (m_nodes[c].lane == n.lane)
                return idx(c);
        }
        return idx(n.children.first());
    }
    case MoveHome: {
        int r = row;
        while (m_nodes[r].parent >= 0)
            r = m_nodes[r].parent;
        return idx(r);
    }
    case MoveEnd: {
        int r = row;
        for (bool moved = true; moved;) {
            moved = false;
            for (int c : m_nodes[r].children) {
                if (m_nodes[c].lane == m_nodes[r].lane) {
                    r = c;
                    moved = true;
                    break;
                }
            }
        }
        return idx(r);
    }
    case MoveUp:
    case MoveDown:
    case MovePageUp:
    case MovePageDown: {
        const int dir = (action == MoveUp || action == MovePageUp) ? -1 : 1;
        // The nearest lane in that direction that has any frame; in it, the frame closest in depth.
        for (int lane = n.lane + dir; lane >= 0 && lane <= m_maxLane; lane += dir) {
            int best = -1;
            int bestDist = INT_MAX;
            for (int r = 0; r < m_nodes.size(); ++r) {
                if (m_nodes[r].lane != lane)
                    continue;
                const int d = qAbs(m_nodes[r].depth - n.depth) * 2 + (m_nodes[r].depth > n.depth ? 1 : 0);
                if (d < bestDist) {
                    bestDist = d;
                    best = r;
                }
            }
            if (best >= 0)
                return idx(best);
        }
        return cur;
    }
    }
    return cur;
}

int TimelineView::horizontalOffset() const
{
    return horizontalScrollBar()->value();
}
int TimelineView::verticalOffset() const
{
    return verticalScrollBar()->value();
}
bool TimelineView::isIndexHidden(const QModelIndex &) const
{
    return false;
}

void TimelineView::setSelection(const QRect &rect, QItemSelectionModel::SelectionFlags command)
{
    if (!model() || !selectionModel())
        return;
    const QRect content = rect.normalized().translated(horizontalOffset(), verticalOffset());
    QItemSelection sel;
    for (int row = 0; row < m_nodes.size(); ++row) {
        if (itemContentRect(row).intersects(content)) {
            const QModelIndex i = model()->index(row, 0, rootIndex());
            sel.select(i, i);
            if (selectionMode() == SingleSelection)
                break;
        }
    }
    selectionModel()->select(sel, command);
}

QRegion TimelineView::visualRegionForSelection(const QItemSelection &selection) const
{
    QRegion region;
    for (const QModelIndex &i : selection.indexes())
        region += visualRect(i).adjusted(-3, -3, 3, 3);
    return region;
}

void TimelineView::updateGeometries()
{
    const QSize card = TimelineDelegate::cardSize();
    int depths = m_maxDepth + 1;
    int lanes = m_maxLane + 1;
    const QPoint slot = attachSlotCell();
    if (slot.x() >= 0) {
        depths = qMax(depths, slot.x() + 1);
        lanes = qMax(lanes, slot.y() + 1);
    }
    const int w = marginX() + kEdgeX + depths * card.width() + qMax(0, depths - 1) * kGapX + 16;
    const int h = 2 * kMarginY + lanes * card.height() + qMax(0, lanes - 1) * kGapY;
    horizontalScrollBar()->setRange(0, qMax(0, w - viewport()->width()));
    horizontalScrollBar()->setPageStep(viewport()->width());
    horizontalScrollBar()->setSingleStep(card.width() / 4);
    verticalScrollBar()->setRange(0, qMax(0, h - viewport()->height()));
    verticalScrollBar()->setPageStep(viewport()->height());
    verticalScrollBar()->setSingleStep(card.height() / 4);
    QAbstractItemView::updateGeometries();
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QAbstractItemView::resizeEvent(event);
    updateGeometries();
}

void TimelineView::scheduleRelayout()
{
    if (m_relayoutPending)
        return;
    m_relayoutPending = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (m_relayoutPending)
                relayout();
        },
        Qt::QueuedConnection);
}

void TimelineView::relayout()
{
    m_relayoutPending = false;
    m_nodes.clear();
    m_maxDepth = -1;
    m_maxLane = -1;
    if (model()) {
        const int rows = model()->rowCount(rootIndex());
        m_nodes.resize(rows);
        // All rows in one call when the model offers it (TimelineModel does), else row by row.
        const QList<int> table = model()->data(rootIndex(), TimelineRole::LayoutTable).value<QList<int>>();
        const bool whole = table.size() == qsizetype(rows) * 3;
        for (int row = 0; row < rows; ++row) {
            Node &n = m_nodes[row];
            if (whole) {
                n.depth = table[row * 3];
                n.lane = table[row * 3 + 1];
                n.parent = table[row * 3 + 2];
            } else {
                const QModelIndex i = model()->index(row, 0, rootIndex());
                n.depth = i.data(TimelineRole::Depth).toInt();
                n.lane = i.data(TimelineRole::Lane).toInt();
                n.parent = i.data(TimelineRole::ParentRow).toInt();
            }
            if (n.parent >= rows || n.parent == row)
                n.parent = -1;
            m_maxDepth = qMax(m_maxDepth, n.depth);
            m_maxLane = qMax(m_maxLane, n.lane);
        }
        for (int row = 0; row < rows; ++row) {
            if (m_nodes[row].parent >= 0)
                m_nodes[m_nodes[row].parent].children.append(row);
        }
    }
    m_rowsAtDepth = QList<QList<int>>(m_maxDepth + 1);
    for (int row = 0; row < m_nodes.size(); ++row) {
        const Node &n = m_nodes[row];
        // A card in no column, or a connector longer than one gap (a model whose depths do not
        // follow its parents): paints go through every row.
        if (n.depth < 0 || (n.parent >= 0 && m_nodes[n.parent].depth != n.depth - 1)) {
            m_rowsAtDepth.clear();
            break;
        }
        m_rowsAtDepth[n.depth].append(row);
    }
    m_laneHeaderTexts.clear();
    // A lane ends in its branch's head: the deepest frame in it (the first child keeps the lane).
    m_laneHeads = QList<int>(m_maxLane + 1, -1);
    for (int row = 0; row < m_nodes.size(); ++row) {
        if (m_nodes[row].lane < 0)
            continue;
        int &head = m_laneHeads[m_nodes[row].lane];
        if (head < 0 || m_nodes[row].depth > m_nodes[head].depth)
            head = row;
    }
    updatePendingRows(0, int(m_nodes.size()) - 1);
    updatePendingTimer();
    updateGeometries();
    viewport()->update();
}

QList<int> TimelineView::pendingRows() const
{
    QList<int> rows(m_pendingRows.cbegin(), m_pendingRows.cend());
    std::sort(rows.begin(), rows.end());
    return rows;
}

void TimelineView::updatePendingRows(int first, int last)
{
    const int rows = int(m_nodes.size());
    first = qMax(0, first);
    last = qMin(last, rows - 1);
    if (!model() || rows == 0) {
        m_pendingRows.clear();
        return;
    }
    if (first > last)
        return;
    // A large range (a layout, an external write) asks the model for all pending rows at once
    // when it can; a few rows (a turn's progress) are read one by one.
    constexpr int kFewRows = 64;
    if (last - first + 1 > kFewRows) {
        const QVariant all = model()->data(rootIndex(), TimelineRole::PendingRows);
        if (all.isValid()) {
            m_pendingRows.clear();
            for (const int row : all.value<QList<int>>()) {
                if (row >= 0 && row < rows)
                    m_pendingRows.insert(row);
            }
            return;
        }
    }
    for (int row = first; row <= last; ++row) {
        const QModelIndex idx = model()->index(row, 0, rootIndex());
        if (TimelineState(idx.data(TimelineRole::State).toInt()) == TimelineState::Pending
            || idx.data(TimelineRole::RetryAt).toDateTime().isValid())
            m_pendingRows.insert(row);
        else
            m_pendingRows.remove(row);
    }
}

void TimelineView::updatePendingTimer()
{
    const bool anyPending = !m_pendingRows.isEmpty();
    if (anyPending && !m_spinTimer.isActive())
        m_spinTimer.start();
    else if (!anyPending)
        m_spinTimer.stop();
}

void TimelineView::rowsInserted(const QModelIndex &parent, int start, int end)
{
    QAbstractItemView::rowsInserted(parent, start, end);
    relayout();
}

void TimelineView::rowsAboutToBeRemoved(const QModelIndex &parent, int start, int end)
{
    QAbstractItemView::rowsAboutToBeRemoved(parent, start, end); // the layout follows on rowsRemoved
}

void TimelineView::dataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles)
{
    QAbstractItemView::dataChanged(topLeft, bottomRight, roles);
    m_laneHeaderTexts.clear(); // a frame's cost or state may have changed its branch's cost
    const bool structural = roles.isEmpty() || roles.contains(TimelineRole::Depth) || roles.contains(TimelineRole::Lane)
        || roles.contains(TimelineRole::ParentRow);
    if (structural)
        scheduleRelayout();
    if (roles.isEmpty() || roles.contains(TimelineRole::State) || roles.contains(TimelineRole::RetryAt)) {
        if (topLeft.isValid() && bottomRight.isValid())
            updatePendingRows(topLeft.row(), bottomRight.row());
    }
    updatePendingTimer();
    viewport()->update();
}

void TimelineView::currentChanged(const QModelIndex &current, const QModelIndex &previous)
{
    QAbstractItemView::currentChanged(current, previous);
    updateGeometries();
    viewport()->update(); // the highlighted path and the attach slot follow the current frame
}

void TimelineView::reset()
{
    QAbstractItemView::reset();
    relayout();
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    const QModelIndex idx = indexAt(event->position().toPoint());
    if (!idx.isValid()) {
        // Empty space (or the dashed slot) keeps the selection: the selected frame is what
        // the next request continues from, and losing it by a stray click would surprise.
        setFocus(Qt::MouseFocusReason);
        event->accept();
        return;
    }
    if (idx.isValid() && TimelineDelegate::actionFor(idx) != TimelineDelegate::Action::None
        && TimelineDelegate::actionButtonRect(visualRect(idx)).contains(event->position().toPoint())) {
        event->accept(); // the button acts on release; do not start a drag or change selection
        return;
    }
    if ((event->modifiers() & Qt::ShiftModifier) && currentIndex().isValid() && idx != currentIndex()) {
        event->accept(); // a range for replay: the selection (what the next turn continues) stays
        Q_EMIT rangeRequested(currentIndex(), idx);
        return;
    }
    QAbstractItemView::mousePressEvent(event);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    QAbstractItemView::mouseDoubleClickEvent(event);
    if (indexAt(event->position().toPoint()).isValid())
        Q_EMIT promptRequested();
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && attachSlotRect().contains(event->position().toPoint())) {
        Q_EMIT promptRequested();
        return;
    }
    const QModelIndex idx = indexAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && idx.isValid()
        && TimelineDelegate::actionButtonRect(visualRect(idx)).contains(event->position().toPoint())) {
        switch (TimelineDelegate::actionFor(idx)) {
        case TimelineDelegate::Action::Cancel:
            Q_EMIT cancelRequested(idx);
            return;
        case TimelineDelegate::Action::Retry:
            Q_EMIT retryRequested(idx);
            return;
        case TimelineDelegate::Action::None:
            break;
        }
    }
    QAbstractItemView::mouseReleaseEvent(event);
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    const QModelIndex idx = indexAt(event->position().toPoint());
    QPersistentModelIndex hover;
    if (idx.isValid() && TimelineDelegate::actionFor(idx) != TimelineDelegate::Action::None
        && TimelineDelegate::actionButtonRect(visualRect(idx)).contains(event->position().toPoint()))
        hover = idx;
    if (hover != m_hoverAction) {
        if (m_hoverAction.isValid())
            viewport()->update(visualRect(m_hoverAction));
        m_hoverAction = hover;
        if (hover.isValid())
            viewport()->update(visualRect(hover));
    }
    viewport()->setCursor(hover.isValid() ? Qt::PointingHandCursor : Qt::ArrowCursor);
    QAbstractItemView::mouseMoveEvent(event);
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    // The timeline grows sideways: a plain wheel scrolls along the chain, Shift (or a
    // timeline with no horizontal room) scrolls between lanes.
    const bool horizontalRoom = horizontalScrollBar()->maximum() > 0;
    if (!(event->modifiers() & Qt::ShiftModifier) && horizontalRoom && event->angleDelta().x() == 0) {
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - event->angleDelta().y() / 2);
        event->accept();
        return;
    }
    QAbstractItemView::wheelEvent(event);
}

bool TimelineView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QModelIndex idx = indexAt(help->pos());
        if (idx.isValid() && TimelineDelegate::actionButtonRect(visualRect(idx)).contains(help->pos())) {
            switch (TimelineDelegate::actionFor(idx)) {
            case TimelineDelegate::Action::Cancel:
                QToolTip::showText(help->globalPos(), tr("Cancel this request"), viewport());
                return true;
            case TimelineDelegate::Action::Retry:
                QToolTip::showText(help->globalPos(), tr("Retry this request"), viewport());
                return true;
            case TimelineDelegate::Action::None:
                break;
            }
        }
        if (!idx.isValid()) {
            for (int lane = 0; lane < m_laneHeads.size(); ++lane) {
                if (laneHeaderRect(lane).contains(help->pos()) && !laneHeaderToolTip(lane).isEmpty()) {
                    QToolTip::showText(help->globalPos(), laneHeaderToolTip(lane), viewport());
                    return true;
                }
            }
            if (attachSlotRect().contains(help->pos())) {
                QToolTip::showText(help->globalPos(),
                    m_attachHint == AttachHint::Branch
                        ? tr("The next request starts a new branch from the selected frame")
                        : m_attachHint == AttachHint::Edit ? tr("The next request continues this chain")
                                                           : tr("The next request starts a new image"),
                    viewport());
                return true;
            }
            QToolTip::hideText();
            return true;
        }
    } else if (event->type() == QEvent::Leave) {
        if (m_hoverAction.isValid()) {
            viewport()->update(visualRect(m_hoverAction));
            m_hoverAction = QPersistentModelIndex();
        }
        viewport()->update();
    }
    return QAbstractItemView::viewportEvent(event);
}

void TimelineView::startDrag(Qt::DropActions supportedActions)
{
    const QModelIndex idx = currentIndex();
    if (!idx.isValid() || !model())
        return;
    QMimeData *data = model()->mimeData({idx});
    if (!data)
        return;
    auto *drag = new QDrag(this);
    drag->setMimeData(data);
    const qreal dpr = devicePixelRatioF();
    const QRect r = visualRect(idx);
    QPixmap pix(r.size() * dpr);
    pix.setDevicePixelRatio(dpr);
    pix.fill(Qt::transparent);
    {
        QPainter p(&pix);
        QStyleOptionViewItem opt;
        initViewItemOption(&opt);
        opt.rect = QRect(QPoint(0, 0), r.size());
        m_delegate->paintFrame(&p, opt, idx, false, false);
    }
    drag->setPixmap(pix);
    drag->setHotSpot(QPoint(r.width() / 2, r.height() / 2));
    drag->exec(supportedActions & Qt::CopyAction ? Qt::CopyAction : supportedActions, Qt::CopyAction);
}

} // namespace nb2
