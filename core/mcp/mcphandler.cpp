#include "core/mcp/mcphandler.h"

#include "core/mcp/jsonrpc.h"
#include "core/mcp/mcpcall.h"
#include "core/mcp/mcpschema.h"
#include "core/mcp/mcptoolcatalog.h"
#include "core/mcp/mcptoolhost.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace nb2 {

using jsonrpc::Message;

namespace {

constexpr qsizetype kSalvageBytes = 4096;

QJsonObject toolError(const QString &text)
{
    return {{QStringLiteral("content"),
                QJsonArray {
                    QJsonObject {{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}}}},
        {QStringLiteral("isError"), true}};
}

QString clip(const QString &text, int max = 80)
{
    return text.size() > max ? text.left(max - 1) + QChar(0x2026) : text;
}

bool hasCursor(const QJsonValue &params)
{
    const QJsonValue cursor = params.toObject().value(QLatin1String("cursor"));
    return !cursor.isUndefined() && !cursor.isNull();
}

} // namespace

McpHandler::McpHandler(ServerInfo info, McpToolHost *host, QObject *parent)
    : QObject(parent), m_info(std::move(info)), m_host(host)
{
    if (!host)
        return;
    connect(host, &McpToolHost::toolListChanged, this,
        [this] { notifyClient(QStringLiteral("notifications/tools/list_changed")); });
    connect(host, &McpToolHost::resourceListChanged, this,
        [this] { notifyClient(QStringLiteral("notifications/resources/list_changed")); });
    connect(host, &McpToolHost::logMessage, this, &McpHandler::log);
}

McpHandler::~McpHandler()
{
    m_finished = true; // no finished() from the destructor
    cancelAll();
}

void McpHandler::handleLine(QByteArrayView line)
{
    if (line.size() > kMaxMessageBytes) {
        handleOversizedLine(line.first(kSalvageBytes), line.last(kSalvageBytes), line.size());
        return;
    }
    if (line.trimmed().isEmpty())
        return; // blank lines between messages are harmless
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(line.toByteArray(), &error);
    if (error.error != QJsonParseError::NoError || doc.isNull()) {
        log(mcp::LogLevel::Warning,
            QStringLiteral("unreadable message (%1 at byte %2) answered with a parse error")
                .arg(error.errorString())
                .arg(error.offset));
        send(jsonrpc::errorMessage({}, jsonrpc::ParseError,
            QStringLiteral("Parse error: %1 at byte %2; send one JSON-RPC message per line")
                .arg(error.errorString())
                .arg(error.offset)));
        return;
    }
    if (doc.isArray()) {
        handleBatch(doc.array());
        return;
    }
    dispatch(doc.object(), [this](const std::optional<QJsonObject> &m) {
        if (m)
            send(*m);
    });
}

void McpHandler::handleOversizedLine(QByteArrayView head, QByteArrayView tail, qint64 size)
{
    const QJsonValue id
        = jsonrpc::salvageId(head.first(qMin(head.size(), kSalvageBytes)), tail.last(qMin(tail.size(), kSalvageBytes)));
    log(mcp::LogLevel::Warning,
        QStringLiteral("refused a %1-byte message (the limit is %2 bytes)").arg(size).arg(kMaxMessageBytes));
    send(jsonrpc::errorMessage(id, jsonrpc::InvalidRequest,
        QStringLiteral("Message too large: %1 bytes; the limit is %2 bytes. Pass images by "
                       "file path, not inline.")
            .arg(size)
            .arg(kMaxMessageBytes)));
}

void McpHandler::handleEndOfInput()
{
    m_inputClosed = true;
    if (!m_inFlight.isEmpty())
        log(mcp::LogLevel::Info, QStringLiteral("end of input; calls still in flight: %1").arg(m_inFlight.size()));
    maybeFinish();
}

void McpHandler::cancelAll()
{
    const auto calls = m_inFlight.values();
    for (const std::shared_ptr<McpCall> &call : calls)
        call->cancel();
}

void McpHandler::log(mcp::LogLevel level, const QString &text)
{
    Q_EMIT diagnostic(QStringLiteral("nb2lite mcp: %1: %2").arg(mcp::logLevelName(level), text));
    if (m_logLevel && level >= *m_logLevel && isInitialized()) {
        send(jsonrpc::notificationMessage(QStringLiteral("notifications/message"),
            {{QStringLiteral("level"), mcp::logLevelName(level)}, {QStringLiteral("logger"), QStringLiteral("nb2lite")},
                {QStringLiteral("data"), text}}));
    }
}

void McpHandler::handleBatch(const QJsonArray &batch)
{
    if (batch.isEmpty()) {
        send(jsonrpc::errorMessage({}, jsonrpc::InvalidRequest, QStringLiteral("Invalid Request: an empty batch")));
        return;
    }
    if (!mcp::allowsBatches(m_protocolVersion)) {
        const QString why = isInitialized()
            ? QStringLiteral("MCP revision %1 has no JSON-RPC batches (only 2025-03-26 had them)")
                  .arg(m_protocolVersion)
            : QStringLiteral("a batch cannot come before initialize");
        log(mcp::LogLevel::Warning, QStringLiteral("refused a batch (messages: %1): %2").arg(batch.size()).arg(why));
        send(jsonrpc::errorMessage(
            {}, jsonrpc::InvalidRequest, QStringLiteral("Invalid Request: %1; send one message per line").arg(why)));
        return;
    }
    // Every element answers exactly once (possibly later); the batch's answer is one array of
    // the replies, sent when the last one is in (nothing at all when all were notifications).
    struct Pending {
        QJsonArray replies;
        qsizetype outstanding = 0;
    };
    auto pending = std::make_shared<Pending>();
    pending->outstanding = batch.size();
    QPointer<McpHandler> self(this);
    for (const QJsonValue &element : batch) {
        dispatch(element, [self, pending](const std::optional<QJsonObject> &m) {
            if (m)
                pending->replies.append(*m);
            if (--pending->outstanding == 0 && self && !pending->replies.isEmpty())
                Q_EMIT self->lineReady(jsonrpc::toLine(pending->replies));
        });
    }
}

void McpHandler::dispatch(const QJsonValue &value, const Answer &answer)
{
    const Message m = jsonrpc::classify(value);
    switch (m.type) {
    case Message::Type::Invalid:
        answer(jsonrpc::errorMessage(m.id, jsonrpc::InvalidRequest, QStringLiteral("Invalid Request: ") + m.problem));
        return;
    case Message::Type::Response:
        // We send no requests, so no response is expected.
        log(mcp::LogLevel::Debug,
            QStringLiteral("ignored a response to id %1 (this server sends no requests)")
                .arg(jsonrpc::idKey(m.id).mid(1)));
        answer(std::nullopt);
        return;
    case Message::Type::Notification:
        handleNotification(m.method, m.params);
        answer(std::nullopt);
        return;
    case Message::Type::Request:
        break;
    }

    const QString &method = m.method;
    if (method == QLatin1String("initialize")) {
        answer(initialize(m.id, m.params.toObject()));
        return;
    }
    if (method == QLatin1String("ping")) {
        answer(jsonrpc::resultMessage(m.id, {}));
        return;
    }
    if (!isInitialized()) {
        answer(jsonrpc::errorMessage(
            m.id, jsonrpc::InvalidRequest, QStringLiteral("The session is not initialized: send initialize first")));
        return;
    }
    if (!m.params.isUndefined() && !m.params.isObject()) {
        answer(jsonrpc::errorMessage(
            m.id, jsonrpc::InvalidParams, QStringLiteral("Invalid params: %1 takes an object").arg(method)));
        return;
    }
    if (method == QLatin1String("tools/list") || method == QLatin1String("resources/list")
        || method == QLatin1String("resources/templates/list")) {
        if (hasCursor(m.params)) {
            answer(jsonrpc::errorMessage(m.id, jsonrpc::InvalidParams,
                QStringLiteral("Invalid params: unknown cursor (every list comes in one page)")));
            return;
        }
        QJsonObject result;
        if (method == QLatin1String("tools/list"))
            result.insert(QStringLiteral("tools"), m_host ? m_host->toolDefinitions() : QJsonArray());
        else if (method == QLatin1String("resources/list"))
            result.insert(QStringLiteral("resources"), m_host ? m_host->resourceList() : QJsonArray());
        else
            result.insert(QStringLiteral("resourceTemplates"), m_host ? m_host->resourceTemplates() : QJsonArray());
        answer(jsonrpc::resultMessage(m.id, result));
        return;
    }
    if (method == QLatin1String("tools/call")) {
        callTool(m.id, m.params, answer);
        return;
    }
    if (method == QLatin1String("resources/read")) {
        readResource(m.id, m.params, answer);
        return;
    }
    if (method == QLatin1String("logging/setLevel")) {
        answer(setLogLevel(m.id, m.params));
        return;
    }
    answer(
        jsonrpc::errorMessage(m.id, jsonrpc::MethodNotFound, QStringLiteral("Method not found: %1").arg(clip(method)),
            QJsonObject {{QStringLiteral("method"), clip(method, 200)}}));
}

void McpHandler::handleNotification(const QString &method, const QJsonValue &params)
{
    if (method == QLatin1String("notifications/initialized"))
        return;
    if (method == QLatin1String("notifications/cancelled")) {
        const QJsonObject p = params.toObject();
        const QString key = jsonrpc::idKey(p.value(QLatin1String("requestId")));
        // A local reference: cancelling drops the call from m_inFlight.
        if (const std::shared_ptr<McpCall> call = m_inFlight.value(key)) {
            const QString reason = p.value(QLatin1String("reason")).toString();
            log(mcp::LogLevel::Info,
                QStringLiteral("the client cancelled request %1%2")
                    .arg(key.mid(1), reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(clip(reason))));
            call->cancel();
        }
        return; // an unknown or finished request: nothing to do (the spec expects such races)
    }
    // roots/list_changed and others ask nothing of this server.
    log(mcp::LogLevel::Debug, QStringLiteral("ignored notification %1").arg(clip(method)));
}

QJsonObject McpHandler::initialize(const QJsonValue &id, const QJsonObject &params)
{
    if (isInitialized())
        return jsonrpc::errorMessage(
            id, jsonrpc::InvalidRequest, QStringLiteral("Already initialized (protocol %1)").arg(m_protocolVersion));
    const QJsonValue requested = params.value(QLatin1String("protocolVersion"));
    if (!requested.isString())
        return jsonrpc::errorMessage(id, jsonrpc::InvalidParams,
            QStringLiteral("Invalid params: initialize needs protocolVersion (a string)"),
            QJsonObject {{QStringLiteral("supported"), QJsonArray::fromStringList(mcp::supportedProtocolVersions())}});
    m_protocolVersion = mcp::negotiateProtocolVersion(requested.toString());
    const QJsonObject client = params.value(QLatin1String("clientInfo")).toObject();
    m_clientName = clip(
        QStringLiteral("%1 %2")
            .arg(client.value(QLatin1String("name")).toString(), client.value(QLatin1String("version")).toString())
            .trimmed(),
        120);
    log(mcp::LogLevel::Info,
        QStringLiteral("client %1 asked for protocol %2; speaking %3")
            .arg(m_clientName.isEmpty() ? QStringLiteral("(unnamed)") : m_clientName, clip(requested.toString(), 40),
                m_protocolVersion));

    QJsonObject serverInfo {{QStringLiteral("name"), m_info.name}, {QStringLiteral("version"), m_info.version}};
    if (!m_info.title.isEmpty())
        serverInfo.insert(QStringLiteral("title"), m_info.title);
    QJsonObject result {{QStringLiteral("protocolVersion"), m_protocolVersion},
        {QStringLiteral("capabilities"),
            QJsonObject {{QStringLiteral("tools"), QJsonObject {{QStringLiteral("listChanged"), true}}},
                {QStringLiteral("resources"), QJsonObject {{QStringLiteral("listChanged"), true}}},
                {QStringLiteral("logging"), QJsonObject {}}}},
        {QStringLiteral("serverInfo"), serverInfo}};
    if (m_host && !m_host->instructions().isEmpty())
        result.insert(QStringLiteral("instructions"), m_host->instructions());
    return jsonrpc::resultMessage(id, result);
}

QJsonObject McpHandler::setLogLevel(const QJsonValue &id, const QJsonValue &params)
{
    mcp::LogLevel level;
    if (!mcp::logLevelFromName(params.toObject().value(QLatin1String("level")).toString(), &level))
        return jsonrpc::errorMessage(id, jsonrpc::InvalidParams,
            QStringLiteral("Invalid params: level must be one of debug, info, notice, "
                           "warning, error, critical, alert, emergency"));
    m_logLevel = level;
    return jsonrpc::resultMessage(id, {});
}

std::shared_ptr<McpCall> McpHandler::startCall(
    const QJsonValue &id, const QString &method, const QJsonObject &params, const Answer &answer)
{
    const QString key = jsonrpc::idKey(id);
    if (m_inFlight.contains(key)) {
        answer(jsonrpc::errorMessage(id, jsonrpc::InvalidRequest,
            QStringLiteral("Invalid Request: id %1 is already used by a request in flight").arg(clip(key.mid(1), 40))));
        return nullptr;
    }
    auto call = std::make_shared<McpCall>(id, method, params, m_protocolVersion);
    QPointer<McpHandler> self(this);
    call->connectSinks(
        [self, key, answer](const std::optional<QJsonObject> &m) {
            if (!self)
                return;
            self->m_inFlight.remove(key);
            answer(m);
            self->maybeFinish();
        },
        [self](const QJsonObject &notification) {
            if (self)
                self->send(notification);
        });
    m_inFlight.insert(key, call);
    return call;
}

void McpHandler::callTool(const QJsonValue &id, const QJsonValue &paramsValue, const Answer &answer)
{
    const QJsonObject params = paramsValue.toObject();
    const QJsonValue name = params.value(QLatin1String("name"));
    if (!name.isString() || name.toString().isEmpty()) {
        answer(jsonrpc::errorMessage(
            id, jsonrpc::InvalidParams, QStringLiteral("Invalid params: tools/call needs params.name (a tool name)")));
        return;
    }
    QJsonValue argumentsValue = params.value(QLatin1String("arguments"));
    if (!argumentsValue.isUndefined() && !argumentsValue.isNull() && !argumentsValue.isObject()) {
        answer(jsonrpc::errorMessage(
            id, jsonrpc::InvalidParams, QStringLiteral("Invalid params: params.arguments must be an object")));
        return;
    }
    const QJsonArray tools = m_host ? m_host->toolDefinitions() : QJsonArray();
    const QJsonObject tool = mcp::findTool(tools, name.toString());
    if (tool.isEmpty()) {
        QStringList names;
        for (const QJsonValue &t : tools)
            names.append(t.toObject().value(QLatin1String("name")).toString());
        answer(jsonrpc::errorMessage(id, jsonrpc::InvalidParams,
            QStringLiteral("Unknown tool: %1 (the tools are: %2)")
                .arg(clip(name.toString()), names.join(QStringLiteral(", ")))));
        return;
    }
    // Wrong arguments are the agent's to fix: a tool result it can read, not a protocol error.
    QJsonObject arguments = argumentsValue.toObject();
    QString problem;
    if (!mcp::checkArguments(tool.value(QLatin1String("inputSchema")).toObject(), &arguments, &problem)) {
        log(mcp::LogLevel::Info, QStringLiteral("%1: %2").arg(name.toString(), problem));
        answer(jsonrpc::resultMessage(id,
            toolError(QStringLiteral("%1 was not called: %2. Call get_help for the tools and their arguments.")
                          .arg(name.toString(), problem))));
        return;
    }
    const std::shared_ptr<McpCall> call = startCall(id, QStringLiteral("tools/call"), params, answer);
    if (!call)
        return;
    call->setTool(name.toString(), arguments);
    m_host->callTool(call);
}

void McpHandler::readResource(const QJsonValue &id, const QJsonValue &paramsValue, const Answer &answer)
{
    const QJsonObject params = paramsValue.toObject();
    if (!params.value(QLatin1String("uri")).isString()) {
        answer(jsonrpc::errorMessage(
            id, jsonrpc::InvalidParams, QStringLiteral("Invalid params: resources/read needs params.uri (a string)")));
        return;
    }
    if (!m_host) {
        answer(jsonrpc::errorMessage(id, jsonrpc::ResourceNotFound, QStringLiteral("Resource not found"),
            QJsonObject {{QStringLiteral("uri"), params.value(QLatin1String("uri"))}}));
        return;
    }
    if (const std::shared_ptr<McpCall> call = startCall(id, QStringLiteral("resources/read"), params, answer))
        m_host->readResource(call);
}

void McpHandler::send(const QJsonObject &message)
{
    Q_EMIT lineReady(jsonrpc::toLine(message));
}

void McpHandler::notifyClient(const QString &method)
{
    if (isInitialized())
        send(jsonrpc::notificationMessage(method, {}));
}

void McpHandler::maybeFinish()
{
    if (m_inputClosed && m_inFlight.isEmpty() && !m_finished) {
        m_finished = true;
        Q_EMIT finished();
    }
}

} // namespace nb2
