#include "ui/exportdialog.h"

// The export dialog's widgets and layout: built once, here, so that exportdialog.cpp reads as
// the dialog's behaviour (choices, state, preview, running) without 200 lines of layout first.

#include "ui/bannerwidget.h"
#include "ui/theme.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace nb2 {

void ExportDialog::buildUi()
{
    using namespace ThemeMetrics;
    // --- Format ------------------------------------------------------------------------
    auto *formatBox = new QGroupBox(tr("Format"), this);
    m_format = new QComboBox(formatBox);
    m_format->setObjectName(QStringLiteral("formatCombo"));
    m_format->setAccessibleName(tr("Export format"));
    m_format->setToolTip(tr("What kind of export to make"));
    m_format->addItem(themeIcon(QStringLiteral("export")), tr("HTML history (folder)"), int(Choice::HtmlPage));
    m_format->addItem(
        themeIcon(QStringLiteral("export")), tr("HTML history (single file)"), int(Choice::HtmlSingleFile));
    m_format->addItem(themeIcon(QStringLiteral("copy")), tr("Session bundle (.nb2session)"), int(Choice::Bundle));
    m_format->addItem(themeIcon(QStringLiteral("image")), tr("Contact sheet (PNG)"), int(Choice::ContactSheet));
    m_format->addItem(themeIcon(QStringLiteral("image")), tr("Frames (image files)"), int(Choice::Frames));
    m_formatNote = makeNoteLabel(formatBox);
    m_formatNote->setObjectName(QStringLiteral("formatNote"));
    auto *formatLayout = new QVBoxLayout(formatBox);
    formatLayout->setSpacing(kSpacing / 2);
    formatLayout->addWidget(m_format);
    formatLayout->addWidget(m_formatNote);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::onFormatChanged);

    // --- Scope -------------------------------------------------------------------------
    auto *scopeBox = new QGroupBox(tr("Frames to export"), this);
    m_scopeSession = new QRadioButton(scopeBox);
    m_scopeSession->setObjectName(QStringLiteral("scopeSession"));
    m_scopeSession->setAccessibleName(tr("Whole session"));
    m_scopeSession->setToolTip(tr("Every branch of the session"));
    m_scopeBranch = new QRadioButton(scopeBox);
    m_scopeBranch->setObjectName(QStringLiteral("scopeBranch"));
    m_scopeBranch->setAccessibleName(tr("Current branch"));
    m_scopeSelected = new QRadioButton(scopeBox);
    m_scopeSelected->setObjectName(QStringLiteral("scopeSelected"));
    m_scopeSelected->setAccessibleName(tr("Selected frames"));
    m_scopeGroup = new QButtonGroup(this);
    m_scopeGroup->addButton(m_scopeSession, int(ScopeChoice::Session));
    m_scopeGroup->addButton(m_scopeBranch, int(ScopeChoice::Branch));
    m_scopeGroup->addButton(m_scopeSelected, int(ScopeChoice::Selected));
    m_scopeSession->setChecked(true);
    m_scopeNote = makeNoteLabel(scopeBox);
    m_scopeNote->setObjectName(QStringLiteral("scopeNote"));
    auto *scopeLayout = new QVBoxLayout(scopeBox);
    scopeLayout->setSpacing(kSpacing / 2);
    scopeLayout->addWidget(m_scopeSession);
    scopeLayout->addWidget(m_scopeBranch);
    scopeLayout->addWidget(m_scopeSelected);
    scopeLayout->addWidget(m_scopeNote);
    connect(m_scopeGroup, &QButtonGroup::idToggled, this, [this](int, bool checked) {
        if (checked)
            updateState();
    });

    // --- Output ------------------------------------------------------------------------
    auto *outputBox = new QGroupBox(tr("Save to"), this);
    m_output = new QLineEdit(outputBox);
    m_output->setObjectName(QStringLiteral("outputEdit"));
    m_output->setAccessibleName(tr("Output path"));
    m_output->setMinimumWidth(300);
    m_browse = new QPushButton(themeIcon(QStringLiteral("folder")), tr("Browse…"), outputBox);
    m_browse->setObjectName(QStringLiteral("browseButton"));
    m_browse->setAccessibleName(tr("Choose the output location"));
    m_browse->setToolTip(tr("Choose where the export is saved"));
    connect(m_browse, &QPushButton::clicked, this, &ExportDialog::browse);
    auto *outputRow = new QHBoxLayout;
    outputRow->setSpacing(kSpacing);
    outputRow->addWidget(m_output, 1);
    outputRow->addWidget(m_browse);
    m_outputNote = makeNoteLabel(outputBox);
    m_outputNote->setObjectName(QStringLiteral("outputNote"));
    auto *outputLayout = new QVBoxLayout(outputBox);
    outputLayout->setSpacing(kSpacing / 2);
    outputLayout->addLayout(outputRow);
    outputLayout->addWidget(m_outputNote);
    connect(m_output, &QLineEdit::textChanged, this, &ExportDialog::updateState);

    // --- Options -----------------------------------------------------------------------
    auto *optionsBox = new QGroupBox(tr("Options"), this);
    m_stripPrompts = new QCheckBox(tr("Strip prompts"), optionsBox);
    m_stripPrompts->setObjectName(QStringLiteral("stripPrompts"));
    m_stripPrompts->setAccessibleName(tr("Strip prompts"));
    m_stripPrompts->setToolTip(
        tr("Leave prompts and the model's text out of the export and of the images' provenance record"));
    m_stripIds = new QCheckBox(tr("Strip ids"), optionsBox);
    m_stripIds->setObjectName(QStringLiteral("stripIds"));
    m_stripIds->setAccessibleName(tr("Strip ids"));
    m_stripIds->setToolTip(tr("Leave frame ids, interaction ids and the parent image hash out. "
                              "Without an interaction id an imported image cannot continue its chain on the server."));
    m_stripCost = new QCheckBox(tr("Strip cost"), optionsBox);
    m_stripCost->setObjectName(QStringLiteral("stripCost"));
    m_stripCost->setAccessibleName(tr("Strip cost"));
    m_stripCost->setToolTip(tr("Leave the estimated cost (per frame and the total) out of the web page"));
    m_includeFailed = new QCheckBox(tr("Include failed turns"), optionsBox);
    m_includeFailed->setObjectName(QStringLiteral("includeFailed"));
    m_includeFailed->setAccessibleName(tr("Include failed turns"));
    m_includeFailed->setChecked(true);
    m_copyImages = new QCheckBox(tr("Copy images (instead of hard links)"), optionsBox);
    m_copyImages->setObjectName(QStringLiteral("copyImages"));
    m_copyImages->setAccessibleName(tr("Copy images instead of hard-linking them"));
    // A hard link shares the bytes with the session: editing the exported file in place
    // would change the session's original too. Copying is the safe default here.
    m_copyImages->setChecked(true);
    auto *optionsLayout = new QVBoxLayout(optionsBox);
    optionsLayout->setSpacing(kSpacing / 2);
    optionsLayout->addWidget(m_stripPrompts);
    optionsLayout->addWidget(m_stripIds);
    optionsLayout->addWidget(m_stripCost);
    optionsLayout->addWidget(m_includeFailed);
    optionsLayout->addWidget(m_copyImages);
    for (QCheckBox *box : {m_stripPrompts, m_stripIds, m_stripCost, m_includeFailed, m_copyImages})
        connect(box, &QCheckBox::toggled, this, &ExportDialog::updateState);

    // --- Preview -----------------------------------------------------------------------
    auto *previewBox = new QGroupBox(tr("What the export carries"), this);
    m_previewHeading = new QLabel(previewBox);
    m_previewHeading->setObjectName(QStringLiteral("previewHeading"));
    m_previewHeading->setWordWrap(true);
    m_previewHeading->setTextFormat(Qt::PlainText);
    m_preview = new QTableWidget(0, 2, previewBox);
    m_preview->setObjectName(QStringLiteral("previewFields"));
    m_preview->setAccessibleName(tr("Fields written by the export"));
    m_preview->setToolTip(tr("Exactly the fields this export will write, for the frame named above"));
    m_preview->setHorizontalHeaderLabels({tr("Field"), tr("Value")});
    m_preview->verticalHeader()->hide();
    m_preview->setShowGrid(false);
    m_preview->setAlternatingRowColors(true);
    m_preview->setSelectionMode(QAbstractItemView::NoSelection);
    m_preview->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_preview->setFocusPolicy(Qt::TabFocus);
    m_preview->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    // Long values (prompt chains, hashes) wrap instead of eliding: the point is to see them.
    m_preview->setWordWrap(true);
    m_preview->setTextElideMode(Qt::ElideNone);
    m_preview->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_preview->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_preview->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    connect(m_preview->horizontalHeader(), &QHeaderView::sectionResized, m_preview,
        [this] { m_preview->resizeRowsToContents(); });
    m_preview->setMinimumWidth(360);
    m_previewNote = makeNoteLabel(previewBox);
    m_previewNote->setObjectName(QStringLiteral("previewNote"));
    auto *previewLayout = new QVBoxLayout(previewBox);
    previewLayout->setSpacing(kSpacing);
    previewLayout->addWidget(m_previewHeading);
    previewLayout->addWidget(m_preview, 1);
    previewLayout->addWidget(m_previewNote);

    // --- Progress, result and buttons --------------------------------------------------
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("exportProgress"));
    m_progress->setAccessibleName(tr("Export in progress"));
    m_progress->setRange(0, 0); // the exporters report no steps: a busy bar, honestly
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(8);
    m_progress->hide();
    m_banner = new BannerWidget(this);
    m_banner->setObjectName(QStringLiteral("exportBanner"));
    m_banner->setAccessibleName(tr("Export result"));
    m_banner->setCloseButtonVisible(true);
    m_banner->hide();
    connect(m_banner, &BannerWidget::actionTriggered, this, [this] { QDesktopServices::openUrl(resultUrl()); });
    connect(m_banner, &BannerWidget::linkActivated, this,
        [this](const QString &) { QDesktopServices::openUrl(resultFolderUrl()); });

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_exportButton = m_buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
    m_exportButton->setObjectName(QStringLiteral("exportButton"));
    m_exportButton->setIcon(themeIcon(QStringLiteral("export")));
    m_exportButton->setAccessibleName(tr("Export"));
    m_exportButton->setToolTip(tr("Write the export; the dialog stays open and shows the result"));
    m_exportButton->setDefault(true);
    auto *close = m_buttons->button(QDialogButtonBox::Close);
    close->setToolTip(tr("Close the dialog"));
    close->setAccessibleName(tr("Close"));
    connect(m_exportButton, &QPushButton::clicked, this, &ExportDialog::startExporting);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);

    auto *left = new QVBoxLayout;
    left->setSpacing(kSectionSpacing - 4);
    left->addWidget(formatBox);
    left->addWidget(scopeBox);
    left->addWidget(outputBox);
    left->addWidget(optionsBox);
    left->addStretch(1);
    auto *columns = new QHBoxLayout;
    columns->setSpacing(kSectionSpacing);
    columns->addLayout(left, 5);
    columns->addWidget(previewBox, 6);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(kMargin + 4, kMargin + 4, kMargin + 4, kMargin);
    layout->setSpacing(kSectionSpacing - 4);
    layout->addLayout(columns, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_banner);
    layout->addWidget(m_buttons);
    setMinimumWidth(820);

    nameLineEditClearButtons(this); // Qt makes them; screen readers need their names
}

} // namespace nb2
