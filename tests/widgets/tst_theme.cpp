#include "ui/bannerwidget.h"
#include "ui/theme.h"

#include <QDir>
#include <QDirIterator>
#include <QLabel>
#include <QProcessEnvironment>
#include <QProxyStyle>
#include <QPushButton>
#include <QSignalSpy>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using nb2::BannerWidget;

class tst_Theme : public QObject
{
    Q_OBJECT

private:
    static void writeFile(const QString &path, const QByteArray &data)
    {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
    }

private Q_SLOTS:
    void prefersDark_data()
    {
        QTest::addColumn<QStringList>("env"); // NAME=value
        QTest::addColumn<QString>("gtkIni");  // ~/.config/gtk-3.0/settings.ini
        QTest::addColumn<QString>("kdeglobals");
        QTest::addColumn<bool>("paletteDark");
        QTest::addColumn<bool>("expected");
        QTest::newRow("nothing known, light palette") << QStringList() << QString() << QString() << false << false;
        QTest::newRow("nothing known, dark palette") << QStringList() << QString() << QString() << true << true;
        QTest::newRow("override dark") << QStringList {QStringLiteral("NB2_THEME=dark")} << QString() << QString()
                                       << false << true;
        QTest::newRow("override light beats all")
            << QStringList {QStringLiteral("NB2_THEME=light"), QStringLiteral("GTK_THEME=Adwaita:dark")} << QString()
            << QString() << true << false;
        QTest::newRow("GTK_THEME dark") << QStringList {QStringLiteral("GTK_THEME=Adwaita:dark")} << QString()
                                        << QString() << false << true;
        QTest::newRow("gtk prefer-dark") << QStringList()
                                         << QStringLiteral("[Settings]\ngtk-application-prefer-dark-theme=1\n")
                                         << QString() << false << true;
        QTest::newRow("gtk theme name") << QStringList() << QStringLiteral("[Settings]\ngtk-theme-name=Arc-Dark\n")
                                        << QString() << false << true;
        QTest::newRow("gtk light theme beats dark palette")
            << QStringList() << QStringLiteral("[Settings]\ngtk-theme-name=Adwaita\n") << QString() << true << false;
        QTest::newRow("kde window colour")
            << QStringList {QStringLiteral("XDG_CURRENT_DESKTOP=KDE")} << QString()
            << QStringLiteral("[Colors:Window]\nBackgroundNormal=32,35,38\n") << false << true;
        QTest::newRow("kde scheme name") << QStringList {QStringLiteral("XDG_CURRENT_DESKTOP=KDE")} << QString()
                                         << QStringLiteral("[General]\nColorScheme=BreezeLight\n") << true << false;
    }
    void prefersDark()
    {
        QFETCH(QStringList, env);
        QFETCH(QString, gtkIni);
        QFETCH(QString, kdeglobals);
        QFETCH(bool, paletteDark);
        QFETCH(bool, expected);
        QTemporaryDir config;
        if (!gtkIni.isEmpty())
            writeFile(config.filePath(QStringLiteral("gtk-3.0/settings.ini")), gtkIni.toUtf8());
        if (!kdeglobals.isEmpty())
            writeFile(config.filePath(QStringLiteral("kdeglobals")), kdeglobals.toUtf8());
        QProcessEnvironment e;
        for (const QString &kv : env)
            e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
        const QPalette platform = nb2::themePalette(paletteDark);
        QCOMPARE(nb2::systemPrefersDark(e, config.path(), platform), expected);
    }

    void palettesAreReadable()
    {
        for (bool dark : {false, true}) {
            const QPalette p = nb2::themePalette(dark);
            QCOMPARE(p.color(QPalette::Window).lightness() < 128, dark);
            // Text contrasts with its background; highlighted text with the accent.
            QVERIFY(qAbs(p.color(QPalette::Text).lightness() - p.color(QPalette::Base).lightness()) > 150);
            QVERIFY(qAbs(p.color(QPalette::WindowText).lightness() - p.color(QPalette::Window).lightness()) > 150);
            QVERIFY(
                qAbs(p.color(QPalette::HighlightedText).lightness() - p.color(QPalette::Highlight).lightness()) > 60);
            QVERIFY(p.color(QPalette::Disabled, QPalette::Text) != p.color(QPalette::Active, QPalette::Text));
        }
    }

    void applyThemeUsesFusion()
    {
        auto *app = qobject_cast<QApplication *>(QCoreApplication::instance());
        QVERIFY(nb2::applyTheme(*app, nb2::ThemeMode::Dark));
        QVERIFY(nb2::isDarkTheme());
        auto *style = qobject_cast<QProxyStyle *>(app->style()); // Fusion behind DeferredStyleIcons
        QVERIFY(style && style->baseStyle());
        QCOMPARE(style->baseStyle()->metaObject()->className(), "QFusionStyle");
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 128);
        QVERIFY(!nb2::applyTheme(*app, nb2::ThemeMode::Light));
        QVERIFY(!nb2::isDarkTheme());
    }

    void everyIconRenders()
    {
        QDirIterator it(QStringLiteral(":/icons"), {QStringLiteral("*.svg")});
        int count = 0;
        while (it.hasNext()) {
            const QString name = QFileInfo(it.next()).completeBaseName();
            const QIcon icon = nb2::themeIcon(name, QColor(Qt::black));
            QVERIFY2(!icon.isNull(), qPrintable(name));
            const QImage img = icon.pixmap(24, 24).toImage().convertToFormat(QImage::Format_ARGB32);
            int inked = 0;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x)
                    inked += qAlpha(img.pixel(x, y)) > 64;
            QVERIFY2(inked > 12, qPrintable(name));                                            // drew something
            QVERIFY2(inked < 24 * 24 * 0.9 || name == QLatin1String("app"), qPrintable(name)); // line icon, not a blob
            ++count;
        }
        const QStringList required {QStringLiteral("generate"), QStringLiteral("edit"), QStringLiteral("branch"),
            QStringLiteral("import"), QStringLiteral("export"), QStringLiteral("undo"), QStringLiteral("redo"),
            QStringLiteral("delete"), QStringLiteral("star"), QStringLiteral("cancel"), QStringLiteral("retry"),
            QStringLiteral("zoom-in"), QStringLiteral("zoom-out"), QStringLiteral("zoom-fit"),
            QStringLiteral("zoom-100"), QStringLiteral("compare"), QStringLiteral("settings"), QStringLiteral("copy"),
            QStringLiteral("reveal"), QStringLiteral("warning"), QStringLiteral("error"), QStringLiteral("pending"),
            QStringLiteral("reanchor"), QStringLiteral("expiring"), QStringLiteral("app")};
        for (const QString &name : required)
            QVERIFY2(QFile::exists(QStringLiteral(":/icons/%1.svg").arg(name)), qPrintable(name));
        QVERIFY(count >= required.size());
        QVERIFY(nb2::themeIcon(QStringLiteral("no-such-icon")).isNull());
    }

    void iconTintFollowsColour()
    {
        const QImage red = nb2::themeIcon(QStringLiteral("star"), QColor(Qt::red)).pixmap(48, 48).toImage();
        bool sawRed = false;
        for (int y = 0; y < red.height() && !sawRed; ++y)
            for (int x = 0; x < red.width() && !sawRed; ++x) {
                const QColor c = red.pixelColor(x, y);
                sawRed = c.alpha() > 200 && c.red() > 200 && c.green() < 60;
            }
        QVERIFY(sawRed);
    }

    void banner()
    {
        BannerWidget banner;
        QVERIFY(banner.isHidden());
        banner.setMessage(BannerWidget::Kind::Warning, QStringLiteral("Demo backend: images are synthetic"));
        QVERIFY(!banner.isHidden());
        QCOMPARE(banner.kind(), BannerWidget::Kind::Warning);
        QVERIFY(banner.text().contains(QLatin1String("Demo backend")));
        QVERIFY(!banner.accessibleDescription().isEmpty());

        QSignalSpy action(&banner, &BannerWidget::actionTriggered);
        banner.setActionText(QStringLiteral("Open Settings"));
        auto *button = banner.findChild<QPushButton *>();
        QVERIFY(button && !button->isHidden());
        QCOMPARE(button->accessibleName(), QStringLiteral("Open Settings"));
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(action.count(), 1);
        banner.setActionText(QString());
        QVERIFY(button->isHidden());

        QSignalSpy closed(&banner, &BannerWidget::closed);
        auto *close = banner.findChild<QToolButton *>();
        QVERIFY(!close->accessibleName().isEmpty());
        QVERIFY(!close->toolTip().isEmpty());
        QTest::mouseClick(close, Qt::LeftButton);
        QCOMPARE(closed.count(), 1);
        QVERIFY(banner.isHidden());

        banner.setCloseButtonVisible(false);
        QVERIFY(!banner.isCloseButtonVisible());
        banner.resize(500, 40);
        QVERIFY(!banner.grab().isNull());
    }
};

QTEST_MAIN(tst_Theme)
#include "tst_theme.moc"
