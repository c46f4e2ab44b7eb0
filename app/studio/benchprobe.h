#pragma once

class QWidget;

namespace nb2 {
class MainWindow;

/**
 * Instruments the app for nb2lite-bench, only when asked by the environment:
 *   NB2_BENCH_FIRST_PAINT=1   print "first_paint_us <microseconds since the epoch>" when the
 *                             window first paints (and "session_open_at_first_paint 0|1"),
 *                             then quit (window start time); =2 also waits for the session
 *                             to be open and painted and prints "session_open_us <...>";
 *   NB2_BENCH_PROBE=scroll    once the window is up, print one JSON line with the RSS after
 *                             opening, scroll the timeline end to end (letting thumbnails
 *                             load), print the RSS after it, then quit.
 * Without either variable it does nothing.
 */
void installBenchProbe(MainWindow *window);

} // namespace nb2
