#include "core/session/framecommands.h"

#include "core/session/sessioncontroller.h"

namespace nb2 {

FrameEditCommand::FrameEditCommand(
    SessionController *controller, const QString &text, QList<Frame> before, QList<Frame> after)
    : QUndoCommand(text), m_controller(controller), m_before(std::move(before)), m_after(std::move(after))
{}

void FrameEditCommand::undo()
{
    m_controller->applyUserFields(m_before);
}

void FrameEditCommand::redo()
{
    m_controller->applyUserFields(m_after);
}

} // namespace nb2
