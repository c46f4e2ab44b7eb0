#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <functional>
#include <optional>

namespace nb2 {

/**
 * One request that answers later (tools/call, resources/read), as the code doing the work sees
 * it: what was asked, and the only ways to answer — finish() with a result or fail() with a
 * JSON-RPC error, once. The client may cancel it (notifications/cancelled): then no answer is
 * sent and the cancel handler runs, so the work can stop. Progress goes out as
 * notifications/progress when the client gave a progress token. Made by McpHandler; lives on
 * the handler's thread.
 */
class McpCall
{
public:
    /** Where the answer goes: the JSON-RPC message, or nullopt when the call ends unanswered (cancelled). */
    using AnswerSink = std::function<void(const std::optional<QJsonObject> &message)>;
    using NotificationSink = std::function<void(const QJsonObject &notification)>;

    McpCall(QJsonValue id, QString method, QJsonObject params, QString protocolVersion);
    ~McpCall();

    McpCall(const McpCall &) = delete;
    McpCall &operator=(const McpCall &) = delete;

    const QJsonValue &id() const { return m_id; }
    const QString &method() const { return m_method; }
    const QJsonObject &params() const { return m_params; }
    /** tools/call: the tool's name and its arguments, checked against the input schema, with defaults filled in. */
    const QString &toolName() const { return m_toolName; }
    const QJsonObject &arguments() const { return m_arguments; }
    void setTool(const QString &name, const QJsonObject &arguments);
    /** The revision agreed at initialize (what content types the client understands). */
    const QString &protocolVersion() const { return m_protocolVersion; }

    bool wantsProgress() const;
    /** Sends notifications/progress. Progress must grow: a report that does not is dropped. total <= 0: unknown. */
    void reportProgress(double progress, double total = 0, const QString &message = {});
    double lastProgress() const { return m_lastProgress; }

    /** Answers with a JSON-RPC result (for tools/call: a CallToolResult). Ignored when already answered or cancelled. */
    void finish(const QJsonObject &result);
    /** Answers with a JSON-RPC error. Ignored when already answered or cancelled. */
    void fail(int code, const QString &message, const QJsonValue &data = {});
    bool isDone() const { return m_done; }
    bool isCancelled() const { return m_cancelled; }

    /** Runs when the call is cancelled (at once if it already was). */
    void setCancelHandler(std::function<void()> handler);
    /** The client withdrew the request: no answer will be sent; runs the cancel handler. */
    void cancel();

    /** McpHandler: where answers and progress go. */
    void connectSinks(AnswerSink answer, NotificationSink notify);

private:
    void answer(const std::optional<QJsonObject> &message);

    QJsonValue m_id;
    QString m_method;
    QJsonObject m_params;
    QString m_protocolVersion;
    QString m_toolName;
    QJsonObject m_arguments;
    QJsonValue m_progressToken {QJsonValue::Undefined}; // undefined: the client wants no progress
    double m_lastProgress = -1;
    bool m_done = false;
    bool m_cancelled = false;
    std::function<void()> m_cancelHandler;
    AnswerSink m_answer;
    NotificationSink m_notify;
};

} // namespace nb2
