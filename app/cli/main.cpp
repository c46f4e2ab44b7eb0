// nb2lite: the command-line front end. Wiring only: parse, resolve the configuration,
// run one command, print the report. The logic lives in the small files next to this one.

#include "app/cli/cliargs.h"
#include "app/cli/clireport.h"
#include "app/cli/clisetup.h"
#include "app/cli/commands.h"
#include "app/cli/demobackend.h"
#include "app/cli/doctor.h"
#include "app/cli/exitcodes.h"
#include "app/cli/exportcommands.h"
#include "app/cli/sessioncommands.h"
#include "app/cli/signalcancel.h"
#include "core/api/interactionsclient.h"
#include "core/api/thinkinglevels.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcessEnvironment>
#include <QTextStream>

#include <cstdio>

namespace {

void writeTo(FILE *stream, const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    std::fflush(stream);
}

void writeOut(const QString &text) { writeTo(stdout, text.toUtf8()); }
void writeErr(const QString &text) { writeTo(stderr, text.toUtf8()); }

int exitCodeOf(const nb2::CliReport &report)
{
    if (report.ok)
        return nb2::kExitSuccess;
    if (report.errorKind == QLatin1String("usage"))
        return nb2::kExitUsage;
    if (!report.error || !report.errorKind.isEmpty())
        return nb2::kExitInternal;
    return nb2::exitCodeFor(report.error->kind);
}

int finish(const nb2::CliReport &report, bool json, const nb2::ReportPrinter &printer)
{
    if (json)
        writeTo(stdout, printer.json(report));
    else
        writeOut(printer.human(report));
    if (!report.ok) {
        writeErr(printer.errorLine(report));
        if (report.errorKind == QLatin1String("usage"))
            writeErr(QStringLiteral("Try 'nb2lite --help'.\n"));
    }
    return exitCodeOf(report);
}

int runCli(const QStringList &arguments, const nb2::CancelTokenPtr &cancel)
{
    using namespace nb2;
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString home = QDir::homePath();
    // Whatever key the environment holds is scrubbed from all output, even in --demo.
    const ReportPrinter printer(lookupApiKey(env, home).value());

    const CliParseResult parsed = parseCliArgs(arguments);
    const CliArgs &args = parsed.args;
    if (!parsed.ok()) {
        // --json may not have been reached by the parser; honour it if it was typed at all.
        const bool json = args.json || arguments.contains(QStringLiteral("--json"));
        return finish(failureReport(QStringLiteral("usage"), parsed.error), json, printer);
    }
    if (args.help) {
        // Session/export helpers: append sessionCommandHelp() / exportCommandHelp() here.
        writeOut(cliHelpText());
        writeOut(QStringLiteral("\n") + nb2::cli::sessionCommandHelp());
        writeOut(QStringLiteral("\n") + nb2::cli::exportCommandHelp());
        return kExitSuccess;
    }
    if (args.version) {
        writeOut(QStringLiteral("nb2lite %1\n").arg(QCoreApplication::applicationVersion()));
        return kExitSuccess;
    }

    // `--session DIR` commands are dispatched in main() before we get here.
    if (!args.sessionDir.isEmpty())
        return finish(failureReport(QStringLiteral("usage"),
                                    QStringLiteral("'%1' is not a session command").arg(args.commandName)),
                      args.json, printer);

    DemoBackend demo;
    CliSetup setup = resolveCliSetup(args, env, home);
    if (args.demo) {
        const QString error = demo.start(args.demoLatencyMs);
        if (!error.isEmpty())
            return finish(failureReport(QStringLiteral("internal"), error), args.json, printer);
        setup.config.baseUrl = demo.baseUrl();
        setup.config.apiKey = demo.apiKey();
    }
    // The demo fake has its own level set; what it says must not overwrite what the real
    // server taught us, so --demo learns in memory only.
    ThinkingLevels levels(args.demo ? QString() : thinkingLevelsFilePath());
    setup.config.thinkingLevels = &levels;
    if (!setup.config.apiKey.warning().isEmpty())
        writeErr(QStringLiteral("warning: %1\n").arg(printer.redact(setup.config.apiKey.warning())));

    if (args.command == CliCommand::Doctor) {
        Doctor doctor(setup.config, &levels);
        doctor.setSources(setup.modelSource, setup.baseUrlSource);
        doctor.setOutputDir(setup.outputDir);
        const DoctorReport report = doctor.run();
        if (args.json)
            writeTo(stdout, printer.redact(QString::fromUtf8(Doctor::json(report))).toUtf8());
        else
            writeOut(printer.redact(Doctor::human(report)));
        return report.exitCode();
    }

    InteractionsClient client(setup.config);
    CommandRunner runner(client, &levels, setup.outputDir,
                         [&printer](const QString &line) { writeErr(printer.redact(line) + QLatin1Char('\n')); });
    runner.setCancelToken(cancel);
    return finish(runner.run(args), args.json, printer);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv); // starts no thread
    // AppConfigLocation (learned thinking levels) is shared with the desktop app.
    QCoreApplication::setOrganizationName(QStringLiteral("NB2Lite"));
    QCoreApplication::setApplicationName(QStringLiteral("nb2lite-studio"));
    QCoreApplication::setApplicationVersion(QStringLiteral(NB2_VERSION));
    const QStringList arguments = QCoreApplication::arguments().mid(1);

    // --- Session and export commands (`--session DIR ...`, owned by the session layer) ---
    // Their dispatch goes here, before the signal handling below, e.g.:
    //     if (nb2::cli::isSessionCommand(arguments)) { ... return nb2::cli::runSessionCommand(...); }
    // and their sources go into app/cli/CMakeLists.txt.
    if (nb2::cli::isExportCommand(arguments)) { // `--session DIR export|open-bundle ...` (export helper)
        QTextStream out(stdout);
        QTextStream err(stderr);
        return nb2::cli::runExportCommand(arguments, out, err);
    }
    if (nb2::cli::isSessionCommand(arguments)) {
        QTextStream out(stdout);
        QTextStream err(stderr);
        return nb2::cli::runSessionCommand(arguments, out, err);
    }
    // ------------------------------------------------------------------------------------

    nb2::SignalCanceller signalCanceller; // before any other thread: it blocks SIGINT/SIGTERM
    return runCli(arguments, signalCanceller.token());
}
