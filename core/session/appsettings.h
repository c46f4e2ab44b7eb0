#pragma once

#include "core/api/clientconfig.h"
#include "core/common/preference.h"
#include "core/session/pricetable.h"
#include "core/session/sessionsettings.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <optional>

class QSettings;

namespace nb2 {

/**
 * The application's settings table: every setting the CLI and the studio share, spelled
 * once (key, default, validation, environment variable). The session layer's own table
 * (prefs::) and the window's layout state (ui/windowsettings.h) sit beside it.
 */
namespace appprefs {
extern const Preference<QString> model;   // "api/model", $GEMINI_MODEL_NAME: gemini-3.1-flash-lite-image
extern const Preference<QString> baseUrl; // "api/baseUrl", $GOOGLE_GEMINI_BASE_URL: "" = production
extern const Preference<QString>
    apiVersion; // "api/version", $GOOGLE_GENAI_API_VERSION ("beta" = v1beta): "v1" | "v1beta"
extern const Preference<QString> thinkingLevel;  // "api/defaultThinkingLevel": "low"
extern const Preference<QString> sessionsFolder; // "session/folder": "" = AppSettings::defaultSessionsFolder()
extern const Preference<QString>
    outputFolder; // not stored; $IMAGE_OUTPUT_DIR: the CLI's image folder, "" = current folder
extern const Preference<QString> priceTable; // "cost/priceTable": PriceTable JSON text, "" = PriceTable::defaults()
/** The keys of every stored setting above, for "reset to defaults" and tests. */
QStringList keys();
} // namespace appprefs

/**
 * Every non-secret setting the studio keeps in its settings file, as one value (the
 * Settings dialog edits it; the session layer gets `session`). The API key is never part of
 * it: it lives in the environment, the desktop keychain or ~/gemini.key.
 */
struct AppSettings {
    QString model;
    QString baseUrl; // empty: production (or $GOOGLE_GEMINI_BASE_URL)
    QString apiVersion;
    QString thinkingLevel;
    QString sessionsFolder; // empty: defaultSessionsFolder()
    SessionSettings session;
    /** The prices cost figures use (an estimate): kept here, never in a session. */
    PriceTable prices = PriceTable::defaults();

    static AppSettings load(const QSettings &settings);
    void save(QSettings &settings) const;
    static AppSettings defaults();
    /** <Documents>/NB2Lite Sessions */
    static QString defaultSessionsFolder();
    QString effectiveSessionsFolder() const;

    /**
     * The client config these settings describe (resolveConnection with these settings as
     * the stored layer): the environment wins over them; the key is the environment's, else
     * `storedKey` (from the studio's key store) labelled `storedKeySource`.
     */
    ClientConfig clientConfig(
        const QProcessEnvironment &env, const QString &storedKey, const QString &storedKeySource) const;
};

/** Explicit choices for this run (the CLI's --model, --base-url, --api-version); nullopt: not given. */
struct ConnectionChoices {
    std::optional<QString> model;
    std::optional<QString> baseUrl;
    std::optional<QString> apiVersion;
};

/** The resolved connection, and where each part came from (for `nb2lite doctor` and tests). */
struct Connection {
    ClientConfig config;
    SettingSource modelSource = SettingSource::Default;
    SettingSource baseUrlSource = SettingSource::Default;
    SettingSource apiVersionSource = SettingSource::Default;
};

/**
 * The one resolution of model, base URL and API version: command line > environment >
 * settings > default (Preference::resolve). `stored` null means no settings layer (the CLI
 * never reads the studio's settings file). The key: apiKeyFromEnvironment(), then
 * <homeDir>/gemini.key when homeDir is given (lookupApiKey).
 */
Connection resolveConnection(const QProcessEnvironment &env, const AppSettings *stored,
    const ConnectionChoices &commandLine = {}, const QString &homeDir = {});

} // namespace nb2
