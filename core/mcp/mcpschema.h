#pragma once

#include <QJsonObject>
#include <QString>

namespace nb2::mcp {

/**
 * Checks a tool call's arguments against the tool's own inputSchema, so that what tools/list
 * promises and what tools/call accepts cannot drift apart. It understands the subset of JSON
 * Schema the bridge's tools use: an object with typed properties (string, integer, number,
 * boolean), enum, minLength, default, required and additionalProperties:false. On success the
 * defaults of omitted properties are filled in; on failure the message names the argument and
 * what it should be, for the agent to correct itself.
 */
bool checkArguments(const QJsonObject &inputSchema, QJsonObject *arguments, QString *problem);

} // namespace nb2::mcp
