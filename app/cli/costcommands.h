#pragma once

#include "core/session/frame.h"

#include <QString>

namespace nb2 {
struct CliArgs;
struct PriceTable;
class FrameGraph;
class SessionController;
class SessionStore;
} // namespace nb2

namespace nb2::cli {

class Console;

/** `nb2lite --session DIR cost [--budget USD] [--json]`: per frame, per branch, the total, the price table and its date. */
int printCost(const SessionController &session, const CliArgs &args, Console &console);

/**
 * `--dry-run` of a turn command (`turns` of them: --variants): prints the plan (turns, kind, model), the estimated cost and
 * what the budget says, and sends nothing. Exit status 0, or the Budget exit code when the
 * budget would refuse the turn. `graph` may be empty (no session: the estimate is the table's).
 */
int printDryRun(const FrameGraph &graph, const PriceTable &prices, double budgetUsd, FrameKind kind,
    const QString &model, int turns, const CliArgs &args, Console &console);

/** `log --grep TEXT / --starred`: the matching frames, one line each, and how many matched. */
void printFilteredLog(
    const SessionStore &store, const CliArgs &args, Console &console, QString (*frameLine)(const Frame &));

} // namespace nb2::cli
