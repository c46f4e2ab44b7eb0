// The core side of the app defects found in issue 11, item 9:
//  - an animated GIF (or BMP, TIFF) was sent inline as image/gif, a type the API does not list:
//    it is converted to PNG (the first frame) before sending, and the session says so;
//  - a valid 12000×12000 PNG was called "damaged or incomplete" (Qt's allocation limit): it is
//    "too large" with its size and the limit, and downscaleToModelInput() makes it usable;
//  - after delete → undo → redo the manifest's current_frame named the trashed frame.

#include "../session/sessiontestutil.h"
#include "core/api/inputpreparation.h"
#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QImageReader>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <zlib.h>

using namespace nb2;

namespace {

/** A two-frame animated GIF, 1×1 pixel: white, then black. */
QByteArray animatedGif()
{
    static const unsigned char bytes[] = {'G', 'I', 'F', '8', '9', 'a', 0x01, 0x00, 0x01, 0x00, 0x80, 0x00,
        0x00,                               // header, 2-colour table
        0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, // white, black
        0x21, 0xFF, 0x0B, 'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0', 0x03, 0x01, 0x00, 0x00, 0x00, // loop
        0x21, 0xF9, 0x04, 0x00, 0x0A, 0x00, 0x00, 0x00, // frame 1: 100 ms
        0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x21, 0xF9, 0x04,
        0x00, 0x0A, 0x00, 0x00, 0x00, // frame 2
        0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x4C, 0x01, 0x00, 0x3B};
    return QByteArray(reinterpret_cast<const char *>(bytes), sizeof bytes);
}

void appendChunk(QByteArray &png, const char *type, const QByteArray &data)
{
    const quint32 len = quint32(data.size());
    const char lenBytes[4] = {char(len >> 24), char(len >> 16), char(len >> 8), char(len)};
    png.append(lenBytes, 4);
    QByteArray body = QByteArray(type, 4) + data;
    const uLong crc = crc32(crc32(0, nullptr, 0), reinterpret_cast<const Bytef *>(body.constData()), uInt(body.size()));
    png.append(body);
    const char crcBytes[4] = {char(crc >> 24), char(crc >> 16), char(crc >> 8), char(crc)};
    png.append(crcBytes, 4);
}

/** A valid RGB PNG of w×h (a horizontal gradient), deflated row by row: no full raw buffer. */
QByteArray bigPng(int w, int h)
{
    QByteArray png("\x89PNG\r\n\x1a\n", 8);
    QByteArray ihdr;
    for (quint32 v : {quint32(w), quint32(h)})
        ihdr.append(char(v >> 24)).append(char(v >> 16)).append(char(v >> 8)).append(char(v));
    ihdr.append(char(8)).append(char(2)).append(char(0)).append(char(0)).append(char(0)); // 8-bit RGB
    appendChunk(png, "IHDR", ihdr);
    QByteArray row(1 + 3 * w, '\0');
    for (int x = 0; x < w; ++x) {
        row[1 + 3 * x] = char(x * 255 / w);
        row[2 + 3 * x] = char(128);
        row[3 + 3 * x] = char(255 - x * 255 / w);
    }
    z_stream z {};
    deflateInit(&z, 1);
    QByteArray idat;
    QByteArray out(1 << 16, '\0');
    for (int y = 0; y < h; ++y) {
        z.next_in = reinterpret_cast<Bytef *>(row.data());
        z.avail_in = uInt(row.size());
        const int flush = y + 1 == h ? Z_FINISH : Z_NO_FLUSH;
        do {
            z.next_out = reinterpret_cast<Bytef *>(out.data());
            z.avail_out = uInt(out.size());
            deflate(&z, flush);
            idat.append(out.constData(), out.size() - qsizetype(z.avail_out));
        } while (z.avail_out == 0 || (flush == Z_FINISH && z.avail_in > 0));
    }
    deflateEnd(&z);
    appendChunk(png, "IDAT", idat);
    appendChunk(png, "IEND", {});
    return png;
}

} // namespace

class tst_AppDefects : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void animatedGifIsConvertedToPng()
    {
        ImageInput gif;
        gif.bytes = animatedGif();
        gif.mimeType = sniffImageMimeType(gif.bytes);
        gif.fileName = QStringLiteral("cat.gif");
        QCOMPARE(gif.mimeType, QStringLiteral("image/gif"));
        QVERIFY(!isApiInputType(gif.mimeType));
        QString note;
        const Result<ImageInput> sent = convertToApiType(gif, &note);
        QVERIFY2(sent, qPrintable(sent.error().message));
        QCOMPARE(sent.value().mimeType, QStringLiteral("image/png"));
        QCOMPARE(sniffImageMimeType(sent.value().bytes), QStringLiteral("image/png"));
        QVERIFY2(note.contains(QStringLiteral("animated GIF")) && note.contains(QStringLiteral("first frame (of 2)")),
            qPrintable(note));
        QImage firstFrame;
        QVERIFY(firstFrame.loadFromData(sent.value().bytes));
        QCOMPARE(firstFrame.pixelColor(0, 0), QColor(Qt::white));

        // A type the API takes is left as it is, with no note.
        ImageInput png;
        png.bytes = test::pngBytes();
        png.mimeType = QStringLiteral("image/png");
        QCOMPARE(convertToApiType(png, &note).value().bytes, png.bytes);
        QVERIFY(note.isEmpty());
    }

    /** The session's edit-local of a GIF sends image/png and tells the user. */
    void sessionSendsGifAsPngAndSaysSo()
    {
        FakeServer fake;
        QVERIFY(fake.start(0));
        QTemporaryDir tmp;
        const QString gifPath = test::writeFile(tmp.path() + QStringLiteral("/cat.gif"), animatedGif());
        SessionController c;
        ClientConfig cfg;
        cfg.baseUrl = fake.baseUrl();
        cfg.apiKey = ApiKey(QStringLiteral("test-key"), QStringLiteral("test"));
        c.setClient(std::make_shared<InteractionsClient>(cfg));
        QVERIFY(c.open(tmp.path() + QStringLiteral("/session")));
        QSignalSpy converted(&c, &SessionController::inputConverted);
        const Result<QString> turn
            = c.editLocal({}, gifPath, {QStringLiteral("make it blue"), QStringLiteral("1:1"), {}, false});
        QVERIFY2(turn, qPrintable(turn.error().message));
        QVERIFY(c.waitForIdle(30000));
        QCOMPARE(c.graph().value(turn.value()).status, FrameStatus::Done);
        QCOMPARE(converted.count(), 1);
        QVERIFY(converted.first().at(1).toString().contains(QStringLiteral("PNG")));
        bool sawPng = false;
        for (const FakeRequest &r : fake.requests()) {
            if (r.method != QLatin1String("POST"))
                continue;
            QVERIFY2(!r.body.contains("image/gif"), "a GIF went out as image/gif");
            sawPng = sawPng || r.body.contains("\"image/png\"");
        }
        QVERIFY(sawPng);
    }

    void hugeValidPngIsTooLargeNotDamaged()
    {
        const QByteArray png = bigPng(12000, 12000);
        QVERIFY(png.size() < 20 * 1000 * 1000); // small as a file: only decoding it is big
        const Result<QImage> opened = decodeImageBounded(png, QStringLiteral("huge.png"));
        QVERIFY(!opened);
        QCOMPARE(opened.error().kind, ErrorKind::TooLarge);
        const QString m = opened.error().message;
        QVERIFY2(m.contains(QStringLiteral("12000×12000")) && m.contains(QStringLiteral("67.1 megapixels"))
                && m.contains(QStringLiteral("1024×1024")) && !m.contains(QStringLiteral("damaged")),
            qPrintable(m));

        // The offered downscale works on the same valid file (Qt's own limit no longer refuses it).
        ImageInput input;
        input.bytes = png;
        input.mimeType = QStringLiteral("image/png");
        input.fileName = QStringLiteral("huge.png");
        QElapsedTimer clock;
        clock.start();
        const Result<ImageInput> small = downscaleToModelInput(input);
        QVERIFY2(small, qPrintable(small.error().message));
        qInfo("12000×12000 PNG downscaled in %lld ms", clock.elapsed());
        QCOMPARE(small.value().size, QSize(1024, 1024));
        QImage decoded;
        QVERIFY(decoded.loadFromData(small.value().bytes));
        QCOMPARE(decoded.size(), QSize(1024, 1024));
        QVERIFY(qAbs(decoded.pixelColor(0, 0).red() - 0) < 8);
        QVERIFY(qAbs(decoded.pixelColor(1023, 0).red() - 255) < 8);

        // A truncated file of a size within the bound is still "damaged".
        QByteArray cut = test::pngBytes(Qt::red, 200, 200);
        cut.chop(cut.size() / 2);
        const Result<QImage> broken = decodeImageBounded(cut, QStringLiteral("cut.png"));
        QVERIFY(!broken);
        QCOMPARE(broken.error().kind, ErrorKind::InvalidInput);
        QVERIFY(broken.error().message.contains(QStringLiteral("damaged")));
    }

    void modelInputSizeKeepsTheAspect()
    {
        QCOMPARE(modelInputSize(QSize(800, 600)), QSize(800, 600));
        const QSize wide = modelInputSize(QSize(16000, 9000));
        QVERIFY(qint64(wide.width()) * wide.height() <= kModelInputPixels);
        QVERIFY(qAbs(double(wide.width()) / wide.height() - 16.0 / 9.0) < 0.01);
    }

    /** delete → undo → redo: current_frame always names a live frame, on disk too. */
    void currentFrameFollowsTheTrash()
    {
        FakeServer fake;
        QVERIFY(fake.start(0));
        QTemporaryDir tmp;
        SessionController c;
        ClientConfig cfg;
        cfg.baseUrl = fake.baseUrl();
        cfg.apiKey = ApiKey(QStringLiteral("test-key"), QStringLiteral("test"));
        c.setClient(std::make_shared<InteractionsClient>(cfg));
        QVERIFY(c.open(tmp.path()));
        const Result<QString> a = c.generate({QStringLiteral("root"), {}, {}, false});
        QVERIFY(a && c.waitForIdle(20000));
        const Result<QString> b = c.edit(a.value(), {QStringLiteral("second"), {}, {}, false});
        QVERIFY(b && c.waitForIdle(20000));
        const Result<QString> d = c.edit(b.value(), {QStringLiteral("third"), {}, {}, false});
        QVERIFY(d && c.waitForIdle(20000));
        QCOMPARE(c.store()->currentFrameId(), d.value());

        auto onDisk = [&] {
            c.store()->flush();
            QFile f(c.store()->manifestPath());
            f.open(QIODevice::ReadOnly);
            return QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("current_frame")).toString();
        };
        QVERIFY(c.deleteFrame(b.value())); // b and its child d go to the trash
        QCOMPARE(c.store()->currentFrameId(), a.value());
        QCOMPARE(onDisk(), a.value());
        c.undoStack()->undo();
        QVERIFY(!c.graph().frame(d.value())->isTrashed());
        QCOMPARE(onDisk(), a.value()); // a live frame either way
        c.undoStack()->redo();
        QVERIFY(c.graph().frame(d.value())->isTrashed());
        QCOMPARE(c.store()->currentFrameId(), a.value());
        QCOMPARE(onDisk(), a.value());
        c.close();

        SessionStore reopened;
        QVERIFY(reopened.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        const Frame *current = reopened.graph().frame(reopened.currentFrameId());
        QVERIFY(current && !current->isTrashed());
    }
};

QTEST_GUILESS_MAIN(tst_AppDefects)
#include "tst_appdefects.moc"
