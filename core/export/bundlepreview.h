#pragma once

#include "core/common/error.h"

#include <QImage>
#include <QString>

namespace nb2 {

/**
 * Reads the picture a `.nb2session` bundle should be recognised by — the image of its last
 * finished frame — straight from the zip, without extracting anything to disk. It is what the
 * file manager's thumbnailer runs on any file that merely looks like a bundle, so every input
 * is treated as hostile: only two entries are ever read (manifest.json, then the one image the
 * manifest names), both with size bounds checked before and while reading; the named path must
 * be a safe relative entry name (SessionBundle::isSafeEntryName) of a plain file; its bytes must
 * match the manifest's SHA-256; and the image's pixel size is checked before it is decoded.
 */
class BundlePreview
{
public:
    struct Limits {
        qint64 maxManifestBytes = qint64(32) << 20; // a 1,000-frame manifest is ~1 MB
        qint64 maxImageBytes = qint64(64) << 20;    // API images are a few MB (inline limit 20 MB)
        qint64 maxImagePixels = qint64(64) << 20;   // 64 MP: 8192 x 8192
        int maxEntries = 200000;                    // a session with more files is not one we wrote
    };

    struct Preview {
        QImage image;       // decoded; scaled down to fit maxEdge when one was given
        QSize originalSize; // the stored image's size in pixels
        QString frameId;    // the frame whose image this is
        QString entryName;  // its path inside the bundle ("images/…")
    };

    /** The last finished, non-trashed frame's image; scaled to fit maxEdge x maxEdge (0: full size). */
    static Result<Preview> read(const QString &bundleFile, int maxEdge = 0);
    static Result<Preview> read(const QString &bundleFile, int maxEdge, const Limits &limits);
};

} // namespace nb2
