#include "core/api/apikey.h"
#include "core/api/clientconfig.h"
#include "core/common/error.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace nb2;

class tst_ApiKey : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lookupOrder_data();
    void lookupOrder();
    void keyFilePermissionWarning();
    void masked_data();
    void masked();
    void configDefaults();
    void transportSecurity_data();
    void transportSecurity();
    void errorKindNames();
};

static void writeKeyFile(const QString &home, const QByteArray &content, QFileDevice::Permissions perms)
{
    QFile f(home + QStringLiteral("/gemini.key"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
    f.close();
    QVERIFY(f.setPermissions(perms));
}

void tst_ApiKey::lookupOrder_data()
{
    QTest::addColumn<QString>("gemini");
    QTest::addColumn<QString>("google");
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("source");

    QTest::newRow("gemini wins") << "g-key"
                                 << "o-key" << QByteArray("f-key\n") << "g-key"
                                 << "GEMINI_API_KEY";
    QTest::newRow("google next") << ""
                                 << "o-key" << QByteArray("f-key\n") << "o-key"
                                 << "GOOGLE_API_KEY";
    QTest::newRow("blank env ignored") << "   "
                                       << "" << QByteArray("f-key\n") << "f-key"
                                       << "~/gemini.key";
    QTest::newRow("file first line trimmed") << ""
                                             << "" << QByteArray("  f-key-123 \r\nsecond line\n") << "f-key-123"
                                             << "~/gemini.key";
    QTest::newRow("env trimmed") << " g-key\n"
                                 << "" << QByteArray() << "g-key"
                                 << "GEMINI_API_KEY";
    QTest::newRow("nothing") << ""
                             << "" << QByteArray() << ""
                             << "";
    QTest::newRow("empty file") << ""
                                << "" << QByteArray("\n") << ""
                                << "";
}

void tst_ApiKey::lookupOrder()
{
    QFETCH(QString, gemini);
    QFETCH(QString, google);
    QFETCH(QByteArray, file);
    QFETCH(QString, value);
    QFETCH(QString, source);

    QTemporaryDir home;
    if (!file.isNull())
        writeKeyFile(home.path(), file, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    QProcessEnvironment env;
    if (!gemini.isEmpty())
        env.insert(QStringLiteral("GEMINI_API_KEY"), gemini);
    if (!google.isEmpty())
        env.insert(QStringLiteral("GOOGLE_API_KEY"), google);
    const ApiKey key = lookupApiKey(env, home.path());
    QCOMPARE(key.value(), value);
    QCOMPARE(key.source(), source);
    QCOMPARE(key.isEmpty(), value.isEmpty());
    QVERIFY(key.warning().isEmpty());
}

void tst_ApiKey::keyFilePermissionWarning()
{
    QTemporaryDir home;
    writeKeyFile(home.path(), "secret-key-value\n",
        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther);
    ApiKey key = lookupApiKey(QProcessEnvironment(), home.path());
    QCOMPARE(key.value(), QStringLiteral("secret-key-value"));
    QVERIFY(key.warning().contains(QLatin1String("chmod 600")));
    QVERIFY(!key.warning().contains(key.value()));

    writeKeyFile(home.path(), "secret-key-value\n", QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    key = lookupApiKey(QProcessEnvironment(), home.path());
    QVERIFY(key.warning().isEmpty());
}

void tst_ApiKey::masked_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("masked");
    QTest::newRow("long") << "AIzaSyABCDEFGHIJKLMNOP1234" << QStringLiteral("\u20261234");
    QTest::newRow("short") << "abcdef" << QStringLiteral("\u2026ef");
    QTest::newRow("tiny") << "ab" << QStringLiteral("\u2026");
    QTest::newRow("empty") << ""
                           << "";
}

void tst_ApiKey::masked()
{
    QFETCH(QString, value);
    QFETCH(QString, masked);
    const ApiKey key(value, QStringLiteral("test"));
    QCOMPARE(key.masked(), masked);
    QVERIFY(key.masked().size() <= 5);
}

void tst_ApiKey::configDefaults()
{
    // Where flags, environment and settings override these: tests/common/tst_appsettings.cpp.
    const ClientConfig c;
    QCOMPARE(c.baseUrl, QStringLiteral("https://generativelanguage.googleapis.com"));
    QCOMPARE(c.model, QStringLiteral("gemini-3.1-flash-lite-image"));
    QCOMPARE(c.apiVersion, QStringLiteral("v1"));
    QCOMPARE(c.connectTimeoutMs, 10000);
    QCOMPARE(c.readTimeoutMs, 120000);
    QCOMPARE(c.maxRetries, 4);
    QVERIFY(c.apiKey.isEmpty());
}

void tst_ApiKey::transportSecurity_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("allowed");
    QTest::newRow("https") << "https://generativelanguage.googleapis.com" << true;
    QTest::newRow("https any") << "https://10.1.2.3:8443/prefix" << true;
    QTest::newRow("http 127.0.0.1") << "http://127.0.0.1:8080" << true;
    QTest::newRow("http 127.5.6.7") << "http://127.5.6.7" << true;
    QTest::newRow("http localhost") << "http://localhost:1234/x" << true;
    QTest::newRow("http LOCALHOST") << "http://LOCALHOST:1234" << true;
    QTest::newRow("http ::1") << "http://[::1]:8080" << true;
    QTest::newRow("http lan") << "http://192.168.1.5:8080" << false;
    QTest::newRow("http remote") << "http://generativelanguage.googleapis.com" << false;
    QTest::newRow("http 128.0.0.1") << "http://128.0.0.1" << false;
    QTest::newRow("http localhost.evil") << "http://localhost.evil.com" << false;
    QTest::newRow("http 127 prefix trick") << "http://127.0.0.1.evil.com" << false;
    QTest::newRow("ftp") << "ftp://127.0.0.1" << false;
    QTest::newRow("garbage") << "not a url" << false;
}

void tst_ApiKey::transportSecurity()
{
    QFETCH(QString, url);
    QFETCH(bool, allowed);
    const Result<void> secure = checkTransportSecurity(url);
    QCOMPARE(secure.ok(), allowed);
    if (!allowed) {
        QCOMPARE(secure.error().kind, ErrorKind::Tls);
        QVERIFY(!secure.error().message.isEmpty());
    }
}

void tst_ApiKey::errorKindNames()
{
    for (int k = int(ErrorKind::None); k <= int(ErrorKind::Io); ++k) {
        const QString name = errorKindName(ErrorKind(k));
        QVERIFY(!name.isEmpty());
        QCOMPARE(int(errorKindFromName(name)), k);
    }
    QCOMPARE(errorKindName(ErrorKind::NoImage), QStringLiteral("no_image"));
    QCOMPARE(errorKindFromName(QStringLiteral("bogus")), ErrorKind::None);
}

QTEST_GUILESS_MAIN(tst_ApiKey)
#include "tst_apikey.moc"
