#pragma once

#include "core/common/preference.h"

#include <QByteArray>
#include <QStringList>

namespace nb2 {

/**
 * The main window's own typed preferences (key, default, validation), beside core's
 * session table and the app's table (core/session/appsettings.h). Only layout and navigation state:
 * nothing secret, nothing that changes what is sent to the API.
 */
namespace windowprefs {
extern const Preference<QByteArray> geometry;        // "window/geometry"
extern const Preference<QByteArray> state;           // "window/state": toolbars and docks
extern const Preference<QString> lastSession;        // "window/lastSession": folder reopened at start
extern const Preference<QStringList> recentSessions; // "window/recentSessions": newest first, at most 8
extern const Preference<QString> lastFrame;          // "window/lastFrame": selection restored with lastSession
extern const Preference<QString> aspectRatio;        // "window/aspectRatio": last ratio chosen for Generate
extern const Preference<int> compareMode;            // "window/compareMode": 0 side by side, 1 swipe, 2 difference
constexpr int kMaxRecent = 8;
QStringList keys();
} // namespace windowprefs

} // namespace nb2
