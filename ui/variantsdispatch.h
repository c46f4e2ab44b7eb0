#pragma once

#include "core/session/sessioncontroller.h"
#include "core/session/turnplanner.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

class QDialog;
class QMenu;

namespace nb2 {

class FrameSelection;
class NoticePresenter;
class PromptPanel;
class SessionManager;
class ThumbnailProvider;
class TurnDispatcher;
class VariantGrid;

/**
 * "Variants: N" in the window: one prompt sent as N independent turns at once — for a
 * generate N sibling roots, for an edit N sibling branches of the selected frame (an explicit
 * fork, said in the prompt panel before sending). The session budget is checked for the
 * whole batch before anything is sent (ErrorKind::Budget: nothing sent). The variants then
 * arrive in a VariantGrid to pick from; the timeline's Fold / Unfold is here too.
 * TurnDispatcher decides the plan and hands a batch over (variantsRequested).
 */
class VariantsDispatch : public QObject
{
    Q_OBJECT
public:
    VariantsDispatch(SessionManager *sessions, FrameSelection *selection, PromptPanel *prompt, TurnDispatcher *turns,
        NoticePresenter *notices, ThumbnailProvider *thumbs, QWidget *window);

    /** What a batch of `count` does for `plan` ("3 new branches from #4"), plain text. */
    static QString describe(const TurnPlan &plan, int count, const QString &frameLabel);

    /**
     * Sends `count` turns of the plan (frameId: the frame edited; styleFile: the style picture
     * for a Style plan). All or nothing: refused before sending when the budget would not
     * hold the batch; if one cannot be queued, those already queued are cancelled.
     */
    Result<QStringList> send(
        const TurnPlan &plan, const TurnParams &params, const QString &frameId, const QString &styleFile, int count);

    /** The grid of the last batch (nullptr before the first). */
    VariantGrid *grid() const;
    QDialog *gridDialog() const;

    /** Adds Fold / Unfold for a frame to the timeline's context menu. */
    void addFoldAction(QMenu *menu, const QString &frameId);

public Q_SLOTS:
    /** Re-says what the batch will do under the prompt panel's reason line. */
    void updateNote();
    /** The prompt panel asked for more than one variant: send them (TurnDispatcher::variantsRequested). */
    void submit(
        const nb2::TurnPlan &plan, const nb2::TurnParams &params, const QString &frameId, const QString &styleFile);

private:
    void showGrid(const QStringList &ids, const QString &what);

    SessionManager *m_sessions;
    FrameSelection *m_selection;
    PromptPanel *m_prompt;
    TurnDispatcher *m_turns;
    NoticePresenter *m_notices;
    ThumbnailProvider *m_thumbs;
    QWidget *m_window;
    QPointer<QDialog> m_dialog;
    QPointer<VariantGrid> m_grid;
};

} // namespace nb2
