#include "core/mcp/jsonrpc.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace nb2::jsonrpc {

namespace {

bool isValidId(const QJsonValue &id)
{
    return id.isString() || id.isDouble();
}

Message invalid(const QJsonValue &id, const QString &problem)
{
    Message m;
    m.type = Message::Type::Invalid;
    m.id = isValidId(id) ? id : QJsonValue(QJsonValue::Null);
    m.problem = problem;
    return m;
}

} // namespace

Message classify(const QJsonValue &value)
{
    if (!value.isObject())
        return invalid({}, QStringLiteral("a JSON-RPC message must be a JSON object"));
    const QJsonObject o = value.toObject();
    const QJsonValue id = o.value(QLatin1String("id"));
    if (o.value(QLatin1String("jsonrpc")).toString() != QLatin1String("2.0"))
        return invalid(id, QStringLiteral("\"jsonrpc\" must be \"2.0\""));
    const bool hasId = o.contains(QLatin1String("id"));
    if (hasId && !isValidId(id) && !id.isNull())
        return invalid({}, QStringLiteral("\"id\" must be a string or a number"));

    const QJsonValue method = o.value(QLatin1String("method"));
    if (!method.isUndefined()) {
        if (!method.isString() || method.toString().isEmpty())
            return invalid(id, QStringLiteral("\"method\" must be a non-empty string"));
        const QJsonValue params = o.value(QLatin1String("params"));
        if (!params.isUndefined() && !params.isObject() && !params.isArray())
            return invalid(id, QStringLiteral("\"params\" must be an object or an array"));
        Message m;
        m.method = method.toString();
        m.params = params;
        if (!hasId) {
            m.type = Message::Type::Notification;
            return m;
        }
        if (id.isNull()) // JSON-RPC discourages it and MCP forbids it: a request id is never null
            return invalid({}, QStringLiteral("a request \"id\" must be a string or a number, not null"));
        m.type = Message::Type::Request;
        m.id = id;
        return m;
    }
    if (hasId && (o.contains(QLatin1String("result")) || o.contains(QLatin1String("error")))) {
        Message m;
        m.type = Message::Type::Response;
        m.id = id;
        return m;
    }
    return invalid(id, QStringLiteral("the message has no \"method\""));
}

QString idKey(const QJsonValue &id)
{
    if (id.isString())
        return QLatin1Char('s') + id.toString();
    if (id.isDouble())
        return QLatin1Char('n') + QString::number(id.toDouble(), 'g', 17);
    return QStringLiteral("null");
}

QJsonObject resultMessage(const QJsonValue &id, const QJsonObject &result)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), id},
        {QStringLiteral("result"), result}};
}

QJsonObject errorMessage(const QJsonValue &id, int code, const QString &message, const QJsonValue &data)
{
    QJsonObject error {{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    if (!data.isUndefined() && !data.isNull())
        error.insert(QStringLiteral("data"), data);
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
        {QStringLiteral("id"), isValidId(id) ? id : QJsonValue(QJsonValue::Null)}, {QStringLiteral("error"), error}};
}

QJsonObject notificationMessage(const QString &method, const QJsonObject &params)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("method"), method},
        {QStringLiteral("params"), params}};
}

QByteArray toLine(const QJsonObject &message)
{
    return QJsonDocument(message).toJson(QJsonDocument::Compact);
}

QByteArray toLine(const QJsonArray &batch)
{
    return QJsonDocument(batch).toJson(QJsonDocument::Compact);
}

QJsonValue salvageId(QByteArrayView head, QByteArrayView tail)
{
    // A string id without escapes or a plain integer: anything fancier is not worth guessing at.
    static const QString value = QStringLiteral(R"re(("(?:[^"\\]{0,256})"|-?\d{1,15}))re");
    static const QRegularExpression first(
        QStringLiteral(R"re(^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*)re") + value
        + QStringLiteral(R"re(\s*[,}])re"));
    static const QRegularExpression last(
        QStringLiteral(R"re([,{]\s*"id"\s*:\s*)re") + value + QStringLiteral(R"re(\s*\}\s*$)re"));
    auto parse = [](const QString &text) -> QJsonValue {
        if (text.startsWith(QLatin1Char('"')))
            return text.mid(1, text.size() - 2);
        bool ok = false;
        const qint64 n = text.toLongLong(&ok);
        return ok ? QJsonValue(n) : QJsonValue(QJsonValue::Null);
    };
    if (const auto m = first.match(QString::fromUtf8(head)); m.hasMatch())
        return parse(m.captured(1));
    // The last member closes the top-level object with exactly one brace: a nested "id" would
    // be followed by at least two.
    if (const auto m = last.match(QString::fromUtf8(tail)); m.hasMatch())
        return parse(m.captured(1));
    return QJsonValue(QJsonValue::Null);
}

} // namespace nb2::jsonrpc
