#pragma once

#include "core/session/framefilter.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QLabel;
class QToolButton;

namespace nb2 {

/**
 * The timeline's find row: prompt text, starred, status and kind. It only builds a
 * FrameFilter and says when it changed; the timeline model applies it (matches bright, the
 * rest dimmed), so the bar holds no session state.
 */
class FindBar : public QWidget
{
    Q_OBJECT
public:
    explicit FindBar(QWidget *parent = nullptr);

    FrameFilter filter() const;
    /** "3 of 12 frames match"; empty hides the count. */
    void setMatchCount(int matches, int total);
    void focusText();
    void clearFilter();

Q_SIGNALS:
    void filterChanged(const nb2::FrameFilter &filter);

private:
    QLineEdit *m_text = nullptr;
    QToolButton *m_starred = nullptr;
    QComboBox *m_status = nullptr;
    QComboBox *m_kind = nullptr;
    QLabel *m_count = nullptr;
};

} // namespace nb2
