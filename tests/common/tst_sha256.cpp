// nb2::sha256 (core/common/sha256.h): libcrypto's digest, opened on first use rather than linked,
// gives the same bytes as QCryptographicHash and the published test vectors.
#include "core/common/sha256.h"

#include <QCryptographicHash>
#include <QFile>
#include <QRandomGenerator>
#include <QTest>

using namespace nb2;

class tst_Sha256 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void libcryptoIsOpenedOnFirstUseNotLinked()
    {
        // This test links Qt Core only: libcrypto comes in with the first digest.
        const auto mapped = [] {
            QFile maps(QStringLiteral("/proc/self/maps"));
            return maps.open(QIODevice::ReadOnly) && maps.readAll().contains("libcrypto.so");
        };
        QVERIFY(!mapped());
        QCOMPARE(sha256(QByteArrayLiteral("abc")).toHex(),
            QByteArrayLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")); // FIPS 180-2
        QVERIFY(sha256UsesLibcrypto()); // libssl3 is a dependency of the package
        QVERIFY(mapped());
    }

    void matchesQtsDigest_data()
    {
        QTest::addColumn<int>("size");
        for (int size : {0, 1, 55, 56, 64, 1000, 1 << 20, (1 << 20) + 7})
            QTest::addRow("%d bytes", size) << size;
    }

    void matchesQtsDigest()
    {
        QFETCH(int, size);
        QByteArray bytes(size, Qt::Uninitialized);
        for (char &c : bytes)
            c = char(QRandomGenerator::global()->bounded(256));
        const QByteArray digest = sha256(bytes);
        QCOMPARE(digest.size(), 32);
        QCOMPARE(digest, QCryptographicHash::hash(bytes, QCryptographicHash::Sha256));
    }
};

QTEST_GUILESS_MAIN(tst_Sha256)
#include "tst_sha256.moc"
