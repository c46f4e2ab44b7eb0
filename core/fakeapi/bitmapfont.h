#pragma once

#include <QColor>
#include <QString>

class QImage;

namespace nb2 {

/**
 * A tiny built-in 5x7 bitmap font (A–Z, 0–9, common punctuation; lower case is drawn as
 * upper case, anything else as '?'). The fake server draws captions with it because text
 * through QPainter needs a QGuiApplication font database, and the fake must also run in
 * the CLI (QCoreApplication only) or with no application object at all.
 */
class BitmapFont
{
public:
    static constexpr int GlyphWidth = 5;
    static constexpr int GlyphHeight = 7;
    static constexpr int Advance = 6;    // glyph + one column of spacing
    static constexpr int LineHeight = 9; // glyph + two rows of spacing

    /** Width in pixels of `text` at `scale` (one line, no wrapping). */
    static int textWidth(const QString &text, int scale);
    /** Draws one line with its top-left corner at (x, y); clips at the image border. */
    static void drawText(QImage &image, int x, int y, const QString &text, const QColor &color, int scale);
    /** Splits `text` into at most `maxLines` lines of at most `maxChars` characters,
     *  breaking at spaces where possible; an overflowing last line ends in "...". */
    static QStringList wrap(const QString &text, int maxChars, int maxLines);
    /** True when the font has a real glyph for `c` (after upper-casing). */
    static bool hasGlyph(QChar c);
};

} // namespace nb2
