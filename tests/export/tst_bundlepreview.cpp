// BundlePreview: the picture of a .nb2session bundle, read without extracting it. A real bundle
// written by SessionBundle, then hostile zips (written with libarchive directly) that must be
// refused with a clear error and bounded work: no manifest, paths leaving the folder, links,
// oversized and lying entries, checksum mismatches, non-images, too many pixels.
#include "core/export/bundlepreview.h"
#include "core/export/exportsession.h"
#include "core/export/sessionbundle.h"
#include "exportfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <archive.h>
#include <archive_entry.h>

using namespace nb2;

namespace {

struct ZipEntry {
    QByteArray name;
    QByteArray bytes;
    QByteArray symlinkTarget; // non-empty: a symbolic link instead of a file
};

/** Writes a zip with libarchive (independently of SessionBundle); deflates when asked. */
void writeZip(const QString &path, const QList<ZipEntry> &entries, bool deflate = false)
{
    archive *a = archive_write_new();
    archive_write_set_format_zip(a);
    if (deflate)
        archive_write_zip_set_compression_deflate(a);
    else
        archive_write_zip_set_compression_store(a);
    archive_write_open_filename(a, QFile::encodeName(path).constData());
    for (const ZipEntry &entry : entries) {
        archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, entry.name.constData());
        const bool link = !entry.symlinkTarget.isEmpty();
        archive_entry_set_filetype(e, link ? AE_IFLNK : AE_IFREG);
        if (link)
            archive_entry_set_symlink(e, entry.symlinkTarget.constData());
        archive_entry_set_perm(e, 0644);
        archive_entry_set_size(e, link ? 0 : entry.bytes.size());
        archive_write_header(a, e);
        if (!link && !entry.bytes.isEmpty())
            archive_write_data(a, entry.bytes.constData(), size_t(entry.bytes.size()));
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
}

/** A session manifest with one done frame whose image is `file` (sha256 of `bytes` unless given). */
QByteArray manifestNaming(const QString &file, const QByteArray &bytes, const QString &sha256 = {})
{
    QJsonObject image {{QStringLiteral("file"), file},
        {QStringLiteral("sha256"), sha256.isEmpty() ? SessionStore::sha256Hex(bytes) : sha256},
        {QStringLiteral("mime_type"), QStringLiteral("image/png")}};
    QJsonObject frame {{QStringLiteral("id"), QStringLiteral("abcd1234")},
        {QStringLiteral("kind"), QStringLiteral("generate")}, {QStringLiteral("status"), QStringLiteral("done")},
        {QStringLiteral("prompt"), QStringLiteral("x")}, {QStringLiteral("image"), image}};
    QJsonObject root {{QStringLiteral("format"), QLatin1String(SessionStore::kFormatName)},
        {QStringLiteral("schema_version"), 1}, {QStringLiteral("frames"), QJsonArray {frame}}};
    return QJsonDocument(root).toJson();
}

/** Rewrites every "uncompressed size" field of a one-entry-after-manifest zip to `size`: a liar. */
void lieAboutSizes(const QString &path, const QByteArray &entryName, quint32 size)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QByteArray zip = f.readAll();
    const auto put32 = [&zip](qsizetype at, quint32 v) {
        for (int i = 0; i < 4; ++i)
            zip[at + i] = char((v >> (8 * i)) & 0xff);
    };
    // Local file header: signature PK\3\4, uncompressed size at +22, name at +30.
    // Central directory header: signature PK\1\2, uncompressed size at +24, name at +46.
    for (qsizetype at = zip.indexOf("PK\x03\x04"); at >= 0; at = zip.indexOf("PK\x03\x04", at + 4)) {
        if (zip.mid(at + 30, entryName.size()) == entryName)
            put32(at + 22, size);
    }
    for (qsizetype at = zip.indexOf("PK\x01\x02"); at >= 0; at = zip.indexOf("PK\x01\x02", at + 4)) {
        if (zip.mid(at + 46, entryName.size()) == entryName)
            put32(at + 24, size);
    }
    f.seek(0);
    f.write(zip);
}

/** The error message of a failed result, for QVERIFY2 (which evaluates it even on success). */
QString why(const Result<BundlePreview::Preview> &r)
{
    return r.ok() ? QString() : r.error().message;
}

} // namespace

class tst_BundlePreview : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_bundle;
    QString m_sessionDir;
    testing::StandardSession m_ids;
    int m_count = 0;

    QString path(const char *name)
    {
        return m_tmp.filePath(QStringLiteral("%1-%2").arg(++m_count).arg(QLatin1String(name)));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_sessionDir = m_tmp.filePath(QStringLiteral("session"));
        SessionStore store;
        QVERIFY(store.open(m_sessionDir));
        m_ids = testing::buildStandardSession(store, QStringLiteral("<script>alert(1)</script>"));
        m_bundle = m_tmp.filePath(QStringLiteral("real.nb2session"));
        QVERIFY(SessionBundle::write(ExportSession::fromGraph(store.graph(), store.dir()), m_bundle).ok());
    }

    void realBundleShowsLastFinishedFrame()
    {
        const auto preview = BundlePreview::read(m_bundle, 0);
        QVERIFY2(preview.ok(), qPrintable(why(preview)));
        // The standard session's last frame (in creation order) is the style edit.
        QCOMPARE(preview.value().frameId, m_ids.style);
        QVERIFY(preview.value().entryName.startsWith(QLatin1String("images/")));
        // Full size: exactly the pixels of the session's own file.
        const QImage original(QDir(m_sessionDir).filePath(preview.value().entryName));
        QVERIFY(!original.isNull());
        QCOMPARE(preview.value().originalSize, original.size());
        QCOMPARE(preview.value().image.convertToFormat(QImage::Format_RGB32),
            original.convertToFormat(QImage::Format_RGB32));
    }

    void scaledToFitAndNeverEnlarged()
    {
        auto preview = BundlePreview::read(m_bundle, 48);
        QVERIFY2(preview.ok(), qPrintable(why(preview)));
        const QSize size = preview.value().image.size();
        QCOMPARE(qMax(size.width(), size.height()), 48);
        QCOMPARE(size, preview.value().originalSize.scaled(48, 48, Qt::KeepAspectRatio));
        preview = BundlePreview::read(m_bundle, 4000);
        QVERIFY(preview.ok());
        QCOMPARE(preview.value().image.size(), preview.value().originalSize);
    }

    void trashedAndFailedFramesAreSkipped()
    {
        // Trash the last frame: the preview falls back to the last live, finished one.
        const QString dir = m_tmp.filePath(QStringLiteral("trashed"));
        SessionStore store;
        QVERIFY(store.open(dir));
        const QString first = testing::addFrame(store, {}, FrameKind::Generate, QStringLiteral("one"), 11, "PNG");
        const QString second = testing::addFrame(store, first, FrameKind::Edit, QStringLiteral("two"), 12);
        testing::addFrame(store, second, FrameKind::Edit, QStringLiteral("failed"), 13, nullptr);
        Frame last = *store.graph().frame(second);
        last.trashedAt = QDateTime::currentDateTimeUtc();
        QVERIFY(store.commit({last}));
        const QString bundle = path("trashed.nb2session");
        QVERIFY(SessionBundle::write(ExportSession::fromGraph(store.graph(), store.dir()), bundle).ok());
        const auto preview = BundlePreview::read(bundle, 32);
        QVERIFY2(preview.ok(), qPrintable(why(preview)));
        QCOMPARE(preview.value().frameId, first);
    }

    void hostileBundlesAreRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("expected"); // ErrorKind
        QTest::addColumn<QString>("messagePart");
        const int invalid = int(ErrorKind::InvalidInput);
        const int tooLarge = int(ErrorKind::TooLarge);
        const int unsafe = int(ErrorKind::Unsafe);
        QTest::newRow("not a zip") << "garbage" << invalid << "not a readable";
        QTest::newRow("empty file") << "empty" << invalid << "not a readable";
        QTest::newRow("missing manifest") << "no-manifest" << invalid << "no manifest.json";
        QTest::newRow("manifest not JSON") << "bad-json" << invalid << "not valid JSON";
        QTest::newRow("other JSON") << "other-format" << invalid << "not an NB2Lite session manifest";
        QTest::newRow("no finished frame") << "no-frames" << int(ErrorKind::NoImage) << "no finished frame";
        QTest::newRow("path escape ..") << "dotdot" << unsafe << "unsafe image path";
        QTest::newRow("absolute path") << "absolute" << unsafe << "unsafe image path";
        QTest::newRow("backslash path") << "backslash" << unsafe << "unsafe image path";
        QTest::newRow("names the manifest") << "self" << unsafe << "unsafe image path";
        QTest::newRow("image missing") << "missing-image" << invalid << "is missing";
        QTest::newRow("image is a symlink") << "symlink" << invalid << "not a plain file";
        QTest::newRow("checksum mismatch") << "checksum" << invalid << "does not match its checksum";
        QTest::newRow("not an image") << "not-image" << invalid << "not a readable image";
        QTest::newRow("huge entry") << "huge" << tooLarge << "too large";
        QTest::newRow("entry lies about its size") << "liar" << tooLarge << "larger than";
        QTest::newRow("huge manifest") << "huge-manifest" << tooLarge << "manifest.json";
        QTest::newRow("too many pixels") << "pixels" << tooLarge << "too large to preview";
        QTest::newRow("too many entries") << "entries" << tooLarge << "entries";
    }

    void hostileBundlesAreRefused()
    {
        QFETCH(QString, kind);
        QFETCH(int, expected);
        QFETCH(QString, messagePart);

        const QByteArray png = testing::encodedImage(5, "PNG");
        const QByteArray name = "images/gen_1_abcd1234.png";
        const QString file = path("hostile.nb2session");
        BundlePreview::Limits limits;
        const auto bundleWith = [&](const QString &imageName, const QList<ZipEntry> &more, const QString &sha = {}) {
            QList<ZipEntry> entries {{"manifest.json", manifestNaming(imageName, png, sha), {}}};
            entries += more;
            writeZip(file, entries);
        };

        if (kind == QLatin1String("garbage")) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(4096, '\x5a'));
        } else if (kind == QLatin1String("empty")) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
        } else if (kind == QLatin1String("no-manifest")) {
            writeZip(file, {{name, png, {}}});
        } else if (kind == QLatin1String("bad-json")) {
            writeZip(file, {{"manifest.json", "{ not json", {}}, {name, png, {}}});
        } else if (kind == QLatin1String("other-format")) {
            writeZip(file, {{"manifest.json", R"({"format":"something-else","frames":[]})", {}}, {name, png, {}}});
        } else if (kind == QLatin1String("no-frames")) {
            writeZip(file, {{"manifest.json", R"({"format":"nb2lite-session","schema_version":1,"frames":[]})", {}}});
        } else if (kind == QLatin1String("dotdot")) {
            bundleWith(QStringLiteral("images/../../../etc/passwd"), {{"images/../../../etc/passwd", png, {}}});
        } else if (kind == QLatin1String("absolute")) {
            bundleWith(QStringLiteral("/etc/passwd"), {{"/etc/passwd", png, {}}});
        } else if (kind == QLatin1String("backslash")) {
            bundleWith(QStringLiteral("images\\..\\x.png"), {{"images\\..\\x.png", png, {}}});
        } else if (kind == QLatin1String("self")) {
            bundleWith(QStringLiteral("manifest.json"), {});
        } else if (kind == QLatin1String("missing-image")) {
            bundleWith(QString::fromLatin1(name), {{"images/other.png", png, {}}});
        } else if (kind == QLatin1String("symlink")) {
            bundleWith(QString::fromLatin1(name), {{name, {}, "/etc/passwd"}});
        } else if (kind == QLatin1String("checksum")) {
            QByteArray changed = png;
            changed[changed.size() - 20] = char(changed.at(changed.size() - 20) ^ 0x55);
            bundleWith(QString::fromLatin1(name), {{name, changed, {}}});
        } else if (kind == QLatin1String("not-image")) {
            const QByteArray text = "this is not a picture";
            writeZip(file, {{"manifest.json", manifestNaming(QString::fromLatin1(name), text), {}}, {name, text, {}}});
        } else if (kind == QLatin1String("huge")) {
            limits.maxImageBytes = 1024;
            bundleWith(QString::fromLatin1(name), {{name, png + QByteArray(4096, '\0'), {}}});
        } else if (kind == QLatin1String("liar")) {
            // 8 MB of zeros deflates to a few KB; the headers then claim 100 bytes. Reading must
            // stop at the limit, not trust the header nor inflate everything.
            limits.maxImageBytes = 1 << 20;
            const QByteArray zeros(8 << 20, '\0');
            writeZip(file, {{"manifest.json", manifestNaming(QString::fromLatin1(name), zeros), {}}, {name, zeros, {}}},
                true);
            lieAboutSizes(file, name, 100);
            QVERIFY(QFileInfo(file).size() < 200 * 1024);
        } else if (kind == QLatin1String("huge-manifest")) {
            limits.maxManifestBytes = 64; // the manifest above is a few hundred bytes
            bundleWith(QString::fromLatin1(name), {{name, png, {}}});
        } else if (kind == QLatin1String("pixels")) {
            limits.maxImagePixels = 96 * 64 - 1; // the fixture's image is 96 x 64
            bundleWith(QString::fromLatin1(name), {{name, png, {}}});
        } else if (kind == QLatin1String("entries")) {
            limits.maxEntries = 50;
            QList<ZipEntry> many;
            for (int i = 0; i < 60; ++i)
                many.append({"images/filler-" + QByteArray::number(i), "x", {}});
            many.append({name, png, {}});
            bundleWith(QString::fromLatin1(name), many);
        } else {
            QFAIL("unknown row");
        }

        const auto preview = BundlePreview::read(file, 64, limits);
        QVERIFY2(!preview.ok(), qPrintable(kind));
        if (kind == QLatin1String("liar")) {
            // libarchive may notice the lie itself (a damaged entry) before the limit does.
            qInfo("lying entry refused: %s", qPrintable(preview.error().message));
            QVERIFY2(preview.error().kind == ErrorKind::TooLarge || preview.error().kind == ErrorKind::InvalidInput,
                qPrintable(preview.error().message));
        } else {
            QCOMPARE(int(preview.error().kind), expected);
            QVERIFY2(preview.error().message.contains(messagePart), qPrintable(preview.error().message));
        }
        // Nothing was extracted next to the bundle.
        QCOMPARE(QDir(m_tmp.path())
                     .entryList({QStringLiteral("images"), QStringLiteral("manifest.json"), QStringLiteral("etc")})
                     .size(),
            0);
    }

    void missingFileIsAnIoError()
    {
        const auto preview = BundlePreview::read(m_tmp.filePath(QStringLiteral("nope.nb2session")), 64);
        QVERIFY(!preview.ok());
        QCOMPARE(preview.error().kind, ErrorKind::Io);
    }
};

QTEST_GUILESS_MAIN(tst_BundlePreview)
#include "tst_bundlepreview.moc"
