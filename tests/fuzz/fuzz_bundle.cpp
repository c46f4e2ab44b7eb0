// libFuzzer harness: opening a `.nb2session` bundle — BundlePreview::read (the thumbnailer's
// path: manifest, then the one image it names) and SessionBundle::extract (entry names, types,
// sizes, the index's checksums). Both must refuse anything hostile with an Error and leave
// nothing behind.
//
// Input: a zip as is when it starts with "PK"; otherwise text-framed entries, each starting
// with a line "%%entry NAME" (NAME "->TARGET" makes a symlink), which the harness zips itself
// so that mutations reach past the zip layer. In framed inputs "@sha256:NAME@" becomes the
// sha256 of entry NAME, and when no nb2bundle.json entry is given a correct index is written,
// so the checksum checks can be passed too.

#include "core/export/bundlepreview.h"
#include "core/export/sessionbundle.h"
#include "core/session/sessionstore.h"
#include "tests/fuzz/fuzzsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <archive.h>
#include <archive_entry.h>

#include <memory>

using namespace nb2;

namespace {

struct Entry {
    QByteArray name;
    QByteArray linkTarget; // non-empty: a symlink
    QByteArray bytes;
};

QList<Entry> parseFramed(const QByteArray &input)
{
    QList<Entry> entries;
    const QList<QByteArray> parts = fuzz::split(input, QByteArrayLiteral("%%entry "));
    for (qsizetype i = 1; i < parts.size(); ++i) {
        const QByteArray &part = parts[i];
        const qsizetype eol = part.indexOf('\n');
        Entry e;
        e.name = eol < 0 ? part : part.left(eol);
        e.bytes = eol < 0 ? QByteArray() : part.mid(eol + 1);
        if (const qsizetype arrow = e.name.indexOf("->"); arrow > 0) {
            e.linkTarget = e.name.mid(arrow + 2);
            e.name.truncate(arrow);
        }
        entries.append(e);
    }
    // "@sha256:NAME@" placeholders, so that a mutated manifest can still name a real checksum.
    for (Entry &e : entries) {
        for (const Entry &other : std::as_const(entries)) {
            const QByteArray token = "@sha256:" + other.name + '@';
            if (e.bytes.contains(token))
                e.bytes.replace(token, SessionStore::sha256Hex(other.bytes).toLatin1());
        }
    }
    const bool hasIndex = std::any_of(
        entries.cbegin(), entries.cend(), [](const Entry &e) { return e.name == SessionBundle::kIndexName; });
    if (!hasIndex) {
        QJsonArray files;
        for (const Entry &e : std::as_const(entries)) {
            if (e.linkTarget.isEmpty() && !e.name.endsWith('/'))
                files.append(QJsonObject {{QStringLiteral("path"), QString::fromUtf8(e.name)},
                    {QStringLiteral("size"), double(e.bytes.size())},
                    {QStringLiteral("sha256"), SessionStore::sha256Hex(e.bytes)}});
        }
        const QJsonObject index {{QStringLiteral("format"), QLatin1String(SessionBundle::kFormatName)},
            {QStringLiteral("version"), SessionBundle::kFormatVersion}, {QStringLiteral("files"), files}};
        entries.append({SessionBundle::kIndexName, {}, QJsonDocument(index).toJson(QJsonDocument::Compact)});
    }
    return entries;
}

QByteArray zip(const QList<Entry> &entries)
{
    struct Deleter {
        void operator()(archive *a) const { archive_write_free(a); }
    };
    std::unique_ptr<archive, Deleter> a(archive_write_new());
    archive_write_set_format_zip(a.get());
    archive_write_set_bytes_in_last_block(a.get(), 1);
    QByteArray out(1 << 20, Qt::Uninitialized);
    size_t used = 0;
    if (archive_write_open_memory(a.get(), out.data(), size_t(out.size()), &used) != ARCHIVE_OK)
        fuzz::fail("archive_write_open_memory");
    for (const Entry &e : entries) {
        archive_entry *entry = archive_entry_new();
        // Raw bytes, not _utf8: libarchive's writer crashes on a name that is not UTF-8.
        archive_entry_copy_pathname(entry, e.name.constData());
        if (!e.linkTarget.isEmpty()) {
            archive_entry_set_filetype(entry, AE_IFLNK);
            archive_entry_copy_symlink(entry, e.linkTarget.constData());
            archive_entry_set_size(entry, 0);
        } else if (e.name.endsWith('/')) {
            archive_entry_set_filetype(entry, AE_IFDIR);
            archive_entry_set_size(entry, 0);
        } else {
            archive_entry_set_filetype(entry, AE_IFREG);
            archive_entry_set_size(entry, e.bytes.size());
        }
        archive_entry_set_perm(entry, 0644);
        const bool headerOk = archive_write_header(a.get(), entry) == ARCHIVE_OK;
        if (headerOk && archive_entry_filetype(entry) == AE_IFREG)
            archive_write_data(a.get(), e.bytes.constData(), size_t(e.bytes.size()));
        archive_entry_free(entry);
    }
    archive_write_close(a.get());
    out.truncate(qsizetype(used));
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::ensureApp();
    const QByteArray input = fuzz::view(data, size);
    const QByteArray bundleBytes = input.startsWith("PK") ? QByteArray(input) : zip(parseFramed(input));
    const QString scratch = fuzz::scratchDir();
    const QString bundle = scratch + QStringLiteral("/in.nb2session");
    fuzz::writeFile(bundle, bundleBytes);

    BundlePreview::Limits limits;
    limits.maxManifestBytes = 1 << 20;
    limits.maxImageBytes = 1 << 20;
    limits.maxImagePixels = 4096 * 4096;
    const Result<BundlePreview::Preview> preview = BundlePreview::read(bundle, 64, limits);
    if (preview) {
        fuzz::check(!preview.value().image.isNull(), "a preview without an image");
        fuzz::check(
            preview.value().image.width() <= 64 && preview.value().image.height() <= 64, "the preview is not scaled");
        fuzz::check(SessionBundle::isSafeEntryName(preview.value().entryName), "previewed an unsafe entry");
    } else {
        fuzz::check(!preview.error().message.isEmpty(), "an error without a message");
    }

    const QString target = scratch + QStringLiteral("/out");
    QDir(target).removeRecursively();
    const Result<ExportReport> extracted = SessionBundle::extract(bundle, target);
    if (extracted) {
        // Everything landed inside the target and is a plain file.
        const QString root = QDir(target).canonicalPath() + QLatin1Char('/');
        for (const QString &name : extracted.value().files) {
            const QFileInfo info(QDir(target).filePath(name));
            fuzz::check(
                info.isFile() && !info.isSymLink(), "extracted something that is not a plain file", name.toUtf8());
            fuzz::check(info.canonicalFilePath().startsWith(root), "extracted outside the target", name.toUtf8());
        }
    } else {
        fuzz::check(!extracted.error().message.isEmpty(), "an error without a message");
        fuzz::check(!QFileInfo::exists(target) || QDir(target).isEmpty(), "a failed extraction left files behind");
    }
    // Nothing may ever be written beside the target (a "../" entry that got through).
    const QStringList beside
        = QDir(scratch).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
    for (const QString &name : beside)
        fuzz::check(name == QLatin1String("in.nb2session") || name == QLatin1String("out"),
            "a file appeared beside the target", name.toUtf8());
    QDir(target).removeRecursively();
    return 0;
}
