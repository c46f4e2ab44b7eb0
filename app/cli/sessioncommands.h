#pragma once

#include "app/cli/commandcontext.h"

namespace nb2 {
struct CliArgs;
}

namespace nb2::cli {

class Console;

/**
 * `nb2lite --session DIR <command> ...`: generate / edit / edit-local / style-edit / import /
 * retry / reanchor / recover / rebuild / log inside a session folder, from arguments already
 * parsed against the command table. Runs an event loop until the turn is finished; returns the
 * process exit status (0 ok, 2 usage, otherwise exitCodeFor(error kind)). Needs a
 * QCoreApplication. Environment: GEMINI_API_KEY/GOOGLE_API_KEY, GOOGLE_GEMINI_BASE_URL.
 */
int runSessionCommand(const CliArgs &args, Console &console, const CommandContext &context = {});

} // namespace nb2::cli
