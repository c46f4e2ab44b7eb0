#pragma once

#include <QHash>
#include <QIcon>
#include <QProxyStyle>

namespace nb2 {

/**
 * The app's style (Fusion, by applyTheme) with a few standard icons loaded when first drawn
 * instead of when asked for (and the dock title bar's icons made once, isMadeOnce()). Fusion
 * reads the deferred ones from PNG resources, and QPixmapIconEngine asks QImageReader for each
 * file's format, which loads every image-format plugin (10 libraries: webp, tiff, mng, jpeg...
 * 3-30 ms here). The menu bar and each tool bar ask for an extension
 * arrow and each QLineEdit with a clear button for its icon when they are built, though none is
 * visible at start: with this style those plugins load when one is drawn (or an image is
 * read), after the first paint. Pixels are the same: the icon is Fusion's, resolved on first use.
 */
class DeferredStyleIcons : public QProxyStyle
{
    Q_OBJECT
public:
    explicit DeferredStyleIcons(QStyle *base);

    QIcon standardIcon(
        StandardPixmap icon, const QStyleOption *option = nullptr, const QWidget *widget = nullptr) const override;

    /** The standard icons deferred (those Fusion loads from image files). */
    static bool isDeferred(StandardPixmap icon);
    /**
     * The dock title bar's buttons: Fusion decodes an XPM image each time it is asked for one of
     * these, whatever the option or widget, and a dock asks whenever its title bar is measured
     * (48 times, 3 M instructions, before the first frame). Made once per style and shared.
     */
    static bool isMadeOnce(StandardPixmap icon);

private:
    mutable QHash<int, QIcon> m_madeOnce;
};

} // namespace nb2
