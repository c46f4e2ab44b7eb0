#pragma once

#include "core/session/sessionsettings.h"
#include "ui/keystore.h"

#include <QDialog>
#include <QProcessEnvironment>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace nb2 {

struct ClientConfig;

/**
 * The desktop app's connection settings, as typed preferences (key, default, validation)
 * beside core's session table. They live here until core/session's table grows them.
 */
namespace studioprefs {
extern const Preference<QString> model;          // "api/model": gemini-3.1-flash-lite-image
extern const Preference<QString> baseUrl;        // "api/baseUrl": "" = production
extern const Preference<QString> apiVersion;     // "api/version": "v1" | "v1beta"
extern const Preference<QString> thinkingLevel;  // "api/defaultThinkingLevel": "low"
extern const Preference<QString> sessionsFolder; // "session/folder": "" = defaultSessionsFolder()
QStringList keys();
} // namespace studioprefs

/** Every non-secret setting the Settings dialog edits, as one value. */
struct StudioSettings {
    QString model;
    QString baseUrl;        // empty: production (or GOOGLE_GEMINI_BASE_URL)
    QString apiVersion;
    QString thinkingLevel;
    QString sessionsFolder; // empty: defaultSessionsFolder()
    SessionSettings session;

    static StudioSettings load(const QSettings &settings);
    void save(QSettings &settings) const;
    static StudioSettings defaults();
    /** <Documents>/NB2Lite Sessions */
    static QString defaultSessionsFolder();
    QString effectiveSessionsFolder() const;

    /** The client config these settings describe. Environment variables win, as in the CLI:
     *  GOOGLE_GEMINI_BASE_URL, GEMINI_MODEL_NAME, GEMINI_API_KEY / GOOGLE_API_KEY; then
     *  `storedKey` (from KeyStore), labelled with `storedKeySource`. */
    ClientConfig clientConfig(const QProcessEnvironment &env, const QString &storedKey,
                              const QString &storedKeySource) const;
};

/**
 * Edits the API key and the app's settings. The key is read and written through KeyStore
 * (desktop keychain, else ~/gemini.key with mode 0600 — the dialog says which); everything
 * else goes to QSettings through the typed tables. Environment variables still win; the
 * dialog shows which ones are set. OK saves and closes only after the key store answered.
 */
class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    /** `keyStore` may be null (a default one is made); it is not owned otherwise. */
    explicit SettingsDialog(KeyStore *keyStore = nullptr,
                            const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                            QWidget *parent = nullptr);
    ~SettingsDialog() override;

    /** The levels the default thinking level may take (the client's learned set). */
    void setThinkingLevels(const QStringList &levels);

    /** The values as the dialog shows them now. */
    StudioSettings values() const;
    void setValues(const StudioSettings &values);

    /** Status line under the key field ("Stored in the desktop keychain", fallback notice, ...). */
    QString keyStatusText() const;
    bool isKeyLoaded() const { return m_keyLoaded; }
    KeyStore::Backend keyBackend() const { return m_keyBackend; }

public Q_SLOTS:
    void accept() override;
    void restoreDefaults();

Q_SIGNALS:
    /** The key finished loading into the field (tests and callers wait for this). */
    void keyLoaded();
    /** Settings were saved (after OK); `keyChanged` says whether the stored key changed. */
    void settingsSaved(bool keyChanged);

private:
    void buildUi();
    void onKeyStoreFinished(const KeyStore::Result &result);
    void setKeyStatus(const QString &iconName, const QString &text, const QColor &color);
    /** Why the key cannot go into the keychain, for the status line. */
    QString keychainProblem() const;
    void updateKeyStatus();
    QString validationError() const;
    void finishAccept(bool keyChanged);
    void setBusy(bool busy);

    KeyStore *m_keyStore = nullptr;
    QProcessEnvironment m_env;
    bool m_keyLoaded = false;
    bool m_keyEdited = false;
    bool m_saving = false;
    int m_readRequest = 0;  // the store may be shared: only our own requests matter
    int m_saveRequest = 0;
    QString m_loadedKey;
    KeyStore::Backend m_keyBackend = KeyStore::Backend::None;
    bool m_keychainAvailable = false;
    QString m_keychainError;
    QString m_keychainErrorDetail;
    QString m_keyWarning;

    QLineEdit *m_keyEdit = nullptr;
    QAction *m_showKeyAction = nullptr;
    QPushButton *m_removeKeyButton = nullptr;
    QLabel *m_keyStatusIcon = nullptr;
    QLabel *m_keyStatus = nullptr;
    QLabel *m_envKeyNote = nullptr;
    QComboBox *m_model = nullptr;
    QLabel *m_envModelNote = nullptr;
    QLineEdit *m_baseUrl = nullptr;
    QLabel *m_envBaseUrlNote = nullptr;
    QComboBox *m_apiVersion = nullptr;
    QComboBox *m_tier = nullptr;
    QSpinBox *m_customDays = nullptr;
    QSpinBox *m_concurrency = nullptr;
    QComboBox *m_thinking = nullptr;
    QLineEdit *m_sessionsFolder = nullptr;
    QLabel *m_error = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace nb2
