#include "ui/settingsdialog.h"

#include "core/api/clientconfig.h"
#include "core/session/appsettings.h"
#include "ui/displaypath.h"
#include "ui/theme.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

namespace nb2 {

SettingsDialog::SettingsDialog(KeyStore *keyStore, const QProcessEnvironment &env, QWidget *parent)
    : QDialog(parent), m_keyStore(keyStore ? keyStore : new KeyStore(this)), m_env(env)
{
    setWindowTitle(tr("Settings"));
    setAccessibleName(tr("Settings"));
    buildUi();
    setValues(AppSettings::load(QSettings()));

    connect(m_keyStore, &KeyStore::finished, this, &SettingsDialog::onKeyStoreFinished);
    m_keyEdit->setEnabled(false);
    m_keyEdit->setPlaceholderText(tr("Reading the stored key…"));
    setKeyStatus(QStringLiteral("pending"), tr("Looking for a stored key…"), QColor());
    m_readRequest = m_keyStore->read();
}

SettingsDialog::~SettingsDialog() = default;

void SettingsDialog::setThinkingLevels(const QStringList &levels)
{
    const QString current = m_thinking->currentData().toString();
    m_thinking->clear();
    for (const QString &level : levels)
        m_thinking->addItem(level, level);
    if (!current.isEmpty()) {
        if (m_thinking->findData(current) < 0)
            m_thinking->addItem(current, current);
        m_thinking->setCurrentIndex(m_thinking->findData(current));
    }
}

AppSettings SettingsDialog::values() const
{
    AppSettings s;
    s.model = m_model->currentText().trimmed();
    s.baseUrl = m_baseUrl->text().trimmed();
    s.apiVersion = m_apiVersion->currentData().toString();
    s.thinkingLevel = m_thinking->currentData().toString();
    s.sessionsFolder = m_sessionsFolder->text().trimmed();
    s.session = SessionSettings::load(QSettings()); // keep the values this dialog does not show
    s.session.retentionPlan = m_tier->currentData().toString();
    s.session.customRetentionDays = m_customDays->value();
    s.session.concurrencyLimit = m_concurrency->value();
    s.session.budgetUsd = m_budget->value() < 0.01 ? 0 : m_budget->value();
    // Every row edited here (storeShownRates keeps them as they are typed).
    s.prices = m_prices;
    return s;
}

void SettingsDialog::setValues(const AppSettings &v)
{
    m_model->setCurrentText(v.model);
    m_baseUrl->setText(v.baseUrl);
    m_apiVersion->setCurrentIndex(std::max(0, m_apiVersion->findData(v.apiVersion)));
    if (m_thinking->findData(v.thinkingLevel) < 0)
        m_thinking->addItem(v.thinkingLevel, v.thinkingLevel);
    m_thinking->setCurrentIndex(m_thinking->findData(v.thinkingLevel));
    m_sessionsFolder->setText(v.sessionsFolder);
    m_tier->setCurrentIndex(std::max(0, m_tier->findData(v.session.retentionPlan)));
    m_customDays->setValue(v.session.customRetentionDays);
    m_customDays->setVisible(v.session.retentionPlan == QLatin1String("custom"));
    m_concurrency->setValue(v.session.concurrencyLimit);
    m_budget->setValue(v.session.budgetUsd);
    m_prices = v.prices;
    fillPriceModels(v.model);
}

void SettingsDialog::fillPriceModels(const QString &select)
{
    // The table's rows, and the chosen model when it has none (editing its rates adds a row).
    const QSignalBlocker blocker(m_priceModel);
    m_priceModel->clear();
    for (const ModelPrice &row : std::as_const(m_prices.models))
        m_priceModel->addItem(row.model, row.model);
    if (!select.isEmpty() && m_priceModel->findData(select) < 0)
        m_priceModel->addItem(tr("%1 (not in the table)").arg(select), select);
    const int i = m_priceModel->findData(select);
    m_priceModel->setCurrentIndex(i >= 0 ? i : 0);
    showPriceRow(m_priceModel->currentData().toString());
}

void SettingsDialog::showPriceRow(const QString &model)
{
    m_shownPriceModel = model;
    bool exact = false;
    const ModelPrice p = m_prices.priceFor(model, &exact);
    m_showingRates = true;
    m_inputRate->setValue(p.inputPerMTok);
    m_outputRate->setValue(p.outputPerMTok);
    m_imageRate->setValue(p.imageOutputPerMTok);
    m_showingRates = false;
    m_pricesNote->setText(tr("For %1; %2, as of %3.").arg(model, m_prices.source, m_prices.asOf)
        + (exact ? QString()
                 : QLatin1Char(' ')
                    + tr("This model is not in the table: the first model's prices are used until you change them.")));
}

void SettingsDialog::storeShownRates()
{
    if (m_showingRates || m_shownPriceModel.isEmpty())
        return;
    const ModelPrice shown {m_shownPriceModel, m_inputRate->value(), m_outputRate->value(), m_imageRate->value()};
    for (ModelPrice &row : m_prices.models) {
        if (row.model == m_shownPriceModel) {
            row = shown;
            return;
        }
    }
    // A model without a row gets one only when its rates differ from the fallback it was shown.
    ModelPrice fallback = m_prices.priceFor(m_shownPriceModel);
    fallback.model = m_shownPriceModel;
    if (!(shown == fallback))
        m_prices.models.append(shown);
}

void SettingsDialog::restoreDefaults()
{
    AppSettings d = AppSettings::defaults();
    d.session = SessionSettings();
    d.prices = PriceTable::defaults();
    setValues(d);
}

QString SettingsDialog::keyStatusText() const
{
    return m_keyStatus->text();
}

void SettingsDialog::setKeyStatus(const QString &iconName, const QString &text, const QColor &color)
{
    m_keyStatus->setText(text);
    // The keychain's own words (D-Bus, libsecret) are for whoever asks, not for the status line.
    m_keyStatus->setToolTip(m_keychainAvailable ? QString() : m_keychainErrorDetail);
    m_keyStatusIcon->setPixmap(themeIcon(iconName, color).pixmap(QSize(16, 16), devicePixelRatioF()));
}

void SettingsDialog::updateKeyStatus()
{
    if (!m_keyLoaded)
        return;
    const QString file = displayPath(m_keyStore->filePath());
    const bool fallback = !m_keychainAvailable;
    if (m_keyEdited) {
        if (m_keyEdit->text().trimmed().isEmpty()) {
            setKeyStatus(QStringLiteral("warning"),
                m_loadedKey.isEmpty() ? tr("No key: the app runs against the built-in demo backend.")
                                      : tr("The stored key will be deleted when you press OK."),
                themeColor(ThemeColor::Warning));
        } else if (fallback) {
            setKeyStatus(QStringLiteral("warning"),
                tr("%1, so the key will be saved to %2, readable only by you (mode 0600).")
                    .arg(keychainProblem(), file),
                themeColor(ThemeColor::Warning));
        } else {
            setKeyStatus(QStringLiteral("key"), tr("The key will be saved in the desktop keychain when you press OK."),
                QColor());
        }
        return;
    }
    if (m_loadedKey.isEmpty()) {
        if (fallback)
            setKeyStatus(QStringLiteral("info"),
                tr("No key stored. %1, so a key you enter is saved to %2, readable only by you (mode 0600).")
                    .arg(keychainProblem(), file),
                themeColor(ThemeColor::Info));
        else
            setKeyStatus(QStringLiteral("info"),
                tr("No key stored. Without one the app uses the built-in demo backend."), themeColor(ThemeColor::Info));
        return;
    }
    if (m_keyBackend == KeyStore::Backend::Keychain) {
        setKeyStatus(QStringLiteral("key"), tr("Stored in the desktop keychain."), themeColor(ThemeColor::Success));
    } else {
        QString text = fallback ? tr("Stored in %1 (mode 0600). %2.").arg(file, keychainProblem())
                                : tr("Stored in %1. Press OK to store it in the desktop keychain as well.").arg(file);
        if (!m_keyWarning.isEmpty())
            text += QLatin1Char(' ') + m_keyWarning;
        setKeyStatus(QStringLiteral("warning"), text, themeColor(ThemeColor::Warning));
    }
}

void SettingsDialog::onKeyStoreFinished(const KeyStore::Result &r)
{
    if (r.requestId != m_readRequest && r.requestId != m_saveRequest)
        return; // someone else's request on a shared store
    const bool keychainPromised = m_keychainAvailable;
    m_keychainAvailable = r.keychainAvailable;
    m_keychainError = r.keychainError;
    m_keychainErrorDetail = r.keychainErrorDetail;
    if (r.requestId == m_readRequest) {
        m_readRequest = 0;
        m_keyLoaded = true;
        m_keyEdit->setEnabled(true);
        m_keyEdit->setPlaceholderText(tr("Paste your Gemini API key"));
        if (!r.ok) {
            setKeyStatus(QStringLiteral("error"), r.error, themeColor(ThemeColor::Error));
            Q_EMIT keyLoaded();
            return;
        }
        m_loadedKey = r.found ? r.key : QString();
        m_keyBackend = r.found ? r.backend : KeyStore::Backend::None;
        m_keyWarning = r.warning;
        // A key moved from the fallback file into a working keychain counts as an edit.
        m_keyEdited = r.found && r.backend == KeyStore::Backend::File && r.keychainAvailable;
        m_keyEdit->setText(m_loadedKey);
        updateKeyStatus();
        Q_EMIT keyLoaded();
        return;
    }
    if (!m_saving)
        return;
    if (!r.ok) {
        setBusy(false);
        m_saving = false;
        m_error->setText(tr("The key was not saved: %1").arg(r.error));
        m_error->show();
        return;
    }
    m_keyBackend = r.operation == KeyStore::Operation::Write ? r.backend : KeyStore::Backend::None;
    if (keychainPromised && m_keyBackend == KeyStore::Backend::File) {
        // The dialog said "keychain" (it answered when the dialog opened), but it would not
        // take the key (e.g. it is locked) and the key went to the file. Saved, but not where
        // the user was told: stay open and say so; OK then closes.
        m_saving = false;
        setBusy(false);
        m_loadedKey = m_keyEdit->text().trimmed();
        m_keyEdited = false;
        updateKeyStatus();
        m_error->setText(
            tr("The desktop keychain did not take the key, so it was saved to %1 instead. Press OK to close.")
                .arg(displayPath(m_keyStore->filePath())));
        m_error->show();
        Q_EMIT settingsSaved(true);
        return;
    }
    finishAccept(true);
}

QString SettingsDialog::keychainProblem() const
{
    // The key store's reason ("The desktop keychain is locked", "No Secret Service keyring is
    // running", …); a generic line when it gave none.
    return m_keychainError.isEmpty() ? tr("No desktop keychain service is running") : m_keychainError;
}

QString SettingsDialog::validationError() const
{
    const QString model = m_model->currentText().trimmed();
    if (model.isEmpty())
        return tr("Enter a model name, e.g. %1.").arg(QString::fromLatin1(kDefaultModel));
    if (!appprefs::model.isValid(model))
        return tr("The model name “%1” contains characters a model name cannot have.").arg(model);
    const QString url = m_baseUrl->text().trimmed();
    if (!url.isEmpty()) {
        if (!appprefs::baseUrl.isValid(url))
            return tr("The base URL “%1” is not a valid http(s) address.").arg(url);
        if (const Result<void> secure = checkTransportSecurity(url); !secure)
            return secure.error().message;
    }
    const QString folder = m_sessionsFolder->text().trimmed();
    if (!appprefs::sessionsFolder.isValid(folder))
        return tr("The sessions folder must be an absolute path.");
    const QString key = m_keyEdit->text().trimmed();
    if (m_keyEdited && key.contains(QLatin1Char(' ')))
        return tr("The API key contains spaces; paste just the key.");
    return {};
}

void SettingsDialog::setBusy(bool busy)
{
    m_buttons->setEnabled(!busy);
    m_keyEdit->setEnabled(!busy);
    m_removeKeyButton->setEnabled(!busy);
    if (busy)
        setKeyStatus(QStringLiteral("pending"), tr("Saving the key…"), QColor());
}

void SettingsDialog::accept()
{
    if (m_saving)
        return;
    const QString problem = validationError();
    if (!problem.isEmpty()) {
        m_error->setText(problem);
        m_error->show();
        return;
    }
    m_error->hide();

    QSettings settings;
    values().save(settings);
    settings.sync();

    const QString key = m_keyEdit->text().trimmed();
    const bool keyChanged = m_keyLoaded && m_keyEdited && key != m_loadedKey;
    const bool moveToKeychain = m_keyLoaded && m_keyEdited && !key.isEmpty() && m_keyBackend == KeyStore::Backend::File
        && m_keychainAvailable;
    if (!keyChanged && !moveToKeychain) {
        finishAccept(false);
        return;
    }
    m_saving = true;
    setBusy(true);
    m_saveRequest = key.isEmpty() ? m_keyStore->remove() : m_keyStore->write(key);
}

void SettingsDialog::finishAccept(bool keyChanged)
{
    m_saving = false;
    setBusy(false);
    Q_EMIT settingsSaved(keyChanged);
    QDialog::accept();
}

} // namespace nb2
