#pragma once

#include <QString>
#include <QStringList>

class QTextStream;

namespace nb2::cli {

/** True when the arguments (argv without the program name) carry --session DIR. */
bool isSessionCommand(const QStringList &arguments);

/**
 * `nb2lite --session DIR <command> ...`: generate / edit / edit-local / style-edit / import /
 * retry / log inside a session folder. arguments is argv without the program name.
 * Runs an event loop until the turn is finished; returns the process exit status
 * (0 ok, 2 usage, otherwise exitCodeFor(error kind)). Output to out, diagnostics to err.
 * Needs a QCoreApplication. Environment: GEMINI_API_KEY/GOOGLE_API_KEY, GOOGLE_GEMINI_BASE_URL.
 */
int runSessionCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

/** The "SESSION COMMANDS" section of --help. */
QString sessionCommandHelp();

} // namespace nb2::cli
