#pragma once

#include "core/session/frame.h"

#include <QList>
#include <QUndoCommand>

namespace nb2 {

class SessionController;

/**
 * One undoable local edit (rename, star, note, delete to trash, restore) of one or more
 * frames, held as the user fields before and after. Undo and redo write only those fields
 * through the controller, so they never call the API and never disturb a turn that finished
 * in between.
 */
class FrameEditCommand : public QUndoCommand
{
public:
    FrameEditCommand(SessionController *controller, const QString &text, QList<Frame> before, QList<Frame> after);

    void undo() override;
    void redo() override;

private:
    SessionController *m_controller;
    QList<Frame> m_before;
    QList<Frame> m_after;
};

} // namespace nb2
