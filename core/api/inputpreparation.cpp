#include "core/api/inputpreparation.h"

#include <QBuffer>
#include <QImageReader>

#include <cmath>
#include <mutex>

namespace nb2 {

namespace {

QString displayName(const QString &name)
{
    return name.isEmpty() ? QStringLiteral("the image") : QStringLiteral("'%1'").arg(name);
}

QString megapixels(qint64 pixels)
{
    return QString::number(double(pixels) / 1e6, 'f', 1);
}

void raiseAllocationLimitOnce()
{
    // Qt refuses any image over 256 MB by default, a limit of its own that turned a valid
    // 12000×12000 PNG into "Unable to read image data". Our pixel bounds are checked before
    // every decode here, so Qt's may be as high as the largest decode we allow.
    static std::once_flag once;
    std::call_once(once, [] {
        const int neededMb = int(kMaxDownscalePixels * 4 / (1024 * 1024)) + 64;
        if (QImageReader::allocationLimit() < neededMb)
            QImageReader::setAllocationLimit(neededMb);
    });
}

QByteArray encodePng(const QImage &image)
{
    QByteArray out;
    QBuffer buffer(&out);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return out;
}

} // namespace

bool isApiInputType(const QString &mimeType)
{
    static const QStringList types {QStringLiteral("image/png"), QStringLiteral("image/jpeg"),
        QStringLiteral("image/webp"), QStringLiteral("image/heic"), QStringLiteral("image/heif")};
    return types.contains(mimeType.toLower());
}

QSize modelInputSize(const QSize &size)
{
    if (size.isEmpty())
        return size;
    const double pixels = double(size.width()) * size.height();
    if (pixels <= double(kModelInputPixels))
        return size;
    const double scale = std::sqrt(double(kModelInputPixels) / pixels);
    return QSize(qMax(1, int(std::floor(size.width() * scale))), qMax(1, int(std::floor(size.height() * scale))));
}

Result<QImage> decodeImageBounded(const QByteArray &bytes, const QString &name, qint64 maxPixels)
{
    raiseAllocationLimitOnce();
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer);
    const QSize size = reader.size();
    if (size.isValid() && qint64(size.width()) * size.height() > maxPixels) {
        const qint64 pixels = qint64(size.width()) * size.height();
        const QSize target = modelInputSize(size);
        Error e = Error::make(ErrorKind::TooLarge,
            QStringLiteral("%1 is too large to open: %2×%3 pixels (%4 megapixels); the limit is %5 megapixels. "
                           "Downscale it to the model's input size (%6×%7) to use it.")
                .arg(displayName(name))
                .arg(size.width())
                .arg(size.height())
                .arg(megapixels(pixels), megapixels(maxPixels))
                .arg(target.width())
                .arg(target.height()));
        return e;
    }
    const QImage image = reader.read();
    if (image.isNull()) {
        if (reader.error() == QImageReader::UnsupportedFormatError)
            return Error::make(ErrorKind::InvalidInput,
                QStringLiteral("%1 is of a type this system cannot decode; convert it to PNG or JPEG first.")
                    .arg(displayName(name)));
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("%1 is damaged or incomplete: %2.").arg(displayName(name), reader.errorString()));
    }
    return image;
}

Result<ImageInput> downscaleToModelInput(const ImageInput &input)
{
    const Result<QImage> decoded = decodeImageBounded(input.bytes, input.fileName, kMaxDownscalePixels);
    if (!decoded)
        return decoded.error();
    const QImage &full = decoded.value();
    const QSize target = modelInputSize(full.size());
    const QImage scaled
        = target == full.size() ? full : full.scaled(target, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    ImageInput out;
    out.bytes = encodePng(scaled);
    if (out.bytes.isEmpty())
        return Error::make(
            ErrorKind::Io, QStringLiteral("%1 could not be encoded as PNG.").arg(displayName(input.fileName)));
    out.mimeType = QStringLiteral("image/png");
    out.fileName = input.fileName;
    out.size = scaled.size();
    return out;
}

Result<ImageInput> convertToApiType(const ImageInput &input, QString *note)
{
    if (note)
        note->clear();
    if (isApiInputType(input.mimeType))
        return input;
    QBuffer buffer;
    buffer.setData(input.bytes);
    buffer.open(QIODevice::ReadOnly);
    QImageReader counter(&buffer);
    const int frames = counter.imageCount();
    const Result<QImage> first = decodeImageBounded(input.bytes, input.fileName, kMaxOpenPixels);
    if (!first)
        return first.error();
    ImageInput out;
    out.bytes = encodePng(first.value());
    if (out.bytes.isEmpty())
        return Error::make(
            ErrorKind::Io, QStringLiteral("%1 could not be converted to PNG.").arg(displayName(input.fileName)));
    out.mimeType = QStringLiteral("image/png");
    out.fileName = input.fileName;
    out.size = first.value().size();
    if (note) {
        const QString type = input.mimeType.section(QLatin1Char('/'), 1).toUpper();
        *note = frames > 1
            ? QStringLiteral("%1 is an animated %2, which the API does not take: sent its first frame (of %3) as PNG.")
                  .arg(displayName(input.fileName), type)
                  .arg(frames)
            : QStringLiteral("%1 is a %2 image, which the API does not take: sent as PNG.")
                  .arg(displayName(input.fileName), type);
    }
    return out;
}

} // namespace nb2
