#pragma once
// `nb2lite mcp` as a child process, driven line by line: what the process tests and the live
// test use to talk to the real binary.

#include "mcptestutil.h"
#include "tests/testpaths.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>

namespace nb2::mcptest {

class BridgeProcess
{
public:
    /** The environment of a clean user: no key, a private home and config. */
    static QProcessEnvironment cleanEnvironment(const QString &home)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL", "GEMINI_MODEL_NAME",
                 "IMAGE_OUTPUT_DIR", "NB2LITE_SESSION"})
            env.remove(QLatin1String(name));
        env.insert(QStringLiteral("HOME"), home);
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/.config"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/.local/share"));
        return env;
    }

    bool start(const QStringList &arguments, const QProcessEnvironment &env, const QString &workingDir = {})
    {
        m_process.setProcessEnvironment(env);
        if (!workingDir.isEmpty())
            m_process.setWorkingDirectory(workingDir);
        m_process.start(nb2test::cliProgram(), QStringList {QStringLiteral("mcp")} + arguments);
        return m_process.waitForStarted(10000);
    }

    void write(const QByteArray &line) { m_process.write(line + '\n'); }
    void closeInput() { m_process.closeWriteChannel(); }

    /** Reads what is there; every stdout line must be one JSON-RPC 2.0 message (or a batch). */
    void pump(int waitMs = 20)
    {
        m_process.waitForReadyRead(waitMs);
        m_stdout += m_process.readAllStandardOutput();
        m_stderr += m_process.readAllStandardError();
        qsizetype nl;
        while ((nl = m_stdout.indexOf('\n', m_parsed)) >= 0) {
            const QByteArray l = m_stdout.mid(m_parsed, nl - m_parsed);
            m_parsed = nl + 1;
            QJsonParseError e;
            const QJsonDocument d = QJsonDocument::fromJson(l, &e);
            if (e.error != QJsonParseError::NoError) {
                m_badLines.append(l);
                continue;
            }
            if (d.isArray()) {
                m_messages.append(QJsonObject {{QStringLiteral("batch"), d.array()}});
                continue;
            }
            if (d.object().value(QLatin1String("jsonrpc")).toString() != QLatin1String("2.0"))
                m_badLines.append(l);
            m_messages.append(d.object());
        }
        QCoreApplication::processEvents();
    }

    QJsonObject waitForAnswer(const QJsonValue &id, int timeoutMs = 30000)
    {
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < timeoutMs) {
            pump();
            for (const QJsonObject &m : std::as_const(m_messages))
                if (m.value(QLatin1String("id")) == id && !m.contains(QLatin1String("method")))
                    return m;
            if (m_process.state() == QProcess::NotRunning && !m_process.bytesAvailable())
                break;
        }
        return {};
    }

    QJsonObject ask(const QByteArray &line, const QJsonValue &id, int timeoutMs = 30000)
    {
        write(line);
        return waitForAnswer(id, timeoutMs);
    }

    bool initialize()
    {
        const QJsonObject r = ask(initializeRequest(0), 0);
        write(notification(QStringLiteral("notifications/initialized")));
        return r.contains(QLatin1String("result"));
    }

    bool waitForExit(int timeoutMs)
    {
        QElapsedTimer clock;
        clock.start();
        while (m_process.state() != QProcess::NotRunning && clock.elapsed() < timeoutMs)
            pump(50);
        pump(0);
        return m_process.state() == QProcess::NotRunning;
    }

    QList<QJsonObject> notifications(const QString &method)
    {
        QList<QJsonObject> out;
        for (const QJsonObject &m : std::as_const(m_messages))
            if (m.value(QLatin1String("method")).toString() == method)
                out.append(m);
        return out;
    }

    QProcess &process() { return m_process; }
    const QByteArray &rawStdout() const { return m_stdout; }
    const QByteArray &rawStderr() const { return m_stderr; }
    const QByteArrayList &badLines() const { return m_badLines; }
    const QList<QJsonObject> &messages() const { return m_messages; }

    ~BridgeProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

private:
    QProcess m_process;
    QByteArray m_stdout, m_stderr;
    qsizetype m_parsed = 0;
    QByteArrayList m_badLines;
    QList<QJsonObject> m_messages;
};

} // namespace nb2::mcptest
