// libFuzzer harness: the MCP message handler of `nb2lite mcp` (McpHandler over the real
// McpSessionTools and an unopened SessionController, so image tools answer without a server).
// Each input is a session of its own: a fresh handler gets an initialize, then every line of
// the input. Every message out must be one line of well-formed JSON (an object, or a batch's array), and once the worker
// threads have finished no call may be left unanswered.

#include "core/mcp/mcphandler.h"
#include "core/mcp/mcpsessiontools.h"
#include "core/session/sessioncontroller.h"
#include "tests/fuzz/fuzzsupport.h"

#include <QCoreApplication>
#include <QEvent>
#include <QJsonDocument>
#include <QThreadPool>

using namespace nb2;

namespace {

McpSessionTools &tools()
{
    // One per process: building the tool catalogue is the slow part, and the host is stateless
    // between handlers apart from its bookkeeping of calls, which each handler's end clears.
    static auto *session = new SessionController;
    static auto *host = [] {
        McpBridgeOptions options;
        options.version = QStringLiteral("0-fuzz");
        options.sessionError = QStringLiteral("fuzzing: no session is open");
        options.workingDir = fuzz::scratchDir();
        return new McpSessionTools(session, options);
    }();
    return *host;
}

void drain()
{
    for (int round = 0; round < 4; ++round) {
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::sendPostedEvents();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
}

void checkLine(const QByteArray &line)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    // One message, or a batch's answers as one array (revision 2025-03-26).
    fuzz::check(error.error == QJsonParseError::NoError && (doc.isObject() || doc.isArray()),
        "a message out is not a JSON object or array", line);
    fuzz::check(!line.contains('\n'), "a message out spans lines", line);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::ensureApp();
    McpHandler handler({QStringLiteral("nb2lite"), QStringLiteral("NB2Lite"), QStringLiteral("0-fuzz")}, &tools());
    QObject::connect(&handler, &McpHandler::lineReady, &handler, checkLine);
    handler.handleLine(QByteArrayView(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{)"
                                      R"("protocolVersion":"2025-03-26","capabilities":{},)"
                                      R"("clientInfo":{"name":"fuzz","version":"0"}}})"));
    handler.handleLine(QByteArrayView(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));

    const QByteArray input = fuzz::view(data, size);
    for (const QByteArray &line : fuzz::split(input, QByteArrayLiteral("\n")))
        handler.handleLine(line);
    drain();
    fuzz::check(handler.callsInFlight() == 0, "a call was never answered");
    handler.handleEndOfInput();
    drain();
    return 0;
}
