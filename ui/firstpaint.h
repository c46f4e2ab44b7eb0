#pragma once

#include <functional>

class QWidget;

namespace nb2 {

/**
 * Runs `then` once, after `window` (or any widget in it) has painted for the first time: queued
 * behind that paint, so the frame is on the screen before `then` starts. Start-up uses it to
 * open the session after the window is up (a session's open and the timeline's layout must
 * never delay the first frame). A window that is never painted (started minimised, no
 * compositor answering) still runs `then` after `fallbackMs`. The gate dies with `window`.
 */
void afterFirstPaint(QWidget *window, std::function<void()> then, int fallbackMs = 2000);

} // namespace nb2
