#pragma once

#include <QString>
#include <QStringList>

#include <optional>
#include <span>

namespace nb2::cli {

/** Every nb2lite command. */
enum class CommandId {
    Generate,
    Edit,
    EditLocal,
    StyleEdit,
    Get,
    Delete,
    Doctor,
    Import,
    Retry,
    ReAnchor,
    Recover,
    Rebuild,
    Log,
    Cost,
    Replay,
    Keep,
    Export,
    OpenBundle,
    Mcp,
    Completion,
    Help,
};

/** Every nb2lite option. Two options may share a spelling when no command accepts both (--branch). */
enum class OptionId {
    // Global: accepted before or after any command, ignored where they do not apply.
    Session,
    Demo,
    DemoLatency,
    BaseUrl,
    Model,
    ApiVersion,
    Json,
    Out,
    Timeout,
    Help,
    Version,
    // Turns (generate, edit, edit-local, style-edit, retry, reanchor).
    Aspect,
    Thinking,
    Style,
    Stream,
    NoStream,
    Reencode,
    Force,
    // Session commands.
    File,
    Fork,
    Title,
    NoContinue,
    NoReAnchor,
    Retention,
    LockTimeout,
    All,
    Ids,
    // Cost and find.
    Budget,
    DryRun,
    Grep,
    Starred,
    Variants,
    // Replay (issue 14).
    Onto,
    Photos,
    Resume,
    // Precision edits (edit --region/--mask).
    Region,
    Mask,
    Feather,
    RegionModeOpt,
    // The keep-list of a branch.
    KeepAdd,
    KeepRemove,
    KeepClear,
    KeepInherit,
    // Export.
    Format,
    ExportBranch,
    Frames,
    StripPrompts,
    StripIds,
    StripCost,
    SingleFile,
    NoFailed,
    Copy,
    // The agent bridge.
    NoImageBlocks,
    PrintSkill,
};

/**
 * What a value is. It decides how the parser checks it, how help names it and what shell
 * completion offers for it (files, folders, frame ids of the session, a fixed list).
 */
enum class ValueKind {
    None,         // a flag
    Text,         // a prompt, a title, an interaction id, a URL, a model name
    Count,        // a whole number >= 0 (milliseconds)
    Seconds,      // a number > 0, fractions allowed
    Dir,          // an existing or new folder
    OutPath,      // a file or folder to write
    ImageFile,    // a picture to read
    BundleFile,   // a .nb2session bundle to read
    FrameRef,     // a frame id, unique prefix or "head" of the --session
    FrameRefList, // one or more FrameRefs: the following words, or comma-separated
    AspectRatio,
    ThinkingLevel,
    ApiVersion,
    ExportFormat,
    Retention,
    Shell,
    Command, // fixed lists
};

/** The values completion offers for a fixed-list kind (empty for the others). */
QStringList choicesFor(ValueKind kind);

struct OptionSpec {
    OptionId id;
    const char *name;      // "--aspect"
    const char *shortName; // "-o", or nullptr
    const char *alias;     // an older spelling that keeps working ("--aspect-ratio"), or nullptr; not advertised
    ValueKind value;       // None: a flag
    const char *valueName; // "R" in help; nullptr for flags
    const char *help;      // translatable, context "nb2lite"
    bool global;
};

/** Whether a command option needs (or refuses) --session. */
enum class Only { Always, InSession, OutsideSession };

struct CommandOption {
    OptionId id;
    Only only = Only::Always;
};

/** One way to call a command: without --session or with it. */
struct CommandForm {
    const char *usage = nullptr; // after "nb2lite [--session DIR] "; nullptr: the command has no such form
    int minArgs = 0;
    int maxArgs = 0;
    ValueKind args[2] = {ValueKind::None, ValueKind::None}; // the first positional arguments, for completion

    bool exists() const { return usage != nullptr; }
};

struct CommandSpec {
    CommandId id;
    const char *name;
    const char *summary; // one line, translatable
    const char *details; // paragraph(s) for `nb2lite help COMMAND`, translatable; may be nullptr
    CommandForm plain;   // without --session (API commands, local commands)
    CommandForm session; // with --session DIR
    std::span<const CommandOption> options;

    /** The command only works on a session (log, export, ...). */
    bool needsSession() const { return !plain.exists(); }
};

/**
 * The one table of nb2lite's command line: every command, every option, which options each
 * command takes, and the kind of every value. The parser, --help, `nb2lite help COMMAND` and
 * the shell completion scripts are all generated from it, so they cannot drift apart.
 */
std::span<const CommandSpec> commandTable();
std::span<const OptionSpec> optionTable();

const CommandSpec *findCommand(const QString &name);
const CommandSpec &commandSpec(CommandId id);
const OptionSpec &optionSpec(OptionId id);
/** Every option spelled `name` (long name, short name or alias); two at most (--branch). */
QList<const OptionSpec *> findOptions(const QString &name);

/** Whether `command` takes `option` and under which condition (globals: always); nullopt: it does not. */
std::optional<Only> optionCondition(const CommandSpec &command, OptionId option);

/** The spellings shown to people: "-o, --out". */
QString optionDisplayName(const OptionSpec &option);
/** Translates a table string (context "nb2lite"). */
QString tableText(const char *text);

} // namespace nb2::cli
