#include "core/api/thinkinglevels.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutexLocker>
#include <QRegularExpression>
#include <QSaveFile>

namespace nb2 {

ThinkingLevels::ThinkingLevels(QString filePath) : m_filePath(std::move(filePath))
{
    load();
}

QStringList ThinkingLevels::defaultLevels()
{
    return {QStringLiteral("low"), QStringLiteral("high")};
}

QString ThinkingLevels::defaultLevel()
{
    return QStringLiteral("low");
}

QStringList ThinkingLevels::allowed(const QString &model) const
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_learned.constFind(model);
    return it != m_learned.constEnd() ? *it : defaultLevels();
}

bool ThinkingLevels::isLearned(const QString &model) const
{
    QMutexLocker lock(&m_mutex);
    return m_learned.contains(model);
}

bool ThinkingLevels::isAllowed(const QString &model, const QString &level) const
{
    return allowed(model).contains(level.trimmed().toLower());
}

void ThinkingLevels::learn(const QString &model, const QStringList &levels)
{
    QStringList normalized;
    for (const QString &level : levels) {
        const QString l = level.trimmed().toLower();
        if (!l.isEmpty() && !normalized.contains(l))
            normalized.append(l);
    }
    if (normalized.isEmpty())
        return; // an empty set would make every request invalid; keep what we had
    QMutexLocker lock(&m_mutex);
    if (m_learned.value(model) == normalized)
        return;
    m_learned.insert(model, normalized);
    // Written under the lock so that concurrent learns cannot commit an older snapshot last.
    save();
}

QStringList ThinkingLevels::parseAllowedValues(const QString &serverMessage)
{
    // "... Allowed values are: low, high." / "Allowed values are: 'LOW', 'HIGH'".
    static const QRegularExpression re(
        QStringLiteral("allowed values are\\s*:?\\s*([^\\n\\]\\}]*)"), QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = re.match(serverMessage);
    if (!m.hasMatch())
        return {}; // e.g. "THINKING_LEVEL_LOW is not supported": the server named no set
    QString list = m.captured(1).trimmed();
    while (list.endsWith(QLatin1Char('.')) || list.endsWith(QLatin1Char('"')))
        list.chop(1);
    list.replace(QLatin1String(" or "), QLatin1String(","));
    list.replace(QLatin1String(" and "), QLatin1String(","));

    QStringList values;
    const QStringList parts = list.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QString part : parts) {
        part = part.trimmed();
        part.remove(QLatin1Char('\'')).remove(QLatin1Char('"')).remove(QLatin1Char('`'));
        part = part.trimmed().toLower();
        if (part.startsWith(QLatin1String("thinking_level_")))
            part = part.mid(15);
        if (part.endsWith(QLatin1Char('.')))
            part.chop(1);
        if (!part.isEmpty() && !part.contains(QLatin1Char(' ')) && !values.contains(part))
            values.append(part);
    }
    return values;
}

void ThinkingLevels::load()
{
    if (m_filePath.isEmpty())
        return;
    QFile file(m_filePath);
    if (!file.open(QIODevice::ReadOnly))
        return; // first run: nothing learned yet
    const QJsonObject models
        = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("models")).toObject();
    QMutexLocker lock(&m_mutex);
    for (auto it = models.begin(); it != models.end(); ++it) {
        QStringList levels;
        const QJsonArray array = it.value().toArray();
        for (const QJsonValue &v : array) {
            if (v.isString() && !v.toString().isEmpty())
                levels.append(v.toString());
        }
        if (!levels.isEmpty())
            m_learned.insert(it.key(), levels);
    }
}

// Called with m_mutex held.
void ThinkingLevels::save() const
{
    if (m_filePath.isEmpty())
        return;
    QJsonObject models;
    for (auto it = m_learned.constBegin(); it != m_learned.constEnd(); ++it)
        models.insert(it.key(), QJsonArray::fromStringList(it.value()));
    QJsonObject root;
    root.insert(QStringLiteral("version"), 1);
    root.insert(QStringLiteral("models"), models);

    QDir().mkpath(QFileInfo(m_filePath).absolutePath());
    QSaveFile file(m_filePath);
    if (!file.open(QIODevice::WriteOnly))
        return;
    file.write(QJsonDocument(root).toJson(QJsonDocument::Indented));
    file.commit();
}

} // namespace nb2
