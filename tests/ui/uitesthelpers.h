#pragma once
// Shared by the GUI tests and the screenshot tool: tiny images on disk, a fake-backed window.

#include "core/api/clientconfig.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"

#include <QColor>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QProcessEnvironment>
#include <QString>
#include <QWidget>

namespace nb2test {

/** Writes a small PNG with a recognisable pattern; returns its path. */
inline QString writePng(const QString &path, const QSize &size = {96, 64}, const QColor &color = QColor(40, 120, 200))
{
    QImage img(size, QImage::Format_RGB32);
    img.fill(color);
    QPainter p(&img);
    p.setBrush(Qt::white);
    p.drawEllipse(QRect(QPoint(size.width() / 4, size.height() / 4), size / 2));
    p.end();
    img.save(path, "PNG");
    return path;
}

inline void writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(bytes);
}

/** A client config that talks to the fake server with no retries on rate limits worth waiting for. */
inline nb2::ClientConfig fakeConfig(const nb2::FakeServer &server, const QString &key)
{
    nb2::ClientConfig c;
    c.baseUrl = server.baseUrl();
    c.apiKey = nb2::ApiKey(key, QStringLiteral("test"));
    c.maxRetries = 1;
    c.backoffBaseMs = 50;
    c.backoffCapMs = 100;
    c.maxRateLimitWaitMs = 1000; // a longer Retry-After comes back as an error at once
    c.readTimeoutMs = 20'000;
    return c;
}

/** Turn parameters without the missing-initializer noise. */
inline nb2::TurnParams turn(const QString &prompt, const QString &aspect = {})
{
    nb2::TurnParams p;
    p.prompt = prompt;
    p.aspectRatio = aspect;
    return p;
}

/** Saves what w shows as dir/name (PNG) and says so on stdout (the screenshot programs). */
inline bool saveScreenshot(QWidget *w, const QString &dir, const QString &name)
{
    const QString path = dir + QLatin1Char('/') + name;
    const bool ok = w->grab().save(path, "PNG");
    qInfo("%s %s", ok ? "wrote" : "FAILED", qPrintable(path));
    return ok;
}

/**
 * The environment for starting the real nb2lite-studio binary as a first-time user would: a
 * private HOME (settings and data inside it), no API key (the demo backend), no session bus
 * (no keychain prompt), the offscreen platform.
 */
inline QProcessEnvironment isolatedStudioEnvironment(const QString &home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/.config"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/.local/share"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.remove(QStringLiteral("GEMINI_API_KEY"));
    env.remove(QStringLiteral("GOOGLE_API_KEY"));
    env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));
    return env;
}

} // namespace nb2test
