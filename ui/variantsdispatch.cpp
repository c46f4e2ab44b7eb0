#include "ui/variantsdispatch.h"

#include "core/session/sessioncontroller.h"
#include "ui/frameselection.h"
#include "ui/noticepresenter.h"
#include "ui/promptpanel.h"
#include "ui/screenfit.h"
#include "ui/sessionmanager.h"
#include "ui/turndispatcher.h"
#include "ui/variantgrid.h"
#include "ui/windowpreferences.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace nb2 {

VariantsDispatch::VariantsDispatch(SessionManager *sessions, FrameSelection *selection, PromptPanel *prompt,
    TurnDispatcher *turns, NoticePresenter *notices, ThumbnailProvider *thumbs, QWidget *window)
    : QObject(window)
    , m_sessions(sessions)
    , m_selection(selection)
    , m_prompt(prompt)
    , m_turns(turns)
    , m_notices(notices)
    , m_thumbs(thumbs)
    , m_window(window)
{
    connect(m_turns, &TurnDispatcher::planChanged, this, &VariantsDispatch::updateNote);
    connect(m_prompt, &PromptPanel::variantsChanged, this, &VariantsDispatch::updateNote);
    connect(m_turns, &TurnDispatcher::variantsRequested, this, &VariantsDispatch::submit);
    connect(m_sessions, &SessionManager::aboutToSwitch, this, [this] {
        if (m_dialog)
            m_dialog->close(); // its frames belong to the session being closed
    });
}

VariantGrid *VariantsDispatch::grid() const
{
    return m_grid.data();
}
QDialog *VariantsDispatch::gridDialog() const
{
    return m_dialog.data();
}

QString VariantsDispatch::describe(const TurnPlan &plan, int count, const QString &frameLabel)
{
    if (plan.kind == TurnMode::Generate)
        return tr("%n new images (sibling roots), sent at once", nullptr, count);
    return tr("an explicit fork: %n new branches from %1, sent at once", nullptr, count).arg(frameLabel);
}

void VariantsDispatch::updateNote()
{
    const int n = m_prompt->variants();
    const TurnPlan plan = m_prompt->plan();
    if (n <= 1 || !plan.sendable) {
        m_prompt->setVariantsNote({});
        return;
    }
    const QString label = plan.kind == TurnMode::Generate ? QString() : m_selection->label(m_selection->currentId());
    m_prompt->setVariantsNote(
        QStringLiteral("<b>%1</b> (%2).")
            .arg(tr("Send %n variants", nullptr, n).toHtmlEscaped(), describe(plan, n, label).toHtmlEscaped()));
}

Result<QStringList> VariantsDispatch::send(
    const TurnPlan &plan, const TurnParams &params, const QString &frameId, const QString &styleFile, int count)
{
    SessionController *s = m_sessions->session();
    // The whole batch against the budget first: nothing is added or sent when it would not hold.
    if (Result<void> allowed = s->checkBudget(frameKindOf(plan.kind), count); !allowed)
        return allowed.error();
    TurnParams one = params;
    one.newBranch = plan.kind != TurnMode::Generate; // siblings of one frame are the point: the fork is intended
    QStringList ids;
    for (int i = 0; i < count; ++i) {
        Result<QString> r = Error {};
        switch (plan.kind) {
        case TurnMode::Generate:
            r = s->generate(one);
            break;
        case TurnMode::Style:
            r = s->styleEdit(frameId, {}, styleFile, one);
            break;
        case TurnMode::EditLocal:
            r = s->editLocal(frameId, {}, one);
            break;
        case TurnMode::Edit:
        case TurnMode::Branch:
            r = s->edit(frameId, one);
            break;
        }
        if (!r) {
            for (const QString &id : std::as_const(ids))
                s->cancel(id); // all or nothing: the batch is one decision
            return r.error();
        }
        ids.append(r.value());
    }
    return ids;
}

void VariantsDispatch::submit(
    const TurnPlan &plan, const TurnParams &params, const QString &frameId, const QString &styleFile)
{
    const int n = m_prompt->variants();
    const QString label = plan.kind == TurnMode::Generate ? QString() : m_selection->label(frameId);
    const Result<QStringList> sent = send(plan, params, frameId, styleFile, n);
    if (!sent) {
        m_notices->show(NoticeKind::Error,
            sent.error().message.isEmpty() ? tr("The variants were not sent.")
                                           : NoticePresenter::describe(sent.error()));
        return;
    }
    m_notices->clear();
    m_prompt->clearPrompt();
    if (plan.kind == TurnMode::Style)
        m_prompt->setStyleFile({});
    if (plan.kind == TurnMode::Generate)
        WindowPreferences::setGenerateAspect(params.aspectRatio);
    m_notices->status(tr("Sent %n variants; pick one in the grid when they arrive.", nullptr, n), 5000);
    showGrid(sent.value(), describe(plan, n, label));
    m_turns->updatePending();
}

void VariantsDispatch::showGrid(const QStringList &ids, const QString &what)
{
    if (!m_dialog) {
        m_dialog = new QDialog(m_window);
        m_dialog->setObjectName(QStringLiteral("variantsDialog"));
        m_dialog->setWindowTitle(tr("Variants"));
        m_dialog->setModal(false);
        auto *v = new QVBoxLayout(m_dialog);
        v->setContentsMargins(0, 0, 0, 8);
        auto *scroll = new QScrollArea(m_dialog);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        m_grid = new VariantGrid(m_sessions->session(), m_thumbs, scroll);
        scroll->setWidget(m_grid);
        v->addWidget(scroll, 1);
        auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, m_dialog);
        buttons->button(QDialogButtonBox::Close)->setToolTip(tr("Close the grid; all variants stay as they are"));
        v->addWidget(buttons);
        connect(buttons, &QDialogButtonBox::rejected, m_dialog, &QDialog::close);
        connect(m_grid, &VariantGrid::picked, this, [this](const QString &id) {
            m_selection->select(id);
            m_notices->status(tr("Picked %1: starred; the other variants are folded (still in the session).")
                                  .arg(m_selection->label(id)),
                6000);
        });
    }
    m_grid->setVariants(ids, what);
    m_grid->adjustSize();
    m_dialog->resize(m_dialog->sizeHint().expandedTo(m_grid->sizeHint() + QSize(24, 60)));
    fitToScreen(m_dialog);
    m_dialog->show();
    m_dialog->raise();
}

void VariantsDispatch::addFoldAction(QMenu *menu, const QString &frameId)
{
    SessionController *s = m_sessions->session();
    const Frame *f = s->graph().frame(frameId);
    if (!f)
        return;
    const bool folded = f->folded;
    QAction *a = menu->addAction(
        folded ? tr("Unfold") : tr("Fold"), this, [s, frameId, folded] { s->setFolded({frameId}, !folded); });
    a->setObjectName(QStringLiteral("foldAction"));
    a->setToolTip(
        folded ? tr("Show this frame in full again") : tr("Draw this frame collapsed (it stays in the session)"));
}

} // namespace nb2
