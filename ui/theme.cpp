#include "ui/theme.h"

#include "ui/deferredstyleicons.h"

#include <QApplication>
#include <QFile>
#include <QGuiApplication>
#include <QHash>
#include <QIconEngine>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QProcessEnvironment>
#include <QSettings>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleFactory>
#include <QStyleOption>
#include <QSvgRenderer>
#include <QToolButton>
#include <QToolTip>

// Resources in a static library are only linked in when something references their
// initialiser; Q_INIT_RESOURCE must be used outside any namespace.
static void initNb2Resources()
{
    Q_INIT_RESOURCE(resources);
}

namespace nb2 {

void ensureResources()
{
    static const bool done = [] {
        initNb2Resources();
        return true;
    }();
    Q_UNUSED(done);
}

namespace {

bool g_themeApplied = false;
bool g_dark = false;

// -1: no opinion, 0: light, 1: dark
int darkFromThemeName(const QString &name)
{
    if (name.isEmpty())
        return -1;
    return name.contains(QLatin1String("dark"), Qt::CaseInsensitive) ? 1 : 0;
}

int gtkPreference(const QString &configDir)
{
    for (const auto &sub : {QStringLiteral("/gtk-4.0/settings.ini"), QStringLiteral("/gtk-3.0/settings.ini")}) {
        const QString path = configDir + sub;
        if (!QFile::exists(path))
            continue;
        QSettings ini(path, QSettings::IniFormat);
        ini.beginGroup(QStringLiteral("Settings"));
        const QString prefer = ini.value(QStringLiteral("gtk-application-prefer-dark-theme")).toString().trimmed();
        if (prefer == QLatin1String("1") || prefer.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0)
            return 1;
        const int byName = darkFromThemeName(ini.value(QStringLiteral("gtk-theme-name")).toString());
        if (byName >= 0)
            return byName;
    }
    return -1;
}

int kdePreference(const QString &configDir)
{
    const QString path = configDir + QStringLiteral("/kdeglobals");
    if (!QFile::exists(path))
        return -1;
    QSettings ini(path, QSettings::IniFormat);
    // The window background is what the user actually sees; the scheme name is a fallback.
    const QStringList rgb = ini.value(QStringLiteral("Colors:Window/BackgroundNormal")).toStringList();
    if (rgb.size() >= 3) {
        const QColor c(rgb[0].toInt(), rgb[1].toInt(), rgb[2].toInt());
        return c.lightness() < 128 ? 1 : 0;
    }
    // QSettings maps an ini file's [General] section to top-level keys.
    return darkFromThemeName(ini.value(QStringLiteral("ColorScheme")).toString());
}

QPalette buildPalette(const QColor &window, const QColor &text, const QColor &base, const QColor &altBase,
    const QColor &button, const QColor &accent, const QColor &link, const QColor &disabledText,
    const QColor &placeholder, const QColor &tooltipBase)
{
    QPalette p(button, window); // derives Light/Midlight/Mid/Dark/Shadow from the button colour
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, altBase);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Highlight, accent);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, link);
    p.setColor(QPalette::LinkVisited, link.darker(115));
    p.setColor(QPalette::ToolTipBase, tooltipBase);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, placeholder);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, accent.darker(140));
    p.setColor(QPalette::Disabled, QPalette::HighlightedText, disabledText);
    // Keep a selection readable when the window loses focus (Fusion greys it otherwise).
    p.setColor(QPalette::Inactive, QPalette::Highlight, accent.darker(115));
    p.setColor(QPalette::Inactive, QPalette::HighlightedText, Qt::white);
    return p;
}

} // namespace

bool systemPrefersDark(const QProcessEnvironment &env, const QString &configDir, const QPalette &platformPalette)
{
    const QString forced = env.value(QStringLiteral("NB2_THEME")).trimmed().toLower();
    if (forced == QLatin1String("dark"))
        return true;
    if (forced == QLatin1String("light"))
        return false;

    // GTK_THEME=Adwaita:dark is how GNOME apps are asked for the dark variant.
    const QString gtkTheme = env.value(QStringLiteral("GTK_THEME"));
    if (!gtkTheme.isEmpty())
        return darkFromThemeName(gtkTheme) == 1;

    const QString desktop = env.value(QStringLiteral("XDG_CURRENT_DESKTOP"));
    const bool kdeFirst = desktop.contains(QLatin1String("KDE"), Qt::CaseInsensitive);
    const int first = kdeFirst ? kdePreference(configDir) : gtkPreference(configDir);
    if (first >= 0)
        return first == 1;
    const int second = kdeFirst ? gtkPreference(configDir) : kdePreference(configDir);
    if (second >= 0)
        return second == 1;

    // A platform theme (KDE, GNOME's qgnomeplatform) already hands us a dark palette.
    return platformPalette.color(QPalette::Window).lightness() < 128;
}

QPalette themePalette(bool dark)
{
    if (dark) {
        return buildPalette(QColor(0x2a, 0x2b, 0x2e), QColor(0xe4, 0xe5, 0xe7), QColor(0x1f, 0x20, 0x23),
            QColor(0x26, 0x27, 0x2a), QColor(0x35, 0x37, 0x3b), QColor(0x3d, 0x8c, 0xd6), QColor(0x6c, 0xb2, 0xf2),
            QColor(0x7a, 0x7d, 0x83), QColor(0x86, 0x89, 0x8f), QColor(0x33, 0x35, 0x39));
    }
    return buildPalette(QColor(0xef, 0xf0, 0xf1), QColor(0x23, 0x26, 0x29), QColor(0xff, 0xff, 0xff),
        QColor(0xf5, 0xf6, 0xf7), QColor(0xe6, 0xe7, 0xe9), QColor(0x2f, 0x7d, 0xc8), QColor(0x1f, 0x66, 0xad),
        QColor(0x9a, 0x9d, 0xa1), QColor(0x8a, 0x8d, 0x92), QColor(0xfb, 0xfb, 0xfc));
}

bool applyTheme(QApplication &app, ThemeMode mode)
{
    ensureResources();
    const QPalette platform = app.palette();
    bool dark = false;
    switch (mode) {
    case ThemeMode::Light:
        dark = false;
        break;
    case ThemeMode::Dark:
        dark = true;
        break;
    case ThemeMode::Auto:
        dark = systemPrefersDark(QProcessEnvironment::systemEnvironment(),
            QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation), platform);
        break;
    }
    if (QStyle *fusion = QStyleFactory::create(QStringLiteral("Fusion")))
        app.setStyle(new DeferredStyleIcons(fusion)); // Fusion, its file-based icons loaded when drawn
    const QPalette palette = themePalette(dark);
    app.setPalette(palette);
    QToolTip::setPalette(palette);
    g_themeApplied = true;
    g_dark = dark;
    return dark;
}

bool isDarkTheme()
{
    if (g_themeApplied)
        return g_dark;
    return QGuiApplication::palette().color(QPalette::Window).lightness() < 128;
}

QColor themeColor(ThemeColor role)
{
    const bool dark = isDarkTheme();
    switch (role) {
    case ThemeColor::Accent:
        return QGuiApplication::palette().color(QPalette::Active, QPalette::Highlight);
    case ThemeColor::Info:
        return dark ? QColor(0x4f, 0x9c, 0xe0) : QColor(0x2f, 0x7d, 0xc8);
    case ThemeColor::Success:
        return dark ? QColor(0x5c, 0xbf, 0x7a) : QColor(0x2e, 0x8b, 0x4f);
    case ThemeColor::Warning:
        return dark ? QColor(0xe8, 0xa5, 0x3d) : QColor(0xb8, 0x74, 0x0d);
    case ThemeColor::Error:
        return dark ? QColor(0xee, 0x6b, 0x60) : QColor(0xc9, 0x3a, 0x30);
    case ThemeColor::Draft:
        return dark ? QColor(0xd9, 0xa4, 0x4a) : QColor(0xa8, 0x6f, 0x12);
    case ThemeColor::CanvasBackground:
        return dark ? QColor(0x1c, 0x1d, 0x20) : QColor(0xd4, 0xd5, 0xd8);
    }
    return {};
}

namespace {
/**
 * A tinted SVG icon drawn at the size asked for, when first asked. Rendering ten sizes of
 * every icon up front (the previous QIcon::addPixmap loop) was a quarter of the studio's CPU
 * before its first paint; most sizes of most icons are never shown.
 */
class TintedSvgIconEngine : public QIconEngine
{
public:
    explicit TintedSvgIconEngine(QByteArray svg) : m_svg(std::move(svg)) {}

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state) override
    {
        const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        QPixmap pm = pixmap(rect.size() * dpr, mode, state);
        pm.setDevicePixelRatio(dpr);
        painter->drawPixmap(rect, pm);
    }

    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        if (size.isEmpty())
            return {};
        const QString key = QStringLiteral("%1x%2/%3").arg(size.width()).arg(size.height()).arg(int(mode));
        if (const auto it = m_rendered.constFind(key); it != m_rendered.constEnd())
            return *it;
        QPixmap pm(size);
        pm.fill(Qt::transparent);
        {
            QSvgRenderer renderer(m_svg);
            QPainter painter(&pm);
            painter.setRenderHint(QPainter::Antialiasing);
            renderer.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)));
        }
        if (mode != QIcon::Normal && qApp) {
            // Disabled / selected looks come from the style, as QIcon does for added pixmaps.
            QStyleOption opt(0);
            opt.palette = QGuiApplication::palette();
            if (const QPixmap generated = QApplication::style()->generatedIconPixmap(mode, pm, &opt);
                !generated.isNull())
                pm = generated;
        }
        Q_UNUSED(state);
        m_rendered.insert(key, pm);
        return pm;
    }

    QSize actualSize(const QSize &size, QIcon::Mode, QIcon::State) override { return size; }
    QList<QSize> availableSizes(QIcon::Mode, QIcon::State) override
    {
        QList<QSize> sizes;
        for (int size : {16, 20, 22, 24, 32, 40, 48, 64, 96, 128})
            sizes.append(QSize(size, size));
        return sizes;
    }
    bool isNull() override { return m_svg.isEmpty(); }
    QString key() const override { return QStringLiteral("nb2-tinted-svg"); }
    QIconEngine *clone() const override { return new TintedSvgIconEngine(m_svg); }

private:
    QByteArray m_svg;
    QHash<QString, QPixmap> m_rendered;
};
} // namespace

QIcon themeIcon(const QString &name, const QColor &tint)
{
    const QColor color
        = tint.isValid() ? tint : QGuiApplication::palette().color(QPalette::Active, QPalette::WindowText);
    const QString cacheKey = name + QLatin1Char('|') + color.name(QColor::HexArgb);
    static QHash<QString, QIcon> cache;
    const auto it = cache.constFind(cacheKey);
    if (it != cache.constEnd())
        return *it;

    ensureResources();
    QFile file(QStringLiteral(":/icons/%1.svg").arg(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QByteArray svg = file.readAll();
    // QtSvg 6.4 does not resolve currentColor; substitute the colour we want.
    svg.replace("currentColor", color.name().toLatin1());
    if (svg.isEmpty())
        return {};
    const QIcon icon(new TintedSvgIconEngine(std::move(svg)));
    cache.insert(cacheKey, icon);
    return icon;
}

QLabel *makeNoteLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    QPalette pal = label->palette();
    QColor c = pal.color(QPalette::WindowText);
    c.setAlphaF(0.7);
    pal.setColor(QPalette::WindowText, c);
    label->setPalette(pal);
    return label;
}

QColor mixColors(const QColor &a, const QColor &b, qreal t)
{
    return QColor::fromRgbF(a.redF() * (1 - t) + b.redF() * t, a.greenF() * (1 - t) + b.greenF() * t,
        a.blueF() * (1 - t) + b.blueF() * t, a.alphaF() * (1 - t) + b.alphaF() * t);
}

void nameLineEditClearButtons(QWidget *root)
{
    for (auto *edit : root->findChildren<QLineEdit *>()) {
        for (auto *b : edit->findChildren<QToolButton *>()) {
            if (b->accessibleName().isEmpty()) {
                b->setAccessibleName(QCoreApplication::translate("nb2::LineEdit", "Clear"));
                b->setToolTip(QCoreApplication::translate("nb2::LineEdit", "Clear the field"));
            }
        }
    }
}

} // namespace nb2
