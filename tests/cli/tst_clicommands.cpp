// nb2lite's command line as a user meets it: the binary as a process on its --demo backend.
// Global flags before and after commands, per-command help, --opt=value, "--" before a prompt
// that starts with a dash, the one-line usage errors, demo chains that continue across
// processes, and the log graph of a long session.

#include "core/session/sessionstore.h"
#include "tests/testpaths.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <csignal>

using namespace nb2;

namespace {

QString cliPath()
{
    return nb2test::cliProgram();
}

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json;
    bool jsonOk = false;
};

/**
 * True once the process blocks SIGTERM, which nb2lite's signal handler does first thing in
 * main() (a signal before that finds the default action: the test would then see a crash).
 */
bool waitForSignalHandler(qint64 pid)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 20'000) {
        QFile status(QStringLiteral("/proc/%1/status").arg(pid));
        if (status.open(QIODevice::ReadOnly)) {
            for (const QByteArray &line : status.readAll().split('\n')) {
                bool ok = false;
                if (line.startsWith("SigBlk:") && (line.mid(7).trimmed().toULongLong(&ok, 16) >> (SIGTERM - 1)) & 1u
                    && ok)
                    return true;
            }
        }
        QTest::qWait(20);
    }
    return false;
}

} // namespace

class tst_CliCommands : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void helpPerCommand();
    void usageErrorIsOneLine();
    void demoBeforeExportAndFlagsAnywhere_data();
    void demoBeforeExportAndFlagsAnywhere();
    void equalsFormAndDoubleDash();
    void demoChainContinuesAcrossProcesses();
    void plainDemoChainContinuesAcrossProcesses();
    void logDrawsALongSessionNarrowly();
    void reservedCommandsSaySo();
    void signalEndsACommandThatCannotCancel();
    void costTotalsMatchTheUsageByHand();
    void dryRunAndBudgetSendNothing();
    void logGrepAndStarred();
    void variantsRunAtOnce();

private:
    Run run(const QStringList &args, const QString &workDir = {});
    QString newSession(); // a demo session with a root and one edit

    QTemporaryDir m_dir;
    QString m_session; // made once by initTestCase
};

void tst_CliCommands::initTestCase()
{
    QVERIFY2(QFileInfo(cliPath()).isExecutable(), qPrintable(cliPath()));
    QVERIFY(m_dir.isValid());
    QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("home"))));
    m_session = newSession();
    QVERIFY(!m_session.isEmpty());
}

Run tst_CliCommands::run(const QStringList &args, const QString &workDir)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name :
        {"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL", "GEMINI_MODEL_NAME", "IMAGE_OUTPUT_DIR"})
        env.remove(QString::fromLatin1(name));
    // A private HOME: the plain demo store (cache) and learned levels stay inside the test.
    const QString home = m_dir.filePath(QStringLiteral("home"));
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/.config"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/.cache"));
    QProcess p;
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(workDir.isEmpty() ? m_dir.path() : workDir);
    p.start(cliPath(), args);
    Run r;
    if (!p.waitForStarted(10'000) || !p.waitForFinished(60'000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    r.jsonOk = error.error == QJsonParseError::NoError && doc.isObject();
    r.json = doc.object();
    return r;
}

QString tst_CliCommands::newSession()
{
    static int n = 0;
    const QString dir = m_dir.filePath(QStringLiteral("session%1").arg(++n));
    const Run gen = run({QStringLiteral("--session"), dir, QStringLiteral("--demo"), QStringLiteral("generate"),
        QStringLiteral("a lighthouse at dusk")});
    const Run edit = run({QStringLiteral("--demo"), QStringLiteral("edit"), QStringLiteral("head"),
        QStringLiteral("add a lantern"), QStringLiteral("--session"), dir});
    if (gen.exitCode != 0 || edit.exitCode != 0) {
        qWarning("could not make a session: %s %s", gen.err.constData(), edit.err.constData());
        return {};
    }
    return dir;
}

void tst_CliCommands::helpPerCommand()
{
    const Run all = run({QStringLiteral("--help")});
    QCOMPARE(all.exitCode, 0);
    for (const char *name :
        {"generate", "edit", "edit-local", "style-edit", "get", "delete", "doctor", "import", "retry", "reanchor",
            "recover", "rebuild", "log", "cost", "export", "open-bundle", "mcp", "completion", "help"}) {
        const QString command = QString::fromLatin1(name);
        QVERIFY2(all.out.contains("\n  " + command.toUtf8() + ' '), name);
        const Run flag = run({command, QStringLiteral("--help")});
        const Run help = run({QStringLiteral("help"), command});
        const Run first = run({QStringLiteral("--json"), QStringLiteral("-h"), command});
        QCOMPARE(flag.exitCode, 0);
        QCOMPARE(help.exitCode, 0);
        QCOMPARE(first.exitCode, 0);
        QVERIFY2(flag.out.startsWith("nb2lite " + command.toUtf8() + " - "), flag.out.constData());
        QCOMPARE(help.out, flag.out);
        QCOMPARE(first.out, flag.out);
        QVERIFY(flag.out != all.out);
        QVERIFY(flag.err.isEmpty());
    }
    const Run edit = run({QStringLiteral("edit"), QStringLiteral("--help")});
    for (const char *needle : {"nb2lite [options] edit ID PROMPT", "nb2lite --session DIR [options] edit REF PROMPT",
             "--branch", "(with --session)", "--reencode", "(without --session)", "--aspect R", "16:9"})
        QVERIFY2(edit.out.contains(needle), needle);
}

void tst_CliCommands::usageErrorIsOneLine()
{
    const Run r
        = run({QStringLiteral("generate"), QStringLiteral("a fox"), QStringLiteral("--colour"), QStringLiteral("red")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.startsWith("nb2lite: error (usage): unknown option --colour for 'generate'"), r.err.constData());
    QVERIFY2(r.err.contains("after '--'"), r.err.constData());

    const Run json = run({QStringLiteral("--session"), m_session, QStringLiteral("export"), QStringLiteral("--zip"),
        QStringLiteral("out"), QStringLiteral("--json")});
    QCOMPARE(json.exitCode, 2);
    QVERIFY2(json.jsonOk, json.out.constData());
    QCOMPARE(json.json.value(QStringLiteral("ok")).toBool(true), false);
    QCOMPARE(json.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("kind")).toString(),
        QStringLiteral("usage"));
    QVERIFY(json.json.value(QStringLiteral("error"))
                .toObject()
                .value(QStringLiteral("message"))
                .toString()
                .contains(QStringLiteral("--zip")));
}

void tst_CliCommands::demoBeforeExportAndFlagsAnywhere_data()
{
    QTest::addColumn<QStringList>("args"); // SESSION and OUT are replaced
    QTest::addColumn<QString>("check");    // what the output must show
    const auto w = [](const char *line) { return QString::fromLatin1(line).split(QLatin1Char(' ')); };
    QTest::newRow("--demo before export")
        << w("--demo --session SESSION export --format html OUT") << QStringLiteral("out");
    QTest::newRow("globals after export")
        << w("export --format sheet OUT.png --session SESSION --json --demo --model m -o x")
        << QStringLiteral("json:frames");
    QTest::newRow("--session after log") << w(
        "log --json --session SESSION --base-url http://127.0.0.1:9 --api-version v1beta")
                                         << QStringLiteral("json:frames");
    QTest::newRow("--out ignored by log")
        << w("--out /nonexistent --session SESSION log") << QStringLiteral("text:branch");
    QTest::newRow("--demo and --json around doctor")
        << w("--json doctor --demo --out OUT") << QStringLiteral("json:model");
    QTest::newRow("--session ignored by doctor") << w("--session SESSION --demo doctor") << QStringLiteral("text:demo");
    QTest::newRow("--demo after completion")
        << w("completion bash --demo --json") << QStringLiteral("text:complete -F");
    QTest::newRow("ids after the session") << w("log --session SESSION --ids") << QStringLiteral("ids");
}

void tst_CliCommands::demoBeforeExportAndFlagsAnywhere()
{
    QFETCH(QStringList, args);
    QFETCH(QString, check);
    QTemporaryDir out;
    const QString target = out.filePath(QStringLiteral("page"));
    for (QString &a : args) {
        a.replace(QStringLiteral("SESSION"), m_session);
        a.replace(QStringLiteral("OUT"), target);
    }
    const Run r = run(args);
    QVERIFY2(r.exitCode == 0, qPrintable(QString::fromUtf8(r.err) + args.join(QLatin1Char(' '))));
    if (check == QLatin1String("out")) {
        QVERIFY(QFileInfo::exists(target + QStringLiteral("/index.html")));
    } else if (check.startsWith(QLatin1String("json:"))) {
        QVERIFY2(r.jsonOk, r.out.constData());
        QVERIFY2(r.json.contains(check.mid(5)), r.out.constData());
    } else if (check.startsWith(QLatin1String("text:"))) {
        QVERIFY2(r.out.contains(check.mid(5).toUtf8()), r.out.constData());
    } else if (check == QLatin1String("ids")) {
        const QList<QByteArray> ids = r.out.trimmed().split('\n');
        QCOMPARE(ids.size(), 2);
        for (const QByteArray &id : ids)
            QCOMPARE(id.size(), 8);
    }
}

void tst_CliCommands::equalsFormAndDoubleDash()
{
    const QString session = newSession();
    const Run r = run({QStringLiteral("--session=") + session, QStringLiteral("--demo"), QStringLiteral("generate"),
        QStringLiteral("--aspect=16:9"), QStringLiteral("--json"), QStringLiteral("--"),
        QStringLiteral("-dark- sky, --no-moon")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.jsonOk, r.out.constData());
    // A session turn's --json: the API commands' object, then its frame.
    const QJsonObject frame = r.json.value(QStringLiteral("frame")).toObject();
    QCOMPARE(frame.value(QStringLiteral("prompt")).toString(), QStringLiteral("-dark- sky, --no-moon"));
    QCOMPARE(frame.value(QStringLiteral("aspect_ratio")).toString(), QStringLiteral("16:9"));
    QCOMPARE(r.json.value(QStringLiteral("status")).toString(), QStringLiteral("done"));
    QCOMPARE(r.json.value(QStringLiteral("ok")).toBool(), true);
    QVERIFY(QFileInfo::exists(r.json.value(QStringLiteral("path")).toString()));
    QCOMPARE(r.json.value(QStringLiteral("frame_id")).toString(), frame.value(QStringLiteral("id")).toString());
}

void tst_CliCommands::demoChainContinuesAcrossProcesses()
{
    // The README's demo session: every command is its own process with its own fake server.
    const QString session = m_dir.filePath(QStringLiteral("chain"));
    const Run gen = run({QStringLiteral("--session"), session, QStringLiteral("--demo"), QStringLiteral("--json"),
        QStringLiteral("generate"), QStringLiteral("a lighthouse at dusk")});
    QVERIFY2(gen.exitCode == 0 && gen.jsonOk, gen.err.constData());
    const QString genInteraction = gen.json.value(QStringLiteral("interaction_id")).toString();
    QVERIFY(!genInteraction.isEmpty());

    const Run edit = run({QStringLiteral("--session"), session, QStringLiteral("--demo"), QStringLiteral("--json"),
        QStringLiteral("edit"), QStringLiteral("head"), QStringLiteral("add a lantern")});
    QVERIFY2(edit.exitCode == 0 && edit.jsonOk, edit.err.constData());
    // A plain edit: previous_interaction_id sent and accepted the first time, no re-anchor.
    const QJsonObject editFrame = edit.json.value(QStringLiteral("frame")).toObject();
    QCOMPARE(editFrame.value(QStringLiteral("kind")).toString(), QStringLiteral("edit"));
    QCOMPARE(editFrame.value(QStringLiteral("continued_interaction_id")).toString(), genInteraction);
    QCOMPARE(edit.json.value(QStringLiteral("attempts")).toInt(), 1);
    QVERIFY(!editFrame.value(QStringLiteral("re_anchored")).toBool());
    QVERIFY2(!edit.err.contains("re-anchored"), edit.err.constData());

    // And on from there, in a third process.
    const Run again = run({QStringLiteral("--demo"), QStringLiteral("edit"), QStringLiteral("head"),
        QStringLiteral("make it winter"), QStringLiteral("--json"), QStringLiteral("--session"), session});
    QVERIFY2(again.exitCode == 0, again.err.constData());
    QCOMPARE(again.json.value(QStringLiteral("frame")).toObject().value(QStringLiteral("kind")).toString(),
        QStringLiteral("edit"));
    QCOMPARE(again.json.value(QStringLiteral("attempts")).toInt(), 1);

    // The demo store lives with the session, one record per interaction.
    const QStringList records
        = QDir(session + QStringLiteral("/demo")).entryList({QStringLiteral("*.json")}, QDir::Files);
    QCOMPARE(records.size(), 3);
    QVERIFY(records.contains(genInteraction + QStringLiteral(".json")));
}

void tst_CliCommands::plainDemoChainContinuesAcrossProcesses()
{
    QTemporaryDir out;
    const Run gen = run({QStringLiteral("--demo"), QStringLiteral("--json"), QStringLiteral("-o"), out.path(),
        QStringLiteral("generate"), QStringLiteral("a fox"), QStringLiteral("--aspect"), QStringLiteral("3:2")});
    QVERIFY2(gen.exitCode == 0 && gen.jsonOk, gen.err.constData());
    const QString id = gen.json.value(QStringLiteral("interaction_id")).toString();
    const Run edit = run({QStringLiteral("--demo"), QStringLiteral("--json"), QStringLiteral("-o"), out.path(),
        QStringLiteral("edit"), id, QStringLiteral("in the snow")});
    QVERIFY2(edit.exitCode == 0 && edit.jsonOk, edit.out + edit.err);
    QCOMPARE(edit.json.value(QStringLiteral("attempts")).toInt(), 1);
    QVERIFY2(edit.err.contains("3:2"), edit.err.constData()); // the chain's ratio, read back from the stored parent
    const Run deleted = run({QStringLiteral("--demo"), QStringLiteral("delete"), id});
    QCOMPARE(deleted.exitCode, 0);
    const Run gone = run({QStringLiteral("--demo"), QStringLiteral("get"), id});
    QCOMPARE(gone.exitCode, 6); // not_found: a delete is remembered too
}

void tst_CliCommands::logDrawsALongSessionNarrowly()
{
    // 1,000 frames written straight into a session: a chain with a fork every 100 frames, and
    // one fork that forks again.
    const QString dir = m_dir.filePath(QStringLiteral("long"));
    QList<Frame> frames;
    QString previous;
    QStringList mainLine;
    for (int i = 0; i < 1000; ++i) {
        Frame f;
        f.id = QStringLiteral("%1").arg(i, 8, 16, QLatin1Char('0'));
        f.parentId = previous;
        f.kind = previous.isEmpty() ? FrameKind::Generate : FrameKind::Edit;
        f.status = FrameStatus::Done;
        f.prompt = QStringLiteral("step %1 of a long walk along the coast").arg(i);
        f.requestedAt = f.finishedAt = QDateTime::currentDateTimeUtc();
        frames << f;
        mainLine << f.id;
        if (i % 100 == 50) {
            // A side branch of three frames (ids apart from the chain's "00000..." ones).
            Frame fork = f;
            fork.id = QStringLiteral("f%1").arg(i, 7, 10, QLatin1Char('0'));
            fork.parentId = previous;
            fork.prompt = QStringLiteral("a fork");
            Frame second = fork;
            second.id = QStringLiteral("e%1").arg(i, 7, 10, QLatin1Char('0'));
            second.parentId = fork.id;
            Frame third = second;
            third.id = QStringLiteral("d%1").arg(i, 7, 10, QLatin1Char('0'));
            third.parentId = second.id;
            frames << fork << second << third;
        }
        previous = f.id;
    }
    {
        SessionStore store;
        QVERIFY(store.open(dir));
        const Result<void> committed = store.commit(frames, {}, {});
        QVERIFY2(committed, qPrintable(committed.error().message));
    }
    const Run r = run({QStringLiteral("--session"), dir, QStringLiteral("log")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QList<QByteArray> lines = r.out.split('\n');
    qsizetype widest = 0;
    for (const QByteArray &line : lines)
        widest = std::max(widest, line.size());
    qInfo("log of %lld frames: %lld lines, widest %lld characters", qint64(frames.size()), qint64(lines.size()),
        qint64(widest));
    QVERIFY2(widest <= 100, QByteArray::number(widest));
    // The chain runs straight down the first column, in order.
    QStringList firstColumn;
    for (const QByteArray &line : lines) {
        if (line.startsWith("* "))
            firstColumn << QString::fromLatin1(line.mid(2, 8));
    }
    QCOMPARE(firstColumn, mainLine);
    QCOMPARE(int(r.out.count("\n|\\\n")), 10); // a fork line where each side branch leaves the chain
    QCOMPARE(int(r.out.count("| |")), 0);      // each side branch is a chain: no deeper column
    QVERIFY(r.out.contains("\n|\\\n| * f0000050 edit done \"a fork\"\n| * e0000050 "));
    QVERIFY2(r.out.contains("11 branches, 1030 frames"), r.out.right(200).constData());

    const Run ids = run({QStringLiteral("--session"), dir, QStringLiteral("log"), QStringLiteral("--ids")});
    QCOMPARE(ids.exitCode, 0);
    QCOMPARE(ids.out.trimmed().split('\n').size(), frames.size());
}

void tst_CliCommands::reservedCommandsSaySo()
{
    // --timeout is no longer reserved: it bounds the call (see tst_knownids for a server that never answers).
    const Run timeout = run({QStringLiteral("--demo"), QStringLiteral("--timeout"), QStringLiteral("30"),
        QStringLiteral("generate"), QStringLiteral("x")});
    QVERIFY2(timeout.exitCode == 0, timeout.err.constData());
    const Run notDir = run({QStringLiteral("--session"), m_dir.filePath(QStringLiteral("home")), QStringLiteral("log"),
        QStringLiteral("--ids")});
    QVERIFY(notDir.exitCode != 0);
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("home/images")))); // --ids never makes a folder a session
}

void tst_CliCommands::signalEndsACommandThatCannotCancel()
{
    // doctor does not cancel its probe: SIGTERM must end it at once (as with no handler), not be
    // swallowed by the handler that lets API calls and session turns cancel cleanly.
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), m_dir.filePath(QStringLiteral("home")));
    p.setProcessEnvironment(env);
    p.start(cliPath(),
        {QStringLiteral("--demo"), QStringLiteral("--demo-latency"), QStringLiteral("20000"),
            QStringLiteral("doctor")});
    QVERIFY(p.waitForStarted(10'000));
    // Nothing can handle a signal before main() runs: wait until the handler is in place.
    QVERIFY2(waitForSignalHandler(p.processId()), "nb2lite never blocked SIGTERM for its handler");
    QTest::qWait(300);
    QElapsedTimer timer;
    timer.start();
    p.terminate();
    QVERIFY(p.waitForFinished(10'000));
    QVERIFY2(timer.elapsed() < 5'000, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 128 + 15); // SIGTERM
}

namespace {

/** Done frames and the demo server's stored interactions: both stay put when nothing is sent. */
QPair<int, int> sessionCounts(const QString &dir)
{
    SessionStore store;
    if (!store.open(dir, SessionStore::OpenMode::OpenExisting))
        return {-1, -1};
    const int frames = store.graph().size();
    const int stored = int(QDir(dir + QStringLiteral("/demo")).entryList(QDir::Files | QDir::NoDotAndDotDot).size());
    return {frames, stored};
}

} // namespace

void tst_CliCommands::costTotalsMatchTheUsageByHand()
{
    const Run cost = run({QStringLiteral("--session"), m_session, QStringLiteral("cost"), QStringLiteral("--json")});
    QCOMPARE(cost.exitCode, 0);
    QVERIFY2(cost.jsonOk, cost.out.constData());
    // By hand from the manifest's usage fields and the default Lite prices ($ per 1M tokens:
    // 0.25 input, 1.50 text output and thinking, 30 image output).
    SessionStore store;
    QVERIFY(store.open(m_session, SessionStore::OpenMode::OpenExisting));
    double byHand = 0;
    for (const Frame &f : store.graph().frames()) {
        QVERIFY(f.usage.imageOutputTokens > 0);
        byHand += (f.usage.inputTokens * 0.25 + f.usage.imageOutputTokens * 30.0
                      + (f.usage.outputTokens - f.usage.imageOutputTokens + f.usage.thoughtTokens) * 1.5)
            / 1e6;
    }
    QVERIFY(byHand > 0.05); // two Lite images
    QVERIFY2(qAbs(cost.json.value(QLatin1String("total_usd")).toDouble() - byHand) < 1e-5,
        qPrintable(QStringLiteral("%1 vs %2").arg(cost.json.value(QLatin1String("total_usd")).toDouble()).arg(byHand)));
    const QJsonArray frames = cost.json.value(QLatin1String("frames")).toArray();
    QCOMPARE(frames.size(), 2);
    const QJsonArray branches = cost.json.value(QLatin1String("branches")).toArray();
    QCOMPARE(branches.size(), 1);
    QVERIFY(qAbs(branches.first().toObject().value(QLatin1String("reproduce_usd")).toDouble() - byHand) < 1e-5);
    const QJsonObject prices = cost.json.value(QLatin1String("prices")).toObject();
    QVERIFY(!prices.value(QLatin1String("as_of")).toString().isEmpty());
    QVERIFY(prices.value(QLatin1String("estimate")).toBool());

    const Run human = run({QStringLiteral("--session"), m_session, QStringLiteral("cost")});
    QCOMPARE(human.exitCode, 0);
    QVERIFY(human.out.contains("total: $0.0"));
    QVERIFY(human.out.contains("as of"));
}

void tst_CliCommands::dryRunAndBudgetSendNothing()
{
    const QString dir = newSession();
    QVERIFY(!dir.isEmpty());
    const QPair<int, int> before = sessionCounts(dir);
    QCOMPARE(before.first, 2);

    const Run dry = run({QStringLiteral("--session"), dir, QStringLiteral("--demo"), QStringLiteral("edit"),
        QStringLiteral("head"), QStringLiteral("add snow"), QStringLiteral("--dry-run"), QStringLiteral("--json")});
    QCOMPARE(dry.exitCode, 0);
    QVERIFY2(dry.jsonOk, dry.out.constData());
    QVERIFY(dry.json.value(QLatin1String("dry_run")).toBool());
    QCOMPARE(dry.json.value(QLatin1String("turns")).toInt(), 1);
    QVERIFY(dry.json.value(QLatin1String("estimate_usd")).toDouble() > 0.02);
    QVERIFY(dry.json.value(QLatin1String("estimate_basis")).toString().contains(QLatin1String("the one similar turn")));
    QCOMPARE(sessionCounts(dir), before);

    const Run plain = run({QStringLiteral("generate"), QStringLiteral("a fox"), QStringLiteral("--dry-run")});
    QCOMPARE(plain.exitCode, 0);
    QVERIFY2(plain.out.contains("dry run, nothing sent") && plain.out.contains("price table"), plain.out.constData());

    // A budget below what was spent plus one more turn: refused, nothing added, nothing sent.
    const Run refused = run({QStringLiteral("--session"), dir, QStringLiteral("--demo"), QStringLiteral("--budget"),
        QStringLiteral("0.08"), QStringLiteral("generate"), QStringLiteral("a second fox")});
    QCOMPARE(refused.exitCode, 23); // over the cost budget
    QVERIFY2(refused.err.contains("budget"), refused.err.constData());
    QCOMPARE(sessionCounts(dir), before);
    const Run dryOver = run({QStringLiteral("--session"), dir, QStringLiteral("--budget"), QStringLiteral("0.08"),
        QStringLiteral("generate"), QStringLiteral("a second fox"), QStringLiteral("--dry-run")});
    QCOMPARE(dryOver.exitCode, 23);

    const Run allowed = run({QStringLiteral("--session"), dir, QStringLiteral("--demo"), QStringLiteral("--budget"),
        QStringLiteral("5"), QStringLiteral("generate"), QStringLiteral("a second fox")});
    QCOMPARE(allowed.exitCode, 0);
    QCOMPARE(sessionCounts(dir).first, 3);

    const Run bad = run({QStringLiteral("--session"), dir, QStringLiteral("--budget"), QStringLiteral("-1"),
        QStringLiteral("generate"), QStringLiteral("x")});
    QCOMPARE(bad.exitCode, 2);
}

void tst_CliCommands::logGrepAndStarred()
{
    const Run grep = run({QStringLiteral("--session"), m_session, QStringLiteral("log"), QStringLiteral("--grep"),
        QStringLiteral("LANTERN"), QStringLiteral("--json")});
    QCOMPARE(grep.exitCode, 0);
    QVERIFY2(grep.jsonOk, grep.out.constData());
    QCOMPARE(grep.json.value(QLatin1String("matched")).toInt(), 1);
    QCOMPARE(grep.json.value(QLatin1String("of")).toInt(), 2);
    QCOMPARE(
        grep.json.value(QLatin1String("frames")).toArray().first().toObject().value(QLatin1String("prompt")).toString(),
        QStringLiteral("add a lantern"));

    const Run human = run({QStringLiteral("--session"), m_session, QStringLiteral("log"), QStringLiteral("--grep"),
        QStringLiteral("lantern")});
    QCOMPARE(human.exitCode, 0);
    QVERIFY2(human.out.contains("add a lantern") && human.out.contains("(after ")
            && human.out.contains("1 of 2 frames match"),
        human.out.constData());
    QVERIFY(!human.out.contains("lighthouse"));

    const Run starred
        = run({QStringLiteral("--session"), m_session, QStringLiteral("log"), QStringLiteral("--starred")});
    QCOMPARE(starred.exitCode, 0);
    QVERIFY2(starred.out.contains("0 of 2 frames match"), starred.out.constData());
}

void tst_CliCommands::variantsRunAtOnce()
{
    const QString dir = m_dir.filePath(QStringLiteral("variants"));
    const QString latency = QStringLiteral("2000");
    QElapsedTimer timer;
    timer.start();
    const Run one = run({QStringLiteral("--session"), dir, QStringLiteral("--demo"), QStringLiteral("--demo-latency"),
        latency, QStringLiteral("generate"), QStringLiteral("a fox")});
    const qint64 oneMs = timer.restart();
    QCOMPARE(one.exitCode, 0);

    const Run three = run({QStringLiteral("--session"), dir, QStringLiteral("--demo"), QStringLiteral("--demo-latency"),
        latency, QStringLiteral("generate"), QStringLiteral("a red fox"), QStringLiteral("--variants"),
        QStringLiteral("3"), QStringLiteral("--json")});
    const qint64 threeMs = timer.restart();
    QCOMPARE(three.exitCode, 0);
    QVERIFY2(three.jsonOk, three.out.constData());
    const QJsonArray roots = three.json.value(QLatin1String("variants")).toArray();
    QCOMPARE(roots.size(), 3);
    for (const QJsonValue &v : roots) {
        QCOMPARE(v.toObject().value(QLatin1String("status")).toString(), QStringLiteral("done"));
        QVERIFY(v.toObject().value(QLatin1String("parent")).toString().isEmpty());
    }
    // Sent together: about the wall time of one turn, not three.
    qInfo("one turn %lld ms, three variants %lld ms", oneMs, threeMs);
    QVERIFY2(threeMs < oneMs + 1500, qPrintable(QStringLiteral("%1 ms vs %2 ms").arg(threeMs).arg(oneMs)));

    // Edit: sibling branches of one frame (no --branch needed: the fork is the point).
    const QString parent = roots.first().toObject().value(QLatin1String("id")).toString();
    const Run edits = run({QStringLiteral("--session"), dir, QStringLiteral("--demo"), QStringLiteral("edit"), parent,
        QStringLiteral("add snow"), QStringLiteral("--variants"), QStringLiteral("2"), QStringLiteral("--json")});
    QCOMPARE(edits.exitCode, 0);
    const QJsonArray siblings = edits.json.value(QLatin1String("variants")).toArray();
    QCOMPARE(siblings.size(), 2);
    SessionStore store;
    QVERIFY(store.open(dir, SessionStore::OpenMode::OpenExisting));
    QCOMPARE(store.graph().children(parent).size(), 2);
    QCOMPARE(store.graph().size(), 6);

    const Run tooMany = run({QStringLiteral("--session"), dir, QStringLiteral("generate"), QStringLiteral("x"),
        QStringLiteral("--variants"), QStringLiteral("9")});
    QCOMPARE(tooMany.exitCode, 2);
}

QTEST_GUILESS_MAIN(tst_CliCommands)
#include "tst_clicommands.moc"
