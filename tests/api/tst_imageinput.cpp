#include "core/api/imageinput.h"

#include "testutil.h"

#include <QBuffer>
#include <QImage>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace nb2;

class tst_ImageInput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sniff_data();
    void sniff();
    void extensionForMimeType_data();
    void extensionForMimeType();
    void aspectRatios();
    void nearest_data();
    void nearest();
    void loadGood();
    void loadErrors_data();
    void loadErrors();
    void unreadableFile();
    void tooLargeAndReencode();
    void fromBytes();
};

void tst_ImageInput::sniff_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("mime");
    QTest::newRow("png") << apiFixture(QStringLiteral("blue.png")) << "image/png";
    QTest::newRow("jpeg") << apiFixture(QStringLiteral("red.jpg")) << "image/jpeg";
    QTest::newRow("webp") << QByteArray("RIFF\x10\0\0\0WEBPVP8 ", 16) << "image/webp";
    QTest::newRow("gif") << QByteArray("GIF89a\x01\0\x01\0", 10) << "image/gif";
    QTest::newRow("bmp") << QByteArray("BM\x3a\0\0\0\0\0\0\0\x36\0\0\0", 14) << "image/bmp";
    QTest::newRow("tiff le") << QByteArray("II*\0\x08\0\0\0", 8) << "image/tiff";
    QTest::newRow("tiff be") << QByteArray("MM\0*\0\0\0\x08", 8) << "image/tiff";
    QTest::newRow("heic") << QByteArray("\0\0\0\x18"
                                        "ftypheic\0\0\0\0",
        16) << "image/heic";
    QTest::newRow("heif") << QByteArray("\0\0\0\x18"
                                        "ftypmif1\0\0\0\0",
        16) << "image/heif";
    QTest::newRow("png named jpg is png") << apiFixture(QStringLiteral("blue.png")) << "image/png";
    QTest::newRow("text") << QByteArray("hello, not an image") << "";
    QTest::newRow("riff wave") << QByteArray("RIFF\x10\0\0\0WAVEfmt ", 16) << "";
    QTest::newRow("empty") << QByteArray() << "";
    QTest::newRow("truncated png sig") << QByteArray("\x89PN") << "";
}

void tst_ImageInput::sniff()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, mime);
    QCOMPARE(sniffImageMimeType(bytes), mime);
}

void tst_ImageInput::aspectRatios()
{
    const QStringList expected = {QStringLiteral("1:1"), QStringLiteral("3:2"), QStringLiteral("2:3"),
        QStringLiteral("3:4"), QStringLiteral("4:3"), QStringLiteral("4:5"), QStringLiteral("5:4"),
        QStringLiteral("9:16"), QStringLiteral("16:9"), QStringLiteral("21:9")};
    QCOMPARE(supportedAspectRatios(), expected);
}

void tst_ImageInput::nearest_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("ratio");
    QTest::newRow("square") << QSize(512, 512) << "1:1";
    QTest::newRow("full hd") << QSize(1920, 1080) << "16:9";
    QTest::newRow("portrait phone") << QSize(1080, 1920) << "9:16";
    QTest::newRow("camera") << QSize(6000, 4000) << "3:2";
    QTest::newRow("ultrawide") << QSize(3440, 1440) << "21:9";
    QTest::newRow("very wide clamps") << QSize(8000, 1000) << "21:9";
    QTest::newRow("a4 portrait") << QSize(2480, 3508) << "2:3";
    QTest::newRow("empty") << QSize() << "1:1";
}

void tst_ImageInput::nearest()
{
    QFETCH(QSize, size);
    QFETCH(QString, ratio);
    QCOMPARE(nearestAspectRatio(size), ratio);
}

void tst_ImageInput::loadGood()
{
    const auto r = loadImageInput(apiFixturePath(QStringLiteral("red.jpg")));
    QVERIFY(r.ok());
    QCOMPARE(r.value().mimeType, QStringLiteral("image/jpeg"));
    QCOMPARE(r.value().size, QSize(8, 6));
    QCOMPARE(r.value().bytes, apiFixture(QStringLiteral("red.jpg")));
    QVERIFY(r.value().fileName.endsWith(QLatin1String("red.jpg")));

    // The extension lies; the bytes decide.
    QTemporaryDir dir;
    const QString liar = dir.filePath(QStringLiteral("picture.jpg"));
    QVERIFY(QFile::copy(apiFixturePath(QStringLiteral("blue.png")), liar));
    const auto p = loadImageInput(liar);
    QVERIFY(p.ok());
    QCOMPARE(p.value().mimeType, QStringLiteral("image/png"));
    QCOMPARE(p.value().size, QSize(6, 4));
}

void tst_ImageInput::loadErrors_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("content"); // null: do not create
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("contains");
    QTest::newRow("missing") << "missing.png" << QByteArray() << int(ErrorKind::Io) << "does not exist";
    QTest::newRow("empty") << "empty.png" << QByteArray("") << int(ErrorKind::InvalidInput) << "empty";
    QTest::newRow("text") << "notes.png" << QByteArray("just text") << int(ErrorKind::InvalidInput) << "not an image";
    QTest::newRow("folder") << "." << QByteArray() << int(ErrorKind::Io) << "folder";
}

void tst_ImageInput::loadErrors()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    QFETCH(int, kind);
    QFETCH(QString, contains);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    if (!content.isNull()) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
    }
    const auto r = loadImageInput(path);
    QVERIFY(!r.ok());
    QCOMPARE(int(r.error().kind), kind);
    QVERIFY2(r.error().message.contains(contains), qPrintable(r.error().message));
}

void tst_ImageInput::unreadableFile()
{
    if (::geteuid() == 0)
        QSKIP("root can read any file");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("locked.png"));
    QVERIFY(QFile::copy(apiFixturePath(QStringLiteral("blue.png")), path));
    QVERIFY(QFile::setPermissions(path, QFileDevice::WriteOwner));
    const auto r = loadImageInput(path);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::Io);
    QVERIFY(r.error().message.contains(QLatin1String("Cannot read")));
}

void tst_ImageInput::tooLargeAndReencode()
{
    // A noisy PNG that does not compress: its base64 exceeds 20 MB.
    QImage noise(2600, 2000, QImage::Format_RGB32);
    auto *rng = QRandomGenerator::global();
    for (int y = 0; y < noise.height(); ++y) {
        auto *line = reinterpret_cast<quint32 *>(noise.scanLine(y));
        for (int x = 0; x < noise.width(); ++x)
            line[x] = rng->generate() | 0xff000000u;
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("noise.png"));
    QVERIFY(noise.save(path, "PNG", 0));
    QVERIFY(QFileInfo(path).size() * 4 / 3 > kMaxRequestBytes);

    const auto refused = loadImageInput(path);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().kind, ErrorKind::TooLarge);
    QVERIFY(refused.error().message.contains(QLatin1String("20.0 MB")));
    QVERIFY(refused.error().message.contains(QLatin1String("re-encode")));

    const auto oversize = loadImageInput(path, true);
    QVERIFY(oversize.ok());
    QCOMPARE(oversize.value().size, QSize(2600, 2000));

    const qint64 budget = 2'000'000;
    const auto small = reencodeToFit(oversize.value(), budget);
    QVERIFY2(small.ok(), qPrintable(small.ok() ? QString() : small.error().message));
    QCOMPARE(small.value().mimeType, QStringLiteral("image/jpeg"));
    QCOMPARE(sniffImageMimeType(small.value().bytes), QStringLiteral("image/jpeg"));
    QVERIFY(qint64(small.value().bytes.toBase64().size()) <= budget);
    QImage decoded;
    QVERIFY(decoded.loadFromData(small.value().bytes));
    QCOMPARE(decoded.size(), small.value().size);
    // Aspect ratio kept.
    QVERIFY(qAbs(double(decoded.width()) / decoded.height() - 1.3) < 0.02);

    ImageInput junk;
    junk.bytes = "\x89PNG\r\n\x1a\n broken";
    QCOMPARE(reencodeToFit(junk, budget).error().kind, ErrorKind::InvalidInput);
}

void tst_ImageInput::fromBytes()
{
    const auto ok = imageInputFromBytes(apiFixture(QStringLiteral("blue.png")), QStringLiteral("pasted"));
    QVERIFY(ok.ok());
    QCOMPARE(ok.value().size, QSize(6, 4));
    QCOMPARE(ok.value().fileName, QStringLiteral("pasted"));
    const auto bad = imageInputFromBytes("%PDF-1.7", QStringLiteral("doc.pdf"));
    QCOMPARE(bad.error().kind, ErrorKind::InvalidInput);
    QVERIFY(bad.error().message.contains(QLatin1String("doc.pdf")));
}

void tst_ImageInput::extensionForMimeType_data()
{
    QTest::addColumn<QString>("mime");
    QTest::addColumn<QString>("extension");
    QTest::newRow("jpeg") << "image/jpeg"
                          << "jpg";
    QTest::newRow("jpg alias, upper case") << "IMAGE/JPG"
                                           << "jpg";
    QTest::newRow("png") << "image/png"
                         << "png";
    QTest::newRow("webp") << "image/webp"
                          << "webp";
    QTest::newRow("gif") << "image/gif"
                         << "gif";
    QTest::newRow("bmp") << "image/bmp"
                         << "bmp";
    QTest::newRow("tiff") << "image/tiff"
                          << "tif";
    QTest::newRow("heif") << "image/heif"
                          << "heic";
    QTest::newRow("unknown") << "application/pdf"
                             << "";
    QTest::newRow("empty") << ""
                           << "";
}

void tst_ImageInput::extensionForMimeType()
{
    QFETCH(QString, mime);
    QFETCH(QString, extension);
    QCOMPARE(fileExtensionForImageMimeType(mime), extension);
}

QTEST_GUILESS_MAIN(tst_ImageInput)
#include "tst_imageinput.moc"
