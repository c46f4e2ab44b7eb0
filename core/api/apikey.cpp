#include "core/api/apikey.h"

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

ApiKey lookupApiKey(const QProcessEnvironment &env, const QString &homeDir)
{
    for (const auto *name : {"GEMINI_API_KEY", "GOOGLE_API_KEY"}) {
        const QString value = env.value(QString::fromLatin1(name)).trimmed();
        if (!value.isEmpty())
            return ApiKey(value, QString::fromLatin1(name));
    }

    if (homeDir.isEmpty())
        return {};
    const QString path = QDir(homeDir).filePath(QStringLiteral("gemini.key"));
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
