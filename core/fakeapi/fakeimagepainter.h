#pragma once

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>

namespace nb2 {

/**
 * Draws the fake server's synthetic pictures. Everything is a pure function of its inputs
 * (prompt text, parent pixels, uploaded pixels), so the same request gives the same JPEG
 * bytes. Generate paints shapes and colours derived from a hash of the prompt; edit keeps
 * the parent's pixels and visibly adds a change derived from the edit prompt (continuity
 * you can see); edit-local starts from an uploaded image and may tint it toward a style
 * image. Captions are drawn with BitmapFont, so no QGuiApplication is needed.
 */
class FakeImagePainter
{
public:
    /** The Lite model's aspect ratios (spec §2.2), in the model page's order. */
    static QStringList aspectRatios();
    /** About one megapixel with the given ratio (e.g. 16:9 -> 1344x768); invalid size if unknown. */
    static QSize sizeForAspect(const QString &ratio);
    /** The supported ratio closest to `size` (compared in log space). */
    static QString nearestAspect(QSize size);

    /** A new picture for `prompt`. `captionLines` receives the caption drawn in the strip. */
    static QImage generate(const QString &prompt, QSize size, QStringList *captionLines = nullptr);
    /** `base` (scaled/cropped to `size` if needed) with a change derived from `prompt` drawn
     *  over its right-hand part, and the caption strip redrawn as `parentCaption` + prompt.
     *  The top-left quarter is left as it was unless the prompt asks for a global change
     *  ("night", "dark", "bright", "sunny", "grey"). */
    static QImage edit(const QImage &base, const QString &prompt, QSize size, const QStringList &parentCaption,
        QStringList *captionLines = nullptr);
    /** Like edit(), starting from an uploaded target; with a style image the result is first
     *  tinted toward the style image's average colour. */
    static QImage editLocal(const QImage &target, const QImage &style, const QString &prompt, QSize size,
        QStringList *captionLines = nullptr);
    /** A small, blurred, desaturated preview used as the "draft" in thought summaries. */
    static QImage draft(const QImage &finalImage);

    static QByteArray encodeJpeg(const QImage &image, int quality = 88);
    /** Average colour of an image (sampled), used for style tints and by tests. */
    static QColor averageColor(const QImage &image, const QRect &region = QRect());
};

} // namespace nb2
