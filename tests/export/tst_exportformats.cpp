#include "core/export/contactsheet.h"
#include "core/export/exporter.h"
#include "core/export/framesexporter.h"
#include "core/export/provenance.h"
#include "core/export/sessionbundle.h"

#include "tests/export/exportfixture.h"
#include "tests/export/ziputil.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <archive.h>
#include <archive_entry.h>

using namespace nb2;
using namespace nb2::testing;

using Entries = QList<QPair<QByteArray, QByteArray>>;

namespace {

const QString kScriptPrompt
    = QStringLiteral("<script>window.nb2Injected=1</script><img src=x onerror=\"window.nb2Injected=1\"> & more");

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList filesUnder(const QString &dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext())
        out.append(QDir(dir).relativeFilePath(it.next()));
    out.sort();
    return out;
}

} // namespace

class tst_ExportFormats : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_sessionDir;
    testing::StandardSession m_ids;
    ExportSession m_session;
    int m_outputs = 0;

    QString out(const QString &name) { return m_tmp.filePath(QStringLiteral("out%1-").arg(++m_outputs) + name); }

    Result<ExportReport> run(ExportFormat format, const QString &output, ExportScope scope = {})
    {
        ExportRequest r;
        r.format = format;
        r.output = output;
        r.scope = scope;
        return Exporter::run(m_session, r);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_sessionDir = m_tmp.filePath(QStringLiteral("my session"));
        SessionStore store;
        QVERIFY(store.open(m_sessionDir));
        m_ids = testing::buildStandardSession(store, kScriptPrompt);
        m_session = ExportSession::fromGraph(store.graph(), store.dir());
    }

    void adapterAndScopes()
    {
        QCOMPARE(int(m_session.frames.size()), m_ids.liveFrames);
        QCOMPARE(m_session.title, QStringLiteral("my session"));
        QCOMPARE(m_session.branches.size(), 3); // scripted, failed and style are leaves
        QVERIFY(m_session.sessionFiles.contains(QStringLiteral("manifest.json")));
        const int journal = QFile::exists(QDir(m_sessionDir).filePath(QStringLiteral("journal.jsonl"))) ? 1 : 0;
        QCOMPARE(int(m_session.sessionFiles.size()), 1 + journal + 6 + 2); // manifest, journal, 6 images, 2 inputs

        const auto all = m_session.select(ExportScope::session(), true).value();
        QCOMPARE(all.size(), m_ids.liveFrames);
        QCOMPARE(all.first()->id, m_ids.root); // parents before children
        QCOMPARE(m_session.select(ExportScope::session(), false).value().size(), m_ids.liveFrames - 1);

        const auto branch = m_session.select(ExportScope::ofBranch(QStringLiteral("1")), true).value();
        QStringList ids;
        for (const ExportFrame *f : branch)
            ids.append(f->id);
        QCOMPARE(ids, (QStringList {m_ids.root, m_ids.second, m_ids.third, m_ids.scripted}));
        QCOMPARE(m_session.select(ExportScope::ofBranch(m_ids.fork), true).value().size(), 2);
        QVERIFY(!m_session.select(ExportScope::ofBranch(QStringLiteral("nope")), true).ok());

        const auto chosen = m_session.select(ExportScope::ofFrames({m_ids.style, m_ids.root}), true).value();
        QCOMPARE(chosen.size(), 2);
        QCOMPARE(chosen.first()->id, m_ids.root);
        QVERIFY(!m_session.select(ExportScope::ofFrames({QStringLiteral("zzzz")}), true).ok());

        // One walk of the tree shared by several selections (the Export dialog) chooses the same frames.
        const QList<const ExportFrame *> order = m_session.treeOrder();
        for (const ExportScope &scope : {ExportScope::session(), ExportScope::ofBranch(QStringLiteral("1")),
                 ExportScope::ofBranch(m_ids.fork), ExportScope::ofFrames({m_ids.style, m_ids.root})}) {
            for (const bool failed : {false, true})
                QCOMPARE(m_session.select(scope, failed, order).value(), m_session.select(scope, failed).value());
        }
    }

    /** frame() answers from the adapter's index, and still the same after the frames were edited. */
    void frameByIdSurvivesEditedFrames()
    {
        QVERIFY(!m_session.rowOfId.isEmpty());
        for (const ExportFrame &f : m_session.frames)
            QCOMPARE(m_session.frame(f.id), &f);
        QVERIFY(!m_session.frame(QStringLiteral("zzzz")));

        ExportSession edited = m_session;
        const QString first = edited.frames.first().id;
        const QString last = edited.frames.last().id;
        edited.frames.removeFirst(); // every row moves up one: the index is stale for all of them
        for (const ExportFrame &f : edited.frames)
            QCOMPARE(edited.frame(f.id), &f);
        QVERIFY(!edited.frame(first));
        ExportFrame added = edited.frames.first();
        added.id = QStringLiteral("added01");
        edited.frames.append(added);
        QCOMPARE(edited.frame(QStringLiteral("added01")), &edited.frames.last());
        QCOMPARE(edited.frame(last)->id, last);
    }

    void bundleRoundTrip()
    {
        const QString bundle = out(QStringLiteral("s.nb2session"));
        auto written = run(ExportFormat::Bundle, bundle);
        QVERIFY2(written.ok(), qPrintable(written ? QString() : written.error().message));

        const QString opened = m_tmp.filePath(QStringLiteral("opened"));
        auto extracted = SessionBundle::extract(bundle, opened);
        QVERIFY2(extracted.ok(), qPrintable(extracted ? QString() : extracted.error().message));

        // Every session file comes back byte for byte, and nothing else does.
        QStringList expected = m_session.sessionFiles;
        expected.sort();
        QCOMPARE(filesUnder(opened), expected);
        for (const QString &rel : expected)
            QVERIFY2(readAll(QDir(opened).filePath(rel)) == readAll(QDir(m_sessionDir).filePath(rel)), qPrintable(rel));

        // And it opens as the same session: identical graph JSON, frame by frame.
        SessionStore original, reopened;
        QVERIFY(original.open(m_sessionDir, SessionStore::OpenMode::OpenExisting));
        const Result<void> reopenedOk = reopened.open(opened, SessionStore::OpenMode::OpenExisting);
        QVERIFY2(reopenedOk, qPrintable(reopenedOk.error().message));
        QCOMPARE(reopened.graph().size(), original.graph().size());
        for (const Frame &f : original.graph().frames())
            QCOMPARE(reopened.graph().value(f.id).toJson(), f.toJson());
        QCOMPARE(reopened.currentFrameId(), original.currentFrameId());
    }

    void bundleRefusesPartialOrStripped()
    {
        QVERIFY(
            !run(ExportFormat::Bundle, out(QStringLiteral("a.nb2session")), ExportScope::ofBranch(QStringLiteral("1")))
                 .ok());
        ExportRequest r;
        r.format = ExportFormat::Bundle;
        r.output = out(QStringLiteral("b.nb2session"));
        r.stripPrompts = true;
        auto e = Exporter::run(m_session, r);
        QVERIFY(!e.ok());
        QVERIFY(e.error().message.contains(QStringLiteral("lossless")));
        QVERIFY(!QFile::exists(r.output));
    }

    void bundleRejectsHostileOrDamaged_data()
    {
        QTest::addColumn<Entries>("entries");
        QTest::addColumn<bool>("withIndex");
        QTest::addColumn<QByteArray>("symlink");
        QTest::addColumn<QString>("messagePart");
        const QByteArray manifest("{}");
        QTest::newRow("dotdot") << Entries {{"manifest.json", manifest}, {"../escaped.txt", "x"}} << true
                                << QByteArray() << QStringLiteral("unsafe");
        QTest::newRow("nested-dotdot") << Entries {{"manifest.json", manifest}, {"images/../../escaped.txt", "x"}}
                                       << true << QByteArray() << QStringLiteral("unsafe");
        QTest::newRow("absolute") << Entries {{"manifest.json", manifest}, {"/tmp/nb2-escaped.txt", "x"}} << true
                                  << QByteArray() << QStringLiteral("unsafe");
        QTest::newRow("backslash") << Entries {{"manifest.json", manifest}, {"..\\escaped.txt", "x"}} << true
                                   << QByteArray() << QStringLiteral("unsafe");
        QTest::newRow("symlink") << Entries {{"manifest.json", manifest}, {"images/link", ""}} << true
                                 << QByteArray("/etc/passwd") << QStringLiteral("plain file");
        QTest::newRow("no-index") << Entries {{"manifest.json", manifest}} << false << QByteArray()
                                  << QStringLiteral("not an NB2Lite");
        QTest::newRow("no-manifest") << Entries {{"images/a.png", "x"}} << true << QByteArray()
                                     << QStringLiteral("manifest");
    }

    void bundleRejectsHostileOrDamaged()
    {
        QFETCH(Entries, entries);
        QFETCH(bool, withIndex);
        QFETCH(QByteArray, symlink);
        QFETCH(QString, messagePart);
        QTemporaryDir dir;
        QList<QPair<QByteArray, QByteArray>> all = entries;
        if (withIndex) {
            QList<QPair<QByteArray, QByteArray>> listed;
            for (const auto &e : entries)
                if (symlink.isEmpty() || e.first != entries.last().first)
                    listed.append(e);
            all.prepend({"nb2bundle.json", bundleIndexFor(listed)});
        }
        const QString zip = dir.filePath(QStringLiteral("evil.nb2session"));
        writeZip(zip, all, symlink);
        const QString target = dir.filePath(QStringLiteral("sub/target"));
        auto r = SessionBundle::extract(zip, target);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(messagePart), qPrintable(r.error().message));
        QVERIFY(!QFileInfo::exists(target)); // nothing left behind
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("sub/escaped.txt"))));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("escaped.txt"))));
        QVERIFY(!QFileInfo::exists(QStringLiteral("/tmp/nb2-escaped.txt")));
    }

    void bundleDetectsTampering()
    {
        const QString bundle = out(QStringLiteral("t.nb2session"));
        QVERIFY(run(ExportFormat::Bundle, bundle).ok());
        auto entries = zipEntries(bundle);
        QVERIFY(entries.contains(QStringLiteral("manifest.json")));
        // Same names, one image altered: the checksum catches it.
        QList<QPair<QByteArray, QByteArray>> rewritten;
        for (auto it = entries.cbegin(); it != entries.cend(); ++it) {
            QByteArray bytes = it.value();
            if (it.key().endsWith(QLatin1String(".png")))
                bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x55);
            rewritten.append({it.key().toUtf8(), bytes});
        }
        const QString tampered = out(QStringLiteral("tampered.nb2session"));
        writeZip(tampered, rewritten);
        const QString target = m_tmp.filePath(QStringLiteral("tampered-open"));
        QDir().mkpath(target); // an existing empty folder stays
        auto r = SessionBundle::extract(tampered, target);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("checksum")), qPrintable(r.error().message));
        QVERIFY(QFileInfo(target).isDir());
        QVERIFY(filesUnder(target).isEmpty());
        // A non-empty target is refused before anything is read.
        QVERIFY(!SessionBundle::extract(bundle, m_sessionDir).ok());
    }

    void htmlFolder()
    {
        const QString dir = out(QStringLiteral("html"));
        auto r = run(ExportFormat::Html, dir);
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r.value().frames, m_ids.liveFrames);
        QCOMPARE(r.value().imagesLinked + r.value().imagesCopied, m_ids.liveFrames - 1);
        const QString html = QString::fromUtf8(readAll(QDir(dir).filePath(QStringLiteral("index.html"))));
        QCOMPARE(int(html.count(QStringLiteral("<article class=\"frame\""))), m_ids.liveFrames);
        // The prompt is text, not markup: exactly one <script> element (ours) and no live onerror.
        QCOMPARE(int(html.count(QStringLiteral("<script"))), 1);
        QVERIFY(html.contains(
            QStringLiteral("&lt;script&gt;window.nb2Injected=1&lt;/script&gt;&lt;img src=x onerror=&quot;")));
        QVERIFY(!html.contains(QStringLiteral("onerror=\"")));
        QVERIFY(html.contains(QStringLiteral("&lt;b&gt;bad&lt;/b&gt; &amp; said so"))); // failure message escaped too
        QVERIFY(html.contains(QStringLiteral("Caf\u00e9 au lait")));
        // Offline: nothing fetched from anywhere else.
        QVERIFY(!html.contains(QStringLiteral("http://")) && !html.contains(QStringLiteral("https://")));
        QVERIFY(!html.contains(QStringLiteral("@import")) && !html.contains(QStringLiteral("url(")));

        // Every referenced image exists and is the session's file, byte for byte.
        const QRegularExpression src(QStringLiteral("<img src=\"(images/[^\"]+)\""));
        int images = 0;
        for (auto it = src.globalMatch(html); it.hasNext();) {
            const QString rel = it.next().captured(1);
            const QByteArray bytes = readAll(QDir(dir).filePath(rel));
            QVERIFY2(!bytes.isEmpty(), qPrintable(rel));
            bool found = false;
            for (const ExportFrame &f : m_session.frames)
                found = found || (f.hasImage() && readAll(f.imagePath) == bytes);
            QVERIFY2(found, qPrintable(rel));
            ++images;
        }
        QCOMPARE(images, m_ids.liveFrames - 1);
        // Refuses to write into a folder that already has files.
        QVERIFY(!run(ExportFormat::Html, dir).ok());
    }

    void htmlSingleFileAndStripping()
    {
        ExportRequest r;
        r.format = ExportFormat::Html;
        r.singleFile = true;
        r.stripIds = true;
        r.output = out(QStringLiteral("single.html"));
        auto report = Exporter::run(m_session, r);
        QVERIFY(report.ok());
        const QString html = QString::fromUtf8(readAll(r.output));
        QCOMPARE(int(html.count(QStringLiteral("src=\"data:image/"))), m_ids.liveFrames - 1);
        QVERIFY(!html.contains(QStringLiteral("images/")));
        QVERIFY(!html.contains(m_ids.second)); // ids stripped
        QVERIFY(!html.contains(QStringLiteral("v1_ia")));
        QCOMPARE(int(html.count(QStringLiteral("<script"))), 1);

        r.singleFile = false;
        r.stripIds = false;
        r.stripPrompts = true;
        r.output = out(QStringLiteral("noprompts"));
        QVERIFY(Exporter::run(m_session, r).ok());
        const QString page = QString::fromUtf8(readAll(QDir(r.output).filePath(QStringLiteral("index.html"))));
        QVERIFY(!page.contains(QStringLiteral("lantern")));
        QVERIFY(page.contains(m_ids.second));
    }

    void htmlTreeShape()
    {
        // Whole session: root has three children -> the longest line continues, two forks.
        auto whole = run(ExportFormat::Html, out(QStringLiteral("tree")));
        QVERIFY(whole.ok());
        const QString page
            = QString::fromUtf8(readAll(QDir(whole.value().output).filePath(QStringLiteral("index.html"))));
        QCOMPARE(int(page.count(QStringLiteral("<div class=\"forks\">"))), 1);
        QCOMPARE(int(page.count(QStringLiteral("<ol class=\"chain\">"))), 3);
        QCOMPARE(int(page.count(QStringLiteral("forks from #1"))), 2);
        // Forks sit right under the frame they branch from, before the main line continues.
        QVERIFY(page.indexOf(QStringLiteral("Add a lantern!")) > page.indexOf(QStringLiteral("Make it winter")));

        // Chosen frames with gaps hang under their nearest chosen ancestor.
        ExportRequest r;
        r.singleFile = true;
        r.scope = ExportScope::ofFrames({m_ids.scripted, m_ids.root, m_ids.failed});
        r.output = out(QStringLiteral("partial.html"));
        QVERIFY(Exporter::run(m_session, r).ok());
        const QString partial = QString::fromUtf8(readAll(r.output));
        QCOMPARE(int(partial.count(QStringLiteral("<article class=\"frame\""))), 3);
        QCOMPARE(int(partial.count(QStringLiteral("<ol class=\"chain\">"))), 2); // one root line + one fork
        QVERIFY(partial.contains(QStringLiteral("id=\"f-4\"")));                 // turn numbers, not positions
    }

    void framesWithReadableNamesAndProvenance()
    {
        const QString dir = out(QStringLiteral("frames"));
        auto r = run(ExportFormat::Frames, dir, ExportScope::ofBranch(QStringLiteral("1")));
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(filesUnder(dir),
            (QStringList {QStringLiteral("01-a-quiet-harbour-at-dusk.png"), QStringLiteral("02-add-a-lantern.jpg"),
                QStringLiteral("03-script-window-nb2injected-1-script-img.jpg"),
                QStringLiteral("04-cafe-au-lait-warmer-light.jpg")}));
        const auto branch = m_session.select(ExportScope::ofBranch(QStringLiteral("1")), true).value();
        const QStringList names = filesUnder(dir);
        for (int i = 0; i < names.size(); ++i) {
            const QByteArray bytes = readAll(QDir(dir).filePath(names.at(i)));
            auto p = readProvenanceFromBytes(bytes);
            QVERIFY2(p.ok(), qPrintable(names.at(i)));
            QCOMPARE(p.value().frameId, branch.at(i)->id);
            QCOMPARE(p.value().promptChain.size(), i + 1);
            QImage exported, original;
            QVERIFY(exported.loadFromData(bytes));
            QVERIFY(original.load(branch.at(i)->imagePath));
            QCOMPARE(exported, original);
        }
        QCOMPARE(FramesExporter::fileName(7, 120, *branch.at(1), QStringLiteral("jpg")),
            QStringLiteral("007-add-a-lantern.jpg"));
    }

    void contactSheet()
    {
        const QString png = out(QStringLiteral("sheet.png"));
        auto r = run(ExportFormat::Sheet, png);
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QImage sheet;
        QVERIFY(sheet.load(png));
        // 7 frames -> 3 columns x 3 rows of 240 px cells.
        QCOMPARE(sheet.width(), 2 * 24 + 3 * 240 + 2 * 16);
        QVERIFY(sheet.height() > 3 * 240);
        // Captions were drawn (built-in font here: the test is a QCoreApplication): dark pixels
        // in the caption strip under the first cell.
        int ink = 0;
        for (int y = 24 + 44 + 240; y < 24 + 44 + 240 + 30; ++y)
            for (int x = 24; x < 24 + 240; ++x)
                ink += qGray(sheet.pixel(x, y)) < 100 ? 1 : 0;
        QVERIFY2(ink > 40, qPrintable(QString::number(ink)));
        // The first cell shows the first frame's picture (its dominant hue), not a blank.
        const QRgb centre = sheet.pixel(24 + 120, 24 + 44 + 120);
        QVERIFY(qGray(centre) < 240);
    }

    void failedExportLeavesNothing_data()
    {
        QTest::addColumn<int>("format");
        QTest::newRow("html") << int(ExportFormat::Html);
        QTest::newRow("frames") << int(ExportFormat::Frames);
    }

    void failedExportLeavesNothing()
    {
        QFETCH(int, format);
        ExportSession broken = m_session;
        // The last frame in tree order: the first ones are written before the failure.
        // (A missing file inside the session: one outside it is refused as unsafe, see tst_exportpaths.)
        broken.frames.last().imagePath = QDir(m_sessionDir).filePath(QStringLiteral("images/gone.jpg"));
        broken.frames.last().imageRelPath = QStringLiteral("images/gone.jpg");
        ExportRequest r;
        r.format = ExportFormat(format);
        r.linkImages = false;
        r.output = out(QStringLiteral("broken"));
        auto e = Exporter::run(broken, r);
        QVERIFY(!e.ok());
        QCOMPARE(e.error().kind, ErrorKind::Io);
        QVERIFY2(!QFileInfo::exists(r.output), qPrintable(r.output));
    }

    void bigSheetsStayBounded()
    {
        QList<ExportFrame> many(900);
        QList<const ExportFrame *> ptrs;
        for (int i = 0; i < many.size(); ++i) {
            many[i].id = QString::number(i);
            many[i].kind = QStringLiteral("edit");
            many[i].status = QStringLiteral("failed");
            ptrs.append(&many.at(i));
        }
        const QImage sheet = ContactSheet::render(ptrs, QStringLiteral("many"), {});
        QVERIFY(!sheet.isNull());
        QVERIFY2(sheet.height() <= 16384 && sheet.width() <= 16384,
            qPrintable(QStringLiteral("%1x%2").arg(sheet.width()).arg(sheet.height())));
        QList<const ExportFrame *> tooMany = ptrs + ptrs + ptrs;
        auto r = ContactSheet::write(tooMany, QStringLiteral("many"), out(QStringLiteral("huge.png")), {});
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(QStringLiteral("choose a branch")));
    }

    void noSecretsInAnyFormat()
    {
        // Stand-ins for what must never leak: a key in the environment and this machine's paths.
        const QByteArray key = "AIzaSyNB2-export-test-KEY-do-not-leak-4f9c";
        qputenv("GEMINI_API_KEY", key);
        const QByteArray sessionPath = QDir(m_sessionDir).absolutePath().toUtf8();
        const QByteArray tmpPath = m_tmp.path().toUtf8();
        QList<QByteArray> needles {key, sessionPath, tmpPath, QFile::encodeName(QDir::homePath()) + '/'};

        QStringList outputs;
        outputs << out(QStringLiteral("scan-html"));
        QVERIFY(run(ExportFormat::Html, outputs.last()).ok());
        ExportRequest single;
        single.format = ExportFormat::Html;
        single.singleFile = true;
        single.output = out(QStringLiteral("scan.html"));
        QVERIFY(Exporter::run(m_session, single).ok());
        outputs << single.output;
        outputs << out(QStringLiteral("scan.nb2session"));
        QVERIFY(run(ExportFormat::Bundle, outputs.last()).ok());
        outputs << out(QStringLiteral("scan-sheet.png"));
        QVERIFY(run(ExportFormat::Sheet, outputs.last()).ok());
        outputs << out(QStringLiteral("scan-frames"));
        QVERIFY(run(ExportFormat::Frames, outputs.last()).ok());

        int scanned = 0;
        auto scan = [&](const QString &what, const QByteArray &bytes) {
            ++scanned;
            for (const QByteArray &n : needles)
                QVERIFY2(!bytes.contains(n), qPrintable(what + QStringLiteral(" contains ") + QString::fromUtf8(n)));
        };
        for (const QString &o : outputs) {
            const QStringList files = QFileInfo(o).isDir() ? filesUnder(o) : QStringList {QString()};
            for (const QString &rel : files) {
                const QString path = rel.isEmpty() ? o : QDir(o).filePath(rel);
                const QByteArray bytes = readAll(path);
                QVERIFY(!bytes.isEmpty());
                scan(path, bytes);
                if (path.endsWith(QLatin1String(".nb2session"))) {
                    const auto entries = zipEntries(path);
                    QVERIFY(entries.size() >= 3);
                    for (auto it = entries.cbegin(); it != entries.cend(); ++it)
                        scan(path + QLatin1Char(':') + it.key(), it.value());
                }
            }
        }
        QVERIFY(scanned > 20);
        qunsetenv("GEMINI_API_KEY");
    }
};

QTEST_GUILESS_MAIN(tst_ExportFormats)
#include "tst_exportformats.moc"
