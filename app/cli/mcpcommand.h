#pragma once

#include <QString>
#include <QStringList>

namespace nb2 {
class SignalCanceller;
}

namespace nb2::cli {

/** `nb2lite mcp` options (the CLI's parser fills them). */
struct McpServerOptions {
    QString sessionDir;    // --session DIR; empty: $NB2LITE_SESSION, else .nb2lite/session under the working directory
    bool demo = false;     // --demo: the built-in offline fake API, no key needed
    int demoLatencyMs = 0; // --demo-latency MS: the demo answers this much later (to watch progress and cancel)
    bool imageBlocks = true; // --no-image-blocks: results without the preview image content block
    bool printSkill = false; // --print-skill: print the agents' skill file (Markdown) and exit
};

/**
 * Runs the MCP server on stdin/stdout until end of input or SIGINT/SIGTERM. Stdout carries
 * protocol messages only (anything else that writes to it lands on stderr); diagnostics go to
 * stderr. `signalHandler` (the process's handler, may be null in tests): SIGINT/SIGTERM cancel the calls in
 * flight and end the service. Returns the exit status: 0 after a clean end with every finished frame on disk.
 */
int runMcpServer(const McpServerOptions &options, SignalCanceller *signalHandler);

/** The session folder the bridge uses: the option, $NB2LITE_SESSION, or <workingDir>/.nb2lite/session (absolute). */
QString mcpSessionDir(const QString &option, const QString &environmentValue, const QString &workingDir);

} // namespace nb2::cli
