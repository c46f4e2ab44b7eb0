#include "ui/frameeditor.h"

#include "core/session/sessioncontroller.h"
#include "ui/frameselection.h"
#include "ui/noticepresenter.h"

#include <QInputDialog>
#include <QUndoStack>

namespace nb2 {

FrameEditor::FrameEditor(
    SessionController *session, FrameSelection *selection, NoticePresenter *notices, QWidget *dialogParent)
    : QObject(dialogParent)
    , m_session(session)
    , m_selection(selection)
    , m_notices(notices)
    , m_dialogParent(dialogParent)
{}

void FrameEditor::deleteFrame()
{
    const QString id = m_selection->currentId();
    if (id.isEmpty())
        return;
    const QString label = m_selection->label(id);
    const QString parent = m_session->graph().parent(id);
    if (const Result<void> deleted = m_session->deleteFrame(id); !deleted) {
        m_notices->show(NoticeKind::Error, deleted.error().message);
        return;
    }
    m_notices->status(tr("Moved %1 to the trash. Undo (Ctrl+Z) brings it back.").arg(label), 6000);
    m_selection->select(parent);
}

void FrameEditor::deleteBranch()
{
    const QString id = m_selection->currentId();
    if (id.isEmpty())
        return;
    const QString head = m_session->graph().headFrom(id);
    const QStringList own = m_session->graph().branchOwnFrames(head);
    const QString parent = own.isEmpty() ? QString() : m_session->graph().parent(own.first());
    if (const Result<void> deleted = m_session->deleteBranch(head); !deleted) {
        m_notices->show(NoticeKind::Error, deleted.error().message);
        return;
    }
    m_notices->status(
        tr("Moved the branch (%n frame(s)) to the trash. Undo brings it back.", nullptr, int(own.size())), 6000);
    m_selection->select(parent);
}

void FrameEditor::toggleStar()
{
    const QString id = m_selection->currentId();
    if (!id.isEmpty())
        m_session->setStarred(id, !m_session->graph().value(id).starred);
}

void FrameEditor::renameFrame()
{
    const QString id = m_selection->currentId();
    if (id.isEmpty())
        return;
    bool ok = false;
    const QString title = QInputDialog::getText(m_dialogParent, tr("Rename Frame"),
        tr("Title of %1:").arg(m_selection->label(id)), QLineEdit::Normal, m_session->graph().value(id).title, &ok);
    if (ok)
        m_session->setTitle(id, title.trimmed());
}

void FrameEditor::editNote()
{
    const QString id = m_selection->currentId();
    if (id.isEmpty())
        return;
    bool ok = false;
    const QString note = QInputDialog::getMultiLineText(m_dialogParent, tr("Frame Note"),
        tr("Note for %1:").arg(m_selection->label(id)), m_session->graph().value(id).note, &ok);
    if (ok)
        m_session->setNote(id, note);
}

void FrameEditor::announceUndo()
{
    // The step just undone is now the one Redo would repeat.
    if (QUndoStack *stack = m_session->undoStack(); stack && !stack->redoText().isEmpty())
        m_notices->status(tr("Undone: %1.").arg(stack->redoText()), 6000);
    else
        m_notices->clearStatus();
}

void FrameEditor::announceRedo()
{
    if (QUndoStack *stack = m_session->undoStack(); stack && !stack->undoText().isEmpty())
        m_notices->status(tr("Redone: %1.").arg(stack->undoText()), 6000);
    else
        m_notices->clearStatus();
}

} // namespace nb2
