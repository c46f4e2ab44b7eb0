#include "ui/deferredstyleicons.h"

#include <QGuiApplication>
#include <QIconEngine>
#include <QImageReader>
#include <QPixmap>
#include <QPointer>
#include <QStyleOption>
#include <QWidget>

namespace nb2 {

namespace {

/** Asks the base style for the icon the first time it is painted or measured. */
class DeferredIconEngine : public QIconEngine
{
public:
    DeferredIconEngine(QStyle *base, QStyle::StandardPixmap which, Qt::LayoutDirection direction)
        : m_base(base), m_which(which), m_direction(direction)
    {}

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state) override
    {
        icon().paint(painter, rect, Qt::AlignCenter, mode, state);
    }
    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        return icon().pixmap(size, mode, state);
    }
    QPixmap scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State state, qreal scale) override
    {
        return icon().pixmap(size, scale, mode, state);
    }
    QSize actualSize(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        return icon().actualSize(size, mode, state);
    }
    QList<QSize> availableSizes(QIcon::Mode mode, QIcon::State state) override
    {
        return icon().availableSizes(mode, state);
    }
    bool isNull() override { return false; } // Fusion has every deferred icon (and must not load it to say so)
    QString key() const override { return QStringLiteral("nb2-deferred-standard-icon"); }
    QIconEngine *clone() const override { return new DeferredIconEngine(*this); }

private:
    QIcon &icon()
    {
        if (!m_resolved) {
            m_resolved = true;
            // Without a desktop icon theme Fusion's icon is these PNG files: read them as PNG
            // (no format probing, so no plugin is loaded). With one, the style may pick a theme icon.
            if (QIcon::themeName().isEmpty())
                m_icon = fusionFiles(m_which, m_direction);
            if (m_icon.isNull() && m_base) {
                QStyleOption option;
                option.direction = m_direction;
                m_icon = m_base->standardIcon(m_which, &option, nullptr);
            }
        }
        return m_icon;
    }

    /** The files QCommonStyle (Qt 6) adds for `which`; a null icon when one is missing. */
    static QIcon fusionFiles(QStyle::StandardPixmap which, Qt::LayoutDirection direction)
    {
        const bool rtl = direction == Qt::RightToLeft;
        QStringList names;
        switch (which) {
        case QStyle::SP_ToolBarHorizontalExtensionButton:
            for (int size : {8, 16, 32})
                names
                    << QStringLiteral("toolbar-ext-h-%1%2.png").arg(rtl ? QStringLiteral("rtl-") : QString()).arg(size);
            break;
        case QStyle::SP_ToolBarVerticalExtensionButton:
            for (int size : {5, 10, 20})
                names << QStringLiteral("toolbar-ext-v-%1.png").arg(size);
            break;
        case QStyle::SP_LineEditClearButton:
            names << QStringLiteral("cleartext-16.png"); // Qt 6.4 adds only this one
            break;
        default:
            return {};
        }
        QIcon icon;
        for (const QString &name : names) {
            QImageReader reader(QStringLiteral(":/qt-project.org/styles/commonstyle/images/") + name, "png");
            reader.setAutoDetectImageFormat(false);
            const QImage image = reader.read();
            if (image.isNull())
                return {};
            icon.addPixmap(QPixmap::fromImage(image));
        }
        return icon;
    }

    QPointer<QStyle> m_base;
    QStyle::StandardPixmap m_which;
    Qt::LayoutDirection m_direction;
    bool m_resolved = false;
    QIcon m_icon;
};

} // namespace

DeferredStyleIcons::DeferredStyleIcons(QStyle *base) : QProxyStyle(base) {}

bool DeferredStyleIcons::isDeferred(StandardPixmap icon)
{
    switch (icon) {
    case SP_ToolBarHorizontalExtensionButton: // QMenuBar and QToolBar build their (hidden) extension buttons
    case SP_ToolBarVerticalExtensionButton:
    case SP_LineEditClearButton: // shown only once there is text to clear
        return true;
    default:
        return false;
    }
}

bool DeferredStyleIcons::isMadeOnce(StandardPixmap icon)
{
    switch (icon) {
    case SP_TitleBarNormalButton: // a dock's float button
    case SP_TitleBarMinButton:
    case SP_TitleBarCloseButton:
    case SP_DockWidgetCloseButton:
        return true;
    default:
        return false;
    }
}

QIcon DeferredStyleIcons::standardIcon(StandardPixmap icon, const QStyleOption *option, const QWidget *widget) const
{
    if (isMadeOnce(icon)) {
        if (const auto made = m_madeOnce.constFind(icon); made != m_madeOnce.constEnd())
            return *made;
        const QIcon made = QProxyStyle::standardIcon(icon, option, widget);
        m_madeOnce.insert(icon, made);
        return made;
    }
    if (!isDeferred(icon))
        return QProxyStyle::standardIcon(icon, option, widget);
    // The arrows point by the layout direction: keep the one asked for now.
    const Qt::LayoutDirection direction = option ? option->direction
        : widget                                 ? widget->layoutDirection()
                                                 : QGuiApplication::layoutDirection();
    return QIcon(new DeferredIconEngine(baseStyle(), icon, direction));
}

} // namespace nb2
