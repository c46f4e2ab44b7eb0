#pragma once

#include <QString>
#include <QStringList>

namespace nb2 {

enum class CliCommand { None, Generate, Edit, EditLocal, Get, Delete, Doctor, Other };

/** The nb2lite command line, parsed but not yet checked against the API's rules. */
struct CliArgs {
    CliCommand command = CliCommand::None;
    QString commandName;        // as typed ("edit-local"); for Other: left to the session dispatch
    QStringList positional;     // arguments after the command name, in order

    // Command arguments (filled from positional for the known commands).
    QString prompt;
    QString interactionId;
    QString file;

    // Command options.
    QString aspectRatio;
    bool hasAspectRatio = false;    // --aspect given (even empty: that is the client's error to report)
    QString thinkingLevel;
    bool hasThinkingLevel = false;
    QString styleFile;

    // Common options (accepted before or after the command).
    QString outDir;
    QString baseUrl;
    QString model;
    QString apiVersion;
    QString sessionDir;         // --session DIR: handled by the session commands
    int demoLatencyMs = -1;     // -1: not given
    bool json = false;
    bool demo = false;
    bool stream = false;
    bool reencode = false;
    bool help = false;
    bool version = false;
};

struct CliParseResult {
    CliArgs args;
    QString error; // empty on success; one line, says what to fix
    bool ok() const { return error.isEmpty(); }
};

/**
 * Parses nb2lite's arguments (without argv[0]). Options may come before or after the
 * command, as `--opt value` or `--opt=value`; `--` ends options so that a prompt may start
 * with a dash. It only checks the shape of the command line; prompt, ratio and file
 * checks are the client's, so that every front end reports them the same way.
 */
CliParseResult parseCliArgs(const QStringList &arguments);

/** Full --help text, including the exit status table. */
QString cliHelpText();

} // namespace nb2
