#include "app/cli/cliargs.h"

#include "app/cli/clitext.h"
#include "core/session/sessionsettings.h"

#include <algorithm>
#include <cmath>

namespace nb2 {

using namespace cli;

namespace {

/** A word that names an option; "-" alone is an ordinary word (e.g. a file name). */
bool isOptionWord(const QString &word)
{
    return word.size() > 1 && word.startsWith(QLatin1Char('-'));
}

struct OptionWord {
    QString name;
    QString value;
    bool hasInlineValue = false;
};

/** "--opt=value" (long options only) or a bare option name. */
OptionWord splitOptionWord(const QString &word)
{
    OptionWord o {word, {}, false};
    const qsizetype eq = word.indexOf(QLatin1Char('='));
    if (word.startsWith(QLatin1String("--")) && eq > 2) {
        o.name = word.left(eq);
        o.value = word.mid(eq + 1);
        o.hasInlineValue = true;
    }
    return o;
}

int editDistance(const QString &a, const QString &b)
{
    QList<int> row(b.size() + 1);
    for (qsizetype j = 0; j <= b.size(); ++j)
        row[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        int diagonal = row[0];
        row[0] = int(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

/** The closest of `candidates` to `typed` when it is near enough to be a typo (two edits at most). */
QString nearest(const QString &typed, const QStringList &candidates)
{
    QString best;
    int bestDistance = 3;
    for (const QString &c : candidates) {
        const int d = editDistance(typed, c);
        if (d < bestDistance) {
            best = c;
            bestDistance = d;
        }
    }
    return best;
}

QStringList commandNames(bool sessionOnly)
{
    QStringList names;
    for (const CommandSpec &c : commandTable()) {
        if (!sessionOnly || c.session.exists())
            names << QLatin1String(c.name);
    }
    return names;
}

bool takesPrompt(const CommandSpec &command)
{
    const auto hasText = [](const CommandForm &f) {
        return std::find(std::begin(f.args), std::end(f.args), ValueKind::Text) != std::end(f.args);
    };
    return hasText(command.plain) || hasText(command.session);
}

/** Commands that may talk to an API (the real one or --demo's); the others ignore the API flags. */
bool usesApi(CommandId id)
{
    return id != CommandId::Export && id != CommandId::OpenBundle && id != CommandId::Completion
        && id != CommandId::Help;
}

QString usageLine(const CommandSpec &command, bool inSession)
{
    const CommandForm &form = inSession ? command.session : command.plain;
    return inSession ? QStringLiteral("nb2lite --session DIR %1").arg(QLatin1String(form.usage))
                     : QStringLiteral("nb2lite %1").arg(QLatin1String(form.usage));
}

/** One parse: finds the command, then reads every other word against that command's options. */
class Parser
{
public:
    Parser(const QStringList &words, CliArgs &args) : m_words(words), m_args(args) {}

    QString run();

private:
    QString findCommandWord();
    void scanGlobalWords();
    QString identifyCommand();
    QString parseWords();
    QString checkCondition(const OptionSpec &option, Only only, const QString &typed) const;
    QString applyOption(const OptionSpec &option, const QString &value);
    QString finishFrames();
    QString checkArguments();
    QString checkCombinations() const;
    void fillCommandArguments();
    QString unknownOption(const QString &name) const;

    const QStringList &m_words;
    CliArgs &m_args;
    qsizetype m_commandIndex = -1;
    const CommandSpec *m_command = nullptr;
    bool m_sessionGiven = false;
    QStringList m_frameWords; // the words --frames took (the last may be given back as OUT)
    bool m_framesGiven = false;
};

QString Parser::run()
{
    scanGlobalWords();
    if (QString error = findCommandWord(); !error.isEmpty())
        return error;
    if (QString error = identifyCommand(); !error.isEmpty())
        return error;
    if (m_args.help || m_args.version)
        return {}; // help (for the command, or all of it) or the version: nothing else matters
    if (!m_command)
        return CliText::tr("no command given (one of: %1); see nb2lite --help")
            .arg(commandNames(false).join(QStringLiteral(", ")));

    m_args.inSession = m_sessionGiven && m_command->session.exists();
    if (m_command->needsSession() && !m_sessionGiven)
        return CliText::tr("'%1' works on a session: nb2lite --session DIR %1").arg(m_args.commandName);

    if (QString error = parseWords(); !error.isEmpty())
        return error;
    if (QString error = finishFrames(); !error.isEmpty())
        return error;
    if (QString error = checkArguments(); !error.isEmpty())
        return error;
    if (QString error = checkCombinations(); !error.isEmpty())
        return error;
    fillCommandArguments();
    return {};
}

// --help, --version and --session change how the rest is read, wherever they are typed.
void Parser::scanGlobalWords()
{
    for (const QString &word : m_words) {
        if (word == QLatin1String("--"))
            break;
        const QString name = splitOptionWord(word).name;
        m_args.help = m_args.help || word == QLatin1String("--help") || word == QLatin1String("-h");
        m_args.version = m_args.version || word == QLatin1String("--version") || word == QLatin1String("-V");
        m_sessionGiven = m_sessionGiven || name == QLatin1String("--session");
    }
}

// The command is the first word that is neither an option nor an option's value. Options may
// come first, so their arity must be known before the command is; the one spelling whose arity
// depends on the command (--branch) therefore has to follow it.
QString Parser::findCommandWord()
{
    for (qsizetype i = 0; i < m_words.size(); ++i) {
        const QString &word = m_words.at(i);
        if (word == QLatin1String("--")) {
            if (i + 1 < m_words.size())
                m_commandIndex = i + 1;
            return {};
        }
        if (!isOptionWord(word)) {
            m_commandIndex = i;
            return {};
        }
        const OptionWord o = splitOptionWord(word);
        // Secret hygiene first: a key on the command line must not get any further.
        if (o.name == QLatin1String("--api-key") || o.name == QLatin1String("--key"))
            return CliText::tr(
                "there is no %1 option: a key on the command line leaks into shell history and process lists; "
                "set GEMINI_API_KEY or put it in ~/gemini.key")
                .arg(o.name);
        const QList<const OptionSpec *> specs = findOptions(o.name);
        if (specs.isEmpty())
            continue; // reported once the command is known
        const bool takesValue = specs.first()->value != ValueKind::None;
        for (const OptionSpec *spec : specs) {
            if ((spec->value != ValueKind::None) != takesValue)
                return CliText::tr(
                    "put %1 after the command: 'export' takes %1 N|FRAME, the edit commands take %1 alone")
                    .arg(o.name);
        }
        if (takesValue && !o.hasInlineValue)
            ++i;
    }
    return {};
}

QString Parser::identifyCommand()
{
    if (m_commandIndex < 0)
        return {};
    m_args.commandName = m_words.at(m_commandIndex);
    m_command = findCommand(m_args.commandName);
    if (m_command) {
        m_args.command = m_command->id;
        m_args.hasCommand = true;
        return {};
    }
    // Working on a session, the user wants a session command: offer those.
    const QStringList names = commandNames(m_sessionGiven);
    QString message = m_sessionGiven ? CliText::tr("unknown session command '%1' (one of: %2)")
                                     : CliText::tr("unknown command '%1' (one of: %2)");
    message = message.arg(m_args.commandName, names.join(QStringLiteral(", ")));
    if (const QString guess = nearest(m_args.commandName, names); !guess.isEmpty())
        message += CliText::tr("; did you mean '%1'?").arg(guess);
    return message;
}

QString Parser::parseWords()
{
    bool optionsEnded = false;
    bool inFrames = false;
    for (qsizetype i = 0; i < m_words.size(); ++i) {
        if (i == m_commandIndex)
            continue;
        const QString &word = m_words.at(i);
        if (optionsEnded || !isOptionWord(word)) {
            (inFrames ? m_frameWords : m_args.positional) << word;
            continue;
        }
        inFrames = false;
        if (word == QLatin1String("--")) {
            optionsEnded = true;
            continue;
        }
        const OptionWord o = splitOptionWord(word);
        const QList<const OptionSpec *> specs = findOptions(o.name);
        if (specs.isEmpty())
            return unknownOption(o.name);
        const OptionSpec *option = nullptr;
        std::optional<Only> only;
        for (const OptionSpec *spec : specs) {
            only = optionCondition(*m_command, spec->id);
            if (only) {
                option = spec;
                break;
            }
        }
        if (!option) {
            QStringList takers;
            for (const CommandSpec &c : commandTable()) {
                if (optionCondition(c, specs.first()->id))
                    takers << QLatin1String(c.name);
            }
            return CliText::tr("%1 only applies to %2, not to '%3'")
                .arg(o.name, takers.join(QStringLiteral(", ")), m_args.commandName);
        }
        if (QString error = checkCondition(*option, *only, o.name); !error.isEmpty())
            return error;

        QString value = o.value;
        if (option->value == ValueKind::None) {
            if (o.hasInlineValue)
                return CliText::tr("option %1 takes no value").arg(o.name);
        } else if (!o.hasInlineValue) {
            // A separate value never starts with "--" (attach it instead: --title=--x), so a
            // forgotten value cannot swallow the next option.
            if (i + 1 >= m_words.size() || m_words.at(i + 1).startsWith(QLatin1String("--")))
                return CliText::tr("option %1 needs a value (%2)").arg(o.name, QLatin1String(option->valueName));
            value = m_words.at(++i);
        }
        if (option->id == OptionId::Frames) {
            m_framesGiven = true;
            m_frameWords << value;
            inFrames = !o.hasInlineValue; // --frames a b c: the words that follow are frames too
            continue;
        }
        if (QString error = applyOption(*option, value); !error.isEmpty())
            return error;
    }
    return {};
}

QString Parser::checkCondition(const OptionSpec &option, Only only, const QString &typed) const
{
    Q_UNUSED(option);
    if (only == Only::InSession && !m_args.inSession)
        return CliText::tr("%1 applies to '%2' only in a session: add --session DIR").arg(typed, m_args.commandName);
    if (only == Only::OutsideSession && m_args.inSession)
        return CliText::tr("%1 does not apply to '%2' in a session (leave out --session to use it)")
            .arg(typed, m_args.commandName);
    return {};
}

QString Parser::applyOption(const OptionSpec &option, const QString &value)
{
    const auto milliseconds = [&](int *out) -> QString {
        bool ok = false;
        const int ms = value.toInt(&ok);
        if (!ok || ms < 0)
            return CliText::tr("%1 takes a number of milliseconds >= 0, not '%2'")
                .arg(QLatin1String(option.name), value);
        *out = ms;
        return {};
    };
    switch (option.id) {
    case OptionId::Session:
        if (value.trimmed().isEmpty())
            return CliText::tr("--session needs a folder");
        m_args.sessionDir = value;
        break;
    case OptionId::Demo:
        m_args.demo = true;
        break;
    case OptionId::DemoLatency:
        return milliseconds(&m_args.demoLatencyMs);
    case OptionId::BaseUrl:
        m_args.baseUrl = value;
        break;
    case OptionId::Model:
        m_args.model = value;
        break;
    case OptionId::ApiVersion:
        if (!choicesFor(ValueKind::ApiVersion).contains(value))
            return CliText::tr("--api-version must be v1 or v1beta, not '%1'").arg(value);
        m_args.apiVersion = value;
        break;
    case OptionId::Json:
        m_args.json = true;
        break;
    case OptionId::Out:
        m_args.outDir = value;
        break;
    case OptionId::Timeout: {
        bool ok = false;
        const double seconds = value.toDouble(&ok);
        if (!ok || !std::isfinite(seconds) || seconds <= 0 || seconds > 24 * 3600)
            return CliText::tr("--timeout takes a number of seconds above 0 (at most a day), not '%1'").arg(value);
        m_args.timeoutMs = std::max(1, int(std::lround(seconds * 1000)));
        break;
    }
    case OptionId::Help:
        m_args.help = true;
        break;
    case OptionId::Version:
        m_args.version = true;
        break;
    case OptionId::Aspect:
        m_args.aspectRatio = value;
        m_args.hasAspectRatio = true;
        break;
    case OptionId::Thinking:
        m_args.thinkingLevel = value;
        m_args.hasThinkingLevel = true;
        break;
    case OptionId::Style:
        m_args.styleFile = value;
        break;
    case OptionId::Stream:
        m_args.stream = true;
        break;
    case OptionId::NoStream:
        m_args.noStream = true;
        break;
    case OptionId::Reencode:
        m_args.reencode = true;
        break;
    case OptionId::Force:
        m_args.force = true;
        break;
    case OptionId::File:
        m_args.sourceFile = value;
        break;
    case OptionId::Fork:
        m_args.fork = true;
        break;
    case OptionId::Title:
        m_args.title = value;
        break;
    case OptionId::NoContinue:
        m_args.noContinue = true;
        break;
    case OptionId::NoReAnchor:
        m_args.noReAnchor = true;
        break;
    case OptionId::Retention: {
        bool numeric = false;
        const int days = value.toInt(&numeric);
        if (!choicesFor(ValueKind::Retention).contains(value)
            && !(numeric && days >= 1 && prefs::customRetentionDays.isValid(days)))
            return CliText::tr("--retention takes paid, free or a number of days (1-3650), not '%1'").arg(value);
        m_args.retention = value;
        break;
    }
    case OptionId::LockTimeout:
        if (QString error = milliseconds(&m_args.lockTimeoutMs); !error.isEmpty())
            return error;
        if (!prefs::lockTimeoutMs.isValid(m_args.lockTimeoutMs))
            return CliText::tr("--lock-timeout takes 100 to 120000 milliseconds, not '%1'").arg(value);
        break;
    case OptionId::Region: {
        const QStringList parts = value.split(QLatin1Char(','));
        QList<int> n;
        for (const QString &part : parts) {
            bool ok = false;
            n.append(part.trimmed().toInt(&ok));
            if (!ok)
                n.clear();
            if (!ok)
                break;
        }
        if (n.size() != 4 || n[0] < 0 || n[1] < 0 || n[2] <= 0 || n[3] <= 0)
            return CliText::tr("--region takes X,Y,W,H in pixels of the frame (W and H above 0), not '%1'").arg(value);
        m_args.region = QRect(n[0], n[1], n[2], n[3]);
        break;
    }
    case OptionId::Mask:
        m_args.maskFile = value;
        break;
    case OptionId::Feather: {
        bool ok = false;
        m_args.feather = value.toInt(&ok);
        if (!ok || m_args.feather < 0 || m_args.feather > 256)
            return CliText::tr("--feather takes 0 to 256 pixels, not '%1'").arg(value);
        break;
    }
    case OptionId::RegionModeOpt:
        if (value != QLatin1String("region") && value != QLatin1String("protect"))
            return CliText::tr("--mode takes region or protect, not '%1'").arg(value);
        m_args.regionMode = value;
        break;
    case OptionId::KeepAdd:
        if (value.simplified().isEmpty())
            return CliText::tr("--add takes the constraint to keep, e.g. --add \"keep the face\"");
        m_args.keepAdd = value;
        break;
    case OptionId::KeepRemove: {
        bool ok = false;
        m_args.keepRemove = value.toInt(&ok);
        if (!ok || m_args.keepRemove < 1)
            return CliText::tr(
                "--remove takes the number of a constraint as 'keep REF' lists them (1, 2, ...), not '%1'")
                .arg(value);
        break;
    }
    case OptionId::KeepClear:
        m_args.keepClear = true;
        break;
    case OptionId::KeepInherit:
        m_args.keepInherit = true;
        break;
    case OptionId::All:
        m_args.all = true;
        break;
    case OptionId::Budget: {
        bool ok = false;
        const double usd = value.toDouble(&ok);
        if (!ok || !std::isfinite(usd) || !prefs::budgetUsd.isValid(usd))
            return CliText::tr("--budget takes an amount in US dollars from 0.01 to 100000 (0: no budget), not '%1'")
                .arg(value);
        m_args.budgetUsd = usd;
        break;
    }
    case OptionId::DryRun:
        m_args.dryRun = true;
        break;
    case OptionId::Variants: {
        bool ok = false;
        const int n = value.toInt(&ok);
        if (!ok || n < 1 || n > kMaxVariants)
            return CliText::tr("--variants takes a number from 1 to %1, not '%2'").arg(kMaxVariants).arg(value);
        m_args.variants = n;
        break;
    }
    case OptionId::Onto:
        m_args.onto = value;
        break;
    case OptionId::Photos:
        m_args.photos = true;
        break;
    case OptionId::Resume:
        m_args.resume = true;
        break;
    case OptionId::Grep:
        m_args.grep = value;
        break;
    case OptionId::Starred:
        m_args.starredOnly = true;
        break;
    case OptionId::Ids:
        m_args.idsOnly = true;
        break;
    case OptionId::Format:
        if (!choicesFor(ValueKind::ExportFormat).contains(value))
            return CliText::tr("unknown export format \"%1\" (one of: %2)")
                .arg(value, choicesFor(ValueKind::ExportFormat).join(QStringLiteral(", ")));
        m_args.format = value;
        break;
    case OptionId::ExportBranch:
        m_args.exportBranch = value;
        break;
    case OptionId::Frames:
        break; // collected by parseWords()
    case OptionId::StripPrompts:
        m_args.stripPrompts = true;
        break;
    case OptionId::StripIds:
        m_args.stripIds = true;
        break;
    case OptionId::StripCost:
        m_args.stripCost = true;
        break;
    case OptionId::SingleFile:
        m_args.singleFile = true;
        break;
    case OptionId::NoFailed:
        m_args.noFailed = true;
        break;
    case OptionId::Copy:
        m_args.copy = true;
        break;
    case OptionId::NoImageBlocks:
        m_args.noImageBlocks = true;
        break;
    case OptionId::PrintSkill:
        m_args.printSkill = true;
        break;
    }
    return {};
}

// `export --frames a b OUT`: the command's own argument is given back from the end of the list.
QString Parser::finishFrames()
{
    if (!m_framesGiven)
        return {};
    const CommandForm &form = m_args.inSession ? m_command->session : m_command->plain;
    while (m_args.positional.size() < form.minArgs && m_frameWords.size() > 1
        && !m_frameWords.last().contains(QLatin1Char(',')))
        m_args.positional.prepend(m_frameWords.takeLast());
    for (const QString &word : std::as_const(m_frameWords))
        m_args.frames += word.split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (m_args.frames.isEmpty())
        return CliText::tr("--frames needs at least one frame id");
    return {};
}

QString Parser::checkArguments()
{
    const CommandForm &form = m_args.inSession ? m_command->session : m_command->plain;
    const qsizetype count = m_args.positional.size();
    if (count >= form.minArgs && count <= form.maxArgs)
        return {};
    const QString usage = usageLine(*m_command, m_args.inSession);
    if (count > form.maxArgs) {
        if (takesPrompt(*m_command))
            return CliText::tr("too many arguments for '%1' (usage: %2; quote a prompt with spaces)")
                .arg(m_args.commandName, usage);
        return CliText::tr("too many arguments for '%1' (usage: %2)").arg(m_args.commandName, usage);
    }
    return CliText::tr("missing arguments for '%1' (usage: %2)").arg(m_args.commandName, usage);
}

QString Parser::checkCombinations() const
{
    const CliArgs &a = m_args;
    if (usesApi(a.command)) {
        if (a.demoLatencyMs >= 0 && !a.demo)
            return CliText::tr("--demo-latency only applies together with --demo");
        if (a.demo && !a.baseUrl.isEmpty())
            return CliText::tr("--demo and --base-url exclude each other (--demo serves its own fake API)");
    }
    if (a.stream && a.noStream)
        return CliText::tr("--stream and --no-stream exclude each other");
    if (a.json && a.idsOnly)
        return CliText::tr("--json and --ids exclude each other (--json lists the ids too)");
    const bool takesId = a.command == CommandId::Edit || a.command == CommandId::Get || a.command == CommandId::Delete;
    if (!a.inSession && takesId && a.positional.value(0).trimmed().isEmpty())
        return CliText::tr("the interaction id is empty");
    if (!a.region.isNull() && !a.maskFile.isEmpty())
        return CliText::tr("use either --region or --mask, not both");
    if (a.region.isNull() && a.maskFile.isEmpty() && (a.feather >= 0 || !a.regionMode.isEmpty()))
        return CliText::tr("--feather and --mode need a selection: --region X,Y,W,H or --mask FILE");
    if (int(!a.keepAdd.isEmpty()) + int(a.keepRemove > 0) + int(a.keepClear) + int(a.keepInherit) > 1)
        return CliText::tr("keep takes one change at a time: --add, --remove, --clear or --inherit");
    if (a.command == CommandId::StyleEdit && a.styleFile.isEmpty())
        return CliText::tr("style-edit needs --style IMAGE");
    if (a.inSession && (a.command == CommandId::EditLocal || a.command == CommandId::StyleEdit)) {
        const qsizetype wanted = a.sourceFile.isEmpty() ? 2 : 1;
        if (a.positional.size() != wanted)
            return a.sourceFile.isEmpty()
                ? CliText::tr("'%1' needs a frame and a prompt: %2 REF PROMPT, or %2 --file IMAGE PROMPT")
                      .arg(a.commandName, a.commandName)
                : CliText::tr("with --file, '%1' takes only the prompt: %1 --file IMAGE PROMPT").arg(a.commandName);
    }
    if (a.command == CommandId::Export) {
        if (a.format.isEmpty())
            return CliText::tr("export needs --format %1")
                .arg(choicesFor(ValueKind::ExportFormat).join(QLatin1Char('|')));
        if (!a.exportBranch.isEmpty() && m_framesGiven)
            return CliText::tr("use either --branch or --frames, not both");
    }
    if (a.command == CommandId::Completion && !choicesFor(ValueKind::Shell).contains(a.positional.value(0)))
        return CliText::tr("completion needs the shell: nb2lite completion bash, or nb2lite completion zsh");
    if (a.command == CommandId::Help && !a.positional.isEmpty() && !findCommand(a.positional.first()))
        return CliText::tr("no command '%1' (one of: %2)")
            .arg(a.positional.first(), commandNames(false).join(QStringLiteral(", ")));
    return {};
}

void Parser::fillCommandArguments()
{
    CliArgs &a = m_args;
    const QStringList &p = a.positional;
    if (a.inSession) {
        a.prompt = p.value(p.size() - 1); // the prompt is always last
        return;
    }
    switch (a.command) {
    case CommandId::Generate:
        a.prompt = p.at(0);
        break;
    case CommandId::Edit:
        a.interactionId = p.at(0);
        a.prompt = p.at(1);
        break;
    case CommandId::EditLocal:
        a.file = p.at(0);
        a.prompt = p.at(1);
        break;
    case CommandId::Get:
    case CommandId::Delete:
        a.interactionId = p.at(0);
        break;
    default:
        break;
    }
}

QString Parser::unknownOption(const QString &name) const
{
    QStringList spellings;
    for (const OptionSpec &o : optionTable()) {
        if (optionCondition(*m_command, o.id))
            spellings << QLatin1String(o.name);
    }
    const QString message = CliText::tr("unknown option %1 for '%2'").arg(name, m_args.commandName);
    // A near miss is most likely a typo; otherwise it may be a prompt that starts with a dash.
    if (const QString guess = nearest(name, spellings); !guess.isEmpty())
        return message + CliText::tr("; did you mean %1?").arg(guess);
    if (takesPrompt(*m_command))
        return message
            + CliText::tr(" (see nb2lite help %1; a prompt that starts with '-' goes after '--')")
                  .arg(m_args.commandName);
    return message + CliText::tr(" (see nb2lite help %1)").arg(m_args.commandName);
}

} // namespace

CliParseResult parseCliArgs(const QStringList &arguments)
{
    CliParseResult result;
    result.error = Parser(arguments, result.args).run();
    return result;
}

} // namespace nb2
