// A bundle cannot exhaust memory or disk (issue 11, item 3): the index is read first,
// entries it does not list are refused before anything is extracted, entry and total sizes
// are capped, and every entry is streamed to disk with a running size check. The headline
// case is the one from the issue: a ~1-5 MB zip with one 1 GiB entry of zeros.

#include "core/export/sessionbundle.h"

#include "tests/export/exportfixture.h"
#include "tests/export/ziputil.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

#include <sys/resource.h>

using namespace nb2;
using namespace nb2::testing;

namespace {

constexpr qint64 kBomb = qint64(1) << 30; // 1 GiB of zeros

qint64 peakRssKiB()
{
    struct rusage usage {
    };
    ::getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

/**
 * A zip like a bundle: small real entries, then `bombName` with `bombSize` zeros (deflated,
 * streamed, so making it costs no memory), then the index (when given).
 */
void writeBomb(const QString &path, const QList<QPair<QByteArray, QByteArray>> &small, const QByteArray &bombName,
    qint64 bombSize, const QByteArray &index)
{
    archive *a = archive_write_new();
    archive_write_set_format_zip(a);
    archive_write_set_options(a, "zip:compression-level=1"); // fast to make; still ~230:1
    archive_write_open_filename(a, QFile::encodeName(path).constData());
    auto add = [a](const QByteArray &name, qint64 size, const std::function<void()> &data) {
        archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, name.constData());
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_entry_set_size(e, size);
        archive_write_zip_set_compression_deflate(a);
        archive_write_header(a, e);
        data();
        archive_entry_free(e);
    };
    for (const auto &f : small)
        add(f.first, f.second.size(), [&] { archive_write_data(a, f.second.constData(), size_t(f.second.size())); });
    add(bombName, bombSize, [&] {
        const QByteArray zeros(1 << 20, '\0');
        for (qint64 done = 0; done < bombSize; done += zeros.size())
            archive_write_data(a, zeros.constData(), size_t(zeros.size()));
    });
    if (!index.isEmpty())
        add(SessionBundle::kIndexName, index.size(),
            [&] { archive_write_data(a, index.constData(), size_t(index.size())); });
    archive_write_close(a);
    archive_write_free(a);
}

/** Makes the zip lie about name's size: local header, data descriptor and central directory all say fakeSize. */
bool patchDeclaredSize(const QString &path, const QByteArray &name, quint32 fakeSize)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite))
        return false;
    QByteArray b = f.readAll();
    auto put32 = [&b](qsizetype at, quint32 v) {
        for (int i = 0; i < 4; ++i)
            b[at + i] = char((v >> (8 * i)) & 0xff);
    };
    auto get16 = [&b](qsizetype at) { return quint16(quint8(b[at]) | (quint8(b[at + 1]) << 8)); };
    int patched = 0;
    for (qsizetype i = b.indexOf("PK\x03\x04"); i >= 0; i = b.indexOf("PK\x03\x04", i + 4)) {
        if (b.mid(i + 30, get16(i + 26)) == name) {
            put32(i + 22, fakeSize);
            const qsizetype dd = b.indexOf("PK\x07\x08", i + 30);
            if (dd > 0)
                put32(dd + 12, fakeSize);
            ++patched;
        }
    }
    for (qsizetype i = b.indexOf("PK\x01\x02"); i >= 0; i = b.indexOf("PK\x01\x02", i + 4)) {
        if (b.mid(i + 46, get16(i + 28)) == name) {
            put32(i + 24, fakeSize);
            ++patched;
        }
    }
    f.seek(0);
    f.write(b);
    return patched == 2;
}

qint64 bytesUnder(const QString &dir)
{
    qint64 total = 0;
    const QFileInfoList all = QDir(dir).entryInfoList(QDir::Files | QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot);
    for (const QFileInfo &fi : all)
        total += fi.isDir() ? bytesUnder(fi.absoluteFilePath()) : fi.size();
    return total;
}

} // namespace

class tst_BundleBomb : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QByteArray m_manifest;

    QList<QPair<QByteArray, QByteArray>> smallFiles() const { return {{"manifest.json", m_manifest}}; }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        SessionStore store;
        QVERIFY(store.open(m_tmp.filePath(QStringLiteral("session"))));
        store.close();
        QFile manifest(m_tmp.filePath(QStringLiteral("session/manifest.json")));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        m_manifest = manifest.readAll();
    }

    void bombIsRefusedQuickly_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("messagePart");
        // The index tells the truth about the 1 GiB entry: over the per-entry cap.
        QTest::newRow("listed at its size") << QStringLiteral("listed") << QStringLiteral("no session file is larger");
        // The index does not mention the entry at all.
        QTest::newRow("not listed") << QStringLiteral("unlisted") << QStringLiteral("does not list");
        // The index lists a small file; the zip's directory says 1 GiB.
        QTest::newRow("directory says more") << QStringLiteral("small-listed") << QStringLiteral("more than the");
        // Index and directory both lie (say 4 KiB): only the running check while inflating can stop it.
        QTest::newRow("everything lies") << QStringLiteral("lying") << QStringLiteral("more than the 4096 bytes");
    }

    void bombIsRefusedQuickly()
    {
        QFETCH(QString, how);
        QFETCH(QString, messagePart);
        const QByteArray bombName("images/import_1767000000_deadbeef.png");
        QList<QPair<QByteArray, QByteArray>> listed = smallFiles();
        QByteArray index;
        if (how == QLatin1String("listed")) {
            // A listed entry needs a size and a checksum; the checksum is never reached.
            QJsonObject head = QJsonDocument::fromJson(bundleIndexFor(listed)).object();
            QJsonArray files = head.value(QStringLiteral("files")).toArray();
            files.append(QJsonObject {{QStringLiteral("path"), QString::fromLatin1(bombName)},
                {QStringLiteral("size"), double(kBomb)}, {QStringLiteral("sha256"), QString(64, QLatin1Char('0'))}});
            head.insert(QStringLiteral("files"), files);
            index = QJsonDocument(head).toJson();
        } else if (how == QLatin1String("unlisted")) {
            index = bundleIndexFor(listed);
        } else {
            index = bundleIndexFor(listed + QList<QPair<QByteArray, QByteArray>> {{bombName, QByteArray(4096, '\0')}});
        }
        const QString bundle = m_tmp.filePath(how + QStringLiteral(".nb2session"));
        writeBomb(bundle, listed, bombName, kBomb, index);
        if (how == QLatin1String("lying"))
            QVERIFY(patchDeclaredSize(bundle, bombName, 4096));
        const qint64 bundleSize = QFileInfo(bundle).size();
        QVERIFY2(bundleSize < 8 * 1024 * 1024, "the bomb should be small on disk");

        const QString target = m_tmp.filePath(how + QStringLiteral("-opened"));
        const qint64 rssBefore = peakRssKiB();
        QElapsedTimer timer;
        timer.start();
        const Result<ExportReport> r = SessionBundle::extract(bundle, target);
        const qint64 ms = timer.elapsed();
        const qint64 rssAfter = peakRssKiB();
        qInfo("%s: %lld-byte bundle refused in %lld ms; peak RSS %lld MiB before, %lld MiB after", qPrintable(how),
            bundleSize, ms, rssBefore / 1024, rssAfter / 1024);

        QVERIFY(!r.ok());
        QVERIFY2(r.error().kind == ErrorKind::TooLarge || r.error().kind == ErrorKind::Corrupt,
            qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(messagePart), qPrintable(r.error().message));
        QVERIFY2(ms < 5000, "refusing a bomb must not inflate it");
        QVERIFY2(rssAfter - rssBefore < 64 * 1024, "refusing a bomb must not hold it in memory");
        QVERIFY(!QFileInfo::exists(target)); // nothing of it stays on disk
        QFile::remove(bundle);
    }

    void runningCheckStopsEarly()
    {
        // A lying entry is cut off right after its listed size: what reached the disk is bounded
        // by that, not by what the entry would inflate to. Watched while it happens.
        const QByteArray name("images/import_1767000000_cafef00d.png");
        const QList<QPair<QByteArray, QByteArray>> listed = smallFiles();
        const QString bundle = m_tmp.filePath(QStringLiteral("running.nb2session"));
        const qint64 claimed = 1 << 20;
        writeBomb(bundle, listed, name, qint64(64) << 20,
            bundleIndexFor(listed + QList<QPair<QByteArray, QByteArray>> {{name, QByteArray(claimed, '\0')}}));
        QVERIFY(patchDeclaredSize(bundle, name, quint32(claimed)));
        const QString target = m_tmp.filePath(QStringLiteral("running-opened"));
        const Result<ExportReport> r = SessionBundle::extract(bundle, target);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ErrorKind::TooLarge);
        QVERIFY(!QFileInfo::exists(target));
        QVERIFY(bytesUnder(m_tmp.path()) < 64 * 1024 * 1024); // no 64 MiB file anywhere, temp or not
    }

    void entryNamesAreQuotedVerbatim()
    {
        // A hostile name with placeholders must come out as written: every argument in one arg()
        // call, or "%2" in the name would be replaced by the size that follows it.
        const QByteArray name("images/import_%2_%1.png");
        const QList<QPair<QByteArray, QByteArray>> listed = smallFiles();
        const QString bundle = m_tmp.filePath(QStringLiteral("placeholders.nb2session"));
        writeBomb(bundle, listed, name, qint64(4) << 20,
            bundleIndexFor(listed + QList<QPair<QByteArray, QByteArray>> {{name, QByteArray(4096, '\0')}}));
        QVERIFY(patchDeclaredSize(bundle, name, 4096));
        const Result<ExportReport> r
            = SessionBundle::extract(bundle, m_tmp.filePath(QStringLiteral("placeholders-opened")));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QString::fromLatin1(name)), qPrintable(r.error().message));
    }

    void realBundlesStillOpen()
    {
        // The caps are far above anything real: a normal bundle (index last, as written) opens.
        SessionStore store;
        QVERIFY(store.open(m_tmp.filePath(QStringLiteral("real"))));
        buildStandardSession(store, QStringLiteral("prompt"));
        const QString bundle = m_tmp.filePath(QStringLiteral("real.nb2session"));
        QVERIFY(SessionBundle::write(ExportSession::fromGraph(store.graph(), store.dir()), bundle).ok());
        const Result<ExportReport> r = SessionBundle::extract(bundle, m_tmp.filePath(QStringLiteral("real-opened")));
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QVERIFY(r.value().files.contains(QStringLiteral("manifest.json")));
    }
};

QTEST_GUILESS_MAIN(tst_BundleBomb)
#include "tst_bundlebomb.moc"
