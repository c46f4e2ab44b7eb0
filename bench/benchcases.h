#pragma once

namespace nb2::bench {

struct Context;

/** One benchmark case: a name for --case, what it measures, and the function that measures it. */
struct Case {
    const char *name;
    const char *what;
    void (*run)(Context &ctx);
};

void runTurnOverhead(Context &ctx);   // 1: client overhead vs the loopback floor and @google/genai
void runWindowStart(Context &ctx);    // 2: first paint of nb2lite-studio vs a bare Qt window
void runBigSessions(Context &ctx);    // 3: open time, RSS, disk per frame at 1,000 / 10,000 frames
void runTurnCost(Context &ctx);       // 4: a turn on a big session vs on a 1-frame session
void runResponsiveness(Context &ctx); // 5: longest GUI-thread stall under load
void runConcurrency(Context &ctx);    // 6: parallel and queued turns with 1 s latency
void runSessionOpen(Context &ctx);    // formerly session_open_bench
void runExportHtml(Context &ctx);     // formerly export_html_bench

inline constexpr Case kCases[] = {
    {"overhead", "turn overhead: our client vs the loopback floor and the official SDK", &runTurnOverhead},
    {"window", "window start: first paint vs a bare Qt Widgets window", &runWindowStart},
    {"bigsession", "big sessions: open time, RSS, disk per frame", &runBigSessions},
    {"turncost", "per-turn cost on a big session vs a 1-frame session", &runTurnCost},
    {"responsive", "longest GUI event-loop stall under load", &runResponsiveness},
    {"concurrency", "parallel and queued turns against 1 s latency", &runConcurrency},
    {"open", "session open (manifest only, no image decoding)", &runSessionOpen},
    {"export", "HTML export of a 1,000-frame session", &runExportHtml},
};

} // namespace nb2::bench
