// End-to-end tests of the nb2lite binary: it runs as a separate process (QProcess) against
// the nb2lite-fakeapi binary on an ephemeral loopback port, and against its own --demo
// backend. Every run is scanned for the API key in stdout and stderr.

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

const QString kKey = QStringLiteral("nb2-SECRET-cli-key-7f3a9c1e5b2d");
const QString kModel = QStringLiteral("gemini-3.1-flash-lite-image");

QString cliPath()
{
    return QStringLiteral(NB2_BINARY_DIR "/app/cli/nb2lite");
}
QString fakePath()
{
    return QStringLiteral(NB2_BINARY_DIR "/app/fakeapi/nb2lite-fakeapi");
}

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json; // parsed stdout when it is one JSON object
    bool jsonOk = false;
};

/** A running nb2lite-fakeapi process. */
class FakeProcess
{
public:
    ~FakeProcess() { stop(); }

    QString start(const QStringList &extraArgs = {})
    {
        if (!QFileInfo::exists(fakePath()))
            return QStringLiteral("%1 is missing; build the nb2lite-fakeapi target").arg(fakePath());
        m_process.setProgram(fakePath());
        m_process.setArguments(
            QStringList {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--key"), kKey} + extraArgs);
        m_process.start();
        if (!m_process.waitForStarted(10'000))
            return QStringLiteral("could not start %1").arg(fakePath());
        QByteArray line;
        while (!line.contains('\n')) {
            if (!m_process.waitForReadyRead(20'000))
                return QStringLiteral("no 'listening on' line; stderr: %1")
                    .arg(QString::fromUtf8(m_process.readAllStandardError()));
            line += m_process.readAllStandardOutput();
        }
        static const QRegularExpression re(QStringLiteral("^listening on (http://127\\.0\\.0\\.1:\\d+)\\n"));
        const auto match = re.match(QString::fromUtf8(line));
        if (!match.hasMatch())
            return QStringLiteral("unexpected first line: %1").arg(QString::fromUtf8(line));
        m_baseUrl = match.captured(1);
        return {};
    }

    void stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(5'000)) {
            m_process.kill();
            m_process.waitForFinished(5'000);
        }
    }

    QString baseUrl() const { return m_baseUrl; }

private:
    QProcess m_process;
    QString m_baseUrl;
};

} // namespace

class tst_Cli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();

    void helpAndVersion();
    void usageErrors_data();
    void usageErrors();
    void fullFlowAgainstFakeBinary();
    void humanOutput();
    void optionPlacement_data();
    void optionPlacement();
    void outputFolderPrecedence();
    void errorExitCodes_data();
    void errorExitCodes();
    void injectedFaults_data();
    void injectedFaults();
    void keyFromHomeFile();
    void unwritableOutputKeepsId();
    void oversizedInputNeedsReencode();
    void insecureBaseUrlRefused();
    void noKey();
    void learnedThinkingLevels();
    void doctorReportsConfiguration();
    void doctorFailures_data();
    void doctorFailures();
    void demoBackend();
    void streamProgress();
    void terminateCancels();

private:
    Run run(const QStringList &args, const QMap<QString, QString> &env = {}, const QString &workDir = {},
        const QStringList &unsetEnv = {});
    QStringList api(const QStringList &args) const; // --base-url <fake> --json --out <dir> + args
    QString makeImage(const QString &name, int width, int height, const char *format);

    FakeProcess m_fake;
    QTemporaryDir m_dir;    // fixtures, output, HOME
    QString m_out;          // default output folder
    QString m_portrait;     // 300x400 PNG (nearest 3:4)
    QString m_style;        // JPEG style reference
    QString m_notImage;     // text with a .png name
    QStringList m_keyLeaks; // command lines whose output contained the key
};

void tst_Cli::initTestCase()
{
    QVERIFY2(
        QFileInfo::exists(cliPath()), qPrintable(cliPath() + QStringLiteral(" is missing; build the nb2lite target")));
    QVERIFY(m_dir.isValid());
    const QString error = m_fake.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_out = m_dir.filePath(QStringLiteral("out"));
    QVERIFY(QDir().mkpath(m_out));
    QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("home"))));
    m_portrait = makeImage(QStringLiteral("portrait.png"), 300, 400, "PNG");
    m_style = makeImage(QStringLiteral("style.jpg"), 200, 200, "JPEG");
    m_notImage = m_dir.filePath(QStringLiteral("not-an-image.png"));
    QFile text(m_notImage);
    QVERIFY(text.open(QIODevice::WriteOnly));
    text.write("this is plain text, not a PNG\n");
}

void tst_Cli::cleanupTestCase()
{
    m_fake.stop();
}

void tst_Cli::cleanup()
{
    const QStringList leaks = std::exchange(m_keyLeaks, {});
    QVERIFY2(leaks.isEmpty(),
        qPrintable(QStringLiteral("the API key appeared in the output of: ") + leaks.join(QStringLiteral(" | "))));
}

QString tst_Cli::makeImage(const QString &name, int width, int height, const char *format)
{
    QImage image(width, height, QImage::Format_RGB32);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            image.setPixel(x, y, qRgb(x * 255 / width, y * 255 / height, 128));
    const QString path = m_dir.filePath(name);
    if (!image.save(path, format))
        qWarning("could not write fixture %s", qPrintable(path));
    return path;
}

QStringList tst_Cli::api(const QStringList &args) const
{
    return QStringList {
               QStringLiteral("--base-url"), m_fake.baseUrl(), QStringLiteral("--json"), QStringLiteral("--out"), m_out}
    + args;
}

Run tst_Cli::run(
    const QStringList &args, const QMap<QString, QString> &env, const QString &workDir, const QStringList &unsetEnv)
{
    Run result;
    for (const QString &arg : args) {
        if (arg.contains(kKey))
            m_keyLeaks << QStringLiteral("(the test put the key on the command line)");
    }
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL", "GEMINI_MODEL_NAME",
             "IMAGE_OUTPUT_DIR", "GOOGLE_GENAI_API_VERSION"})
        environment.remove(QString::fromLatin1(name));
    // A private HOME and config folder: no ~/gemini.key, and learned levels stay in the test.
    environment.insert(QStringLiteral("HOME"), m_dir.filePath(QStringLiteral("home")));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("home/.config")));
    environment.insert(QStringLiteral("GEMINI_API_KEY"), kKey);
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        environment.insert(it.key(), it.value());
    for (const QString &name : unsetEnv)
        environment.remove(name);

    QProcess process;
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(workDir.isEmpty() ? m_dir.path() : workDir);
    process.start(cliPath(), args);
    if (!process.waitForStarted(10'000) || !process.waitForFinished(60'000)) {
        process.kill();
        process.waitForFinished();
        qWarning("nb2lite did not finish: %s", qPrintable(args.join(QLatin1Char(' '))));
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(result.out, &parseError);
    result.jsonOk = parseError.error == QJsonParseError::NoError && doc.isObject();
    result.json = doc.object();
    if (result.out.contains(kKey.toUtf8()) || result.err.contains(kKey.toUtf8()))
        m_keyLeaks << args.join(QLatin1Char(' ')); // reported as a failure by cleanup()
    return result;
}

// Checks the --json contract of a successful image command and returns the saved path.
static QString checkSavedImage(const Run &r, const QString &prefix, double ratio)
{
    const QString where = QString::fromUtf8(r.out + r.err);
    if (r.exitCode != 0 || !r.jsonOk || !r.json.value(QStringLiteral("ok")).toBool()) {
        qWarning("nb2lite failed (exit %d): %s", r.exitCode, qPrintable(where));
        return {};
    }
    const QStringList keys {QStringLiteral("ok"), QStringLiteral("path"), QStringLiteral("interaction_id"),
        QStringLiteral("mime_type"), QStringLiteral("width"), QStringLiteral("height"), QStringLiteral("text"),
        QStringLiteral("usage"), QStringLiteral("attempts"), QStringLiteral("error")};
    for (const QString &key : keys) {
        if (!r.json.contains(key)) {
            qWarning("--json output lacks \"%s\": %s", qPrintable(key), r.out.constData());
            return {};
        }
    }
    if (r.json.size() != keys.size() || !r.json.value(QStringLiteral("error")).isNull()
        || r.json.value(QStringLiteral("interaction_id")).toString().isEmpty()
        || r.json.value(QStringLiteral("attempts")).toInt() < 1 || !r.json.value(QStringLiteral("usage")).isObject()) {
        qWarning("unexpected --json shape: %s", r.out.constData());
        return {};
    }
    const QString path = r.json.value(QStringLiteral("path")).toString();
    const QFileInfo info(path);
    const QString mime = r.json.value(QStringLiteral("mime_type")).toString();
    const QString ext = mime == QLatin1String("image/png") ? QStringLiteral("png")
        : mime == QLatin1String("image/webp")              ? QStringLiteral("webp")
                                                           : QStringLiteral("jpg");
    static const QRegularExpression nameRe(QStringLiteral("^([a-z_]+)_(\\d{9,})_([0-9a-f]{8})\\.(jpg|png|webp)$"));
    const auto match = nameRe.match(info.fileName());
    if (!info.isAbsolute() || !info.exists() || !match.hasMatch() || match.captured(1) != prefix
        || match.captured(4) != ext) {
        qWarning("bad saved file %s (prefix %s, mime %s)", qPrintable(path), qPrintable(prefix), qPrintable(mime));
        return {};
    }
    // The extension names what the bytes are, and the bytes decode.
    QImageReader reader(path);
    reader.setDecideFormatFromContent(true);
    const QByteArray format = reader.format();
    const QImage image = reader.read();
    if (image.isNull() || (ext == QLatin1String("jpg") ? format != "jpeg" : format != ext.toLatin1())) {
        qWarning("%s does not decode as %s (format %s)", qPrintable(path), qPrintable(ext), format.constData());
        return {};
    }
    if (image.width() != r.json.value(QStringLiteral("width")).toInt()
        || image.height() != r.json.value(QStringLiteral("height")).toInt()) {
        qWarning("width/height in --json do not match the file");
        return {};
    }
    // The service renders 1K sizes such as 1344x768 (16:9) or 864x1184 (3:4), a few percent
    // off the exact ratio: check that the requested ratio is the nearest supported one.
    static const double kSupported[]
        = {1.0, 3.0 / 2, 2.0 / 3, 3.0 / 4, 4.0 / 3, 4.0 / 5, 5.0 / 4, 9.0 / 16, 16.0 / 9, 21.0 / 9};
    const double got = double(image.width()) / image.height();
    double nearest = kSupported[0];
    for (double candidate : kSupported) {
        if (qAbs(std::log(candidate / got)) < qAbs(std::log(nearest / got)))
            nearest = candidate;
    }
    if (qAbs(nearest - ratio) > 1e-9 || qAbs(got - ratio) / ratio > 0.05) {
        qWarning("%s is %dx%d, expected ratio %f", qPrintable(path), image.width(), image.height(), ratio);
        return {};
    }
    return path;
}

void tst_Cli::helpAndVersion()
{
    const Run help = run({QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    const QString text = QString::fromUtf8(help.out);
    for (const QString &needle :
        {QStringLiteral("generate PROMPT"), QStringLiteral("edit ID PROMPT"), QStringLiteral("edit-local FILE PROMPT"),
            QStringLiteral("--style"), QStringLiteral("doctor"), QStringLiteral("--demo-latency"),
            QStringLiteral("IMAGE_OUTPUT_DIR"), QStringLiteral("no --api-key option"), QStringLiteral("GEMINI_API_KEY"),
            QStringLiteral("~/gemini.key"), QStringLiteral("Exit status:"), QStringLiteral("not_found"),
            QStringLiteral("invalid_input"), QStringLiteral("auth")})
        QVERIFY2(text.contains(needle), qPrintable(QStringLiteral("--help lacks: ") + needle));
    // Every exit status is listed once.
    static const QRegularExpression codeRe(QStringLiteral("^\\s+(\\d+)\\s+\\S+"), QRegularExpression::MultilineOption);
    QSet<int> codes;
    const qsizetype exitStart = text.indexOf(QStringLiteral("Exit status:"));
    const qsizetype exitEnd = text.indexOf(QStringLiteral("\n\n"), exitStart);
    const QString exitSection = text.mid(exitStart, exitEnd < 0 ? -1 : exitEnd - exitStart);
    for (auto it = codeRe.globalMatch(exitSection); it.hasNext();) {
        const int code = it.next().captured(1).toInt();
        QVERIFY2(!codes.contains(code), "an exit status is listed twice");
        codes.insert(code);
    }
    QVERIFY(codes.size() >= 16);

    const Run version = run({QStringLiteral("--version")});
    QCOMPARE(version.exitCode, 0);
    QVERIFY(version.out.startsWith("nb2lite "));
}

void tst_Cli::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("needle");
    QTest::newRow("no command") << QStringList {} << QStringLiteral("no command");
    QTest::newRow("unknown command") << QStringList {QStringLiteral("paint"), QStringLiteral("x")}
                                     << QStringLiteral("unknown command");
    QTest::newRow("unknown option") << QStringList {QStringLiteral("--colour"), QStringLiteral("generate"),
        QStringLiteral("x")} << QStringLiteral("unknown option");
    QTest::newRow("missing prompt") << QStringList {QStringLiteral("generate")} << QStringLiteral("missing arguments");
    QTest::newRow("missing id and prompt") << QStringList {QStringLiteral("edit"), QStringLiteral("v1_x")}
                                           << QStringLiteral("usage: nb2lite edit ID PROMPT");
    QTest::newRow("unquoted prompt") << QStringList {QStringLiteral("generate"), QStringLiteral("a"),
        QStringLiteral("cat")} << QStringLiteral("too many arguments");
    QTest::newRow("api key flag") << QStringList {QStringLiteral("--api-key"), QStringLiteral("abc"),
        QStringLiteral("doctor")} << QStringLiteral("GEMINI_API_KEY");
    QTest::newRow("value missing") << QStringList {QStringLiteral("generate"), QStringLiteral("x"),
        QStringLiteral("--aspect")} << QStringLiteral("needs a value");
    QTest::newRow("style on generate") << QStringList {QStringLiteral("generate"), QStringLiteral("x"),
        QStringLiteral("--style"), QStringLiteral("a.png")}
                                       << QStringLiteral("--style only applies");
    QTest::newRow("latency without demo") << QStringList {QStringLiteral("--demo-latency"), QStringLiteral("5"),
        QStringLiteral("generate"), QStringLiteral("x")}
                                          << QStringLiteral("--demo");
    QTest::newRow("bad api version") << QStringList {QStringLiteral("--api-version"), QStringLiteral("v2"),
        QStringLiteral("doctor")} << QStringLiteral("v1 or v1beta");
    QTest::newRow("bad latency") << QStringList {QStringLiteral("--demo"), QStringLiteral("--demo-latency=soon"),
        QStringLiteral("doctor")} << QStringLiteral("milliseconds");
}

void tst_Cli::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, needle);
    const Run r = run(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(needle), r.err.constData());
    QVERIFY(r.out.isEmpty());

    // With --json the same failure is one JSON object with kind "usage".
    const Run j = run(QStringList {QStringLiteral("--json")} + args);
    QCOMPARE(j.exitCode, 2);
    QVERIFY2(j.jsonOk, j.out.constData());
    QCOMPARE(j.json.value(QStringLiteral("ok")).toBool(true), false);
    QCOMPARE(j.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("kind")).toString(),
        QStringLiteral("usage"));
}

void tst_Cli::fullFlowAgainstFakeBinary()
{
    const Run gen = run(api({QStringLiteral("generate"), QStringLiteral("a lighthouse at dusk"),
        QStringLiteral("--aspect"), QStringLiteral("16:9")}));
    QVERIFY(!checkSavedImage(gen, QStringLiteral("gen"), 16.0 / 9.0).isEmpty());
    const QString genId = gen.json.value(QStringLiteral("interaction_id")).toString();

    const Run edit = run(api({QStringLiteral("edit"), genId, QStringLiteral("make it night"),
        QStringLiteral("--thinking"), QStringLiteral("high")}));
    QVERIFY(!checkSavedImage(edit, QStringLiteral("edit"), 16.0 / 9.0).isEmpty()); // the chain keeps its ratio
    QVERIFY(edit.json.value(QStringLiteral("interaction_id")).toString() != genId);

    // edit-local without --aspect: the ratio nearest the 300x400 source (3:4), not 1:1.
    const Run local = run(api({QStringLiteral("edit-local"), m_portrait, QStringLiteral("add a hat")}));
    QVERIFY(!checkSavedImage(local, QStringLiteral("edit_local"), 3.0 / 4.0).isEmpty());

    const Run style = run(api({QStringLiteral("edit-local"), m_portrait, QStringLiteral("in this style"),
        QStringLiteral("--style"), m_style, QStringLiteral("--aspect"), QStringLiteral("1:1")}));
    QVERIFY(!checkSavedImage(style, QStringLiteral("style_edit"), 1.0).isEmpty());

    // edit without --aspect kept the chain's ratio (looked up from the parent) and said so.
    QVERIFY2(edit.err.contains("16:9"), edit.err.constData());

    const Run got = run(api({QStringLiteral("get"), genId}));
    QVERIFY(!checkSavedImage(got, QStringLiteral("get"), 16.0 / 9.0).isEmpty());
    QCOMPARE(got.json.value(QStringLiteral("interaction_id")).toString(), genId);

    const Run del = run(api({QStringLiteral("delete"), genId}));
    QCOMPARE(del.exitCode, 0);
    QVERIFY(del.json.value(QStringLiteral("ok")).toBool());
    QVERIFY(del.json.value(QStringLiteral("error")).isNull());

    const Run gone = run(api({QStringLiteral("get"), genId}));
    QCOMPARE(gone.exitCode, 6);
    const QJsonObject error = gone.json.value(QStringLiteral("error")).toObject();
    QCOMPARE(error.value(QStringLiteral("kind")).toString(), QStringLiteral("not_found"));
    QCOMPARE(error.value(QStringLiteral("http_status")).toInt(), 404);
    QVERIFY(!error.value(QStringLiteral("message")).toString().isEmpty());
    QCOMPARE(gone.json.value(QStringLiteral("ok")).toBool(true), false);
    QVERIFY(gone.json.value(QStringLiteral("path")).isNull());
    QVERIFY(!gone.err.isEmpty()); // one clear line on stderr as well
    QCOMPARE(gone.err.count('\n'), 1);

    // Editing the deleted id is "not found" too.
    const Run editGone = run(api({QStringLiteral("edit"), genId, QStringLiteral("again")}));
    QCOMPARE(editGone.exitCode, 6);
}

void tst_Cli::humanOutput()
{
    const Run r = run({QStringLiteral("--base-url"), m_fake.baseUrl(), QStringLiteral("--out"), m_out,
        QStringLiteral("generate"), QStringLiteral("a red fox in snow")});
    QCOMPARE(r.exitCode, 0);
    const QString out = QString::fromUtf8(r.out);
    static const QRegularExpression saved(
        QStringLiteral("^Saved to: (/\\S+/gen_\\d+_[0-9a-f]{8}\\.jpg)$"), QRegularExpression::MultilineOption);
    static const QRegularExpression id(QStringLiteral("^Interaction ID: (\\S+)$"), QRegularExpression::MultilineOption);
    const auto savedMatch = saved.match(out);
    QVERIFY2(savedMatch.hasMatch(), r.out.constData());
    QVERIFY(QFileInfo::exists(savedMatch.captured(1)));
    QVERIFY2(id.match(out).hasMatch(), r.out.constData());
    QVERIFY(!out.trimmed().startsWith(QLatin1Char('{')));
}

void tst_Cli::optionPlacement_data()
{
    QTest::addColumn<QStringList>("layout"); // "OPTS" and "CMD" placeholders
    QTest::newRow("before") << QStringList {QStringLiteral("OPTS"), QStringLiteral("CMD")};
    QTest::newRow("after") << QStringList {QStringLiteral("CMD"), QStringLiteral("OPTS")};
    QTest::newRow("equals form") << QStringList {QStringLiteral("CMD"), QStringLiteral("EQ")};
    QTest::newRow("mixed") << QStringList {QStringLiteral("--json"), QStringLiteral("generate"), QStringLiteral("BASE"),
        QStringLiteral("a prompt"), QStringLiteral("OUT")};
}

void tst_Cli::optionPlacement()
{
    QFETCH(QStringList, layout);
    QTemporaryDir out;
    QStringList args;
    for (const QString &part : layout) {
        if (part == QLatin1String("OPTS"))
            args << QStringLiteral("--json") << QStringLiteral("--base-url") << m_fake.baseUrl() << QStringLiteral("-o")
                 << out.path();
        else if (part == QLatin1String("CMD"))
            args << QStringLiteral("generate") << QStringLiteral("--aspect") << QStringLiteral("3:2")
                 << QStringLiteral("a prompt");
        else if (part == QLatin1String("EQ"))
            args << QStringLiteral("--json") << QStringLiteral("--base-url=") + m_fake.baseUrl()
                 << QStringLiteral("--out=") + out.path();
        else if (part == QLatin1String("BASE"))
            args << QStringLiteral("--base-url") << m_fake.baseUrl();
        else if (part == QLatin1String("OUT"))
            args << QStringLiteral("--out") << out.path();
        else
            args << part;
    }
    const Run r = run(args);
    const double ratio = layout.contains(QStringLiteral("CMD")) ? 1.5 : 1.0;
    const QString path = checkSavedImage(r, QStringLiteral("gen"), ratio);
    QVERIFY2(!path.isEmpty(), qPrintable(args.join(QLatin1Char(' '))));
    QCOMPARE(QFileInfo(path).absolutePath(), QDir(out.path()).absolutePath());
}

void tst_Cli::outputFolderPrecedence()
{
    QTemporaryDir envDir;
    QTemporaryDir flagDir;
    QTemporaryDir cwd;
    const QString newSub = envDir.filePath(QStringLiteral("created/on/demand"));
    const QStringList base {QStringLiteral("--base-url"), m_fake.baseUrl(), QStringLiteral("--json")};
    const QStringList cmd {QStringLiteral("generate"), QStringLiteral("a prompt")};

    const Run fromEnv = run(base + cmd, {{QStringLiteral("IMAGE_OUTPUT_DIR"), newSub}}, cwd.path());
    QCOMPARE(fromEnv.exitCode, 0);
    QCOMPARE(QFileInfo(fromEnv.json.value(QStringLiteral("path")).toString()).absolutePath(), newSub);

    const Run fromFlag = run(base + QStringList {QStringLiteral("--out"), flagDir.path()} + cmd,
        {{QStringLiteral("IMAGE_OUTPUT_DIR"), newSub}}, cwd.path());
    QCOMPARE(fromFlag.exitCode, 0);
    QCOMPARE(QFileInfo(fromFlag.json.value(QStringLiteral("path")).toString()).absolutePath(),
        QDir(flagDir.path()).absolutePath());

    const Run fromCwd = run(base + cmd, {}, cwd.path());
    QCOMPARE(fromCwd.exitCode, 0);
    QCOMPARE(QFileInfo(fromCwd.json.value(QStringLiteral("path")).toString()).absolutePath(),
        QFileInfo(cwd.path()).canonicalFilePath());
}

void tst_Cli::errorExitCodes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("key"); // GEMINI_API_KEY for this run; empty: the test key
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("kind");
    const QString missing = QStringLiteral("/nonexistent/nb2/missing.png");
    QTest::newRow("bad aspect") << QStringList {QStringLiteral("generate"), QStringLiteral("x"),
        QStringLiteral("--aspect"), QStringLiteral("7:3")}
                                << QString() << 3 << QStringLiteral("invalid_input");
    QTest::newRow("empty prompt") << QStringList {QStringLiteral("generate"), QString()} << QString() << 3
                                  << QStringLiteral("invalid_input");
    QTest::newRow("blank prompt") << QStringList {QStringLiteral("edit"), QStringLiteral("v1_x"), QStringLiteral("   ")}
                                  << QString() << 3 << QStringLiteral("invalid_input");
    QTest::newRow("unknown thinking level") << QStringList {QStringLiteral("generate"), QStringLiteral("x"),
        QStringLiteral("--thinking"), QStringLiteral("extreme")}
                                            << QString() << 3 << QStringLiteral("invalid_input");
    QTest::newRow("missing file") << QStringList {QStringLiteral("edit-local"), missing, QStringLiteral("x")}
                                  << QString() << 16 << QStringLiteral("io");
    QTest::newRow("missing style file") << QStringList {QStringLiteral("edit-local"), QStringLiteral("PORTRAIT"),
        QStringLiteral("x"), QStringLiteral("--style"), missing}
                                        << QString() << 16 << QStringLiteral("io");
    QTest::newRow("not an image") << QStringList {QStringLiteral("edit-local"), QStringLiteral("NOTIMAGE"),
        QStringLiteral("x")} << QString()
                                  << 3 << QStringLiteral("invalid_input");
    QTest::newRow("wrong key") << QStringList {QStringLiteral("generate"), QStringLiteral("x")}
                               << QStringLiteral("wrong-key-0123456789") << 5 << QStringLiteral("auth");
    QTest::newRow("unknown id") << QStringList {QStringLiteral("get"), QStringLiteral("v1_doesnotexist")} << QString()
                                << 6 << QStringLiteral("not_found");
    QTest::newRow("unknown model") << QStringList {QStringLiteral("--model"), QStringLiteral("gemini-0-nonexistent"),
        QStringLiteral("generate"), QStringLiteral("x")}
                                   << QString() << 6 << QStringLiteral("not_found");
}

void tst_Cli::errorExitCodes()
{
    QFETCH(QStringList, args);
    QFETCH(QString, key);
    QFETCH(int, exitCode);
    QFETCH(QString, kind);
    args.replaceInStrings(QStringLiteral("PORTRAIT"), m_portrait);
    args.replaceInStrings(QStringLiteral("NOTIMAGE"), m_notImage);
    QMap<QString, QString> env;
    if (!key.isEmpty())
        env.insert(QStringLiteral("GEMINI_API_KEY"), key);
    const int before = int(QDir(m_out).entryList(QDir::Files).size());

    const Run human
        = run(QStringList {QStringLiteral("--base-url"), m_fake.baseUrl(), QStringLiteral("--out"), m_out} + args, env);
    QCOMPARE(human.exitCode, exitCode);
    QVERIFY(human.err.startsWith("nb2lite: error ("));
    QVERIFY2(human.err.contains(kind.toUtf8()), human.err.constData());
    QVERIFY(!human.out.contains("Saved to:"));
    if (!key.isEmpty())
        QVERIFY(!human.err.contains(key.toUtf8()) && !human.out.contains(key.toUtf8()));

    const Run json = run(api(args), env);
    QCOMPARE(json.exitCode, exitCode);
    QVERIFY2(json.jsonOk, json.out.constData());
    QCOMPARE(json.json.value(QStringLiteral("ok")).toBool(true), false);
    const QJsonObject error = json.json.value(QStringLiteral("error")).toObject();
    QCOMPARE(error.value(QStringLiteral("kind")).toString(), kind);
    QVERIFY(!error.value(QStringLiteral("message")).toString().isEmpty());
    QVERIFY(json.json.value(QStringLiteral("path")).isNull());
    QCOMPARE(int(QDir(m_out).entryList(QDir::Files).size()), before); // nothing saved
}

void tst_Cli::injectedFaults_data()
{
    QTest::addColumn<QStringList>("fakeArgs");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("kind"); // empty: success
    QTest::addColumn<int>("attempts");
    QTest::newRow("one 500, then fine") << QStringList {QStringLiteral("--fault"), QStringLiteral("server_error:1")}
                                        << 0 << QString() << 2;
    QTest::newRow("429 every time") << QStringList {QStringLiteral("--fault"), QStringLiteral("rate_limit:5"),
        QStringLiteral("--retry-after"), QStringLiteral("0")}
                                    << 7 << QStringLiteral("rate_limited") << 5;
    QTest::newRow("text-only refusal") << QStringList {QStringLiteral("--fault"), QStringLiteral("text_only")} << 14
                                       << QStringLiteral("no_image") << 1;
    // The cut answer still names its id: it is fetched with get (attempt 2), never created twice.
    QTest::newRow("truncated json") << QStringList {QStringLiteral("--fault"), QStringLiteral("truncated_json")} << 0
                                    << QString() << 2;
}

void tst_Cli::injectedFaults()
{
    QFETCH(QStringList, fakeArgs);
    QFETCH(int, exitCode);
    QFETCH(QString, kind);
    QFETCH(int, attempts);
    FakeProcess faulty;
    const QString error = faulty.start(fakeArgs);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QStringList base {QStringLiteral("--base-url"), faulty.baseUrl(), QStringLiteral("--out"), m_out};
    const QStringList cmd {QStringLiteral("generate"), QStringLiteral("a fox")};

    const Run json = run(base + QStringList {QStringLiteral("--json")} + cmd);
    QCOMPARE(json.exitCode, exitCode);
    QVERIFY2(json.jsonOk, json.out.constData());
    QCOMPARE(json.json.value(QStringLiteral("attempts")).toInt(), attempts);
    if (kind.isEmpty()) {
        QVERIFY(json.json.value(QStringLiteral("error")).isNull());
        // Human output mentions a retry (a retried create can be billed twice).
        faulty.stop();
        QVERIFY(faulty.start(fakeArgs).isEmpty());
        const Run human
            = run(QStringList {QStringLiteral("--base-url"), faulty.baseUrl(), QStringLiteral("--out"), m_out} + cmd);
        QCOMPARE(human.exitCode, 0);
        QVERIFY2(human.out.contains("Attempts: 2"), human.out.constData());
        return;
    }
    QCOMPARE(json.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("kind")).toString(), kind);
    if (kind == QLatin1String("no_image")) // the model's words are kept, not lost
        QVERIFY2(!json.json.value(QStringLiteral("text")).toString().isEmpty(), json.out.constData());
}

void tst_Cli::keyFromHomeFile()
{
    // ~/gemini.key (the seed's file) is used when no variable is set; doctor names the
    // source, shows at most the last four characters, and warns about loose permissions.
    const QString keyFile = m_dir.filePath(QStringLiteral("home/gemini.key"));
    QFile file(keyFile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(kKey.toUtf8() + '\n');
    file.close();
    QVERIFY(file.setPermissions(
        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
    const Run r = run({QStringLiteral("--base-url"), m_fake.baseUrl(), QStringLiteral("doctor")}, {}, {},
        {QStringLiteral("GEMINI_API_KEY")});
    QFile::remove(keyFile);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("gemini.key") && r.out.contains(kKey.right(4).toUtf8()), r.out.constData());
    QVERIFY2((r.out + r.err).contains("warning"), (r.out + r.err).constData());
}

void tst_Cli::unwritableOutputKeepsId()
{
    // The output "folder" is a file: saving fails with io (16), but the id of the server's
    // finished work is still reported so that `nb2lite get` can fetch it later.
    const Run r = run({QStringLiteral("--json"), QStringLiteral("--base-url"), m_fake.baseUrl(),
        QStringLiteral("--out"), m_notImage, QStringLiteral("generate"), QStringLiteral("a fox")});
    QCOMPARE(r.exitCode, 16);
    QCOMPARE(r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("kind")).toString(),
        QStringLiteral("io"));
    const QString id = r.json.value(QStringLiteral("interaction_id")).toString();
    QVERIFY2(!id.isEmpty(), r.out.constData());
    QVERIFY(r.json.value(QStringLiteral("path")).isNull());
    const Run got = run(api({QStringLiteral("get"), id}));
    QCOMPARE(got.exitCode, 0);
}

void tst_Cli::oversizedInputNeedsReencode()
{
    // 16 MB of noise as BMP: under 20 MB as a file, over it once base64-encoded.
    QImage noise(2600, 2100, QImage::Format_RGB888);
    quint32 state = 12345;
    for (int y = 0; y < noise.height(); ++y) {
        uchar *line = noise.scanLine(y);
        for (int x = 0; x < noise.width() * 3; ++x) {
            state = state * 1664525u + 1013904223u;
            line[x] = uchar(state >> 24);
        }
    }
    const QString big = m_dir.filePath(QStringLiteral("big.bmp"));
    QVERIFY(noise.save(big, "BMP"));
    QVERIFY(QFileInfo(big).size() > 16'000'000);
    const int before = int(QDir(m_out).entryList(QDir::Files).size());

    const Run refused = run(api({QStringLiteral("edit-local"), big, QStringLiteral("make it calm")}));
    QCOMPARE(refused.exitCode, 15);
    const QString message
        = refused.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
    QVERIFY2(
        message.contains(QStringLiteral("--reencode")) && message.contains(QStringLiteral("MB")), qPrintable(message));
    QCOMPARE(int(QDir(m_out).entryList(QDir::Files).size()), before);

    const Run reencoded
        = run(api({QStringLiteral("edit-local"), big, QStringLiteral("make it calm"), QStringLiteral("--reencode")}));
    QVERIFY(!checkSavedImage(reencoded, QStringLiteral("edit_local"), 5.0 / 4.0).isEmpty());
    QVERIFY2(reencoded.err.contains("re-encoded big.bmp"), reencoded.err.constData());
    QFile::remove(big);
}

void tst_Cli::insecureBaseUrlRefused()
{
    // Plain http to a non-loopback host is refused before any connection is made.
    const Run r = run({QStringLiteral("--json"), QStringLiteral("--base-url"), QStringLiteral("http://example.com"),
        QStringLiteral("generate"), QStringLiteral("x")});
    QCOMPARE(r.exitCode, 10);
    QCOMPARE(r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("kind")).toString(),
        QStringLiteral("tls"));
}

void tst_Cli::noKey()
{
    const Run r = run({QStringLiteral("--base-url"), m_fake.baseUrl(), QStringLiteral("generate"), QStringLiteral("x")},
        {}, {}, {QStringLiteral("GEMINI_API_KEY")});
    QCOMPARE(r.exitCode, 5);
    QVERIFY2(r.err.contains("GEMINI_API_KEY"), r.err.constData());
}

void tst_Cli::learnedThinkingLevels()
{
    // A server that only accepts minimal/high: the 400 names the allowed values, nb2lite shows
    // the server's words, remembers the set, and then validates against it locally.
    FakeProcess strict;
    const QString error = strict.start({QStringLiteral("--thinking-levels"), QStringLiteral("minimal,high")});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QTemporaryDir config;
    const QMap<QString, QString> env {{QStringLiteral("XDG_CONFIG_HOME"), config.path()}};
    const QStringList base {QStringLiteral("--base-url"), strict.baseUrl(), QStringLiteral("--out"), m_out};

    const Run rejected = run(base
            + QStringList {QStringLiteral("generate"), QStringLiteral("x"), QStringLiteral("--thinking"),
                QStringLiteral("low")},
        env);
    QCOMPARE(rejected.exitCode, 4);
    QVERIFY2(rejected.err.contains("Allowed values are: minimal, high"), rejected.err.constData());
    const QString levelsFile = config.filePath(QStringLiteral("NB2Lite/nb2lite-studio/thinking-levels.json"));
    QVERIFY2(QFileInfo::exists(levelsFile), qPrintable(levelsFile));
    QFile file(levelsFile);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray saved = file.readAll();
    QVERIFY2(saved.contains("minimal") && saved.contains(kModel.toUtf8()), saved.constData());

    // Now "low" is refused locally (no request), with the learned set in the message.
    const Run local = run(base
            + QStringList {QStringLiteral("--json"), QStringLiteral("generate"), QStringLiteral("x"),
                QStringLiteral("--thinking"), QStringLiteral("low")},
        env);
    QCOMPARE(local.exitCode, 3);
    QVERIFY2(local.json.value(QStringLiteral("error"))
                 .toObject()
                 .value(QStringLiteral("message"))
                 .toString()
                 .contains(QStringLiteral("minimal")),
        local.out.constData());

    // Without --thinking the default follows the learned set instead of repeating the 400.
    const Run fine
        = run(base + QStringList {QStringLiteral("--json"), QStringLiteral("generate"), QStringLiteral("x")}, env);
    QCOMPARE(fine.exitCode, 0);
    QVERIFY2(fine.err.contains("minimal"), fine.err.constData());

    // doctor shows the learned set.
    const Run doctor = run(base + QStringList {QStringLiteral("doctor")}, env);
    QCOMPARE(doctor.exitCode, 0);
    QVERIFY2(doctor.out.contains("minimal, high (learned"), doctor.out.constData());
}

void tst_Cli::doctorReportsConfiguration()
{
    const Run r = run(
        {QStringLiteral("--base-url"), m_fake.baseUrl(), QStringLiteral("--out"), m_out, QStringLiteral("doctor")});
    QCOMPARE(r.exitCode, 0);
    const QString out = QString::fromUtf8(r.out);
    for (const QString &needle : {QStringLiteral("GEMINI_API_KEY"), kKey.right(4), kModel, m_fake.baseUrl(),
             QStringLiteral("API version:"), QStringLiteral("v1"), m_out, QStringLiteral("low, high"),
             QStringLiteral("Connectivity:"), QStringLiteral("OK")})
        QVERIFY2(out.contains(needle), qPrintable(QStringLiteral("doctor output lacks '%1':\n%2").arg(needle, out)));
    QVERIFY(!out.contains(kKey.right(5))); // at most the last 4 characters

    const Run json = run({QStringLiteral("--base-url"), m_fake.baseUrl(), QStringLiteral("--json"),
        QStringLiteral("--api-version"), QStringLiteral("v1beta"), QStringLiteral("doctor")});
    QCOMPARE(json.exitCode, 0);
    QVERIFY2(json.jsonOk, json.out.constData());
    QCOMPARE(json.json.value(QStringLiteral("api_version")).toString(), QStringLiteral("v1beta"));
    QCOMPARE(json.json.value(QStringLiteral("key")).toObject().value(QStringLiteral("source")).toString(),
        QStringLiteral("GEMINI_API_KEY"));
    QVERIFY(json.json.value(QStringLiteral("connectivity")).toObject().value(QStringLiteral("ok")).toBool());
}

void tst_Cli::doctorFailures_data()
{
    QTest::addColumn<QString>("baseUrl"); // "FAKE": the running fake; "CLOSED": a port nobody listens on
    QTest::addColumn<QString>("key");     // "-": unset
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("needle");
    QTest::newRow("no key") << QStringLiteral("FAKE") << QStringLiteral("-") << 5 << QStringLiteral("NOT SET");
    QTest::newRow("wrong key") << QStringLiteral("FAKE") << QStringLiteral("wrong-key-0123456789") << 5
                               << QStringLiteral("refused the key");
    QTest::newRow("unreachable") << QStringLiteral("CLOSED") << QString() << 9 << QStringLiteral("not reachable");
}

void tst_Cli::doctorFailures()
{
    QFETCH(QString, baseUrl);
    QFETCH(QString, key);
    QFETCH(int, exitCode);
    QFETCH(QString, needle);
    if (baseUrl == QLatin1String("FAKE")) {
        baseUrl = m_fake.baseUrl();
    } else {
        FakeProcess closed; // start and stop: its port is now (almost certainly) free
        QVERIFY(closed.start().isEmpty());
        baseUrl = closed.baseUrl();
        closed.stop();
    }
    QMap<QString, QString> env;
    QStringList unset;
    if (key == QLatin1String("-"))
        unset << QStringLiteral("GEMINI_API_KEY");
    else if (!key.isEmpty())
        env.insert(QStringLiteral("GEMINI_API_KEY"), key);
    const Run r = run({QStringLiteral("--base-url"), baseUrl, QStringLiteral("doctor")}, env, {}, unset);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.out.contains(needle.toUtf8()), r.out.constData());
    if (!key.isEmpty() && key != QLatin1String("-"))
        QVERIFY(!r.out.contains(key.toUtf8()) && !r.err.contains(key.toUtf8()));
}

void tst_Cli::demoBackend()
{
    // No key at all: --demo brings its own fake server and key.
    QTemporaryDir out;
    const Run gen = run(
        {QStringLiteral("--demo"), QStringLiteral("--json"), QStringLiteral("--out"), out.path(),
            QStringLiteral("generate"), QStringLiteral("a banana"), QStringLiteral("--aspect"), QStringLiteral("9:16")},
        {}, {}, {QStringLiteral("GEMINI_API_KEY")});
    QVERIFY(!checkSavedImage(gen, QStringLiteral("gen"), 9.0 / 16.0).isEmpty());

    const Run local = run({QStringLiteral("edit-local"), m_portrait, QStringLiteral("x"), QStringLiteral("--style"),
        m_style, QStringLiteral("--demo"), QStringLiteral("--demo-latency"), QStringLiteral("50"),
        QStringLiteral("--json"), QStringLiteral("--out"), out.path()});
    QVERIFY(!checkSavedImage(local, QStringLiteral("style_edit"), 3.0 / 4.0).isEmpty());

    const Run doctor
        = run({QStringLiteral("--demo"), QStringLiteral("doctor")}, {}, {}, {QStringLiteral("GEMINI_API_KEY")});
    QCOMPARE(doctor.exitCode, 0);
    QVERIFY2(doctor.out.contains("demo"), doctor.out.constData());
}

void tst_Cli::streamProgress()
{
    const Run r = run(api({QStringLiteral("--stream"), QStringLiteral("generate"), QStringLiteral("a streamed fox")}));
    QVERIFY(!checkSavedImage(r, QStringLiteral("gen"), 1.0).isEmpty());
    QVERIFY2(
        r.err.contains("stream: interaction id " + r.json.value(QStringLiteral("interaction_id")).toString().toUtf8()),
        r.err.constData());
}

void tst_Cli::terminateCancels()
{
    // SIGTERM during a slow call ends it as "cancelled" (exit 12) instead of killing the process.
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("GEMINI_API_KEY"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("home/.config")));
    process.setProcessEnvironment(env);
    process.start(cliPath(),
        {QStringLiteral("--demo"), QStringLiteral("--demo-latency"), QStringLiteral("20000"), QStringLiteral("--json"),
            QStringLiteral("--out"), m_out, QStringLiteral("generate"), QStringLiteral("slow")});
    QVERIFY(process.waitForStarted(10'000));
    // nb2lite blocks SIGTERM for its handler first thing in main(); before main() nothing can
    // handle a signal, so wait for that, then let it reach the request (an earlier signal after
    // that point is also a clean cancel).
    QElapsedTimer handlerWait;
    handlerWait.start();
    bool handlerReady = false;
    while (!handlerReady && handlerWait.elapsed() < 20'000) {
        QFile status(QStringLiteral("/proc/%1/status").arg(process.processId()));
        if (status.open(QIODevice::ReadOnly)) {
            const QByteArray text = status.readAll();
            const qsizetype at = text.indexOf("SigBlk:");
            const QByteArray mask = at < 0 ? QByteArray() : text.mid(at + 7, text.indexOf('\n', at) - at - 7).trimmed();
            handlerReady = (mask.toULongLong(nullptr, 16) >> (15 - 1)) & 1u; // SIGTERM
        }
        if (!handlerReady)
            QTest::qWait(20);
    }
    QVERIFY2(handlerReady, "nb2lite never blocked SIGTERM for its handler");
    QTest::qWait(700);
    process.terminate();
    QVERIFY(process.waitForFinished(10'000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    const QByteArray out = process.readAllStandardOutput();
    QCOMPARE(process.exitCode(), 12);
    QVERIFY2(out.contains("\"cancelled\""), out.constData());
}

QTEST_GUILESS_MAIN(tst_Cli)
#include "tst_cli.moc"
