#include "app/cli/cliargs.h"

#include "app/cli/exitcodes.h"
#include "core/api/imageinput.h"

#include <array>

namespace nb2 {

namespace {

struct CommandSpec {
    CliCommand command;
    const char *name;
    int positionalCount;
    const char *positionalUsage;
};

constexpr std::array kCommands{
    CommandSpec{CliCommand::Generate, "generate", 1, "PROMPT"},
    CommandSpec{CliCommand::Edit, "edit", 2, "ID PROMPT"},
    CommandSpec{CliCommand::EditLocal, "edit-local", 2, "FILE PROMPT"},
    CommandSpec{CliCommand::Get, "get", 1, "ID"},
    CommandSpec{CliCommand::Delete, "delete", 1, "ID"},
    CommandSpec{CliCommand::Doctor, "doctor", 0, ""},
};

const CommandSpec *findCommand(const QString &name)
{
    for (const auto &spec : kCommands) {
        if (name == QLatin1String(spec.name))
            return &spec;
    }
    return nullptr;
}

enum class OptionId {
    Out, BaseUrl, Model, ApiVersion, DemoLatency, Session, Aspect, Thinking, Style,
    Json, Demo, Stream, Reencode, Help, Version,
};

struct OptionSpec {
    OptionId id;
    const char *longName;
    const char *shortName; // may be empty
    bool takesValue;
};

constexpr std::array kOptions{
    OptionSpec{OptionId::Out, "--out", "-o", true},
    OptionSpec{OptionId::BaseUrl, "--base-url", "", true},
    OptionSpec{OptionId::Model, "--model", "", true},
    OptionSpec{OptionId::ApiVersion, "--api-version", "", true},
    OptionSpec{OptionId::DemoLatency, "--demo-latency", "", true},
    OptionSpec{OptionId::Session, "--session", "", true},
    OptionSpec{OptionId::Aspect, "--aspect", "", true},
    OptionSpec{OptionId::Thinking, "--thinking", "", true},
    OptionSpec{OptionId::Style, "--style", "", true},
    OptionSpec{OptionId::Json, "--json", "", false},
    OptionSpec{OptionId::Demo, "--demo", "", false},
    OptionSpec{OptionId::Stream, "--stream", "", false},
    OptionSpec{OptionId::Reencode, "--reencode", "", false},
    OptionSpec{OptionId::Help, "--help", "-h", false},
    OptionSpec{OptionId::Version, "--version", "-V", false},
};

const OptionSpec *findOption(const QString &name)
{
    for (const auto &spec : kOptions) {
        if (name == QLatin1String(spec.longName)
            || (spec.shortName[0] != '\0' && name == QLatin1String(spec.shortName)))
            return &spec;
    }
    return nullptr;
}

// Returns an error message, or empty.
QString applyOption(CliArgs &args, const OptionSpec &spec, const QString &value)
{
    switch (spec.id) {
    case OptionId::Out: args.outDir = value; break;
    case OptionId::BaseUrl: args.baseUrl = value; break;
    case OptionId::Model: args.model = value; break;
    case OptionId::ApiVersion:
        if (value != QLatin1String("v1") && value != QLatin1String("v1beta"))
            return QStringLiteral("--api-version must be v1 or v1beta, not '%1'").arg(value);
        args.apiVersion = value;
        break;
    case OptionId::DemoLatency: {
        bool ok = false;
        const int ms = value.toInt(&ok);
        if (!ok || ms < 0)
            return QStringLiteral("--demo-latency takes a number of milliseconds >= 0, not '%1'").arg(value);
        args.demoLatencyMs = ms;
        break;
    }
    case OptionId::Session: args.sessionDir = value; break;
    case OptionId::Aspect:
        args.aspectRatio = value;
        args.hasAspectRatio = true;
        break;
    case OptionId::Thinking:
        args.thinkingLevel = value;
        args.hasThinkingLevel = true;
        break;
    case OptionId::Style: args.styleFile = value; break;
    case OptionId::Json: args.json = true; break;
    case OptionId::Demo: args.demo = true; break;
    case OptionId::Stream: args.stream = true; break;
    case OptionId::Reencode: args.reencode = true; break;
    case OptionId::Help: args.help = true; break;
    case OptionId::Version: args.version = true; break;
    }
    return {};
}

// Command options make no sense for every command; say so instead of ignoring them.
QString checkCommandOptions(const CliArgs &args)
{
    const bool takesAspect = args.command == CliCommand::Generate || args.command == CliCommand::Edit
                             || args.command == CliCommand::EditLocal;
    if (args.hasAspectRatio && !takesAspect)
        return QStringLiteral("--aspect does not apply to '%1'").arg(args.commandName);
    if (args.hasThinkingLevel && !takesAspect)
        return QStringLiteral("--thinking does not apply to '%1'").arg(args.commandName);
    if (!args.styleFile.isEmpty() && args.command != CliCommand::EditLocal)
        return QStringLiteral("--style only applies to 'edit-local'");
    if (args.demoLatencyMs >= 0 && !args.demo)
        return QStringLiteral("--demo-latency only applies together with --demo");
    if (args.demo && !args.baseUrl.isEmpty())
        return QStringLiteral("--demo and --base-url exclude each other (--demo serves its own fake API)");
    return {};
}

} // namespace

CliParseResult parseCliArgs(const QStringList &arguments)
{
    CliParseResult result;
    CliArgs &args = result.args;
    QStringList words;
    bool optionsEnded = false;

    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &arg = arguments.at(i);
        if (optionsEnded || !arg.startsWith(QLatin1Char('-')) || arg == QLatin1String("-")) {
            words.append(arg);
            continue;
        }
        if (arg == QLatin1String("--")) {
            optionsEnded = true;
            continue;
        }
        QString name = arg;
        QString value;
        bool hasInlineValue = false;
        const qsizetype eq = arg.indexOf(QLatin1Char('='));
        if (arg.startsWith(QLatin1String("--")) && eq > 2) {
            name = arg.left(eq);
            value = arg.mid(eq + 1);
            hasInlineValue = true;
        }
        if (name == QLatin1String("--api-key") || name == QLatin1String("--key")) {
            result.error = QStringLiteral("there is no %1 option: a key on the command line leaks into "
                                          "shell history and process lists; set GEMINI_API_KEY or put it in ~/gemini.key")
                               .arg(name);
            return result;
        }
        const OptionSpec *spec = findOption(name);
        if (!spec) {
            result.error = QStringLiteral("unknown option '%1' (a prompt starting with '-' goes after '--')").arg(name);
            return result;
        }
        if (spec->takesValue && !hasInlineValue) {
            if (i + 1 >= arguments.size()) {
                result.error = QStringLiteral("option %1 needs a value").arg(name);
                return result;
            }
            value = arguments.at(++i);
        } else if (!spec->takesValue && hasInlineValue) {
            result.error = QStringLiteral("option %1 takes no value").arg(name);
            return result;
        }
        const QString error = applyOption(args, *spec, value);
        if (!error.isEmpty()) {
            result.error = error;
            return result;
        }
    }

    if (args.help || args.version)
        return result;

    if (words.isEmpty()) {
        if (args.sessionDir.isEmpty())
            result.error = QStringLiteral("no command given (generate, edit, edit-local, get, delete, doctor)");
        return result;
    }

    args.commandName = words.takeFirst();
    args.positional = words;
    const CommandSpec *spec = findCommand(args.commandName);
    if (!spec) {
        if (!args.sessionDir.isEmpty()) {
            args.command = CliCommand::Other; // the session dispatch decides
            return result;
        }
        result.error = QStringLiteral("unknown command '%1' (generate, edit, edit-local, get, delete, doctor)")
                           .arg(args.commandName);
        return result;
    }
    args.command = spec->command;
    if (args.positional.size() != spec->positionalCount) {
        const QString usage = QStringLiteral("nb2lite %1 %2").arg(args.commandName, QLatin1String(spec->positionalUsage)).trimmed();
        if (args.positional.size() > spec->positionalCount)
            result.error = QStringLiteral("too many arguments for '%1' (usage: %2; quote a prompt with spaces)")
                               .arg(args.commandName, usage);
        else
            result.error = QStringLiteral("missing arguments for '%1' (usage: %2)").arg(args.commandName, usage);
        return result;
    }

    switch (args.command) {
    case CliCommand::Generate: args.prompt = args.positional.at(0); break;
    case CliCommand::Edit:
        args.interactionId = args.positional.at(0);
        args.prompt = args.positional.at(1);
        break;
    case CliCommand::EditLocal:
        args.file = args.positional.at(0);
        args.prompt = args.positional.at(1);
        break;
    case CliCommand::Get:
    case CliCommand::Delete: args.interactionId = args.positional.at(0); break;
    default: break;
    }
    if ((args.command == CliCommand::Edit || args.command == CliCommand::Get || args.command == CliCommand::Delete)
        && args.interactionId.trimmed().isEmpty()) {
        result.error = QStringLiteral("the interaction id is empty");
        return result;
    }
    result.error = checkCommandOptions(args);
    return result;
}

QString cliHelpText()
{
    QString text = QStringLiteral(
        "nb2lite - generate and edit images with gemini-3.1-flash-lite-image (Gemini Interactions API)\n"
        "\n"
        "Usage:\n"
        "  nb2lite [options] generate PROMPT [--aspect R] [--thinking L]\n"
        "  nb2lite [options] edit ID PROMPT [--aspect R] [--thinking L]\n"
        "  nb2lite [options] edit-local FILE PROMPT [--aspect R] [--thinking L] [--style STYLE_FILE]\n"
        "  nb2lite [options] get ID\n"
        "  nb2lite [options] delete ID\n"
        "  nb2lite [options] doctor\n"
        "\n"
        "Commands:\n"
        "  generate     new image from a text prompt (saved as gen_<unix>_<id8>.<ext>)\n"
        "  edit         continue from an interaction id; the server keeps the image (edit_...)\n"
        "  edit-local   edit a local image sent inline (edit_local_...); with --style, apply the\n"
        "               look of STYLE_FILE to FILE (style_edit_...)\n"
        "  get          show a stored interaction and save its image if it has one (get_...)\n"
        "  delete       delete a stored interaction on the server\n"
        "  doctor       show key status and source, model, base URL, API version, output folder,\n"
        "               learned thinking levels, and check that the API is reachable\n"
        "\n"
        "Command options:\n"
        "  --aspect R       aspect ratio: %1\n"
        "                   generate: default 1:1; edit-local: default the ratio nearest the source\n"
        "                   image; edit: default the parent interaction's ratio (one extra GET)\n"
        "  --thinking L     thinking level (default low; the server owns the allowed set: when it\n"
        "                   names the allowed values, nb2lite remembers them per model)\n"
        "  --style FILE     edit-local only: style reference image (sent first, then FILE)\n"
        "\n"
        "Options (before or after the command):\n"
        "  -o, --out DIR        where images are saved (default: $IMAGE_OUTPUT_DIR, else the\n"
        "                       current folder)\n"
        "  --json               print exactly one JSON object on stdout:\n"
        "                       {ok, path, interaction_id, mime_type, width, height, text,\n"
        "                        usage, attempts, error: {kind, http_status, message} | null}\n"
        "  --stream             stream the response (progress on stderr)\n"
        "  --demo               use a built-in offline fake of the API (no key needed)\n"
        "  --demo-latency MS    with --demo: the fake answers after MS milliseconds\n"
        "  --base-url URL       API host (default: $GOOGLE_GEMINI_BASE_URL, else\n"
        "                       https://generativelanguage.googleapis.com); plain http only\n"
        "                       for loopback addresses\n"
        "  --model NAME         model (default: $GEMINI_MODEL_NAME, else gemini-3.1-flash-lite-image)\n"
        "  --api-version V      v1 (default) or v1beta\n"
        "  --reencode           allow re-encoding an input image as JPEG when the request would\n"
        "                       exceed the 20 MB limit (never done without this flag)\n"
        "  -h, --help           this help\n"
        "  -V, --version        version\n"
        "  --                   end of options (for a prompt that starts with '-')\n"
        "\n"
        "API key:\n"
        "  There is deliberately no --api-key option: a key on the command line leaks into shell\n"
        "  history and process lists. nb2lite reads $GEMINI_API_KEY, then $GOOGLE_API_KEY, then\n"
        "  the first line of ~/gemini.key (keep it chmod 600). The key is never printed; doctor\n"
        "  shows its source and at most its last 4 characters.\n"
        "\n")
                       .arg(supportedAspectRatios().join(QLatin1Char(' ')));
    text += exitCodeHelp();
    return text;
}

} // namespace nb2
