#include "core/api/imageinput.h"
#include "core/edit/compositor.h"
#include "core/edit/cropbox.h"
#include "core/edit/editmask.h"

#include <QBuffer>
#include <QPainter>
#include <QPainterPath>
#include <QRandomGenerator>
#include <QTest>

#include <cmath>

using namespace nb2;

// A parent with texture everywhere, so a copied pixel and a blended one cannot agree by chance.
static QImage noiseImage(const QSize &size, quint32 seed)
{
    QRandomGenerator rng(seed);
    QImage image(size, QImage::Format_RGB32);
    for (int y = 0; y < size.height(); ++y) {
        QRgb *line = reinterpret_cast<QRgb *>(image.scanLine(y));
        for (int x = 0; x < size.width(); ++x)
            line[x] = qRgb(int(rng.bounded(256)), int(rng.bounded(256)), int(rng.bounded(256)));
    }
    return image;
}

// The parent as a session would have it: decoded from a JPEG.
static QImage decodedJpeg(const QImage &image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "JPEG", 85);
    return QImage::fromData(bytes, "JPEG");
}

static EditMask randomMask(const QSize &size, QRandomGenerator &rng)
{
    QImage grey(size, QImage::Format_Grayscale8);
    grey.fill(0);
    QPainter p(&grey);
    p.setPen(Qt::NoPen);
    p.setBrush(Qt::white);
    const int shapes = 1 + int(rng.bounded(4));
    for (int i = 0; i < shapes; ++i) {
        const QRect r(int(rng.bounded(size.width())) - 8, int(rng.bounded(size.height())) - 8,
            4 + int(rng.bounded(size.width() / 2)), 4 + int(rng.bounded(size.height() / 2)));
        if (rng.bounded(2))
            p.drawEllipse(r);
        else
            p.drawRect(r);
    }
    p.end();
    return EditMask(grey);
}

// Pixels whose distance to the selection is more than `feather`, by brute force (the reference).
static bool outsideBand(const EditMask &mask, int feather, int x, int y)
{
    const QRect box = mask.boundingRect();
    if (box.isEmpty())
        return true;
    for (int yy = std::max(0, y - feather); yy <= std::min(mask.size().height() - 1, y + feather); ++yy)
        for (int xx = std::max(0, x - feather); xx <= std::min(mask.size().width() - 1, x + feather); ++xx)
            if (mask.isSelected(xx, yy) && (xx - x) * (xx - x) + (yy - y) * (yy - y) <= feather * feather)
                return false;
    return true;
}

class tst_Compositing : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void distanceTransformIsExact();
    void protectKeepsParentPixelsExactly();
    void regionPasteKeepsParentPixelsExactly();
    void featherBandIsMonotone_data();
    void featherBandIsMonotone();
    void otherSizeMaskIsScaled();
    void maskFileIsScaledAndUnreadableFileIsAnError();
    void selectionAtTheEdge();
    void cropBoxesHaveSupportedRatiosAndContainTheSelection();
    void cropBoxFallsBackWhenNoRatioFits();
    void compositeSurvivesPngRoundTrip();
    void invertedSwapsSelection();
};

void tst_Compositing::distanceTransformIsExact()
{
    QRandomGenerator rng(7);
    const QSize size(37, 23);
    for (int round = 0; round < 8; ++round) {
        const EditMask mask = randomMask(size, rng);
        const QVector<float> d = squaredDistanceToSelection(mask.image());
        for (int y = 0; y < size.height(); ++y) {
            for (int x = 0; x < size.width(); ++x) {
                double best = 1e20;
                for (int yy = 0; yy < size.height(); ++yy)
                    for (int xx = 0; xx < size.width(); ++xx)
                        if (mask.isSelected(xx, yy))
                            best = std::min(best, double((xx - x) * (xx - x) + (yy - y) * (yy - y)));
                if (best < 1e19)
                    QCOMPARE(double(d[y * size.width() + x]), best);
                else
                    QVERIFY(d[y * size.width() + x] > 1e19f);
            }
        }
    }
}

void tst_Compositing::protectKeepsParentPixelsExactly()
{
    QRandomGenerator rng(2026);
    for (int round = 0; round < 15; ++round) {
        const QSize size(40 + int(rng.bounded(90)), 40 + int(rng.bounded(90)));
        const QImage parent = decodedJpeg(noiseImage(size, rng.generate()));
        // The model may answer at another size: it is scaled to the parent first.
        const QImage edited = noiseImage(round % 3 ? size : size * 2, rng.generate());
        const EditMask mask = randomMask(size, rng);
        const int feather = int(rng.bounded(9));
        const auto composite = Compositor::protect(parent, edited, mask, feather);
        QVERIFY(composite.ok());
        const QImage out = composite.value();
        const QImage p32 = parent.convertToFormat(QImage::Format_ARGB32);
        const QImage e32 = edited.convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(out.size(), size);
        for (int y = 0; y < size.height(); ++y) {
            for (int x = 0; x < size.width(); ++x) {
                if (outsideBand(mask, feather, x, y))
                    QCOMPARE(out.pixel(x, y), p32.pixel(x, y));
                else if (mask.isSelected(x, y) && e32.size() == size)
                    QCOMPARE(out.pixel(x, y), e32.pixel(x, y));
            }
        }
    }
}

void tst_Compositing::regionPasteKeepsParentPixelsExactly()
{
    QRandomGenerator rng(13);
    for (int round = 0; round < 15; ++round) {
        const QSize size(60 + int(rng.bounded(100)), 60 + int(rng.bounded(100)));
        const QImage parent = decodedJpeg(noiseImage(size, rng.generate()));
        const EditMask mask = randomMask(size, rng);
        const int feather = int(rng.bounded(9));
        const CropBox crop = cropBoxFor(mask.boundingRect(), size, 16);
        // The model answers the crop at its own resolution (e.g. 1024 on the long side).
        const QImage answer = noiseImage(crop.rect.size() * 3, rng.generate());
        const auto composite = Compositor::pasteRegion(parent, answer, crop.rect, mask, feather);
        QVERIFY(composite.ok());
        const QImage out = composite.value();
        const QImage p32 = parent.convertToFormat(QImage::Format_ARGB32);
        int changedInside = 0;
        for (int y = 0; y < size.height(); ++y) {
            for (int x = 0; x < size.width(); ++x) {
                if (outsideBand(mask, feather, x, y) || !crop.rect.contains(x, y))
                    QCOMPARE(out.pixel(x, y), p32.pixel(x, y));
                else if (mask.isSelected(x, y))
                    changedInside += out.pixel(x, y) != p32.pixel(x, y);
            }
        }
        QVERIFY(changedInside > 0);
    }
}

void tst_Compositing::featherBandIsMonotone_data()
{
    QTest::addColumn<int>("feather");
    QTest::newRow("0") << 0;
    QTest::newRow("1") << 1;
    QTest::newRow("4") << 4;
    QTest::newRow("12") << 12;
}

void tst_Compositing::featherBandIsMonotone()
{
    QFETCH(int, feather);
    QRandomGenerator rng(uint(99 + feather));
    const QSize size(80, 60);
    for (int round = 0; round < 10; ++round) {
        const EditMask mask = randomMask(size, rng);
        const QImage weight = mask.feathered(feather);
        const QVector<float> d2 = squaredDistanceToSelection(mask.image());
        // Sort by distance: the weight never increases as the distance grows.
        QVector<QPair<float, int>> pairs;
        for (int y = 0; y < size.height(); ++y)
            for (int x = 0; x < size.width(); ++x)
                pairs.append({d2[y * size.width() + x], weight.constScanLine(y)[x]});
        std::sort(pairs.begin(), pairs.end(), [](const auto &a, const auto &b) {
            return a.first < b.first || (a.first == b.first && a.second > b.second);
        });
        for (qsizetype i = 1; i < pairs.size(); ++i) {
            QVERIFY2(pairs[i].second <= pairs[i - 1].second, "weight increased with distance");
            if (pairs[i].first == pairs[i - 1].first)
                QCOMPARE(pairs[i].second, pairs[i - 1].second);
        }
        for (const auto &[dist2, w] : pairs) {
            if (dist2 == 0)
                QCOMPARE(w, 255);
            else if (dist2 > float(feather * feather))
                QCOMPARE(w, 0);
            else
                QVERIFY(w > 0 && w < 255);
        }
    }
}

void tst_Compositing::otherSizeMaskIsScaled()
{
    // A 10x10 mask with its left half white, applied to a 200x100 parent.
    QImage small(10, 10, QImage::Format_Grayscale8);
    small.fill(0);
    for (int y = 0; y < 10; ++y)
        for (int x = 0; x < 5; ++x)
            small.scanLine(y)[x] = 255;
    const auto mask = EditMask::fromImage(small, QSize(200, 100));
    QVERIFY(mask.ok());
    QCOMPARE(mask.value().size(), QSize(200, 100));
    const QRect box = mask.value().boundingRect();
    QCOMPARE(box.left(), 0);
    QVERIFY(std::abs(box.right() - 99) <= 10);
    QCOMPARE(box.top(), 0);
    QCOMPARE(box.bottom(), 99);
    // A colour image works through its luminance.
    QImage colour(4, 4, QImage::Format_RGB32);
    colour.fill(Qt::white);
    QCOMPARE(EditMask::fromImage(colour, QSize(8, 8)).value().selectedCount(), 64);
    QVERIFY(!EditMask::fromImage(QImage(), QSize(8, 8)).ok());
}

void tst_Compositing::maskFileIsScaledAndUnreadableFileIsAnError()
{
    QTemporaryDir dir;
    QImage grey(20, 20, QImage::Format_Grayscale8);
    grey.fill(255);
    const QString path = dir.filePath(QStringLiteral("mask.png"));
    QVERIFY(grey.save(path));
    const auto mask = EditMask::fromFile(path, QSize(64, 48));
    QVERIFY(mask.ok());
    QCOMPARE(mask.value().selectedCount(), 64 * 48);
    const QString junk = dir.filePath(QStringLiteral("junk.png"));
    QFile f(junk);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not a picture");
    f.close();
    const auto bad = EditMask::fromFile(junk, QSize(64, 48));
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().kind, ErrorKind::InvalidInput);
}

void tst_Compositing::selectionAtTheEdge()
{
    const QSize size(120, 90);
    const QImage parent = noiseImage(size, 5);
    const QImage answer = noiseImage(QSize(512, 512), 6);
    // Corners and edges, including a rect that hangs over the image.
    const QList<QRect> regions = {
        QRect(0, 0, 10, 10), QRect(110, 80, 30, 30), QRect(-5, 40, 20, 5), QRect(0, 0, 120, 90), QRect(119, 0, 1, 90)};
    for (const QRect &region : regions) {
        const EditMask mask = EditMask::fromRect(size, region);
        QVERIFY(!mask.boundingRect().isEmpty());
        QCOMPARE(mask.boundingRect(), region.intersected(QRect(QPoint(0, 0), size)));
        const CropBox crop = cropBoxFor(mask.boundingRect(), size, 12);
        QVERIFY(QRect(QPoint(0, 0), size).contains(crop.rect));
        QVERIFY(crop.rect.contains(mask.boundingRect()));
        const auto out = Compositor::pasteRegion(parent, answer, crop.rect, mask, 4);
        QVERIFY(out.ok());
        QCOMPARE(out.value().size(), size);
    }
}

void tst_Compositing::cropBoxesHaveSupportedRatiosAndContainTheSelection()
{
    QRandomGenerator rng(42);
    // Frames come from the server at supported ratios; a selection anywhere in them always has a crop of a supported ratio.
    // The model's sizes per ratio (1:1, 3:2, 2:3, 16:9, 9:16, 5:4, 21:9, 4:5, 4:3, 3:4).
    const QList<QSize> frames = {{1024, 1024}, {1248, 832}, {832, 1248}, {1344, 768}, {768, 1344}, {1152, 896},
        {1536, 672}, {896, 1152}, {1184, 864}, {864, 1184}};
    for (const QSize &frame : frames) {
        for (int round = 0; round < 200; ++round) {
            const int w = 1 + int(rng.bounded(frame.width())), h = 1 + int(rng.bounded(frame.height()));
            const QRect selection(
                int(rng.bounded(frame.width() - w + 1)), int(rng.bounded(frame.height() - h + 1)), w, h);
            const int margin = int(rng.bounded(64));
            const CropBox crop = cropBoxFor(selection, frame, margin);
            QVERIFY2(crop.exactRatio,
                qPrintable(QStringLiteral("%1x%2 in %3x%4").arg(w).arg(h).arg(frame.width()).arg(frame.height())));
            QVERIFY(supportedAspectRatios().contains(crop.aspectRatio));
            QVERIFY(crop.rect.contains(selection));
            QVERIFY(QRect(QPoint(0, 0), frame).contains(crop.rect));
            // Within 3 % of the named ratio (as the model's own sizes are).
            const double r = aspectRatioValue(crop.aspectRatio);
            QVERIFY(std::abs(double(crop.rect.width()) / crop.rect.height() / r - 1) <= 0.031);
        }
    }
}

void tst_Compositing::cropBoxFallsBackWhenNoRatioFits()
{
    // A 10:1 strip fits no supported ratio around the whole image: the box stays the image.
    const CropBox crop = cropBoxFor(QRect(0, 0, 1000, 100), QSize(1000, 100), 8);
    QVERIFY(!crop.exactRatio);
    QCOMPARE(crop.rect, QRect(0, 0, 1000, 100));
    QCOMPARE(crop.aspectRatio, QStringLiteral("21:9"));
}

void tst_Compositing::compositeSurvivesPngRoundTrip()
{
    const QSize size(64, 64);
    const QImage parent = decodedJpeg(noiseImage(size, 77));
    const EditMask mask = EditMask::fromRect(size, QRect(20, 20, 10, 10));
    const QImage out = Compositor::protect(parent, noiseImage(size, 78), mask, 3).value();
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    QVERIFY(out.save(&buffer, "PNG"));
    const QImage back = QImage::fromData(png, "PNG").convertToFormat(QImage::Format_ARGB32);
    QCOMPARE(back, out);
    const QImage p32 = parent.convertToFormat(QImage::Format_ARGB32);
    QCOMPARE(back.pixel(0, 0), p32.pixel(0, 0));
    QCOMPARE(back.pixel(63, 63), p32.pixel(63, 63));
}

void tst_Compositing::invertedSwapsSelection()
{
    const EditMask mask = EditMask::fromRect(QSize(10, 10), QRect(0, 0, 5, 10));
    QCOMPARE(mask.selectedCount(), 50);
    QCOMPARE(mask.inverted().selectedCount(), 50);
    QVERIFY(mask.inverted().isSelected(9, 0));
    QVERIFY(!mask.inverted().isSelected(0, 0));
}

QTEST_GUILESS_MAIN(tst_Compositing)
#include "tst_compositing.moc"
