#include "ui/wraplabel.h"

namespace nb2 {

WrapLabel::WrapLabel(QWidget *parent) : QLabel(parent)
{
    setWordWrap(true);
}

WrapLabel::WrapLabel(const QString &text, QWidget *parent) : QLabel(text, parent)
{
    setWordWrap(true);
}

WrapLabel::Key WrapLabel::currentKey() const
{
    return Key {text(), font(), contentsMargins(), textFormat(), alignment(), indent(), margin(), frameWidth(),
        wordWrap(), minimumSize()};
}

int WrapLabel::heightForWidth(int width) const
{
    Key key = currentKey();
    if (!(key == m_key)) {
        m_key = std::move(key);
        m_count = 0;
        m_next = 0;
    }
    for (int i = 0; i < m_count; ++i) {
        if (m_widths[i] == width)
            return m_heights[i];
    }
    const int height = QLabel::heightForWidth(width);
    ++m_layouts;
    m_widths[m_next] = width;
    m_heights[m_next] = height;
    m_next = (m_next + 1) % kRemembered;
    m_count = qMin(m_count + 1, kRemembered);
    return height;
}

} // namespace nb2
