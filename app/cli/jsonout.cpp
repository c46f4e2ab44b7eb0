#include "app/cli/jsonout.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

namespace nb2::cli {

OutJson toOutJson(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return nullptr;
    case QJsonValue::Bool:
        return value.toBool();
    case QJsonValue::Double: {
        // Qt keeps every number as a double; whole numbers go out as integers, as they came in.
        const double d = value.toDouble();
        const qint64 whole = value.toInteger();
        return double(whole) == d ? OutJson(whole) : OutJson(d);
    }
    case QJsonValue::String:
        return toOutJson(value.toString());
    case QJsonValue::Array: {
        OutJson array = OutJson::array();
        for (const QJsonValue &item : value.toArray())
            array.push_back(toOutJson(item));
        return array;
    }
    case QJsonValue::Object: {
        OutJson object = OutJson::object();
        const QJsonObject source = value.toObject();
        for (auto it = source.begin(); it != source.end(); ++it)
            object[it.key().toStdString()] = toOutJson(it.value());
        return object;
    }
    }
    return nullptr;
}

OutJson toOutJson(const QString &text)
{
    return text.toStdString();
}

OutJson toOutJson(const QStringList &list)
{
    OutJson array = OutJson::array();
    for (const QString &item : list)
        array.push_back(item.toStdString());
    return array;
}

OutJson stringOrNull(const QString &text)
{
    return text.isEmpty() ? OutJson(nullptr) : toOutJson(text);
}

QByteArray jsonLine(const OutJson &object)
{
    return QByteArray::fromStdString(object.dump()) + '\n';
}

} // namespace nb2::cli
