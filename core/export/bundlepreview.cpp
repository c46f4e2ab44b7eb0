#include "core/export/bundlepreview.h"

#include "core/export/archivelibrary.h"

#include "core/export/exportfiles.h"
#include "core/export/sessionbundle.h"
#include "core/session/frame.h"
#include "core/session/sessionstore.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <memory>

namespace nb2 {

namespace {

// tr() for this file's functions with the context "nb2::BundlePreview": a struct, not a free function, so
// that lupdate files the texts under the context they are looked up in.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(nb2::BundlePreview)
};

struct ArchiveDeleter {
    void operator()(archive *a) const { arc().archive_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveDeleter>;

const QLatin1String kManifestName("manifest.json");

/** The image the manifest names for its last finished frame. */
struct ImageRef {
    QString frameId;
    QString file;
    QString sha256;
};

/**
 * Reads the one entry called `name` from the zip, refusing anything but a plain file of at
 * most maxBytes (by its declared size and by what actually decompresses). Returns an empty
 * Result-error of kind NotFound when the bundle has no such entry.
 */
Result<QByteArray> readEntry(const QString &bundleFile, const QString &name, qint64 maxBytes, int maxEntries)
{
    if (const auto loaded = ArchiveLibrary::require(); !loaded) // loaded on first use, not at start
        return loaded.error();
    const QString shownName = QFileInfo(bundleFile).fileName();
    ArchivePtr a(arc().archive_read_new());
    arc().archive_read_support_format_zip(a.get());
    arc().archive_read_support_filter_none(a.get());
    const QByteArray path = QFile::encodeName(bundleFile);
    if (arc().archive_read_open_filename(a.get(), path.constData(), 64 * 1024) != ARCHIVE_OK) {
        const char *why = arc().archive_error_string(a.get());
        return Error::make(ErrorKind::InvalidInput,
            Text::tr("%1 is not a readable NB2Lite bundle: %2")
                .arg(shownName, why ? QString::fromLocal8Bit(why) : Text::tr("unknown error")));
    }
    archive_entry *entry = nullptr;
    int count = 0;
    int rc = ARCHIVE_OK;
    while ((rc = arc().archive_read_next_header(a.get(), &entry)) == ARCHIVE_OK) {
        if (++count > maxEntries)
            return Error::make(ErrorKind::TooLarge,
                Text::tr("%1 holds more than %2 entries; it is not a session bundle.")
                    .arg(shownName, QString::number(maxEntries)));
        const char *utf8 = arc().archive_entry_pathname_utf8(entry);
        if (!utf8 || QString::fromUtf8(utf8) != name) {
            arc().archive_read_data_skip(a.get());
            continue;
        }
        if (arc().archive_entry_filetype(entry) != AE_IFREG || arc().archive_entry_hardlink(entry)
            || arc().archive_entry_symlink(entry))
            return Error::make(
                ErrorKind::InvalidInput, Text::tr("The bundle entry \"%1\" is not a plain file.").arg(name));
        if (arc().archive_entry_size_is_set(entry) && arc().archive_entry_size(entry) > maxBytes)
            return Error::make(ErrorKind::TooLarge,
                Text::tr("The bundle entry \"%1\" is too large (%2 bytes; the limit is %3).")
                    .arg(name, QString::number(arc().archive_entry_size(entry)), QString::number(maxBytes)));
        QByteArray data;
        char buffer[64 * 1024];
        la_ssize_t n = 0;
        while ((n = arc().archive_read_data(a.get(), buffer, sizeof buffer)) > 0) {
            // Checked as it inflates: a declared size can lie, a zip bomb's always does.
            if (data.size() + n > maxBytes)
                return Error::make(ErrorKind::TooLarge,
                    Text::tr("The bundle entry \"%1\" is larger than %2 bytes.").arg(name, QString::number(maxBytes)));
            data.append(buffer, n);
        }
        if (n < 0) {
            const char *why = arc().archive_error_string(a.get());
            return Error::make(ErrorKind::InvalidInput,
                Text::tr("The bundle entry \"%1\" is damaged: %2")
                    .arg(name, why ? QString::fromLocal8Bit(why) : Text::tr("unknown error")));
        }
        return data;
    }
    if (rc != ARCHIVE_EOF) {
        const char *why = arc().archive_error_string(a.get());
        return Error::make(ErrorKind::InvalidInput,
            Text::tr("%1 is not a readable NB2Lite bundle: %2")
                .arg(shownName, why ? QString::fromLocal8Bit(why) : Text::tr("unknown error")));
    }
    return Error::make(ErrorKind::NotFound, Text::tr("%1 has no entry \"%2\".").arg(shownName, name));
}

/** The last finished, non-trashed frame with an image, read with the session's own Frame parser. */
Result<ImageRef> lastImage(const QByteArray &manifest)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(manifest, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return Error::make(ErrorKind::InvalidInput, Text::tr("The bundle's manifest.json is not valid JSON."));
    const QJsonObject root = doc.object();
    if (root.value(QLatin1String("format")).toString() != QLatin1String(SessionStore::kFormatName))
        return Error::make(
            ErrorKind::InvalidInput, Text::tr("The bundle's manifest.json is not an NB2Lite session manifest."));
    ImageRef found;
    const QJsonArray frames = root.value(QLatin1String("frames")).toArray();
    for (const QJsonValue &value : frames) {
        if (!value.isObject())
            continue;
        const Result<Frame> parsed = Frame::fromJson(value.toObject());
        if (!parsed)
            continue; // an unreadable frame does not spoil the picture of the others
        const Frame &frame = parsed.value();
        if (frame.isDone() && !frame.isTrashed() && !frame.image.isNull())
            found = {frame.id, frame.image.file, frame.image.sha256};
    }
    if (found.file.isEmpty())
        return Error::make(ErrorKind::NoImage, Text::tr("The bundle has no finished frame with an image."));
    if (!SessionBundle::isSafeEntryName(found.file) || found.file.endsWith(QLatin1Char('/'))
        || found.file == kManifestName || found.file == QLatin1String(SessionBundle::kIndexName))
        return Error::make(
            ErrorKind::Unsafe, Text::tr("The manifest names an unsafe image path \"%1\".").arg(found.file));
    return found;
}

} // namespace

Result<BundlePreview::Preview> BundlePreview::read(const QString &bundleFile, int maxEdge)
{
    return read(bundleFile, maxEdge, Limits());
}

Result<BundlePreview::Preview> BundlePreview::read(const QString &bundleFile, int maxEdge, const Limits &limits)
{
    if (!QFileInfo(bundleFile).isFile())
        return Error::make(
            ErrorKind::Io, Text::tr("The bundle %1 does not exist.").arg(QDir::toNativeSeparators(bundleFile)));

    auto manifest = readEntry(bundleFile, kManifestName, limits.maxManifestBytes, limits.maxEntries);
    if (!manifest) {
        if (manifest.error().kind == ErrorKind::NotFound)
            return Error::make(ErrorKind::InvalidInput,
                Text::tr("%1 is not an NB2Lite session bundle: it has no manifest.json.")
                    .arg(QFileInfo(bundleFile).fileName()));
        return manifest.error();
    }
    auto ref = lastImage(manifest.value());
    if (!ref)
        return ref.error();

    auto bytes = readEntry(bundleFile, ref.value().file, limits.maxImageBytes, limits.maxEntries);
    if (!bytes) {
        if (bytes.error().kind == ErrorKind::NotFound)
            return Error::make(
                ErrorKind::InvalidInput, Text::tr("The bundle is incomplete: %1 is missing.").arg(ref.value().file));
        return bytes.error();
    }
    if (!ref.value().sha256.isEmpty() && SessionStore::sha256Hex(bytes.value()) != ref.value().sha256.toLower())
        return Error::make(ErrorKind::InvalidInput,
            Text::tr("The bundle is damaged: %1 does not match its checksum.").arg(ref.value().file));

    QBuffer buffer(&bytes.value());
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer);
    reader.setDecideFormatFromContent(true);
    const QSize size = reader.size();
    if (!size.isValid())
        return Error::make(ErrorKind::InvalidInput,
            Text::tr("%1 in the bundle is not a readable image: %2").arg(ref.value().file, reader.errorString()));
    if (qint64(size.width()) * size.height() > limits.maxImagePixels)
        return Error::make(ErrorKind::TooLarge,
            Text::tr("%1 in the bundle is %2 x %3 pixels, too large to preview.")
                .arg(ref.value().file)
                .arg(size.width())
                .arg(size.height()));
    if (maxEdge > 0 && (size.width() > maxEdge || size.height() > maxEdge))
        reader.setScaledSize(size.scaled(maxEdge, maxEdge, Qt::KeepAspectRatio).expandedTo(QSize(1, 1)));
    Preview preview;
    if (!reader.read(&preview.image))
        return Error::make(ErrorKind::InvalidInput,
            Text::tr("%1 in the bundle cannot be decoded: %2").arg(ref.value().file, reader.errorString()));
    preview.originalSize = size;
    preview.frameId = ref.value().frameId;
    preview.entryName = ref.value().file;
    return preview;
}

} // namespace nb2
