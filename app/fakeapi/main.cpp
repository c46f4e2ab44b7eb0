// nb2lite-fakeapi: serves nb2::FakeServer on 127.0.0.1 until SIGINT/SIGTERM.
#include "core/fakeapi/fakeserver.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <csignal>
#include <cstdio>
#include <pthread.h>

namespace {

int fail(const QString &message)
{
    std::fprintf(stderr, "nb2lite-fakeapi: %s\n", qPrintable(message));
    return 2;
}

} // namespace

int main(int argc, char *argv[])
{
    // Block the stop signals before any thread exists, so every server thread inherits the
    // mask and the main thread alone receives them through sigwait().
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    std::signal(SIGPIPE, SIG_IGN); // a client hanging up must not kill the server

    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("nb2lite-fakeapi"));
    QCoreApplication::setApplicationVersion(QStringLiteral(NB2_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Fake Gemini Interactions API server for tests and demos. Binds 127.0.0.1 only and prints\n"
        "exactly one line, \"listening on http://127.0.0.1:PORT\", when ready.\n"
        "Control at runtime: POST /_fake/control {\"fault\":KIND,\"count\":N,\"retry_after\":S,\n"
        "\"retry_after_ms\":MS,\"trickle_ms\":MS,\"latency_ms\":MS,\"forget\":ID,\"thinking_levels\":[...],\n"
        "\"clear_faults\":true,\"clear_requests\":true,\"require_key\":bool,\"thinking_error\":WORDING}; GET "
        "/_fake/requests (request log,\n"
        "bodies as JSON, key redacted); DELETE /_fake/requests; GET /_fake/state.\n"
        "Fault kinds: rate_limit, server_error, unavailable_html, connection_reset, truncated_json,\n"
        "slow_trickle, text_only, invalid_key."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption portOpt(QStringLiteral("port"), QStringLiteral("TCP port (0 = any free port)."),
        QStringLiteral("PORT"), QStringLiteral("0"));
    const QCommandLineOption keyOpt(
        QStringLiteral("key"), QStringLiteral("API key the server accepts (default test-key)."), QStringLiteral("KEY"));
    const QCommandLineOption anyKeyOpt(QStringLiteral("any-key"), QStringLiteral("Accept any or no API key."));
    const QCommandLineOption latencyOpt(QStringLiteral("latency"), QStringLiteral("Delay before each answer, ms."),
        QStringLiteral("MS"), QStringLiteral("0"));
    const QCommandLineOption levelsOpt(QStringLiteral("thinking-levels"),
        QStringLiteral("Comma-separated allowed thinking levels (default low,high)."), QStringLiteral("LIST"));
    const QCommandLineOption faultOpt(QStringLiteral("fault"),
        QStringLiteral("Inject KIND into the next COUNT create/get requests (repeatable)."),
        QStringLiteral("KIND[:COUNT]"));
    const QCommandLineOption retryOpt(QStringLiteral("retry-after"),
        QStringLiteral("Retry-After seconds for rate_limit."), QStringLiteral("S"), QStringLiteral("1"));
    const QCommandLineOption trickleOpt(QStringLiteral("trickle-ms"),
        QStringLiteral("Duration of slow_trickle bodies, ms."), QStringLiteral("MS"), QStringLiteral("2000"));
    const QCommandLineOption wordingOpt(QStringLiteral("thinking-error"),
        QStringLiteral("Wording of a rejected thinking level: allowed_values (default) "
                       "or not_supported."),
        QStringLiteral("WORDING"), QStringLiteral("allowed_values"));
    parser.addOptions({portOpt, keyOpt, anyKeyOpt, latencyOpt, levelsOpt, faultOpt, retryOpt, trickleOpt, wordingOpt});
    parser.process(app);
    if (!parser.positionalArguments().isEmpty())
        return fail(
            QStringLiteral("unexpected argument \"%1\" (see --help)").arg(parser.positionalArguments().first()));

    bool ok = false;
    const uint port = parser.value(portOpt).toUInt(&ok);
    if (!ok || port > 65535)
        return fail(QStringLiteral("--port must be a number from 0 to 65535"));
    nb2::FakeServerOptions options;
    if (parser.isSet(keyOpt)) {
        options.apiKey = parser.value(keyOpt);
        if (options.apiKey.isEmpty())
            return fail(QStringLiteral("--key must not be empty (use --any-key to accept anything)"));
    }
    options.requireKey = !parser.isSet(anyKeyOpt);
    options.latencyMs = parser.value(latencyOpt).toInt(&ok);
    if (!ok || options.latencyMs < 0)
        return fail(QStringLiteral("--latency must be a non-negative number of milliseconds"));
    if (parser.value(wordingOpt) == QLatin1String("not_supported"))
        options.thinkingError = nb2::FakeServerOptions::ThinkingError::NotSupportedRetry;
    else if (parser.value(wordingOpt) != QLatin1String("allowed_values"))
        return fail(QStringLiteral("--thinking-error must be allowed_values or not_supported"));
    if (parser.isSet(levelsOpt))
        options.thinkingLevels = parser.value(levelsOpt).split(QLatin1Char(','), Qt::SkipEmptyParts);

    const int retryAfter = parser.value(retryOpt).toInt(&ok);
    if (!ok)
        return fail(QStringLiteral("--retry-after must be a number of seconds"));
    const int trickleMs = parser.value(trickleOpt).toInt(&ok);
    if (!ok || trickleMs < 0)
        return fail(QStringLiteral("--trickle-ms must be a non-negative number"));

    nb2::FakeServer server(options);
    for (const QString &spec : parser.values(faultOpt)) {
        const QStringList parts = spec.split(QLatin1Char(':'));
        const auto kind = nb2::fakeFaultKindFromName(parts.first());
        int count = 1;
        if (parts.size() > 1)
            count = parts.at(1).toInt(&ok);
        if (!kind || parts.size() > 2 || (parts.size() > 1 && (!ok || count < 1)))
            return fail(QStringLiteral(
                "bad --fault \"%1\": use KIND[:COUNT] with KIND one of rate_limit, server_error, "
                "unavailable_html, connection_reset, truncated_json, slow_trickle, text_only, invalid_key, "
                "reset_before_first_byte")
                            .arg(spec));
        nb2::FakeFault fault;
        fault.kind = *kind;
        fault.retryAfterSeconds = retryAfter;
        fault.trickleMs = trickleMs;
        server.injectFault(fault, count);
    }

    if (!server.start(quint16(port)))
        return fail(server.errorString());
    std::printf("listening on %s\n", qPrintable(server.baseUrl()));
    std::fflush(stdout);

    int signal = 0;
    sigwait(&stopSignals, &signal);
    server.stop();
    return 0;
}
