// The fake server inside a process with no QCoreApplication at all (QTEST_APPLESS_MAIN):
// JPEG encoding, PNG/JPEG decoding of uploads and the caption font must still work, since
// embedders such as a CLI may create the server before (or without) an application object.
#include "core/fakeapi/fakeimagepainter.h"
#include "core/fakeapi/fakeserver.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <httplib.h>

using namespace nb2;

class tst_FakeServerNoApp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void servesImagesWithoutApplication()
    {
        QVERIFY(QCoreApplication::instance() == nullptr);
        FakeServer server;
        QVERIFY(server.start());

        QImage upload(320, 240, QImage::Format_RGB32);
        upload.fill(QColor(10, 200, 40));
        QByteArray png;
        QBuffer buf(&png);
        buf.open(QIODevice::WriteOnly);
        QVERIFY(upload.save(&buf, "PNG"));

        const QJsonObject body {{QStringLiteral("model"), QStringLiteral("gemini-3.1-flash-lite-image")},
            {QStringLiteral("input"),
                QJsonArray {QJsonObject {{QStringLiteral("type"), QStringLiteral("image")},
                                {QStringLiteral("data"), QString::fromLatin1(png.toBase64())},
                                {QStringLiteral("mime_type"), QStringLiteral("image/png")}},
                    QJsonObject {{QStringLiteral("type"), QStringLiteral("text")},
                        {QStringLiteral("text"), QStringLiteral("add a sun")}}}}};
        httplib::Client cli("127.0.0.1", server.port());
        cli.set_read_timeout(30, 0);
        auto res = cli.Post("/v1/interactions", {{"x-goog-api-key", "test-key"}},
            QJsonDocument(body).toJson().toStdString(), "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 200);
        const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(res->body)).object();
        const QJsonArray content = o[QStringLiteral("steps")].toArray().last()[QStringLiteral("content")].toArray();
        const QByteArray jpeg = QByteArray::fromBase64(content.last()[QStringLiteral("data")].toString().toLatin1());
        QVERIFY(jpeg.startsWith("\xFF\xD8\xFF"));
        const QImage out = QImage::fromData(jpeg);
        QCOMPARE(out.size(), FakeImagePainter::sizeForAspect(QStringLiteral("4:3")));
        const QColor tl = FakeImagePainter::averageColor(out, QRect(0, 0, 200, 200));
        QVERIFY2(tl.green() > 150 && tl.red() < 60, qPrintable(tl.name()));
        // The caption strip was drawn: the bottom rows are dark, unlike the green upload.
        QVERIFY(qGray(FakeImagePainter::averageColor(out, QRect(0, out.height() - 6, out.width(), 6)).rgb()) < 60);
        server.stop();
    }
};

QTEST_APPLESS_MAIN(tst_FakeServerNoApp)
#include "tst_fakeservernoapp.moc"
