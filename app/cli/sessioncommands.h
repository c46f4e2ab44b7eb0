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

/**
 * The session commands that open their session for work through SessionController::open():
 * all but log and rebuild, and not export, open-bundle or mcp (which open otherwise).
 */
bool opensSessionForWork(const CliArgs &args);

/**
 * Of those, the ones that read a few frames of the session (the turns, import, keep): their
 * session builds frames on demand (SessionStore::setFramesOnDemand()). cost, recover and
 * replay read every frame, so for them building on demand would only add the nodes' read.
 */
bool usesFewFrames(const CliArgs &args);

/**
 * For a session command that opens its session for work (opensSessionForWork()): starts
 * reading the session's checkpoint and journal tail on a thread of its own
 * (SessionStore::preload), so that the parse (~20 ms at 10,000 frames) overlaps the rest of
 * the start-up (key, settings, client) instead of following it. The open() that follows takes
 * what was read, with the same checks, if manifest.json is still the file that was read.
 * Returns whether a read was started (not for log or rebuild, nor for a folder without a
 * manifest). Needs a QCoreApplication (the thread is its child).
 */
bool preloadSessionForWork(const CliArgs &args);

} // namespace nb2::cli
