// What every test of the nb2lite binary starts from (tst_cli and tst_clierrors): the binary and
// nb2lite-fakeapi as processes on an ephemeral loopback port, fixture pictures, a private HOME,
// run() that scans every output for the API key (a leak fails the test in cleanup()), and the
// --json contract of a saved image.
#pragma once

#include "tests/testpaths.h"

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
#include <utility>

namespace clitest {

inline const QString kKey = QStringLiteral("nb2-SECRET-cli-key-7f3a9c1e5b2d");
inline const QString kModel = QStringLiteral("gemini-3.1-flash-lite-image");

inline QString cliPath()
{
    return nb2test::cliProgram();
}
inline QString fakePath()
{
    return nb2test::fakeApiProgram();
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

// Checks the --json contract of a successful image command and returns the saved path.
inline QString checkSavedImage(const Run &r, const QString &prefix, double ratio)
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

/** The base of the CLI test classes; QtTest runs its initTestCase, cleanupTestCase and cleanup slots. */
class CliFixture : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();

protected:
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

inline void CliFixture::initTestCase()
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

inline void CliFixture::cleanupTestCase()
{
    m_fake.stop();
}

inline void CliFixture::cleanup()
{
    const QStringList leaks = std::exchange(m_keyLeaks, {});
    QVERIFY2(leaks.isEmpty(),
        qPrintable(QStringLiteral("the API key appeared in the output of: ") + leaks.join(QStringLiteral(" | "))));
}

inline QString CliFixture::makeImage(const QString &name, int width, int height, const char *format)
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

inline QStringList CliFixture::api(const QStringList &args) const
{
    return QStringList {
               QStringLiteral("--base-url"), m_fake.baseUrl(), QStringLiteral("--json"), QStringLiteral("--out"), m_out}
    + args;
}

inline Run CliFixture::run(
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

} // namespace clitest
