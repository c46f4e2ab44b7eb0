#include "app/cli/clihelp.h"

#include "app/cli/clitext.h"
#include "app/cli/exitcodes.h"

namespace nb2::cli {

namespace {

constexpr int kWidth = 100;       // help lines wrap here
constexpr int kOptionColumn = 26; // where option descriptions start

/** Word-wraps text to kWidth; the first line starts at `firstColumn`, the others are indented to `indent`. */
QString wrap(const QString &text, int indent, int firstColumn)
{
    QString out;
    int column = firstColumn;
    bool lineEmpty = true;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!lineEmpty && column + 1 + word.size() > kWidth) {
            out += QLatin1Char('\n') + QString(indent, QLatin1Char(' '));
            column = indent;
            lineEmpty = true;
        }
        if (!lineEmpty) {
            out += QLatin1Char(' ');
            ++column;
        }
        out += word;
        column += int(word.size());
        lineEmpty = false;
    }
    return out + QLatin1Char('\n');
}

QString optionLabel(const OptionSpec &option)
{
    QString label = optionDisplayName(option);
    if (option.valueName)
        label += QLatin1Char(' ') + QLatin1String(option.valueName);
    if (option.value == ValueKind::FrameRefList)
        label += QStringLiteral(" [F ...]");
    return label;
}

QString optionDescription(const OptionSpec &option, Only only)
{
    QString text = tableText(option.help);
    if (only == Only::InSession)
        text = CliText::tr("(with --session) %1").arg(text);
    else if (only == Only::OutsideSession)
        text = CliText::tr("(without --session) %1").arg(text);
    // The retention plans are named in the description itself, with the numeric form.
    const QStringList choices = option.value == ValueKind::Retention ? QStringList() : choicesFor(option.value);
    if (!choices.isEmpty())
        text += CliText::tr("; one of: %1").arg(choices.join(QStringLiteral(", ")));
    return text;
}

QString optionLine(const OptionSpec &option, Only only = Only::Always)
{
    QString label = QStringLiteral("  ") + optionLabel(option);
    if (label.size() + 1 >= kOptionColumn)
        label += QLatin1Char('\n') + QString(kOptionColumn, QLatin1Char(' '));
    else
        label = label.leftJustified(kOptionColumn, QLatin1Char(' '));
    return label + wrap(optionDescription(option, only), kOptionColumn, kOptionColumn);
}

QString commandLine(const CommandSpec &command)
{
    const QString name = QStringLiteral("  ") + QLatin1String(command.name);
    return name.leftJustified(15, QLatin1Char(' ')) + wrap(tableText(command.summary), 15, 15);
}

QString usage(const CommandSpec &command, bool session)
{
    const CommandForm &form = session ? command.session : command.plain;
    return session ? QStringLiteral("  nb2lite --session DIR [options] %1\n").arg(QLatin1String(form.usage))
                   : QStringLiteral("  nb2lite [options] %1\n").arg(QLatin1String(form.usage));
}

} // namespace

QString globalHelpText()
{
    QString text
        = CliText::tr("nb2lite - generate and edit images with gemini-3.1-flash-lite-image (Gemini Interactions API)")
        + QStringLiteral("\n\n") + CliText::tr("Usage:") + QLatin1Char('\n');
    for (const CommandSpec &c : commandTable()) {
        if (c.plain.exists())
            text += usage(c, false);
    }
    text += QLatin1Char('\n')
        + CliText::tr("Session commands (a session is a folder: manifest.json, images/, journal.jsonl):")
        + QLatin1Char('\n');
    for (const CommandSpec &c : commandTable()) {
        if (c.session.exists())
            text += usage(c, true);
    }
    text += wrap(CliText::tr("REF is a frame id, a unique prefix of one, or 'head'. Editing a frame that already has a "
                             "continuation forks a new branch: pass --branch to do it."),
        2, 2)
                .prepend(QStringLiteral("  "));

    text += QLatin1Char('\n') + CliText::tr("Commands:") + QLatin1Char('\n');
    for (const CommandSpec &c : commandTable())
        text += commandLine(c);

    text += QLatin1Char('\n') + CliText::tr("Options (before or after the command; ignored where they do not apply):")
        + QLatin1Char('\n');
    for (const OptionSpec &o : optionTable()) {
        if (o.global)
            text += optionLine(o);
    }
    text += QStringLiteral("  --").leftJustified(kOptionColumn, QLatin1Char(' '))
        + wrap(CliText::tr("end of options (for a prompt that starts with '-')"), kOptionColumn, kOptionColumn);

    text += QLatin1Char('\n') + CliText::tr("Command options (nb2lite help COMMAND lists a command's own):")
        + QLatin1Char('\n');
    for (const OptionSpec &o : optionTable()) {
        if (!o.global)
            text += optionLine(o);
    }

    text += QLatin1Char('\n') + CliText::tr("Output:") + QLatin1Char('\n');
    text += QStringLiteral("  ")
        + wrap(CliText::tr(
                   "--json prints exactly one JSON object on stdout. The API commands print {ok, path, "
                   "interaction_id, mime_type, width, height, text, usage, attempts, error: {kind, http_status, "
                   "message} | null}; a session turn prints the same object, then frame_id, status, session and "
                   "the whole frame; recover and rebuild {ok, session, frames, recovered, interrupted}; log --json "
                   "the whole graph; export {ok, format, output, frames, ...}. A failure before any of these "
                   "prints {ok: false, ..., error}. "
                   "Progress and notes go to stderr."),
            2, 2);

    text += QLatin1Char('\n') + CliText::tr("API key:") + QLatin1Char('\n');
    // Broken by hand: "no --api-key option" must stay on one line for people who search for it.
    text += CliText::tr("  There is deliberately no --api-key option: a key on the command line leaks into shell\n"
                        "  history and process lists. nb2lite reads $GEMINI_API_KEY, then $GOOGLE_API_KEY, then\n"
                        "  the first line of ~/gemini.key (keep it chmod 600). The key is never printed; doctor\n"
                        "  shows its source and at most its last 4 characters.\n");
    text += QLatin1Char('\n') + exitCodeHelp();
    return text;
}

QString commandHelpText(const CommandSpec &command)
{
    QString text
        = wrap(QStringLiteral("nb2lite %1 - %2").arg(QLatin1String(command.name), tableText(command.summary)), 4, 0)
        + QLatin1Char('\n');
    text += CliText::tr("Usage:") + QLatin1Char('\n');
    if (command.plain.exists())
        text += usage(command, false);
    if (command.session.exists())
        text += usage(command, true);
    if (command.details)
        text += QLatin1Char('\n') + wrap(tableText(command.details), 0, 0);

    if (!command.options.empty()) {
        text += QLatin1Char('\n') + CliText::tr("Options:") + QLatin1Char('\n');
        for (const CommandOption &o : command.options)
            text += optionLine(optionSpec(o.id), o.only);
    }
    QStringList globals;
    for (const OptionSpec &o : optionTable()) {
        if (o.global)
            globals << (o.valueName ? QStringLiteral("%1 %2").arg(QLatin1String(o.name), QLatin1String(o.valueName))
                                    : QLatin1String(o.name));
    }
    text += QLatin1Char('\n')
        + wrap(
            CliText::tr("Global options (accepted here too, ignored where they do not apply): %1. See nb2lite --help "
                        "for what they do and for the exit statuses.")
                .arg(globals.join(QStringLiteral(", "))),
            0, 0);
    return text;
}

} // namespace nb2::cli
