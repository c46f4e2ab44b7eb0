#pragma once

#include <QString>
#include <QStringList>

#include <nlohmann/json_fwd.hpp>

class QByteArray;
class QJsonValue;

namespace nb2::cli {

/**
 * nb2lite's one JSON writer for --json output: every object it prints is built as an OutJson
 * (nlohmann's ordered_json, so keys come out in the order the code writes them, which is the
 * documented order) and printed by jsonLine(). Values that core hands over as Qt JSON (a
 * frame's record) are converted once, by toOutJson().
 */
using OutJson = nlohmann::ordered_json;

OutJson toOutJson(const QJsonValue &value);
OutJson toOutJson(const QString &text);
OutJson toOutJson(const QStringList &list);
/** null for an empty string, else the string. */
OutJson stringOrNull(const QString &text);
/** One compact line ending in '\n'. */
QByteArray jsonLine(const OutJson &object);

} // namespace nb2::cli
