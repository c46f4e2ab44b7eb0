#pragma once

#include <Qt>

namespace nb2 {

/** How a frame looks on the timeline; a display reduction of the session's frame state. */
enum class TimelineState {
    Done,
    Pending,
    Failed,
    Interrupted,
    Cancelled,
};

/** How a frame looks while a find filter is active (TimelineRole::FindState). */
enum class FindState {
    NoFilter, // no filter: drawn as usual
    Match,    // matches the filter: bright
    OnPath,   // an ancestor of a match: kept visible so the match's path can be followed
    Dimmed,   // neither: drawn faint
};

/**
 * Item roles of the timeline model. The view and delegate read only these, so they do not
 * depend on the session classes (and a test can feed them from a QStandardItemModel).
 */
namespace TimelineRole {
enum : int {
    FrameId = Qt::UserRole + 1, // QString
    ParentId,                   // QString, empty for roots
    ParentRow,                  // int, -1 for roots
    Depth,                      // int: steps from the root (column on the timeline)
    Lane,                       // int: branch lane (row on the timeline)
    State,                      // int(TimelineState)
    Kind,                       // QString: generate / edit / edit_local / style_edit / import
    Prompt,                     // QString
    ImagePath,                  // QString: absolute path of the frame's image (empty until done)
    Draft,                      // QImage: streaming draft while pending (may be null)
    StartedAt,                  // QDateTime (UTC) the request started
    ErrorText,                  // QString: readable message naming the fix
    ServerMessage,              // QString: the server's own words
    RetryAt,                    // QDateTime: automatic retry time (rate limit), invalid if none
    ReAnchored,                 // bool
    ExpiresAt,                  // QDateTime: server id expiry, invalid if unknown / no id
    Starred,                    // bool
    IsHead,                     // bool: a branch tip (no children)
    ChildCount,                 // int
    Number,                     // int: 1-based creation order, shown on the card
    AspectRatio,                // QString
    InteractionId,              // QString
    MadeByAgent,                // bool: an agent asked for this frame through `nb2lite mcp` (shown as an "agent" mark)
    FindState,                  // int(nb2::FindState): the find filter's verdict on the frame
    CostUsd,            // double: estimated cost of the turn (price table), -1 when the server reported no usage
    DriftChanged,       // double: fraction of the parent the edit changed (drift meter), -1 when not measured
    DriftWarning,       // bool: the edit changed more than a small edit should (EditFinisher::warrantsWarning)
    Folded,             // bool: a variant not picked (drawn collapsed; never deleted)
    BranchCostUsd,      // double, on branch heads only: the cost of the frames only this branch has (-1 elsewhere)
    BranchReproduceUsd, // double, on branch heads only: what re-running root..head would cost (-1 elsewhere)
    // Asked of the root index (QModelIndex()), all rows at once; a model may not answer (an
    // invalid QVariant), and the view then reads the per-row roles. They spare the view one
    // data() call per row and role when a 10,000-frame session opens or changes.
    LayoutTable, // QList<int>: depth, lane, parent row for row 0, then row 1, ... (3 per row)
    PendingRows, // QList<int>: the rows that are pending or wait for an automatic retry, ascending
};
}

} // namespace nb2
