// The key never leaves the environment (issue 11, "Secrets"). One scripted run of every path
// that uses the key — plain and session turns, edit-local, a refused thinking level that the
// CLI learns into its settings file, log, every export format, open-bundle, doctor, the MCP
// bridge, a wrong key, the key read from ~/gemini.key, and the app itself — each a child
// process in a private HOME/XDG tree, with its stdout and stderr captured to files there.
// Then every file under that tree (sessions, exports, logs, settings, captures) is scanned
// for the key (raw, base64, percent-encoded): zero hits. While each child runs, its
// /proc/<pid>/cmdline and those of all its descendants are read: the key is never on one.

#include "core/fakeapi/fakeserver.h"
#include "tests/testpaths.h"

#include <QBuffer>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace nb2;

namespace {

const QString kKey = QStringLiteral("nb2-SECRET-scan-7e41c0d9b2a8f6");

FakeServerOptions optionsWithKey()
{
    FakeServerOptions o;
    o.apiKey = kKey;
    return o;
}
const QString kWrongKey = QStringLiteral("nb2-WRONG-scan-0b9a3c55d1e2");

QString cli()
{
    return nb2test::cliProgram();
}
QString studio()
{
    return nb2test::studioProgram();
}

/** Every pid below root (children, grandchildren, ...), from /proc/<pid>/stat's ppid field. */
QList<qint64> descendantsOf(qint64 root)
{
    QHash<qint64, QList<qint64>> children;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &e : entries) {
        bool isPid = false;
        const qint64 pid = e.toLongLong(&isPid);
        if (!isPid)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        const QList<QByteArray> rest = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (rest.size() > 1)
            children[rest.at(1).toLongLong()].append(pid);
    }
    QList<qint64> out {root};
    for (qsizetype i = 0; i < out.size(); ++i)
        out.append(children.value(out.at(i)));
    return out;
}

} // namespace

class tst_Secrets : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_root;
    std::unique_ptr<FakeServer> m_fake;
    int m_runs = 0;
    int m_cmdlinesSeen = 0;
    QStringList m_cmdlineHits;

    QString path(const QString &rel) const { return m_root.path() + QLatin1Char('/') + rel; }

    QProcessEnvironment env(const QString &key) const
    {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL", "IMAGE_OUTPUT_DIR",
                 "NB2LITE_SESSION", "GEMINI_MODEL_NAME"})
            e.remove(QLatin1String(name));
        if (!key.isEmpty())
            e.insert(QStringLiteral("GEMINI_API_KEY"), key);
        e.insert(QStringLiteral("GOOGLE_GEMINI_BASE_URL"), m_fake->baseUrl());
        e.insert(QStringLiteral("HOME"), path(QStringLiteral("home")));
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), path(QStringLiteral("home/.config")));
        e.insert(QStringLiteral("XDG_CACHE_HOME"), path(QStringLiteral("home/.cache")));
        e.insert(QStringLiteral("XDG_DATA_HOME"), path(QStringLiteral("home/.local/share")));
        e.insert(QStringLiteral("XDG_STATE_HOME"), path(QStringLiteral("home/.local/state")));
        e.insert(QStringLiteral("XDG_RUNTIME_DIR"), path(QStringLiteral("runtime")));
        e.insert(QStringLiteral("TMPDIR"), path(QStringLiteral("tmp")));
        e.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        // No keychain on this bus: the app must not find one and store the key somewhere else.
        e.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));
        return e;
    }

    /** Reads the command lines of p and every descendant of it, once. */
    void inspectCommandLines(const QProcess &p)
    {
        if (p.processId() <= 0)
            return;
        for (qint64 pid : descendantsOf(p.processId())) {
            QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
            if (!f.open(QIODevice::ReadOnly))
                continue;
            const QByteArray cmdline = f.readAll();
            ++m_cmdlinesSeen;
            if (cmdline.contains(kKey.toUtf8()) || cmdline.contains(kWrongKey.toUtf8()))
                m_cmdlineHits.append(QString::fromUtf8(QByteArray(cmdline).replace('\0', ' ')).left(80));
        }
    }

    /**
     * Runs one child to its end (or for runMs, then SIGTERM), watching command lines while it
     * runs, and keeps its stdout/stderr under captures/. Returns the exit code.
     */
    int run(const QString &program, const QStringList &args, const QString &key, const QByteArray &stdinData = {},
        int runMs = -1)
    {
        QProcess p;
        p.setProcessEnvironment(env(key));
        p.setWorkingDirectory(path(QStringLiteral("work")));
        const int n = ++m_runs;
        p.setStandardOutputFile(path(QStringLiteral("captures/%1.out").arg(n)));
        p.setStandardErrorFile(path(QStringLiteral("captures/%1.err").arg(n)));
        p.start(program, args);
        if (!p.waitForStarted(10000))
            return -1;
        if (!stdinData.isEmpty())
            p.write(stdinData);
        if (runMs < 0)
            p.closeWriteChannel();
        QElapsedTimer clock;
        clock.start();
        const int limit = runMs < 0 ? 60000 : runMs;
        while (!p.waitForFinished(50)) {
            inspectCommandLines(p);
            if (clock.elapsed() > limit)
                break;
        }
        if (p.state() != QProcess::NotRunning) {
            p.closeWriteChannel(); // the MCP bridge ends at end of input
            if (!p.waitForFinished(5000)) {
                p.terminate();
                if (!p.waitForFinished(5000))
                    p.kill();
            }
            p.waitForFinished(5000);
        }
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    }

    int nb2lite(const QStringList &args, const QString &key = kKey) { return run(cli(), args, key); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        for (const char *d : {"home/.config", "home/.cache", "home/.local/share", "home/.local/state", "runtime", "tmp",
                 "work", "captures", "exports"})
            QVERIFY(QDir().mkpath(path(QString::fromLatin1(d))));
        QFile::setPermissions(path(QStringLiteral("runtime")), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        m_fake = std::make_unique<FakeServer>(optionsWithKey());
        QVERIFY(m_fake->start(0));
        QImage img(64, 48, QImage::Format_RGB32);
        img.fill(Qt::darkCyan);
        QVERIFY(img.save(path(QStringLiteral("work/photo.png"))));
    }

    void keyUsingPathsLeaveNoTrace()
    {
        const QString s = path(QStringLiteral("session"));
        const QString sess = QStringLiteral("--session");
        QCOMPARE(nb2lite({QStringLiteral("generate"), QStringLiteral("a lighthouse at dusk")}), 0);
        QCOMPARE(nb2lite({sess, s, QStringLiteral("generate"), QStringLiteral("a red fox")}), 0);
        QCOMPARE(
            nb2lite({sess, s, QStringLiteral("edit"), QStringLiteral("head"), QStringLiteral("add a lantern")}), 0);
        QCOMPARE(nb2lite({sess, s, QStringLiteral("--json"), QStringLiteral("edit-local"), QStringLiteral("--file"),
                     path(QStringLiteral("work/photo.png")), QStringLiteral("make it watercolour")}),
            0);
        // A refused thinking level: the CLI learns the allowed set into its settings file.
        m_fake->setThinkingLevels({QStringLiteral("low")});
        QVERIFY(nb2lite({sess, s, QStringLiteral("generate"), QStringLiteral("a boat"), QStringLiteral("--thinking"),
                    QStringLiteral("high")})
            != 0);
        QVERIFY(nb2lite({QStringLiteral("generate"), QStringLiteral("a boat"), QStringLiteral("--thinking"),
                    QStringLiteral("high")})
            != 0);
        QCOMPARE(nb2lite({sess, s, QStringLiteral("log")}), 0);
        QCOMPARE(nb2lite({sess, s, QStringLiteral("log"), QStringLiteral("--json")}), 0);
        QCOMPARE(nb2lite({sess, s, QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("html"),
                     path(QStringLiteral("exports/page"))}),
            0);
        QCOMPARE(nb2lite({sess, s, QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("html"),
                     QStringLiteral("--single-file"), path(QStringLiteral("exports/one.html"))}),
            0);
        QCOMPARE(nb2lite({sess, s, QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("bundle"),
                     path(QStringLiteral("exports/trip.nb2session"))}),
            0);
        QCOMPARE(nb2lite({sess, s, QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("sheet"),
                     path(QStringLiteral("exports/sheet"))}),
            0);
        QCOMPARE(nb2lite({sess, s, QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("frames"),
                     path(QStringLiteral("exports/frames"))}),
            0);
        // The bundle unpacked again: what a bundle carries is scanned as files too.
        QCOMPARE(nb2lite({sess, path(QStringLiteral("unpacked")), QStringLiteral("open-bundle"),
                     path(QStringLiteral("exports/trip.nb2session"))}),
            0);
        QCOMPARE(nb2lite({QStringLiteral("doctor")}), 0);
        QCOMPARE(nb2lite({QStringLiteral("doctor"), QStringLiteral("--json")}), 0);
        // A wrong key fails, and its words do not echo it either.
        QVERIFY(nb2lite({QStringLiteral("generate"), QStringLiteral("a wrong key")}, kWrongKey) != 0);
        QVERIFY(nb2lite({QStringLiteral("doctor")}, kWrongKey) != 0);

        // The agent bridge: initialize, one generate_image, end of input.
        const QByteArray mcp
            = R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"scan","version":"1"}}})"
              "\n"
              R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
              "\n"
              R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"generate_image","arguments":{"prompt":"a kite"}}})"
              "\n";
        run(cli(), {QStringLiteral("mcp"), QStringLiteral("--session"), path(QStringLiteral("mcp-session"))}, kKey, mcp,
            15000);
        QFile mcpOut(path(QStringLiteral("captures/%1.out").arg(m_runs)));
        QVERIFY(mcpOut.open(QIODevice::ReadOnly));
        const QByteArray answers = mcpOut.readAll();
        QVERIFY2(answers.contains("\"id\":2") && answers.contains("interaction"), answers.left(400).constData());

        // The key from ~/gemini.key instead of the environment (the file itself is not scanned).
        QFile keyFile(path(QStringLiteral("home/gemini.key")));
        QVERIFY(keyFile.open(QIODevice::WriteOnly));
        keyFile.write(kKey.toUtf8() + '\n');
        keyFile.close();
        QFile::setPermissions(keyFile.fileName(), QFile::ReadOwner | QFile::WriteOwner);
        QCOMPARE(nb2lite({sess, s, QStringLiteral("generate"), QStringLiteral("a key from the file")}, {}), 0);
        QCOMPARE(nb2lite({QStringLiteral("doctor")}, {}), 0);
        QFile::remove(keyFile.fileName());

        // The app: opens the session with the key in its environment, runs a few seconds, is
        // asked to quit (settings, recent sessions and window state are written then).
        if (QFileInfo::exists(studio()))
            run(studio(), {s}, kKey, {}, 4000);
        else
            qWarning("nb2lite-studio is not built: the app's files are not in this scan");
    }

    void scanEverythingWritten()
    {
        QVERIFY(m_runs > 0);
        // The scanner's own check: a planted copy of the key must be found (and only it).
        QFile canary(path(QStringLiteral("captures/canary.txt")));
        QVERIFY(canary.open(QIODevice::WriteOnly));
        canary.write("before " + kKey.toUtf8().toBase64() + " after");
        canary.close();
        const QList<QByteArray> needles {kKey.toUtf8(), kKey.toUtf8().toBase64(), kKey.toUtf8().toPercentEncoding(),
            kWrongKey.toUtf8(), kWrongKey.toUtf8().toBase64()};
        QStringList hits;
        int files = 0;
        qint64 bytes = 0;
        QDirIterator it(m_root.path(), QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString file = it.next();
            if (QFileInfo(file).isSymLink())
                continue;
            QFile f(file);
            if (!f.open(QIODevice::ReadOnly))
                continue;
            const QByteArray data = f.readAll();
            ++files;
            bytes += data.size();
            for (const QByteArray &needle : needles)
                if (data.contains(needle))
                    hits.append(QDir(m_root.path()).relativeFilePath(file));
        }
        qInfo("scanned %d files (%lld bytes) from %d runs; %d command lines read while they ran", files, bytes, m_runs,
            m_cmdlinesSeen);
        QVERIFY2(hits.removeAll(QStringLiteral("captures/canary.txt")) == 1, "the scanner missed the planted key");
        // What the scan covered: settings written by the CLI and the app are among the files.
        QStringList settings;
        QDirIterator conf(path(QStringLiteral("home/.config")), {QStringLiteral("*.conf"), QStringLiteral("*.ini")},
            QDir::Files, QDirIterator::Subdirectories);
        while (conf.hasNext())
            settings.append(QDir(m_root.path()).relativeFilePath(conf.next()));
        qInfo("settings files scanned: %s", qPrintable(settings.join(QStringLiteral(", "))));
        QVERIFY2(!settings.isEmpty(), "no settings file was written: the scan would not cover settings");
        QVERIFY2(hits.isEmpty(), qPrintable(QStringLiteral("the key is in: ") + hits.join(QStringLiteral(", "))));
        QVERIFY2(m_cmdlineHits.isEmpty(), qPrintable(m_cmdlineHits.join(QStringLiteral(" | "))));
        QVERIFY(m_cmdlinesSeen >= m_runs);
        // Enough was written for the scan to mean something.
        QVERIFY(QFileInfo::exists(path(QStringLiteral("session/manifest.json"))));
        QVERIFY(QFileInfo::exists(path(QStringLiteral("session/journal.jsonl"))));
        QVERIFY(QFileInfo::exists(path(QStringLiteral("exports/page/index.html"))));
        QVERIFY(QFileInfo::exists(path(QStringLiteral("unpacked/manifest.json"))));
        QVERIFY(QFileInfo::exists(path(QStringLiteral("mcp-session/manifest.json"))));
    }
};

QTEST_GUILESS_MAIN(tst_Secrets)
#include "tst_secrets.moc"
