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

bool countsAsSpent(const Frame &f)
{
    return f.kind != FrameKind::Import && f.status != FrameStatus::Pending;
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
    qint64 image = u.imageOutputTokens >= 0 ? qMin(u.imageOutputTokens, output) : (frame.image.isNull() ? 0 : output);
    const qint64 text = output - image + qMax<qint64>(0, u.thoughtTokens);
    c.inputUsd = double(input) * p.inputPerMTok / kPerMillion;
    c.imageOutputUsd = double(image) * p.imageOutputPerMTok / kPerMillion;
    c.outputUsd = double(text) * p.outputPerMTok / kPerMillion;
    c.usd = c.inputUsd + c.imageOutputUsd + c.outputUsd;
    return c;
}

TurnEstimate estimateTurn(const FrameGraph &graph, const PriceTable &prices, FrameKind kind, const QString &model)
{
    TurnEstimate e;
    if (kind == FrameKind::Import) {
        e.basis = QStringLiteral("an import sends nothing");
        return e;
    }
    QList<double> costs;
    const QList<Frame> &frames = graph.frames();
    for (auto it = frames.crbegin(); it != frames.crend() && costs.size() < kEstimateSamples; ++it) {
        if (!it->isDone() || it->model != model || isImageInputKind(it->kind) != isImageInputKind(kind))
            continue;
        const FrameCost c = frameCost(*it, prices);
        if (c.hasUsage)
            costs.append(c.usd);
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
    for (const Frame &f : m_graph.frames())
        total += frameCost(f, m_prices).usd;
    return total;
}

int CostLedger::framesWithoutUsage() const
{
    int n = 0;
    for (const Frame &f : m_graph.frames()) {
        if (countsAsSpent(f) && !frameCost(f, m_prices).hasUsage)
            ++n;
    }
    return n;
}

double CostLedger::pendingEstimate() const
{
    double total = 0;
    for (const Frame &f : m_graph.frames()) {
        if (f.isPending() && f.kind != FrameKind::Import)
            total += estimateTurn(m_graph, m_prices, f.kind, f.model).usd;
    }
    return total;
}

double CostLedger::reproduceCost(const QString &frameId) const
{
    // A path can be thousands of frames long (an agent's session): no copy of each frame, and
    // one estimate per (model, kind of input) however many frames on it lack usage (each
    // estimate scans the session from its end).
    QHash<QPair<QString, bool>, double> estimates;
    double total = 0;
    for (const QString &id : m_graph.pathTo(frameId)) {
        const Frame *f = m_graph.frame(id);
        if (!f || f->kind == FrameKind::Import)
            continue;
        if (const FrameCost c = frameCost(*f, m_prices); c.hasUsage) {
            total += c.usd;
            continue;
        }
        const QPair<QString, bool> key(f->model, isImageInputKind(f->kind));
        auto it = estimates.find(key);
        if (it == estimates.end())
            it = estimates.insert(key, estimateTurn(m_graph, m_prices, f->kind, f->model).usd);
        total += it.value();
    }
    return total;
}

QList<BranchCost> CostLedger::branches() const
{
    QList<BranchCost> out;
    for (const Branch &b : m_graph.branches()) {
        BranchCost bc;
        bc.branch = b;
        for (const QString &id : m_graph.branchOwnFrames(b.head()))
            bc.ownUsd += frame(id).usd;
        bc.reproduceUsd = reproduceCost(b.head());
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
