#pragma once
// Shared by the MCP bridge tests: JSON-RPC lines, small images, and scanning files for a secret.

#include <QBuffer>
#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QString>
#include <QStringList>

namespace nb2::mcptest {

inline QByteArray line(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

inline QByteArray request(const QJsonValue &id, const QString &method, const QJsonObject &params = {})
{
    QJsonObject o {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), id},
        {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        o.insert(QStringLiteral("params"), params);
    return line(o);
}

inline QByteArray notification(const QString &method, const QJsonObject &params = {})
{
    return line({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("method"), method},
        {QStringLiteral("params"), params}});
}

inline QByteArray initializeRequest(int id, const QString &version = QStringLiteral("2025-11-25"))
{
    return request(id, QStringLiteral("initialize"),
        {{QStringLiteral("protocolVersion"), version}, {QStringLiteral("capabilities"), QJsonObject {}},
            {QStringLiteral("clientInfo"),
                QJsonObject {{QStringLiteral("name"), QStringLiteral("nb2-test")},
                    {QStringLiteral("version"), QStringLiteral("1")}}}});
}

inline QByteArray toolCall(const QJsonValue &id, const QString &name, const QJsonObject &arguments,
    const QJsonValue &progressToken = QJsonValue(QJsonValue::Undefined))
{
    QJsonObject params {{QStringLiteral("name"), name}, {QStringLiteral("arguments"), arguments}};
    if (!progressToken.isUndefined())
        params.insert(QStringLiteral("_meta"), QJsonObject {{QStringLiteral("progressToken"), progressToken}});
    return request(id, QStringLiteral("tools/call"), params);
}

/** The tool result of an answer ({} for an error answer). */
inline QJsonObject toolResult(const QJsonObject &answer)
{
    return answer.value(QLatin1String("result")).toObject();
}

inline QString resultText(const QJsonObject &answer)
{
    QStringList texts;
    for (const QJsonValue &c : toolResult(answer).value(QLatin1String("content")).toArray())
        if (c.toObject().value(QLatin1String("type")).toString() == QLatin1String("text"))
            texts.append(c.toObject().value(QLatin1String("text")).toString());
    return texts.join(QLatin1Char('\n'));
}

inline bool isToolError(const QJsonObject &answer)
{
    return toolResult(answer).value(QLatin1String("isError")).toBool();
}

inline QJsonObject structured(const QJsonObject &answer)
{
    return toolResult(answer).value(QLatin1String("structuredContent")).toObject();
}

/** The content blocks of a type ("image", "resource_link"). */
inline QJsonArray blocks(const QJsonObject &answer, const QString &type)
{
    QJsonArray out;
    for (const QJsonValue &c : toolResult(answer).value(QLatin1String("content")).toArray())
        if (c.toObject().value(QLatin1String("type")).toString() == type)
            out.append(c);
    return out;
}

inline QString writeImage(
    const QString &path, const QSize &size, const QColor &color = QColor(40, 120, 200), const char *format = "PNG")
{
    QImage img(size, QImage::Format_RGB32);
    img.fill(color);
    QPainter p(&img);
    p.setBrush(Qt::white);
    p.drawEllipse(QRect(QPoint(size.width() / 4, size.height() / 4), size / 2));
    p.end();
    img.save(path, format);
    return path;
}

inline QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/** Files under dir whose bytes contain needle (relative paths). */
inline QStringList filesContaining(const QString &dir, const QByteArray &needle)
{
    QStringList hits;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (readAll(path).contains(needle))
            hits.append(QDir(dir).relativeFilePath(path));
    }
    return hits;
}

} // namespace nb2::mcptest
