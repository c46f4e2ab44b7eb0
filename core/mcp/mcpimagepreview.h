#pragma once

#include "core/common/error.h"

#include <QByteArray>
#include <QSize>
#include <QString>

namespace nb2 {

/** A small re-encoding of a saved image for an MCP image content block. */
struct ImagePreview {
    QByteArray bytes; // encoded (JPEG, or PNG when the image has transparency)
    QString mimeType;
    QSize size; // of the preview
    QSize originalSize;
};

/** Longest side of a preview: enough to judge an image, small enough not to flood an agent's context. */
constexpr int kPreviewMaxSide = 512;

/**
 * Decodes the image at path scaled down to fit maxSide (never up) and encodes it. Decodes: call
 * it on a worker thread.
 */
Result<ImagePreview> makeImagePreview(const QString &path, int maxSide = kPreviewMaxSide);

} // namespace nb2
