#include "app/cli/imagefile.h"

#include "app/cli/clitext.h"
#include "core/api/imageinput.h"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QImageReader>
#include <QSaveFile>
#include <QUuid>

namespace nb2 {

namespace {

Error ioError(const QString &message)
{
    Error error;
    error.kind = ErrorKind::Io;
    error.message = message;
    return error;
}

} // namespace

QString imageExtension(const QByteArray &bytes, const QString &declaredMimeType)
{
    // The bytes are the truth: a server that says image/png but sends JPEG gets a .jpg.
    QString extension = fileExtensionForImageMimeType(sniffImageMimeType(bytes));
    if (extension.isEmpty())
        extension = fileExtensionForImageMimeType(declaredMimeType);
    return extension.isEmpty() ? QStringLiteral("bin") : extension;
}

QString imageFileName(const QString &prefix, qint64 unixSeconds, const QString &uniqueId8, const QString &extension)
{
    return QStringLiteral("%1_%2_%3.%4").arg(prefix).arg(unixSeconds).arg(uniqueId8, extension);
}

QSize imagePixelSize(const QByteArray &bytes)
{
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer);
    return reader.size();
}

Result<QString> saveResultImage(const ImageData &image, const QString &folder, const QString &prefix)
{
    if (image.isNull())
        return ioError(cli::CliText::tr("there is no image to save"));
    QDir dir(folder);
    if (!dir.exists() && !QDir().mkpath(dir.absolutePath()))
        return ioError(
            cli::CliText::tr("cannot create the output folder %1; choose another with --out or IMAGE_OUTPUT_DIR")
                .arg(dir.absolutePath()));

    const QString extension = imageExtension(image.bytes, image.mimeType);
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    // A fresh random id per attempt; a collision is astronomically unlikely but cheap to avoid.
    QString path;
    for (int attempt = 0; attempt < 8; ++attempt) {
        const QString uniqueId = QUuid::createUuid().toString(QUuid::Id128).left(8);
        path = dir.absoluteFilePath(imageFileName(prefix, now, uniqueId, extension));
        if (!QFileInfo::exists(path))
            break;
    }

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return ioError(
            cli::CliText::tr("cannot write %1: %2; choose another folder with --out").arg(path, file.errorString()));
    if (file.write(image.bytes) != image.bytes.size() || !file.commit())
        return ioError(
            cli::CliText::tr("writing %1 failed: %2 (nothing was left behind)").arg(path, file.errorString()));
    return QFileInfo(path).absoluteFilePath();
}

} // namespace nb2
