#include "core/api/apikey.h"

#include "core/common/preference.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace nb2 {

QString ApiKey::masked() const
{
    // Never reveal more than a third of a short key, and never more than 4 characters.
    const qsizetype shown = std::min<qsizetype>(4, m_value.size() / 3);
    if (m_value.isEmpty())
        return {};
    return QStringLiteral("\u2026") + m_value.right(shown);
}

ApiKey apiKeyFromEnvironment(const QProcessEnvironment &env)
{
    for (const char *name : kApiKeyVariables) {
        if (const std::optional<QString> value = environmentOverride(env, name))
            return ApiKey(*value, QString::fromLatin1(name));
    }
    return {};
}

QString apiKeyFilePath(const QString &homeDir)
{
    return QDir(homeDir).filePath(QStringLiteral("gemini.key"));
}

ApiKey lookupApiKey(const QProcessEnvironment &env, const QString &homeDir)
{
    if (ApiKey key = apiKeyFromEnvironment(env); !key.isEmpty())
        return key;

    if (homeDir.isEmpty())
        return {};
    const QString path = apiKeyFilePath(homeDir);
    QFile file(path);
    if (!file.exists() || !file.open(QIODevice::ReadOnly))
        return {};
    const QString firstLine = QString::fromUtf8(file.readLine(64 * 1024)).trimmed();
    if (firstLine.isEmpty())
        return {};

    ApiKey key(firstLine, QStringLiteral("~/gemini.key"));
    // The seed kept the key in a plain file; at least tell the user when others can read it.
    const QFileDevice::Permissions perms = QFileInfo(path).permissions();
    if (perms & (QFileDevice::ReadGroup | QFileDevice::ReadOther)) {
        key.setWarning(QStringLiteral("%1 is readable by other users; restrict it with: chmod 600 %1")
                           .arg(QDir::toNativeSeparators(path)));
    }
    return key;
}

} // namespace nb2
