#pragma once

#include <QHash>
#include <QMutex>
#include <QString>
#include <QStringList>

namespace nb2 {

/**
 * The thinking levels each model accepts. The server owns this set and it drifts, so we
 * start from {low, high} and learn the real set from a 400 that names "Allowed values are:".
 * Thread-safe; persisted as JSON at filePath() (empty path: memory only).
 */
class ThinkingLevels
{
public:
    explicit ThinkingLevels(QString filePath = {});

    static QStringList defaultLevels(); // {"low", "high"}
    static QString defaultLevel();      // "low"

    QStringList allowed(const QString &model) const;
    bool isLearned(const QString &model) const;
    bool isAllowed(const QString &model, const QString &level) const;
    void learn(const QString &model, const QStringList &levels); // saves to disk
    QString filePath() const { return m_filePath; }

    /** Parses "Allowed values are: low, high." and "... THINKING_LEVEL_LOW is not supported ..." style messages. */
    static QStringList parseAllowedValues(const QString &serverMessage);

private:
    void load();
    void save() const;

    QString m_filePath;
    mutable QMutex m_mutex;
    QHash<QString, QStringList> m_learned;
};

} // namespace nb2
