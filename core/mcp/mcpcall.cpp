#include "core/mcp/mcpcall.h"

#include "core/mcp/jsonrpc.h"

namespace nb2 {

McpCall::McpCall(QJsonValue id, QString method, QJsonObject params, QString protocolVersion)
    : m_id(std::move(id))
    , m_method(std::move(method))
    , m_params(std::move(params))
    , m_protocolVersion(std::move(protocolVersion))
{
    const QJsonValue token = m_params.value(QLatin1String("_meta")).toObject().value(QLatin1String("progressToken"));
    if (token.isString() || token.isDouble())
        m_progressToken = token;
}

McpCall::~McpCall()
{
    // A call dropped without an answer still has to release its slot (e.g. in a batch).
    if (!m_done && m_answer)
        m_answer(std::nullopt);
}

void McpCall::setTool(const QString &name, const QJsonObject &arguments)
{
    m_toolName = name;
    m_arguments = arguments;
}

bool McpCall::wantsProgress() const
{
    return !m_progressToken.isUndefined() && !m_done;
}

void McpCall::reportProgress(double progress, double total, const QString &message)
{
    if (!wantsProgress() || !m_notify || progress <= m_lastProgress)
        return;
    m_lastProgress = progress;
    QJsonObject params {{QStringLiteral("progressToken"), m_progressToken}, {QStringLiteral("progress"), progress}};
    if (total > 0)
        params.insert(QStringLiteral("total"), total);
    if (!message.isEmpty())
        params.insert(QStringLiteral("message"), message);
    m_notify(jsonrpc::notificationMessage(QStringLiteral("notifications/progress"), params));
}

void McpCall::finish(const QJsonObject &result)
{
    if (!m_done)
        answer(jsonrpc::resultMessage(m_id, result));
}

void McpCall::fail(int code, const QString &message, const QJsonValue &data)
{
    if (!m_done)
        answer(jsonrpc::errorMessage(m_id, code, message, data));
}

void McpCall::setCancelHandler(std::function<void()> handler)
{
    m_cancelHandler = std::move(handler);
    if (m_cancelled && m_cancelHandler)
        m_cancelHandler();
}

void McpCall::cancel()
{
    if (m_done)
        return;
    m_cancelled = true;
    answer(std::nullopt);
    if (m_cancelHandler)
        m_cancelHandler();
}

void McpCall::connectSinks(AnswerSink answer, NotificationSink notify)
{
    m_answer = std::move(answer);
    m_notify = std::move(notify);
}

void McpCall::answer(const std::optional<QJsonObject> &message)
{
    m_done = true;
    if (m_answer) {
        // The sink may drop the last reference to this call: keep nothing of ours alive past it.
        AnswerSink sink = std::move(m_answer);
        m_answer = nullptr;
        sink(message);
    }
}

} // namespace nb2
