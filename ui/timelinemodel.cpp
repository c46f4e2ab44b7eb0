#include "ui/timelinemodel.h"

#include "core/session/costledger.h"
#include "core/session/editfinisher.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QLocale>
#include <QMimeData>
#include <QThreadPool>
#include <QTimer>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace nb2 {

TimelineModel::TimelineModel(SessionController *session, QObject *parent)
    : QAbstractListModel(parent), m_session(session)
{
    if (session) {
        connect(session, &SessionController::frameAdded, this, &TimelineModel::refresh);
        connect(session, &SessionController::framesRemoved, this, &TimelineModel::refresh);
        connect(session, &SessionController::framesChanged, this, &TimelineModel::framesChanged);
        connect(session, &SessionController::changedExternally, this, &TimelineModel::refresh);
        connect(session, &SessionController::opened, this, &TimelineModel::reload);
    }
    reload();
}

void TimelineModel::reload()
{
    ++m_reloadSerial;
    if (std::exchange(m_prepareNext, false) && m_session && m_session->isOpen()) {
        startPreparing();
        return;
    }
    const bool wasPreparing = std::exchange(m_preparing, false);
    const quint64 revision = graphRowsRevision();
    adoptRows(computeRows(), revision);
    if (wasPreparing)
        Q_EMIT rowsPrepared(); // the rows a worker was building are superseded by these
}

quint64 TimelineModel::graphRowsRevision() const
{
    return m_session && m_session->isOpen() ? m_session->graph().rowsRevision() : 0;
}

void TimelineModel::adoptRows(TimelineRows rows, quint64 rowsRevision)
{
    beginResetModel();
    TimelineRows old;
    old.rows = std::exchange(m_rows, std::move(rows.rows));
    old.rowOf = std::exchange(m_rowOf, std::move(rows.rowOf));
    m_laneCount = rows.laneCount;
    m_frameCount = rows.frameCount;
    m_rowsRevision = rowsRevision;
    m_matchIds.clear();
    m_pathIds.clear();
    if (!m_filter.isEmpty() && m_session && m_session->isOpen()) {
        m_matchIds = m_filter.matchingIds(m_session->graph());
        m_pathIds = m_filter.pathIds(m_session->graph());
    }
    endResetModel();
    // The closed session's rows often hold the last references to its ids: 10,000 frames' worth
    // of strings are freed on a worker, not between two frames of the window.
    if (old.rows.size() > 1000)
        QThreadPool::globalInstance()->start([dropped = std::move(old)] { Q_UNUSED(dropped); });
}

void TimelineModel::prepareNextReload()
{
    m_prepareNext = true;
    // Only for the reload the caller is about to cause (in this pass): a later one builds here.
    QTimer::singleShot(0, this, [this] { m_prepareNext = false; });
}

void TimelineModel::startPreparing()
{
    const quint64 serial = m_reloadSerial;
    adoptRows({}, 0); // empty until the rows are in: nothing of the closed session stays visible
    m_preparing = true;
    QElapsedTimer started;
    started.start();
    // The worker gets its own copy of what the rows are made from (two shared strings and a
    // flag per frame), never the live graph, which the GUI thread may change meanwhile.
    std::vector<TimelineRowSource> sources = timelineRowSources(m_session->graph().frames());
    const quint64 revision = m_session->graph().rowsRevision(); // what the rows will hold at
    auto *watcher = new QFutureWatcher<TimelineRows>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, serial, started, revision] {
        watcher->deleteLater();
        // Moved out of the future, not copied: the model's rows share nothing (an append would
        // otherwise copy all of them here).
        auto rows = std::make_shared<TimelineRows>(watcher->future().takeResult());
        if (serial != m_reloadSerial) {
            // Superseded (another session, a close): what was built goes away on a worker.
            QThreadPool::globalInstance()->start([rows] { Q_UNUSED(rows); });
            return;
        }
        // Swapped in a frame after the open that asked for them at the earliest: a worker that
        // finishes within the open's own pass would otherwise put the reset, the layout and the
        // first paint of 10,000 frames into that same pass (one stall instead of two halves).
        const int wait = int(qMax<qint64>(0, kApartMs - started.elapsed()));
        QTimer::singleShot(wait, Qt::PreciseTimer, this, [this, serial, rows, revision] {
            if (serial != m_reloadSerial) {
                QThreadPool::globalInstance()->start([rows] { Q_UNUSED(rows); });
                return;
            }
            m_preparing = false;
            adoptRows(std::move(*rows), revision);
            // Frames added, trashed or restored while the worker built: the usual update catches up.
            if (!m_session || !m_session->isOpen() || m_session->graph().size() != m_frameCount
                || !knownRowsStillHold())
                refresh();
            Q_EMIT rowsPrepared();
        });
    });
    watcher->setFuture(QtConcurrent::run([sources = std::move(sources)] { return buildTimelineRows(sources); }));
}

TimelineRows TimelineModel::computeRows() const
{
    if (!m_session || !m_session->isOpen())
        return {};
    return buildTimelineRows(m_session->graph().frames());
}

void TimelineModel::setFilter(const FrameFilter &filter)
{
    m_filter = filter;
    updateFind();
    if (!m_rows.isEmpty()) // turning find on or off changes every row's state, even when the sets did not move
        Q_EMIT dataChanged(index(0), index(m_rows.size() - 1), {TimelineRole::FindState});
}

void TimelineModel::updateFind()
{
    QSet<QString> matches;
    QSet<QString> path;
    if (!m_filter.isEmpty() && m_session && m_session->isOpen()) {
        matches = m_filter.matchingIds(m_session->graph());
        path = m_filter.pathIds(m_session->graph());
    }
    if (matches == m_matchIds && path == m_pathIds)
        return;
    m_matchIds = std::move(matches);
    m_pathIds = std::move(path);
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0), index(m_rows.size() - 1), {TimelineRole::FindState});
}

bool TimelineModel::knownRowsStillHold() const
{
    if (!m_session || !m_session->isOpen())
        return false;
    const QList<Frame> &frames = m_session->graph().frames();
    if (frames.size() < m_frameCount)
        return false;
    // Only frames were appended since the rows were made (or last checked): they still hold.
    if (m_rowsRevision == m_session->graph().rowsRevision())
        return true;
    qsizetype row = 0;
    for (qsizetype i = 0; i < m_frameCount; ++i) {
        const Frame &f = frames.at(i);
        if (f.isTrashed())
            continue;
        if (row >= m_rows.size() || m_rows.at(row).id != f.id || m_rows.at(row).parentId != f.parentId)
            return false;
        ++row;
    }
    return row == m_rows.size();
}

bool TimelineModel::appendNewFrames()
{
    if (!m_session || !m_session->isOpen())
        return false;
    const QList<Frame> &frames = m_session->graph().frames();
    // Every known row is still the same live frame, in the same order, with the same parent
    // (a trash, restore or removal shifts the rows: recompute them all).
    if (!knownRowsStillHold())
        return false;
    m_rowsRevision = m_session->graph().rowsRevision(); // checked: the next append can trust them
    if (frames.size() == m_frameCount) {
        // Nothing new: the status etc. of existing frames may have changed (an external write).
        if (!m_rows.isEmpty())
            Q_EMIT dataChanged(index(0), index(int(m_rows.size()) - 1),
                {TimelineRole::State, TimelineRole::ImagePath, Qt::ToolTipRole, Qt::DisplayRole, TimelineRole::Starred,
                    TimelineRole::ErrorText, TimelineRole::ReAnchored});
        updateFind();
        return true;
    }
    // The new rows, as computeRows() would make them: a frame continues its parent's lane
    // when it is the parent's first live child, else opens the next lane.
    const qsizetype first = m_rows.size();
    QList<Row> added;
    QHash<QString, qsizetype> addedRow;
    QHash<qsizetype, int> extraChildren; // rows before `first` that gained children: how many
    int lanes = m_laneCount;
    for (qsizetype i = m_frameCount; i < frames.size(); ++i) {
        const Frame &f = frames.at(i);
        if (f.isTrashed())
            continue;
        if (m_rowOf.contains(f.id) || addedRow.contains(f.id))
            return false; // not a plain append
        Row r;
        r.id = f.id;
        r.parentId = f.parentId;
        r.number = int(i) + 1;
        qsizetype p = -1;
        if (const auto it = addedRow.constFind(f.parentId); it != addedRow.cend())
            p = *it;
        else
            p = m_rowOf.value(f.parentId, -1);
        r.parentRow = int(p);
        if (p >= first) {
            Row &parent = added[p - first];
            r.depth = parent.depth + 1;
            r.lane = parent.childCount == 0 ? parent.lane : lanes++;
            ++parent.childCount;
        } else if (p >= 0) {
            const Row &parent = m_rows.at(p);
            const int children = parent.childCount + extraChildren.value(p);
            r.depth = parent.depth + 1;
            r.lane = children == 0 ? parent.lane : lanes++;
            extraChildren[p] = extraChildren.value(p) + 1;
        } else {
            r.lane = lanes++;
        }
        addedRow.insert(r.id, first + added.size());
        added.append(r);
    }
    m_frameCount = frames.size();
    if (!added.isEmpty()) {
        beginInsertRows({}, int(first), int(first + added.size()) - 1);
        for (const Row &r : std::as_const(added)) {
            m_rowOf.insert(r.id, int(m_rows.size()));
            m_rows.append(r);
        }
        m_laneCount = lanes;
        endInsertRows();
    }
    for (auto it = extraChildren.cbegin(); it != extraChildren.cend(); ++it) {
        m_rows[it.key()].childCount += it.value();
        Q_EMIT dataChanged(index(int(it.key())), index(int(it.key())));
    }
    updateFind();
    return true;
}

void TimelineModel::refresh()
{
    if (m_preparing)
        return; // the rows being built are checked against the graph when they arrive
    if (appendNewFrames())
        return;
    const quint64 revision = graphRowsRevision();
    TimelineRows built = computeRows();
    m_frameCount = built.frameCount;
    m_rowsRevision = revision;
    QList<Row> rows = std::move(built.rows);
    const int lanes = built.laneCount;

    bool prefix = rows.size() >= m_rows.size();
    for (int i = 0; prefix && i < m_rows.size(); ++i)
        prefix = rows[i].id == m_rows[i].id && rows[i].parentRow == m_rows[i].parentRow;
    if (!prefix) {
        beginResetModel();
        m_rows = std::move(rows);
        m_laneCount = lanes;
        m_rowOf.clear();
        for (int i = 0; i < m_rows.size(); ++i)
            m_rowOf.insert(m_rows[i].id, i);
        m_matchIds.clear(); // the reset already tells views every row changed
        m_pathIds.clear();
        if (!m_filter.isEmpty() && m_session && m_session->isOpen()) {
            m_matchIds = m_filter.matchingIds(m_session->graph());
            m_pathIds = m_filter.pathIds(m_session->graph());
        }
        endResetModel();
        return;
    }
    // Existing rows keep their place; only counts/lanes of old rows may change (a new child).
    QList<int> changed;
    for (int i = 0; i < m_rows.size(); ++i) {
        m_rows[i].parentId = rows[i].parentId; // a root's unknown parent may differ: no change shown
        if (rows[i].childCount != m_rows[i].childCount || rows[i].lane != m_rows[i].lane
            || rows[i].depth != m_rows[i].depth || rows[i].number != m_rows[i].number) {
            m_rows[i] = rows[i];
            changed.append(i);
        }
    }
    if (rows.size() > m_rows.size()) {
        const int first = m_rows.size();
        beginInsertRows({}, first, rows.size() - 1);
        for (int i = first; i < rows.size(); ++i) {
            m_rowOf.insert(rows[i].id, i);
            m_rows.append(rows[i]);
        }
        m_laneCount = lanes;
        endInsertRows();
    }
    m_laneCount = lanes;
    for (int i : changed)
        Q_EMIT dataChanged(index(i), index(i));
    // Status etc. of existing frames may have changed with an external write.
    if (!m_rows.isEmpty() && changed.isEmpty())
        Q_EMIT dataChanged(index(0), index(m_rows.size() - 1),
            {TimelineRole::State, TimelineRole::ImagePath, Qt::ToolTipRole, Qt::DisplayRole, TimelineRole::Starred,
                TimelineRole::ErrorText, TimelineRole::ReAnchored});
    updateFind();
}

void TimelineModel::framesChanged(const QStringList &frameIds)
{
    if (m_preparing)
        return; // as refresh()
    QList<int> rows;
    rows.reserve(frameIds.size());
    bool recount = false;
    for (const QString &id : frameIds) {
        const int row = m_rowOf.value(id, -1);
        const Frame *f = m_session && m_session->isOpen() ? m_session->graph().frame(id) : nullptr;
        // Trashed / restored frames change the row set: recompute (once, however many).
        if (row < 0 || !f || f->isTrashed()) {
            recount = true;
            continue;
        }
        if (!f->isPending())
            m_drafts.remove(id);
        if (f->isDone() || f->isPending())
            m_retryAt.remove(id);
        rows.append(row);
    }
    if (recount)
        return refresh(); // it announces every row's data too
    if (!rows.isEmpty()) {
        // One signal for the span: a change of 5,000 frames (a key tier change re-dates every
        // id) sent 5,000, each handled by the view on its own.
        const auto [first, last] = std::minmax_element(rows.cbegin(), rows.cend());
        Q_EMIT dataChanged(index(*first), index(*last));
    }
    updateFind(); // a new star, title or status can move a frame in or out of the find
}

void TimelineModel::setDraft(const QString &frameId, const QImage &draft)
{
    m_drafts.insert(frameId, draft);
    const QModelIndex i = indexOf(frameId);
    if (i.isValid())
        Q_EMIT dataChanged(i, i, {TimelineRole::Draft});
}

void TimelineModel::setRetryAt(const QString &frameId, const QDateTime &when)
{
    if (when.isValid())
        m_retryAt.insert(frameId, when);
    else
        m_retryAt.remove(frameId);
    const QModelIndex i = indexOf(frameId);
    if (i.isValid())
        Q_EMIT dataChanged(i, i, {TimelineRole::RetryAt, Qt::ToolTipRole});
}

int TimelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QModelIndex TimelineModel::indexOf(const QString &frameId) const
{
    const int row = m_rowOf.value(frameId, -1);
    return row >= 0 ? index(row) : QModelIndex();
}

QStringList TimelineModel::branchOwnFrames(const Row &head) const
{
    // FrameGraph::branchOwnFrames() from the rows: up the parents while each has this one
    // live child. The graph's version asks for every parent's children (a pass over all
    // frames each), ~0.1 ms per lane header at 10,000 frames, on the first paint after an open.
    QStringList result;
    if (head.childCount != 0)
        return result;
    const Row *cur = &head;
    while (true) {
        result.append(cur->id);
        if (cur->parentId.isEmpty())
            break;
        if (cur->parentRow < 0) // the parent is trashed or missing: the graph knows what it shares
            return m_session->graph().branchOwnFrames(head.id);
        const Row &parent = m_rows.at(cur->parentRow);
        if (parent.childCount != 1)
            break; // shared with another branch
        cur = &parent;
    }
    return result;
}

QList<int> TimelineModel::layoutTable() const
{
    QList<int> table;
    table.reserve(m_rows.size() * 3);
    for (const Row &r : m_rows)
        table << r.depth << r.lane << r.parentRow;
    return table;
}

QList<int> TimelineModel::pendingRows() const
{
    QList<int> rows;
    if (!m_session || !m_session->isOpen())
        return rows;
    // One pass over the graph's plain list: only pending frames cost a lookup of their row.
    for (const Frame &f : m_session->graph().frames()) {
        if (f.isPending() && !f.isTrashed()) {
            if (const int row = m_rowOf.value(f.id, -1); row >= 0)
                rows.append(row);
        }
    }
    for (auto it = m_retryAt.cbegin(); it != m_retryAt.cend(); ++it) {
        const int row = m_rowOf.value(it.key(), -1);
        if (row >= 0 && it.value().isValid())
            rows.append(row);
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

QString TimelineModel::frameIdAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows[row].id : QString();
}

Qt::ItemFlags TimelineModel::flags(const QModelIndex &index) const
{
    if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    if (!data(index, TimelineRole::ImagePath).toString().isEmpty())
        f |= Qt::ItemIsDragEnabled;
    return f;
}

QVariant TimelineModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() && role == TimelineRole::LayoutTable)
        return QVariant::fromValue(layoutTable());
    if (!index.isValid() && role == TimelineRole::PendingRows)
        return QVariant::fromValue(pendingRows());
    if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)
        || !m_session || !m_session->isOpen())
        return {};
    const Row &row = m_rows.at(index.row());
    // The shape comes from the row alone (the view reads it for every row at each layout).
    switch (role) {
    case TimelineRole::FrameId:
        return row.id;
    case TimelineRole::ParentId:
        return row.parentId;
    case TimelineRole::ParentRow:
        return row.parentRow;
    case TimelineRole::Depth:
        return row.depth;
    case TimelineRole::Lane:
        return row.lane;
    case TimelineRole::ChildCount:
        return row.childCount;
    case TimelineRole::Number:
        return row.number;
    case TimelineRole::IsHead:
        return row.childCount == 0;
    default:
        break;
    }
    const Frame *f = m_session->graph().frame(row.id);
    if (!f)
        return {};
    return frameData(*f, row, role);
}

static TimelineState displayState(FrameStatus s)
{
    switch (s) {
    case FrameStatus::Pending:
        return TimelineState::Pending;
    case FrameStatus::Done:
        return TimelineState::Done;
    case FrameStatus::Failed:
        return TimelineState::Failed;
    case FrameStatus::Cancelled:
        return TimelineState::Cancelled;
    case FrameStatus::Interrupted:
        return TimelineState::Interrupted;
    }
    return TimelineState::Done;
}

QVariant TimelineModel::frameData(const Frame &f, const Row &row, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        return f.title.isEmpty() ? f.prompt : f.title;
    case Qt::AccessibleTextRole:
        if (f.origin == kFrameOriginMcp)
            return tr("Frame %1, %2 by an agent: %3")
                .arg(row.number)
                .arg(frameKindName(f.kind), f.title.isEmpty() ? f.prompt : f.title);
        return tr("Frame %1, %2: %3")
            .arg(row.number)
            .arg(frameKindName(f.kind), f.title.isEmpty() ? f.prompt : f.title);
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("<b>#%1</b> %2").arg(row.number).arg(frameKindName(f.kind).toHtmlEscaped());
        if (!f.title.isEmpty())
            tip += QStringLiteral(" — ") + f.title.toHtmlEscaped();
        if (!f.prompt.isEmpty())
            tip += QStringLiteral("<br>") + f.prompt.toHtmlEscaped();
        const QString status = f.statusText();
        if (!status.isEmpty() && !f.isDone())
            tip += QStringLiteral("<br><i>") + status.toHtmlEscaped() + QStringLiteral("</i>");
        if (!f.error.isEmpty()) {
            tip += QStringLiteral("<br><span style='color:#d03a3a'>") + f.error.message.toHtmlEscaped()
                + QStringLiteral("</span>");
            if (!f.error.serverMessage.isEmpty() && !f.error.message.contains(f.error.serverMessage))
                tip += QStringLiteral("<br>") + tr("Server: %1").arg(f.error.serverMessage.toHtmlEscaped());
        }
        if (f.origin == kFrameOriginMcp)
            tip += QStringLiteral("<br>") + tr("Made by an agent through nb2lite mcp");
        if (f.reAnchored)
            tip += QStringLiteral("<br>") + tr("Re-anchored: sent the parent's pixels (continuity may differ)");
        if (f.idExpiresAt.isValid() && f.isDone()) {
            const qint64 secs = QDateTime::currentDateTimeUtc().secsTo(f.idExpiresAt);
            if (secs <= 0)
                tip += QStringLiteral("<br>") + tr("Server id expired: the next edit re-sends this image");
            else if (secs < 48 * 3600)
                tip += QStringLiteral("<br>") + tr("Server id expires in %1 h").arg(secs / 3600);
        }
        return tip;
    }
    case TimelineRole::FrameId:
        return f.id;
    case TimelineRole::ParentId:
        return f.parentId;
    case TimelineRole::ParentRow:
        return row.parentRow;
    case TimelineRole::Depth:
        return row.depth;
    case TimelineRole::Lane:
        return row.lane;
    case TimelineRole::State:
        return int(displayState(f.status));
    case TimelineRole::Kind:
        return frameKindName(f.kind);
    case TimelineRole::Prompt:
        return f.prompt;
    case TimelineRole::ImagePath:
        return f.image.isNull() ? QString() : m_session->store()->absolutePath(f.image.file);
    case TimelineRole::Draft:
        return m_drafts.value(f.id);
    case TimelineRole::StartedAt:
        return f.requestedAt;
    case TimelineRole::ErrorText:
        return f.error.message;
    case TimelineRole::ServerMessage:
        return f.error.serverMessage;
    case TimelineRole::RetryAt:
        return m_retryAt.value(f.id);
    case TimelineRole::ReAnchored:
        return f.reAnchored;
    case TimelineRole::ExpiresAt:
        return f.idExpiresAt;
    case TimelineRole::Starred:
        return f.starred;
    case TimelineRole::IsHead:
        return row.childCount == 0;
    case TimelineRole::ChildCount:
        return row.childCount;
    case TimelineRole::Number:
        return row.number;
    case TimelineRole::AspectRatio:
        return f.aspectRatio;
    case TimelineRole::InteractionId:
        return f.interactionId;
    case TimelineRole::MadeByAgent:
        return f.origin == kFrameOriginMcp;
    case TimelineRole::FindState:
        if (m_filter.isEmpty())
            return int(FindState::NoFilter);
        if (m_matchIds.contains(f.id))
            return int(FindState::Match);
        return int(m_pathIds.contains(f.id) ? FindState::OnPath : FindState::Dimmed);
    case TimelineRole::CostUsd: {
        const FrameCost c = frameCost(f, m_session->priceTable());
        return c.hasUsage ? c.usd : -1.0;
    }
    case TimelineRole::DriftChanged:
        return f.drift.changed;
    case TimelineRole::DriftWarning:
        return EditFinisher::warrantsWarning(f);
    case TimelineRole::Folded:
        return f.folded;
    case TimelineRole::BranchCostUsd:
    case TimelineRole::BranchReproduceUsd: {
        if (row.childCount != 0)
            return -1.0;
        const CostLedger ledger(m_session->graph(), m_session->priceTable());
        if (role == TimelineRole::BranchReproduceUsd)
            return ledger.reproduceCost(f.id);
        double own = 0; // as CostLedger::branches(): the frames no other branch shares
        for (const QString &id : branchOwnFrames(row))
            own += ledger.frame(id).usd;
        return own;
    }
    default:
        return {};
    }
}

QStringList TimelineModel::mimeTypes() const
{
    return {QStringLiteral("text/uri-list")};
}

QMimeData *TimelineModel::mimeData(const QModelIndexList &indexes) const
{
    QList<QUrl> urls;
    for (const QModelIndex &i : indexes) {
        const QString path = data(i, TimelineRole::ImagePath).toString();
        if (!path.isEmpty())
            urls.append(QUrl::fromLocalFile(path));
    }
    if (urls.isEmpty())
        return nullptr;
    auto *mime = new QMimeData;
    mime->setUrls(urls); // other apps read the image file; nothing is decoded here
    return mime;
}

Qt::DropActions TimelineModel::supportedDragActions() const
{
    return Qt::CopyAction;
}

QHash<int, QByteArray> TimelineModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(TimelineRole::FrameId, "frameId");
    names.insert(TimelineRole::State, "state");
    names.insert(TimelineRole::Lane, "lane");
    names.insert(TimelineRole::Depth, "depth");
    return names;
}

} // namespace nb2
