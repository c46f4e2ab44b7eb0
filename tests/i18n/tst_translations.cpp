// The catalogue loader (core/common/translations.h) with the catalogue the apps embed
// (nb2translations): the locale's catalogue when there is one, else English, whose numerus
// forms turn "%n frame(s)" into "1 frame" / "2 frames".
#include "core/common/translations.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using namespace nb2;

class tst_Translations : public QObject
{
    Q_OBJECT

    static QString pendingText(int n)
    {
        return QCoreApplication::translate("nb2::PendingIndicator", "%n request(s) running", nullptr, n);
    }

private Q_SLOTS:
    void cleanup()
    {
        // A translator removes itself from the application when it is deleted.
        qDeleteAll(qApp->findChildren<QTranslator *>());
    }

    void englishIsTheFallback_data()
    {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<bool>("matched");
        QTest::newRow("C") << QStringLiteral("C") << false;
        QTest::newRow("German") << QStringLiteral("de_DE") << false;
        QTest::newRow("Japanese") << QStringLiteral("ja_JP") << false;
        QTest::newRow("British English") << QStringLiteral("en_GB") << true;
        QTest::newRow("US English") << QStringLiteral("en_US") << true;
    }
    void englishIsTheFallback()
    {
        QFETCH(QString, locale);
        QFETCH(bool, matched);
        const InstalledTranslations installed = installTranslations(qApp, QLocale(locale));
        QVERIFY2(installed.catalogue.endsWith(QLatin1String("nb2lite_en.qm")), qPrintable(installed.catalogue));
        QCOMPARE(installed.localeMatched, matched);
        QVERIFY(installed.qtCatalogue.isEmpty()); // English needs none of Qt's
    }

    void pluralsReadRightInEnglish_data()
    {
        QTest::addColumn<QString>("context");
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("n");
        QTest::addColumn<QString>("expected");
        // The main window's pending indicator (ui/), and nb2lite's log summary (app/cli).
        QTest::newRow("ui one") << QStringLiteral("nb2::PendingIndicator") << QStringLiteral("%n request(s) running")
                                << 1 << QStringLiteral("1 request running");
        QTest::newRow("ui many") << QStringLiteral("nb2::PendingIndicator") << QStringLiteral("%n request(s) running")
                                 << 3 << QStringLiteral("3 requests running");
        QTest::newRow("ui none") << QStringLiteral("nb2::PendingIndicator") << QStringLiteral("%n request(s) running")
                                 << 0 << QStringLiteral("0 requests running");
        QTest::newRow("cli one") << QStringLiteral("nb2lite") << QStringLiteral("%n frame(s)") << 1
                                 << QStringLiteral("1 frame");
        QTest::newRow("cli many") << QStringLiteral("nb2lite") << QStringLiteral("%n branch(es), ") << 2
                                  << QStringLiteral("2 branches, ");
    }
    void pluralsReadRightInEnglish()
    {
        QFETCH(QString, context);
        QFETCH(QString, source);
        QFETCH(int, n);
        QFETCH(QString, expected);
        installTranslations(qApp, QLocale(QStringLiteral("en_US")));
        QCOMPARE(QCoreApplication::translate(context.toUtf8().constData(), source.toUtf8().constData(), nullptr, n),
            expected);
    }

    void theLocalesCatalogueWins()
    {
        // A stand-in German catalogue: the English one under the German name.
        QTemporaryDir dir;
        QVERIFY(QFile::copy(QStringLiteral(":/i18n/nb2lite_en.qm"), dir.filePath(QStringLiteral("nb2lite_de.qm"))));
        QVERIFY(QFile::copy(QStringLiteral(":/i18n/nb2lite_en.qm"), dir.filePath(QStringLiteral("nb2lite_en.qm"))));
        const InstalledTranslations austrian = installTranslations(qApp, QLocale(QStringLiteral("de_AT")), dir.path());
        QCOMPARE(austrian.catalogue, dir.filePath(QStringLiteral("nb2lite_de.qm")));
        QVERIFY(austrian.localeMatched);
        QCOMPARE(pendingText(2), QStringLiteral("2 requests running"));
    }

    void withoutCataloguesTheSourceTextShows()
    {
        QTemporaryDir empty;
        const InstalledTranslations none = installTranslations(qApp, QLocale(QStringLiteral("de_DE")), empty.path());
        QVERIFY(none.catalogue.isEmpty());
        QVERIFY(!none.localeMatched);
        QCOMPARE(pendingText(2), QStringLiteral("2 request(s) running"));
    }
};

QTEST_GUILESS_MAIN(tst_Translations)
#include "tst_translations.moc"
