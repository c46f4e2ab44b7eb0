#include "ui/actionmanager.h"

#include "ui/theme.h"

#include <QAction>
#include <QUndoStack>
#include <QWidget>

namespace nb2 {

ActionManager::ActionManager(QWidget *window, QUndoStack *undoStack) : QObject(window), m_window(window)
{
    make(ActionId::NewSession, "newSession", tr("&New Session"), tr("Start a new, empty session"),
        QStringLiteral("generate"), {QKeySequence::New});
    make(ActionId::OpenSession, "openSession", tr("&Open Session…"), tr("Open a session folder"),
        QStringLiteral("folder"), {QKeySequence::Open});
    make(ActionId::SaveSessionAs, "saveSessionAs", tr("Save Session &As…"),
        tr("Copy this session to a new folder and continue there"), {},
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)});
    make(ActionId::OpenImage, "openImage", tr("Open &Image…"), tr("Import a picture from a file as a new frame"),
        QStringLiteral("import"), {QKeySequence(Qt::CTRL | Qt::Key_I)});
    make(ActionId::Export, "export", tr("&Export…"), tr("Export the session's history"), QStringLiteral("export"),
        {QKeySequence(Qt::CTRL | Qt::Key_E)});
    make(ActionId::Settings, "settings", tr("&Settings…"), tr("API key, model, endpoint and session options"),
        QStringLiteral("settings"), {QKeySequence(Qt::CTRL | Qt::Key_Comma)});
    make(ActionId::Quit, "quit", tr("&Quit"), tr("Quit NB2Lite Studio"), {}, {QKeySequence::Quit});

    QAction *undo = undoStack ? undoStack->createUndoAction(this, tr("&Undo")) : new QAction(tr("&Undo"), this);
    undo->setObjectName(QStringLiteral("undo"));
    undo->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Z)});
    undo->setIcon(themeIcon(QStringLiteral("undo")));
    describe(undo, tr("Undo"), tr("Undo the last local change: delete, restore, rename, star, note (Ctrl+Z)"));
    m_actions.insert(int(ActionId::Undo), undo);
    QAction *redo = undoStack ? undoStack->createRedoAction(this, tr("&Redo")) : new QAction(tr("&Redo"), this);
    redo->setObjectName(QStringLiteral("redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    redo->setIcon(themeIcon(QStringLiteral("redo")));
    describe(redo, tr("Redo"), tr("Redo the change undone last (Ctrl+Shift+Z)"));
    m_actions.insert(int(ActionId::Redo), redo);

    make(ActionId::CopyImage, "copyImage", tr("&Copy Image"), tr("Copy the selected frame's image"),
        QStringLiteral("copy"), {QKeySequence::Copy});
    make(ActionId::Paste, "paste", tr("&Paste Image"), tr("Import the picture on the clipboard as a new frame"), {},
        {QKeySequence::Paste});
    make(ActionId::DeleteFrame, "deleteFrame", tr("&Delete Frame"),
        tr("Move the selected frame and what follows it to the trash (undoable)"), QStringLiteral("delete"),
        {QKeySequence::Delete});
    make(ActionId::DeleteBranch, "deleteBranch", tr("Delete &Branch"),
        tr("Move the frames only this branch has to the trash (undoable)"), {},
        {QKeySequence(Qt::SHIFT | Qt::Key_Delete)});
    make(ActionId::Star, "star", tr("S&tar"), tr("Mark or unmark the selected frame as a favourite"),
        QStringLiteral("star"), {QKeySequence(Qt::Key_S)}); // Ctrl+D is Deselect, as in image editors
    make(ActionId::Rename, "rename", tr("&Rename…"), tr("Give the selected frame a title"), {},
        {QKeySequence(Qt::Key_F2)});
    make(ActionId::Note, "note", tr("Edit &Note…"), tr("Attach a note to the selected frame"), {}, {});

    make(ActionId::Send, "send", tr("&Send"), tr("Send the prompt: generate, edit or branch as the button says"),
        QStringLiteral("generate"), {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    make(ActionId::NewImage, "newImage", tr("&New Image"),
        tr("Start a fresh image instead of editing the selected frame"), QStringLiteral("image"),
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N)});
    make(ActionId::FocusPrompt, "focusPrompt", tr("&Focus Prompt"), tr("Move the keyboard focus to the prompt"), {},
        {QKeySequence(Qt::CTRL | Qt::Key_L)});
    make(ActionId::Retry, "retry", tr("&Retry"), tr("Send the selected frame's request again"), QStringLiteral("retry"),
        {QKeySequence(Qt::CTRL | Qt::Key_R)});
    make(ActionId::Cancel, "cancel", tr("&Cancel Request"), tr("Cancel the selected frame's request"),
        QStringLiteral("cancel"), {QKeySequence(Qt::Key_Escape)});
    make(ActionId::ReAnchor, "reAnchor", tr("Re-&anchor"),
        tr("Send the parent's stored pixels instead of its expired server id, with the same prompt"),
        QStringLiteral("reanchor"), {});
    make(ActionId::Compare, "compare", tr("&Compare with Parent"),
        tr("Compare the selected frame with its parent: side by side, swipe or difference"), QStringLiteral("compare"),
        {QKeySequence(Qt::CTRL | Qt::Key_K)})
        ->setCheckable(true);
    make(ActionId::ReplayOnto, "replayOnto", tr("Re&play Onto…"),
        tr("Send the prompts of the range chosen on the timeline (Shift+click) again, onto a frame or onto pictures"),
        {}, {});
    make(ActionId::FullScreen, "fullScreen", tr("&Full Screen"), tr("Show the window full screen"), {},
        {QKeySequence(Qt::Key_F11)})
        ->setCheckable(true);
    // Selection tools: single keys as in image editors (M marquee, L lasso, B brush, E eraser,
    // H hand); they never fire while typing in the prompt (the text field takes printable keys).
    make(ActionId::SelectPan, "selectPan", tr("&Pan (No Selection Tool)"), tr("Drag to pan the picture"), {},
        {QKeySequence(Qt::Key_H)});
    make(ActionId::SelectRectangle, "selectRectangle", tr("&Rectangle Select"),
        tr("Drag a rectangle to select; Shift adds, Ctrl subtracts"), {}, {QKeySequence(Qt::Key_M)});
    make(ActionId::SelectEllipse, "selectEllipse", tr("&Ellipse Select"),
        tr("Drag an ellipse to select; Shift adds, Ctrl subtracts"), {}, {QKeySequence(Qt::SHIFT | Qt::Key_M)});
    make(ActionId::SelectLasso, "selectLasso", tr("&Lasso Select"),
        tr("Draw around an area to select it; Shift adds, Ctrl subtracts"), {}, {QKeySequence(Qt::Key_L)});
    make(ActionId::SelectBrush, "selectBrush", tr("&Brush Select"), tr("Paint the selection with a round brush"), {},
        {QKeySequence(Qt::Key_B)});
    make(ActionId::SelectEraser, "selectEraser", tr("E&raser"), tr("Paint to remove from the selection"), {},
        {QKeySequence(Qt::Key_E)});
    make(ActionId::BrushSmaller, "brushSmaller", tr("Brush S&maller"), tr("Make the brush and eraser smaller"), {},
        {QKeySequence(Qt::Key_BracketLeft)});
    make(ActionId::BrushLarger, "brushLarger", tr("Brush L&arger"), tr("Make the brush and eraser larger"), {},
        {QKeySequence(Qt::Key_BracketRight)});
    make(ActionId::SelectInvert, "selectInvert", tr("&Invert Selection"), tr("Select what is not selected"), {},
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I)});
    make(ActionId::SelectClear, "selectClear", tr("&Deselect"), tr("Clear the selection"), {},
        {QKeySequence(Qt::CTRL | Qt::Key_D)});
    make(ActionId::KeyboardShortcuts, "keyboardShortcuts", tr("&Keyboard Shortcuts"),
        tr("List every keyboard shortcut of the window"), {}, {QKeySequence(Qt::CTRL | Qt::Key_Slash)});
    make(ActionId::Diagnostics, "diagnostics", tr("&Diagnostics…"),
        tr("Key status, endpoint, versions and a connection test"), QStringLiteral("info"), {});
    make(ActionId::About, "about", tr("&About NB2Lite Studio"), tr("Version and credits"), {}, {});
    apply(m_state);
}

void ActionManager::describe(QAction *a, const QString &accessible, const QString &tip)
{
    a->setToolTip(tip);
    a->setStatusTip(tip);
    a->setWhatsThis(tip);
    a->setProperty("accessibleName", accessible);
    m_window->addAction(a); // shortcuts work even when menus/toolbars are hidden (full screen)
}

QAction *ActionManager::make(ActionId id, const char *objectName, const QString &text, const QString &tip,
    const QString &icon, const QList<QKeySequence> &keys)
{
    auto *a = new QAction(text, this);
    a->setObjectName(QLatin1String(objectName));
    QString plain = text;
    plain.remove(QLatin1Char('&'));
    plain.remove(QStringLiteral("…"));
    describe(a, plain, tip);
    if (!keys.isEmpty()) {
        a->setShortcuts(keys);
        a->setToolTip(tr("%1 (%2)").arg(tip, keys.first().toString(QKeySequence::NativeText)));
    }
    if (!icon.isEmpty())
        a->setIcon(themeIcon(icon));
    m_actions.insert(int(id), a);
    return a;
}

QAction *ActionManager::action(ActionId id) const
{
    QAction *a = m_actions.value(int(id));
    Q_ASSERT_X(a, "ActionManager::action", "every id has an action (the zoom ids once the canvas is adopted)");
    return a;
}

void ActionManager::adopt(ActionId id, QAction *action)
{
    if (!action)
        return;
    action->setProperty("accessibleName", action->text().remove(QLatin1Char('&')));
    m_actions.insert(int(id), action);
}

void ActionManager::apply(const ActionState &s)
{
    m_state = s;
    const bool has = s.sessionOpen && s.hasFrame;
    action(ActionId::CopyImage)->setEnabled(has && s.hasImage);
    for (ActionId id :
        {ActionId::DeleteFrame, ActionId::DeleteBranch, ActionId::Star, ActionId::Rename, ActionId::Note})
        action(id)->setEnabled(has);
    action(ActionId::Star)->setText(has && s.starred ? tr("Uns&tar") : tr("S&tar"));
    action(ActionId::Retry)->setEnabled(has && s.retryable);
    action(ActionId::Cancel)->setEnabled(has && s.pending);
    action(ActionId::ReAnchor)->setEnabled(has && s.retryable && s.hasParent);
    action(ActionId::Compare)->setEnabled(has && s.canCompare);
    action(ActionId::ReplayOnto)->setEnabled(s.sessionOpen);
    action(ActionId::SaveSessionAs)->setEnabled(s.sessionOpen);
    action(ActionId::NewImage)->setEnabled(s.sessionOpen);
}

QList<ActionId> ActionManager::allIds()
{
    return {ActionId::NewSession, ActionId::OpenSession, ActionId::SaveSessionAs, ActionId::OpenImage, ActionId::Export,
        ActionId::Settings, ActionId::Quit, ActionId::Undo, ActionId::Redo, ActionId::CopyImage, ActionId::Paste,
        ActionId::Star, ActionId::Rename, ActionId::Note, ActionId::DeleteFrame, ActionId::DeleteBranch, ActionId::Send,
        ActionId::NewImage, ActionId::FocusPrompt, ActionId::Retry, ActionId::Cancel, ActionId::ReAnchor,
        ActionId::Compare, ActionId::ReplayOnto, ActionId::ZoomIn, ActionId::ZoomOut, ActionId::ZoomFit,
        ActionId::ZoomActual, ActionId::FullScreen, ActionId::SelectPan, ActionId::SelectRectangle,
        ActionId::SelectEllipse, ActionId::SelectLasso, ActionId::SelectBrush, ActionId::SelectEraser,
        ActionId::BrushSmaller, ActionId::BrushLarger, ActionId::SelectInvert, ActionId::SelectClear,
        ActionId::KeyboardShortcuts, ActionId::Diagnostics, ActionId::About};
}

QList<QPair<QString, QString>> ActionManager::shortcutTable() const
{
    QList<QPair<QString, QString>> rows;
    for (ActionId id : allIds()) {
        QAction *a = m_actions.value(int(id));
        if (!a || a->shortcuts().isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        QString text = a->text();
        text.remove(QLatin1Char('&'));
        text.remove(QStringLiteral("…"));
        rows.append({text, keys.join(tr(", "))});
    }
    return rows;
}

} // namespace nb2
