#include "ui/replaydialog.h"

#include "core/api/interactionsclient.h"
#include "core/api/thinkinglevels.h"
#include "core/session/costledger.h"
#include "core/session/sessioncontroller.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace nb2 {

ReplayDialog::ReplayDialog(
    SessionController *session, const QString &fromId, const QString &toId, const QString &ontoId, QWidget *parent)
    : QDialog(parent), m_session(session), m_from(fromId), m_to(toId)
{
    setObjectName(QStringLiteral("replayDialog"));
    setWindowTitle(tr("Replay onto"));
    auto *layout = new QVBoxLayout(this);
    auto *intro
        = new QLabel(tr("Send the prompts of %1 … %2 again, in order, onto another picture.").arg(fromId, toId), this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_ontoFrame = new QRadioButton(tr("Onto a &frame (a new branch there):"), this);
    m_ontoFrame->setObjectName(QStringLiteral("replayOntoFrame"));
    m_frameRef = new QLineEdit(ontoId, this);
    m_frameRef->setObjectName(QStringLiteral("replayFrameRef"));
    m_frameRef->setAccessibleName(tr("Frame to replay onto"));
    m_frameRef->setPlaceholderText(tr("frame id, or head"));
    auto *frameRow = new QHBoxLayout;
    frameRow->addWidget(m_ontoFrame);
    frameRow->addWidget(m_frameRef, 1);
    layout->addLayout(frameRow);

    m_ontoPhotos = new QRadioButton(tr("Onto &pictures (each imported as a new root):"), this);
    m_ontoPhotos->setObjectName(QStringLiteral("replayOntoPhotos"));
    layout->addWidget(m_ontoPhotos);
    m_photos = new QListWidget(this);
    m_photos->setObjectName(QStringLiteral("replayPhotoList"));
    m_photos->setAccessibleName(tr("Pictures to replay onto"));
    layout->addWidget(m_photos, 1);
    auto *photoButtons = new QHBoxLayout;
    auto *addFilesButton = new QPushButton(tr("Add &Pictures…"), this);
    auto *addFolderButton = new QPushButton(tr("Add F&older…"), this);
    auto *clearButton = new QPushButton(tr("C&lear"), this);
    photoButtons->addWidget(addFilesButton);
    photoButtons->addWidget(addFolderButton);
    photoButtons->addWidget(clearButton);
    photoButtons->addStretch(1);
    layout->addLayout(photoButtons);

    // What the turns are sent with: the Settings' model, and a thinking level for every step or
    // each step's own (the CLI's --thinking).
    const QString model = m_session->client() ? m_session->client()->config().model : QString();
    auto *sendWith = new QFormLayout;
    sendWith->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);
    auto *modelLabel
        = new QLabel(model.isEmpty() ? tr("no model set (see Settings)") : tr("%1 (set in Settings)").arg(model), this);
    modelLabel->setObjectName(QStringLiteral("replayModel"));
    modelLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    sendWith->addRow(tr("Model:"), modelLabel);
    m_thinking = new QComboBox(this);
    m_thinking->setObjectName(QStringLiteral("replayThinking"));
    m_thinking->setAccessibleName(tr("Thinking level for every step"));
    m_thinking->addItem(tr("As each step was made"), QString());
    const ThinkingLevels *known = m_session->client() ? m_session->client()->config().thinkingLevels : nullptr;
    for (const QString &level : known ? known->allowed(model) : ThinkingLevels::defaultLevels())
        m_thinking->addItem(level, level);
    sendWith->addRow(tr("&Thinking:"), m_thinking);
    layout->addLayout(sendWith);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("replayPlanSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Replay"));
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    m_ontoFrame->setChecked(true);
    connect(m_ontoFrame, &QRadioButton::toggled, this, &ReplayDialog::refresh);
    connect(m_frameRef, &QLineEdit::textChanged, this, [this] {
        m_ontoFrame->setChecked(true);
        refresh();
    });
    connect(addFilesButton, &QPushButton::clicked, this, &ReplayDialog::addFiles);
    connect(addFolderButton, &QPushButton::clicked, this, &ReplayDialog::addFolder);
    connect(clearButton, &QPushButton::clicked, this, [this] {
        m_photos->clear();
        refresh();
    });
    resize(560, 420);
    refresh();
}

QString ReplayDialog::thinkingLevel() const
{
    return m_thinking->currentData().toString();
}

Result<ReplayPlan> ReplayDialog::plan() const
{
    if (m_ontoFrame->isChecked()) {
        const Result<QString> onto = m_session->resolveFrameRef(m_frameRef->text().trimmed());
        if (!onto)
            return onto.error();
        return planReplayOnto(m_session->graph(), m_from, m_to, onto.value());
    }
    QStringList paths;
    for (int i = 0; i < m_photos->count(); ++i)
        paths << m_photos->item(i)->data(Qt::UserRole).toString();
    return planReplayOnPhotos(m_session->graph(), m_from, m_to, paths);
}

void ReplayDialog::addPaths(const QStringList &paths)
{
    for (const QString &path : paths) {
        auto *item = new QListWidgetItem(QDir::toNativeSeparators(path), m_photos);
        item->setData(Qt::UserRole, path);
    }
    m_ontoPhotos->setChecked(true);
    refresh();
}

void ReplayDialog::addFiles()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Pictures to replay onto"), QString(), tr("Pictures (*.jpg *.jpeg *.png *.webp *.gif)"));
    if (!files.isEmpty())
        addPaths(files);
}

void ReplayDialog::addFolder()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("A folder of pictures to replay onto"));
    if (!folder.isEmpty())
        addPaths({folder});
}

void ReplayDialog::refresh()
{
    const Result<ReplayPlan> p = plan();
    QPushButton *ok = m_buttons->button(QDialogButtonBox::Ok);
    if (!p) {
        m_summary->setText(p.error().message);
        ok->setEnabled(false);
        return;
    }
    const QString model = m_session->client() ? m_session->client()->config().model : QString();
    const ReplayEstimate e = estimateReplay(m_session->graph(), m_session->priceTable(), p.value(), model);
    const Result<void> allowed = CostLedger(m_session->graph(), m_session->priceTable())
                                     .checkBudget(m_session->settings().budgetUsd, FrameKind::Edit, model, e.turns);
    QString text = tr("%n turn(s), estimated %1 (%2).", nullptr, e.turns).arg(formatUsd(e.totalUsd), e.basis);
    if (!allowed)
        text += QLatin1Char(' ') + allowed.error().message;
    m_summary->setText(text);
    ok->setEnabled(allowed.ok());
}

} // namespace nb2
