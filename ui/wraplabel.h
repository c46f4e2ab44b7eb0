#pragma once

#include <QFont>
#include <QLabel>
#include <QMargins>
#include <QSize>

namespace nb2 {

/**
 * A word-wrapped QLabel that remembers the height its text needs at the last few widths.
 * QLabel lays its text out again for every heightForWidth() call (through a QTextDocument
 * when the text is selectable), and a window's layout asks the same widths several times
 * before its first frame: the demo banner's text was laid out 14 times and the details
 * hint's 11 before the studio's first paint. The answer is keyed on everything it depends
 * on that can change (text, font, margins, frame, format, alignment, and the minimum size,
 * which QLabel's answer never goes below), so it is never stale.
 */
class WrapLabel : public QLabel
{
    Q_OBJECT
public:
    explicit WrapLabel(QWidget *parent = nullptr);
    explicit WrapLabel(const QString &text, QWidget *parent = nullptr);

    int heightForWidth(int width) const override;

    /** How many heightForWidth() answers were laid out (not remembered): for the tests. */
    int layoutsDone() const { return m_layouts; }

private:
    struct Key {
        QString text;
        QFont font;
        QMargins margins;
        Qt::TextFormat format = Qt::AutoText;
        Qt::Alignment alignment;
        int indent = -1;
        int margin = 0;
        int frame = 0;
        bool wrap = true;
        QSize minimum;
        bool operator==(const Key &other) const
        {
            return text == other.text && font == other.font && margins == other.margins && format == other.format
                && alignment == other.alignment && indent == other.indent && margin == other.margin
                && frame == other.frame && wrap == other.wrap && minimum == other.minimum;
        }
    };
    Key currentKey() const;

    static constexpr int kRemembered = 4;
    mutable Key m_key;
    mutable int m_widths[kRemembered] = {};
    mutable int m_heights[kRemembered] = {};
    mutable int m_count = 0; // valid entries
    mutable int m_next = 0;  // the entry replaced next
    mutable int m_layouts = 0;
};

} // namespace nb2
