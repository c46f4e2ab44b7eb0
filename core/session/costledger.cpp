#include "core/session/costledger.h"

#include <QHash>
#include <QPair>

#include <algorithm>

namespace nb2 {

namespace {

constexpr double kPerMillion = 1e6;

// Typical tokens of one Lite image turn, for the table estimate when the session has no
// similar turn yet (the API spec: a Lite 1K image is about 1,120 output tokens).
constexpr qint64 kTypicalImageOutput = 1120;
constexpr qint64 kTypicalTextOutput = 30;
constexpr qint64 kTypicalThought = 80;
constexpr qint64 kTypicalGenerateInput = 40;
constexpr qint64 kTypicalEditInput = 1400;

/**
 * What a frame's cost depends on, read alike from a built Frame and from a FrameNode: the
 * session-wide sums below go through FrameGraph::visitAt() and so build no frame when a
 * one-shot command opened the session with frames on demand (a budget check on 10,000 frames
 * built all of them: an edit there took 1.45x one on a 1-frame session instead of 1.04x).
 */
struct CostInputs {
    FrameKind kind;
    FrameStatus status;
    const QString &model;
    const Usage &usage;
    bool hasImage;
};

CostInputs costInputs(const Frame &f)
{
    return {f.kind, f.status, f.model, f.usage, !f.image.isNull()};
}

CostInputs costInputs(const FrameNode &n)
{
    return {n.kind, n.status, n.model, n.usage, !n.imageFile.isEmpty()};
}

bool countsAsSpent(const CostInputs &f)
{
    return f.kind != FrameKind::Import && f.status != FrameStatus::Pending;
}

FrameCost costOf(const CostInputs &frame, const PriceTable &prices)
{
    FrameCost c;
    const Usage &u = frame.usage;
    c.hasUsage = frame.kind != FrameKind::Import && (u.inputTokens >= 0 || u.outputTokens >= 0 || u.thoughtTokens >= 0);
    if (!c.hasUsage)
        return c;
    const ModelPrice p = prices.priceFor(frame.model, &c.exactPrice);
    const qint64 input = qMax<qint64>(0, u.inputTokens);
    const qint64 output = qMax<qint64>(0, u.outputTokens);
    // Without a per-modality split, a turn that returned an image is billed as if all its
    // output were image tokens: the text part is a caption, and the estimate errs high.
    qint64 image = u.imageOutputTokens >= 0 ? qMin(u.imageOutputTokens, output) : (frame.hasImage ? output : 0);
    const qint64 text = output - image + qMax<qint64>(0, u.thoughtTokens);
    c.inputUsd = double(input) * p.inputPerMTok / kPerMillion;
    c.imageOutputUsd = double(image) * p.imageOutputPerMTok / kPerMillion;
    c.outputUsd = double(text) * p.outputPerMTok / kPerMillion;
    c.usd = c.inputUsd + c.imageOutputUsd + c.outputUsd;
    return c;
}

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    const qsizetype n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

bool isImageInputKind(FrameKind kind)
{
    return kind != FrameKind::Generate && kind != FrameKind::Import;
}

FrameCost frameCost(const Frame &frame, const PriceTable &prices)
{
    return costOf(costInputs(frame), prices);
}

TurnEstimate estimateTurn(const FrameGraph &graph, const PriceTable &prices, FrameKind kind, const QString &model)
{
    TurnEstimate e;
    if (kind == FrameKind::Import) {
        e.basis = QStringLiteral("an import sends nothing");
        return e;
    }
    QList<double> costs;
    for (qsizetype i = graph.size() - 1; i >= 0 && costs.size() < kEstimateSamples; --i) {
        graph.visitAt(i, [&](const auto &frame) {
            const CostInputs f = costInputs(frame);
            if (f.status != FrameStatus::Done || f.model != model || isImageInputKind(f.kind) != isImageInputKind(kind))
                return;
            if (const FrameCost c = costOf(f, prices); c.hasUsage)
                costs.append(c.usd);
        });
    }
    if (!costs.isEmpty()) {
        e.usd = median(costs);
        e.samples = int(costs.size());
        e.basis = e.samples == 1 ? QStringLiteral("as the one similar turn in this session")
                                 : QStringLiteral("median of the last %1 similar turns in this session").arg(e.samples);
        return e;
    }
    const ModelPrice p = prices.priceFor(model);
    const qint64 input = isImageInputKind(kind) ? kTypicalEditInput : kTypicalGenerateInput;
    e.usd = (double(input) * p.inputPerMTok + double(kTypicalImageOutput) * p.imageOutputPerMTok
                + double(kTypicalTextOutput + kTypicalThought) * p.outputPerMTok)
        / kPerMillion;
    e.basis = QStringLiteral("price table, typical tokens (as of %1)").arg(prices.asOf);
    return e;
}

FrameCost CostLedger::frame(const QString &frameId) const
{
    const Frame *f = m_graph.frame(frameId);
    return f ? frameCost(*f, m_prices) : FrameCost {};
}

double CostLedger::sessionTotal() const
{
    double total = 0;
    for (qsizetype i = 0; i < m_graph.size(); ++i)
        total += m_graph.visitAt(i, [&](const auto &f) { return costOf(costInputs(f), m_prices).usd; });
    return total;
}

int CostLedger::framesWithoutUsage() const
{
    int n = 0;
    for (qsizetype i = 0; i < m_graph.size(); ++i) {
        m_graph.visitAt(i, [&](const auto &frame) {
            const CostInputs f = costInputs(frame);
            if (countsAsSpent(f) && !costOf(f, m_prices).hasUsage)
                ++n;
        });
    }
    return n;
}

double CostLedger::pendingEstimate() const
{
    double total = 0;
    for (qsizetype i = 0; i < m_graph.size(); ++i) {
        m_graph.visitAt(i, [&](const auto &frame) {
            const CostInputs f = costInputs(frame);
            if (f.status == FrameStatus::Pending && f.kind != FrameKind::Import)
                total += estimateTurn(m_graph, m_prices, f.kind, f.model).usd;
        });
    }
    return total;
}

namespace {

/**
 * Costs to reproduce paths, each frame's computed once from its parent's: what
 * CostLedger::reproduceCost() gives for one frame, for many heads of one graph. A frame without
 * usage counts at the estimate for its model and kind of input (one estimate per pair, each
 * scans the session from its end); imports are free.
 */
class PathCosts
{
public:
    PathCosts(const FrameGraph &graph, const PriceTable &prices) : m_graph(graph), m_prices(prices) {}

    /** The turns root..id sent again; 0 when id is unknown or its parents form a cycle (no path). */
    double upTo(const QString &id)
    {
        // Up to the first frame already known (or the root, or a parent the graph lacks), then
        // down again adding each turn: the same sum in the same order (root first) as a walk of
        // FrameGraph::pathTo(), without walking a shared path again for every branch.
        QList<const Frame *> chain;
        double total = 0;
        qsizetype stepsLeft = m_graph.size();
        for (QString cur = id; !cur.isEmpty();) {
            if (const auto known = m_upTo.constFind(cur); known != m_upTo.cend()) {
                total = *known;
                break;
            }
            const Frame *f = m_graph.frame(cur);
            if (!f)
                break;
            if (stepsLeft-- == 0)
                return 0; // a cycle: pathTo() has no path, so there is nothing to reproduce
            chain.append(f);
            cur = f->parentId;
        }
        for (auto it = chain.crbegin(); it != chain.crend(); ++it) {
            total += turn(**it);
            m_upTo.insert((*it)->id, total);
        }
        return total;
    }

private:
    double turn(const Frame &f)
    {
        if (f.kind == FrameKind::Import)
            return 0;
        if (const FrameCost c = frameCost(f, m_prices); c.hasUsage)
            return c.usd;
        const QPair<QString, bool> key(f.model, isImageInputKind(f.kind));
        auto it = m_estimates.find(key);
        if (it == m_estimates.end())
            it = m_estimates.insert(key, estimateTurn(m_graph, m_prices, f.kind, f.model).usd);
        return it.value();
    }

    const FrameGraph &m_graph;
    const PriceTable &m_prices;
    QHash<QString, double> m_upTo;
    QHash<QPair<QString, bool>, double> m_estimates;
};

} // namespace

double CostLedger::reproduceCost(const QString &frameId) const
{
    return PathCosts(m_graph, m_prices).upTo(frameId);
}

QList<BranchCost> CostLedger::branches() const
{
    // One pass for every frame's live children, then each branch walks only what it owns and
    // each shared path is summed once. Per branch, FrameGraph::branchOwnFrames() scans every
    // frame at each step and reproduceCost() walks the whole path: `nb2lite cost` took ~1.1 s on
    // the benchmark's 10,000-frame session (1,000 branches).
    QHash<QString, int> liveChildren;
    for (const Frame &f : m_graph.frames())
        if (!f.isTrashed() && !f.parentId.isEmpty())
            ++liveChildren[f.parentId];
    PathCosts paths(m_graph, m_prices);
    QList<BranchCost> out;
    for (const Branch &b : m_graph.branches()) {
        BranchCost bc;
        bc.branch = b;
        // As FrameGraph::branchOwnFrames(): up from the head while the parent has no other live child.
        for (QString cur = b.head(); !cur.isEmpty();) {
            bc.ownUsd += frame(cur).usd;
            const QString parent = m_graph.parent(cur);
            if (parent.isEmpty() || !m_graph.contains(parent) || liveChildren.value(parent) != 1)
                break;
            cur = parent;
        }
        bc.reproduceUsd = paths.upTo(b.head());
        out.append(bc);
    }
    return out;
}

Result<void> CostLedger::checkBudget(double budgetUsd, FrameKind kind, const QString &model, int turns) const
{
    if (budgetUsd <= 0 || turns <= 0)
        return {};
    const double spent = sessionTotal();
    const double pending = pendingEstimate();
    const TurnEstimate next = estimateTurn(m_graph, m_prices, kind, model);
    const double asked = next.usd * turns;
    if (spent + pending + asked <= budgetUsd)
        return {};
    QString what = turns == 1
        ? QStringLiteral("this turn (about %1, %2)").arg(formatUsd(asked), next.basis)
        : QStringLiteral("these %1 turns (about %2, %3)").arg(turns).arg(formatUsd(asked), next.basis);
    return Error::make(ErrorKind::Budget,
        QStringLiteral("Not sent: the session budget is %1 and this session has spent %2%3; %4 would go "
                       "over it. Raise the budget (Settings, or --budget USD) or start a new session. "
                       "Costs are estimates from the price table.")
            .arg(formatUsd(budgetUsd), formatUsd(spent),
                pending > 0 ? QStringLiteral(" with %1 more on its way").arg(formatUsd(pending)) : QString(), what));
}

} // namespace nb2
