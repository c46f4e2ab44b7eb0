#pragma once

#include "core/session/turnplanner.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace nb2 {

class SelectionChoice;
class StyleSlot;

/**
 * Where the user writes a turn: the multi-line prompt, the aspect-ratio and thinking-level
 * choosers, the optional style-reference slot and the one action button whose text says
 * exactly what will happen — Generate, Edit this frame, or Branch from here. The turn
 * planner (core) decides the plan from the selection; the panel only presents it and reports
 * submitRequested(). Ctrl+Enter sends.
 */
class PromptPanel : public QWidget
{
    Q_OBJECT
public:
    /** What the button does: the plan's kind, or Branch whenever the plan forks a new lane. */
    using Mode = TurnMode;

    explicit PromptPanel(QWidget *parent = nullptr);

    /** Shows a plan: the reason line, the button, the ratio (locked: shown, not editable), whether Send works. */
    void setPlan(const TurnPlan &plan);
    /**
     * What one turn is estimated to cost and how the estimate was made; the send button's
     * tooltip says it (times the variants) with budgetLine under it. usd < 0: nothing known.
     */
    void setCostEstimate(double usdPerTurn, const QString &basis, const QString &budgetLine);
    const TurnPlan &plan() const { return m_plan; }
    Mode mode() const { return m_mode; }

    void setThinkingLevels(const QStringList &levels, const QString &preferred);
    QStringList thinkingLevels() const;

    QString prompt() const;
    void setPrompt(const QString &text);
    void clearPrompt();
    QString aspectRatio() const;
    void setAspectRatio(const QString &ratio);
    QString thinkingLevel() const;
    void setThinkingLevel(const QString &level);

    /** Local file of the style reference; empty when the slot is empty. */
    QString styleFile() const;
    /** preview: a small decoded image (made off the GUI thread); empty path clears the slot. */
    void setStyleFile(const QString &path, const QImage &preview = {});
    StyleSlot *styleSlot() const { return m_style; }
    /** Edit region / Protect, feather, continue from the raw image (issue 13); shown when they apply. */
    SelectionChoice *selectionChoice() const { return m_selectionChoice; }

    QPushButton *sendButton() const { return m_send; }

    /** How many independent turns one Send makes (1..8, the "Variants: N" box beside Send). */
    int variants() const;
    void setVariants(int count);
    QSpinBox *variantsBox() const { return m_variants; }
    /**
     * What a batch of variants will do, said before sending (e.g. "3 new branches from #4"):
     * shown under the plan's reason while Variants is above 1. Set by VariantsDispatch.
     */
    void setVariantsNote(const QString &richText);
    QPlainTextEdit *editor() const { return m_edit; }
    /** Keeps the button usable but explains why sending would not work (e.g. no session). */
    void setBusyText(const QString &text);
    void focusPrompt();
    /** The context line as shown (rich text), for tests and accessibility checks. */
    QString contextText() const;

Q_SIGNALS:
    void submitRequested();
    void newImageRequested();
    void styleFileDropped(const QString &path);
    /** The style slot was filled or cleared (the plan may change). */
    void styleFileChanged();
    void variantsChanged(int count);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void updateButton();
    void reserveContextHeight();

    Mode m_mode = Mode::Generate;
    TurnPlan m_plan;
    double m_costPerTurn = -1; // see setCostEstimate()
    QString m_costBasis;
    QString m_budgetLine;
    QLabel *m_context = nullptr;
    QPlainTextEdit *m_edit = nullptr;
    QComboBox *m_aspect = nullptr;
    QComboBox *m_thinking = nullptr;
    QLabel *m_aspectLabel = nullptr;
    StyleSlot *m_style = nullptr;
    SelectionChoice *m_selectionChoice = nullptr;
    QToolButton *m_newImage = nullptr;
    QPushButton *m_send = nullptr;
    QSpinBox *m_variants = nullptr;
    QString m_variantsNote;
};

/**
 * A small drop target for the optional style reference image: shows the chosen picture,
 * accepts a dropped or chosen file, and has a clear button. The file is checked (really an
 * image, not too large) by the main window before it is accepted.
 */
class StyleSlot : public QWidget
{
    Q_OBJECT
public:
    explicit StyleSlot(QWidget *parent = nullptr);

    QString file() const { return m_file; }
    void setFile(const QString &path, const QImage &preview);
    void clear();
    QSize sizeHint() const override;

Q_SIGNALS:
    void fileDropped(const QString &path);
    void cleared();

protected:
    void paintEvent(QPaintEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragLeaveEvent(QDragLeaveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    QString m_file;
    QPixmap m_preview;
    bool m_dragOver = false;
    QToolButton *m_clear = nullptr;
};

} // namespace nb2
