#include "core/mcp/mcpimagepreview.h"

#include <QBuffer>
#include <QImage>
#include <QImageReader>

namespace nb2 {

namespace {

Error previewError(const QString &message)
{
    return Error::make(ErrorKind::Io, message);
}

} // namespace

Result<ImagePreview> makeImagePreview(const QString &path, int maxSide)
{
    QImageReader reader(path);
    reader.setAutoTransform(true);
    const QSize original = reader.size();
    if (!original.isValid())
        return previewError(QStringLiteral("cannot read %1 for a preview: %2").arg(path, reader.errorString()));
    QSize target = original;
    if (qMax(original.width(), original.height()) > maxSide)
        target = original.scaled(maxSide, maxSide, Qt::KeepAspectRatio);
    // Decoders such as JPEG's scale while decoding: a 1K image never exists full size here.
    reader.setScaledSize(target);
    QImage image = reader.read();
    if (image.isNull())
        return previewError(QStringLiteral("cannot decode %1 for a preview: %2").arg(path, reader.errorString()));

    ImagePreview preview;
    preview.originalSize = original;
    preview.size = image.size();
    QBuffer buffer(&preview.bytes);
    buffer.open(QIODevice::WriteOnly);
    const bool png = image.hasAlphaChannel();
    if (!image.save(&buffer, png ? "PNG" : "JPEG", png ? -1 : 82))
        return previewError(QStringLiteral("cannot encode a preview of %1").arg(path));
    preview.mimeType = png ? QStringLiteral("image/png") : QStringLiteral("image/jpeg");
    return preview;
}

} // namespace nb2
