// nb2lite's whole command line run in the test's own process (cli::runCommandLine), its
// output captured: what the CLI tests that drive commands against an in-process fake share.
#pragma once

#include "app/cli/clirun.h"
#include "app/cli/console.h"
#include "core/fakeapi/fakeserver.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTextStream>

namespace nb2::test {

/** One command line's exit status and what it printed. */
struct CliRun {
    int status = -1;
    QString out, err;
    /** The output read as one JSON object (for --json). */
    QJsonObject json() const { return QJsonDocument::fromJson(out.toUtf8()).object(); }
};

/** words as typed after `nb2lite`. */
inline CliRun runCli(const QStringList &words)
{
    CliRun r;
    QTextStream out(&r.out), err(&r.err);
    cli::Console console(out, err);
    r.status = cli::runCommandLine(words, console);
    out.flush();
    err.flush();
    return r;
}

/**
 * A home of the test's own (HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME under home) and key as the
 * only API key; no base URL or model from the environment the tests were started in.
 */
inline void isolateCliEnvironment(const QString &home, const QByteArray &key)
{
    qputenv("HOME", home.toUtf8());
    qputenv("XDG_CONFIG_HOME", (home + QStringLiteral("/.config")).toUtf8());
    qputenv("XDG_CACHE_HOME", (home + QStringLiteral("/.cache")).toUtf8());
    qputenv("GEMINI_API_KEY", key);
    qunsetenv("GOOGLE_API_KEY");
    qunsetenv("GOOGLE_GEMINI_BASE_URL");
    qunsetenv("GEMINI_MODEL_NAME");
}

/** How many create requests (POST …/interactions) fake has answered so far. */
inline int createRequests(const FakeServer &fake)
{
    int n = 0;
    for (const FakeRequest &r : fake.requests())
        n += r.method == QLatin1String("POST") && r.path.endsWith(QLatin1String("/interactions")) ? 1 : 0;
    return n;
}

} // namespace nb2::test
