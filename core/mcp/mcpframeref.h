#pragma once

#include <QString>
#include <QStringList>

namespace nb2 {

class FrameGraph;

/**
 * What an agent's reference names: a frame of the session (by frame id, unique prefix of at
 * least four characters, or the interaction id the frame produced), an interaction id the
 * session has no frame for (agents carry ids from earlier conversations), or nothing usable.
 */
struct FrameReference {
    enum class Kind { Frame, UnknownInteraction, Invalid };
    Kind kind = Kind::Invalid;
    QString frameId;       // Frame
    QString interactionId; // UnknownInteraction: the id as given
    QString problem;       // Invalid: a readable reason that names what to do

    static FrameReference resolve(const FrameGraph &graph, const QString &ref);
};

/**
 * Frames that continue `frameId` or (for an interaction no frame made) the root edits that
 * continue that id: done or pending ones. Failed, cancelled and interrupted attempts are dead
 * ends, not continuations, so an agent may try again after a failure without forking.
 */
QStringList continuationsOf(const FrameGraph &graph, const QString &frameId);
QStringList continuationsOfInteraction(const FrameGraph &graph, const QString &interactionId);

} // namespace nb2
