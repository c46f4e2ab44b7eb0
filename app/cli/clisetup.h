#pragma once

#include "core/api/clientconfig.h"

#include <QProcessEnvironment>
#include <QString>

namespace nb2 {

struct CliArgs;

/** The client configuration and output folder for one run, and where each value came from. */
struct CliSetup {
    ClientConfig config;
    QString outputDir;     // absolute
    QString modelSource;   // "--model", "GEMINI_MODEL_NAME", "default"
    QString baseUrlSource; // "--base-url", "GOOGLE_GEMINI_BASE_URL", "default", "--demo"
};

/**
 * Resolves the options against the environment through the app's settings table
 * (core/session/appsettings.h: resolveConnection, appprefs::outputFolder): a flag, then the
 * environment variable (set and non-empty after trimming), then the default. The CLI has no
 * settings-file layer. The key comes only from the environment or ~/gemini.key (never from
 * the command line).
 */
CliSetup resolveCliSetup(const CliArgs &args, const QProcessEnvironment &env, const QString &homeDir);

/** <AppConfigLocation>/thinking-levels.json (creates the folder). */
QString thinkingLevelsFilePath();

} // namespace nb2
