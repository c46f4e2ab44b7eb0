#include "core/session/sessionsettings.h"

namespace nb2 {

namespace prefs {

const Preference<int> concurrencyLimit {"session/concurrencyLimit", 4, [](const int &v) { return v >= 1 && v <= 16; }};
const Preference<QString> retentionPlan {"session/retentionPlan", QStringLiteral("paid"), [](const QString &v) {
                                             return v == QLatin1String("paid") || v == QLatin1String("free")
                                                 || v == QLatin1String("custom");
                                         }};
const Preference<int> customRetentionDays {
    "session/customRetentionDays", 55, [](const int &v) { return v >= 1 && v <= 3650; }};
const Preference<bool> autoReAnchor {"session/autoReAnchor", true, [](const bool &) { return true; }};
const Preference<bool> recoverOnOpen {"session/recoverOnOpen", true, [](const bool &) { return true; }};
const Preference<int> lockTimeoutMs {
    "session/lockTimeoutMs", 10000, [](const int &v) { return v >= 100 && v <= 120000; }};
const Preference<int> thumbnailSize {"session/thumbnailSize", 256, [](const int &v) { return v >= 32 && v <= 1024; }};
const Preference<bool> streamTurns {"session/streamTurns", true, [](const bool &) { return true; }};
const Preference<double> budgetUsd {
    "session/budgetUsd", 0.0, [](const double &v) { return v == 0 || (v >= 0.01 && v <= 100000); }};

QStringList sessionKeys()
{
    return {QLatin1String(concurrencyLimit.key), QLatin1String(retentionPlan.key),
        QLatin1String(customRetentionDays.key), QLatin1String(autoReAnchor.key), QLatin1String(recoverOnOpen.key),
        QLatin1String(lockTimeoutMs.key), QLatin1String(thumbnailSize.key), QLatin1String(streamTurns.key),
        QLatin1String(budgetUsd.key)};
}

} // namespace prefs

int SessionSettings::retentionDays() const
{
    if (retentionPlan == QLatin1String("free"))
        return 1;
    if (retentionPlan == QLatin1String("custom"))
        return customRetentionDays;
    return 55;
}

SessionSettings SessionSettings::load(const QSettings &s)
{
    SessionSettings r;
    r.concurrencyLimit = prefs::concurrencyLimit.read(s);
    r.retentionPlan = prefs::retentionPlan.read(s);
    r.customRetentionDays = prefs::customRetentionDays.read(s);
    r.autoReAnchor = prefs::autoReAnchor.read(s);
    r.recoverOnOpen = prefs::recoverOnOpen.read(s);
    r.lockTimeoutMs = prefs::lockTimeoutMs.read(s);
    r.thumbnailSize = prefs::thumbnailSize.read(s);
    r.streamTurns = prefs::streamTurns.read(s);
    r.budgetUsd = prefs::budgetUsd.read(s);
    return r;
}

void SessionSettings::save(QSettings &s) const
{
    prefs::concurrencyLimit.write(s, concurrencyLimit);
    prefs::retentionPlan.write(s, retentionPlan);
    prefs::customRetentionDays.write(s, customRetentionDays);
    prefs::autoReAnchor.write(s, autoReAnchor);
    prefs::recoverOnOpen.write(s, recoverOnOpen);
    prefs::lockTimeoutMs.write(s, lockTimeoutMs);
    prefs::thumbnailSize.write(s, thumbnailSize);
    prefs::streamTurns.write(s, streamTurns);
    prefs::budgetUsd.write(s, budgetUsd);
}

} // namespace nb2
