// The one command-line parser of nb2lite, its help and its log graph, tested in-process
// against the command table (app/cli/clitable.h): every command, every global flag in every
// position, both value spellings, the error messages, and the shape of `log`.

#include "app/cli/cliargs.h"
#include "app/cli/clihelp.h"
#include "app/cli/clitable.h"
#include "app/cli/clitext.h"
#include "app/cli/completion.h"
#include "app/cli/loggraph.h"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>

using namespace nb2;
using namespace nb2::cli;

namespace {

/** A valid minimal command line for each command: its words after the command name. */
QStringList minimalArguments(const CommandSpec &c, bool session)
{
    const CommandForm &form = session ? c.session : c.plain;
    QStringList words;
    for (int i = 0; i < form.maxArgs; ++i) {
        // Only the first positions have a kind (CommandForm::args); later ones are free text.
        const ValueKind kind = i < int(std::size(form.args)) ? form.args[i] : ValueKind::None;
        switch (kind) {
        case ValueKind::FrameRef:
            words << QStringLiteral("head");
            break;
        case ValueKind::ImageFile:
            words << QStringLiteral("in.png");
            break;
        case ValueKind::BundleFile:
            words << QStringLiteral("b.nb2session");
            break;
        case ValueKind::OutPath:
            words << QStringLiteral("out");
            break;
        case ValueKind::Shell:
            words << QStringLiteral("bash");
            break;
        case ValueKind::Command:
            words << QStringLiteral("edit");
            break;
        default:
            words << QStringLiteral("a prompt");
            break;
        }
    }
    if (c.id == CommandId::Export)
        words << QStringLiteral("--format") << QStringLiteral("html");
    if (c.id == CommandId::StyleEdit)
        words << QStringLiteral("--style") << QStringLiteral("s.png");
    return words;
}

Frame frame(const QString &id, const QString &parent, const QString &prompt)
{
    Frame f;
    f.id = id;
    f.parentId = parent;
    f.kind = parent.isEmpty() ? FrameKind::Generate : FrameKind::Edit;
    f.status = FrameStatus::Done;
    f.prompt = prompt;
    return f;
}

} // namespace

class tst_CliParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void globalFlagsInAnyPosition_data();
    void globalFlagsInAnyPosition();
    void valueSpellings_data();
    void valueSpellings();
    void doubleDashEndsOptions();
    void usageErrors_data();
    void usageErrors();
    void framesGiveBackTheOutput();
    void helpForEveryCommand();
    void globalHelpListsEverything();
    void logGraphShape();
    void logGraphWidthStaysSmall();
    void logGraphOfTwentyThousandFramesIsQuick();
    void grepAncestryIsShortOnLongChains();
    void grepAncestryOfTwentyThousandFramesIsQuick();
    void completionScriptsNameEverything();
};

void tst_CliParser::globalFlagsInAnyPosition_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<bool>("session");
    QTest::addColumn<QString>("where"); // before, after, end
    for (const CommandSpec &c : commandTable()) {
        for (const bool session : {false, true}) {
            if (!(session ? c.session : c.plain).exists())
                continue;
            for (const char *where : {"before", "after", "end"})
                QTest::addRow("%s%s-%s", session ? "session-" : "", c.name, where)
                    << QString::fromLatin1(c.name) << session << QString::fromLatin1(where);
        }
    }
}

void tst_CliParser::globalFlagsInAnyPosition()
{
    QFETCH(QString, command);
    QFETCH(bool, session);
    QFETCH(QString, where);
    const CommandSpec &spec = *findCommand(command);
    // Every global flag at once (--base-url excludes --demo: it gets its own run below).
    QStringList globals {QStringLiteral("--demo"), QStringLiteral("--demo-latency"), QStringLiteral("5"),
        QStringLiteral("--model"), QStringLiteral("m1"), QStringLiteral("--api-version"), QStringLiteral("v1beta"),
        QStringLiteral("--json"), QStringLiteral("-o"), QStringLiteral("outdir"), QStringLiteral("--timeout"),
        QStringLiteral("2.5")};
    if (session)
        globals << QStringLiteral("--session") << QStringLiteral("sess");
    const QStringList rest = minimalArguments(spec, session);
    QStringList words;
    if (where == QLatin1String("before"))
        words = globals + QStringList {command} + rest;
    else if (where == QLatin1String("after"))
        words = QStringList {command} + globals + rest;
    else
        words = QStringList {command} + rest + globals;

    const CliParseResult r = parseCliArgs(words);
    QVERIFY2(r.ok(), qPrintable(r.error + QStringLiteral(" <- ") + words.join(QLatin1Char(' '))));
    QCOMPARE(r.args.command, spec.id);
    QCOMPARE(r.args.inSession, session);
    QVERIFY(r.args.demo);
    QCOMPARE(r.args.demoLatencyMs, 5);
    QCOMPARE(r.args.model, QStringLiteral("m1"));
    QCOMPARE(r.args.apiVersion, QStringLiteral("v1beta"));
    QVERIFY(r.args.json);
    QCOMPARE(r.args.outDir, QStringLiteral("outdir"));
    QCOMPARE(r.args.timeoutMs, 2500);
    QCOMPARE(r.args.positional, rest.mid(0, (session ? spec.session : spec.plain).maxArgs));

    // --base-url (without --demo) and --session anywhere, even where they do not apply.
    const CliParseResult url = parseCliArgs(QStringList {command} + rest
        + QStringList {QStringLiteral("--base-url=http://127.0.0.1:9"), QStringLiteral("--session=sess")});
    QVERIFY2(url.ok(), qPrintable(url.error));
    QCOMPARE(url.args.baseUrl, QStringLiteral("http://127.0.0.1:9"));
}

void tst_CliParser::valueSpellings_data()
{
    QTest::addColumn<QStringList>("words");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("expected");
    const auto rows = [](const QString &option, const QStringList &command, const QString &field,
                          const QString &value) {
        QTest::addRow("%s separate", qPrintable(option)) << (command + QStringList {option, value}) << field << value;
        QTest::addRow("%s equals", qPrintable(option))
            << (command + QStringList {option + QLatin1Char('=') + value}) << field << value;
    };
    const QStringList gen {QStringLiteral("generate"), QStringLiteral("x")};
    const QStringList sessionEdit {QStringLiteral("--session"), QStringLiteral("d"), QStringLiteral("edit-local"),
        QStringLiteral("head"), QStringLiteral("x")};
    const QStringList exportOut {QStringLiteral("--session"), QStringLiteral("d"), QStringLiteral("export"),
        QStringLiteral("--format"), QStringLiteral("sheet"), QStringLiteral("out")};
    rows(QStringLiteral("--aspect"), gen, QStringLiteral("aspect"), QStringLiteral("16:9"));
    rows(QStringLiteral("--aspect-ratio"), gen, QStringLiteral("aspect"),
        QStringLiteral("3:2")); // the old session spelling
    rows(QStringLiteral("--thinking"), gen, QStringLiteral("thinking"), QStringLiteral("high"));
    rows(QStringLiteral("--thinking-level"), gen, QStringLiteral("thinking"), QStringLiteral("minimal"));
    rows(QStringLiteral("--out"), gen, QStringLiteral("out"), QStringLiteral("/tmp/x y"));
    rows(QStringLiteral("--model"), gen, QStringLiteral("model"), QStringLiteral("m=2")); // '=' in the value
    rows(QStringLiteral("--style"), sessionEdit, QStringLiteral("style"), QStringLiteral("s.png"));
    rows(QStringLiteral("--file"),
        QStringList {
            QStringLiteral("--session"), QStringLiteral("d"), QStringLiteral("edit-local"), QStringLiteral("x")},
        QStringLiteral("file"), QStringLiteral("in.png"));
    rows(QStringLiteral("--retention"), sessionEdit, QStringLiteral("retention"), QStringLiteral("free"));
    rows(QStringLiteral("--lock-timeout"), sessionEdit, QStringLiteral("lock"), QStringLiteral("300"));
    rows(QStringLiteral("--branch"), exportOut, QStringLiteral("exportBranch"), QStringLiteral("2"));
    rows(QStringLiteral("--title"),
        QStringList {
            QStringLiteral("--session"), QStringLiteral("d"), QStringLiteral("import"), QStringLiteral("a.png")},
        QStringLiteral("title"), QStringLiteral("-dash title"));
}

void tst_CliParser::valueSpellings()
{
    QFETCH(QStringList, words);
    QFETCH(QString, field);
    QFETCH(QString, expected);
    const CliParseResult r = parseCliArgs(words);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const CliArgs &a = r.args;
    const QString got = field == QLatin1String("aspect") ? a.aspectRatio
        : field == QLatin1String("thinking")             ? a.thinkingLevel
        : field == QLatin1String("out")                  ? a.outDir
        : field == QLatin1String("model")                ? a.model
        : field == QLatin1String("style")                ? a.styleFile
        : field == QLatin1String("file")                 ? a.sourceFile
        : field == QLatin1String("retention")            ? a.retention
        : field == QLatin1String("lock")                 ? QString::number(a.lockTimeoutMs)
        : field == QLatin1String("exportBranch")         ? a.exportBranch
                                                         : a.title;
    QCOMPARE(got, expected);
}

void tst_CliParser::doubleDashEndsOptions()
{
    CliParseResult r = parseCliArgs({QStringLiteral("--json"), QStringLiteral("generate"), QStringLiteral("--aspect"),
        QStringLiteral("3:2"), QStringLiteral("--"), QStringLiteral("--dark mode")});
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.args.prompt, QStringLiteral("--dark mode"));
    QCOMPARE(r.args.aspectRatio, QStringLiteral("3:2"));

    // In a session, and with what looks like an option after "--".
    r = parseCliArgs({QStringLiteral("--session"), QStringLiteral("d"), QStringLiteral("edit"), QStringLiteral("head"),
        QStringLiteral("--"), QStringLiteral("--help")});
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(!r.args.help);
    QCOMPARE(r.args.prompt, QStringLiteral("--help"));

    // Without "--" the same prompt is an unknown option, and the message says what to do.
    r = parseCliArgs({QStringLiteral("generate"), QStringLiteral("-dark")});
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(QStringLiteral("after '--'")), qPrintable(r.error));
}

void tst_CliParser::usageErrors_data()
{
    QTest::addColumn<QStringList>("words");
    QTest::addColumn<QStringList>("needles");
    const auto w = [](const char *line) { return QString::fromLatin1(line).split(QLatin1Char(' ')); };
    QTest::newRow("unknown option, with a guess")
        << w("generate x --aspcet 1:1")
        << QStringList {QStringLiteral("unknown option --aspcet"), QStringLiteral("did you mean --aspect?")};
    QTest::newRow("unknown option, no guess")
        << w("--session d export --format html --zip out")
        << QStringList {QStringLiteral("unknown option --zip for 'export'"), QStringLiteral("nb2lite help export")};
    QTest::newRow("unknown command, with a guess")
        << w("genrate x") << QStringList {QStringLiteral("did you mean 'generate'?")};
    QTest::newRow("unknown session command")
        << w("--session d frobnicate") << QStringList {QStringLiteral("unknown session command 'frobnicate'")};
    QTest::newRow("option of another command")
        << w("get v1_x --aspect 1:1")
        << QStringList {QStringLiteral("--aspect only applies to"), QStringLiteral("not to 'get'")};
    QTest::newRow("session option outside a session")
        << w("edit v1_x p --branch") << QStringList {QStringLiteral("--session DIR")};
    QTest::newRow("plain option in a session")
        << w("--session d generate x --reencode") << QStringList {QStringLiteral("leave out --session")};
    QTest::newRow("needs a session") << w("log") << QStringList {QStringLiteral("nb2lite --session DIR log")};
    QTest::newRow("missing value") << w("generate x --aspect")
                                   << QStringList {QStringLiteral("--aspect needs a value (R)")};
    QTest::newRow("value swallowing an option")
        << w("generate x --out --json") << QStringList {QStringLiteral("--out needs a value")};
    QTest::newRow("flag with a value") << w("generate x --json=yes") << QStringList {QStringLiteral("takes no value")};
    QTest::newRow("ambiguous --branch first") << w("--branch 2 --session d export --format html out")
                                              << QStringList {QStringLiteral("put --branch after the command")};
    QTest::newRow("bad format") << w("--session d export --format pdf out")
                                << QStringList {QStringLiteral("unknown export format \"pdf\"")};
    QTest::newRow("bad retention") << w("--session d generate x --retention forever")
                                   << QStringList {QStringLiteral("paid, free or a number of days")};
    QTest::newRow("bad lock timeout") << w("--session d generate x --lock-timeout 5")
                                      << QStringList {QStringLiteral("100 to 120000")};
    QTest::newRow("bad timeout") << w("generate x --timeout never") << QStringList {QStringLiteral("seconds")};
    QTest::newRow("style-edit without style")
        << w("--session d style-edit head x") << QStringList {QStringLiteral("style-edit needs --style")};
    QTest::newRow("edit-local with file and ref")
        << w("--session d edit-local head x --file a.png") << QStringList {QStringLiteral("takes only the prompt")};
    QTest::newRow("stream both ways") << w("generate x --stream --no-stream")
                                      << QStringList {QStringLiteral("exclude")};
    QTest::newRow("completion shell") << w("completion fish")
                                      << QStringList {QStringLiteral("bash"), QStringLiteral("zsh")};
    QTest::newRow("help for nothing") << w("help paint") << QStringList {QStringLiteral("no command 'paint'")};
    QTest::newRow("key on the command line") << w("--key=abc doctor") << QStringList {QStringLiteral("GEMINI_API_KEY")};
    QTest::newRow("too many") << w("generate a cat") << QStringList {QStringLiteral("quote a prompt with spaces")};
}

void tst_CliParser::usageErrors()
{
    QFETCH(QStringList, words);
    QFETCH(QStringList, needles);
    const CliParseResult r = parseCliArgs(words);
    QVERIFY2(!r.ok(), qPrintable(words.join(QLatin1Char(' '))));
    QVERIFY2(!r.error.contains(QLatin1Char('\n')), qPrintable(r.error)); // one line
    for (const QString &needle : needles)
        QVERIFY2(r.error.contains(needle), qPrintable(QStringLiteral("'%1' lacks '%2'").arg(r.error, needle)));
}

void tst_CliParser::framesGiveBackTheOutput()
{
    CliParseResult r = parseCliArgs({QStringLiteral("--session"), QStringLiteral("d"), QStringLiteral("export"),
        QStringLiteral("--format"), QStringLiteral("frames"), QStringLiteral("--frames"), QStringLiteral("ab12"),
        QStringLiteral("cd34,ef56"), QStringLiteral("out")});
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.args.frames, (QStringList {QStringLiteral("ab12"), QStringLiteral("cd34"), QStringLiteral("ef56")}));
    QCOMPARE(r.args.positional, QStringList {QStringLiteral("out")});

    r = parseCliArgs({QStringLiteral("--session"), QStringLiteral("d"), QStringLiteral("export"), QStringLiteral("out"),
        QStringLiteral("--frames"), QStringLiteral("ab12"), QStringLiteral("--format=frames")});
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.args.frames, QStringList {QStringLiteral("ab12")});
    QCOMPARE(r.args.format, QStringLiteral("frames"));
}

void tst_CliParser::helpForEveryCommand()
{
    for (const CommandSpec &c : commandTable()) {
        const QString name = QLatin1String(c.name);
        const CliParseResult asFlag = parseCliArgs({name, QStringLiteral("--help")});
        QVERIFY2(asFlag.ok() && asFlag.args.help && asFlag.args.command == c.id, qPrintable(name));
        const CliParseResult flagFirst = parseCliArgs({QStringLiteral("-h"), name});
        QVERIFY(flagFirst.ok() && flagFirst.args.help && flagFirst.args.command == c.id);
        const CliParseResult asCommand = parseCliArgs({QStringLiteral("help"), name});
        QVERIFY2(asCommand.ok() && asCommand.args.command == CommandId::Help, qPrintable(asCommand.error));

        const QString text = commandHelpText(c);
        QVERIFY2(text.startsWith(QStringLiteral("nb2lite %1 - ").arg(name)), qPrintable(text));
        if (c.plain.exists())
            QVERIFY(text.contains(QStringLiteral("nb2lite [options] ") + QLatin1String(c.plain.usage)));
        if (c.session.exists())
            QVERIFY(text.contains(QStringLiteral("nb2lite --session DIR [options] ") + QLatin1String(c.session.usage)));
        for (const CommandOption &o : c.options)
            QVERIFY2(text.contains(QLatin1String(optionSpec(o.id).name)), qPrintable(name + QLatin1Char(' ') + text));
        for (const QString &line : text.split(QLatin1Char('\n')))
            QVERIFY2(line.size() <= 100, qPrintable(line));
    }
    // Help wins over anything else on the line, even mistakes after the command.
    const CliParseResult r
        = parseCliArgs({QStringLiteral("edit"), QStringLiteral("--bogus"), QStringLiteral("--help")});
    QVERIFY(r.ok() && r.args.help && r.args.command == CommandId::Edit);
}

void tst_CliParser::globalHelpListsEverything()
{
    const QString text = globalHelpText();
    for (const CommandSpec &c : commandTable())
        QVERIFY2(text.contains(QStringLiteral("\n  %1 ").arg(QLatin1String(c.name))), c.name);
    for (const OptionSpec &o : optionTable())
        QVERIFY2(text.contains(QLatin1String(o.name)), o.name);
    QVERIFY(text.contains(QStringLiteral("Exit status:")));
}

void tst_CliParser::logGraphShape()
{
    // r - a - b - c        (main line)
    //       \ x - y        (fork from a)
    //           \ z        (fork from x)
    //   \ q                (second fork from r... created after a)
    FrameGraph g;
    g.upsert(frame(QStringLiteral("r"), {}, QStringLiteral("root")));
    g.upsert(frame(QStringLiteral("a"), QStringLiteral("r"), QStringLiteral("a")));
    g.upsert(frame(QStringLiteral("b"), QStringLiteral("a"), QStringLiteral("b")));
    g.upsert(frame(QStringLiteral("x"), QStringLiteral("a"), QStringLiteral("x")));
    g.upsert(frame(QStringLiteral("c"), QStringLiteral("b"), QStringLiteral("c")));
    g.upsert(frame(QStringLiteral("y"), QStringLiteral("x"), QStringLiteral("y")));
    g.upsert(frame(QStringLiteral("z"), QStringLiteral("x"), QStringLiteral("z")));
    g.upsert(frame(QStringLiteral("q"), QStringLiteral("r"), QStringLiteral("q")));
    g.upsert(frame(QStringLiteral("s"), {}, QStringLiteral("second root")));
    const QStringList lines = logGraphLines(g, FrameGraph::LiveOnly, [](const Frame &f) { return f.id; });
    const QStringList expected {
        QStringLiteral("* r"),
        QStringLiteral("|\\"),
        QStringLiteral("| * q"),
        QStringLiteral("* a"),
        QStringLiteral("|\\"),
        QStringLiteral("| * x"),
        QStringLiteral("| |\\"),
        QStringLiteral("| | * z"),
        QStringLiteral("| * y"),
        QStringLiteral("* b"),
        QStringLiteral("* c"),
        QString(),
        QStringLiteral("* s"),
    };
    QCOMPARE(lines, expected);
}

void tst_CliParser::logGraphWidthStaysSmall()
{
    // 1,000 frames: one long chain with a short fork every 100 frames, and one fork that forks again.
    FrameGraph g;
    QString previous;
    int forks = 0;
    for (int i = 0; i < 1000; ++i) {
        const QString id = QStringLiteral("m%1").arg(i, 4, 10, QLatin1Char('0'));
        g.upsert(frame(id, previous, QStringLiteral("step %1").arg(i)));
        if (i % 100 == 50) {
            g.upsert(frame(id + QStringLiteral("f"), previous, QStringLiteral("fork")));
            g.upsert(frame(id + QStringLiteral("g"), id + QStringLiteral("f"), QStringLiteral("fork 2")));
            g.upsert(frame(id + QStringLiteral("h"), id + QStringLiteral("f"), QStringLiteral("fork of fork")));
            ++forks;
        }
        previous = id;
    }
    const QStringList lines = logGraphLines(g, FrameGraph::LiveOnly, [](const Frame &f) { return f.id; });
    const qsizetype widest = std::max_element(lines.begin(), lines.end(), [](const QString &a, const QString &b) {
        return a.size() < b.size();
    })->size();
    QVERIFY2(widest <= 12, qPrintable(QString::number(widest))); // "| | * m0050h"
    QCOMPARE(lines.size(), g.size() + 2 * forks);                // one line per frame, one fork line per fork
    // The main chain stays in the first column from the first frame to the last.
    int mainLines = 0;
    for (const QString &line : lines)
        mainLines += (line.startsWith(QStringLiteral("* m")) && !line.endsWith(QLatin1Char('f'))) ? 1 : 0;
    QCOMPARE(mainLines, 1000);
}

void tst_CliParser::logGraphOfTwentyThousandFramesIsQuick()
{
    // `nb2lite log` on the benchmark's 10,000-frame session took 1.9 s: each frame drawn asked
    // for its children, a scan of the whole session. One pass now.
    // One chain with a one-frame fork every 10 frames (off the frame 5 back).
    FrameGraph g;
    QStringList ids;
    QString tip;
    for (int i = 0; i < 20000; ++i) {
        const QString id = QStringLiteral("f%1").arg(i);
        const bool fork = i % 10 == 0 && i > 0;
        g.upsert(frame(id, fork ? ids.at(i - 5) : tip, id));
        ids.append(id);
        if (!fork)
            tip = id;
    }
    QElapsedTimer timer;
    timer.start();
    const QStringList lines = logGraphLines(g, FrameGraph::LiveOnly, [](const Frame &f) { return f.id; });
    const qint64 ms = timer.elapsed();
    QCOMPARE(lines.size(), 20000 + 1999); // a line per frame and one per fork
    qInfo("log graph of 20,000 frames: %lld ms", ms);
    QVERIFY2(ms < 1000, qPrintable(QStringLiteral("%1 ms").arg(ms)));
}

namespace {
/** Ancestry::ancestorsText() by its definition, from FrameGraph::pathTo(). */
QString ancestryByPath(const FrameGraph &g, const QString &id)
{
    QStringList path = g.pathTo(id);
    if (path.size() <= 1)
        return {};
    path.removeLast();
    if (path.size() <= Ancestry::kShownInFull)
        return path.join(QStringLiteral(" > "));
    const qsizetype between = path.size() - 1 - Ancestry::kNearest;
    return path.first() + QStringLiteral(" > ") + CliText::tr("… %n frame(s) …", nullptr, int(between))
        + QStringLiteral(" > ") + path.mid(path.size() - Ancestry::kNearest).join(QStringLiteral(" > "));
}
} // namespace

void tst_CliParser::grepAncestryIsShortOnLongChains()
{
    // A chain f0..f11 with a fork at f3, an orphan whose parent is gone, and a loop.
    FrameGraph g;
    for (int i = 0; i < 12; ++i)
        g.upsert(frame(QStringLiteral("f%1").arg(i), i == 0 ? QString() : QStringLiteral("f%1").arg(i - 1), {}));
    g.upsert(frame(QStringLiteral("side"), QStringLiteral("f3"), {}));
    g.upsert(frame(QStringLiteral("orphan"), QStringLiteral("gone"), {}));
    g.upsert(frame(QStringLiteral("orphan2"), QStringLiteral("orphan"), {}));
    g.upsert(frame(QStringLiteral("l1"), QStringLiteral("l2"), {}));
    g.upsert(frame(QStringLiteral("l2"), QStringLiteral("l1"), {}));
    g.upsert(frame(QStringLiteral("l3"), QStringLiteral("l1"), {}));

    Ancestry ancestry(g);
    QCOMPARE(ancestry.ancestorsText(QStringLiteral("f0")), QString());
    QCOMPARE(ancestry.ancestorsText(QStringLiteral("f1")), QStringLiteral("f0"));
    QCOMPARE(ancestry.ancestorsText(QStringLiteral("f6")), QStringLiteral("f0 > f1 > f2 > f3 > f4 > f5"));
    QCOMPARE(ancestry.ancestorsText(QStringLiteral("f7")),
        QStringLiteral("f0 > ") + CliText::tr("… %n frame(s) …", nullptr, 3) + QStringLiteral(" > f4 > f5 > f6"));
    QVERIFY(ancestry.ancestorsText(QStringLiteral("f11")).contains(QStringLiteral(" 7 "))); // f1..f7 left out
    QCOMPARE(ancestry.ancestorsText(QStringLiteral("side")), QStringLiteral("f0 > f1 > f2 > f3"));
    QCOMPARE(ancestry.ancestorsText(QStringLiteral("orphan")), QString()); // its path starts at itself
    QCOMPARE(ancestry.ancestorsText(QStringLiteral("orphan2")), QStringLiteral("orphan"));
    QCOMPARE(ancestry.ancestorsText(QStringLiteral("l3")), QString()); // parents loop: no path
    QCOMPARE(ancestry.ancestorsText(QStringLiteral("nothing")), QString());
    // Every frame as the definition says, asked in any order (placing is remembered).
    Ancestry fresh(g);
    const QList<Frame> frames = g.frames();
    for (auto it = frames.crbegin(); it != frames.crend(); ++it)
        QCOMPARE(fresh.ancestorsText(it->id), ancestryByPath(g, it->id));
    for (const Frame &f : frames)
        QCOMPARE(fresh.ancestorsText(f.id), ancestryByPath(g, f.id));
}

void tst_CliParser::grepAncestryOfTwentyThousandFramesIsQuick()
{
    // `log --grep` on the 10,000-frame benchmark session printed every match's whole path:
    // 84 MB in 2.5 s. Each chain is walked once now, and a line names at most five frames.
    FrameGraph g;
    QStringList ids;
    for (int i = 0; i < 20000; ++i) {
        const QString id = QStringLiteral("f%1").arg(i);
        g.upsert(frame(id, i == 0 ? QString() : ids.at(i % 10 == 0 ? i - 5 : i - 1), {}));
        ids.append(id);
    }
    QElapsedTimer timer;
    timer.start();
    Ancestry ancestry(g);
    qsizetype longest = 0;
    for (const QString &id : std::as_const(ids))
        longest = std::max(longest, ancestry.ancestorsText(id).size());
    const qint64 ms = timer.elapsed();
    qInfo("ancestry of 20,000 frames: %lld ms, longest %lld characters", ms, qint64(longest));
    QVERIFY2(longest < 100, qPrintable(QString::number(longest)));
    QCOMPARE(ancestry.ancestorsText(ids.last()), ancestryByPath(g, ids.last()));
    QVERIFY2(ms < 1000, qPrintable(QStringLiteral("%1 ms").arg(ms)));
}

void tst_CliParser::completionScriptsNameEverything()
{
    const QString bash = bashCompletionScript();
    const QString zsh = zshCompletionScript();
    for (const CommandSpec &c : commandTable()) {
        QVERIFY2(bash.contains(QLatin1String(c.name)), c.name);
        QVERIFY2(zsh.contains(QStringLiteral("'%1:").arg(QLatin1String(c.name))), c.name);
    }
    for (const OptionSpec &o : optionTable()) {
        QVERIFY2(bash.contains(QLatin1String(o.name)), o.name);
        QVERIFY2(zsh.contains(QStringLiteral("'%1").arg(QLatin1String(o.name))), o.name);
    }
    for (const QString &ratio : choicesFor(ValueKind::AspectRatio)) {
        QVERIFY(bash.contains(ratio));
        QVERIFY(zsh.contains(QString(ratio).replace(QStringLiteral(":"), QStringLiteral("\\:"))));
    }
}

QTEST_GUILESS_MAIN(tst_CliParser)
#include "tst_cliparser.moc"
