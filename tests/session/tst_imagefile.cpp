#include "core/session/sessionstore.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace nb2;

/** What a turn does with the image it got: the file and the digest frames record. */
class tst_ImageFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sha256MatchesTheStandard()
    {
        // FIPS 180-2 test vectors, and a 1 MB buffer against Qt's implementation.
        QCOMPARE(SessionStore::sha256Hex(QByteArray("abc")),
            QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(SessionStore::sha256Hex(QByteArray()),
            QStringLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        QByteArray big(1024 * 1024 + 17, Qt::Uninitialized);
        QRandomGenerator rng(42);
        for (char &c : big)
            c = char(rng.bounded(256));
        QCOMPARE(SessionStore::sha256Hex(big),
            QString::fromLatin1(QCryptographicHash::hash(big, QCryptographicHash::Sha256).toHex()));
    }

    void writtenImageIsWholeAndNamedByItsDigest()
    {
        QTemporaryDir dir;
        QImage img(64, 48, QImage::Format_RGB32);
        img.fill(Qt::darkCyan);
        QByteArray jpeg;
        {
            QBuffer buf(&jpeg);
            buf.open(QIODevice::WriteOnly);
            QVERIFY(img.save(&buf, "JPEG"));
        }
        const Result<FrameImage> written
            = SessionStore::writeImageFile(dir.path(), QStringLiteral("images/gen_1_abcdef12.jpg"), jpeg);
        QVERIFY2(written, written ? "" : qPrintable(written.error().message));
        QFile f(dir.filePath(QStringLiteral("images/gen_1_abcdef12.jpg")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), jpeg);
        QCOMPARE(written.value().sha256,
            QString::fromLatin1(QCryptographicHash::hash(jpeg, QCryptographicHash::Sha256).toHex()));
        QCOMPARE(written.value().width, 64);
        QCOMPARE(written.value().height, 48);
        // No temporary file is left beside it.
        QCOMPARE(QDir(dir.filePath(QStringLiteral("images"))).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }

    void failedWriteReturnsAnErrorAndLeavesNoTemporary()
    {
        // The digest and header are read on another thread while the file is written: a write
        // that fails after that thread started (here the rename, onto a folder in the way)
        // still returns the error, with the thread joined and the temporary removed.
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("images/taken.jpg/inside")));
        QImage img(32, 32, QImage::Format_RGB32);
        img.fill(Qt::darkRed);
        QByteArray jpeg;
        {
            QBuffer buf(&jpeg);
            buf.open(QIODevice::WriteOnly);
            QVERIFY(img.save(&buf, "JPEG"));
        }
        for (int i = 0; i < 20; ++i) {
            const Result<FrameImage> written
                = SessionStore::writeImageFile(dir.path(), QStringLiteral("images/taken.jpg"), jpeg);
            QVERIFY(!written);
            QCOMPARE(int(written.error().kind), int(ErrorKind::Io));
            QVERIFY(written.error().message.contains(QLatin1String("cannot move the image into place")));
        }
        QCOMPARE(QDir(dir.filePath(QStringLiteral("images")))
                     .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
            QStringList {QStringLiteral("taken.jpg")});
    }
};

QTEST_GUILESS_MAIN(tst_ImageFile)
#include "tst_imagefile.moc"
