#include "core/export/exporter.h"

#include "tests/export/exportfixture.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace nb2;

/**
 * Loads exported pages in a real browser (Debian's chromium, headless) and checks through
 * the DOM what the browser actually did: the page's own load handler writes what it saw into
 * <pre id="selfcheck">, and --dump-dom prints the DOM after the load event.
 */
class tst_HtmlBrowser : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_chromium;
    ExportSession m_session;
    int m_imageFrames = 0;

    QString dumpDom(const QString &page)
    {
        QProcess p;
        const QString profile = m_tmp.filePath(QStringLiteral("profile-%1").arg(QDateTime::currentMSecsSinceEpoch()));
        p.start(m_chromium,
            {QStringLiteral("--headless"), QStringLiteral("--no-sandbox"), QStringLiteral("--disable-gpu"),
                QStringLiteral("--no-first-run"), QStringLiteral("--disable-background-networking"),
                QStringLiteral("--disable-component-update"), QStringLiteral("--disable-sync"),
                QStringLiteral("--user-data-dir=") + profile,
                // Lets the page finish loading every image before the DOM is dumped.
                QStringLiteral("--virtual-time-budget=15000"), QStringLiteral("--dump-dom"),
                QUrl::fromLocalFile(page).toString()});
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            return {};
        }
        return QString::fromUtf8(p.readAllStandardOutput());
    }

    void checkPage(const QString &page)
    {
        const QString dom = dumpDom(page);
        QVERIFY2(!dom.isEmpty(), "chromium printed no DOM");
        const QRegularExpression re(QStringLiteral("<pre id=\"selfcheck\" hidden=\"\">([^<]*)</pre>"));
        const auto m = re.match(dom);
        QVERIFY2(m.hasMatch(), qPrintable(QStringLiteral("no selfcheck line in the DOM: ") + dom.left(400)));
        const QString line = m.captured(1);
        QMap<QString, int> v;
        for (const QString &kv : line.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            v.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1).toInt());
        qInfo("%s: %s", qPrintable(QFileInfo(page).fileName()), qPrintable(line));
        QCOMPARE(v.value(QStringLiteral("images"), -1), m_imageFrames);
        QCOMPARE(v.value(QStringLiteral("loaded"), -1), m_imageFrames); // every <img> decoded, naturalWidth > 0
        QCOMPARE(v.value(QStringLiteral("frames"), -1), int(m_session.frames.size()));
        QCOMPARE(v.value(QStringLiteral("expected"), -1), int(m_session.frames.size()));
        QCOMPARE(v.value(QStringLiteral("scripts"), -1), 1);  // only the page's own script
        QCOMPARE(v.value(QStringLiteral("injected"), -1), 0); // the prompt's script never ran
        // The prompt is in the DOM as text (serialised escaped), not as elements.
        QVERIFY(dom.contains(QStringLiteral(
            "<p class=\"prompt\">&lt;script&gt;window.nb2Injected=1&lt;/script&gt;&lt;img src=x onerror=")));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_chromium = qEnvironmentVariable("NB2_CHROMIUM");
        if (m_chromium.isEmpty())
            m_chromium = QStandardPaths::findExecutable(QStringLiteral("chromium"));
        QVERIFY2(
            !m_chromium.isEmpty(), "chromium not found: run packaging/install-deps.sh (it installs Debian's chromium)");
        SessionStore store;
        QVERIFY(store.open(m_tmp.filePath(QStringLiteral("session"))));
        testing::buildStandardSession(
            store, QStringLiteral("<script>window.nb2Injected=1</script><img src=x onerror=\"window.nb2Injected=1\">"));
        m_session = ExportSession::fromGraph(store.graph(), store.dir());
        for (const ExportFrame &f : m_session.frames)
            m_imageFrames += f.hasImage() ? 1 : 0;
    }

    void folderPage()
    {
        ExportRequest r;
        r.output = m_tmp.filePath(QStringLiteral("html"));
        QVERIFY(Exporter::run(m_session, r).ok());
        checkPage(QDir(r.output).filePath(QStringLiteral("index.html")));
    }

    void singleFilePage()
    {
        ExportRequest r;
        r.singleFile = true;
        r.output = m_tmp.filePath(QStringLiteral("single.html"));
        QVERIFY(Exporter::run(m_session, r).ok());
        checkPage(r.output);
    }

    void clickOpensFullImage()
    {
        ExportRequest r;
        r.singleFile = true;
        r.output = m_tmp.filePath(QStringLiteral("click.html"));
        QVERIFY(Exporter::run(m_session, r).ok());
        // The test (not the page) clicks the first thumbnail once everything has loaded and
        // records what the overlay then shows.
        QFile f(r.output);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray html = f.readAll();
        f.close();
        html.replace("</body>",
            "<script>window.addEventListener('load',function(){"
            "document.querySelector('a.thumb img').click();"
            "setTimeout(function(){var b=document.getElementById('lightbox-img');"
            "document.body.setAttribute('data-clicked',document.getElementById('lightbox').hidden+'|'+b.naturalWidth);}"
            ",200);"
            "});</script></body>");
        const QString page = m_tmp.filePath(QStringLiteral("click-test.html"));
        QFile out(page);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(html);
        out.close();
        const QString dom = dumpDom(page);
        // Overlay visible, showing the full-size picture (the fixture's images are 96 px wide).
        QVERIFY2(dom.contains(QStringLiteral("data-clicked=\"false|96\"")), qPrintable(dom.left(300)));
    }

    void brokenImageIsNoticed()
    {
        // The check must be able to fail: a page whose image is damaged reports loaded < images.
        ExportRequest r;
        r.output = m_tmp.filePath(QStringLiteral("broken"));
        QVERIFY(Exporter::run(m_session, r).ok());
        const QDir images(QDir(r.output).filePath(QStringLiteral("images")));
        const QString victim = images.entryList(QDir::Files).first();
        QVERIFY(QFile::remove(images.filePath(victim))); // a link or copy: the session's file stays
        QFile bad(images.filePath(victim));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("not an image");
        bad.close();
        const QString dom = dumpDom(QDir(r.output).filePath(QStringLiteral("index.html")));
        QVERIFY(dom.contains(QStringLiteral("images=%1 loaded=%2 ").arg(m_imageFrames).arg(m_imageFrames - 1)));
    }
};

QTEST_GUILESS_MAIN(tst_HtmlBrowser)
#include "tst_htmlbrowser.moc"
