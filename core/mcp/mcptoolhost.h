#pragma once

#include "core/mcp/mcpprotocol.h"

#include <QJsonArray>
#include <QObject>
#include <QString>

#include <memory>

namespace nb2 {

class McpCall;

/**
 * What McpHandler serves the protocol for: the tools and the resources. The handler owns the
 * protocol (framing, lifecycle, argument checks against each tool's inputSchema, cancel,
 * progress); a host only does the work. Tool calls and resource reads answer through their
 * McpCall, now or later. McpSessionTools is the real host; tests and fuzzers may use others.
 */
class McpToolHost : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    /** tools/list: each with name, description, inputSchema (and outputSchema, annotations). */
    virtual QJsonArray toolDefinitions() const = 0;
    /** Runs call->toolName() with call->arguments() (already checked, defaults filled in). */
    virtual void callTool(const std::shared_ptr<McpCall> &call) = 0;
    /** resources/list. */
    virtual QJsonArray resourceList() const = 0;
    /** resources/templates/list. */
    virtual QJsonArray resourceTemplates() const { return {}; }
    /** resources/read of call->params()["uri"]: answer with {"contents": [...]}, or fail with ResourceNotFound. */
    virtual void readResource(const std::shared_ptr<McpCall> &call) = 0;
    /** Sent as `instructions` in the initialize result (may be empty). */
    virtual QString instructions() const { return {}; }

Q_SIGNALS:
    /** The tool definitions changed (e.g. the server taught us other thinking levels). */
    void toolListChanged();
    /** Frames were added, finished or removed. */
    void resourceListChanged();
    /** A diagnostic: always to stderr, and to the client when it asked for logging at this level. */
    void logMessage(nb2::mcp::LogLevel level, const QString &text);
};

} // namespace nb2
