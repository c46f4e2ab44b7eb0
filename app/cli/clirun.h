#pragma once

#include "app/cli/commandcontext.h"

#include <QStringList>

namespace nb2::cli {

class Console;

/**
 * Runs one nb2lite command line (argv without the program name): parses it against the
 * command table, then prints help, the version or a completion script, or runs the command,
 * and returns the process exit status. Needs a QCoreApplication. With context.canceller, commands
 * that call the API turn the first SIGINT/SIGTERM into a clean cancel; the others end at once.
 */
int runCommandLine(const QStringList &arguments, Console &console, const CommandContext &context = {});

/**
 * The program around runCommandLine(): installs the signal handling before anything else, makes
 * the QCoreApplication (named like the desktop app, whose config folder holds the learned
 * thinking levels), writes to stdout and stderr, and returns the exit status. nb2lite's main()
 * and the test driver's.
 */
int runNb2lite(int argc, char *argv[]);

} // namespace nb2::cli
