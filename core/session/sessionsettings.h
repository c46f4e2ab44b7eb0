#pragma once

#include <QLatin1String>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace nb2 {

/**
 * One typed setting: key, default and validation in one place (after Tiled's Preference<T>).
 * read() returns the default for a missing or invalid stored value, so a hand-edited config
 * cannot put the program in a state the UI could not have produced.
 */
template <typename T>
struct Preference {
    const char *key;
    T defaultValue;
    bool (*isValid)(const T &value);

    T read(const QSettings &settings) const
    {
        const QVariant v = settings.value(QLatin1String(key));
        if (!v.isValid() || !v.canConvert<T>())
            return defaultValue;
        const T value = v.value<T>();
        return isValid(value) ? value : defaultValue;
    }
    /** Refuses (returns false) an invalid value. */
    bool write(QSettings &settings, const T &value) const
    {
        if (!isValid(value))
            return false;
        settings.setValue(QLatin1String(key), QVariant::fromValue(value));
        return true;
    }
};

/** The settings table of the session layer (the GUI's preferences dialog reuses it). */
namespace prefs {
extern const Preference<int> concurrencyLimit;      // "session/concurrencyLimit": 4, 1..16
extern const Preference<QString> retentionPlan;     // "session/retentionPlan": "paid" (55 d) | "free" (1 d) | "custom"
extern const Preference<int> customRetentionDays;   // "session/customRetentionDays": 55, 1..3650
extern const Preference<bool> autoReAnchor;         // "session/autoReAnchor": true
extern const Preference<bool> recoverOnOpen;        // "session/recoverOnOpen": true (get known ids of interrupted turns)
extern const Preference<int> lockTimeoutMs;         // "session/lockTimeoutMs": 10000, 100..120000
extern const Preference<int> thumbnailSize;         // "session/thumbnailSize": 256, 32..1024
extern const Preference<bool> streamTurns;          // "session/streamTurns": true (learn the id early)

/** Keys of every setting above, for "reset to defaults" and tests. */
QStringList sessionKeys();
} // namespace prefs

/** The session settings as one plain value, so core code never reads QSettings itself. */
struct SessionSettings {
    int concurrencyLimit = 4;
    QString retentionPlan = QStringLiteral("paid");
    int customRetentionDays = 55;
    bool autoReAnchor = true;
    bool recoverOnOpen = true;
    int lockTimeoutMs = 10000;
    int thumbnailSize = 256;
    bool streamTurns = true;

    /** 55 (paid), 1 (free) or customRetentionDays. */
    int retentionDays() const;

    static SessionSettings load(const QSettings &settings);
    void save(QSettings &settings) const;
};

} // namespace nb2
