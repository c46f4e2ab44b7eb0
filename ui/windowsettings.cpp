#include "ui/windowsettings.h"

#include "core/api/imageinput.h"

namespace nb2::windowprefs {

const Preference<QByteArray> geometry {"window/geometry", {}, [](const QByteArray &) { return true; }};
const Preference<QByteArray> state {"window/state", {}, [](const QByteArray &) { return true; }};
const Preference<QString> lastSession {"window/lastSession", {}, [](const QString &) { return true; }};
const Preference<QStringList> recentSessions {
    "window/recentSessions", {}, [](const QStringList &l) { return l.size() <= 64; }};
const Preference<QString> lastFrame {"window/lastFrame", {}, [](const QString &id) { return id.size() <= 64; }};
const Preference<QString> aspectRatio {
    "window/aspectRatio", QStringLiteral("1:1"), [](const QString &r) { return supportedAspectRatios().contains(r); }};
const Preference<int> compareMode {"window/compareMode", 0, [](const int &m) { return m >= 0 && m <= 2; }};

QStringList keys()
{
    return {QLatin1String(geometry.key), QLatin1String(state.key), QLatin1String(lastSession.key),
        QLatin1String(recentSessions.key), QLatin1String(lastFrame.key), QLatin1String(aspectRatio.key),
        QLatin1String(compareMode.key)};
}

} // namespace nb2::windowprefs
