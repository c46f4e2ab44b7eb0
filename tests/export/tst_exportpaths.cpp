// Exports never read a file outside the session folder (issue 11, item 1): every exporter
// checks each image at the moment it uses it, and a bundle whose manifest names a path
// outside is refused even when its checksums were recomputed to match.

#include "app/cli/clirun.h"
#include "app/cli/console.h"
#include "core/export/exporter.h"
#include "core/export/sessionbundle.h"

#include "tests/export/exportfixture.h"
#include "tests/export/ziputil.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

using namespace nb2;
using namespace nb2::testing;

namespace {

const QByteArray kSecret("TOP-SECRET-0123456789-not-for-any-export\n");

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/** Whether any file under path (a file or a folder) contains the secret, in any encoding an export uses. */
bool leaks(const QString &path)
{
    QStringList files;
    if (QFileInfo(path).isDir()) {
        QDirIterator it(path, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext())
            files.append(it.next());
    } else if (QFileInfo::exists(path)) {
        files.append(path);
    }
    for (const QString &f : files) {
        const QByteArray bytes = readAll(f);
        if (bytes.contains(kSecret.trimmed()) || bytes.contains(kSecret.toBase64().left(40)))
            return true;
        if (QFileInfo(f).fileName().endsWith(QLatin1String(".nb2session"))) {
            const auto entries = zipEntries(f);
            for (const QByteArray &e : entries)
                if (e.contains(kSecret.trimmed()))
                    return true;
        }
    }
    return false;
}

} // namespace

class tst_ExportPaths : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_sessionDir;
    QString m_secretFile;
    StandardSession m_ids;
    ExportSession m_session;
    int m_outputs = 0;

    QString out(const QString &name) { return m_tmp.filePath(QStringLiteral("out%1-").arg(++m_outputs) + name); }

    static ExportRequest request(const QString &variant, const QString &output)
    {
        ExportRequest r;
        r.output = output;
        if (variant == QLatin1String("html-link")) {
            r.format = ExportFormat::Html;
        } else if (variant == QLatin1String("html-copy")) {
            r.format = ExportFormat::Html;
            r.linkImages = false;
        } else if (variant == QLatin1String("html-single")) {
            r.format = ExportFormat::Html;
            r.singleFile = true;
        } else if (variant == QLatin1String("frames")) {
            r.format = ExportFormat::Frames;
        } else if (variant == QLatin1String("sheet")) {
            r.format = ExportFormat::Sheet;
        } else {
            r.format = ExportFormat::Bundle;
        }
        return r;
    }

    static void variants()
    {
        QTest::addColumn<QString>("variant");
        for (const char *v : {"html-link", "html-copy", "html-single", "frames", "sheet", "bundle"})
            QTest::newRow(v) << QString::fromLatin1(v);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_sessionDir = m_tmp.filePath(QStringLiteral("session"));
        SessionStore store;
        QVERIFY(store.open(m_sessionDir));
        m_ids = buildStandardSession(store, QStringLiteral("a prompt"));
        m_session = ExportSession::fromGraph(store.graph(), store.dir());
        m_secretFile = m_tmp.filePath(QStringLiteral("secret.txt"));
        QFile secret(m_secretFile);
        QVERIFY(secret.open(QIODevice::WriteOnly));
        secret.write(kSecret);
    }

    void symlinkSwappedInAfterLoadIsRefused_data() { variants(); }

    void symlinkSwappedInAfterLoadIsRefused()
    {
        // The session was loaded (and checked) with a real file; then the file became a link
        // out of the folder. The check at use must catch it in every exporter.
        QFETCH(QString, variant);
        const ExportFrame *root = m_session.frame(m_ids.root);
        QVERIFY(root && root->hasImage());
        const QString image = root->imagePath;
        const QByteArray original = readAll(image);
        QVERIFY(QFile::remove(image));
        QVERIFY(QFile::link(m_secretFile, image));

        const ExportRequest r = request(variant, out(QStringLiteral("swapped.") + variant));
        const Result<ExportReport> e = Exporter::run(m_session, r);

        QVERIFY(QFile::remove(image)); // put the real picture back before anything can fail
        QFile restore(image);
        QVERIFY(restore.open(QIODevice::WriteOnly));
        restore.write(original);
        restore.close();

        QVERIFY2(!e.ok(), qPrintable(variant));
        QCOMPARE(e.error().kind, ErrorKind::Unsafe);
        QVERIFY2(e.error().message.contains(QStringLiteral("leads outside the session folder")),
            qPrintable(e.error().message));
        QVERIFY(!leaks(r.output));
        QCOMPARE(readAll(m_secretFile), kSecret); // and nothing wrote through the link
    }

    void pathOutsideTheFolderIsRefused_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<QString>("path");
        for (const char *v : {"html-link", "html-copy", "html-single", "frames", "sheet", "bundle"}) {
            QTest::newRow(qPrintable(QStringLiteral("%1 absolute").arg(QLatin1String(v))))
                << QString::fromLatin1(v) << QStringLiteral("ABS");
            QTest::newRow(qPrintable(QStringLiteral("%1 dot-dot").arg(QLatin1String(v))))
                << QString::fromLatin1(v) << QStringLiteral("../secret.txt");
        }
    }

    void pathOutsideTheFolderIsRefused()
    {
        // What a manifest naming "/…/secret.txt" or "../secret.txt" becomes in an ExportSession.
        QFETCH(QString, variant);
        QFETCH(QString, path);
        const QString rel = path == QLatin1String("ABS") ? m_secretFile : path;
        ExportSession crafted = m_session;
        for (ExportFrame &f : crafted.frames) {
            if (f.id == m_ids.second) {
                f.imageRelPath = rel;
                f.imagePath = QDir(crafted.sessionDir).filePath(rel);
            }
        }
        for (QString &file : crafted.sessionFiles) {
            if (file == m_session.frame(m_ids.second)->imageRelPath)
                file = rel;
        }
        const ExportRequest r = request(variant, out(QStringLiteral("crafted.") + variant));
        const Result<ExportReport> e = Exporter::run(crafted, r);
        QVERIFY2(!e.ok(), qPrintable(variant));
        QCOMPARE(e.error().kind, ErrorKind::Unsafe);
        QVERIFY(!leaks(r.output));
    }

    void craftedBundleIsRefused_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("dot-dot") << QStringLiteral("../../../../etc/passwd");
        QTest::newRow("images dot-dot") << QStringLiteral("images/../../../../etc/passwd");
        QTest::newRow("absolute") << QStringLiteral("/etc/hostname");
    }

    void craftedBundleIsRefused()
    {
        // A real bundle whose manifest is rewritten to name a file outside, with nb2bundle.json
        // recomputed so that every checksum matches: only the path check can catch it.
        QFETCH(QString, path);
        const QString bundle = out(QStringLiteral("real.nb2session"));
        QVERIFY(Exporter::run(m_session, request(QStringLiteral("bundle"), bundle)).ok());
        const auto entries = zipEntries(bundle);
        QJsonObject manifest = QJsonDocument::fromJson(entries.value(QStringLiteral("manifest.json"))).object();
        QJsonArray frames = manifest.value(QStringLiteral("frames")).toArray();
        QJsonObject frame = frames.at(0).toObject();
        QJsonObject image = frame.value(QStringLiteral("image")).toObject();
        image.insert(QStringLiteral("file"), path);
        frame.insert(QStringLiteral("image"), image);
        frames[0] = frame;
        manifest.insert(QStringLiteral("frames"), frames);
        QList<QPair<QByteArray, QByteArray>> files;
        for (auto it = entries.cbegin(); it != entries.cend(); ++it) {
            if (it.key() == QLatin1String(SessionBundle::kIndexName))
                continue;
            files.append({it.key().toUtf8(),
                it.key() == QLatin1String("manifest.json") ? QJsonDocument(manifest).toJson() : it.value()});
        }
        QList<QPair<QByteArray, QByteArray>> all = files;
        all.append({SessionBundle::kIndexName, bundleIndexFor(files)});
        const QString crafted = out(QStringLiteral("crafted.nb2session"));
        writeZip(crafted, all);

        const QString target = out(QStringLiteral("opened"));
        const Result<ExportReport> r = SessionBundle::extract(crafted, target);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ErrorKind::Unsafe);
        QVERIFY2(r.error().message.contains(QStringLiteral("names '%1'").arg(path)), qPrintable(r.error().message));
        QVERIFY(!QFileInfo::exists(target)); // nothing of it is left

        // The command line says the same, and does not claim "checksums verified".
        QString outText, errText;
        QTextStream o(&outText), e(&errText);
        cli::Console console(o, e);
        const QString cliTarget = out(QStringLiteral("cli-opened"));
        const int status = cli::runCommandLine(
            {QStringLiteral("--session"), cliTarget, QStringLiteral("open-bundle"), crafted}, console);
        o.flush();
        e.flush();
        QVERIFY(status != 0);
        QVERIFY2(errText.contains(QStringLiteral("unsafe")), qPrintable(errText));
        QVERIFY(!outText.contains(QStringLiteral("checksums verified")));
        QVERIFY(!QFileInfo::exists(cliTarget));
    }
};

QTEST_GUILESS_MAIN(tst_ExportPaths)
#include "tst_exportpaths.moc"
