#include "keystorerun.h"
#include "ui/keystore.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using nb2::KeyStore;

class tst_KeyStore : public QObject
{
    Q_OBJECT

private:
    static int modeOf(const QString &path)
    {
        struct stat st {
        };
        if (::stat(QFile::encodeName(path).constData(), &st) != 0)
            return -1;
        return int(st.st_mode & 0777);
    }
    static KeyStore::Result run(KeyStore &store, const std::function<void()> &start)
    {
        return nb2::testing::runKeyStore(store, start);
    }

private Q_SLOTS:
    void fileWriteIsPrivateAndReadsBack()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("gemini.key"));
        const auto w = KeyStore::writeFile(path, QStringLiteral("AIza-secret-1234"));
        QVERIFY2(w.ok, qPrintable(w.error));
        QCOMPARE(modeOf(path), 0600);
        const auto r = KeyStore::readFile(path);
        QVERIFY(r.ok);
        QVERIFY(r.found);
        QCOMPARE(r.key, QStringLiteral("AIza-secret-1234"));
        QVERIFY(r.warning.isEmpty());
        // No temporary files left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList {QStringLiteral("gemini.key")});
    }

    void overwritingAReadableFileMakesItPrivate()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("gemini.key"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("old-key\n");
        f.close();
        QVERIFY(::chmod(QFile::encodeName(path).constData(), 0644) == 0);
        const auto before = KeyStore::readFile(path);
        QVERIFY(!before.warning.isEmpty()); // readable by others: say so
        QVERIFY(KeyStore::writeFile(path, QStringLiteral("new-key")).ok);
        QCOMPARE(modeOf(path), 0600);
        QCOMPARE(KeyStore::readFile(path).key, QStringLiteral("new-key"));
    }

    void missingFileIsNotAnError()
    {
        QTemporaryDir dir;
        const auto r = KeyStore::readFile(dir.filePath(QStringLiteral("none.key")));
        QVERIFY(r.ok);
        QVERIFY(!r.found);
    }

    void unwritableDirectoryFails()
    {
        const auto r = KeyStore::writeFile(QStringLiteral("/proc/nb2-no-such-dir/gemini.key"), QStringLiteral("k"));
        QVERIFY(!r.ok);
        QVERIFY(!r.error.isEmpty());
        QVERIFY(!r.error.contains(QLatin1String("k\n")));
    }

    void asyncFileBackend()
    {
        QTemporaryDir dir;
        KeyStore store;
        store.setKeychainEnabled(false);
        store.setFilePath(dir.filePath(QStringLiteral("gemini.key")));

        int id = 0;
        auto r = run(store, [&] { id = store.read(); });
        QVERIFY(r.ok);
        QVERIFY(!r.found);
        QVERIFY(id > 0);
        QCOMPARE(r.requestId, id);

        r = run(store, [&] { store.write(QStringLiteral("  key-with-spaces-around  ")); });
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.backend, KeyStore::Backend::File);
        QCOMPARE(r.operation, KeyStore::Operation::Write);
        QCOMPARE(modeOf(store.filePath()), 0600);

        r = run(store, [&] { store.read(); });
        QVERIFY(r.found);
        QCOMPARE(r.key, QStringLiteral("key-with-spaces-around"));
        QCOMPARE(r.backend, KeyStore::Backend::File);

        r = run(store, [&] { store.write(QString()); });
        QVERIFY(!r.ok); // an empty key is refused, not written
        QVERIFY(QFile::exists(store.filePath()));

        r = run(store, [&] { store.remove(); });
        QVERIFY(r.ok);
        QVERIFY(!QFile::exists(store.filePath()));
    }

    void keychainFailureFallsBackToFile()
    {
        // This machine runs no Secret Service: the keychain must fail (or time out) and the
        // file must take the key. Where a keychain does work, it must say so instead.
        QTemporaryDir dir;
        KeyStore store;
        store.setKeychainTimeoutMs(2000);
        store.setKeychainKey(QStringLiteral("nb2lite-test-%1").arg(QCoreApplication::applicationPid()));
        store.setFilePath(dir.filePath(QStringLiteral("gemini.key")));

        QElapsedTimer t;
        t.start();
        auto r = run(store, [&] { store.write(QStringLiteral("fallback-key-9876")); });
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(t.elapsed() < 10000);
        if (r.backend == KeyStore::Backend::Keychain) {
            QVERIFY(r.keychainAvailable);
            QVERIFY(!QFile::exists(store.filePath()));
            run(store, [&] { store.remove(); });
            QSKIP("a desktop keychain is available here; the fallback was not needed");
        }
        QCOMPARE(r.backend, KeyStore::Backend::File);
        QVERIFY(!r.keychainAvailable);
        QVERIFY(!r.keychainError.isEmpty());
        QCOMPARE(modeOf(store.filePath()), 0600);

        r = run(store, [&] { store.read(); });
        QVERIFY(r.found);
        QCOMPARE(r.key, QStringLiteral("fallback-key-9876"));
        QCOMPARE(r.backend, KeyStore::Backend::File);

        r = run(store, [&] { store.remove(); });
        QVERIFY(r.ok);
        QVERIFY(!QFile::exists(store.filePath()));
    }
};

QTEST_MAIN(tst_KeyStore)
#include "tst_keystore.moc"
