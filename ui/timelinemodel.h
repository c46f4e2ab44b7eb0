#pragma once

#include "core/session/framefilter.h"
#include "ui/timelinemodelrows.h"
#include "ui/timelineroles.h"

#include <QAbstractListModel>
#include <QDateTime>
#include <QHash>
#include <QImage>
#include <QPointer>
#include <QStringList>

namespace nb2 {

class SessionController;
struct Frame;

/**
 * A thin, flat QAbstractItemModel over the session's FrameGraph: one row per live frame in
 * creation order, with the graph's shape exposed as roles (parent row, depth along the
 * chain, branch lane) for the timeline view. Lanes are stable as the session grows: a
 * frame stays in its parent's lane when it is the parent's first live child, any later
 * child opens a new lane. It owns no frame data — it re-reads the graph when the controller
 * says something changed — plus two bits of view state the graph does not hold: streaming
 * drafts and automatic-retry times.
 */
class TimelineModel : public QAbstractListModel
{
    Q_OBJECT
public:
    explicit TimelineModel(SessionController *session, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QStringList mimeTypes() const override;
    QMimeData *mimeData(const QModelIndexList &indexes) const override;
    Qt::DropActions supportedDragActions() const override;
    QHash<int, QByteArray> roleNames() const override;

    QModelIndex indexOf(const QString &frameId) const;
    QString frameIdAt(int row) const;
    int laneCount() const { return m_laneCount; }

    /** Shows a draft image on a pending frame (until it is done). */
    void setDraft(const QString &frameId, const QImage &draft);
    /** When the UI will retry the frame automatically (rate limit); invalid clears it. */
    void setRetryAt(const QString &frameId, const QDateTime &when);
    QDateTime retryAt(const QString &frameId) const { return m_retryAt.value(frameId); }

    /**
     * Find: frames matching the filter stay bright, their ancestors stay visible, the rest are
     * dimmed (TimelineRole::FindState). Rows are never hidden, so lanes and selection stay put.
     * An empty filter turns find off.
     */
    void setFilter(const FrameFilter &filter);
    const FrameFilter &filter() const { return m_filter; }
    /** Rows that match the active filter (0 when no filter is active). */
    int matchCount() const { return int(m_matchIds.size()); }

    /**
     * The next reload() in this pass of the event loop (the one a background open's hand-over
     * causes) builds its rows on a worker: the GUI thread copies each frame's id and parent,
     * the model is empty until the rows are in, then resets once with them and emits
     * rowsPrepared(). At 10,000 frames that keeps the row table and its hash (2-5 ms) off the
     * GUI thread, which then only swaps in a ready structure.
     */
    void prepareNextReload();
    /** Rows are being built on a worker (prepareNextReload()); the model is empty until then. */
    bool isPreparing() const { return m_preparing; }

Q_SIGNALS:
    /** The rows a prepared reload built on a worker are in (the model was reset with them). */
    void rowsPrepared();

public Q_SLOTS:
    /** Re-reads the graph: appends rows when frames were only added, otherwise resets. */
    void refresh();
    /** Recounts every row from the graph and resets (a session was opened). */
    void reload();
    /** Updates these frames' rows; recounts when one of them left or joined the rows (trash, restore). */
    void framesChanged(const QStringList &frameIds);

private:
    using Row = TimelineRow;
    /** The rows from the graph (buildTimelineRows on this thread). */
    TimelineRows computeRows() const;
    /**
     * Resets the model to rows made from the graph at rowsRevision (here or on a worker); the
     * old rows are freed on a worker when large.
     */
    void adoptRows(TimelineRows rows, quint64 rowsRevision);
    /** The graph's FrameGraph::rowsRevision(); 0 (no graph has it) when no session is open. */
    quint64 graphRowsRevision() const;
    /** Starts building the rows on a worker (prepareNextReload()). */
    void startPreparing();
    /**
     * Every row still names the same live frame, in the same order, with the same parent. At
     * once when the graph's rows revision is the one the rows were made from (only frames were
     * appended since), else compared row by row (O(frames)).
     */
    bool knownRowsStillHold() const;
    QList<int> layoutTable() const; // TimelineRole::LayoutTable
    /** FrameGraph::branchOwnFrames(head.id), from the rows (TimelineRole::BranchCostUsd). */
    QStringList branchOwnFrames(const Row &head) const;
    QList<int> pendingRows() const; // TimelineRole::PendingRows
    /**
     * The common change, frames appended to the graph (a turn, another process's turn), costs
     * the new rows only: checks that every known row is still the same frame in the same
     * place, then appends rows for the new frames. False when anything else changed (a frame
     * trashed, restored or removed): refresh() then recomputes every row.
     */
    bool appendNewFrames();
    QVariant frameData(const Frame &frame, const Row &row, int role) const;
    /** Recomputes which frames match; emits FindState changes for every row when anything moved. */
    void updateFind();

    QPointer<SessionController> m_session;
    QList<Row> m_rows;
    QHash<QString, int> m_rowOf;
    int m_laneCount = 0;
    qsizetype m_frameCount = 0; // graph frames (trashed included) the rows were made from
    quint64 m_rowsRevision = 0; // FrameGraph::rowsRevision() the rows are known to hold at
    QHash<QString, QImage> m_drafts;
    QHash<QString, QDateTime> m_retryAt;
    FrameFilter m_filter;
    QSet<QString> m_matchIds;
    QSet<QString> m_pathIds;
    static constexpr int kApartMs = 16; // prepared rows go in at least a frame (60 Hz) after the open
    bool m_prepareNext = false;         // prepareNextReload() was asked for this pass of the event loop
    bool m_preparing = false;           // rows are being built on a worker
    quint64 m_reloadSerial = 0;         // a later reload supersedes rows still being built
};

} // namespace nb2
