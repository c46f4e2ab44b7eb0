#include "ui/windowpreferences.h"

#include "core/session/appsettings.h"
#include "ui/windowsettings.h"

#include <QSettings>

namespace nb2 {

AppSettings WindowPreferences::studio()
{
    const QSettings s;
    return AppSettings::load(s);
}

QString WindowPreferences::sessionsFolder()
{
    return studio().effectiveSessionsFolder();
}

QString WindowPreferences::preferredThinkingLevel()
{
    const QSettings s;
    return appprefs::thinkingLevel.read(s);
}

QByteArray WindowPreferences::geometry()
{
    const QSettings s;
    return windowprefs::geometry.read(s);
}

QByteArray WindowPreferences::dockState()
{
    const QSettings s;
    return windowprefs::state.read(s);
}

void WindowPreferences::setLayout(const QByteArray &geometry, const QByteArray &dockState)
{
    QSettings s;
    windowprefs::geometry.write(s, geometry);
    windowprefs::state.write(s, dockState);
}

QString WindowPreferences::lastSession()
{
    const QSettings s;
    return windowprefs::lastSession.read(s);
}

void WindowPreferences::setLastSession(const QString &dir)
{
    QSettings s;
    windowprefs::lastSession.write(s, dir);
}

QString WindowPreferences::lastFrame()
{
    const QSettings s;
    return windowprefs::lastFrame.read(s);
}

void WindowPreferences::setLastFrame(const QString &frameId)
{
    QSettings s;
    windowprefs::lastFrame.write(s, frameId);
}

QString WindowPreferences::generateAspect()
{
    const QSettings s;
    return windowprefs::aspectRatio.read(s);
}

void WindowPreferences::setGenerateAspect(const QString &ratio)
{
    QSettings s;
    windowprefs::aspectRatio.write(s, ratio);
}

QStringList WindowPreferences::recentSessions()
{
    const QSettings s;
    return windowprefs::recentSessions.read(s);
}

void WindowPreferences::addRecentSession(const QString &dir)
{
    QSettings s;
    QStringList recent = windowprefs::recentSessions.read(s);
    recent.removeAll(dir);
    recent.prepend(dir);
    while (recent.size() > windowprefs::kMaxRecent)
        recent.removeLast();
    windowprefs::recentSessions.write(s, recent);
}

} // namespace nb2
