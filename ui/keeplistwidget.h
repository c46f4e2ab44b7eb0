#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QToolButton;

namespace nb2 {

class ElidedLabel;
class FrameSelection;
class SessionController;

/**
 * The keep-list of the branch being edited (issue 13), shown above the prompt: the
 * constraints every edit from the selected frame carries ("keep the face", "same framing"),
 * where they come from (set on this frame or inherited from an ancestor), a line to add one,
 * double-click to reword, Delete or × to remove. A change is stored on the selected frame
 * (undoable, SessionController::setKeepList) and so holds for it and its descendants; the
 * sibling branches keep theirs. "Inherit" drops the frame's own list again.
 */
class KeepListWidget : public QWidget
{
    Q_OBJECT
public:
    KeepListWidget(SessionController *session, FrameSelection *selection, QWidget *parent = nullptr);

    /** The items shown (the effective keep-list of the selected frame). */
    QStringList items() const;
    /** "inherited from #3", "set on this frame", ... */
    QString sourceText() const;

public Q_SLOTS:
    /** Re-reads the selected frame's keep-list (selection or session changed). */
    void refresh();
    /** Adds one constraint to the selected frame's keep-list (what Enter in the line does). */
    void addItem(const QString &text);
    /** Removes the item at row (0-based). */
    void removeItem(int row);
    /** Stops setting a keep-list here: the ancestors' applies again. */
    void inherit();

private:
    /** Makes the list of items (it is made for the first keep-list that has any). */
    void ensureList();
    void store(const QStringList &items);
    void onItemChanged(QListWidgetItem *item);
    bool eventFilter(QObject *watched, QEvent *event) override;

    SessionController *m_session;
    FrameSelection *m_selection;
    QLabel *m_title = nullptr;
    ElidedLabel *m_source = nullptr; // where the list comes from: "inherited from #3", ...; elided
    QListWidget *m_list = nullptr;
    QLineEdit *m_add = nullptr;
    QToolButton *m_remove = nullptr;
    QToolButton *m_inherit = nullptr;
    QString m_frameId;
    bool m_filling = false;
};

} // namespace nb2
