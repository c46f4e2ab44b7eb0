#include "core/mcp/mcpschema.h"

#include <QJsonArray>
#include <QStringList>

#include <cmath>

namespace nb2::mcp {

namespace {

QString jsonTypeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

bool hasType(const QJsonValue &v, const QString &type)
{
    if (type == QLatin1String("string"))
        return v.isString();
    if (type == QLatin1String("boolean"))
        return v.isBool();
    if (type == QLatin1String("number"))
        return v.isDouble();
    if (type == QLatin1String("integer")) {
        const double d = v.toDouble();
        return v.isDouble() && std::isfinite(d) && d == std::floor(d);
    }
    return true; // a type the tools do not use is not checked
}

QString article(const QString &type)
{
    return type == QLatin1String("integer") ? QStringLiteral("an integer") : QStringLiteral("a ") + type;
}

QString shortText(const QString &text)
{
    return text.size() > 40 ? text.left(39) + QChar(0x2026) : text;
}

} // namespace

bool checkArguments(const QJsonObject &inputSchema, QJsonObject *arguments, QString *problem)
{
    const QJsonObject properties = inputSchema.value(QLatin1String("properties")).toObject();
    const QJsonArray required = inputSchema.value(QLatin1String("required")).toArray();
    const bool closed = inputSchema.value(QLatin1String("additionalProperties")) == QJsonValue(false);
    auto fail = [problem](const QString &message) {
        *problem = message;
        return false;
    };

    for (auto it = arguments->constBegin(); it != arguments->constEnd(); ++it) {
        if (properties.contains(it.key()))
            continue;
        if (closed) {
            const QStringList known = properties.keys();
            return fail(known.isEmpty()
                    ? QStringLiteral("unknown argument \"%1\": this tool takes no arguments").arg(shortText(it.key()))
                    : QStringLiteral("unknown argument \"%1\"; the arguments are: %2")
                          .arg(shortText(it.key()), known.join(QStringLiteral(", "))));
        }
    }
    for (const QJsonValue &name : required) {
        const QString key = name.toString();
        const QJsonValue v = arguments->value(key);
        if (v.isUndefined() || v.isNull()) {
            const QJsonObject p = properties.value(key).toObject();
            const QString type = p.value(QLatin1String("type")).toString();
            const QString description = p.value(QLatin1String("description")).toString();
            return fail(QStringLiteral("missing required argument \"%1\"%2%3")
                            .arg(key, type.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(type),
                                description.isEmpty() ? QString() : QStringLiteral(": ") + description));
        }
    }
    for (auto it = properties.constBegin(); it != properties.constEnd(); ++it) {
        const QJsonObject p = it.value().toObject();
        QJsonValue v = arguments->value(it.key());
        if (v.isUndefined() || v.isNull()) {
            // null means "not given" (some clients send it for an omitted optional argument)
            arguments->remove(it.key());
            if (p.contains(QLatin1String("default")))
                arguments->insert(it.key(), p.value(QLatin1String("default")));
            continue;
        }
        const QString type = p.value(QLatin1String("type")).toString();
        if (!type.isEmpty() && !hasType(v, type))
            return fail(
                QStringLiteral("argument \"%1\" must be %2, not %3").arg(it.key(), article(type), jsonTypeName(v)));
        const QJsonArray allowed = p.value(QLatin1String("enum")).toArray();
        if (!allowed.isEmpty() && !allowed.contains(v)) {
            QStringList names;
            for (const QJsonValue &a : allowed)
                names.append(a.toVariant().toString());
            return fail(QStringLiteral("argument \"%1\" must be one of %2 (got \"%3\")")
                            .arg(it.key(), names.join(QStringLiteral(", ")), shortText(v.toVariant().toString())));
        }
        const QJsonValue minLength = p.value(QLatin1String("minLength"));
        if (v.isString() && minLength.isDouble() && v.toString().trimmed().size() < minLength.toInt())
            return fail(QStringLiteral("argument \"%1\" must not be empty").arg(it.key()));
    }
    return true;
}

} // namespace nb2::mcp
