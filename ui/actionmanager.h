#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>

class QAction;
class QKeySequence;
class QUndoStack;
class QWidget;

namespace nb2 {

/** Every command of the window, by a typed id; menus, the toolbar and the context menu are lists of these. */
enum class ActionId {
    NewSession,
    OpenSession,
    SaveSessionAs,
    OpenImage,
    Export,
    Settings,
    Quit,
    Undo,
    Redo,
    CopyImage,
    Paste,
    DeleteFrame,
    DeleteBranch,
    Star,
    Rename,
    Note,
    Send,
    NewImage,
    FocusPrompt,
    Retry,
    Cancel,
    ReAnchor,
    Compare,
    ReplayOnto,
    ZoomIn,
    ZoomOut,
    ZoomFit,
    ZoomActual,
    FullScreen,
    // The canvas selection (issue 13): tools, brush size, invert, deselect.
    SelectPan,
    SelectRectangle,
    SelectEllipse,
    SelectLasso,
    SelectBrush,
    SelectEraser,
    BrushSmaller,
    BrushLarger,
    SelectInvert,
    SelectClear,
    KeyboardShortcuts,
    Diagnostics,
    About,
};

/** Everything the enabled state of the actions depends on, computed by the window in one place. */
struct ActionState {
    bool sessionOpen = false;
    bool hasFrame = false; // a frame is selected
    bool hasImage = false; // ... and it has a picture
    bool starred = false;
    bool retryable = false; // failed, cancelled or interrupted
    bool pending = false;   // its request is queued or running
    bool hasParent = false;
    bool canCompare = false; // a parent, or another frame chosen to compare with
};

/**
 * Creates every QAction of the window once (text, tooltip, status tip, accessible name,
 * icon, shortcuts), hands them out by ActionId — never null, no string lookups — and sets
 * their enabled state from one ActionState. It does not connect them: the window wires each
 * id to the controller that does the work. Undo and redo come from the session's undo
 * stack; the zoom actions from the canvas (adopt()).
 */
class ActionManager : public QObject
{
    Q_OBJECT
public:
    /** The actions are added to `window`, so their shortcuts work with menus and toolbars hidden. */
    ActionManager(QWidget *window, QUndoStack *undoStack);

    QAction *action(ActionId id) const;
    /** Takes over an action another widget made (the canvas's zoom actions). */
    void adopt(ActionId id, QAction *action);
    void apply(const ActionState &state);
    const ActionState &state() const { return m_state; }

    /** Every action with a shortcut, in menu order: (text without mnemonics, shortcuts as shown). */
    QList<QPair<QString, QString>> shortcutTable() const;
    /** The ids in the order the menus show them (the shortcut list uses it too). */
    static QList<ActionId> allIds();

private:
    QAction *make(ActionId id, const char *objectName, const QString &text, const QString &tip, const QString &icon,
        const QList<QKeySequence> &keys);
    void describe(QAction *a, const QString &accessible, const QString &tip);

    QWidget *m_window;
    QHash<int, QAction *> m_actions;
    ActionState m_state;
};

} // namespace nb2
