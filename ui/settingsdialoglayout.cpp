#include "ui/settingsdialog.h"

// The settings dialog's widgets and layout, built once; settingsdialog.cpp keeps its behaviour
// (values in and out, the key store, validation).

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
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
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

/**
 * The scroll area of the settings groups. It asks for the whole height of its page at its width
 * (the page's heightForWidth: word-wrapped notes such as the price note take more lines when the
 * dialog is narrower) as long as the dialog then still fits on its screen, so the dialog opens
 * with nothing cut and scrolls only where the screen is too short for it (800×600,
 * QT_SCALE_FACTOR=2). Without it the dialog's minimum height came from the labels' one-line
 * minimums (a top-level layout ignores height-for-width there) and the price note at the bottom
 * of the Cost group was clipped.
 */
class FittedScrollArea : public QScrollArea
{
public:
    explicit FittedScrollArea(QWidget *parent) : QScrollArea(parent)
    {
        setFrameShape(QFrame::NoFrame);
        setWidgetResizable(true);
    }

    QSize minimumSizeHint() const override
    {
        const QWidget *page = widget();
        if (!page)
            return QScrollArea::minimumSizeHint();
        // Wide enough for the page and a vertical scroll bar: it never scrolls sideways.
        const int width = page->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width();
        return {width, std::min(pageHeight(), room())};
    }
    QSize sizeHint() const override
    {
        const QWidget *page = widget();
        if (!page)
            return QScrollArea::sizeHint();
        return {std::max(page->sizeHint().width(), minimumSizeHint().width()), minimumSizeHint().height()};
    }

protected:
    bool event(QEvent *event) override
    {
        // The page's layout changed (a note was shown or got longer): ask the dialog again.
        if (event->type() == QEvent::LayoutRequest)
            updateGeometry();
        return QScrollArea::event(event);
    }
    void resizeEvent(QResizeEvent *event) override
    {
        QScrollArea::resizeEvent(event);
        if (event->size().width() != event->oldSize().width())
            updateGeometry(); // the notes wrap anew at the new width
    }

private:
    /** The page's height at the width it gets (before the first layout: the width it asks for). */
    int pageHeight() const
    {
        const QWidget *page = widget();
        const int width = isVisible() ? this->width() : page->sizeHint().width();
        return page->hasHeightForWidth() ? page->heightForWidth(width) : page->sizeHint().height();
    }
    /** The height the dialog can give this area on its screen (fitToScreen's room, less the buttons). */
    int room() const
    {
        const QScreen *screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
        if (!screen)
            return QWIDGETSIZE_MAX;
        int others = 0;
        if (const QLayout *dialog = window()->layout()) {
            const QMargins m = dialog->contentsMargins();
            others = m.top() + m.bottom();
            for (int i = 0; i < dialog->count(); ++i) {
                const QLayoutItem *item = dialog->itemAt(i);
                if (item->widget() != this && !item->isEmpty())
                    others += item->sizeHint().height() + dialog->spacing();
            }
        }
        // The 40 pixels are fitToScreen's allowance for the window frame (ui/screenfit.cpp).
        return std::max(kMinimumRows * fontMetrics().height(), screen->availableGeometry().height() - 40 - others);
    }
    static constexpr int kMinimumRows = 6; // below this a scroll area is no use
};

} // namespace

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
    m_sessionsFolder->setPlaceholderText(displayPath(AppSettings::defaultSessionsFolder()));
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
    // A whole row, indented to the field column below (not a field beside an empty label):
    // QFormLayout measured a wrapped field's height at a narrower width than it then gave it,
    // so the note kept a blank third line under its two. Not AlignTop: QLabel would indent the
    // top edge too. The row is exactly as high as the text, so the text still starts at its top.
    m_pricesNote->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    costForm->addRow(m_pricesNote);

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
        m_pricesNote->setIndent(w + costForm->horizontalSpacing()); // where the fields start
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

    // The groups scroll (only on a screen too short for them); the error and the buttons stay put.
    auto *page = new QWidget(this);
    page->setObjectName(QStringLiteral("settingsPage"));
    auto *groups = new QVBoxLayout(page);
    groups->setContentsMargins(0, 0, 0, 0);
    groups->setSpacing(kSectionSpacing - 4);
    groups->addWidget(keyBox);
    groups->addWidget(connBox);
    groups->addWidget(reqBox);
    groups->addWidget(sesBox);
    groups->addWidget(costBox);
    groups->addStretch(1);
    auto *scroll = new FittedScrollArea(this);
    scroll->setObjectName(QStringLiteral("settingsScroll"));
    scroll->setWidget(page);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(kMargin + 4, kMargin + 4, kMargin + 4, kMargin);
    layout->setSpacing(kSectionSpacing - 4);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    nameLineEditClearButtons(this); // Qt makes them; screen readers need their names
}

} // namespace nb2
