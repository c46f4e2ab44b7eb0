#pragma once

#include "core/session/frame.h"

#include <QSet>
#include <QString>

#include <optional>

namespace nb2 {

class FrameGraph;

/**
 * What "find" asks for: prompt text, starred, status and kind, all of which must hold. One
 * definition for the timeline's filter and `nb2lite log --grep/--starred`, so both find the
 * same frames. Pure: it reads frames and the graph, keeps nothing.
 */
struct FrameFilter {
    QString text; // case-insensitive, in the prompt or the title; empty: any
    bool starredOnly = false;
    std::optional<FrameStatus> status;
    std::optional<FrameKind> kind;

    bool isEmpty() const { return text.trimmed().isEmpty() && !starredOnly && !status && !kind; }
    bool matches(const Frame &frame) const;
    /** The live frames that match. */
    QSet<QString> matchingIds(const FrameGraph &graph) const;
    /** The matches and every ancestor of one: the path that keeps a match in view. */
    QSet<QString> pathIds(const FrameGraph &graph) const;
};

} // namespace nb2
