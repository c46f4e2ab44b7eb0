#pragma once

#include "core/session/frameedit.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QRadioButton;
class QSpinBox;

namespace nb2 {

/**
 * The prompt panel's part of issue 13: while the frame has a selection, how Send uses it —
 * "Edit region" (default) or "Protect", each explained in one line — and the feather width;
 * after a composited frame, whether to continue from the server's raw image by id instead of
 * the composite sent inline. It only reports choices; the turn planner decides.
 */
class SelectionChoice : public QWidget
{
    Q_OBJECT
public:
    explicit SelectionChoice(QWidget *parent = nullptr);

    /** Shows the selection row (a selection exists) and the continuation row (the frame is a composite). */
    void setState(bool hasSelection, bool composited);
    /** Region or Protect while a selection exists; None otherwise. */
    RegionMode mode() const;
    void setMode(RegionMode mode);
    int feather() const;
    void setFeather(int pixels);
    bool continueFromRaw() const;
    void setContinueFromRaw(bool fromRaw);

Q_SIGNALS:
    void choiceChanged();

protected:
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    /** A dock does not lay out by height-for-width: reserve the wrapped explanation's height (as PromptPanel does). */
    void reserveExplainHeight();

    QWidget *m_selectionRow = nullptr;
    QRadioButton *m_region = nullptr;
    QRadioButton *m_protect = nullptr;
    QLabel *m_explain = nullptr;
    QSpinBox *m_feather = nullptr;
    QCheckBox *m_fromRaw = nullptr;
    bool m_hasSelection = false;
    bool m_composited = false;
};

} // namespace nb2
