#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace nb2 {

struct AppSettings;

/**
 * The one place the window reads and writes its settings: the window's own typed table
 * (windowprefs: geometry, docks, last session and frame, recent sessions, the Generate ratio)
 * and the app's AppSettings (core/session/appsettings.h). Controllers ask here instead of opening their own QSettings,
 * so a key is spelled once and every value passes its Preference's validation.
 */
class WindowPreferences
{
public:
    static AppSettings studio();
    static QString sessionsFolder(); // AppSettings::effectiveSessionsFolder()
    static QString preferredThinkingLevel();

    static QByteArray geometry();
    static QByteArray dockState();
    static void setLayout(const QByteArray &geometry, const QByteArray &dockState);

    static QString lastSession();
    static void setLastSession(const QString &dir);
    static QString lastFrame();
    static void setLastFrame(const QString &frameId);

    /** The ratio last chosen for Generate (edits keep their chain's ratio and do not change it). */
    static QString generateAspect();
    static void setGenerateAspect(const QString &ratio);

    /** Newest first; folders that no longer exist are kept (they may come back: a mounted disk). */
    static QStringList recentSessions();
    static void addRecentSession(const QString &dir);
};

} // namespace nb2
