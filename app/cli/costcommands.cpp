#include "app/cli/costcommands.h"

#include "app/cli/cliargs.h"
#include "app/cli/clireport.h"
#include "app/cli/clitext.h"
#include "app/cli/console.h"
#include "app/cli/exitcodes.h"
#include "app/cli/jsonout.h"
#include "app/cli/loggraph.h"
#include "core/session/costledger.h"
#include "core/session/framefilter.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QJsonObject>
#include <QJsonValue>

#include <cmath>

#include <nlohmann/json.hpp>

namespace nb2::cli {

namespace {

/** Dollars rounded to a millionth, so JSON readers see 0.033725 rather than float noise. */
double roundUsd(double usd)
{
    return std::round(usd * 1e6) / 1e6;
}

OutJson priceTableJson(const PriceTable &prices)
{
    OutJson rows = OutJson::array();
    for (const ModelPrice &p : prices.models)
        rows.push_back(OutJson {{"model", p.model.toStdString()}, {"input_per_mtok", p.inputPerMTok},
            {"output_per_mtok", p.outputPerMTok}, {"image_output_per_mtok", p.imageOutputPerMTok}});
    return OutJson {{"currency", "USD"}, {"as_of", prices.asOf.toStdString()}, {"source", prices.source.toStdString()},
        {"estimate", true}, {"models", rows}};
}

QString priceTableText(const PriceTable &prices)
{
    QString text
        = CliText::tr("prices (USD per 1M tokens; %1, as of %2):").arg(prices.source, prices.asOf) + QLatin1Char('\n');
    for (const ModelPrice &p : prices.models)
        text += CliText::tr("  %1: input %2, output %3, image output %4")
                    .arg(p.model)
                    .arg(p.inputPerMTok, 0, 'f', 2)
                    .arg(p.outputPerMTok, 0, 'f', 2)
                    .arg(p.imageOutputPerMTok, 0, 'f', 2)
            + QLatin1Char('\n');
    return text;
}

QString oneLine(QString s, int max = 40)
{
    s.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return s.size() > max ? s.left(max - 1) + QChar(0x2026) : s;
}

} // namespace

int printCost(const SessionController &session, const CliArgs &a, Console &console)
{
    const FrameGraph &g = session.graph();
    const PriceTable &prices = session.priceTable();
    const CostLedger ledger(g, prices);
    const double total = ledger.sessionTotal();
    const double budget = session.settings().budgetUsd;
    const QList<BranchCost> branches = ledger.branches();

    if (a.json) {
        OutJson frames = OutJson::array();
        for (const Frame &f : g.frames()) {
            const FrameCost c = frameCost(f, prices);
            frames.push_back(OutJson {{"id", f.id.toStdString()}, {"kind", frameKindName(f.kind).toStdString()},
                {"status", frameStatusName(f.status).toStdString()}, {"model", stringOrNull(f.model)},
                {"trashed", f.isTrashed()}, {"has_usage", c.hasUsage}, {"exact_price", c.exactPrice},
                {"usd", roundUsd(c.usd)}});
        }
        OutJson branchRows = OutJson::array();
        for (const BranchCost &b : branches)
            branchRows.push_back(OutJson {{"head", b.branch.head().toStdString()}, {"frames", b.branch.path.size()},
                {"own_usd", roundUsd(b.ownUsd)}, {"reproduce_usd", roundUsd(b.reproduceUsd)}});
        OutJson o = OutJson::object();
        o["session"] = toOutJson(session.store()->dir());
        o["total_usd"] = roundUsd(total);
        o["frames_without_usage"] = ledger.framesWithoutUsage();
        o["budget_usd"] = budget > 0 ? OutJson(budget) : OutJson();
        o["remaining_usd"] = budget > 0 ? OutJson(roundUsd(budget - total)) : OutJson();
        o["frames"] = frames;
        o["branches"] = branchRows;
        o["prices"] = priceTableJson(prices);
        console.out(jsonLine(o));
        return kExitSuccess;
    }

    QString text;
    for (const Frame &f : g.frames()) {
        const FrameCost c = frameCost(f, prices);
        QString cost = c.hasUsage ? formatUsd(c.usd)
                                  : (f.kind == FrameKind::Import ? CliText::tr("free") : CliText::tr("no usage"));
        if (c.hasUsage && !c.exactPrice)
            cost += CliText::tr(" (model not in the price table: priced as %1)").arg(prices.models.value(0).model);
        text += QStringLiteral("%1 %2 %3 \"%4\"%5\n")
                    .arg(f.id, frameKindName(f.kind).leftJustified(10), cost.rightJustified(8), oneLine(f.prompt),
                        f.isTrashed() ? QStringLiteral(" [trash]") : QString());
    }
    text += CliText::tr("branches:") + QLatin1Char('\n');
    for (int i = 0; i < branches.size(); ++i)
        text += CliText::tr(
                    "  %1. head %2: %3 own, %4 to reproduce (%n turn(s))", nullptr, int(branches[i].branch.path.size()))
                    .arg(i + 1)
                    .arg(branches[i].branch.head(), formatUsd(branches[i].ownUsd), formatUsd(branches[i].reproduceUsd))
            + QLatin1Char('\n');
    text += CliText::tr("total: %1 (estimate)").arg(formatUsd(total));
    if (const int missing = ledger.framesWithoutUsage())
        text += CliText::tr("; %n finished turn(s) without usage are not counted", nullptr, missing);
    text += QLatin1Char('\n');
    if (budget > 0)
        text += CliText::tr("budget: %1, left: %2").arg(formatUsd(budget), formatUsd(budget - total))
            + QLatin1Char('\n');
    text += priceTableText(prices);
    console.out(text);
    return kExitSuccess;
}

int printDryRun(const FrameGraph &graph, const PriceTable &prices, double budgetUsd, FrameKind kind,
    const QString &model, int turns, const CliArgs &a, Console &console)
{
    const CostLedger ledger(graph, prices);
    const TurnEstimate estimate = estimateTurn(graph, prices, kind, model);
    const Result<void> allowed = ledger.checkBudget(budgetUsd, kind, model, turns);
    if (a.json) {
        OutJson o = OutJson::object();
        o["dry_run"] = true;
        o["turns"] = turns;
        o["kind"] = frameKindName(kind).toStdString();
        o["model"] = model.toStdString();
        o["estimate_usd"] = roundUsd(estimate.usd * turns);
        o["estimate_basis"] = estimate.basis.toStdString();
        o["spent_usd"] = roundUsd(ledger.sessionTotal());
        o["budget_usd"] = budgetUsd > 0 ? OutJson(budgetUsd) : OutJson();
        o["within_budget"] = allowed.ok();
        o["prices"] = priceTableJson(prices);
        console.out(jsonLine(o));
    } else {
        console.out(CliText::tr("dry run, nothing sent: %n turn(s) (%1) on %2, estimated %3 (%4)", nullptr, turns)
                        .arg(frameKindName(kind), model, formatUsd(estimate.usd * turns), estimate.basis)
            + QLatin1Char('\n'));
        if (budgetUsd > 0 && allowed)
            console.out(CliText::tr("within the budget of %1 (spent so far: %2)")
                            .arg(formatUsd(budgetUsd), formatUsd(ledger.sessionTotal()))
                + QLatin1Char('\n'));
    }
    if (!allowed) {
        CliReport report;
        report.error = allowed.error();
        console.err(console.printer().errorLine(report));
        return exitCodeOf(report);
    }
    return kExitSuccess;
}

void printFilteredLog(
    const SessionStore &store, const CliArgs &a, Console &console, QString (*frameLine)(const Frame &))
{
    FrameFilter filter;
    filter.text = a.grep;
    filter.starredOnly = a.starredOnly;
    const FrameGraph &g = store.graph();
    const QStringList ids = g.frameIds(a.all ? FrameGraph::IncludeTrashed : FrameGraph::LiveOnly);
    QStringList matched;
    for (const QString &id : ids) {
        if (filter.matches(g.value(id)))
            matched.append(id);
    }
    if (a.json) {
        OutJson frames = OutJson::array();
        for (const QString &id : std::as_const(matched))
            frames.push_back(toOutJson(QJsonValue(g.value(id).toJson())));
        OutJson o = OutJson::object();
        o["session"] = toOutJson(store.dir());
        o["grep"] = stringOrNull(a.grep);
        o["starred"] = a.starredOnly;
        o["matched"] = matched.size();
        o["of"] = ids.size();
        o["frames"] = frames;
        console.out(jsonLine(o));
        return;
    }
    QString text;
    Ancestry ancestry(g);
    for (const QString &id : std::as_const(matched)) {
        // Where on the graph a match is: its ancestors' ids (shortened on long chains).
        text += frameLine(g.value(id));
        if (const QString after = ancestry.ancestorsText(id); !after.isEmpty())
            text += CliText::tr("  (after %1)").arg(after);
        text += QLatin1Char('\n');
    }
    text += CliText::tr("%1 of %n frame(s) match", nullptr, int(ids.size())).arg(matched.size()) + QLatin1Char('\n');
    console.out(text);
}

} // namespace nb2::cli
