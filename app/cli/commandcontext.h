#pragma once

namespace nb2 {
class SignalCanceller;
}

namespace nb2::cli {

/** What the process hands a command besides its arguments. */
struct CommandContext {
    /**
     * The process's signal handler, installed first thing in main(). A command that can cancel
     * cleanly (an API call, a session turn) calls setCancelsCleanly(true) and watches its token.
     * Null when the command line runs in-process (tests): signals are then not handled.
     */
    SignalCanceller *canceller = nullptr;
};

} // namespace nb2::cli
