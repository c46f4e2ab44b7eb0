#include "core/export/contactsheet.h"

#include "tests/export/exportfixture.h"

#include <QGuiApplication>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

/** The contact sheet under a QGuiApplication: captions come from real fonts, not the built-in bitmap. */
class tst_ContactSheetGui : public QObject
{
    Q_OBJECT

private:
    static int inkInCaption(const QImage &sheet, int cell)
    {
        int ink = 0;
        for (int y = 24 + 44 + cell; y < 24 + 44 + cell + 30; ++y)
            for (int x = 24; x < 24 + cell; ++x)
                ink += qGray(sheet.pixel(x, y)) < 140 ? 1 : 0;
        return ink;
    }

private Q_SLOTS:
    void captionsWithFonts()
    {
        QVERIFY(qobject_cast<QGuiApplication *>(QCoreApplication::instance()));
        QTemporaryDir dir;
        SessionStore store;
        QVERIFY(store.open(dir.path()));
        testing::buildStandardSession(store, QStringLiteral("<script>x</script>"));
        const ExportSession session = ExportSession::fromGraph(store.graph(), store.dir());
        const auto frames = session.select(ExportScope::session(), true).value();

        ContactSheetOptions withCaptions;
        const QImage sheet = ContactSheet::render(frames, session.title, withCaptions);
        ContactSheetOptions bare;
        bare.captions = false;
        const QImage plain = ContactSheet::render(frames, session.title, bare);
        QCOMPARE(sheet.width(), plain.width());
        QVERIFY(sheet.height() > plain.height());
        QVERIFY2(inkInCaption(sheet, withCaptions.cellSize) > 40, "no caption text drawn");

        // Antialiased font text has intermediate greys; the bitmap font has only two colours.
        QSet<QRgb> colours;
        for (int y = 24 + 44 + 240; y < 24 + 44 + 240 + 30; ++y)
            for (int x = 24; x < 24 + 240; ++x)
                colours.insert(sheet.pixel(x, y));
        QVERIFY2(colours.size() > 4, qPrintable(QString::number(colours.size())));
    }
};

QTEST_MAIN(tst_ContactSheetGui)
#include "tst_contactsheetgui.moc"
