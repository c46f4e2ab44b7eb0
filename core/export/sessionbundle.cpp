#include "core/export/sessionbundle.h"

#include "core/session/sessionstore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QSet>

#include <archive.h>
#include <archive_entry.h>

#include <memory>

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

// A bundle entry larger than this is refused: no session image comes close, a zip bomb does.
constexpr qint64 kMaxEntryBytes = qint64(2) << 30;

struct ArchiveDeleter {
    void operator()(archive *a) const { archive_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveDeleter>;
struct EntryDeleter {
    void operator()(archive_entry *e) const { archive_entry_free(e); }
};
using EntryPtr = std::unique_ptr<archive_entry, EntryDeleter>;

QString archiveMessage(archive *a)
{
    const char *s = archive_error_string(a);
    return s ? QString::fromLocal8Bit(s) : Text::tr("unknown error");
}

la_ssize_t writeToSaveFile(archive *, void *client, const void *buffer, size_t length)
{
    auto *file = static_cast<QSaveFile *>(client);
    return file->write(static_cast<const char *>(buffer), qint64(length));
}

Result<void> addEntry(archive *a, const QString &name, const QByteArray &bytes, const QDateTime &mtime, bool compress)
{
    // Images are already compressed: storing them keeps the bundle fast to write and read.
    if (compress)
        archive_write_zip_set_compression_deflate(a);
    else
        archive_write_zip_set_compression_store(a);
    EntryPtr entry(archive_entry_new());
    const QByteArray utf8 = name.toUtf8();
    archive_entry_set_pathname_utf8(entry.get(), utf8.constData());
    archive_entry_set_filetype(entry.get(), AE_IFREG);
    archive_entry_set_perm(entry.get(), 0644);
    archive_entry_set_size(entry.get(), bytes.size());
    archive_entry_set_mtime(entry.get(), mtime.isValid() ? mtime.toSecsSinceEpoch() : 0, 0);
    if (archive_write_header(a, entry.get()) != ARCHIVE_OK)
        return Error::make(ErrorKind::Io, Text::tr("Cannot add %1 to the bundle: %2").arg(name, archiveMessage(a)));
    if (!bytes.isEmpty() && archive_write_data(a, bytes.constData(), size_t(bytes.size())) != bytes.size())
        return Error::make(ErrorKind::Io, Text::tr("Cannot write %1 into the bundle: %2").arg(name, archiveMessage(a)));
    return {};
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

Result<ExportReport> SessionBundle::write(const ExportSession &session, const QString &outFile)
{
    ExportReport report;
    report.output = outFile;
    report.frames = int(session.frames.size());
    if (session.sessionFiles.isEmpty())
        return Error::make(ErrorKind::InvalidInput, Text::tr("The session has no files to bundle."));

    // Check everything first: a missing file fails the export before a byte is written.
    const QDir dir(session.sessionDir);
    for (const QString &rel : session.sessionFiles) {
        if (!isSafeEntryName(rel) || rel == QLatin1String(kIndexName))
            return Error::make(ErrorKind::Unsafe, Text::tr("The session file name \"%1\" cannot go into a bundle.").arg(rel));
        if (!QFileInfo(dir.filePath(rel)).isFile())
            return Error::make(ErrorKind::Io, Text::tr("The session file %1 is missing.").arg(rel));
    }

    QSaveFile out(outFile);
    if (!out.open(QIODevice::WriteOnly))
        return Error::make(writeFailureKind(outFile, &out), Text::tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(outFile), out.errorString()));
    ArchivePtr a(archive_write_new());
    archive_write_set_format_zip(a.get());
    if (archive_write_open2(a.get(), &out, nullptr, writeToSaveFile, nullptr, nullptr) != ARCHIVE_OK)
        return Error::make(ErrorKind::Io, Text::tr("Cannot start the bundle: %1").arg(archiveMessage(a.get())));

    // One file in memory at a time (a session can hold gigabytes of images); the index,
    // which needs every checksum, goes last.
    QJsonArray index;
    for (const QString &rel : session.sessionFiles) {
        // The manifest is a checkpoint of the journal: the bundle gets it with the tail folded in.
        auto bytes = rel == QLatin1String("manifest.json") ? SessionStore::foldedManifest(session.sessionDir)
                                                           : exportfiles::readFile(dir.filePath(rel));
        if (!bytes)
            return bytes.error();
        QJsonObject o;
        o.insert(QStringLiteral("path"), rel);
        o.insert(QStringLiteral("size"), qint64(bytes.value().size()));
        o.insert(QStringLiteral("sha256"), SessionStore::sha256Hex(bytes.value()));
        index.append(o);
        auto added = addEntry(a.get(), rel, bytes.value(), QFileInfo(dir.filePath(rel)).lastModified(), isDeflatable(rel));
        if (!added)
            return added.error();
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
        return added.error();
    if (archive_write_close(a.get()) != ARCHIVE_OK)
        return Error::make(ErrorKind::Io, Text::tr("Cannot finish the bundle: %1").arg(archiveMessage(a.get())));
    a.reset();
    if (!out.commit())
        return Error::make(writeFailureKind(outFile, &out), Text::tr("Writing %1 failed: %2").arg(QDir::toNativeSeparators(outFile), out.errorString()));
    report.bytesWritten = QFileInfo(outFile).size();
    return report;
}

Result<ExportReport> SessionBundle::extract(const QString &bundleFile, const QString &targetDir)
{
    ExportReport report;
    report.output = targetDir;
    if (!QFileInfo(bundleFile).isFile())
        return Error::make(ErrorKind::Io, Text::tr("The bundle %1 does not exist.").arg(QDir::toNativeSeparators(bundleFile)));
    const bool existed = QFileInfo::exists(targetDir);
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

    ArchivePtr a(archive_read_new());
    archive_read_support_format_zip(a.get());
    archive_read_support_filter_none(a.get());
    const QByteArray path = QFile::encodeName(bundleFile);
    if (archive_read_open_filename(a.get(), path.constData(), 64 * 1024) != ARCHIVE_OK)
        return fail(ErrorKind::InvalidInput, Text::tr("%1 is not a readable NB2Lite bundle: %2")
                                                 .arg(QFileInfo(bundleFile).fileName(), archiveMessage(a.get())));
    QJsonObject head;
    QHash<QString, QString> hashes;
    QSet<QString> seen;
    archive_entry *entry = nullptr;
    int rc = ARCHIVE_OK;
    while ((rc = archive_read_next_header(a.get(), &entry)) == ARCHIVE_OK) {
        const char *utf8 = archive_entry_pathname_utf8(entry);
        const QString name = utf8 ? QString::fromUtf8(utf8) : QString::fromLocal8Bit(archive_entry_pathname(entry));
        if (!isSafeEntryName(name))
            return fail(ErrorKind::Unsafe, Text::tr("The bundle contains an unsafe entry name \"%1\" (absolute or leaving the folder); nothing was extracted.").arg(name));
        const auto type = archive_entry_filetype(entry);
        if (type == AE_IFDIR)
            continue;
        if (type != AE_IFREG || archive_entry_hardlink(entry) || archive_entry_symlink(entry))
            return fail(ErrorKind::Unsafe, Text::tr("The bundle entry \"%1\" is not a plain file; nothing was extracted.").arg(name));
        if (seen.contains(name))
            return fail(ErrorKind::Corrupt, Text::tr("The bundle contains \"%1\" twice.").arg(name));
        seen.insert(name);
        if (archive_entry_size_is_set(entry) && archive_entry_size(entry) > kMaxEntryBytes)
            return fail(ErrorKind::TooLarge, Text::tr("The bundle entry \"%1\" is too large.").arg(name));

        QByteArray data;
        char buffer[64 * 1024];
        la_ssize_t n = 0;
        while ((n = archive_read_data(a.get(), buffer, sizeof buffer)) > 0) {
            data.append(buffer, n);
            if (data.size() > kMaxEntryBytes)
                return fail(ErrorKind::TooLarge, Text::tr("The bundle entry \"%1\" is too large.").arg(name));
        }
        if (n < 0)
            return fail(ErrorKind::Corrupt, Text::tr("The bundle entry \"%1\" is damaged: %2").arg(name, archiveMessage(a.get())));

        if (name == QLatin1String(kIndexName)) {
            head = QJsonDocument::fromJson(data).object();
            continue;   // the index describes the bundle; it is not part of the session
        }
        hashes.insert(name, SessionStore::sha256Hex(data));
        const QString target = dir.filePath(name);
        if (!QDir().mkpath(QFileInfo(target).absolutePath()))
            return fail(writeFailureKind(target), Text::tr("Cannot create a folder for %1.").arg(name));
        auto ok = exportfiles::writeAtomically(target, data);
        if (!ok)
            return fail(ok.error().kind, ok.error().message);
        written.append(name);
        report.bytesWritten += data.size();
    }
    if (rc != ARCHIVE_EOF)
        return fail(ErrorKind::Corrupt, Text::tr("The bundle is damaged: %1").arg(archiveMessage(a.get())));

    if (head.value(QStringLiteral("format")).toString() != QLatin1String(kFormatName))
        return fail(ErrorKind::InvalidInput, Text::tr("This zip is not an NB2Lite session bundle (no %1).").arg(QLatin1String(kIndexName)));
    if (head.value(QStringLiteral("version")).toInt() > kFormatVersion)
        return fail(ErrorKind::InvalidInput, Text::tr("The bundle was made by a newer NB2Lite (bundle version %1); update to open it.")
                                                 .arg(head.value(QStringLiteral("version")).toInt()));
    const QJsonArray files = head.value(QStringLiteral("files")).toArray();
    for (const QJsonValue &v : files) {
        const QJsonObject o = v.toObject();
        const QString rel = o.value(QStringLiteral("path")).toString();
        if (!hashes.contains(rel))
            return fail(ErrorKind::Corrupt, Text::tr("The bundle is incomplete: %1 is missing.").arg(rel));
        if (hashes.value(rel) != o.value(QStringLiteral("sha256")).toString())
            return fail(ErrorKind::Corrupt, Text::tr("The bundle is damaged: %1 does not match its checksum.").arg(rel));
    }
    if (files.size() != hashes.size())
        return fail(ErrorKind::Corrupt, Text::tr("The bundle holds files its index does not list."));
    if (!hashes.contains(QStringLiteral("manifest.json")))
        return fail(ErrorKind::Corrupt, Text::tr("The bundle has no manifest.json."));
    report.files = written;
    report.frames = head.value(QStringLiteral("frames")).toInt();
    return report;
}

} // namespace nb2
