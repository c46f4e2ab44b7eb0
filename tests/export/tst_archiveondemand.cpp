// libarchive is loaded when a bundle is first written, read or previewed, not when a program
// starts (issue 10, window start: its dynamic linking cost every studio start ~0.7 ms). This
// executable does not link libarchive, like the apps: nothing maps it before the first use, the
// first use loads it and works, and a missing library is a clear error that names the package.
#include "core/export/archivelibrary.h"
#include "core/export/bundlepreview.h"
#include "core/export/exportsession.h"
#include "core/export/sessionbundle.h"

#include "tests/export/exportfixture.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

namespace {

/** Whether libarchive is mapped into this process. */
bool libarchiveMapped()
{
    QFile maps(QStringLiteral("/proc/self/maps"));
    if (!maps.open(QIODevice::ReadOnly))
        qFatal("no /proc/self/maps");
    return maps.readAll().contains("/libarchive.so");
}

} // namespace

class TstArchiveOnDemand : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

private Q_SLOTS:
    // Runs first: a session opened and exported to non-bundle formats needs no libarchive.
    void notLoadedBeforeFirstUse()
    {
        QVERIFY(m_tmp.isValid());
        QVERIFY2(!libarchiveMapped(), "libarchive is linked into the program again (see core/export/archivelibrary.h)");
        SessionStore store;
        QVERIFY(store.open(m_tmp.filePath(QStringLiteral("session"))));
        testing::buildStandardSession(store, QStringLiteral("a prompt"));
        QVERIFY(!ArchiveLibrary::isLoaded());
        QVERIFY(!libarchiveMapped());
    }

    void firstBundleLoadsItAndRoundTrips()
    {
        const QString dir = m_tmp.filePath(QStringLiteral("session"));
        SessionStore store;
        QVERIFY(store.open(dir));
        const ExportSession session = ExportSession::fromGraph(store.graph(), store.dir());
        store.close();
        const QString bundle = m_tmp.filePath(QStringLiteral("s.nb2session"));
        const auto written = SessionBundle::write(session, bundle, ExistingTarget::Refuse);
        QVERIFY2(written.ok(), qPrintable(written ? QString() : written.error().message));
        QVERIFY(ArchiveLibrary::isLoaded());
        QVERIFY(libarchiveMapped());

        const QString opened = m_tmp.filePath(QStringLiteral("opened"));
        const auto extracted = SessionBundle::extract(bundle, opened);
        QVERIFY2(extracted.ok(), qPrintable(extracted ? QString() : extracted.error().message));
        QVERIFY(QFile::exists(QDir(opened).filePath(QStringLiteral("manifest.json"))));
        const auto preview = BundlePreview::read(bundle, 64);
        QVERIFY2(preview.ok(), qPrintable(preview ? QString() : preview.error().message));
        QVERIFY(!preview.value().image.isNull());
    }

    void missingLibraryIsAClearError()
    {
        const Result<ArchiveLibrary> missing = ArchiveLibrary::load(QStringLiteral("nb2-no-such-archive"), 13);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().kind, ErrorKind::Io);
        const QString message = missing.error().message;
        QVERIFY2(message.contains(QLatin1String("libarchive13")), qPrintable(message));        // the package to install
        QVERIFY2(message.contains(QLatin1String("nb2-no-such-archive")), qPrintable(message)); // the loader's reason
        // The real one still resolves every function it needs.
        const Result<ArchiveLibrary> real
            = ArchiveLibrary::load(QLatin1String(ArchiveLibrary::kName), ArchiveLibrary::kVersion);
        QVERIFY2(real.ok(), qPrintable(real ? QString() : real.error().message));
        QVERIFY(real.value().archive_read_new && real.value().archive_write_close);
    }
};

QTEST_GUILESS_MAIN(TstArchiveOnDemand)
#include "tst_archiveondemand.moc"
