#include "app/cli/clirun.h"

#include "app/cli/mcpcommand.h"

#include "app/cli/cliargs.h"
#include "app/cli/clihelp.h"
#include "app/cli/clisetup.h"
#include "app/cli/clitext.h"
#include "app/cli/commands.h"
#include "app/cli/completion.h"
#include "app/cli/console.h"
#include "app/cli/costcommands.h"
#include "app/cli/demobackend.h"
#include "app/cli/doctor.h"
#include "app/cli/exitcodes.h"
#include "app/cli/exportcommands.h"
#include "app/cli/mcpcommand.h"
#include "app/cli/sessioncommands.h"
#include "app/cli/signalcancel.h"
#include "core/api/interactionsclient.h"
#include "core/api/thinkinglevels.h"
#include "core/common/hugepages.h"
#include "core/common/translations.h"
#include "core/session/framegraph.h"
#include "core/session/pricetable.h"
#include "core/session/sessionstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QLoggingCategory>
#include <QProcessEnvironment>
#include <QTextStream>

namespace nb2::cli {

namespace {

/** --json typed anywhere before "--": honoured even when the parser could not get that far. */
bool jsonRequested(const QStringList &arguments)
{
    for (const QString &word : arguments) {
        if (word == QLatin1String("--"))
            return false;
        if (word == QLatin1String("--json"))
            return true;
    }
    return false;
}

/** generate / edit / edit-local / get / delete / doctor without a session. */
int runApiCommand(const CliArgs &args, Console &console, const CommandContext &context)
{
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    DemoBackend demo;
    CliSetup setup = resolveCliSetup(args, env, QDir::homePath());
    if (args.demo) {
        // Plain demo commands share one store in the cache folder: `--demo generate`, then
        // `--demo edit ID` continues the chain, as it would on the real service.
        const QString store = DemoBackend::cacheStoreDir();
        DemoBackend::keepNewest(store, DemoBackend::kMaxCachedInteractions);
        if (const QString error = demo.start(args.demoLatencyMs, store); !error.isEmpty())
            return console.finish(failureReport(QStringLiteral("internal"), error), args.json);
        if (!demo.warning().isEmpty())
            console.err(CliText::tr("warning: %1").arg(demo.warning()) + QLatin1Char('\n'));
        setup.config.baseUrl = demo.baseUrl();
        setup.config.apiKey = demo.apiKey();
    }
    // The demo fake has its own level set; what it says must not overwrite what the real
    // server taught us, so --demo learns in memory only.
    ThinkingLevels levels(args.demo ? QString() : thinkingLevelsFilePath());
    setup.config.thinkingLevels = &levels;
    if (!setup.config.apiKey.warning().isEmpty())
        console.err(CliText::tr("warning: %1").arg(setup.config.apiKey.warning()) + QLatin1Char('\n'));

    if (args.command == CliCommand::Doctor) {
        Doctor doctor(setup.config, &levels);
        doctor.setSources(setup.modelSource, setup.baseUrlSource);
        doctor.setOutputDir(setup.outputDir);
        const DoctorReport report = doctor.run();
        console.out(args.json ? QString::fromUtf8(Doctor::json(report)) : Doctor::human(report));
        return report.exitCode();
    }

    if (args.dryRun) {
        // No session: nothing to learn from, so the estimate is the price table's.
        const FrameKind kind = args.command == CliCommand::Generate ? FrameKind::Generate
            : args.command == CliCommand::Edit                      ? FrameKind::Edit
            : args.styleFile.isEmpty()                              ? FrameKind::EditLocal
                                                                    : FrameKind::StyleEdit;
        return printDryRun(FrameGraph(), PriceTable::defaults(), 0, kind, setup.config.model, 1, args, console);
    }
    InteractionsClient client(setup.config);
    CommandRunner runner(
        client, &levels, setup.outputDir, [&console](const QString &line) { console.err(line + QLatin1Char('\n')); });
    if (args.timeoutMs >= 0)
        runner.setDeadline(QDeadlineTimer(args.timeoutMs)); // the whole command, every retry included
    if (context.canceller) {
        // Ctrl-C ends the call in flight as "cancelled" (a second one exits).
        runner.setCancelToken(context.canceller->token());
        context.canceller->setCancelsCleanly(true);
    }
    return console.finish(runner.run(args), args.json);
}

} // namespace

int runCommandLine(const QStringList &arguments, Console &console, const CommandContext &context)
{
    const CliParseResult parsed = parseCliArgs(arguments); // prints nothing
    const CliArgs &args = parsed.args;
    // A command that works on a few frames of its session checks each file as it reads it; the
    // others (export, log, mcp, ...) check every frame's files when they open the session.
    // Set for this command line only: a test may run several in one process.
    SessionStore::setFileChecksDeferred(parsed.ok() && opensSessionForWork(args));
    // A turn reads a few frames of its session: the others are built only if it asks for them.
    SessionStore::setFramesOnDemand(parsed.ok() && usesFewFrames(args));
    struct Restore {
        ~Restore()
        {
            SessionStore::setFileChecksDeferred(false);
            SessionStore::setFramesOnDemand(false);
        }
    } restore;
    // From here the checkpoint of a session opened for work is read on another thread while
    // the rest starts up (a 10,000-frame session's parse no longer follows it).
    if (parsed.ok())
        preloadSessionForWork(args);

    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // Whatever key the environment holds is scrubbed from all output, even in --demo.
    console.setSecret(lookupApiKey(env, QDir::homePath()).value());

    if (!parsed.ok())
        return console.finish(
            failureReport(QStringLiteral("usage"), parsed.error), args.json || jsonRequested(arguments));
    if (args.help) {
        console.out(args.hasCommand ? commandHelpText(commandSpec(args.command)) : globalHelpText());
        return kExitSuccess;
    }
    if (args.version) {
        console.out(
            QStringLiteral("nb2lite %1\n").arg(QCoreApplication::applicationVersion())); // notr: name and version
        return kExitSuccess;
    }

    switch (args.command) {
    case CliCommand::Help:
        console.out(
            args.positional.isEmpty() ? globalHelpText() : commandHelpText(*findCommand(args.positional.first())));
        return kExitSuccess;
    case CliCommand::Completion:
        console.out(args.positional.first() == QLatin1String("bash") ? bashCompletionScript() : zshCompletionScript());
        return kExitSuccess;
    case CliCommand::Mcp: {
        SessionStore::setKeepTablesForExit(false); // a long-running server frees what it closes
        McpServerOptions options;
        options.sessionDir = args.sessionDir;
        options.demo = args.demo;
        options.demoLatencyMs = qMax(0, args.demoLatencyMs);
        options.imageBlocks = !args.noImageBlocks;
        options.printSkill = args.printSkill;
        return runMcpServer(options, context.canceller);
    }
    case CliCommand::Export:
    case CliCommand::OpenBundle:
        return runExportCommand(args, console);
    default:
        break;
    }
    if (args.inSession)
        return runSessionCommand(args, console, context);
    return runApiCommand(args, console, context);
}

int runNb2lite(int argc, char *argv[])
{
    // Before any thread exists: the heap in 2 MB pages, grown in 64 MB steps (a big session's
    // frame table costs thousands of page faults otherwise).
    preferHugePagesForHeap();
    // Before anything else: a signal must never find the process without its handler.
    SignalCanceller canceller;
    QCoreApplication app(argc, argv); // starts no thread
    // Qt's image decoders talk to stderr ("qt.gui.imageio.jpeg: Corrupt JPEG data: ..."); that is
    // not nb2lite speaking, and a damaged picture is reported by nb2lite itself where it matters.
    // QT_LOGGING_RULES in the environment still wins, for debugging.
    QLoggingCategory::setFilterRules(
        QStringLiteral("qt.gui.imageio*.warning=false\nqt.gui.imageio*.debug=false")); // notr
    QCoreApplication::setOrganizationName(QStringLiteral("NB2Lite"));
    QCoreApplication::setApplicationName(QStringLiteral("nb2lite-studio"));
    QCoreApplication::setApplicationVersion(QStringLiteral(NB2_VERSION));
    // The locale's catalogue, else the English one (plural forms); nb2lite links nb2translations.
    installTranslations(&app);
    QTextStream out(stdout);
    QTextStream err(stderr);
    Console console(out, err);
    // One command, then exit: a closed session's frame table is left for the exit to return
    // (after everything is written and synced) instead of being freed piece by piece.
    SessionStore::setKeepTablesForExit(true);
    return runCommandLine(QCoreApplication::arguments().mid(1), console, CommandContext {&canceller});
}

} // namespace nb2::cli
