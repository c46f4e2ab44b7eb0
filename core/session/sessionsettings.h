#pragma once

#include "core/common/preference.h"

#include <QSettings>
#include <QString>
#include <QStringList>

namespace nb2 {

/** The settings table of the session layer (the GUI's preferences dialog reuses it). */
namespace prefs {
extern const Preference<int> concurrencyLimit;    // "session/concurrencyLimit": 4, 1..16
extern const Preference<QString> retentionPlan;   // "session/retentionPlan": "paid" (55 d) | "free" (1 d) | "custom"
extern const Preference<int> customRetentionDays; // "session/customRetentionDays": 55, 1..3650
extern const Preference<bool> autoReAnchor;       // "session/autoReAnchor": true
extern const Preference<bool> recoverOnOpen;      // "session/recoverOnOpen": true (get known ids of interrupted turns)
extern const Preference<int> lockTimeoutMs;       // "session/lockTimeoutMs": 10000, 100..120000
extern const Preference<int> thumbnailSize;       // "session/thumbnailSize": 256, 32..1024
extern const Preference<bool> streamTurns;        // "session/streamTurns": true (learn the id early)
extern const Preference<double> budgetUsd; // "session/budgetUsd": 0 = no budget, else 0.01..100000 (USD per session)

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
    /** Turns that would take a session's estimated cost above this are refused before sending; 0: no budget. */
    double budgetUsd = 0;

    /** 55 (paid), 1 (free) or customRetentionDays. */
    int retentionDays() const;

    static SessionSettings load(const QSettings &settings);
    void save(QSettings &settings) const;
};

} // namespace nb2
