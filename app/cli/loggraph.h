#pragma once

#include "core/session/framegraph.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace nb2::cli {

/**
 * Draws a session's frames the way `git log --graph` draws commits: a chain runs straight
 * down one column ("* "), and a fork opens one more column ("|\" then "| * ...") in which the
 * side branch is drawn before the frame's first continuation carries on in its own column. The
 * width therefore grows with how deeply forks nest, never with the length of a chain. Each
 * root starts a new block after an empty line.
 */
QStringList logGraphLines(
    const FrameGraph &graph, FrameGraph::Visibility visibility, const std::function<QString(const Frame &)> &describe);

/**
 * Where each frame sits in its chain, for `log --grep`'s "(after …)": a frame's ancestors, root
 * first, kept short on long chains (the root, how many frames between, the nearest three), so
 * that a match at the end of a 10,000-frame chain is one line, not a path of 10,000 ids (the
 * 10,000-frame benchmark session's `log --grep lantern` printed 84 MB). Each frame's depth and
 * root are worked out once and remembered, so asking for every frame walks each chain once.
 */
class Ancestry
{
public:
    explicit Ancestry(const FrameGraph &graph) : m_graph(graph) {}

    /** "a > b > c" (all of them, up to six), or "root > … N frames … > x > y > z"; empty for a
     *  root, an unknown frame or a parent chain that loops (no path, as FrameGraph::pathTo()). */
    QString ancestorsText(const QString &id);

    /** Ancestors shown in full up to this many; beyond, the root and the nearest three. */
    static constexpr int kShownInFull = 6;
    static constexpr int kNearest = 3;

private:
    struct Place {
        int ancestors = 0; // frames on the path before this one
        QString root;
    };
    /** std::nullopt: unknown frame, or its parents loop. */
    std::optional<Place> place(const QString &id);

    const FrameGraph &m_graph;
    QHash<QString, Place> m_places;
};

} // namespace nb2::cli
