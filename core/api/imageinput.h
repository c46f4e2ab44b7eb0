#pragma once

#include "core/common/error.h"

#include <QByteArray>
#include <QSize>
#include <QString>
#include <QStringList>

namespace nb2 {

/** An image the user supplies (edit-local target or style reference): bytes plus sniffed type. */
struct ImageInput {
    QByteArray bytes;
    QString mimeType; // sniffed from the magic bytes, never from the file name
    QString fileName; // for messages only; may be empty
    QSize size;       // pixel size read from the header (no full decode)
};

/** The whole create request may not exceed this (spec §2.1, inline data limit). */
constexpr qint64 kMaxRequestBytes = 20 * 1000 * 1000;

/** No image file bigger than this is read into memory (a re-encode can shrink one up to it). */
constexpr qint64 kMaxImageFileBytes = 512LL * 1000 * 1000;

/** MIME type from magic bytes: image/png, image/jpeg, image/webp, image/gif, image/bmp, image/tiff, image/heic; empty if none. */
QString sniffImageMimeType(const QByteArray &bytes);

/**
 * Why encoded image bytes are damaged, or empty when they look whole: a PNG must reach its
 * IEND chunk, a JPEG its end-of-image marker after the scan data, a WebP its RIFF length.
 * Structure only (no decode, cheap); other formats are not judged. A truncated file decodes
 * into a half-grey picture without an error, so this is what tells it apart.
 */
QString imageDamage(const QByteArray &bytes);

/** File extension for an image MIME type ("jpg", "png", "webp", "gif", "bmp", "tif", "heic"); empty if unknown. */
QString fileExtensionForImageMimeType(const QString &mimeType);

/** Aspect ratios gemini-3.1-flash-lite-image accepts (spec §2.2). */
const QStringList &supportedAspectRatios();

/** The supported ratio closest to the size's (log-ratio distance); "1:1" for an empty size. */
QString nearestAspectRatio(const QSize &size);

/**
 * Reads and checks a local image: exists, readable, really an image, under the size limit.
 * allowOversize skips the 20 MB check so that the caller can offer reencodeToFit().
 */
Result<ImageInput> loadImageInput(const QString &path, bool allowOversize = false);

/** Checks bytes from memory (paste, drop of image data). */
Result<ImageInput> imageInputFromBytes(const QByteArray &bytes, const QString &name);

/**
 * Explicit, opt-in re-encoding of an oversized input as JPEG so that its base64 fits in
 * maxBytes (quality stepped down, then scaled). Never applied silently.
 */
Result<ImageInput> reencodeToFit(const ImageInput &input, qint64 maxBytes);

} // namespace nb2
