#include "ui/settingsdialog.h"

#include "core/api/clientconfig.h"
#include "core/session/appsettings.h"
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

namespace {

QLabel *makeNote(QWidget *parent)
{
    QLabel *label = makeNoteLabel(parent);
    label->hide(); // shown only while an environment variable overrides the setting
    return label;
}

/** Shows the note under a field while the setting's environment variable overrides it. */
void showEnvironmentNote(QLabel *note, const Preference<QString> &preference, const QProcessEnvironment &env)
{
    if (const std::optional<QString> value = environmentOverride(env, preference.environmentVariable)) {
        note->setText(SettingsDialog::tr("%1=%2 from the environment overrides this.")
                          .arg(QString::fromLatin1(preference.environmentVariable), *value));
        note->show();
    }
}

QString tildePath(const QString &path)
{
    const QString home = QDir::homePath();
    if (path.startsWith(home + QLatin1Char('/')))
        return QStringLiteral("~") + path.mid(home.size());
    return QDir::toNativeSeparators(path);
}

} // namespace

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

void SettingsDialog::buildUi()
{
    using namespace ThemeMetrics;
    // A label whose mnemonic focuses its field even when the field sits in a sub-layout.
    auto buddyLabel = [this](const QString &text, QWidget *buddy) {
        auto *label = new QLabel(text, this);
        label->setBuddy(buddy);
        return label;
    };

    // --- API key -----------------------------------------------------------------------
    auto *keyBox = new QGroupBox(tr("Gemini API key"), this);
    m_keyEdit = new QLineEdit(keyBox);
    m_keyEdit->setObjectName(QStringLiteral("apiKeyEdit"));
    m_keyEdit->setEchoMode(QLineEdit::Password);
    m_keyEdit->setClearButtonEnabled(false);
    m_keyEdit->setAccessibleName(tr("API key"));
    m_keyEdit->setToolTip(tr("Your Gemini API key. Stored in the desktop keychain, never in the settings file."));
    m_keyEdit->setMinimumWidth(320);
    // No input method, completion or undo history should keep a copy of a secret.
    m_keyEdit->setAttribute(Qt::WA_InputMethodEnabled, false);
    connect(m_keyEdit, &QLineEdit::textEdited, this, [this] {
        m_keyEdited = true;
        updateKeyStatus();
    });

    m_showKeyAction = m_keyEdit->addAction(themeIcon(QStringLiteral("show")), QLineEdit::TrailingPosition);
    m_showKeyAction->setCheckable(true);
    m_showKeyAction->setText(tr("Show key"));
    m_showKeyAction->setToolTip(tr("Show the key"));
    connect(m_showKeyAction, &QAction::toggled, this, [this](bool shown) {
        m_keyEdit->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password);
        m_showKeyAction->setIcon(themeIcon(shown ? QStringLiteral("hide") : QStringLiteral("show")));
        m_showKeyAction->setText(shown ? tr("Hide key") : tr("Show key"));
        m_showKeyAction->setToolTip(shown ? tr("Hide the key") : tr("Show the key"));
        for (auto *b : m_keyEdit->findChildren<QToolButton *>())
            b->setAccessibleName(m_showKeyAction->text());
    });
    for (auto *b : m_keyEdit->findChildren<QToolButton *>())
        b->setAccessibleName(m_showKeyAction->text());

    m_removeKeyButton = new QPushButton(themeIcon(QStringLiteral("delete")), tr("Forget Key"), keyBox);
    m_removeKeyButton->setObjectName(QStringLiteral("removeKeyButton"));
    m_removeKeyButton->setToolTip(
        tr("Clear the field; OK then deletes the stored key from the keychain and ~/gemini.key"));
    m_removeKeyButton->setAccessibleName(tr("Forget the stored key"));
    connect(m_removeKeyButton, &QPushButton::clicked, this, [this] {
        m_keyEdit->clear();
        m_keyEdited = true;
        updateKeyStatus();
        m_keyEdit->setFocus();
    });

    auto *keyRow = new QHBoxLayout;
    keyRow->setSpacing(kSpacing);
    keyRow->addWidget(m_keyEdit, 1);
    keyRow->addWidget(m_removeKeyButton);

    m_keyStatusIcon = new QLabel(keyBox);
    m_keyStatusIcon->setFixedSize(16, 16);
    m_keyStatus = new QLabel(keyBox);
    m_keyStatus->setObjectName(QStringLiteral("keyStatus"));
    m_keyStatus->setWordWrap(true);
    m_keyStatus->setTextFormat(Qt::PlainText);
    m_keyStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *statusRow = new QHBoxLayout;
    statusRow->setSpacing(6);
    statusRow->addWidget(m_keyStatusIcon, 0, Qt::AlignTop);
    statusRow->addWidget(m_keyStatus, 1);

    m_envKeyNote = makeNote(keyBox);
    m_envKeyNote->setObjectName(QStringLiteral("envKeyNote"));
    // Which variable supplies the key, never its value.
    const QString envKey = apiKeyFromEnvironment(m_env).source();
    if (!envKey.isEmpty()) {
        m_envKeyNote->setText(
            tr("%1 from the environment overrides this. The stored key is used when it is unset.").arg(envKey));
        m_envKeyNote->show();
    }

    auto *keyLink = new QLabel(
        tr("Get a key at <a href=\"https://aistudio.google.com/apikey\">aistudio.google.com/apikey</a>."), keyBox);
    keyLink->setOpenExternalLinks(true);
    keyLink->setTextInteractionFlags(Qt::TextBrowserInteraction);

    auto *keyLayout = new QVBoxLayout(keyBox);
    keyLayout->setSpacing(kSpacing);
    keyLayout->addLayout(keyRow);
    keyLayout->addLayout(statusRow);
    keyLayout->addWidget(m_envKeyNote);
    keyLayout->addWidget(keyLink);

    // --- Connection --------------------------------------------------------------------
    auto *connBox = new QGroupBox(tr("Connection"), this);
    auto *connForm = new QFormLayout(connBox);
    connForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    connForm->setHorizontalSpacing(kSpacing + 4);
    connForm->setVerticalSpacing(kSpacing);

    m_model = new QComboBox(connBox);
    m_model->setObjectName(QStringLiteral("modelEdit"));
    m_model->setEditable(true);
    m_model->addItem(QString::fromLatin1(kDefaultModel));
    m_model->setAccessibleName(tr("Model"));
    m_model->setToolTip(tr("The image model every new request uses"));
    m_envModelNote = makeNote(connBox);
    showEnvironmentNote(m_envModelNote, appprefs::model, m_env);
    auto *modelCol = new QVBoxLayout;
    modelCol->setSpacing(2);
    modelCol->addWidget(m_model);
    modelCol->addWidget(m_envModelNote);
    connForm->addRow(buddyLabel(tr("&Model:"), m_model), modelCol);

    m_baseUrl = new QLineEdit(connBox);
    m_baseUrl->setObjectName(QStringLiteral("baseUrlEdit"));
    m_baseUrl->setPlaceholderText(QString::fromLatin1(kDefaultBaseUrl));
    m_baseUrl->setAccessibleName(tr("Base URL"));
    m_baseUrl->setToolTip(
        tr("Leave empty for Google's endpoint. Plain http is accepted only for this computer (127.0.0.1)."));
    m_baseUrl->setClearButtonEnabled(true);
    m_envBaseUrlNote = makeNote(connBox);
    showEnvironmentNote(m_envBaseUrlNote, appprefs::baseUrl, m_env);
    auto *urlCol = new QVBoxLayout;
    urlCol->setSpacing(2);
    urlCol->addWidget(m_baseUrl);
    urlCol->addWidget(m_envBaseUrlNote);
    connForm->addRow(buddyLabel(tr("&Base URL:"), m_baseUrl), urlCol);

    m_apiVersion = new QComboBox(connBox);
    m_apiVersion->setObjectName(QStringLiteral("apiVersionCombo"));
    m_apiVersion->addItem(tr("v1 (stable)"), QStringLiteral("v1"));
    m_apiVersion->addItem(tr("v1beta"), QStringLiteral("v1beta"));
    m_apiVersion->setAccessibleName(tr("API version"));
    m_apiVersion->setToolTip(tr("The Interactions API version in the request path"));
    connForm->addRow(tr("API &version:"), m_apiVersion);

    // --- Requests ----------------------------------------------------------------------
    auto *reqBox = new QGroupBox(tr("Requests"), this);
    auto *reqForm = new QFormLayout(reqBox);
    reqForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    reqForm->setHorizontalSpacing(kSpacing + 4);
    reqForm->setVerticalSpacing(kSpacing);

    m_tier = new QComboBox(reqBox);
    m_tier->setObjectName(QStringLiteral("tierCombo"));
    m_tier->addItem(tr("Paid — server keeps interactions 55 days"), QStringLiteral("paid"));
    m_tier->addItem(tr("Free — server keeps interactions 1 day"), QStringLiteral("free"));
    m_tier->addItem(tr("Custom"), QStringLiteral("custom"));
    m_tier->setAccessibleName(tr("Key tier"));
    m_tier->setToolTip(tr("How long the server keeps interaction ids. Frames whose id has expired are re-anchored from "
                          "the local image."));
    m_customDays = new QSpinBox(reqBox);
    m_customDays->setObjectName(QStringLiteral("customDaysSpin"));
    m_customDays->setRange(1, 3650);
    m_customDays->setSuffix(tr(" days"));
    m_customDays->setAccessibleName(tr("Custom retention in days"));
    m_customDays->setToolTip(tr("How many days the server keeps interactions for your key"));
    connect(m_tier, &QComboBox::currentIndexChanged, this,
        [this] { m_customDays->setVisible(m_tier->currentData().toString() == QLatin1String("custom")); });
    auto *tierRow = new QHBoxLayout;
    tierRow->setSpacing(kSpacing);
    tierRow->addWidget(m_tier, 1);
    tierRow->addWidget(m_customDays);
    reqForm->addRow(buddyLabel(tr("Key &tier:"), m_tier), tierRow);

    m_concurrency = new QSpinBox(reqBox);
    m_concurrency->setObjectName(QStringLiteral("concurrencySpin"));
    m_concurrency->setRange(1, 16);
    m_concurrency->setMaximumWidth(120);
    m_concurrency->setAccessibleName(tr("Parallel requests"));
    m_concurrency->setToolTip(tr("How many requests may run at the same time; the rest wait in line"));
    reqForm->addRow(tr("&Parallel requests:"), m_concurrency);

    m_thinking = new QComboBox(reqBox);
    m_thinking->setObjectName(QStringLiteral("thinkingCombo"));
    m_thinking->setAccessibleName(tr("Default thinking level"));
    m_thinking->setToolTip(tr("The thinking level new prompts start with; the model may accept only some levels"));
    setThinkingLevels({QStringLiteral("low"), QStringLiteral("high")});
    reqForm->addRow(tr("Default &thinking:"), m_thinking);

    // --- Sessions ----------------------------------------------------------------------
    auto *sesBox = new QGroupBox(tr("Sessions"), this);
    auto *sesForm = new QFormLayout(sesBox);
    sesForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    sesForm->setHorizontalSpacing(kSpacing + 4);
    m_sessionsFolder = new QLineEdit(sesBox);
    m_sessionsFolder->setObjectName(QStringLiteral("sessionsFolderEdit"));
    m_sessionsFolder->setPlaceholderText(tildePath(AppSettings::defaultSessionsFolder()));
    m_sessionsFolder->setAccessibleName(tr("Sessions folder"));
    m_sessionsFolder->setToolTip(tr("Where new sessions are created. Leave empty for the default."));
    auto *browse = new QPushButton(themeIcon(QStringLiteral("folder")), tr("Browse…"), sesBox);
    browse->setAccessibleName(tr("Choose the sessions folder"));
    browse->setToolTip(tr("Choose the folder for new sessions"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString start
            = m_sessionsFolder->text().isEmpty() ? AppSettings::defaultSessionsFolder() : m_sessionsFolder->text();
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Sessions Folder"), start);
        if (!dir.isEmpty())
            m_sessionsFolder->setText(QDir::cleanPath(dir));
    });
    auto *folderRow = new QHBoxLayout;
    folderRow->setSpacing(kSpacing);
    folderRow->addWidget(m_sessionsFolder, 1);
    folderRow->addWidget(browse);
    sesForm->addRow(buddyLabel(tr("&Folder:"), m_sessionsFolder), folderRow);

    // --- Cost: the session budget and the prices (an estimate, kept here, never in sessions) ---
    auto *costBox = new QGroupBox(tr("Cost (estimate)"), this);
    auto *costForm = new QFormLayout(costBox);
    costForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    costForm->setHorizontalSpacing(kSpacing + 4);
    m_budget = new QDoubleSpinBox(costBox);
    m_budget->setObjectName(QStringLiteral("budgetSpin"));
    m_budget->setRange(0, 100000);
    m_budget->setDecimals(2);
    m_budget->setPrefix(QStringLiteral("$"));
    m_budget->setSpecialValueText(tr("No budget"));
    m_budget->setMaximumWidth(160);
    m_budget->setAccessibleName(tr("Session budget in US dollars"));
    m_budget->setToolTip(
        tr("A turn that would take a session's estimated cost over this is refused before anything is sent"));
    costForm->addRow(buddyLabel(tr("Session &budget:"), m_budget), m_budget);
    auto rateSpin = [costBox](const char *name, const QString &accessible) {
        auto *spin = new QDoubleSpinBox(costBox);
        spin->setObjectName(QLatin1String(name));
        spin->setRange(0, 10000);
        spin->setDecimals(3);
        spin->setPrefix(QStringLiteral("$"));
        spin->setAccessibleName(accessible);
        return spin;
    };
    m_inputRate = rateSpin("inputRateSpin", tr("Input price per million tokens"));
    m_inputRate->setToolTip(tr("US dollars per million input tokens (prompt and input images)"));
    m_outputRate = rateSpin("outputRateSpin", tr("Text and thinking output price per million tokens"));
    m_outputRate->setToolTip(tr("US dollars per million tokens of text output and thinking"));
    m_imageRate = rateSpin("imageRateSpin", tr("Image output price per million tokens"));
    m_imageRate->setToolTip(tr("US dollars per million image output tokens (a 1K image is about 1,120 tokens)"));
    m_priceModel = new QComboBox(costBox);
    m_priceModel->setObjectName(QStringLiteral("priceModelCombo"));
    m_priceModel->setAccessibleName(tr("Model whose prices are shown"));
    m_priceModel->setToolTip(tr("Every model in the price table can be edited; the chosen model is selected first"));
    costForm->addRow(buddyLabel(tr("&Prices for:"), m_priceModel), m_priceModel);
    connect(m_priceModel, &QComboBox::currentIndexChanged, this,
        [this] { showPriceRow(m_priceModel->currentData().toString()); });
    for (QDoubleSpinBox *spin : {m_inputRate, m_outputRate, m_imageRate})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &SettingsDialog::storeShownRates);
    // Choosing another model shows its prices at once (not the ones of the model loaded).
    connect(m_model, &QComboBox::currentTextChanged, this, [this](const QString &text) {
        if (m_priceModel->count() > 0)
            fillPriceModels(text.trimmed());
    });
    auto *rates = new QHBoxLayout;
    rates->setSpacing(kSpacing);
    for (auto [spin, text] : {std::pair {m_inputRate, tr("in")}, std::pair {m_outputRate, tr("out")},
             std::pair {m_imageRate, tr("image")}}) {
        rates->addWidget(new QLabel(text, costBox));
        rates->addWidget(spin, 1);
    }
    costForm->addRow(tr("Prices per 1M tokens:"), rates);
    m_pricesNote = new QLabel(costBox);
    m_pricesNote->setObjectName(QStringLiteral("pricesNote"));
    m_pricesNote->setWordWrap(true);
    costForm->addRow(QString(), m_pricesNote);

    // Same label column width in every group, so the fields line up down the dialog.
    {
        int w = 0;
        for (QFormLayout *f : {connForm, reqForm, sesForm, costForm}) {
            for (int row = 0; row < f->rowCount(); ++row) {
                if (auto *item = f->itemAt(row, QFormLayout::LabelRole); item && item->widget())
                    w = std::max(w, item->widget()->sizeHint().width());
            }
        }
        for (QFormLayout *f : {connForm, reqForm, sesForm, costForm}) {
            for (int row = 0; row < f->rowCount(); ++row) {
                if (auto *item = f->itemAt(row, QFormLayout::LabelRole); item && item->widget())
                    item->widget()->setMinimumWidth(w);
            }
        }
    }

    // --- Buttons -----------------------------------------------------------------------
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("errorLabel"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    {
        QPalette pal = m_error->palette();
        pal.setColor(QPalette::WindowText, themeColor(ThemeColor::Error));
        m_error->setPalette(pal);
    }
    m_error->hide();

    m_buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    auto *ok = m_buttons->button(QDialogButtonBox::Ok);
    ok->setToolTip(tr("Save the settings and close"));
    ok->setAccessibleName(tr("Save settings"));
    auto *cancel = m_buttons->button(QDialogButtonBox::Cancel);
    cancel->setToolTip(tr("Close without saving"));
    cancel->setAccessibleName(tr("Cancel"));
    auto *defaults = m_buttons->button(QDialogButtonBox::RestoreDefaults);
    defaults->setToolTip(tr("Put every setting except the key back to its default"));
    defaults->setAccessibleName(tr("Restore defaults"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    connect(defaults, &QPushButton::clicked, this, &SettingsDialog::restoreDefaults);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(kMargin + 4, kMargin + 4, kMargin + 4, kMargin);
    layout->setSpacing(kSectionSpacing - 4);
    layout->addWidget(keyBox);
    layout->addWidget(connBox);
    layout->addWidget(reqBox);
    layout->addWidget(sesBox);
    layout->addWidget(costBox);
    layout->addStretch(1);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    setMinimumWidth(560);

    // Line-edit icon buttons (clear, show key) are made by Qt; give them names too.
    for (auto *edit : findChildren<QLineEdit *>()) {
        for (auto *b : edit->findChildren<QToolButton *>()) {
            if (b->accessibleName().isEmpty()) {
                b->setAccessibleName(tr("Clear"));
                b->setToolTip(tr("Clear the field"));
            }
        }
    }
}

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
    const QString file = tildePath(m_keyStore->filePath());
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
                .arg(tildePath(m_keyStore->filePath())));
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
