#pragma once

#include <QWidget>

namespace nb2 {

/**
 * One line of text that ends (or is cut in the middle) with "…" when it does not fit; the
 * whole text is in the tooltip and the accessible description. It never asks for more width
 * than it is given, so a long text cannot widen its dock. Painted with the palette's
 * WindowText colour (set a dimmer palette for a hint).
 */
class ElidedLabel : public QWidget
{
    Q_OBJECT

public:
    explicit ElidedLabel(Qt::TextElideMode mode, QWidget *parent = nullptr);

    void setText(const QString &text);
    QString text() const { return m_text; }
    /** What is painted at the current width. */
    QString shownText() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_text;
    Qt::TextElideMode m_mode;
};

} // namespace nb2
