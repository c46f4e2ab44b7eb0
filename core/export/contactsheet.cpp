#include "core/export/contactsheet.h"

#include "core/export/captionfont.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFont>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QImageReader>
#include <QPainter>

#include <cmath>

namespace nb2 {

namespace {

// tr() for this file's functions with the context "nb2::ContactSheet": a struct, not a free function, so
// that lupdate files the texts under the context they are looked up in.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(nb2::ContactSheet)
};

constexpr int kGap = 16;
constexpr int kMargin = 24;
constexpr int kCaptionHeight = 34; // two lines of the bitmap font
constexpr int kTitleHeight = 44;
constexpr int kSmallSheetColumns = 6; // up to 36 frames: large cells
constexpr int kMaxAutoColumns = 24;   // more: smaller cells, more columns
constexpr int kMinCell = 48;
constexpr int kMaxSide = 6400; // at most ~41 megapixels (160 MB) however large the session
const QColor kBackground(0xf6, 0xf5, 0xf2);
const QColor kInk(0x1d, 0x1d, 0x1f);
const QColor kMuted(0x6b, 0x6b, 0x70);

bool haveGui()
{
    return qobject_cast<QGuiApplication *>(QCoreApplication::instance()) != nullptr;
}

// Draws one line of text at (x, top) within width, elided; font when possible, bitmap otherwise.
void drawLine(QImage *img, QPainter *p, int x, int top, int width, const QString &text, const QColor &color, bool bold,
    int pixelSize)
{
    if (haveGui()) {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPixelSize(pixelSize);
        f.setBold(bold);
        p->setFont(f);
        p->setPen(color);
        const QFontMetrics fm(f);
        p->drawText(x, top + fm.ascent(), fm.elidedText(text, Qt::ElideRight, width));
        return;
    }
    const int scale = pixelSize >= 20 ? 2 : 1;
    CaptionFont::draw(img, QPoint(x, top), CaptionFont::elided(text, width, scale), color, scale);
}

QImage thumbnail(const QString &path, int box)
{
    QImageReader reader(path);
    reader.setAutoTransform(true);
    const QSize size = reader.size();
    if (size.isValid())
        reader.setScaledSize(size.scaled(box, box, Qt::KeepAspectRatio));
    return reader.read();
}

} // namespace

QString ContactSheet::caption(int n, const ExportFrame &frame, bool stripPrompts)
{
    QString s
        = QLatin1Char('#') + QString::number(frame.turn > 0 ? frame.turn : n) + QLatin1Char(' ') + frame.kindText();
    if (frame.isFailed())
        s += QLatin1Char(' ') + Text::tr("(failed)");
    if (!stripPrompts && !frame.prompt.isEmpty())
        s += QLatin1String(" - ") + frame.prompt.simplified();
    return s;
}

QImage ContactSheet::render(const QList<const ExportFrame *> &frames, const QString &title,
    const ContactSheetOptions &options, QStringList *warnings)
{
    const int count = int(frames.size());
    const int cols = options.columns > 0
        ? options.columns
        : qBound(1, int(std::ceil(std::sqrt(double(count)))),
            count <= kSmallSheetColumns * kSmallSheetColumns ? kSmallSheetColumns : kMaxAutoColumns);
    const int rows = qMax(1, (count + cols - 1) / cols);
    const int captionH = options.captions ? kCaptionHeight : 0;
    // Large sessions get smaller cells so that the sheet stays a sane image (<= kMaxSide).
    const int fitHeight = (kMaxSide - 2 * kMargin - kTitleHeight) / rows - captionH - kGap;
    const int fitWidth = (kMaxSide - 2 * kMargin) / cols - kGap;
    const int cell = qBound(kMinCell, qMin(options.cellSize, qMin(fitHeight, fitWidth)), 2048);
    const int width = 2 * kMargin + cols * cell + (cols - 1) * kGap;
    const int height = 2 * kMargin + kTitleHeight + rows * (cell + captionH) + (rows - 1) * kGap;

    QImage sheet(width, height, QImage::Format_RGB32);
    sheet.fill(kBackground);
    QPainter p(&sheet);
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    p.setRenderHint(QPainter::TextAntialiasing);
    p.setRenderHint(QPainter::Antialiasing);
    drawLine(&sheet, &p, kMargin, kMargin, width - 2 * kMargin, title, kInk, true, 22);

    const SessionPaths paths(options.sessionDir);
    for (int i = 0; i < count; ++i) {
        const ExportFrame &f = *frames.at(i);
        const int x = kMargin + (i % cols) * (cell + kGap);
        const int y = kMargin + kTitleHeight + (i / cols) * (cell + captionH + kGap);
        const QRect box(x, y, cell, cell);
        p.fillRect(box, QColor(0xe9, 0xe7, 0xe1));
        QImage thumb;
        if (f.hasImage()) {
            const Result<QString> file
                = options.sessionDir.isEmpty() ? Result<QString>(f.imagePath) : ExportSession::imageFileIn(paths, f);
            if (file)
                thumb = thumbnail(file.value(), cell);
        }
        if (!thumb.isNull()) {
            const QSize s = thumb.size().scaled(cell, cell, Qt::KeepAspectRatio);
            p.drawImage(QRect(QPoint(x + (cell - s.width()) / 2, y + (cell - s.height()) / 2), s), thumb);
        } else {
            if (f.hasImage() && warnings)
                warnings->append(Text::tr("Frame #%1: the image could not be decoded.").arg(i + 1));
            p.setPen(QPen(kMuted, 1, Qt::DashLine));
            p.drawRect(box.adjusted(0, 0, -1, -1));
            const QString label = f.isFailed() ? Text::tr("failed") : Text::tr("no image");
            drawLine(&sheet, &p, x + 10, y + cell / 2 - 8, cell - 20, label, kMuted, false, 13);
        }
        if (options.captions) {
            // The whole caption wraps onto a second line once, then elides.
            const QString text = caption(i + 1, f, options.stripPrompts);
            const int perLine = qMax(1, (cell - 4) / CaptionFont::kGlyphWidth);
            QString first = text, second;
            if (!haveGui() && text.size() > perLine) {
                int cut = int(text.lastIndexOf(QLatin1Char(' '), perLine));
                if (cut < perLine / 2)
                    cut = perLine;
                first = text.left(cut);
                second = text.mid(cut).trimmed();
            } else if (haveGui()) {
                QFont fnt(QStringLiteral("DejaVu Sans"));
                fnt.setPixelSize(13);
                const QFontMetrics fm(fnt);
                int cut = int(text.size());
                while (cut > 0 && fm.horizontalAdvance(text.left(cut)) > cell)
                    cut = int(text.lastIndexOf(QLatin1Char(' '), cut - 1));
                if (cut <= 0)
                    cut = int(text.size());
                first = text.left(cut);
                second = text.mid(cut).trimmed();
            }
            drawLine(&sheet, &p, x, y + cell + 3, cell, first, kInk, false, 13);
            if (!second.isEmpty())
                drawLine(&sheet, &p, x, y + cell + 3 + 15, cell, second, kMuted, false, 13);
        }
    }
    p.end();
    return sheet;
}

Result<ExportReport> ContactSheet::write(const QList<const ExportFrame *> &frames, const QString &title,
    const QString &outFile, const ContactSheetOptions &options)
{
    ExportReport report;
    report.output = outFile;
    report.frames = int(frames.size());
    if (frames.isEmpty()) {
        return Error::make(ErrorKind::InvalidInput, Text::tr("There are no frames to put on a contact sheet."));
    }
    const int cols = options.columns > 0 ? options.columns : kMaxAutoColumns;
    const int maxRows
        = (kMaxSide - 2 * kMargin - kTitleHeight) / (kMinCell + (options.captions ? kCaptionHeight : 0) + kGap);
    if (frames.size() > qsizetype(cols) * maxRows) {
        return Error::make(ErrorKind::InvalidInput,
            Text::tr("%1 frames do not fit on one contact sheet (at most %2); choose a branch or some frames.")
                .arg(frames.size())
                .arg(cols * maxRows));
    }
    if (const Result<void> target = OutputFile::checkTarget(outFile, options.existing); !target)
        return target.error(); // before the (slow) drawing
    // Every image is checked before anything is drawn, so a path leading out of the session
    // fails the export instead of being drawn into it.
    const SessionPaths paths(options.sessionDir);
    for (const ExportFrame *f : frames) {
        if (!f->hasImage())
            continue;
        if (const Result<QString> file = ExportSession::imageFileIn(paths, *f); !file)
            return file.error();
    }
    const QImage sheet = render(frames, title, options, &report.warnings);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!sheet.save(&buffer, "PNG")) {
        return Error::make(ErrorKind::Io, Text::tr("The contact sheet could not be encoded as PNG."));
    }
    auto written = exportfiles::writeAtomically(outFile, png, options.existing);
    if (!written)
        return written.error();
    report.bytesWritten = written.value();
    return report;
}

} // namespace nb2
