#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

/**
 * JSON-RPC 2.0 framing for the MCP bridge: reading one message, building answers and
 * notifications, writing them as one compact line. Pure functions, no state.
 */
namespace nb2::jsonrpc {

/** The JSON-RPC 2.0 error codes (specification §5.1) and the one MCP adds for resources. */
enum ErrorCode : int {
    ParseError = -32700,
    InvalidRequest = -32600,
    MethodNotFound = -32601,
    InvalidParams = -32602,
    InternalError = -32603,
    ResourceNotFound = -32002, // MCP: resources/read of an unknown URI
};

/** One message as read from the wire (a batch is split by the caller). */
struct Message {
    enum class Type { Request, Notification, Response, Invalid };
    Type type = Type::Invalid;
    QJsonValue id;     // Request/Response; Invalid: the id when one could be read, else null
    QString method;    // Request/Notification
    QJsonValue params; // object or array; undefined when absent
    QString problem;   // Invalid: what is wrong, for the error message
};

/** Classifies one JSON value (not an array) as a request, notification, response or invalid message. */
Message classify(const QJsonValue &value);

/** A stable key for an id (the string "1" and the number 1 are different ids). */
QString idKey(const QJsonValue &id);

QJsonObject resultMessage(const QJsonValue &id, const QJsonObject &result);
QJsonObject errorMessage(const QJsonValue &id, int code, const QString &message, const QJsonValue &data = {});
QJsonObject notificationMessage(const QString &method, const QJsonObject &params);

/** Compact JSON, one line, no trailing newline. */
QByteArray toLine(const QJsonObject &message);
QByteArray toLine(const QJsonArray &batch);

/**
 * The id of a message too large to parse, from its first and last bytes, when it can be read
 * for certain: "id" as the first member (`{"id":…,` or `{"jsonrpc":"2.0","id":…,`, as most
 * clients write it) or as the last member at the top level (`…,"id":7}`, as the TypeScript SDK
 * writes it). Null otherwise.
 */
QJsonValue salvageId(QByteArrayView head, QByteArrayView tail);

} // namespace nb2::jsonrpc
