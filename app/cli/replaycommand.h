#pragma once

namespace nb2 {
struct CliArgs;
class SessionController;
} // namespace nb2

namespace nb2::cli {

class Console;

/**
 * `nb2lite --session DIR replay FROM..TO (--onto REF | --photos FILE|DIR ...)` and
 * `replay --resume [ID]`, on a session already opened (and recovered). Plans the replay,
 * prints the plan (--dry-run stops there), checks the budget for the whole replay, runs the
 * queue (core/session/replayrunner) until it is finished, stopped or cancelled (Ctrl-C), and
 * prints each chain's frames. Returns the exit status: 0 when every step is done, else the
 * exit code of the first failure's kind.
 */
int runReplay(SessionController &session, const CliArgs &args, Console &console);

} // namespace nb2::cli
