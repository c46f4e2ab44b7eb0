#pragma once

#include <QString>
#include <QStringList>

class QTextStream;

namespace nb2::cli {

/** True when the arguments (argv without the program name) are `--session DIR export|open-bundle ...`. */
bool isExportCommand(const QStringList &arguments);

/**
 * `nb2lite --session DIR export --format html|bundle|sheet|frames [--branch B | --frames F…]
 *  [--strip-prompts] [--strip-ids] [--single-file] [--no-failed] [--copy] [--json] OUT`
 * and `nb2lite --session DIR open-bundle FILE` (extracts a .nb2session into DIR, which must be
 * new or empty, and checks that it opens). Blocking, no network, no key needed. Returns the
 * process exit status (0 ok, 2 usage, otherwise exitCodeFor(error kind)).
 */
int runExportCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

/** The "EXPORT" section of --help. */
QString exportCommandHelp();

} // namespace nb2::cli
