#include "core/export/sessionbundle.h"

#include "core/export/archivelibrary.h"

#include "core/session/sessionpaths.h"
#include "core/session/sessionstore.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <memory>

#include <fcntl.h>
#include <optional>
#include <unistd.h>

#ifndef NB2_VERSION
#define NB2_VERSION "0.0.0"
#endif

namespace nb2 {

namespace {

// tr() for this file's functions with the context "nb2::SessionBundle": a struct, not a free function, so
// that lupdate files the texts under the context they are looked up in.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(nb2::SessionBundle)
};

// Bounds that no real session comes near and every zip bomb exceeds: one file (the inline
// request limit is 20 MB, so no session image is larger), everything unpacked, the index, and
// the number of entries.
constexpr qint64 kMaxEntryBytes = qint64(256) << 20;
constexpr qint64 kMaxTotalBytes = qint64(4) << 30;
constexpr qint64 kMaxIndexBytes = qint64(16) << 20;
constexpr int kMaxEntries = 200000;

/** What the index says about one file. */
struct Listed {
    qint64 size = 0;
    QString sha256;
};

struct ArchiveDeleter {
    void operator()(archive *a) const { arc().archive_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveDeleter>;
struct EntryDeleter {
    void operator()(archive_entry *e) const { arc().archive_entry_free(e); }
};
using EntryPtr = std::unique_ptr<archive_entry, EntryDeleter>;

QString archiveMessage(archive *a)
{
    const char *s = arc().archive_error_string(a);
    return s ? QString::fromLocal8Bit(s) : Text::tr("unknown error");
}

/** Where libarchive's output goes: the OutputFile, and its first error (libarchive only sees -1). */
struct ArchiveSink {
    OutputFile *file = nullptr;
    std::optional<Error> error;
};

la_ssize_t writeToOutput(archive *, void *client, const void *buffer, size_t length)
{
    auto *sink = static_cast<ArchiveSink *>(client);
    if (const Result<void> written = sink->file->write(static_cast<const char *>(buffer), qint64(length)); !written) {
        if (!sink->error)
            sink->error = written.error();
        return -1;
    }
    return la_ssize_t(length);
}

Result<void> addEntry(archive *a, const QString &name, const QByteArray &bytes, const QDateTime &mtime, bool compress)
{
    // Images are already compressed: storing them keeps the bundle fast to write and read.
    if (compress)
        arc().archive_write_zip_set_compression_deflate(a);
    else
        arc().archive_write_zip_set_compression_store(a);
    EntryPtr entry(arc().archive_entry_new());
    const QByteArray utf8 = name.toUtf8();
    arc().archive_entry_set_pathname_utf8(entry.get(), utf8.constData());
    arc().archive_entry_set_filetype(entry.get(), AE_IFREG);
    arc().archive_entry_set_perm(entry.get(), 0644);
    arc().archive_entry_set_size(entry.get(), bytes.size());
    arc().archive_entry_set_mtime(entry.get(), mtime.isValid() ? mtime.toSecsSinceEpoch() : 0, 0);
    if (arc().archive_write_header(a, entry.get()) != ARCHIVE_OK)
        return Error::make(ErrorKind::Io, Text::tr("Cannot add %1 to the bundle: %2").arg(name, archiveMessage(a)));
    if (!bytes.isEmpty() && arc().archive_write_data(a, bytes.constData(), size_t(bytes.size())) != bytes.size())
        return Error::make(ErrorKind::Io, Text::tr("Cannot write %1 into the bundle: %2").arg(name, archiveMessage(a)));
    return {};
}

Result<ArchivePtr> openReader(const QString &bundleFile)
{
    ArchivePtr a(arc().archive_read_new());
    arc().archive_read_support_format_zip(a.get());
    arc().archive_read_support_filter_none(a.get());
    const QByteArray path = QFile::encodeName(bundleFile);
    if (arc().archive_read_open_filename(a.get(), path.constData(), 64 * 1024) != ARCHIVE_OK)
        return Error::make(ErrorKind::InvalidInput,
            Text::tr("%1 is not a readable NB2Lite bundle: %2")
                .arg(QFileInfo(bundleFile).fileName(), archiveMessage(a.get())));
    return a;
}

/** The current entry's data, refused (TooLarge) as soon as it passes maxBytes. */
Result<QByteArray> readCapped(archive *a, const QString &name, qint64 maxBytes)
{
    QByteArray data;
    char buffer[64 * 1024];
    la_ssize_t n = 0;
    while ((n = arc().archive_read_data(a, buffer, sizeof buffer)) > 0) {
        if (data.size() + n > maxBytes)
            return Error::make(ErrorKind::TooLarge,
                Text::tr("The bundle entry \"%1\" is larger than %2 bytes; nothing was extracted.")
                    .arg(name, QString::number(maxBytes)));
        data.append(buffer, n);
    }
    if (n < 0)
        return Error::make(
            ErrorKind::Corrupt, Text::tr("The bundle entry \"%1\" is damaged: %2").arg(name, archiveMessage(a)));
    return data;
}

void syncFileSystemOf(const QString &dir)
{
    const int fd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::syncfs(fd);
        ::close(fd);
    }
}

bool isDeflatable(const QString &name)
{
    return name.endsWith(QLatin1String(".json")) || name.endsWith(QLatin1String(".jsonl"));
}

} // namespace

bool SessionBundle::isSafeEntryName(const QString &name)
{
    if (name.isEmpty() || name.size() > 1024)
        return false;
    if (name.startsWith(QLatin1Char('/')) || name.contains(QLatin1Char('\\')) || name.contains(QLatin1Char(':'))
        || name.contains(QChar(0)))
        return false;
    const QStringList parts = name.split(QLatin1Char('/'));
    for (int i = 0; i < parts.size(); ++i) {
        const QString &p = parts.at(i);
        // A trailing '/' (directory entry) is the only empty component allowed.
        if (p.isEmpty() && i != parts.size() - 1)
            return false;
        if (p == QLatin1String("..") || p == QLatin1String("."))
            return false;
    }
    return true;
}

Result<ExportReport> SessionBundle::write(const ExportSession &session, const QString &outFile, ExistingTarget existing)
{
    ExportReport report;
    report.output = outFile;
    report.frames = int(session.frames.size());
    if (session.sessionFiles.isEmpty())
        return Error::make(ErrorKind::InvalidInput, Text::tr("The session has no files to bundle."));
    if (const auto loaded = ArchiveLibrary::require(); !loaded) // loaded on first use, not at start
        return loaded.error();

    // Check everything first: a missing file fails the export before a byte is written.
    QStringList sources; // resolved inside the session folder, in sessionFiles order
    const SessionPaths paths(session.sessionDir);
    for (const QString &rel : session.sessionFiles) {
        if (!isSafeEntryName(rel) || rel == QLatin1String(kIndexName))
            return Error::make(
                ErrorKind::Unsafe, Text::tr("The session file name \"%1\" cannot go into a bundle.").arg(rel));
        const Result<QString> file = paths.resolve(rel, Text::tr("the session file list"));
        if (!file)
            return file.error();
        if (!QFileInfo(file.value()).isFile())
            return Error::make(ErrorKind::Io, Text::tr("The session file %1 is missing.").arg(rel));
        sources.append(file.value());
    }

    OutputFile out(outFile, existing);
    if (const Result<void> opened = out.open(); !opened)
        return opened.error();
    ArchiveSink sink {&out, std::nullopt};
    // A failed write's own error (disk full, read-only) beats libarchive's generic one.
    auto archiveError
        = [&](const QString &message) { return sink.error ? *sink.error : Error::make(ErrorKind::Io, message); };
    ArchivePtr a(arc().archive_write_new());
    arc().archive_write_set_format_zip(a.get());
    if (arc().archive_write_open2(a.get(), &sink, nullptr, writeToOutput, nullptr, nullptr) != ARCHIVE_OK)
        return archiveError(Text::tr("Cannot start the bundle: %1").arg(archiveMessage(a.get())));

    // One file in memory at a time (a session can hold gigabytes of images); the index,
    // which needs every checksum, goes last.
    QJsonArray index;
    for (qsizetype i = 0; i < session.sessionFiles.size(); ++i) {
        const QString &rel = session.sessionFiles.at(i);
        const QString &source = sources.at(i);
        // The manifest is a checkpoint of the journal: the bundle gets it with the tail folded in.
        auto bytes = rel == QLatin1String("manifest.json") ? SessionStore::foldedManifest(session.sessionDir)
                                                           : exportfiles::readFile(source);
        if (!bytes)
            return bytes.error();
        QJsonObject o;
        o.insert(QStringLiteral("path"), rel);
        o.insert(QStringLiteral("size"), qint64(bytes.value().size()));
        o.insert(QStringLiteral("sha256"), SessionStore::sha256Hex(bytes.value()));
        index.append(o);
        auto added = addEntry(a.get(), rel, bytes.value(), QFileInfo(source).lastModified(), isDeflatable(rel));
        if (!added)
            return archiveError(added.error().message);
        report.files.append(rel);
    }
    QJsonObject head;
    head.insert(QStringLiteral("format"), QLatin1String(kFormatName));
    head.insert(QStringLiteral("version"), kFormatVersion);
    head.insert(QStringLiteral("app"), QStringLiteral("nb2lite " NB2_VERSION));
    head.insert(QStringLiteral("title"), session.title);
    head.insert(QStringLiteral("frames"), qint64(session.frames.size()));
    head.insert(QStringLiteral("files"), index);
    auto added = addEntry(a.get(), QLatin1String(kIndexName), QJsonDocument(head).toJson(QJsonDocument::Indented),
        QDateTime::currentDateTimeUtc(), true);
    if (!added)
        return archiveError(added.error().message);
    if (arc().archive_write_close(a.get()) != ARCHIVE_OK)
        return archiveError(Text::tr("Cannot finish the bundle: %1").arg(archiveMessage(a.get())));
    a.reset();
    const Result<qint64> committed = out.commit();
    if (!committed)
        return committed.error();
    report.bytesWritten = committed.value();
    return report;
}

Result<ExportReport> SessionBundle::extract(const QString &bundleFile, const QString &targetDir)
{
    ExportReport report;
    report.output = targetDir;
    if (!QFileInfo(bundleFile).isFile())
        return Error::make(
            ErrorKind::Io, Text::tr("The bundle %1 does not exist.").arg(QDir::toNativeSeparators(bundleFile)));
    if (const auto loaded = ArchiveLibrary::require(); !loaded) // before the folder is touched
        return loaded.error();
    const QString shownName = QFileInfo(bundleFile).fileName();
    const bool existed = QFileInfo::exists(targetDir) || QFileInfo(targetDir).isSymLink();
    auto ready = exportfiles::prepareEmptyDir(targetDir);
    if (!ready)
        return ready.error();
    const QDir dir(targetDir);

    QStringList written;
    // The folder was new or empty, so everything in it is ours: on failure it is emptied
    // (and removed if this call created it), leaving nothing of a bad bundle behind.
    auto fail = [&](ErrorKind kind, const QString &message) -> Result<ExportReport> {
        QDir(targetDir).removeRecursively();
        if (existed)
            QDir().mkpath(targetDir);
        return Error::make(kind, message);
    };

    // ---- Pass 1: the index and the list of entries; nothing is extracted yet. ----
    // The zip is read through its central directory (seekable), so skipping an entry costs
    // nothing: a bomb is judged by what the index and the directory say before a byte of it
    // is inflated.
    struct Seen {
        qint64 declared = -1; // the directory's uncompressed size, -1 when not given
    };
    QHash<QString, Seen> entries;
    QByteArray indexBytes;
    bool haveIndex = false;
    {
        auto opened = openReader(bundleFile);
        if (!opened)
            return fail(opened.error().kind, opened.error().message);
        archive *a = opened.value().get();
        archive_entry *entry = nullptr;
        int rc = ARCHIVE_OK;
        int count = 0;
        while ((rc = arc().archive_read_next_header(a, &entry)) == ARCHIVE_OK) {
            if (++count > kMaxEntries)
                return fail(ErrorKind::TooLarge,
                    Text::tr("%1 holds more than %2 entries; it is not a session bundle. Nothing was extracted.")
                        .arg(shownName, QString::number(kMaxEntries)));
            const char *utf8 = arc().archive_entry_pathname_utf8(entry);
            const QString name
                = utf8 ? QString::fromUtf8(utf8) : QString::fromLocal8Bit(arc().archive_entry_pathname(entry));
            if (!isSafeEntryName(name))
                return fail(ErrorKind::Unsafe,
                    Text::tr("The bundle contains an unsafe entry name \"%1\" (absolute or leaving the folder); "
                             "nothing was extracted.")
                        .arg(name));
            const auto type = arc().archive_entry_filetype(entry);
            if (type == AE_IFDIR)
                continue;
            if (type != AE_IFREG || arc().archive_entry_hardlink(entry) || arc().archive_entry_symlink(entry))
                return fail(ErrorKind::Unsafe,
                    Text::tr("The bundle entry \"%1\" is not a plain file; nothing was extracted.").arg(name));
            if (entries.contains(name) || (haveIndex && name == QLatin1String(kIndexName)))
                return fail(ErrorKind::Corrupt, Text::tr("The bundle contains \"%1\" twice.").arg(name));
            if (name == QLatin1String(kIndexName)) {
                auto bytes = readCapped(a, name, kMaxIndexBytes);
                if (!bytes)
                    return fail(bytes.error().kind, bytes.error().message);
                indexBytes = bytes.value();
                haveIndex = true;
                continue;
            }
            entries.insert(
                name, Seen {arc().archive_entry_size_is_set(entry) ? qint64(arc().archive_entry_size(entry)) : -1});
            arc().archive_read_data_skip(a);
        }
        if (rc != ARCHIVE_EOF)
            return fail(ErrorKind::Corrupt, Text::tr("The bundle is damaged: %1").arg(archiveMessage(a)));
    }

    // ---- The index decides what may be extracted, and how large each file may be. ----
    const QJsonObject head = QJsonDocument::fromJson(indexBytes).object();
    if (!haveIndex || head.value(QStringLiteral("format")).toString() != QLatin1String(kFormatName))
        return fail(ErrorKind::InvalidInput,
            Text::tr("This zip is not an NB2Lite session bundle (no %1).").arg(QLatin1String(kIndexName)));
    if (head.value(QStringLiteral("version")).toInt() > kFormatVersion)
        return fail(ErrorKind::InvalidInput,
            Text::tr("The bundle was made by a newer NB2Lite (bundle version %1); update to open it.")
                .arg(head.value(QStringLiteral("version")).toInt()));
    QHash<QString, Listed> listed;
    qint64 listedTotal = 0;
    const QJsonArray files = head.value(QStringLiteral("files")).toArray();
    for (const QJsonValue &v : files) {
        const QJsonObject o = v.toObject();
        const QString rel = o.value(QStringLiteral("path")).toString();
        const qint64 size = qint64(o.value(QStringLiteral("size")).toDouble(-1));
        const QString sha = o.value(QStringLiteral("sha256")).toString().toLower();
        if (!isSafeEntryName(rel) || rel.endsWith(QLatin1Char('/')) || rel == QLatin1String(kIndexName))
            return fail(ErrorKind::Unsafe,
                Text::tr("The bundle's index lists an unsafe path \"%1\"; nothing was extracted.").arg(rel));
        if (listed.contains(rel))
            return fail(ErrorKind::Corrupt, Text::tr("The bundle's index lists %1 twice.").arg(rel));
        if (size < 0 || sha.size() != 64)
            return fail(
                ErrorKind::Corrupt, Text::tr("The bundle's index has no valid size or checksum for %1.").arg(rel));
        if (size > kMaxEntryBytes)
            return fail(ErrorKind::TooLarge,
                Text::tr("The bundle lists %1 at %2 bytes; no session file is larger than %3 bytes. "
                         "Nothing was extracted.")
                    .arg(rel)
                    .arg(size)
                    .arg(kMaxEntryBytes));
        listedTotal += size;
        if (listedTotal > kMaxTotalBytes)
            return fail(ErrorKind::TooLarge,
                Text::tr("The bundle would unpack to more than %1 bytes; nothing was extracted.").arg(kMaxTotalBytes));
        listed.insert(rel, Listed {size, sha});
    }
    for (auto it = entries.cbegin(); it != entries.cend(); ++it) {
        const auto l = listed.constFind(it.key());
        if (l == listed.cend())
            return fail(ErrorKind::Corrupt,
                Text::tr("The bundle holds \"%1\", which its index does not list; nothing was extracted.")
                    .arg(it.key()));
        if (it.value().declared > l->size)
            return fail(ErrorKind::TooLarge,
                Text::tr("The bundle entry \"%1\" unpacks to %2 bytes, more than the %3 its index lists; "
                         "nothing was extracted.")
                    .arg(it.key())
                    .arg(it.value().declared)
                    .arg(l->size));
    }
    for (auto it = listed.cbegin(); it != listed.cend(); ++it) {
        if (!entries.contains(it.key()))
            return fail(ErrorKind::Corrupt, Text::tr("The bundle is incomplete: %1 is missing.").arg(it.key()));
    }
    if (!listed.contains(QStringLiteral("manifest.json")))
        return fail(ErrorKind::Corrupt, Text::tr("The bundle has no manifest.json."));

    // ---- Pass 2: stream each listed file to disk, counting as it inflates. ----
    {
        auto opened = openReader(bundleFile);
        if (!opened)
            return fail(opened.error().kind, opened.error().message);
        archive *a = opened.value().get();
        archive_entry *entry = nullptr;
        int rc = ARCHIVE_OK;
        qint64 total = 0;
        char buffer[64 * 1024];
        while ((rc = arc().archive_read_next_header(a, &entry)) == ARCHIVE_OK) {
            const char *utf8 = arc().archive_entry_pathname_utf8(entry);
            const QString name
                = utf8 ? QString::fromUtf8(utf8) : QString::fromLocal8Bit(arc().archive_entry_pathname(entry));
            const auto l = listed.constFind(name);
            if (arc().archive_entry_filetype(entry) == AE_IFDIR || l == listed.cend()) {
                arc().archive_read_data_skip(a); // the index (or a folder): checked in pass 1
                continue;
            }
            // Pass 1 saw this archive; a file that changed since is caught by these same checks.
            if (!isSafeEntryName(name) || arc().archive_entry_filetype(entry) != AE_IFREG
                || arc().archive_entry_symlink(entry) || arc().archive_entry_hardlink(entry))
                return fail(ErrorKind::Unsafe,
                    Text::tr("The bundle entry \"%1\" is not a plain file; nothing was extracted.").arg(name));
            const QString target = dir.filePath(name);
            if (!QDir().mkpath(QFileInfo(target).absolutePath()))
                return fail(writeFailureKind(target), Text::tr("Cannot create a folder for %1.").arg(name));
            OutputFile out(target, ExistingTarget::Refuse, false);
            if (const Result<void> o = out.open(); !o)
                return fail(o.error().kind, o.error().message);
            QCryptographicHash hash(QCryptographicHash::Sha256);
            qint64 size = 0;
            la_ssize_t n = 0;
            while ((n = arc().archive_read_data(a, buffer, sizeof buffer)) > 0) {
                // The running check: a directory size can lie, a bomb's always does.
                size += n;
                total += n;
                if (size > l->size)
                    return fail(ErrorKind::TooLarge,
                        Text::tr("The bundle entry \"%1\" unpacks to more than the %2 bytes its index "
                                 "lists; nothing was extracted.")
                            .arg(name, QString::number(l->size)));
                if (total > kMaxTotalBytes)
                    return fail(ErrorKind::TooLarge,
                        Text::tr("The bundle unpacks to more than %1 bytes; nothing was extracted.")
                            .arg(kMaxTotalBytes));
                hash.addData(QByteArrayView(buffer, n));
                if (const Result<void> w = out.write(buffer, n); !w)
                    return fail(w.error().kind, w.error().message);
            }
            if (n < 0)
                return fail(ErrorKind::Corrupt,
                    Text::tr("The bundle entry \"%1\" is damaged: %2").arg(name, archiveMessage(a)));
            if (size != l->size || QString::fromLatin1(hash.result().toHex()) != l->sha256)
                return fail(
                    ErrorKind::Corrupt, Text::tr("The bundle is damaged: %1 does not match its checksum.").arg(name));
            if (const Result<qint64> c = out.commit(); !c)
                return fail(c.error().kind, c.error().message);
            written.append(name);
            report.bytesWritten += size;
        }
        if (rc != ARCHIVE_EOF)
            return fail(ErrorKind::Corrupt, Text::tr("The bundle is damaged: %1").arg(archiveMessage(a)));
    }
    syncFileSystemOf(targetDir); // one sync for all the files, not one per file

    // Checksums only prove the files are the ones the index lists, not that the manifest's
    // paths stay in the folder: a crafted bundle recomputes them. Check the paths themselves.
    {
        QFile manifest(dir.filePath(QStringLiteral("manifest.json")));
        if (!manifest.open(QIODevice::ReadOnly))
            return fail(
                ErrorKind::Io, Text::tr("Cannot read the extracted manifest.json: %1").arg(manifest.errorString()));
        if (const Result<void> inside = SessionPaths::checkManifest(manifest.readAll(), targetDir); !inside)
            return fail(ErrorKind::Unsafe, Text::tr("The bundle is refused: its %1").arg(inside.error().message));
    }
    report.files = written;
    report.frames = head.value(QStringLiteral("frames")).toInt();
    return report;
}

} // namespace nb2
