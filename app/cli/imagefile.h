#pragma once

#include "core/api/interaction.h"
#include "core/common/error.h"

#include <QDateTime>
#include <QSize>
#include <QString>

namespace nb2 {

/** File extension for encoded image bytes, from their magic bytes (the declared MIME type only as a fallback). */
QString imageExtension(const QByteArray &bytes, const QString &declaredMimeType);

/** "<prefix>_<unix seconds>_<8 hex>.<ext>", the seed's concurrency-safe naming. */
QString imageFileName(const QString &prefix, qint64 unixSeconds, const QString &uniqueId8, const QString &extension);

/** Pixel size read from the image header (no full decode); invalid if unknown. */
QSize imagePixelSize(const QByteArray &bytes);

/**
 * Saves one result image into a folder under a fresh seed-style name, atomically
 * (QSaveFile: a crash never leaves a half-written image), creating the folder if needed.
 * Returns the absolute path or an Io error naming the path and the reason.
 */
Result<QString> saveResultImage(const ImageData &image, const QString &folder, const QString &prefix);

} // namespace nb2
