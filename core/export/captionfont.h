#pragma once

#include <QColor>
#include <QPoint>
#include <QString>

class QImage;

namespace nb2 {

/**
 * A built-in 7x13 bitmap font (printable ASCII, lower case included) for export captions where
 * no QGuiApplication exists: QFont cannot be used in the command-line tool, which runs a
 * QCoreApplication, and the CLI must still caption a contact sheet without a display. Other
 * characters are drawn as their ASCII decomposition ("é" as "e") or '?'. (The fake server
 * has its own, upper-case-only font: it may not share code with core.)
 */
class CaptionFont
{
public:
    static constexpr int kGlyphWidth = 7;
    static constexpr int kGlyphHeight = 13;

    /** Pixels wide the text would be at this integer scale. */
    static int width(const QString &text, int scale = 1);
    /** Draws text with its top-left at pos; clipped to the image. */
    static void draw(QImage *image, QPoint pos, const QString &text, const QColor &color, int scale = 1);
    /** The longest prefix (plus "...") that fits in maxWidth pixels. */
    static QString elided(const QString &text, int maxWidth, int scale = 1);
};

} // namespace nb2
