// End-to-end tests of the nb2lite binary when things go wrong: the exit code of every error
// kind, faults the fake server injects, where the key comes from (and its absence), an
// unwritable output folder, an insecure base URL, and doctor's report. Every run is scanned
// for the API key. The working commands: tst_cli.cpp.
#include "clifixture.h"

using namespace clitest;

class tst_CliErrors : public CliFixture
{
    Q_OBJECT

private Q_SLOTS: // initTestCase, cleanupTestCase and cleanup: CliFixture
    void errorExitCodes_data();
    void errorExitCodes();
    void injectedFaults_data();
    void injectedFaults();
    void keyFromHomeFile();
    void unwritableOutputKeepsId();
    void insecureBaseUrlRefused();
    void noKey();
    void doctorReportsConfiguration();
    void doctorFailures_data();
    void doctorFailures();
};

void tst_CliErrors::errorExitCodes_data()
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

void tst_CliErrors::errorExitCodes()
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

void tst_CliErrors::injectedFaults_data()
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

void tst_CliErrors::injectedFaults()
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

void tst_CliErrors::keyFromHomeFile()
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

void tst_CliErrors::unwritableOutputKeepsId()
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

void tst_CliErrors::insecureBaseUrlRefused()
{
    // Plain http to a non-loopback host is refused before any connection is made.
    const Run r = run({QStringLiteral("--json"), QStringLiteral("--base-url"), QStringLiteral("http://example.com"),
        QStringLiteral("generate"), QStringLiteral("x")});
    QCOMPARE(r.exitCode, 10);
    QCOMPARE(r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("kind")).toString(),
        QStringLiteral("tls"));
}

void tst_CliErrors::noKey()
{
    const Run r = run({QStringLiteral("--base-url"), m_fake.baseUrl(), QStringLiteral("generate"), QStringLiteral("x")},
        {}, {}, {QStringLiteral("GEMINI_API_KEY")});
    QCOMPARE(r.exitCode, 5);
    QVERIFY2(r.err.contains("GEMINI_API_KEY"), r.err.constData());
}

void tst_CliErrors::doctorReportsConfiguration()
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

void tst_CliErrors::doctorFailures_data()
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

void tst_CliErrors::doctorFailures()
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

QTEST_GUILESS_MAIN(tst_CliErrors)
#include "tst_clierrors.moc"
