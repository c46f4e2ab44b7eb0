#pragma once

#include "core/mcp/mcpprotocol.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace nb2 {

class McpCall;
class McpToolHost;

/**
 * The Model Context Protocol server side of `nb2lite mcp`, without any I/O: one line in (a
 * JSON-RPC message or, in revision 2025-03-26, a batch), zero or more lines out through
 * lineReady(). It owns the protocol state — version negotiation at initialize, the log level
 * the client asked for, the requests in flight — and answers everything except tool calls and
 * resource reads at once; those go to the McpToolHost as McpCalls that answer when their work
 * is done, may send progress, and stop answering when the client cancels them. Garbage,
 * unknown methods, bad params and oversized messages get JSON-RPC errors; nothing ends the
 * service but end of input (finished() once the calls in flight have answered).
 *
 * Fuzzing: construct it (with or without a host) under a QCoreApplication and feed any bytes
 * to handleLine(); every input must give well-formed lines and no crash.
 */
class McpHandler : public QObject
{
    Q_OBJECT

public:
    struct ServerInfo {
        QString name;
        QString title;
        QString version;
    };
    /** Longer lines are refused unread (the bridge's requests are a few kilobytes). */
    static constexpr qsizetype kMaxMessageBytes = 1024 * 1024;

    explicit McpHandler(ServerInfo info, McpToolHost *host = nullptr, QObject *parent = nullptr);
    ~McpHandler() override; // cancels the calls in flight (nothing more is sent)

    /** One line from the client, without its newline. */
    void handleLine(QByteArrayView line);
    /** A line longer than kMaxMessageBytes that the transport did not keep: its first and last bytes and its length. */
    void handleOversizedLine(QByteArrayView head, QByteArrayView tail, qint64 size);
    /** The client closed its side: finished() follows once every call in flight has answered. */
    void handleEndOfInput();
    /** Withdraws every call in flight without answering (shutdown); their work is cancelled. */
    void cancelAll();
    /** A diagnostic: always diagnostic(); also notifications/message when the client asked for this level. */
    void log(mcp::LogLevel level, const QString &text);

    /** The revision agreed at initialize; empty before. */
    QString protocolVersion() const { return m_protocolVersion; }
    bool isInitialized() const { return !m_protocolVersion.isEmpty(); }
    int callsInFlight() const { return int(m_inFlight.size()); }

Q_SIGNALS:
    /** One protocol message (compact JSON, no newline): the transport writes it to stdout. */
    void lineReady(const QByteArray &line);
    /** Text for stderr; never goes to stdout. */
    void diagnostic(const QString &text);
    /** End of input and nothing left to answer. */
    void finished();

private:
    /** Every message gets exactly one call: the answer, or nullopt when none is due (notifications). */
    using Answer = std::function<void(const std::optional<QJsonObject> &message)>;

    void dispatch(const QJsonValue &value, const Answer &answer);
    void handleBatch(const QJsonArray &batch);
    void handleNotification(const QString &method, const QJsonValue &params);
    QJsonObject initialize(const QJsonValue &id, const QJsonObject &params);
    QJsonObject setLogLevel(const QJsonValue &id, const QJsonValue &params);
    void callTool(const QJsonValue &id, const QJsonValue &params, const Answer &answer);
    void readResource(const QJsonValue &id, const QJsonValue &params, const Answer &answer);
    /** Registers a call in flight and connects its answer; nullptr (and an error answered) for an id already in use. */
    std::shared_ptr<McpCall> startCall(
        const QJsonValue &id, const QString &method, const QJsonObject &params, const Answer &answer);
    void send(const QJsonObject &message);
    void notifyClient(const QString &method);
    void maybeFinish();

    ServerInfo m_info;
    QPointer<McpToolHost> m_host;
    QString m_protocolVersion;
    QString m_clientName;
    std::optional<mcp::LogLevel> m_logLevel;             // set by logging/setLevel; until then no notifications/message
    QHash<QString, std::shared_ptr<McpCall>> m_inFlight; // by jsonrpc::idKey
    bool m_inputClosed = false;
    bool m_finished = false;
};

} // namespace nb2
