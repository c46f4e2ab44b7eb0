#include "ui/replaypanel.h"

#include "core/api/interactionsclient.h"
#include "core/session/replayrunner.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "ui/replaydialog.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace nb2 {

namespace {

enum Column { TargetColumn, StepColumn, PromptColumn, StateColumn, FrameColumn };

} // namespace

ReplayPanel::ReplayPanel(SessionController *session, QWidget *parent) : QWidget(parent), m_session(session)
{
    setObjectName(QStringLiteral("replayPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);

    m_range = new QLabel(this);
    m_range->setObjectName(QStringLiteral("replayRange"));
    m_range->setWordWrap(true);
    layout->addWidget(m_range);
    auto *top = new QHBoxLayout;
    m_replayButton = new QPushButton(tr("Replay &onto…"), this);
    m_replayButton->setObjectName(QStringLiteral("replayOntoButton"));
    m_replayButton->setToolTip(tr("Send the range's prompts again, in order, onto a frame or onto pictures"));
    m_resumeButton = new QPushButton(this);
    m_resumeButton->setObjectName(QStringLiteral("replayResumeButton"));
    m_resumeButton->hide();
    top->addWidget(m_replayButton);
    top->addWidget(m_resumeButton);
    top->addStretch(1);
    layout->addLayout(top);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("replayStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("replayProgress"));
    m_progress->setAccessibleName(tr("Replay progress"));
    layout->addWidget(m_progress);
    m_steps = new QTreeWidget(this);
    m_steps->setObjectName(QStringLiteral("replaySteps"));
    m_steps->setAccessibleName(tr("Replay steps"));
    m_steps->setRootIsDecorated(false);
    m_steps->setHeaderLabels({tr("Onto"), tr("Step"), tr("Prompt"), tr("State"), tr("Frame")});
    m_steps->header()->setSectionResizeMode(PromptColumn, QHeaderView::Stretch);
    layout->addWidget(m_steps, 1);
    auto *bottom = new QHBoxLayout;
    m_pauseButton = new QPushButton(tr("&Pause"), this);
    m_pauseButton->setObjectName(QStringLiteral("replayPauseButton"));
    m_cancelButton = new QPushButton(tr("&Cancel Replay"), this);
    m_cancelButton->setObjectName(QStringLiteral("replayCancelButton"));
    bottom->addStretch(1);
    bottom->addWidget(m_pauseButton);
    bottom->addWidget(m_cancelButton);
    layout->addLayout(bottom);

    connect(m_replayButton, &QPushButton::clicked, this, [this] { openDialog(m_from); });
    connect(m_resumeButton, &QPushButton::clicked, this, [this] {
        if (const Result<void> r = resumeUnfinished(); !r)
            m_status->setText(r.error().message);
    });
    connect(m_pauseButton, &QPushButton::clicked, this, [this] {
        if (!m_runner)
            return;
        if (m_runner->state().status == ReplayStatus::Paused)
            m_runner->resume();
        else
            m_runner->pause();
        updateStatus();
    });
    connect(m_cancelButton, &QPushButton::clicked, this, [this] {
        if (m_runner)
            m_runner->cancel();
        updateStatus();
    });
    connect(m_steps, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        const QString id = item->text(FrameColumn);
        if (!id.isEmpty())
            Q_EMIT frameActivated(id);
    });
    setRange({}, {});
    updateStatus();
}

ReplayPanel::~ReplayPanel()
{
    detach();
}

bool ReplayPanel::setRange(const QString &a, const QString &b)
{
    m_from.clear();
    m_to.clear();
    if (a.isEmpty() || b.isEmpty()) {
        m_range->setText(tr("Select a frame, then Shift+click another frame of the same branch to choose the range to "
                            "replay."));
        m_replayButton->setEnabled(false);
        return false;
    }
    // Either end may be clicked first: the ancestor is FROM.
    const bool aFirst = m_session->graph().pathTo(b).contains(a);
    const QString from = aFirst ? a : b;
    const QString to = aFirst ? b : a;
    const Result<QList<ReplayStep>> steps = replaySteps(m_session->graph(), from, to);
    if (!steps) {
        m_range->setText(steps.error().message);
        m_replayButton->setEnabled(false);
        return false;
    }
    m_from = from;
    m_to = to;
    m_range->setText(tr("Range %1 … %2: %n prompt(s) to replay.", nullptr, int(steps.value().size())).arg(from, to));
    m_replayButton->setEnabled(!m_runner || m_runner->isOver());
    return true;
}

void ReplayPanel::openDialog(const QString &ontoId)
{
    if (m_from.isEmpty())
        return;
    ReplayDialog dialog(m_session, m_from, m_to, ontoId, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const Result<ReplayPlan> plan = dialog.plan();
    const Result<void> started = plan ? startReplay(plan.value(), dialog.thinkingLevel()) : Result<void>(plan.error());
    if (!started)
        m_status->setText(started.error().message);
}

Result<void> ReplayPanel::startReplay(const ReplayPlan &plan, const QString &thinkingLevel)
{
    if (m_runner && !m_runner->isOver())
        return Error::make(ErrorKind::Conflict, tr("A replay is running; wait for it or cancel it first."));
    const QString model = m_session->client() ? m_session->client()->config().model : QString();
    return run(ReplayState::create(plan, model, thinkingLevel));
}

Result<void> ReplayPanel::resumeUnfinished()
{
    if (m_runner && !m_runner->isOver())
        return Error::make(ErrorKind::Conflict, tr("A replay is running; wait for it or cancel it first."));
    if (m_runner)
        m_runner->flushRecord(); // a stopped run's last change is on disk before its record is read
    const QList<ReplayState> open = unfinishedReplays(m_session->store()->dir());
    if (open.isEmpty())
        return Error::make(ErrorKind::InvalidInput, tr("There is no unfinished replay in this session."));
    return run(open.first());
}

Result<void> ReplayPanel::run(ReplayState state)
{
    detach();
    auto *runner = new ReplayRunner(m_session, std::move(state), this);
    connect(runner, &ReplayRunner::stepChanged, this, &ReplayPanel::updateRow);
    connect(runner, &ReplayRunner::paused, this, [this](int delayMs, const QString &reason) {
        m_waitReason = delayMs >= 0 ? reason : QString();
        updateStatus();
    });
    connect(runner, &ReplayRunner::resumed, this, [this] {
        m_waitReason.clear();
        updateStatus();
    });
    connect(runner, &ReplayRunner::stopped, this, [this](const Error &error) {
        m_waitReason = error.message;
        updateStatus();
    });
    connect(runner, &ReplayRunner::finished, this, [this] {
        m_waitReason.clear();
        refreshUnfinished();
        updateStatus();
    });
    m_runner = runner;
    rebuildRows();
    const Result<void> started = runner->start();
    if (!started) {
        delete runner;
        m_runner = nullptr;
        rebuildRows();
    }
    refreshUnfinished();
    updateStatus();
    return started;
}

void ReplayPanel::detach()
{
    if (m_runner) {
        m_runner->disconnect(this);
        delete m_runner; // sends nothing more; its turns finish in the session, the record stays resumable
    }
    m_runner = nullptr;
    m_waitReason.clear();
}

void ReplayPanel::refreshUnfinished()
{
    const int open = m_session->isOpen() ? int(unfinishedReplays(m_session->store()->dir()).size()) : 0;
    const bool running = m_runner && !m_runner->isOver();
    m_resumeButton->setText(tr("&Resume unfinished replay (%n)", nullptr, open));
    m_resumeButton->setVisible(open > 0 && !running);
}

void ReplayPanel::rebuildRows()
{
    m_steps->clear();
    if (!m_runner)
        return;
    const ReplayState &s = m_runner->state();
    for (int c = 0; c < s.chains.size(); ++c) {
        const ReplayChain &chain = s.chains.at(c);
        const QString target = chain.target.kind == ReplayTarget::Kind::Photo
            ? QFileInfo(chain.target.photoFile).fileName()
            : chain.target.frameId;
        for (int i = 0; i < chain.steps.size(); ++i) {
            auto *item = new QTreeWidgetItem(m_steps);
            item->setText(TargetColumn, target);
            item->setText(StepColumn, tr("%1 of %2").arg(QString::number(i + 1), QString::number(chain.steps.size())));
            item->setText(PromptColumn, s.plan.steps.at(i).prompt);
            item->setToolTip(
                PromptColumn, s.plan.steps.at(i).note.isEmpty() ? s.plan.steps.at(i).prompt : s.plan.steps.at(i).note);
            updateRow(c, i);
        }
    }
}

void ReplayPanel::updateRow(int chain, int step)
{
    if (!m_runner)
        return;
    const ReplayState &s = m_runner->state();
    QTreeWidgetItem *item = m_steps->topLevelItem(int(chain * s.plan.steps.size() + step));
    if (!item)
        return;
    const ReplayStepRun &run = s.chains.at(chain).steps.at(step);
    const bool importing = m_runner->isImporting(chain) && step == s.chains.at(chain).nextStep();
    QString state;
    switch (run.state) {
    case ReplayStepState::Waiting:
        // Its photo is being checked and copied in: on its way, not waiting for a slot.
        state = importing ? tr("importing") : tr("waiting");
        break;
    case ReplayStepState::Sent:
        state = tr("running");
        break;
    case ReplayStepState::Done:
        state = tr("done");
        break;
    case ReplayStepState::Failed:
        state = tr("failed");
        break;
    case ReplayStepState::Cancelled:
        state = tr("cancelled");
        break;
    }
    item->setText(StateColumn, state);
    item->setToolTip(
        StateColumn, importing ? tr("The photo is being checked and copied into the session.") : run.error);
    item->setText(FrameColumn, run.frameId);
    updateStatus();
}

void ReplayPanel::updateStatus()
{
    const bool active = m_runner && !m_runner->isOver();
    m_pauseButton->setEnabled(active);
    m_cancelButton->setEnabled(active);
    m_replayButton->setEnabled(!m_from.isEmpty() && !active);
    if (!m_runner) {
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        m_status->setText(tr("No replay running."));
        return;
    }
    const ReplayState &s = m_runner->state();
    m_progress->setRange(0, qMax(1, s.totalSteps()));
    m_progress->setValue(s.doneSteps());
    m_pauseButton->setText(s.status == ReplayStatus::Paused ? tr("&Resume") : tr("&Pause"));
    QString text;
    switch (s.status) {
    case ReplayStatus::Running:
        text = tr("Replaying: %1 of %2 steps done.")
                   .arg(QString::number(s.doneSteps()), QString::number(s.totalSteps()));
        break;
    case ReplayStatus::Paused:
        text = tr("Paused: %1 of %2 steps done. Running steps finish; Resume sends the rest.")
                   .arg(QString::number(s.doneSteps()), QString::number(s.totalSteps()));
        break;
    case ReplayStatus::Stopped:
        text = s.stopReason;
        break;
    case ReplayStatus::Cancelled:
        text = tr("Cancelled: %1 of %2 steps done.")
                   .arg(QString::number(s.doneSteps()), QString::number(s.totalSteps()));
        break;
    case ReplayStatus::Finished:
        text
            = tr("Finished: %1 of %2 steps done.").arg(QString::number(s.doneSteps()), QString::number(s.totalSteps()));
        break;
    }
    if (const int importing = m_runner->importsInFlight(); importing > 0 && s.status != ReplayStatus::Cancelled)
        text += QLatin1Char(' ') + tr("Importing %n photo(s)…", nullptr, importing);
    if (!m_waitReason.isEmpty() && s.status != ReplayStatus::Stopped)
        text += QLatin1Char(' ') + m_waitReason;
    m_status->setText(text);
}

} // namespace nb2
