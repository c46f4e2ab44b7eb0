#include "core/api/interactionsclient.h"
#include "core/export/exporter.h"
#include "core/export/sessionbundle.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QDir>
#include <QDirIterator>
#include <QTemporaryDir>
#include <QTest>

#include <archive.h>
#include <archive_entry.h>

using namespace nb2;

namespace {

// Distinctive enough that any occurrence in an export can only be a leak.
const QString kKey = QStringLiteral("AIzaSyNB2-live-export-KEY-must-not-leak-31c7");

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

/**
 * A session made the real way — SessionController over InteractionsClient against the fake
 * server, with a distinctive API key and the session folder inside a fake home directory —
 * exported in every format; then every byte of every output (zip entries decompressed) is
 * searched for the key and for the home and session paths.
 */
class tst_ExportLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void secretsNeverReachAnExport()
    {
        QTemporaryDir tmp;
        const QString home = tmp.filePath(QStringLiteral("home-nb2-export-user"));
        QVERIFY(QDir().mkpath(home));
        qputenv("HOME", QFile::encodeName(home));
        qputenv("GEMINI_API_KEY", kKey.toUtf8());
        QCOMPARE(QDir::homePath(), home);

        FakeServerOptions options;
        options.apiKey = kKey;
        FakeServer server(options);
        QVERIFY(server.start(0));
        ClientConfig config;
        config.baseUrl = server.baseUrl();
        config.apiKey = ApiKey(kKey, QStringLiteral("GEMINI_API_KEY"));
        config.maxRetries = 0;

        const QString sessionDir = QDir(home).filePath(QStringLiteral("Pictures/harbour session"));
        SessionController session;
        session.setClient(std::make_shared<InteractionsClient>(config));
        const Result<void> opened = session.open(sessionDir);
        QVERIFY2(opened, qPrintable(opened.error().message));

        auto root = session.generate({QStringLiteral("A quiet harbour at dusk"), QStringLiteral("3:2"), {}});
        QVERIFY2(root.ok(), qPrintable(root ? QString() : root.error().message));
        QVERIFY(session.waitForIdle(30000));
        auto lantern = session.edit(root.value(), {QStringLiteral("Add a lantern on the pier"), {}, {}});
        QVERIFY(lantern.ok());
        QVERIFY(session.waitForIdle(30000));
        auto night
            = session.edit(lantern.value(), {QStringLiteral("<script>alert('x')</script> make it night"), {}, {}});
        QVERIFY(night.ok());
        QVERIFY(session.waitForIdle(30000));
        auto winter = session.branchFrom(root.value(), {QStringLiteral("Make it winter"), {}, {}});
        QVERIFY(winter.ok());
        QVERIFY(session.waitForIdle(30000));
        // A failed turn whose server error is stored in the session (and shown in the page).
        FakeFault fault;
        fault.kind = FakeFault::Kind::InvalidKey;
        server.injectFault(fault);
        auto failed = session.edit(winter.value(), {QStringLiteral("Add snow"), {}, {}});
        QVERIFY(failed.ok());
        QVERIFY(session.waitForIdle(30000));
        QCOMPARE(session.graph().value(failed.value()).status, FrameStatus::Failed);
        QCOMPARE(session.graph().value(night.value()).status, FrameStatus::Done);

        const ExportSession exported = ExportSession::fromGraph(session.graph(), sessionDir);
        QCOMPARE(exported.frames.size(), 5);
        const QString outDir = tmp.filePath(QStringLiteral("exports"));
        QStringList outputs;
        int n = 0;
        for (ExportFormat format :
            {ExportFormat::Html, ExportFormat::Html, ExportFormat::Bundle, ExportFormat::Sheet, ExportFormat::Frames}) {
            ExportRequest r;
            r.format = format;
            r.singleFile = n == 1;
            r.output = QDir(outDir).filePath(QStringLiteral("%1-%2%3").arg(n++).arg(
                Exporter::formatName(format), r.singleFile ? QStringLiteral(".html") : QString()));
            auto report = Exporter::run(exported, r);
            QVERIFY2(report.ok(), qPrintable(report ? QString() : report.error().message));
            outputs.append(r.output);
        }

        const QList<QByteArray> needles {
            kKey.toUtf8(), home.toUtf8(), QDir(sessionDir).absolutePath().toUtf8(), tmp.path().toUtf8()};
        int scanned = 0;
        auto scan = [&](const QString &what, const QByteArray &bytes) {
            ++scanned;
            for (const QByteArray &needle : needles)
                QVERIFY2(!bytes.contains(needle),
                    qPrintable(what + QStringLiteral(" contains ") + QString::fromUtf8(needle)));
        };
        for (const QString &o : outputs) {
            QStringList files;
            if (QFileInfo(o).isDir()) {
                QDirIterator it(o, QDir::Files, QDirIterator::Subdirectories);
                while (it.hasNext())
                    files.append(it.next());
            } else {
                files.append(o);
            }
            for (const QString &f : files) {
                scan(f, readAll(f));
                if (!f.endsWith(QLatin1String(".nb2session")) && !f.contains(QLatin1String("bundle")))
                    continue;
                archive *a = archive_read_new();
                archive_read_support_format_zip(a);
                QCOMPARE(archive_read_open_filename(a, QFile::encodeName(f).constData(), 65536), ARCHIVE_OK);
                archive_entry *e = nullptr;
                int entries = 0;
                while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
                    QByteArray data;
                    char buf[65536];
                    la_ssize_t got;
                    while ((got = archive_read_data(a, buf, sizeof buf)) > 0)
                        data.append(buf, got);
                    scan(f + QLatin1Char(':') + QString::fromUtf8(archive_entry_pathname(e)), data);
                    ++entries;
                }
                archive_read_free(a);
                QVERIFY(entries >= 6); // index, manifest, journal, 4 images
            }
        }
        QVERIFY2(scanned >= 19, qPrintable(QString::number(scanned)));

        // The round trip through the real session: the reopened bundle has the same graph.
        const QString reopened = tmp.filePath(QStringLiteral("reopened"));
        QVERIFY(SessionBundle::extract(outputs.at(2), reopened).ok());
        SessionStore store;
        QVERIFY(store.open(reopened, SessionStore::OpenMode::OpenExisting));
        for (const Frame &f : session.graph().frames())
            QCOMPARE(store.graph().value(f.id).toJson(), f.toJson());
        session.close();
    }
};

QTEST_GUILESS_MAIN(tst_ExportLive)
#include "tst_exportlive.moc"
