#pragma once

#include "core/session/appsettings.h"
#include "ui/keystore.h"

#include <QDialog>
#include <QProcessEnvironment>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace nb2 {

/**
 * Edits the API key and the app's settings. The key is read and written through KeyStore
 * (desktop keychain, else ~/gemini.key with mode 0600 — the dialog says which); everything
 * else goes to QSettings through the typed tables (core/session/appsettings.h). Environment variables still win; the
 * dialog shows which ones are set. OK saves and closes only after the key store answered.
 */
class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    /** `keyStore` may be null (a default one is made); it is not owned otherwise. */
    explicit SettingsDialog(KeyStore *keyStore = nullptr,
        const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(), QWidget *parent = nullptr);
    ~SettingsDialog() override;

    /** The levels the default thinking level may take (the client's learned set). */
    void setThinkingLevels(const QStringList &levels);

    /** The values as the dialog shows them now. */
    AppSettings values() const;
    void setValues(const AppSettings &values);

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
    // The price table, one row at a time (every model can be edited, not only the chosen one).
    void fillPriceModels(const QString &select);
    void showPriceRow(const QString &model);
    void storeShownRates();

    KeyStore *m_keyStore = nullptr;
    QProcessEnvironment m_env;
    bool m_keyLoaded = false;
    bool m_keyEdited = false;
    bool m_saving = false;
    int m_readRequest = 0; // the store may be shared: only our own requests matter
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
    QDoubleSpinBox *m_budget = nullptr;
    QDoubleSpinBox *m_inputRate = nullptr;
    QDoubleSpinBox *m_outputRate = nullptr;
    QDoubleSpinBox *m_imageRate = nullptr;
    QLabel *m_pricesNote = nullptr;
    QComboBox *m_priceModel = nullptr; // which row of the price table the three rates show and edit
    PriceTable m_prices;               // the table as edited here: every row the user changed (values() returns it)
    QString m_shownPriceModel;         // the row the rate boxes show
    bool m_showingRates = false;       // the boxes are being filled, not edited
    QLabel *m_error = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace nb2
