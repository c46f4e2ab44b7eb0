#include "core/api/imageinput.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>

#include <cmath>

namespace nb2 {

namespace {

qint64 base64Size(qint64 n)
{
    return 4 * ((n + 2) / 3);
}

QString megabytes(qint64 bytes)
{
    return QString::number(double(bytes) / 1e6, 'f', 1) + QStringLiteral(" MB");
}

QSize headerSize(const QByteArray &bytes)
{
    // QImageReader reads only the header for size(); no full decode on this path.
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer);
    const QSize size = reader.size();
    return size.isValid() ? size : QSize();
}

QString displayName(const QString &name)
{
    return name.isEmpty() ? QStringLiteral("the image") : QStringLiteral("'%1'").arg(name);
}

} // namespace

QString fileExtensionForImageMimeType(const QString &mimeType)
{
    const QString type = mimeType.toLower();
    if (type == QLatin1String("image/jpeg") || type == QLatin1String("image/jpg"))
        return QStringLiteral("jpg");
    if (type == QLatin1String("image/png"))
        return QStringLiteral("png");
    if (type == QLatin1String("image/webp"))
        return QStringLiteral("webp");
    if (type == QLatin1String("image/gif"))
        return QStringLiteral("gif");
    if (type == QLatin1String("image/bmp"))
        return QStringLiteral("bmp");
    if (type == QLatin1String("image/tiff"))
        return QStringLiteral("tif");
    if (type == QLatin1String("image/heic") || type == QLatin1String("image/heif"))
        return QStringLiteral("heic");
    return {};
}

QString sniffImageMimeType(const QByteArray &b)
{
    auto at = [&](qsizetype i) { return i < b.size() ? quint8(b.at(i)) : 0; };
    if (b.startsWith("\x89PNG\r\n\x1a\n"))
        return QStringLiteral("image/png");
    if (b.size() >= 3 && at(0) == 0xFF && at(1) == 0xD8 && at(2) == 0xFF)
        return QStringLiteral("image/jpeg");
    if (b.size() >= 12 && b.startsWith("RIFF") && b.mid(8, 4) == "WEBP")
        return QStringLiteral("image/webp");
    if (b.startsWith("GIF87a") || b.startsWith("GIF89a"))
        return QStringLiteral("image/gif");
    if (b.size() >= 14 && b.startsWith("BM"))
        return QStringLiteral("image/bmp");
    if (b.startsWith(QByteArray("II*\0", 4)) || b.startsWith(QByteArray("MM\0*", 4)))
        return QStringLiteral("image/tiff");
    if (b.size() >= 12 && b.mid(4, 4) == "ftyp") {
        const QByteArray brand = b.mid(8, 4);
        if (brand == "heic" || brand == "heix" || brand == "hevc" || brand == "hevx" || brand == "heim"
            || brand == "heis")
            return QStringLiteral("image/heic");
        if (brand == "mif1" || brand == "msf1" || brand == "heif")
            return QStringLiteral("image/heif");
    }
    return {};
}

const QStringList &supportedAspectRatios()
{
    static const QStringList ratios = {
        QStringLiteral("1:1"),
        QStringLiteral("3:2"),
        QStringLiteral("2:3"),
        QStringLiteral("3:4"),
        QStringLiteral("4:3"),
        QStringLiteral("4:5"),
        QStringLiteral("5:4"),
        QStringLiteral("9:16"),
        QStringLiteral("16:9"),
        QStringLiteral("21:9"),
    };
    return ratios;
}

QString nearestAspectRatio(const QSize &size)
{
    if (size.isEmpty())
        return QStringLiteral("1:1");
    const double target = std::log(double(size.width()) / double(size.height()));
    QString best = QStringLiteral("1:1");
    double bestDistance = 1e9;
    for (const QString &ratio : supportedAspectRatios()) {
        const QStringList wh = ratio.split(QLatin1Char(':'));
        const double r = std::log(wh.at(0).toDouble() / wh.at(1).toDouble());
        const double d = std::abs(r - target);
        if (d < bestDistance) {
            bestDistance = d;
            best = ratio;
        }
    }
    return best;
}

namespace {

quint32 bigEndian32(const QByteArray &b, qsizetype at)
{
    return (quint32(quint8(b[at])) << 24) | (quint32(quint8(b[at + 1])) << 16) | (quint32(quint8(b[at + 2])) << 8)
        | quint32(quint8(b[at + 3]));
}

QString pngDamage(const QByteArray &b)
{
    qsizetype at = 8; // after the signature
    while (at + 8 <= b.size()) {
        const qint64 length = bigEndian32(b, at);
        const QByteArray type = b.mid(at + 4, 4);
        const qint64 end = at + 8 + length + 4; // length, type, data, CRC
        if (length > 0x7fffffff || end > b.size())
            return QStringLiteral("the PNG ends inside its %1 chunk (the file is cut short)")
                .arg(QString::fromLatin1(type));
        if (type == "IEND")
            return {};
        at = end;
    }
    return QStringLiteral("the PNG ends before its IEND chunk (the file is cut short)");
}

QString jpegDamage(const QByteArray &b)
{
    // Segments up to the first scan; then the entropy-coded data must reach an EOI marker (FF D9).
    qsizetype at = 2;
    while (at + 4 <= b.size()) {
        if (quint8(b[at]) != 0xFF)
            return QStringLiteral("the JPEG's structure is broken");
        const quint8 marker = quint8(b[at + 1]);
        if (marker == 0xFF) {
            ++at; // fill byte
            continue;
        }
        if (marker == 0xD9)
            return {}; // EOI before any scan: nothing to decode, but not cut short
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
            at += 2;
            continue;
        }
        const qint64 length = (quint16(quint8(b[at + 2])) << 8) | quint8(b[at + 3]);
        if (at + 2 + length > b.size())
            return QStringLiteral("the JPEG ends inside a header segment (the file is cut short)");
        at += 2 + length;
        if (marker == 0xDA) { // start of scan: look for the end of the image
            for (qsizetype i = at; i + 1 < b.size(); ++i) {
                if (quint8(b[i]) == 0xFF && quint8(b[i + 1]) == 0xD9)
                    return {};
            }
            return QStringLiteral("the JPEG ends before its end-of-image marker (the file is cut short)");
        }
    }
    return QStringLiteral("the JPEG ends before its image data (the file is cut short)");
}

} // namespace

QString imageDamage(const QByteArray &bytes)
{
    const QString mime = sniffImageMimeType(bytes);
    if (mime == QLatin1String("image/png"))
        return pngDamage(bytes);
    if (mime == QLatin1String("image/jpeg"))
        return jpegDamage(bytes);
    if (mime == QLatin1String("image/webp") && bytes.size() >= 12) {
        const qint64 riff = qint64(quint8(bytes[4])) | (qint64(quint8(bytes[5])) << 8)
            | (qint64(quint8(bytes[6])) << 16) | (qint64(quint8(bytes[7])) << 24);
        if (8 + riff > bytes.size())
            return QStringLiteral("the WebP is shorter than its header says (the file is cut short)");
    }
    return {};
}

static Result<ImageInput> checkBytes(const QByteArray &bytes, const QString &name, bool allowOversize)
{
    if (bytes.isEmpty())
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("%1 is empty; choose a PNG, JPEG or WebP image.").arg(displayName(name)));
    const QString mime = sniffImageMimeType(bytes);
    if (mime.isEmpty()) {
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("%1 is not an image (its first bytes match no PNG, JPEG, WebP, GIF, "
                           "BMP, TIFF or HEIC signature); choose an image file.")
                .arg(displayName(name)));
    }
    // A cut-short picture decodes without an error (half grey): refuse it here, where every
    // import, edit-local target and style reference comes in, instead of keeping it as if whole.
    if (const QString damage = imageDamage(bytes); !damage.isEmpty())
        return Error::make(ErrorKind::Corrupt,
            QStringLiteral("%1 is damaged: %2. It was not imported or sent; use a "
                           "complete copy of the picture.")
                .arg(displayName(name), damage));
    const qint64 encoded = base64Size(bytes.size());
    if (!allowOversize && encoded > kMaxRequestBytes) {
        Error e = Error::make(ErrorKind::TooLarge,
            QStringLiteral("%1 is %2 (%3 once base64-encoded); a request may carry at most %4 inline. "
                           "Use a smaller image, or choose the explicit re-encode option to compress it as JPEG.")
                .arg(displayName(name), megabytes(bytes.size()), megabytes(encoded), megabytes(kMaxRequestBytes)));
        return e;
    }
    ImageInput input;
    input.bytes = bytes;
    input.mimeType = mime;
    input.fileName = name;
    input.size = headerSize(bytes);
    return input;
}

Result<ImageInput> loadImageInput(const QString &path, bool allowOversize)
{
    const QFileInfo info(path);
    if (path.isEmpty() || !info.exists())
        return Error::make(ErrorKind::Io, QStringLiteral("Image file '%1' does not exist; check the path.").arg(path));
    if (info.isDir())
        return Error::make(ErrorKind::Io, QStringLiteral("'%1' is a folder, not an image file.").arg(path));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return Error::make(ErrorKind::Io,
            QStringLiteral("Cannot read image file '%1': %2. Check its permissions.").arg(path, file.errorString()));
    }
    // Refuse absurd files before reading them into memory (a re-encode can still shrink them).
    if (file.size() > kMaxImageFileBytes) {
        return Error::make(ErrorKind::TooLarge,
            QStringLiteral("'%1' is %2; images over %3 are not accepted.")
                .arg(path, megabytes(file.size()), megabytes(kMaxImageFileBytes)));
    }
    const QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError) {
        return Error::make(
            ErrorKind::Io, QStringLiteral("Cannot read image file '%1': %2.").arg(path, file.errorString()));
    }
    return checkBytes(bytes, path, allowOversize);
}

Result<ImageInput> imageInputFromBytes(const QByteArray &bytes, const QString &name)
{
    return checkBytes(bytes, name, false);
}

Result<ImageInput> reencodeToFit(const ImageInput &input, qint64 maxBytes)
{
    QImage image;
    if (!image.loadFromData(input.bytes)) {
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("%1 cannot be decoded for re-encoding (unsupported or damaged image).")
                .arg(displayName(input.fileName)));
    }
    if (image.hasAlphaChannel()) {
        // JPEG has no alpha: flatten onto white rather than let transparent pixels turn black.
        QImage flat(image.size(), QImage::Format_RGB32);
        flat.fill(Qt::white);
        QImage src = image.convertToFormat(QImage::Format_ARGB32_Premultiplied);
        for (int y = 0; y < src.height(); ++y) {
            const auto *s = reinterpret_cast<const QRgb *>(src.constScanLine(y));
            auto *d = reinterpret_cast<QRgb *>(flat.scanLine(y));
            for (int x = 0; x < src.width(); ++x) {
                const int a = qAlpha(s[x]);
                d[x] = qRgb(qRed(s[x]) + (255 - a), qGreen(s[x]) + (255 - a), qBlue(s[x]) + (255 - a));
            }
        }
        image = flat;
    }

    auto encode = [](const QImage &img, int quality) {
        QByteArray out;
        QBuffer buffer(&out);
        buffer.open(QIODevice::WriteOnly);
        img.save(&buffer, "JPEG", quality);
        return out;
    };

    QImage current = image;
    for (int round = 0; round < 24; ++round) {
        for (int quality : {90, 80, 70, 60}) {
            const QByteArray jpeg = encode(current, quality);
            if (!jpeg.isEmpty() && base64Size(jpeg.size()) <= maxBytes) {
                ImageInput out;
                out.bytes = jpeg;
                out.mimeType = QStringLiteral("image/jpeg");
                out.fileName = input.fileName;
                out.size = current.size();
                return out;
            }
        }
        if (current.width() < 64 || current.height() < 64)
            break;
        current = current.scaled(current.size() * 0.8, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    }
    return Error::make(ErrorKind::TooLarge,
        QStringLiteral("%1 cannot be re-encoded under %2.").arg(displayName(input.fileName), megabytes(maxBytes)));
}

} // namespace nb2
