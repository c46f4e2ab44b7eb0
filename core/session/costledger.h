#pragma once

#include "core/common/error.h"
#include "core/session/frame.h"
#include "core/session/framegraph.h"
#include "core/session/pricetable.h"

#include <QList>
#include <QString>

namespace nb2 {

/** What one frame cost, from its usage fields and the price table. */
struct FrameCost {
    double usd = 0;
    bool hasUsage = false;  // the server reported tokens (imports and unfinished turns: false, cost 0)
    bool exactPrice = true; // the frame's model has its own row in the price table
    double inputUsd = 0;
    double outputUsd = 0; // text output and thinking
    double imageOutputUsd = 0;
};

/** Cost of one frame: input at the input rate, image output at the image rate, text output and thinking at the output rate. */
FrameCost frameCost(const Frame &frame, const PriceTable &prices);

/** What a turn not yet sent will likely cost, and how that was worked out. */
struct TurnEstimate {
    double usd = 0;
    int samples = 0; // similar finished turns the median was taken over; 0: from the price table
    QString basis;   // "median of the last 5 similar turns in this session" / "price table, typical tokens (as of ...)"
};

/** Turns of the same kind are "similar" when they send an image (edits) or do not (generate). */
bool isImageInputKind(FrameKind kind);

/**
 * The estimate for one more turn of `kind` on `model`: the median cost of the most recent
 * similar finished turns in the graph (same model, same kind class, usage known; at most
 * kEstimateSamples), else the price table with typical token counts (a 1K image is 1,120
 * output tokens; an edit sends about 1,400 input tokens for the parent image and prompt).
 */
TurnEstimate estimateTurn(const FrameGraph &graph, const PriceTable &prices, FrameKind kind, const QString &model);
inline constexpr int kEstimateSamples = 9;

/** One branch's cost: what only it has, and what re-running its whole path would cost. */
struct BranchCost {
    Branch branch;
    double ownUsd = 0;       // the frames only this branch has (FrameGraph::branchOwnFrames)
    double reproduceUsd = 0; // every turn on root..head again (recorded cost, or the estimate where unknown)
};

/**
 * The session's cost ledger: per frame, per branch, the session total and the cost to
 * reproduce a branch, computed on demand from the frames' usage and a price table (pure: it
 * keeps no state of its own and is rebuilt whenever the graph or the prices change).
 * The session total counts trashed frames too: deleting a frame does not refund it.
 */
class CostLedger
{
public:
    CostLedger(const FrameGraph &graph, const PriceTable &prices) : m_graph(graph), m_prices(prices) {}

    FrameCost frame(const QString &frameId) const;
    /** Every frame with usage, the trash included. */
    double sessionTotal() const;
    /** Frames that finished (done or failed) without reported usage: the total leaves them out. */
    int framesWithoutUsage() const;
    /** Pending turns, each at its estimate: money already on its way. */
    double pendingEstimate() const;
    QList<BranchCost> branches() const;
    /** The path root..frameId sent again, turn by turn (imports are free). */
    double reproduceCost(const QString &frameId) const;

    /**
     * Refuses (ErrorKind::Budget, nothing sent) when the spent total, the pending turns and
     * `turns` more turns of this kind would exceed budgetUsd. budgetUsd <= 0: no budget.
     */
    Result<void> checkBudget(double budgetUsd, FrameKind kind, const QString &model, int turns = 1) const;

private:
    const FrameGraph &m_graph;
    const PriceTable &m_prices;
};

} // namespace nb2
