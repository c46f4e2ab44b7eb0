#pragma once

#include <QString>
#include <QStringList>

/** Facts of the Model Context Protocol the bridge depends on: revisions, what each allows, log levels. */
namespace nb2::mcp {

/**
 * The protocol revisions the bridge speaks, newest first: the ones the official TypeScript SDK
 * (@modelcontextprotocol/sdk 1.32) offers. The server's tools, resources and logging work the
 * same in all of them.
 */
const QStringList &supportedProtocolVersions();
QString latestProtocolVersion();
/** The client's revision when we speak it, else our newest (the client then decides whether to go on). */
QString negotiateProtocolVersion(const QString &requested);
/** JSON-RPC batches: added in 2025-03-26 and removed again in 2025-06-18. */
bool allowsBatches(const QString &version);
/** `resource_link` content blocks in tool results exist since 2025-06-18. */
bool allowsResourceLinks(const QString &version);

/** RFC 5424 severities used by logging/setLevel and notifications/message, least severe first. */
enum class LogLevel { Debug, Info, Notice, Warning, Error, Critical, Alert, Emergency };
QString logLevelName(LogLevel level);
/** False when the name is not one of the eight. */
bool logLevelFromName(const QString &name, LogLevel *level);

} // namespace nb2::mcp
