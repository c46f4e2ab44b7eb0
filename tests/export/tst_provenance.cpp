#include "core/export/exportsession.h"
#include "core/export/provenance.h"

#include "tests/export/exportfixture.h"

#include <QBuffer>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

class tst_Provenance : public QObject
{
    Q_OBJECT

private:
    static Provenance sample()
    {
        Provenance p;
        p.app = QStringLiteral("nb2lite 0.1.0");
        p.frameId = QStringLiteral("ab12cd34");
        p.parentSha256 = QString(64, QLatin1Char('f'));
        p.model = QStringLiteral("gemini-3.1-flash-lite-image");
        p.interactionId = QStringLiteral("v1_abcdef");
        p.kind = QStringLiteral("edit");
        p.promptChain = {QStringLiteral("a harbour"), QStringLiteral("add <lantern> & \"glow\" \u2014 caf\u00e9")};
        p.promptChainTotal = 2;
        return p;
    }

    static QImage decode(const QByteArray &bytes)
    {
        QImage img;
        img.loadFromData(bytes);
        return img.convertToFormat(QImage::Format_RGB32);
    }

private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<QByteArray>("format");
        QTest::newRow("png") << QByteArray("PNG");
        QTest::newRow("jpeg") << QByteArray("JPEG");
    }

    void roundTrip()
    {
        QFETCH(QByteArray, format);
        const QByteArray original = testing::encodedImage(3, format.constData());
        QVERIFY(readProvenanceFromBytes(original).ok() == false);

        auto embedded = embedProvenance(original, sample());
        QVERIFY2(embedded.ok(), qPrintable(embedded ? QString() : embedded.error().message));
        QVERIFY(embedded.value().size() > original.size());

        auto back = readProvenanceFromBytes(embedded.value());
        QVERIFY2(back.ok(), qPrintable(back ? QString() : back.error().message));
        QCOMPARE(back.value().toJson(), sample().toJson());
        QCOMPARE(back.value().promptChain.last(), sample().promptChain.last());

        // The container changed, the pixels did not.
        const QImage a = decode(original), b = decode(embedded.value());
        QVERIFY(!a.isNull());
        QCOMPARE(b, a);

        // Writing again replaces the record instead of stacking a second one.
        Provenance second = sample();
        second.frameId = QStringLiteral("99999999");
        auto twice = embedProvenance(embedded.value(), second);
        QVERIFY(twice.ok());
        QCOMPARE(twice.value().size(), embedded.value().size());
        QCOMPARE(readProvenanceFromBytes(twice.value()).value().frameId, QStringLiteral("99999999"));
        QCOMPARE(twice.value().count("nb2lite:provenance"), embedded.value().count("nb2lite:provenance"));

        // And through a file, as import uses it.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("x.img"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(embedded.value());
        f.close();
        QCOMPARE(readProvenance(path).value().interactionId, QStringLiteral("v1_abcdef"));
        QCOMPARE(readProvenance(dir.filePath(QStringLiteral("missing.png"))).error().kind, ErrorKind::Io);
    }

    void pngChunkIsWellFormed()
    {
        const QByteArray png = embedProvenance(testing::encodedImage(1, "PNG"), sample()).value();
        const qsizetype at = png.indexOf("iTXtnb2lite:provenance");
        QVERIFY(at > 0);
        // Right after IHDR (8 signature + 25 IHDR bytes), with a correct CRC: Qt decodes it
        // above, and a CRC error would make strict readers reject the file.
        QCOMPARE(at, qsizetype(8 + 25 + 4));
    }

    void jpegWithForeignXmpUsesComment()
    {
        const QByteArray jpeg = testing::encodedImage(2, "JPEG");
        // Someone else's XMP packet in APP1 right after SOI.
        const QByteArray xmp = QByteArray("http://ns.adobe.com/xap/1.0/\0", 29) + "<x:xmpmeta>other</x:xmpmeta>";
        QByteArray seg("\xff\xe1", 2);
        seg += char((xmp.size() + 2) >> 8);
        seg += char((xmp.size() + 2) & 0xff);
        seg += xmp;
        const QByteArray withForeign = jpeg.left(2) + seg + jpeg.mid(2);
        auto out = embedProvenance(withForeign, sample());
        QVERIFY(out.ok());
        QVERIFY(out.value().contains("<x:xmpmeta>other</x:xmpmeta>")); // kept
        QVERIFY(out.value().contains(QByteArray("\xff\xfe", 2)));      // COM segment
        QCOMPARE(readProvenanceFromBytes(out.value()).value().frameId, sample().frameId);
        QCOMPARE(decode(out.value()), decode(jpeg));
    }

    void rejectsOtherAndDamagedFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        const QByteArray png = testing::encodedImage(4, "PNG");
        const QByteArray jpeg = testing::encodedImage(4, "JPEG");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("text") << QByteArray("hello, not an image");
        QTest::newRow("gif") << QByteArray("GIF89a\x01\x00\x01\x00", 10);
        QTest::newRow("png-truncated") << png.left(40);
        QTest::newRow("png-no-iend") << png.left(png.size() - 12);
        QTest::newRow("jpeg-truncated") << jpeg.left(30);
    }

    void rejectsOtherAndDamagedFiles()
    {
        QFETCH(QByteArray, bytes);
        auto r = embedProvenance(bytes, sample());
        QVERIFY(!r.ok());
        QVERIFY(!r.error().message.isEmpty());
        QVERIFY(!readProvenanceFromBytes(bytes).ok());
    }

    void forFrameAndStripSwitches_data()
    {
        QTest::addColumn<bool>("stripPrompts");
        QTest::addColumn<bool>("stripIds");
        QTest::newRow("everything") << false << false;
        QTest::newRow("strip-prompts") << true << false;
        QTest::newRow("strip-ids") << false << true;
        QTest::newRow("strip-both") << true << true;
    }

    void forFrameAndStripSwitches()
    {
        QFETCH(bool, stripPrompts);
        QFETCH(bool, stripIds);
        QTemporaryDir dir;
        SessionStore store;
        QVERIFY(store.open(dir.path()));
        const auto ids = testing::buildStandardSession(store, QStringLiteral("<script>alert(1)</script>"));
        const ExportSession session = ExportSession::fromGraph(store.graph(), store.dir());

        ProvenanceOptions options;
        options.stripPrompts = stripPrompts;
        options.stripIds = stripIds;
        const Provenance p = Provenance::forFrame(session, ids.third, options);
        const QByteArray json = p.toJson();
        QCOMPARE(p.model, QStringLiteral("gemini-3.1-flash-lite-image"));
        QCOMPARE(p.schema, Provenance::kSchemaVersion);
        QCOMPARE(p.frameId.isEmpty(), stripIds);
        QCOMPARE(p.interactionId.isEmpty(), stripIds);
        QCOMPARE(p.parentSha256.isEmpty(), stripIds);
        if (!stripIds)
            QCOMPARE(p.parentSha256, store.graph().frame(ids.second)->image.sha256);
        QCOMPARE(json.contains("Add a lantern!"), !stripPrompts);
        if (!stripPrompts) {
            QCOMPARE(p.promptChain,
                (QStringList {QStringLiteral("A quiet harbour at dusk"), QStringLiteral("Add a lantern!"),
                    QStringLiteral("<script>alert(1)</script>")}));
        }
        // No path of this machine, ever.
        QVERIFY(!json.contains(dir.path().toUtf8()));
        QVERIFY(!json.contains("images/"));

        // The dialog's list names exactly the fields in the JSON.
        const auto rows = Provenance::fieldsToWrite(p);
        const QJsonObject o = QJsonDocument::fromJson(json).object();
        const int expectedRows = int(o.size()) - (o.contains(QStringLiteral("promptsTotal")) ? 1 : 0);
        QCOMPARE(int(rows.size()), expectedRows);
        for (const auto &row : rows)
            QVERIFY2(!row.second.isEmpty(), qPrintable(row.first));
    }

    void longChainsAreCapped()
    {
        QTemporaryDir dir;
        SessionStore store;
        QVERIFY(store.open(dir.path()));
        QString parent;
        for (int i = 0; i < 40; ++i)
            parent = testing::addFrame(store, parent, i ? FrameKind::Edit : FrameKind::Generate,
                QStringLiteral("step %1 ").arg(i) + QString(900, QLatin1Char('x')), i);
        const ExportSession session = ExportSession::fromGraph(store.graph(), store.dir());
        const Provenance p = Provenance::forFrame(session, parent, {});
        QCOMPARE(p.promptChain.size(), Provenance::kMaxChainPrompts);
        QCOMPARE(p.promptChainTotal, 40);
        QVERIFY(p.promptChain.last().startsWith(QStringLiteral("step 39 ")));
        QVERIFY(p.promptChain.last().size() <= Provenance::kMaxPromptChars);
        auto jpeg = embedProvenance(testing::encodedImage(1, "JPEG"), p);
        QVERIFY(jpeg.ok());
        QCOMPARE(readProvenanceFromBytes(jpeg.value()).value().promptChainTotal, 40);
    }

    void jsonFormIsStable()
    {
        // Found by fuzz_provenance: a total without prompts was read but never written back, so
        // reading what we wrote gave a different record. A total only counts a chain.
        const QByteArray odd = R"({"schema":1,"frame":"f1","promptsTotal":3})";
        const auto read = Provenance::fromJson(odd);
        QVERIFY(read.ok());
        QCOMPARE(read.value().promptChainTotal, 0);
        const auto again = Provenance::fromJson(read.value().toJson());
        QVERIFY(again.ok());
        QCOMPARE(again.value().toJson(), read.value().toJson());
        QCOMPARE(Provenance::fromJson(sample().toJson()).value().toJson(), sample().toJson());
    }
};

QTEST_GUILESS_MAIN(tst_Provenance)
#include "tst_provenance.moc"
