#pragma once

#include "app/cli/clitable.h"

#include <QRect>
#include <QString>
#include <QStringList>

namespace nb2 {

using CliCommand = cli::CommandId;

/**
 * The nb2lite command line, parsed against the one table (app/cli/clitable.h) but not yet
 * checked against the API's rules: prompt, ratio, level and file checks are the client's, so
 * that every front end reports them the same way.
 */
struct CliArgs {
    CliCommand command = CliCommand::Help;
    bool hasCommand = false;
    QString commandName;    // as typed ("edit-local")
    bool inSession = false; // --session was given and the command has a session form
    QStringList positional; // arguments after the command name, in order

    // Command arguments (filled from positional for the API commands).
    QString prompt;
    QString interactionId;
    QString file;

    // Turn options.
    QString aspectRatio;
    bool hasAspectRatio = false; // --aspect given (even empty: that is the client's error to report)
    QString thinkingLevel;
    bool hasThinkingLevel = false;
    QString styleFile;
    bool stream = false;
    bool noStream = false;
    bool reencode = false;
    bool force = false;

    // Global options (accepted before or after the command).
    QString outDir;
    QString baseUrl;
    QString model;
    QString apiVersion;
    QString sessionDir;
    int demoLatencyMs = -1; // -1: not given
    int timeoutMs = -1;     // --timeout, -1: not given
    bool json = false;
    bool demo = false;
    bool help = false;
    bool version = false;

    // Session commands.
    QString sourceFile; // --file
    bool fork = false;  // --branch (edit family)
    QString title;
    bool noContinue = false;
    bool noReAnchor = false;
    QString retention;
    int lockTimeoutMs = -1;
    bool all = false;
    bool idsOnly = false;

    // Cost and find.
    double budgetUsd = -1; // --budget, -1: not given (0: no budget)
    bool dryRun = false;
    QString grep;             // log --grep
    bool starredOnly = false; // log --starred
    int variants = 1;         // --variants N (1..8)
    // Replay.
    QString onto;        // --onto REF
    bool photos = false; // --photos: the positional arguments after the range are pictures
    bool resume = false; // --resume [ID]
    // Precision edits.
    QRect region;       // --region, parent pixels; null: not given
    QString maskFile;   // --mask
    int feather = -1;   // --feather, -1: default
    QString regionMode; // --mode: region | protect; empty: region
    // keep.
    QString keepAdd;    // --add TEXT
    int keepRemove = 0; // --remove N (1-based), 0: not given
    bool keepClear = false;
    bool keepInherit = false;

    // Export.
    QString format;
    QString exportBranch;
    QStringList frames;
    bool stripPrompts = false;
    bool stripIds = false;
    bool stripCost = false;
    bool singleFile = false;
    bool noFailed = false;
    bool copy = false;

    // mcp.
    bool noImageBlocks = false;
    bool printSkill = false;
};

/** The most turns one --variants may send at once. */
inline constexpr int kMaxVariants = 8;

struct CliParseResult {
    CliArgs args;
    QString error; // empty on success; one line that names the fix
    bool ok() const { return error.isEmpty(); }
};

/**
 * Parses nb2lite's arguments (without argv[0]) against the command table. Options may come
 * before or after the command, as `--opt value` or `--opt=value`; `--` ends options so that
 * a prompt may start with a dash. Global options are accepted by every command and ignored
 * where they do not apply; a command option given to a command that does not take it is an
 * error naming the commands that do. With --help the command (if one is named) is identified
 * and everything else is left unchecked.
 */
CliParseResult parseCliArgs(const QStringList &arguments);

} // namespace nb2
