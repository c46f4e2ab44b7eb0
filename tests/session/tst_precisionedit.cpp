#include "core/edit/editmask.h"
#include "core/session/frame.h"
#include "core/session/precisionedit.h"
#include "core/session/sessionstore.h"

#include <QBuffer>
#include <QDir>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

static QByteArray jpegOf(const QImage &image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "JPEG", 90);
    return bytes;
}

static QImage scene(const QSize &size, QColor a, QColor b)
{
    QImage image(size, QImage::Format_RGB32);
    QPainter p(&image);
    QLinearGradient g(0, 0, size.width(), size.height());
    g.setColorAt(0, a);
    g.setColorAt(1, b);
    p.fillRect(image.rect(), g);
    p.setBrush(Qt::white);
    p.drawEllipse(QRect(size.width() / 4, size.height() / 4, size.width() / 3, size.height() / 3));
    return image;
}

class tst_PrecisionEdit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void frameFieldsRoundTrip();
    void oldFramesLoadWithoutTheFields();
    void unsafePathsAreRejected_data();
    void unsafePathsAreRejected();
    void regionEditCompositesAndMeasures();
    void protectEditCompositesAndMeasures();
    void plainEditDrift();
};

void tst_PrecisionEdit::frameFieldsRoundTrip()
{
    Frame f;
    f.id = QStringLiteral("abcd1234");
    f.kind = FrameKind::EditLocal;
    f.status = FrameStatus::Done;
    f.regionEdit.mode = RegionMode::Region;
    f.regionEdit.maskFile = QStringLiteral("images/mask_1.png");
    f.regionEdit.feather = 6;
    f.regionEdit.crop = QRect(10, 20, 300, 200);
    f.regionEdit.cropAspect = QStringLiteral("3:2");
    f.regionEdit.rawFile = QStringLiteral("images/edit_local_1.jpg");
    f.regionEdit.rawSha256 = QStringLiteral("00ff");
    f.drift.measure = PrecisionEdit::driftMeasureName();
    f.drift.changed = 0.38;
    f.drift.outsideChanged = 0.02;
    f.drift.heatmapFile = QStringLiteral("images/drift_abcd1234.png");
    const Result<Frame> back = Frame::fromJson(f.toJson());
    QVERIFY(back.ok());
    QCOMPARE(back.value().regionEdit, f.regionEdit);
    QCOMPARE(back.value().drift, f.drift);
    QVERIFY(!back.value().extra.contains(QLatin1String("region_edit")));
    QCOMPARE(f.toJson().value(QLatin1String("region_edit")).toObject().value(QLatin1String("mode")).toString(),
        QStringLiteral("region"));
}

void tst_PrecisionEdit::oldFramesLoadWithoutTheFields()
{
    QJsonObject o;
    o.insert(QLatin1String("id"), QStringLiteral("0000aaaa"));
    o.insert(QLatin1String("kind"), QStringLiteral("edit"));
    o.insert(QLatin1String("status"), QStringLiteral("done"));
    const Result<Frame> f = Frame::fromJson(o);
    QVERIFY(f.ok());
    QVERIFY(f.value().regionEdit.isEmpty());
    QVERIFY(f.value().drift.isEmpty());
    QVERIFY(!f.value().toJson().contains(QLatin1String("drift")));
}

void tst_PrecisionEdit::unsafePathsAreRejected_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("path");
    QTest::newRow("mask ..") << QStringLiteral("mask") << QStringLiteral("../../etc/passwd");
    QTest::newRow("mask abs") << QStringLiteral("mask") << QStringLiteral("/etc/passwd");
    QTest::newRow("raw inner ..") << QStringLiteral("raw") << QStringLiteral("images/../../x.png");
    QTest::newRow("heatmap") << QStringLiteral("heatmap") << QStringLiteral("../drift.png");
    QTest::newRow("drive") << QStringLiteral("raw") << QStringLiteral("C:/x.png");
}

void tst_PrecisionEdit::unsafePathsAreRejected()
{
    QFETCH(QString, field);
    QFETCH(QString, path);
    QJsonObject o;
    o.insert(QLatin1String("id"), QStringLiteral("0000aaaa"));
    o.insert(QLatin1String("kind"), QStringLiteral("edit"));
    o.insert(QLatin1String("status"), QStringLiteral("done"));
    if (field == QLatin1String("heatmap")) {
        QJsonObject d;
        d.insert(QLatin1String("changed"), 0.5);
        d.insert(QLatin1String("heatmap"), path);
        o.insert(QLatin1String("drift"), d);
    } else {
        QJsonObject r;
        r.insert(QLatin1String("mode"), QStringLiteral("protect"));
        r.insert(field, path);
        o.insert(QLatin1String("region_edit"), r);
    }
    const Result<Frame> f = Frame::fromJson(o);
    QVERIFY(!f.ok());
    QCOMPARE(f.error().kind, ErrorKind::Unsafe);
}

// A session folder with a JPEG parent and a "server answer" written as frames would be.
struct Fixture {
    QTemporaryDir dir;
    Frame parent;
    Frame child;

    bool write(const QString &rel, const QByteArray &bytes, FrameImage *image)
    {
        const Result<FrameImage> written = SessionStore::writeImageFile(dir.path(), rel, bytes);
        if (!written)
            return false;
        *image = written.value();
        return true;
    }
};

void tst_PrecisionEdit::regionEditCompositesAndMeasures()
{
    Fixture fx;
    const QImage parentImage = scene(QSize(512, 384), Qt::darkBlue, Qt::darkGreen);
    QVERIFY(fx.write(QStringLiteral("images/gen_1_p.jpg"), jpegOf(parentImage), &fx.parent.image));
    fx.parent.id = QStringLiteral("11111111");
    const EditMask mask = EditMask::fromRect(parentImage.size(), QRect(40, 40, 100, 80));
    const Result<PreparedRegion> prepared
        = PrecisionEdit::prepare(fx.dir.path(), fx.parent, RegionMode::Region, mask, 4);
    QVERIFY2(prepared.ok(), qPrintable(prepared.ok() ? QString() : prepared.error().message));
    const PreparedRegion &p = prepared.value();
    QVERIFY(p.edit.crop.contains(QRect(40, 40, 100, 80)));
    QVERIFY(QFileInfo::exists(fx.dir.filePath(p.cropFile)));
    QVERIFY(QFileInfo::exists(fx.dir.filePath(p.edit.maskFile)));
    QCOMPARE(QImage(fx.dir.filePath(p.cropFile)).size(), p.edit.crop.size());

    // The model answers the crop at its own size, all red.
    QImage answer(1024, 1024 * p.edit.crop.height() / p.edit.crop.width(), QImage::Format_RGB32);
    answer.fill(Qt::red);
    fx.child.id = QStringLiteral("22222222");
    fx.child.kind = FrameKind::EditLocal;
    fx.child.status = FrameStatus::Done;
    fx.child.regionEdit = p.edit;
    QVERIFY(fx.write(QStringLiteral("images/edit_local_1_c.jpg"), jpegOf(answer), &fx.child.image));
    const Result<Frame> done = PrecisionEdit::finish(fx.dir.path(), fx.parent, fx.child);
    QVERIFY2(done.ok(), qPrintable(done.ok() ? QString() : done.error().message));
    const Frame &c = done.value();
    QCOMPARE(c.regionEdit.rawFile, QStringLiteral("images/edit_local_1_c.jpg"));
    QCOMPARE(c.image.mimeType, QStringLiteral("image/png"));
    QVERIFY(c.image.file.endsWith(QLatin1String("_composite.png")));
    // Outside the selection and band, the composite on disk is the parent's decoded pixels.
    const QImage composite = QImage(fx.dir.filePath(c.image.file)).convertToFormat(QImage::Format_ARGB32);
    const QImage decodedParent = QImage(fx.dir.filePath(fx.parent.image.file)).convertToFormat(QImage::Format_ARGB32);
    const QImage weight = mask.feathered(4);
    for (int y = 0; y < composite.height(); ++y)
        for (int x = 0; x < composite.width(); ++x)
            if (weight.constScanLine(y)[x] == 0)
                QCOMPARE(composite.pixel(x, y), decodedParent.pixel(x, y));
    QCOMPARE(qRed(composite.pixel(90, 80)) > 200, true);
    // Drift: inside changed, the raw answer changed "outside" (the red covers the whole crop).
    QVERIFY(c.drift.changed > 0.02 && c.drift.changed < 0.1);
    QVERIFY(c.drift.outsideChanged > 0.5);
    QVERIFY(QFileInfo::exists(fx.dir.filePath(c.drift.heatmapFile)));
}

void tst_PrecisionEdit::protectEditCompositesAndMeasures()
{
    Fixture fx;
    const QImage parentImage = scene(QSize(300, 300), Qt::yellow, Qt::blue);
    QVERIFY(fx.write(QStringLiteral("images/gen_1_p.jpg"), jpegOf(parentImage), &fx.parent.image));
    fx.parent.id = QStringLiteral("11111111");
    // Only the top half may change.
    const EditMask mask = EditMask::fromRect(parentImage.size(), QRect(0, 0, 300, 150));
    const Result<PreparedRegion> prepared
        = PrecisionEdit::prepare(fx.dir.path(), fx.parent, RegionMode::Protect, mask, 3);
    QVERIFY(prepared.ok());
    QVERIFY(prepared.value().cropFile.isEmpty());
    QImage edited = parentImage;
    edited.invertPixels(); // the model changed everything
    fx.child.id = QStringLiteral("33333333");
    fx.child.kind = FrameKind::Edit;
    fx.child.status = FrameStatus::Done;
    fx.child.regionEdit = prepared.value().edit;
    QVERIFY(fx.write(QStringLiteral("images/edit_1_c.jpg"), jpegOf(edited), &fx.child.image));
    const Frame c = PrecisionEdit::finish(fx.dir.path(), fx.parent, fx.child).value();
    QVERIFY(c.drift.outsideChanged > 0.9);           // the raw answer bled everywhere
    QVERIFY(std::abs(c.drift.changed - 0.5) < 0.05); // what the user sees: the top half
    const QImage composite = QImage(fx.dir.filePath(c.image.file)).convertToFormat(QImage::Format_ARGB32);
    const QImage decodedParent = QImage(fx.dir.filePath(fx.parent.image.file)).convertToFormat(QImage::Format_ARGB32);
    for (int y = 154; y < 300; ++y)
        for (int x = 0; x < 300; ++x)
            QCOMPARE(composite.pixel(x, y), decodedParent.pixel(x, y));
}

void tst_PrecisionEdit::plainEditDrift()
{
    Fixture fx;
    const QImage parentImage = scene(QSize(200, 200), Qt::red, Qt::green);
    QVERIFY(fx.write(
        QStringLiteral("images/gen_1_p.png"),
        [&] {
            QByteArray b;
            QBuffer buf(&b);
            buf.open(QIODevice::WriteOnly);
            parentImage.save(&buf, "PNG");
            return b;
        }(),
        &fx.parent.image));
    fx.child = fx.parent;
    fx.child.id = QStringLiteral("44444444");
    const Frame same = PrecisionEdit::measureDrift(fx.dir.path(), fx.parent, fx.child).value();
    QCOMPARE(same.drift.changed, 0.0);
    QCOMPARE(same.drift.outsideChanged, -1.0);
    QImage inverted = parentImage;
    inverted.invertPixels();
    QVERIFY(fx.write(QStringLiteral("images/edit_1_c.jpg"), jpegOf(inverted), &fx.child.image));
    const Frame all = PrecisionEdit::measureDrift(fx.dir.path(), fx.parent, fx.child).value();
    QVERIFY(all.drift.changed > 0.95);
}

QTEST_GUILESS_MAIN(tst_PrecisionEdit)
#include "tst_precisionedit.moc"
