#include "core/fakeapi/fakeimagepainter.h"

#include "core/fakeapi/bitmapfont.h"

#include <QBuffer>
#include <QColor>
#include <QCryptographicHash>
#include <QImageWriter>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>
#include <QRegularExpression>

#include <cmath>

namespace nb2 {

namespace {

struct AspectSize {
    const char *ratio;
    int w;
    int h;
};

// The 1K output sizes the Gemini image models document for each ratio (about 1 MP).
const AspectSize kSizes[] = {
    {"1:1", 1024, 1024},
    {"3:2", 1248, 832},
    {"2:3", 832, 1248},
    {"3:4", 864, 1184},
    {"4:3", 1184, 864},
    {"4:5", 896, 1152},
    {"5:4", 1152, 896},
    {"9:16", 768, 1344},
    {"16:9", 1344, 768},
    {"21:9", 1536, 672},
};

QByteArray digest(const QString &text)
{
    // SHA-256 rather than qHash: qHash may be seeded per process, and the pictures must be
    // identical across runs.
    return QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256);
}

int byteAt(const QByteArray &h, int i)
{
    return static_cast<unsigned char>(h.at(i % h.size()));
}

QColor hashColor(const QByteArray &h, int i, int minValue = 120)
{
    const int hue = (byteAt(h, i) * 360 / 256 + byteAt(h, i + 1)) % 360;
    const int sat = 120 + byteAt(h, i + 2) % 120;
    const int val = minValue + byteAt(h, i + 3) % (256 - minValue);
    return QColor::fromHsv(hue, sat, val);
}

int captionScale(int width)
{
    return std::max(2, width / (56 * BitmapFont::Advance));
}

int captionStripHeight(int lines, int scale)
{
    return lines * BitmapFont::LineHeight * scale + 4 * scale;
}

void drawCaption(QImage &img, const QStringList &lines)
{
    if (lines.isEmpty())
        return;
    const int scale = captionScale(img.width());
    const int stripH = captionStripHeight(int(lines.size()), scale);
    const int top = img.height() - stripH;
    {
        QPainter p(&img);
        p.fillRect(QRect(0, top, img.width(), stripH), QColor(16, 16, 20));
    }
    int y = top + 2 * scale + scale;
    for (const QString &line : lines) {
        BitmapFont::drawText(img, 3 * scale, y, line, QColor(245, 245, 235), scale);
        y += BitmapFont::LineHeight * scale;
    }
}

int maxCaptionChars(int width)
{
    const int scale = captionScale(width);
    return std::max(8, (width - 6 * scale) / (BitmapFont::Advance * scale));
}

QImage fitTo(const QImage &src, QSize size)
{
    QImage img = src.convertToFormat(QImage::Format_RGB32);
    if (img.size() == size)
        return img;
    // Cover-crop: fill the target, keep the centre, so a ratio change never letterboxes.
    const QImage scaled = img.scaled(size, Qt::KeepAspectRatioByExpanding, Qt::SmoothTransformation);
    const int x = (scaled.width() - size.width()) / 2;
    const int y = (scaled.height() - size.height()) / 2;
    return scaled.copy(x, y, size.width(), size.height()).convertToFormat(QImage::Format_RGB32);
}

void drawShape(QPainter &p, int kind, const QPointF &c, qreal r, const QColor &fill)
{
    p.setPen(QPen(fill.darker(170), std::max<qreal>(2.0, r / 14.0)));
    p.setBrush(fill);
    switch (kind % 4) {
    case 0:
        p.drawEllipse(c, r, r);
        break;
    case 1:
        p.drawRoundedRect(QRectF(c.x() - r, c.y() - r * 0.7, 2 * r, 1.4 * r), r / 5, r / 5);
        break;
    case 2: {
        QPolygonF tri;
        tri << QPointF(c.x(), c.y() - r) << QPointF(c.x() + r * 0.9, c.y() + r * 0.7)
            << QPointF(c.x() - r * 0.9, c.y() + r * 0.7);
        p.drawPolygon(tri);
        break;
    }
    default: {
        QPolygonF star;
        for (int k = 0; k < 10; ++k) {
            const qreal rr = (k % 2 == 0) ? r : r * 0.45;
            const qreal a = -M_PI / 2 + k * M_PI / 5;
            star << QPointF(c.x() + rr * std::cos(a), c.y() + rr * std::sin(a));
        }
        p.drawPolygon(star);
        break;
    }
    }
}

/** A colour named in the prompt wins over the hash, so "add a red hat" looks red. */
bool colourWord(const QString &prompt, QColor *out)
{
    static const struct {
        const char *word;
        QRgb rgb;
    } words[] = {
        {"red", 0xd62828},
        {"orange", 0xf77f00},
        {"yellow", 0xfcbf49},
        {"gold", 0xd4af37},
        {"green", 0x2a9d3f},
        {"blue", 0x1d4ed8},
        {"purple", 0x7b2cbf},
        {"violet", 0x8f5cf7},
        {"pink", 0xff70a6},
        {"white", 0xf5f5f5},
        {"black", 0x111111},
        {"brown", 0x7f4f24},
        {"cyan", 0x00b4d8},
        {"teal", 0x2a9d8f},
    };
    const QString lower = prompt.toLower();
    qsizetype best = -1;
    for (const auto &w : words) {
        const QRegularExpression re(QStringLiteral("\\b%1\\b").arg(QLatin1String(w.word)));
        const QRegularExpressionMatch m = re.match(lower);
        if (m.hasMatch() && (best < 0 || m.capturedStart() < best)) {
            best = m.capturedStart();
            *out = QColor::fromRgb(w.rgb);
        }
    }
    return best >= 0;
}

bool hasWord(const QString &lower, const char *const *words)
{
    for (; *words; ++words) {
        if (QRegularExpression(QStringLiteral("\\b%1").arg(QLatin1String(*words))).match(lower).hasMatch())
            return true;
    }
    return false;
}

void applyGlobalMood(QImage &img, const QString &prompt)
{
    static const char *const dark[] = {"night", "dark", "midnight", "evening", nullptr};
    static const char *const bright[] = {"bright", "sunny", "daylight", "lighter", nullptr};
    static const char *const grey[] = {"grey", "gray", "monochrome", "black and white", nullptr};
    const QString lower = prompt.toLower();
    QPainter p(&img);
    if (hasWord(lower, dark)) {
        p.fillRect(img.rect(), QColor(10, 16, 60, 150));
    } else if (hasWord(lower, bright)) {
        p.fillRect(img.rect(), QColor(255, 244, 200, 90));
    } else if (hasWord(lower, grey)) {
        p.end();
        img = img.convertToFormat(QImage::Format_Grayscale8).convertToFormat(QImage::Format_RGB32);
    }
}

/** The visible, prompt-derived change an edit adds: confined to the right-hand part, above
 *  the caption, so the parent's top-left stays recognisable. */
void applyLocalChange(QImage &img, const QString &prompt, int captionTop)
{
    const QByteArray h = digest(prompt);
    QColor fill;
    if (!colourWord(prompt, &fill))
        fill = hashColor(h, 0);
    const int w = img.width();
    const int hgt = std::max(1, captionTop);
    const qreal minDim = std::min(w, hgt);
    const qreal r = minDim * (0.10 + (byteAt(h, 5) % 10) / 100.0);
    const qreal cx = w * (0.58 + (byteAt(h, 6) % 30) / 100.0);
    const qreal cy = hgt * (0.35 + (byteAt(h, 7) % 35) / 100.0);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    // A soft halo makes the change obvious at thumbnail size.
    QColor halo = fill;
    halo.setAlpha(70);
    p.setPen(Qt::NoPen);
    p.setBrush(halo);
    p.drawEllipse(QPointF(cx, cy), r * 1.5, r * 1.5);
    drawShape(p, byteAt(h, 8), QPointF(cx, cy), r, fill);
}

} // namespace

QStringList FakeImagePainter::aspectRatios()
{
    QStringList out;
    for (const AspectSize &s : kSizes)
        out << QLatin1String(s.ratio);
    return out;
}

QSize FakeImagePainter::sizeForAspect(const QString &ratio)
{
    for (const AspectSize &s : kSizes) {
        if (ratio == QLatin1String(s.ratio))
            return QSize(s.w, s.h);
    }
    return QSize();
}

QString FakeImagePainter::nearestAspect(QSize size)
{
    if (size.isEmpty())
        return QStringLiteral("1:1");
    const double target = std::log(double(size.width()) / size.height());
    QString best = QStringLiteral("1:1");
    double bestDist = 1e9;
    for (const AspectSize &s : kSizes) {
        const double d = std::abs(std::log(double(s.w) / s.h) - target);
        if (d < bestDist) {
            bestDist = d;
            best = QLatin1String(s.ratio);
        }
    }
    return best;
}

QImage FakeImagePainter::generate(const QString &prompt, QSize size, QStringList *captionLines)
{
    const QByteArray h = digest(prompt);
    QImage img(size, QImage::Format_RGB32);
    {
        QPainter p(&img);
        p.setRenderHint(QPainter::Antialiasing);
        QLinearGradient sky(0, 0, 0, size.height());
        sky.setColorAt(0, hashColor(h, 0, 90));
        sky.setColorAt(1, hashColor(h, 4, 60));
        p.fillRect(img.rect(), sky);

        // A horizon band gives every picture a "scene" and makes crops easy to see.
        const int horizon = size.height() * (50 + byteAt(h, 8) % 20) / 100;
        QColor ground = hashColor(h, 9, 50);
        p.fillRect(QRect(0, horizon, size.width(), size.height() - horizon), ground);

        const int shapes = 3 + byteAt(h, 12) % 4;
        const qreal minDim = std::min(size.width(), size.height());
        for (int i = 0; i < shapes; ++i) {
            const int o = 13 + i * 3;
            const qreal r = minDim * (0.06 + (byteAt(h, o) % 16) / 100.0);
            const QPointF c(size.width() * (0.1 + (byteAt(h, o + 1) % 80) / 100.0),
                size.height() * (0.12 + (byteAt(h, o + 2) % 60) / 100.0));
            drawShape(p, byteAt(h, o) + i, c, r, hashColor(h, o + 1));
        }
    }
    const QStringList lines = BitmapFont::wrap(prompt, maxCaptionChars(size.width()), 3);
    drawCaption(img, lines);
    if (captionLines)
        *captionLines = lines;
    return img;
}

QImage FakeImagePainter::edit(
    const QImage &base, const QString &prompt, QSize size, const QStringList &parentCaption, QStringList *captionLines)
{
    QImage img = fitTo(base, size);
    applyGlobalMood(img, prompt);

    const int maxChars = maxCaptionChars(size.width());
    QStringList lines = parentCaption;
    const QStringList added = BitmapFont::wrap(QStringLiteral("+ ") + prompt, maxChars, 2);
    lines += added;
    while (lines.size() > 5)
        lines.removeFirst();
    const int captionTop = size.height() - captionStripHeight(int(lines.size()), captionScale(size.width()));
    applyLocalChange(img, prompt, captionTop);
    drawCaption(img, lines);
    if (captionLines)
        *captionLines = lines;
    return img;
}

QImage FakeImagePainter::editLocal(
    const QImage &target, const QImage &style, const QString &prompt, QSize size, QStringList *captionLines)
{
    QImage img = fitTo(target, size);
    QStringList caption;
    if (!style.isNull()) {
        QColor tint = averageColor(style);
        tint.setAlpha(95);
        QPainter p(&img);
        p.fillRect(img.rect(), tint);
        caption << QStringLiteral("STYLE REFERENCE APPLIED");
    }
    return edit(img, prompt, size, caption, captionLines);
}

QImage FakeImagePainter::draft(const QImage &finalImage)
{
    if (finalImage.isNull())
        return {};
    const QSize small = finalImage.size() / 4;
    QImage tiny = finalImage.scaled(finalImage.size() / 24, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    QImage img
        = tiny.scaled(small, Qt::IgnoreAspectRatio, Qt::SmoothTransformation).convertToFormat(QImage::Format_RGB32);
    {
        QPainter p(&img);
        p.fillRect(img.rect(), QColor(128, 128, 128, 110));
    }
    BitmapFont::drawText(img, 6, 6, QStringLiteral("DRAFT"), QColor(255, 255, 255), 2);
    return img;
}

QByteArray FakeImagePainter::encodeJpeg(const QImage &image, int quality)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "jpeg");
    writer.setQuality(quality);
    if (!writer.write(image.convertToFormat(QImage::Format_RGB32)))
        return {};
    return bytes;
}

QColor FakeImagePainter::averageColor(const QImage &image, const QRect &region)
{
    if (image.isNull())
        return {};
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    const QRect r = region.isNull() ? img.rect() : region.intersected(img.rect());
    if (r.isEmpty())
        return {};
    const int step = std::max(1, std::min(r.width(), r.height()) / 64);
    quint64 sr = 0, sg = 0, sb = 0, n = 0;
    for (int y = r.top(); y <= r.bottom(); y += step) {
        const auto *line = reinterpret_cast<const QRgb *>(img.constScanLine(y));
        for (int x = r.left(); x <= r.right(); x += step) {
            sr += quint64(qRed(line[x]));
            sg += quint64(qGreen(line[x]));
            sb += quint64(qBlue(line[x]));
            ++n;
        }
    }
    return QColor(int(sr / n), int(sg / n), int(sb / n));
}

} // namespace nb2
