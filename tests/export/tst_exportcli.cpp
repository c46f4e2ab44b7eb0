#include "app/cli/cliargs.h"
#include "core/common/translations.h"
#include "core/export/provenance.h"
#include "core/session/pricetable.h"

#include "tests/cli/inprocesscli.h"
#include "tests/export/exportfixture.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

/** `nb2lite --session DIR export|open-bundle`, run in-process through the whole command line. */
class tst_ExportCli : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_session;
    testing::StandardSession m_ids;

    using Run = test::CliRun;

    /** The full command line, as the binary would get it. */
    static Run runLine(const QStringList &words) { return test::runCli(words); }

    Run run(const QStringList &args) { return runLine(QStringList {QStringLiteral("--session"), m_session} + args); }

private Q_SLOTS:
    void initTestCase()
    {
        // What nb2lite's main() does: English plural forms ("7 frames", "1 frame").
        // QCoreApplication::instance(), not qApp: this test runs without a QGuiApplication.
        installTranslations(QCoreApplication::instance(), QLocale(QStringLiteral("en_US")));
        m_session = m_tmp.filePath(QStringLiteral("session"));
        SessionStore store;
        QVERIFY(store.open(m_session));
        m_ids = testing::buildStandardSession(store, QStringLiteral("<b>bold</b>"));
    }

    void recognisesItsCommands_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("isExport");
        QTest::newRow("export") << QStringList {QStringLiteral("--session"), QStringLiteral("d"),
            QStringLiteral("export"), QStringLiteral("o")}
                                << true;
        QTest::newRow("json-first") << QStringList {QStringLiteral("--json"), QStringLiteral("--session"),
            QStringLiteral("export"), QStringLiteral("open-bundle")}
                                    << true;
        QTest::newRow("open-bundle") << QStringList {QStringLiteral("--session"), QStringLiteral("d"),
            QStringLiteral("open-bundle"), QStringLiteral("f")}
                                     << true;
        QTest::newRow("generate") << QStringList {QStringLiteral("--session"), QStringLiteral("export"),
            QStringLiteral("generate"), QStringLiteral("x")}
                                  << false;
        QTest::newRow("title-value") << QStringList {QStringLiteral("--session"), QStringLiteral("d"),
            QStringLiteral("--title"), QStringLiteral("export"), QStringLiteral("generate")}
                                     << false;
        QTest::newRow("no-session") << QStringList {QStringLiteral("export"), QStringLiteral("o")} << false;
    }

    void recognisesItsCommands()
    {
        // The one parser decides: an export command, on a session (a value such as "export"
        // after --session or --title is not a command).
        QFETCH(QStringList, args);
        QFETCH(bool, isExport);
        const CliParseResult r = parseCliArgs(args);
        const bool exportCommand = r.args.hasCommand && !r.args.sessionDir.isEmpty()
            && (r.args.command == CliCommand::Export || r.args.command == CliCommand::OpenBundle);
        QCOMPARE(exportCommand, isExport);
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no-format") << QStringList {QStringLiteral("export"), QStringLiteral("out")}
                                   << QStringLiteral("--format");
        QTest::newRow("bad-format") << QStringList {QStringLiteral("export"), QStringLiteral("--format"),
            QStringLiteral("pdf"), QStringLiteral("out")}
                                    << QStringLiteral("unknown export format");
        QTest::newRow("no-out") << QStringList {QStringLiteral("export"), QStringLiteral("--format"),
            QStringLiteral("html")}
                                << QStringLiteral("missing arguments for 'export'");
        QTest::newRow("both-scopes") << QStringList {QStringLiteral("export"), QStringLiteral("--format"),
            QStringLiteral("html"), QStringLiteral("--branch"), QStringLiteral("1"), QStringLiteral("--frames"),
            QStringLiteral("a"), QStringLiteral("out")}
                                     << QStringLiteral("either");
        QTest::newRow("unknown-flag") << QStringList {QStringLiteral("export"), QStringLiteral("--format"),
            QStringLiteral("html"), QStringLiteral("--zip"), QStringLiteral("out")}
                                      << QStringLiteral("unknown option --zip");
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = run(args);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void exportsEachFormat_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("frames");
        QTest::newRow("html") << QStringList {QStringLiteral("--format"), QStringLiteral("html")} << 7;
        QTest::newRow("html-branch") << QStringList {QStringLiteral("--format"), QStringLiteral("html"),
            QStringLiteral("--branch"), QStringLiteral("1")}
                                     << 4;
        QTest::newRow("html-single") << QStringList {QStringLiteral("--format"), QStringLiteral("html"),
            QStringLiteral("--single-file"), QStringLiteral("--no-failed")}
                                     << 6;
        QTest::newRow("sheet") << QStringList {QStringLiteral("--format"), QStringLiteral("sheet")} << 7;
        QTest::newRow("bundle") << QStringList {QStringLiteral("--format"), QStringLiteral("bundle")} << 7;
        QTest::newRow("frames") << QStringList {QStringLiteral("--format"), QStringLiteral("frames"),
            QStringLiteral("--strip-prompts")}
                                << 6;
    }

    void exportsEachFormat()
    {
        QFETCH(QStringList, args);
        QFETCH(int, frames);
        const QString out = m_tmp.filePath(QString::fromLatin1(QTest::currentDataTag()));
        const Run r = run(QStringList {QStringLiteral("export"), QStringLiteral("--json")} + args + QStringList {out});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QStringLiteral("ok")).toBool(), true);
        QCOMPARE(o.value(QStringLiteral("frames")).toInt(), frames);
        QVERIFY(QFileInfo::exists(out));
    }

    void framesScopeAndStrippedMetadata()
    {
        const QString out = m_tmp.filePath(QStringLiteral("chosen"));
        // Prefixes work; the last word is the output even right after --frames.
        const Run r = run({QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("frames"),
            QStringLiteral("--strip-ids"), QStringLiteral("--frames"), m_ids.style.left(6), m_ids.root, out});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QStringList files = QDir(out).entryList(QDir::Files, QDir::Name);
        QCOMPARE(files,
            (QStringList {QStringLiteral("01-a-quiet-harbour-at-dusk.png"),
                QStringLiteral("02-in-the-style-of-the-reference.jpg")}));
        const auto p = readProvenance(QDir(out).filePath(files.at(1)));
        QVERIFY(p.ok());
        QVERIFY(p.value().frameId.isEmpty());
        QVERIFY(p.value().interactionId.isEmpty());
        QCOMPARE(p.value().promptChain.size(), 2);

        const Run bad = run({QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("frames"),
            QStringLiteral("--frames"), QStringLiteral("zzzzzz"), m_tmp.filePath(QStringLiteral("never"))});
        QVERIFY(bad.status != 0);
        QVERIFY(bad.err.contains(QStringLiteral("no frame \"zzzzzz\"")));
        QVERIFY(!QFileInfo::exists(m_tmp.filePath(QStringLiteral("never"))));
    }

    void htmlCostUnlessStripped()
    {
        // A session whose frames reported usage: the page shows each frame's cost and the total,
        // labelled an estimate with the price table's date; --strip-cost leaves both out.
        const QString dir = m_tmp.filePath(QStringLiteral("priced"));
        {
            SessionStore store;
            QVERIFY(store.open(dir));
            const QString root = testing::addFrame(store, {}, FrameKind::Generate, QStringLiteral("a priced kite"), 3);
            Frame f = store.graph().value(root);
            f.usage.inputTokens = 2000;
            f.usage.outputTokens = 1120;
            f.usage.imageOutputTokens = 1120;
            QVERIFY(store.commit({f}, {}, f.id));
        }
        const PriceTable prices = PriceTable::defaults();
        const double usd = 2000 * 0.25 / 1e6 + 1120 * 30.0 / 1e6; // $0.0341: input plus one 1K image
        auto page = [&](const QString &name, const QStringList &extra) {
            const QString out = m_tmp.filePath(name);
            const Run r
                = runLine(QStringList {QStringLiteral("--session"), dir, QStringLiteral("export"),
                              QStringLiteral("--format"), QStringLiteral("html"), QStringLiteral("--single-file")}
                    + extra + QStringList {out});
            if (r.status != 0)
                qWarning("%s", qPrintable(r.err));
            QFile file(out);
            return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
        };
        const QString kept = page(QStringLiteral("priced.html"), {});
        QVERIFY2(kept.contains(QStringLiteral("<dt>Cost (estimate)</dt><dd>%1</dd>").arg(formatUsd(usd))),
            qPrintable(formatUsd(usd)));
        QVERIFY(kept.contains(QStringLiteral("Total cost (estimate): %1").arg(formatUsd(usd))));
        QVERIFY(kept.contains(QStringLiteral("prices as of %1").arg(prices.asOf)));
        const QString stripped = page(QStringLiteral("stripped.html"), {QStringLiteral("--strip-cost")});
        QVERIFY(!stripped.isEmpty());
        QVERIFY(!stripped.contains(QStringLiteral("Cost (estimate)")));
        QVERIFY(!stripped.contains(QStringLiteral("total-cost")));
    }

    void bundleThenOpenBundle()
    {
        const QString bundle = m_tmp.filePath(QStringLiteral("round.nb2session"));
        QCOMPARE(
            run({QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("bundle"), bundle}).status, 0);
        const QString target = m_tmp.filePath(QStringLiteral("reopened"));
        const Run r = runLine({QStringLiteral("--session"), target, QStringLiteral("open-bundle"), bundle});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("7 frames")), qPrintable(r.out));
        // Opening into a session that already exists is refused (nothing is overwritten).
        const Run again = run({QStringLiteral("open-bundle"), bundle});
        QVERIFY(again.status != 0);
        QVERIFY(again.err.contains(QStringLiteral("not empty")));
    }
};

QTEST_GUILESS_MAIN(tst_ExportCli)
#include "tst_exportcli.moc"
