#include "app/cli/mcpcommand.h"

#include "app/cli/clisetup.h"
#include "app/cli/clitext.h"
#include "app/cli/demobackend.h"
#include "app/cli/exitcodes.h"
#include "app/cli/signalcancel.h"
#include "core/api/interactionsclient.h"
#include "core/api/thinkinglevels.h"
#include "core/mcp/mcphandler.h"
#include "core/mcp/mcphelp.h"
#include "core/mcp/mcpsessiontools.h"
#include "core/mcp/mcpstdiotransport.h"
#include "core/session/appsettings.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcessEnvironment>
#include <QSettings>
#include <QUrl>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <optional>
#include <unistd.h>

namespace nb2::cli {

namespace {

constexpr int kShutdownWaitMs = 15000; // cancelled turns come back in milliseconds; this is a safety net

void writeErr(const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    std::fflush(stderr);
}

bool isLoopback(const QString &baseUrl)
{
    const QString host = QUrl(baseUrl).host();
    return host == QLatin1String("127.0.0.1") || host == QLatin1String("localhost") || host == QLatin1String("::1");
}

/** Replaces the key wherever it would appear: the last line of defence for stdout and stderr. */
class Redactor
{
public:
    explicit Redactor(const QString &key) : m_key(key.size() >= 8 ? key.toUtf8() : QByteArray()) {}
    QByteArray operator()(QByteArray bytes) const
    {
        return m_key.isEmpty() ? bytes : bytes.replace(m_key, "[redacted]");
    }

private:
    QByteArray m_key;
};

} // namespace

QString mcpSessionDir(const QString &option, const QString &environmentValue, const QString &workingDir)
{
    QString dir = option;
    if (dir.isEmpty())
        dir = environmentValue;
    if (dir.isEmpty())
        dir = QStringLiteral(".nb2lite/session");
    return QDir::cleanPath(QDir(workingDir).absoluteFilePath(dir));
}

int runMcpServer(const McpServerOptions &options, SignalCanceller *signalHandler)
{
    if (options.printSkill) {
        const QByteArray text = mcp::skillText().toUtf8();
        std::fwrite(text.constData(), 1, size_t(text.size()), stdout);
        std::fflush(stdout);
        return kExitSuccess;
    }

    // Stdout is the protocol channel: keep a private descriptor for it and point fd 1 at stderr,
    // so that nothing else (a library's printf, a Qt warning handler) can corrupt the stream.
    std::fflush(stdout);
    const int protocolFd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (protocolFd < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        writeErr(cli::CliText::tr("nb2lite mcp: cannot set up stdout for the protocol\n"));
        return kExitInternal;
    }
    std::signal(SIGPIPE, SIG_IGN); // a client that went away gives EPIPE, not a dead process
    // SIGINT/SIGTERM end the service cleanly: the handler was installed first thing in main().
    std::optional<SignalCanceller> ownSignals; // only when called without the process's handler
    if (!signalHandler)
        signalHandler = &ownSignals.emplace();
    SignalCanceller &signalCanceller = *signalHandler;
    signalCanceller.setCancelsCleanly(true);

    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString home = QDir::homePath();
    const Redactor redact(lookupApiKey(env, home).value()); // whatever key the environment holds, even in --demo

    DemoBackend demo;
    ClientConfig config = resolveConnection(env, nullptr, {}, home).config; // the CLI has no settings layer
    if (options.demo) {
        if (const QString error = demo.start(options.demoLatencyMs); !error.isEmpty()) {
            writeErr(QStringLiteral("nb2lite mcp: %1\n").arg(error));
            return kExitInternal;
        }
        config.baseUrl = demo.baseUrl();
        config.apiKey = demo.apiKey();
    }
    // The demo fake has its own level set; what it says must not overwrite what the real server taught us.
    ThinkingLevels levels(options.demo ? QString() : thinkingLevelsFilePath());
    config.thinkingLevels = &levels;
    if (!config.apiKey.warning().isEmpty())
        writeErr(QString::fromUtf8(
            redact(cli::CliText::tr("nb2lite mcp: warning: %1\n").arg(config.apiKey.warning()).toUtf8())));

    const QString sessionDir
        = mcpSessionDir(options.sessionDir, env.value(QStringLiteral("NB2LITE_SESSION")), QDir::currentPath());
    SessionController session;
    session.setSettings(SessionSettings::load(QSettings())); // the person's preferences (retention, re-anchoring)
    session.setClient(std::make_shared<InteractionsClient>(config));
    const Result<void> opened = session.open(sessionDir);
    if (!opened)
        writeErr(cli::CliText::tr("nb2lite mcp: the session %1 cannot be opened: %2 (image tools will say so)\n")
                     .arg(sessionDir, opened.error().message));

    McpBridgeOptions bridge;
    bridge.version = QCoreApplication::applicationVersion();
    bridge.demo = options.demo;
    bridge.keySource = config.apiKey.isEmpty() ? QString() : config.apiKey.source();
    bridge.keyRequired = !isLoopback(config.baseUrl);
    bridge.sessionError = opened.error().message; // empty when it opened
    bridge.sessionDir = sessionDir;
    const QString outputDir = env.value(QStringLiteral("IMAGE_OUTPUT_DIR"));
    if (!outputDir.isEmpty())
        bridge.outputCopyDir = QDir::cleanPath(QDir::current().absoluteFilePath(outputDir));
    bridge.imageBlocks = options.imageBlocks;
    bridge.workingDir = QDir::currentPath();
    bridge.thinkingLevels = &levels;
    McpSessionTools tools(&session, bridge);

    McpHandler handler({QStringLiteral("nb2lite"), QStringLiteral("NB2Lite"), bridge.version}, &tools);
    McpStdioTransport transport(STDIN_FILENO, protocolFd, McpHandler::kMaxMessageBytes);
    QObject::connect(&transport, &McpStdioTransport::lineReceived, &handler,
        [&handler](const QByteArray &line) { handler.handleLine(line); });
    QObject::connect(&transport, &McpStdioTransport::oversizedLineReceived, &handler,
        [&handler](const QByteArray &head, const QByteArray &tail, qint64 size) {
            handler.handleOversizedLine(head, tail, size);
        });
    QObject::connect(&transport, &McpStdioTransport::endOfInput, &handler, &McpHandler::handleEndOfInput);
    QObject::connect(&transport, &McpStdioTransport::transportError, &handler,
        [](const QString &message) { writeErr(QStringLiteral("nb2lite mcp: %1\n").arg(message)); });
    QObject::connect(&handler, &McpHandler::lineReady, &transport,
        [&transport, &redact](const QByteArray &line) { transport.send(redact(line)); });
    QObject::connect(&handler, &McpHandler::diagnostic, &handler,
        [&redact](const QString &text) { writeErr(QString::fromUtf8(redact((text + QLatin1Char('\n')).toUtf8()))); });
    QObject::connect(&handler, &McpHandler::finished, qApp, &QCoreApplication::quit, Qt::QueuedConnection);

    bool signalled = false;
    struct HookGuard {
        CancelTokenPtr token;
        ~HookGuard() { token->setAbortHook({}); }
    } hookGuard {signalCanceller.token()};
    hookGuard.token->setAbortHook([&handler, &signalled] {
        // On the signal thread: hand over to the event loop.
        QMetaObject::invokeMethod(
            &handler,
            [&handler, &signalled] {
                signalled = true;
                handler.log(mcp::LogLevel::Notice, cli::CliText::tr("stopping: cancelling the calls in flight"));
                handler.cancelAll();
                QCoreApplication::quit();
            },
            Qt::QueuedConnection);
    });

    writeErr(QString::fromUtf8(
        redact(cli::CliText::tr("nb2lite mcp %1: session %2 (%n frame(s)), model %3, %4\n", nullptr,
            session.isOpen() ? int(session.graph().frameIds().size()) : 0)
                   .arg(bridge.version, sessionDir)
                   .arg(config.model,
                       options.demo                     ? cli::CliText::tr("demo backend (no key needed)")
                           : bridge.keySource.isEmpty() ? cli::CliText::tr("NO API KEY (set GEMINI_API_KEY)")
                                                        : cli::CliText::tr("key from %1").arg(bridge.keySource))
                   .toUtf8())));
    transport.start();
    QCoreApplication::exec();
    transport.stop();

    // Whatever is still running (cancelled on a signal) comes back; then every finished frame is on disk.
    if (!session.waitForIdle(kShutdownWaitMs))
        writeErr(cli::CliText::tr("nb2lite mcp: turns still running after %1 s; they are marked interrupted on the "
                                  "next open\n")
                     .arg(kShutdownWaitMs / 1000));
    if (const Result<void> flushed = session.isOpen() ? session.store()->flush() : Result<void>(); !flushed) {
        writeErr(cli::CliText::tr("nb2lite mcp: the session could not be written: %1\n").arg(flushed.error().message));
        return exitCodeFor(flushed.error().kind);
    }
    if (signalled)
        writeErr(cli::CliText::tr("nb2lite mcp: stopped by a signal\n"));
    ::close(protocolFd);
    return kExitSuccess;
}

} // namespace nb2::cli
