#pragma once

#include "core/session/framegraph.h"

#include <QString>
#include <QStringList>

#include <functional>

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

} // namespace nb2::cli
