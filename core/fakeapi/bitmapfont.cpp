#include "core/fakeapi/bitmapfont.h"

#include <QImage>
#include <QStringList>

#include <array>
#include <cstring>

namespace nb2 {

namespace {

struct Glyph {
    char ch;
    const char *rows[7]; // '#' = ink, anything else = blank; 5 columns each
};

// Classic 5x7 shapes, written out as pictures so they can be checked by eye.
const Glyph kGlyphs[] = {
    {'A', {".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"}},
    {'B', {"####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."}},
    {'C', {".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."}},
    {'D', {"####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."}},
    {'E', {"#####", "#....", "#....", "####.", "#....", "#....", "#####"}},
    {'F', {"#####", "#....", "#....", "####.", "#....", "#....", "#...."}},
    {'G', {".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####"}},
    {'H', {"#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"}},
    {'I', {".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."}},
    {'J', {"..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."}},
    {'K', {"#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"}},
    {'L', {"#....", "#....", "#....", "#....", "#....", "#....", "#####"}},
    {'M', {"#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"}},
    {'N', {"#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"}},
    {'O', {".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."}},
    {'P', {"####.", "#...#", "#...#", "####.", "#....", "#....", "#...."}},
    {'Q', {".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"}},
    {'R', {"####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"}},
    {'S', {".####", "#....", "#....", ".###.", "....#", "....#", "####."}},
    {'T', {"#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."}},
    {'U', {"#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."}},
    {'V', {"#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."}},
    {'W', {"#...#", "#...#", "#...#", "#.#.#", "#.#.#", "#.#.#", ".#.#."}},
    {'X', {"#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"}},
    {'Y', {"#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."}},
    {'Z', {"#####", "....#", "...#.", "..#..", ".#...", "#....", "#####"}},
    {'0', {".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."}},
    {'1', {"..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."}},
    {'2', {".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"}},
    {'3', {"#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."}},
    {'4', {"...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."}},
    {'5', {"#####", "#....", "####.", "....#", "....#", "#...#", ".###."}},
    {'6', {"..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."}},
    {'7', {"#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."}},
    {'8', {".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."}},
    {'9', {".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."}},
    {' ', {".....", ".....", ".....", ".....", ".....", ".....", "....."}},
    {'.', {".....", ".....", ".....", ".....", ".....", ".##..", ".##.."}},
    {',', {".....", ".....", ".....", ".....", ".##..", "..#..", ".#..."}},
    {'!', {"..#..", "..#..", "..#..", "..#..", "..#..", ".....", "..#.."}},
    {'?', {".###.", "#...#", "....#", "...#.", "..#..", ".....", "..#.."}},
    {'-', {".....", ".....", ".....", "#####", ".....", ".....", "....."}},
    {'+', {".....", "..#..", "..#..", "#####", "..#..", "..#..", "....."}},
    {':', {".....", ".##..", ".##..", ".....", ".##..", ".##..", "....."}},
    {';', {".....", ".##..", ".##..", ".....", ".##..", "..#..", ".#..."}},
    {'\'', {"..#..", "..#..", ".#...", ".....", ".....", ".....", "....."}},
    {'"', {".#.#.", ".#.#.", ".#.#.", ".....", ".....", ".....", "....."}},
    {'/', {".....", "....#", "...#.", "..#..", ".#...", "#....", "....."}},
    {'(', {"...#.", "..#..", ".#...", ".#...", ".#...", "..#..", "...#."}},
    {')', {".#...", "..#..", "...#.", "...#.", "...#.", "..#..", ".#..."}},
    {'&', {".##..", "#..#.", "#.#..", ".#...", "#.#.#", "#..#.", ".##.#"}},
    {'>', {".#...", "..#..", "...#.", "....#", "...#.", "..#..", ".#..."}},
    {'<', {"...#.", "..#..", ".#...", "#....", ".#...", "..#..", "...#."}},
    {'=', {".....", ".....", "#####", ".....", "#####", ".....", "....."}},
    {'_', {".....", ".....", ".....", ".....", ".....", ".....", "#####"}},
    {'#', {".#.#.", ".#.#.", "#####", ".#.#.", "#####", ".#.#.", ".#.#."}},
    {'%', {"##...", "##..#", "...#.", "..#..", ".#...", "#..##", "...##"}},
    {'*', {".....", "..#..", "#.#.#", ".###.", "#.#.#", "..#..", "....."}},
    {'@', {".###.", "#...#", "....#", ".##.#", "#.#.#", "#.#.#", ".###."}},
    {'$', {"..#..", ".####", "#.#..", ".###.", "..#.#", "####.", "..#.."}},
};

// Rows as bit masks (bit 4 = leftmost column), indexed by ASCII code.
struct Table {
    std::array<std::array<quint8, 7>, 128> rows {};
    std::array<bool, 128> present {};
    Table()
    {
        for (const Glyph &g : kGlyphs) {
            const auto code = static_cast<unsigned char>(g.ch);
            present[code] = true;
            for (int r = 0; r < 7; ++r) {
                quint8 bits = 0;
                for (int c = 0; c < 5; ++c) {
                    if (g.rows[r][c] == '#')
                        bits |= quint8(1u << (4 - c));
                }
                rows[code][r] = bits;
            }
        }
    }
};

const Table &table()
{
    static const Table t;
    return t;
}

int glyphCode(QChar c)
{
    const QChar upper = c.toUpper();
    const char16_t u = upper.unicode();
    if (u < 128 && table().present[u])
        return u;
    return '?';
}

} // namespace

bool BitmapFont::hasGlyph(QChar c)
{
    const char16_t u = c.toUpper().unicode();
    return u < 128 && table().present[u];
}

int BitmapFont::textWidth(const QString &text, int scale)
{
    if (text.isEmpty())
        return 0;
    return (int(text.size()) * Advance - 1) * scale;
}

void BitmapFont::drawText(QImage &image, int x, int y, const QString &text, const QColor &color, int scale)
{
    if (scale < 1)
        scale = 1;
    if (image.format() != QImage::Format_RGB32 && image.format() != QImage::Format_ARGB32
        && image.format() != QImage::Format_ARGB32_Premultiplied)
        image = image.convertToFormat(QImage::Format_RGB32);
    const QRgb ink = color.rgb();
    const int w = image.width();
    const int h = image.height();
    int penX = x;
    for (const QChar ch : text) {
        const auto &rows = table().rows[size_t(glyphCode(ch))];
        for (int r = 0; r < GlyphHeight; ++r) {
            for (int c = 0; c < GlyphWidth; ++c) {
                if (!(rows[size_t(r)] & (1u << (4 - c))))
                    continue;
                for (int dy = 0; dy < scale; ++dy) {
                    const int py = y + r * scale + dy;
                    if (py < 0 || py >= h)
                        continue;
                    auto *line = reinterpret_cast<QRgb *>(image.scanLine(py));
                    for (int dx = 0; dx < scale; ++dx) {
                        const int px = penX + c * scale + dx;
                        if (px >= 0 && px < w)
                            line[px] = ink;
                    }
                }
            }
        }
        penX += Advance * scale;
    }
}

QStringList BitmapFont::wrap(const QString &text, int maxChars, int maxLines)
{
    QStringList lines;
    if (maxChars < 4 || maxLines < 1)
        return lines;
    const QStringList words = text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QString current;
    bool truncated = false;
    for (int i = 0; i < words.size(); ++i) {
        QString word = words.at(i);
        while (word.size() > maxChars) { // hard-break words longer than a line
            if (!current.isEmpty()) {
                lines << current;
                current.clear();
            }
            lines << word.left(maxChars);
            word = word.mid(maxChars);
        }
        if (current.isEmpty())
            current = word;
        else if (current.size() + 1 + word.size() <= maxChars)
            current += QLatin1Char(' ') + word;
        else {
            lines << current;
            current = word;
        }
        if (lines.size() >= maxLines) {
            truncated = true;
            break;
        }
    }
    if (!truncated && !current.isEmpty())
        lines << current;
    if (lines.size() > maxLines) {
        lines = lines.mid(0, maxLines);
        truncated = true;
    }
    if (truncated && !lines.isEmpty()) {
        QString &last = lines.last();
        if (last.size() + 3 > maxChars)
            last = last.left(maxChars - 3);
        last += QStringLiteral("...");
    }
    return lines;
}

} // namespace nb2
