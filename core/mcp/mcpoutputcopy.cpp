#include "core/mcp/mcpoutputcopy.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace nb2 {

namespace {

Error ioError(const QString &message)
{
    return Error::make(ErrorKind::Io, message);
}

} // namespace

Result<QString> copyImageToFolder(const QString &sourcePath, const QString &folder)
{
    const QDir dir(folder);
    if (!dir.exists() && !QDir().mkpath(dir.absolutePath()))
        return ioError(QStringLiteral("cannot create IMAGE_OUTPUT_DIR %1").arg(dir.absolutePath()));
    const QString target = dir.absoluteFilePath(QFileInfo(sourcePath).fileName());
    const QFileInfo targetInfo(target);
    if (targetInfo.exists() || targetInfo.isSymLink())
        return ioError(QStringLiteral("%1 already exists; it was not overwritten").arg(target));

    QFile source(sourcePath);
    if (!source.open(QIODevice::ReadOnly))
        return ioError(QStringLiteral("cannot read %1: %2").arg(sourcePath, source.errorString()));
    const QByteArray bytes = source.readAll();
    QSaveFile out(target);
    if (!out.open(QIODevice::WriteOnly))
        return ioError(QStringLiteral("cannot write %1: %2").arg(target, out.errorString()));
    if (out.write(bytes) != bytes.size() || !out.commit())
        return ioError(
            QStringLiteral("writing %1 failed: %2 (nothing was left behind)").arg(target, out.errorString()));
    return QFileInfo(target).absoluteFilePath();
}

} // namespace nb2
