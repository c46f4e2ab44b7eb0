#pragma once

#include "core/api/imageinput.h"

#include <QImage>
#include <QSize>

namespace nb2 {

/**
 * Bounds for decoding a local picture. Headers say how large a picture is before anything is
 * decoded; these limits are checked against that, so a valid but huge file is "too large"
 * (with its size and the limit), never "damaged".
 */
/** Pictures opened as they are (previews, import checks): 8192×8192. */
constexpr qint64 kMaxOpenPixels = 8192LL * 8192;
/** The most a downscale decodes at full size (16384×16384; 1 GiB as 32-bit pixels). */
constexpr qint64 kMaxDownscalePixels = 16384LL * 16384;
/** The model works at the 1K size, about one megapixel: what a downscale aims for. */
constexpr qint64 kModelInputPixels = 1024LL * 1024;

/** The image types the API documents for inline input: PNG, JPEG, WebP, HEIC, HEIF. */
bool isApiInputType(const QString &mimeType);

/** The size a picture of this size is downscaled to: about kModelInputPixels, same aspect ratio. */
QSize modelInputSize(const QSize &size);

/**
 * Decodes a picture whose header size is at most maxPixels. Over it: TooLarge, naming the
 * picture's size and the limit and offering the downscale. A picture that does not decode
 * is InvalidInput ("damaged or incomplete") only when its size is within the limit. Raises
 * Qt's image allocation limit (once, process-wide) to what kMaxDownscalePixels needs, since
 * our own pixel bound is checked first. Thread-safe; blocking (call it on a worker).
 */
Result<QImage> decodeImageBounded(const QByteArray &bytes, const QString &name, qint64 maxPixels = kMaxOpenPixels);

/**
 * The explicit downscale a "too large" picture offers: decoded (up to kMaxDownscalePixels),
 * scaled to modelInputSize() and encoded as PNG. Never applied silently.
 */
Result<ImageInput> downscaleToModelInput(const ImageInput &input);

/**
 * An input the API does not take (GIF, BMP, TIFF) converted to PNG, so that nothing is sent
 * with an undocumented MIME type; an animated GIF becomes its first frame. note says what was
 * done, for the user ("sent 'cat.gif' as PNG (the first of 12 frames of the animation)"); it is
 * empty and the input unchanged when the type is already one the API takes.
 */
Result<ImageInput> convertToApiType(const ImageInput &input, QString *note = nullptr);

} // namespace nb2
