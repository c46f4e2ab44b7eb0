#pragma once

namespace nb2 {
struct CliArgs;
}

namespace nb2::cli {

class Console;

/**
 * `nb2lite --session DIR export --format html|bundle|sheet|frames [--branch B | --frames F…]
 *  [--strip-prompts] [--strip-ids] [--strip-cost] [--single-file] [--no-failed] [--copy] [--json] OUT`
 * and `nb2lite --session DIR open-bundle FILE` (extracts a .nb2session into DIR, which must be
 * new or empty, and checks that it opens), from arguments already parsed against the command
 * table. Blocking, no network, no key needed. Returns the process exit status (0 ok, 2 usage,
 * otherwise exitCodeFor(error kind)).
 */
int runExportCommand(const CliArgs &args, Console &console);

} // namespace nb2::cli
