// The standalone nb2lite-fakeapi process: its one listening line, its flags, the control
// endpoint over HTTP, and a clean exit on SIGTERM/SIGINT.
#include "tests/testpaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

#include <httplib.h>

#include <csignal>

namespace {

const QByteArray kCreate = R"({"model":"gemini-3.1-flash-lite-image","input":"a red fox in snow",)"
                           R"("response_format":{"type":"image","aspect_ratio":"16:9"},)"
                           R"("generation_config":{"thinking_level":"low"},"store":true})";

} // namespace

class tst_FakeApiBinary : public QObject
{
    Q_OBJECT

private:
    /** Starts the binary and returns its port (0 on failure). */
    quint16 launch(QProcess &proc, const QStringList &args)
    {
        proc.setProgram(nb2test::fakeApiProgram());
        proc.setArguments(QStringList {QStringLiteral("--port"), QStringLiteral("0")} + args);
        proc.start();
        if (!proc.waitForStarted(10000))
            return 0;
        QElapsedTimer t;
        t.start();
        while (!proc.canReadLine() && t.elapsed() < 15000 && proc.state() == QProcess::Running)
            proc.waitForReadyRead(200);
        const QString line = QString::fromUtf8(proc.readLine());
        const QRegularExpression re(QStringLiteral("^listening on http://127\\.0\\.0\\.1:(\\d+)\\n$"));
        const auto m = re.match(line);
        if (!m.hasMatch()) {
            qWarning("unexpected first line: %s", qPrintable(line));
            return 0;
        }
        return quint16(m.captured(1).toUInt());
    }

    static int post(quint16 port, const char *path, const QByteArray &body, const char *key, std::string *out = nullptr)
    {
        httplib::Client cli("127.0.0.1", port);
        cli.set_read_timeout(30, 0);
        httplib::Headers h;
        if (key)
            h.emplace("x-goog-api-key", key);
        auto res = cli.Post(path, h, body.toStdString(), "application/json");
        if (out && res)
            *out = res->body;
        return res ? res->status : -1;
    }

private Q_SLOTS:
    void printsOneLineServesAndExitsOnSigterm()
    {
        QProcess proc;
        const quint16 port = launch(proc, {QStringLiteral("--key"), QStringLiteral("secret-k")});
        QVERIFY(port > 0);
        std::string body;
        QCOMPARE(post(port, "/v1/interactions", kCreate, "secret-k", &body), 200);
        QVERIFY(QJsonDocument::fromJson(QByteArray::fromStdString(body))
                    .object()
                    .value(QStringLiteral("id"))
                    .toString()
                    .startsWith(QLatin1String("v1_")));
        QCOMPARE(post(port, "/v1/interactions", kCreate, "test-key"), 400); // only --key is accepted

        QElapsedTimer t;
        t.start();
        proc.terminate(); // SIGTERM
        QVERIFY(proc.waitForFinished(5000));
        qInfo("exit after SIGTERM took %lld ms", t.elapsed());
        QCOMPARE(proc.exitStatus(), QProcess::NormalExit);
        QCOMPARE(proc.exitCode(), 0);
        QCOMPARE(proc.readAllStandardOutput(), QByteArray()); // exactly one line in total
        const QByteArray err = proc.readAllStandardError();
        QVERIFY2(!err.contains("secret-k"), err.constData()); // the key is never printed
    }

    void flagsAndControlEndpoint()
    {
        QProcess proc;
        const quint16 port = launch(proc,
            {QStringLiteral("--fault"), QStringLiteral("rate_limit:2"), QStringLiteral("--retry-after"),
                QStringLiteral("4"), QStringLiteral("--thinking-levels"), QStringLiteral("minimal,high")});
        QVERIFY(port > 0);
        QCOMPARE(post(port, "/v1/interactions", kCreate, "test-key"), 429);
        QCOMPARE(post(port, "/v1/interactions", kCreate, "test-key"), 429);
        std::string body;
        QCOMPARE(post(port, "/v1/interactions", kCreate, "test-key", &body), 400); // low not allowed
        QVERIFY(QByteArray::fromStdString(body).contains("Allowed values are: minimal, high."));

        QCOMPARE(
            post(port, "/_fake/control", R"({"thinking_levels":["low","high"],"fault":"server_error"})", nullptr), 200);
        QCOMPARE(post(port, "/v1beta/interactions", kCreate, "test-key"), 500);
        QCOMPARE(post(port, "/v1beta/interactions", kCreate, "test-key"), 200);

        httplib::Client cli("127.0.0.1", port);
        auto log = cli.Get("/_fake/requests");
        QVERIFY(log);
        const QJsonArray entries = QJsonDocument::fromJson(QByteArray::fromStdString(log->body)).array();
        QCOMPARE(entries.size(), 5);
        QCOMPARE(entries.last()[QStringLiteral("path")].toString(), QStringLiteral("/v1beta/interactions"));
        QCOMPARE(entries.last()[QStringLiteral("body")].toObject(), QJsonDocument::fromJson(kCreate).object());

        ::kill(pid_t(proc.processId()), SIGINT);
        QVERIFY(proc.waitForFinished(5000));
        QCOMPARE(proc.exitStatus(), QProcess::NormalExit);
        QCOMPARE(proc.exitCode(), 0);
    }

    void exitsPromptlyDuringSlowResponse()
    {
        QProcess proc;
        const quint16 port = launch(proc, {QStringLiteral("--latency"), QStringLiteral("30000")});
        QVERIFY(port > 0);
        std::thread client([port] { post(port, "/v1/interactions", kCreate, "test-key"); });
        QTest::qWait(300); // request in flight
        QElapsedTimer t;
        t.start();
        proc.terminate();
        QVERIFY(proc.waitForFinished(5000));
        const qint64 ms = t.elapsed();
        client.join();
        QCOMPARE(proc.exitCode(), 0);
        QVERIFY2(ms < 2000, qPrintable(QString::number(ms)));
    }

    void badArgumentsFail_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("bad fault") << QStringList {QStringLiteral("--fault"), QStringLiteral("explode")};
        QTest::newRow("bad count") << QStringList {QStringLiteral("--fault"), QStringLiteral("rate_limit:x")};
        QTest::newRow("bad latency") << QStringList {QStringLiteral("--latency"), QStringLiteral("-5")};
        QTest::newRow("bad wording") << QStringList {QStringLiteral("--thinking-error"), QStringLiteral("rude")};
        QTest::newRow("stray arg") << QStringList {QStringLiteral("extra")};
    }
    void badArgumentsFail()
    {
        QFETCH(QStringList, args);
        QProcess proc;
        proc.start(nb2test::fakeApiProgram(), QStringList {QStringLiteral("--port"), QStringLiteral("0")} + args);
        QVERIFY(proc.waitForFinished(10000));
        QCOMPARE(proc.exitCode(), 2);
        QVERIFY(proc.readAllStandardOutput().isEmpty());
        QVERIFY(!proc.readAllStandardError().isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_FakeApiBinary)
#include "tst_fakeapibinary.moc"
