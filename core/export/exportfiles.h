#pragma once

#include "core/common/error.h"
#include "core/export/outputfile.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace nb2 {

/** What an export did, for the dialog, the CLI and the benchmark. */
struct ExportReport {
    QString output;       // the file or folder written
    int frames = 0;       // frames in the export
    int imagesLinked = 0; // hard links to the session's files (same bytes, no copy)
    int imagesCopied = 0; // byte copies
    qint64 bytesWritten = 0;
    QStringList files;    // written files, relative to output (folder formats)
    QStringList warnings; // e.g. "frame 7 is WebP: no provenance written"
};

/**
 * File helpers the exporters share: atomic writes, link-or-copy, safe names and escaping.
 * They keep every exporter's promises in one place: nothing half-written, nothing re-encoded,
 * no name that can escape the output folder.
 */
namespace exportfiles {

/**
 * Writes through OutputFile (temp, fsync, rename): a crash never leaves a half file, a symlink
 * or anything but a regular file at path is never written through or replaced, and an
 * existing file only with ExistingTarget::Replace.
 */
Result<qint64> writeAtomically(
    const QString &path, const QByteArray &bytes, ExistingTarget existing = ExistingTarget::Refuse);

/**
 * The same without the fsync: for the many files of an export folder, where syncing each one
 * made exports ~50x slower. A crash never leaves a half file under the real name; durability
 * is left to the OS. Never replaces anything (the folder is new or was empty).
 */
Result<qint64> writeFile(const QString &path, const QByteArray &bytes);

/** Hard-links src to dst (same bytes, no copy); falls back to a byte copy. *linked says which. */
Result<bool> linkOrCopy(const QString &src, const QString &dst, bool allowLink);

/**
 * Creates dir, which must not exist or be an empty folder (Conflict otherwise): an export
 * never mixes into other files. A symlink is refused (Unsafe) even when it leads to an empty
 * folder: an export never writes through a link.
 */
Result<void> prepareEmptyDir(const QString &dir);

/** "Add a lantern, then dim!" -> "add-a-lantern-then-dim"; ASCII letters/digits, at most maxLen. */
QString slugify(const QString &text, int maxLen = 40);

/** A file-name-safe form of an id: [A-Za-z0-9_-] kept, everything else '_'. */
QString safeName(const QString &id);

/** &, <, >, ", ' escaped: safe in element text and in double- or single-quoted attributes. */
QString htmlEscape(const QString &text);

/** Lowercase file extension for encoded image bytes ("png", "jpg", "webp", ...); "bin" if unknown. */
QString imageExtension(const QByteArray &bytes);

/** MIME type for encoded image bytes; application/octet-stream if unknown. */
QString imageMimeType(const QByteArray &bytes);

Result<QByteArray> readFile(const QString &path);

} // namespace exportfiles
} // namespace nb2
