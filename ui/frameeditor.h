#pragma once

#include <QObject>

class QWidget;

namespace nb2 {

class FrameSelection;
class NoticePresenter;
class SessionController;

/**
 * The undoable local operations on the selected frame — delete, delete branch, star, rename,
 * note — and what the status bar says about them and about undo and redo ("Undone: Delete
 * frame"), so the last word is never a stale "moved to the trash". None calls the API.
 */
class FrameEditor : public QObject
{
    Q_OBJECT
public:
    FrameEditor(SessionController *session, FrameSelection *selection, NoticePresenter *notices, QWidget *dialogParent);

public Q_SLOTS:
    void deleteFrame();
    void deleteBranch();
    void toggleStar();
    void renameFrame();
    void editNote();
    /** Call after the undo stack undid (or redid) a step: says which. */
    void announceUndo();
    void announceRedo();

private:
    SessionController *m_session;
    FrameSelection *m_selection;
    NoticePresenter *m_notices;
    QWidget *m_dialogParent;
};

} // namespace nb2
