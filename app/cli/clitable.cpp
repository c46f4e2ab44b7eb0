#include "app/cli/clitable.h"

#include "core/api/imageinput.h"
#include "core/api/thinkinglevels.h"

#include <QCoreApplication>

#include <array>

namespace nb2::cli {

namespace {

using enum OptionId;
using V = ValueKind;

// QT_TRANSLATE_NOOP is spelled out (lupdate does not expand macros of ours); tableText()
// translates the strings when they are shown.

constexpr std::array kOptions {
    // --- global ---
    OptionSpec {Session, "--session", nullptr, nullptr, V::Dir, "DIR",
        QT_TRANSLATE_NOOP("nb2lite",
            "work in the session folder DIR (created on first use): its frames, images and "
            "journal"),
        true},
    OptionSpec {Demo, "--demo", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite",
            "use the built-in offline fake API (no key needed); it keeps what it made in the "
            "session's demo/ folder, or in the cache folder, so chains continue across "
            "commands"),
        true},
    OptionSpec {DemoLatency, "--demo-latency", nullptr, nullptr, V::Count, "MS",
        QT_TRANSLATE_NOOP("nb2lite", "with --demo: the fake answers after MS milliseconds"), true},
    OptionSpec {BaseUrl, "--base-url", nullptr, nullptr, V::Text, "URL",
        QT_TRANSLATE_NOOP("nb2lite",
            "API host (default: $GOOGLE_GEMINI_BASE_URL, else "
            "https://generativelanguage.googleapis.com); plain http only for loopback "
            "addresses"),
        true},
    OptionSpec {Model, "--model", nullptr, nullptr, V::Text, "NAME",
        QT_TRANSLATE_NOOP("nb2lite", "model (default: $GEMINI_MODEL_NAME, else gemini-3.1-flash-lite-image)"), true},
    OptionSpec {ApiVersion, "--api-version", nullptr, nullptr, V::ApiVersion, "V",
        QT_TRANSLATE_NOOP("nb2lite", "API version (default v1)"), true},
    OptionSpec {Json, "--json", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "print exactly one JSON object on stdout (see 'Output' in nb2lite --help)"), true},
    OptionSpec {Out, "--out", "-o", nullptr, V::Dir, "DIR",
        QT_TRANSLATE_NOOP("nb2lite",
            "where images are saved (default: $IMAGE_OUTPUT_DIR, else the current folder); "
            "session commands keep their images in the session"),
        true},
    OptionSpec {Timeout, "--timeout", nullptr, nullptr, V::Seconds, "SECONDS",
        QT_TRANSLATE_NOOP("nb2lite", "give up on a call after SECONDS in total, retries included"), true},
    OptionSpec {Help, "--help", "-h", nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "show help (nb2lite COMMAND --help for one command)"), true},
    OptionSpec {
        Version, "--version", "-V", nullptr, V::None, nullptr, QT_TRANSLATE_NOOP("nb2lite", "show the version"), true},

    // --- turns ---
    OptionSpec {Aspect, "--aspect", nullptr, "--aspect-ratio", V::AspectRatio, "R",
        QT_TRANSLATE_NOOP("nb2lite",
            "aspect ratio. generate: default 1:1; edit-local: default the ratio nearest the "
            "source image; edit: default the parent's ratio"),
        false},
    OptionSpec {Thinking, "--thinking", nullptr, "--thinking-level", V::ThinkingLevel, "L",
        QT_TRANSLATE_NOOP("nb2lite",
            "thinking level (default low; the server owns the allowed set: when it names the "
            "allowed values, nb2lite remembers them per model)"),
        false},
    OptionSpec {Style, "--style", nullptr, nullptr, V::ImageFile, "FILE",
        QT_TRANSLATE_NOOP("nb2lite",
            "style reference image: its look is applied to the edited image (sent first, "
            "then the target)"),
        false},
    OptionSpec {Stream, "--stream", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "stream the response (progress on stderr); session turns stream by default"),
        false},
    OptionSpec {NoStream, "--no-stream", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite",
            "do not stream (a session then learns the interaction id only when the turn "
            "ends)"),
        false},
    OptionSpec {Reencode, "--reencode", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite",
            "allow re-encoding an input image as JPEG when the request would exceed the 20 "
            "MB limit (never done without this flag)"),
        false},
    OptionSpec {Force, "--force", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "overwrite an output that already exists (never done without it)"), false},

    // --- session ---
    OptionSpec {File, "--file", nullptr, nullptr, V::ImageFile, "IMAGE",
        QT_TRANSLATE_NOOP("nb2lite",
            "edit this local picture instead of a frame (it becomes a new root in the "
            "session)"),
        false},
    OptionSpec {Fork, "--branch", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite",
            "edit commands: fork a new branch from a frame that already has a continuation "
            "(forks are never silent)"),
        false},
    OptionSpec {Title, "--title", nullptr, nullptr, V::Text, "T",
        QT_TRANSLATE_NOOP("nb2lite", "a title for the imported frame"), false},
    OptionSpec {NoContinue, "--no-continue", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite",
            "keep the picture's lineage record but start from its pixels instead of its "
            "recorded interaction"),
        false},
    OptionSpec {NoReAnchor, "--no-reanchor", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "fail instead of re-anchoring when a parent's server id is gone"), false},
    OptionSpec {Retention, "--retention", nullptr, nullptr, V::Retention, "PLAN",
        QT_TRANSLATE_NOOP("nb2lite",
            "how long the server keeps ids: paid (55 days), free (1 day) or a number of days "
            "(1-3650)"),
        false},
    OptionSpec {LockTimeout, "--lock-timeout", nullptr, nullptr, V::Count, "MS",
        QT_TRANSLATE_NOOP("nb2lite",
            "how long to wait for another program writing the session (100-120000 ms, "
            "default 10000)"),
        false},
    OptionSpec {All, "--all", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "include frames in the trash"), false},
    OptionSpec {Ids, "--ids", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite",
            "print only the frame ids, one per line (no recovery, no network: for scripts "
            "and shell completion)"),
        false},

    // --- cost and find ---
    OptionSpec {Budget, "--budget", nullptr, nullptr, V::Text, "USD",
        QT_TRANSLATE_NOOP("nb2lite",
            "refuse a turn (nothing is sent) when the session's estimated cost would go over USD "
            "dollars; 0: no budget"),
        false},
    OptionSpec {DryRun, "--dry-run", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite",
            "send nothing: print the plan (how many turns) and the estimated cost, and whether "
            "the budget allows it"),
        false},
    OptionSpec {Variants, "--variants", nullptr, nullptr, V::Count, "N",
        QT_TRANSLATE_NOOP("nb2lite",
            "send N (1-8) independent turns at once: for generate N sibling roots, for edit N "
            "sibling branches of the frame (the fork is intended)"),
        false},
    OptionSpec {Onto, "--onto", nullptr, nullptr, V::FrameRef, "REF",
        QT_TRANSLATE_NOOP("nb2lite",
            "replay: the frame the replayed chain starts from (a new branch there); 'start' is "
            "the frame FROM continued: with --model or --thinking, an old-vs-new comparison"),
        false},
    OptionSpec {Photos, "--photos", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite",
            "replay: the arguments after the range are pictures or folders of pictures; each "
            "is imported as a new root and edited step by step"),
        false},
    OptionSpec {Resume, "--resume", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite",
            "replay: continue the session's unfinished replays (or the one named) after a "
            "crash, a quit or a quota stop; done steps are kept, nothing is sent twice"),
        false},
    OptionSpec {Grep, "--grep", nullptr, nullptr, V::Text, "TEXT",
        QT_TRANSLATE_NOOP("nb2lite", "log: only frames whose prompt or title contains TEXT (any case)"), false},
    OptionSpec {Starred, "--starred", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "log: only starred frames"), false},
    // --- precision edits ---
    OptionSpec {Region, "--region", nullptr, nullptr, V::Text, "X,Y,W,H",
        QT_TRANSLATE_NOOP("nb2lite",
            "edit only this rectangle of the frame (pixels of the parent); everything else "
            "keeps the parent's exact pixels"),
        false},
    OptionSpec {Mask, "--mask", nullptr, nullptr, V::ImageFile, "FILE",
        QT_TRANSLATE_NOOP("nb2lite",
            "edit only where this grey image is white (black is protected); any size, scaled "
            "to the frame"),
        false},
    OptionSpec {Feather, "--feather", nullptr, nullptr, V::Count, "PX",
        QT_TRANSLATE_NOOP("nb2lite", "with --region/--mask: width of the soft edge in pixels (default 4)"), false},
    OptionSpec {RegionModeOpt, "--mode", nullptr, nullptr, V::Text, "region|protect",
        QT_TRANSLATE_NOOP("nb2lite",
            "with --region/--mask: region (default) sends only the selection's crop inline "
            "and pastes the answer back; protect edits the whole image by id and restores "
            "the protected pixels"),
        false},

    // --- keep-list ---
    OptionSpec {KeepAdd, "--add", nullptr, nullptr, V::Text, "TEXT",
        QT_TRANSLATE_NOOP("nb2lite", "keep: add a constraint to the keep-list in force at the frame"), false},
    OptionSpec {KeepRemove, "--remove", nullptr, nullptr, V::Count, "N",
        QT_TRANSLATE_NOOP("nb2lite", "keep: remove constraint number N (as 'keep REF' lists them)"), false},
    OptionSpec {KeepClear, "--clear", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "keep: no keep-list from this frame on (its descendants too)"), false},
    OptionSpec {KeepInherit, "--inherit", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "keep: drop the frame's own keep-list, so its ancestors' applies again"), false},

    // --- export ---
    OptionSpec {Format, "--format", nullptr, nullptr, V::ExportFormat, "FORMAT",
        QT_TRANSLATE_NOOP("nb2lite", "the kind of output"), false},
    OptionSpec {ExportBranch, "--branch", nullptr, nullptr, V::FrameRef, "N|FRAME",
        QT_TRANSLATE_NOOP("nb2lite",
            "export: only one branch, by its number (as 'log --json' lists them) or any "
            "frame on it"),
        false},
    OptionSpec {Frames, "--frames", nullptr, nullptr, V::FrameRefList, "F",
        QT_TRANSLATE_NOOP("nb2lite",
            "export: only these frames (ids or prefixes), as several words or "
            "comma-separated"),
        false},
    OptionSpec {StripPrompts, "--strip-prompts", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "leave prompts out of pages, captions and metadata"), false},
    OptionSpec {StripIds, "--strip-ids", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "leave frame and interaction ids out of pages, captions and metadata"), false},
    OptionSpec {StripCost, "--strip-cost", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "html: leave the estimated cost (per frame and the total) out of the page"),
        false},
    OptionSpec {SingleFile, "--single-file", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "html: one .html file with the images inline"), false},
    OptionSpec {NoFailed, "--no-failed", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "leave failed turns out"), false},
    OptionSpec {Copy, "--copy", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "copy images, never hard-link them"), false},

    // --- mcp ---
    OptionSpec {NoImageBlocks, "--no-image-blocks", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "answer with file paths only, no inline image blocks"), false},
    OptionSpec {PrintSkill, "--print-skill", nullptr, nullptr, V::None, nullptr,
        QT_TRANSLATE_NOOP("nb2lite", "print the agent skill description and exit"), false},
};

// Options shared by every session command that opens the session and may run a turn.
#define NB2_SESSION_WIDE                                                                                               \
    CommandOption {NoReAnchor, Only::InSession}, CommandOption {Retention, Only::InSession}, CommandOption             \
    {                                                                                                                  \
        LockTimeout, Only::InSession                                                                                   \
    }

constexpr CommandOption kGenerateOptions[] {{Aspect}, {Thinking}, {Stream}, {NoStream},
    {Reencode, Only::OutsideSession}, {Force, Only::OutsideSession}, {Variants, Only::InSession},
    {Budget, Only::InSession}, {DryRun}, NB2_SESSION_WIDE};
constexpr CommandOption kEditOptions[] {{Aspect}, {Thinking}, {Stream}, {NoStream}, {Fork, Only::InSession},
    {Region, Only::InSession}, {Mask, Only::InSession}, {Feather, Only::InSession}, {RegionModeOpt, Only::InSession},
    {Reencode, Only::OutsideSession}, {Force, Only::OutsideSession}, {Variants, Only::InSession},
    {Budget, Only::InSession}, {DryRun}, NB2_SESSION_WIDE};
constexpr CommandOption kEditLocalOptions[] {{Aspect}, {Thinking}, {Style}, {Stream}, {NoStream},
    {File, Only::InSession}, {Fork, Only::InSession}, {Reencode, Only::OutsideSession}, {Force, Only::OutsideSession},
    {Budget, Only::InSession}, {DryRun}, NB2_SESSION_WIDE};
constexpr CommandOption kStyleEditOptions[] {{Aspect}, {Thinking}, {Style}, {Stream}, {NoStream}, {File}, {Fork},
    {Budget, Only::InSession}, {DryRun}, NB2_SESSION_WIDE};
constexpr CommandOption kGetOptions[] {{Force}};
constexpr CommandOption kImportOptions[] {{Title}, {NoContinue}, NB2_SESSION_WIDE};
constexpr CommandOption kRetryOptions[] {{Stream}, {NoStream}, {Budget}, NB2_SESSION_WIDE};
constexpr CommandOption kSessionOnlyOptions[] {NB2_SESSION_WIDE};
constexpr CommandOption kLogOptions[] {{All}, {Ids}, {Grep}, {Starred}, NB2_SESSION_WIDE};
constexpr CommandOption kCostOptions[] {{Budget}, NB2_SESSION_WIDE};
constexpr CommandOption kReplayOptions[] {
    {Onto}, {Photos}, {Resume}, {Thinking}, {Stream}, {NoStream}, {Budget}, {DryRun}, NB2_SESSION_WIDE};
constexpr CommandOption kKeepOptions[] {{KeepAdd}, {KeepRemove}, {KeepClear}, {KeepInherit}, NB2_SESSION_WIDE};
constexpr CommandOption kExportOptions[] {{Format}, {ExportBranch}, {Frames}, {StripPrompts}, {StripIds}, {StripCost},
    {SingleFile}, {NoFailed}, {Copy}, {Force}};
constexpr CommandOption kMcpOptions[] {{NoImageBlocks}, {PrintSkill}};

#undef NB2_SESSION_WIDE

constexpr CommandForm none {};
// replay FROM..TO --photos takes a folder's worth of names (the shell expands a glob).
constexpr int kMaxReplayArgs = 501;

constexpr std::array kCommands {
    CommandSpec {CommandId::Generate, "generate", QT_TRANSLATE_NOOP("nb2lite", "new image from a text prompt"),
        QT_TRANSLATE_NOOP("nb2lite",
            "Without --session the image is saved as gen_<unix>_<id8>.<ext> in the "
            "output folder; with --session it becomes a new root frame of the session."),
        {"generate PROMPT [--aspect R] [--thinking L]", 1, 1, {V::Text}},
        {"generate PROMPT [--aspect R] [--thinking L] [--variants N]", 1, 1, {V::Text}}, kGenerateOptions},
    CommandSpec {CommandId::Edit, "edit",
        QT_TRANSLATE_NOOP("nb2lite",
            "continue from an earlier image: the server keeps it, you say what "
            "changes"),
        QT_TRANSLATE_NOOP("nb2lite",
            "Without --session, ID is an interaction id (saved as edit_...). With "
            "--session, REF is a frame: its id, a unique prefix or 'head'. Editing a frame "
            "that already has a continuation forks a new branch: pass --branch to do that "
            "on purpose."),
        {"edit ID PROMPT [--aspect R] [--thinking L]", 2, 2, {V::Text, V::Text}},
        {"edit REF PROMPT [--branch] [--variants N] [--region|--mask ...]", 2, 2, {V::FrameRef, V::Text}},
        kEditOptions},
    CommandSpec {CommandId::EditLocal, "edit-local", QT_TRANSLATE_NOOP("nb2lite", "edit a local picture, sent inline"),
        QT_TRANSLATE_NOOP("nb2lite",
            "Without --session FILE is sent inline (saved as edit_local_...); with "
            "--style the look of STYLE_FILE is applied to FILE (style_edit_...). With "
            "--session, edit a frame's pixels (REF) or a new picture (--file IMAGE); with "
            "--style this is a style edit."),
        {"edit-local FILE PROMPT [--aspect R] [--thinking L] [--style STYLE_FILE]", 2, 2, {V::ImageFile, V::Text}},
        {"edit-local (REF | --file IMAGE) PROMPT [--style IMAGE] [--branch]", 1, 2, {V::FrameRef, V::Text}},
        kEditLocalOptions},
    CommandSpec {CommandId::StyleEdit, "style-edit",
        QT_TRANSLATE_NOOP("nb2lite", "apply the look of a style picture to a frame or picture"), nullptr, none,
        {"style-edit (REF | --file IMAGE) --style IMAGE PROMPT [--branch]", 1, 2, {V::FrameRef, V::Text}},
        kStyleEditOptions},
    CommandSpec {CommandId::Get, "get",
        QT_TRANSLATE_NOOP("nb2lite", "show a stored interaction and save its image if it has one (get_...)"), nullptr,
        {"get ID", 1, 1, {V::Text}}, none, kGetOptions},
    CommandSpec {CommandId::Delete, "delete", QT_TRANSLATE_NOOP("nb2lite", "delete a stored interaction on the server"),
        nullptr, {"delete ID", 1, 1, {V::Text}}, none, {}},
    CommandSpec {CommandId::Doctor, "doctor",
        QT_TRANSLATE_NOOP("nb2lite",
            "show key status and source, model, base URL, API version, output "
            "folder, learned thinking levels, and check that the API is reachable"),
        nullptr, {"doctor", 0, 0, {}}, none, {}},
    CommandSpec {CommandId::Import, "import",
        QT_TRANSLATE_NOOP("nb2lite", "add a local picture to the session as a new root frame"),
        QT_TRANSLATE_NOOP("nb2lite",
            "Shows the picture's embedded lineage record (from an nb2lite export) "
            "and keeps it with the frame; edits of the frame continue the recorded "
            "interaction, re-anchoring from the pixels if the server no longer has it."),
        none, {"import IMAGE [--title T] [--no-continue]", 1, 1, {V::ImageFile}}, kImportOptions},
    CommandSpec {CommandId::Retry, "retry",
        QT_TRANSLATE_NOOP("nb2lite", "send a failed, cancelled or interrupted turn again"), nullptr, none,
        {"retry REF", 1, 1, {V::FrameRef}}, kRetryOptions},
    CommandSpec {CommandId::ReAnchor, "reanchor",
        QT_TRANSLATE_NOOP("nb2lite",
            "redo an edit whose parent's server id is gone, sending the parent's "
            "stored pixels"),
        nullptr, none, {"reanchor REF", 1, 1, {V::FrameRef}}, kRetryOptions},
    CommandSpec {CommandId::Recover, "recover",
        QT_TRANSLATE_NOOP("nb2lite", "finish what a crash left: fetch known ids, mark the rest interrupted"), nullptr,
        none, {"recover", 0, 0, {}}, kSessionOnlyOptions},
    CommandSpec {CommandId::Rebuild, "rebuild",
        QT_TRANSLATE_NOOP("nb2lite",
            "recreate a broken manifest from the journal and the images (nothing is "
            "deleted)"),
        nullptr, none, {"rebuild", 0, 0, {}}, kSessionOnlyOptions},
    CommandSpec {CommandId::Log, "log", QT_TRANSLATE_NOOP("nb2lite", "show the session's frames as a graph"),
        QT_TRANSLATE_NOOP("nb2lite",
            "A chain runs straight down one column; a branch opens one more column "
            "where it forks. --json prints the whole graph; --ids only the frame ids."),
        none, {"log [--all] [--grep TEXT] [--starred] [--json | --ids]", 0, 0, {}}, kLogOptions},
    CommandSpec {CommandId::Cost, "cost",
        QT_TRANSLATE_NOOP("nb2lite", "show what the session's turns cost: per frame, per branch, in total"),
        QT_TRANSLATE_NOOP("nb2lite",
            "Costs are estimates: the frames' token usage priced with the built-in price table "
            "(its date and source are printed). Per branch: the frames only that branch has, "
            "and what sending its whole path again would cost. With --budget, what is left."),
        none, {"cost [--budget USD] [--json]", 0, 0, {}}, kCostOptions},
    CommandSpec {CommandId::Replay, "replay",
        QT_TRANSLATE_NOOP("nb2lite", "replay a chain's prompts, in order, onto another frame or onto photos"),
        QT_TRANSLATE_NOOP("nb2lite",
            "FROM..TO are two frames of one branch (FROM first; both included; imports are "
            "skipped). --onto REF: a new branch at REF. --photos FILE|DIR ...: every picture "
            "becomes a new root, then is edited step by step (pictures run in parallel, up to "
            "the concurrency setting; the steps of one chain in order). --dry-run prints the "
            "plan: how many turns and the estimated cost. The whole replay is checked against "
            "--budget before anything is sent. A 429 pauses the queue for the server's retry "
            "time; a zero quota stops it. The queue is saved in the session's replay/ folder: "
            "after a crash, Ctrl-C or a stop, 'replay --resume' continues it without sending a "
            "step twice (nothing resumes on its own). Every replayed frame records the frame it "
            "replays (replay_of)."),
        none,
        {"replay FROM..TO --onto REF|--photos PATH... | replay --resume", 0, kMaxReplayArgs, {V::Text, V::ImageFile}},
        kReplayOptions},
    CommandSpec {CommandId::Keep, "keep",
        QT_TRANSLATE_NOOP("nb2lite", "show or change the keep-list of a branch: constraints sent with every edit"),
        QT_TRANSLATE_NOOP("nb2lite",
            "A keep-list set on a frame is in force for it and every frame after it, until a "
            "later frame sets its own; branches forked from it inherit it. Every edit appends "
            "it to the prompt as a visible block, and the frame records both texts (prompt and "
            "prompt_sent in log --json). Without an option it prints the list in force at REF."),
        none, {"keep REF [--add TEXT | --remove N | --clear | --inherit]", 1, 1, {V::FrameRef}}, kKeepOptions},
    CommandSpec {CommandId::Export, "export",
        QT_TRANSLATE_NOOP("nb2lite",
            "write the session's history as a page, a bundle, a contact sheet or "
            "pictures"),
        QT_TRANSLATE_NOOP("nb2lite",
            "html: OUT/index.html + OUT/images (hard-linked or copied); with "
            "--single-file OUT is one .html. bundle: OUT.nb2session, the whole session, "
            "lossless (open it with open-bundle). sheet: OUT.png, a contact sheet with "
            "captions. frames: OUT/01-first-prompt.jpg ..., pictures with their lineage in "
            "the metadata. Scope: the whole session (default), --branch N|FRAME, or "
            "--frames F [F ...]."),
        none, {"export --format FORMAT [SCOPE] [OPTIONS] OUT", 1, 1, {V::OutPath}}, kExportOptions},
    CommandSpec {CommandId::OpenBundle, "open-bundle",
        QT_TRANSLATE_NOOP("nb2lite",
            "extract a .nb2session bundle into DIR (new or empty) and check that it "
            "opens"),
        nullptr, none, {"open-bundle FILE.nb2session", 1, 1, {V::BundleFile}}, {}},
    CommandSpec {CommandId::Mcp, "mcp",
        QT_TRANSLATE_NOOP("nb2lite", "serve the agent bridge (Model Context Protocol) on stdin/stdout"), nullptr,
        {"mcp [--demo] [--no-image-blocks] [--print-skill]", 0, 0, {}},
        {"mcp [--demo] [--no-image-blocks] [--print-skill]", 0, 0, {}}, kMcpOptions},
    CommandSpec {CommandId::Completion, "completion",
        QT_TRANSLATE_NOOP("nb2lite", "print the shell completion script for bash or zsh"),
        QT_TRANSLATE_NOOP("nb2lite",
            "bash: source <(nb2lite completion bash)   zsh: nb2lite completion zsh > "
            "~/.zfunc/_nb2lite (a folder in $fpath). Installed packages put them where "
            "bash-completion and zsh look."),
        {"completion bash|zsh", 1, 1, {V::Shell}}, none, {}},
    CommandSpec {CommandId::Help, "help", QT_TRANSLATE_NOOP("nb2lite", "show help for a command"), nullptr,
        {"help [COMMAND]", 0, 1, {V::Command}}, none, {}},
};

} // namespace

QString tableText(const char *text)
{
    return QCoreApplication::translate("nb2lite", text);
}

QStringList choicesFor(ValueKind kind)
{
    switch (kind) {
    case ValueKind::AspectRatio:
        return supportedAspectRatios();
    case ValueKind::ThinkingLevel: {
        // The server owns the set (spec U1): the model page names minimal and high; the default is low.
        QStringList levels {QStringLiteral("minimal")};
        levels += ThinkingLevels::defaultLevels();
        return levels;
    }
    case ValueKind::ApiVersion:
        return {QStringLiteral("v1"), QStringLiteral("v1beta")};
    case ValueKind::ExportFormat:
        return {QStringLiteral("html"), QStringLiteral("bundle"), QStringLiteral("sheet"), QStringLiteral("frames")};
    case ValueKind::Retention:
        return {QStringLiteral("paid"), QStringLiteral("free")};
    case ValueKind::Shell:
        return {QStringLiteral("bash"), QStringLiteral("zsh")};
    case ValueKind::Command: {
        QStringList names;
        for (const CommandSpec &c : commandTable())
            names << QLatin1String(c.name);
        return names;
    }
    default:
        return {};
    }
}

std::span<const CommandSpec> commandTable()
{
    return kCommands;
}

std::span<const OptionSpec> optionTable()
{
    return kOptions;
}

const CommandSpec *findCommand(const QString &name)
{
    for (const CommandSpec &c : kCommands) {
        if (name == QLatin1String(c.name))
            return &c;
    }
    return nullptr;
}

const CommandSpec &commandSpec(CommandId id)
{
    for (const CommandSpec &c : kCommands) {
        if (c.id == id)
            return c;
    }
    Q_UNREACHABLE();
}

const OptionSpec &optionSpec(OptionId id)
{
    for (const OptionSpec &o : kOptions) {
        if (o.id == id)
            return o;
    }
    Q_UNREACHABLE();
}

QList<const OptionSpec *> findOptions(const QString &name)
{
    QList<const OptionSpec *> found;
    for (const OptionSpec &o : kOptions) {
        if (name == QLatin1String(o.name) || (o.shortName && name == QLatin1String(o.shortName))
            || (o.alias && name == QLatin1String(o.alias)))
            found.append(&o);
    }
    return found;
}

std::optional<Only> optionCondition(const CommandSpec &command, OptionId option)
{
    if (optionSpec(option).global)
        return Only::Always;
    for (const CommandOption &o : command.options) {
        if (o.id == option)
            return o.only;
    }
    return std::nullopt;
}

QString optionDisplayName(const OptionSpec &option)
{
    return option.shortName ? QStringLiteral("%1, %2").arg(QLatin1String(option.shortName), QLatin1String(option.name))
                            : QLatin1String(option.name);
}

} // namespace nb2::cli
