#pragma once

namespace nb2 {

/**
 * Lowers the calling thread's CPU priority by `niceSteps` (nice +10 by default), once per thread:
 * later calls on the same thread do nothing. For workers whose results can wait a few ms
 * (checkpoint preload, thumbnails): on two cores they otherwise take the CPU from the GUI thread,
 * which then stalls for a frame or more while it paints. At nice +10 a worker sharing a core with
 * the GUI thread gets ~10% of it, and still runs at full speed on an idle core.
 * Relative to the process's own nice value (a niced start stays niced), at most 19; Linux applies
 * it to this thread only, and raising it needs no privilege. Not SCHED_IDLE: that starves behind
 * any busy process, and an unprivileged thread cannot undo it.
 */
void lowerThisThreadPriority(int niceSteps = 10);

/**
 * Whether work may be split onto helper threads of the global pool: not when the calling thread
 * runs at a lower priority than the process (the studio parses at start-up on a niced thread so
 * the window is drawn first; a helper at normal priority would undo that).
 */
bool helperThreadsWelcome();

} // namespace nb2
