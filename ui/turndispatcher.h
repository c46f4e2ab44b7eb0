#pragma once

#include "core/session/sessioncontroller.h"
#include "core/session/turnplanner.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QString>

class QTimer;

namespace nb2 {

class FrameSelection;
class ImportController;
class NoticePresenter;
class PendingIndicator;
class PrecisionRunner;
class PromptPanel;
class SelectionController;
class SessionManager;
class TimelineModel;
struct Error;
struct TurnParams;

/**
 * Sends turns and answers for them: it plans the next turn with the TurnPlanner (so the
 * prompt panel's button and what Send does are one decision), submits it, retries, cancels
 * and re-anchors, schedules the automatic retries a rate limit asks for (at most
 * kMaxAutoRetries, counted out loud), keeps the status-bar summary of work in flight, and
 * turns every failure into one notice that names the fix. After a refusal it puts the prompt
 * back and selects the parent, so rephrasing is an edit, not a forced branch.
 */
class TurnDispatcher : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaxAutoRetries = 3;

    TurnDispatcher(SessionManager *sessions, FrameSelection *selection, PromptPanel *prompt, ImportController *imports,
        NoticePresenter *notices, TimelineModel *model, PendingIndicator *pending, QObject *parent);

    /**
     * Region and protect edits (issue 13): the canvas selection and the runner that prepares,
     * sends and composites them. Without them a selection is never used.
     */
    void setPrecision(SelectionController *selections, PrecisionRunner *runner);
    PrecisionRunner *precisionRunner() const { return m_precision; }

    /** The turn Send would make now. */
    TurnPlan plan() const;
    /** Where the API key came from ("GEMINI_API_KEY", "keychain", ...): Settings cannot fix an environment key. */
    void setKeySource(const QString &source) { m_keySource = source; }
    bool isKeyFromEnvironment() const;
    /**
     * As updatePlan(), with the cost estimate a frame later: for the pass that hands an opened
     * session over, which already holds Frame Details' paint. The estimate scans the session's
     * recent turns (up to ~4 ms at 10,000 frames) and only feeds the send button's tooltip.
     * A plan made meanwhile supersedes it.
     */
    void updatePlanEstimateLater();
    /** Automatic retries scheduled for the frame so far (0: none). */
    int autoRetryCount(const QString &frameId) const { return m_autoRetries.value(frameId); }

public Q_SLOTS:
    /** Re-plans from the selection and shows the plan in the prompt panel. */
    void updatePlan();
    void submit();
    void retry(const QString &frameId);
    void cancel(const QString &frameId);
    void reAnchor(const QString &frameId);
    /** Stops every scheduled automatic retry (the session is closing). */
    void clearScheduledRetries();
    void updatePending();

Q_SIGNALS:
    void planChanged(const nb2::TurnPlan &plan);
    /** The key was refused and Settings can fix it. */
    void settingsRequested();
    /** The server named the thinking levels it accepts: the choices must be re-read. */
    void thinkingLevelsChanged();
    /**
     * Send was pressed with "Variants" above 1: the checked plan and parameters go to
     * VariantsDispatch, which sends the batch (styleFile: the style picture to send, for Style).
     */
    void variantsRequested(
        const nb2::TurnPlan &plan, const nb2::TurnParams &params, const QString &frameId, const QString &styleFile);

private:
    /** Re-plans from the selection and shows the plan (without its cost estimate). */
    TurnPlan applyPlan();
    /** Gives the prompt panel the cost estimate for this plan (and the budget used, if any). */
    void updateCostEstimate(const TurnPlan &plan);
    void onTurnFinished(const QString &frameId);
    void onTurnFailed(const QString &frameId, const Error &error);
    void onRetryWaiting(const QString &frameId, int attempt, int maxAttempts, int delayMs);
    void restoreRefusedPrompt(const QString &frameId);
    void retryNow(const QString &frameId, bool automatic);
    void scheduleRetry(const QString &frameId, int delayMs);
    void cancelScheduledRetry(const QString &frameId);
    /** Sends a region/protect plan through the PrecisionRunner (mask and crop written on a worker first). */
    void submitRegion(const TurnPlan &plan, const QString &parentId, const TurnParams &params);
    void onRegionStarted(int ticket, const QString &frameId);

    SessionManager *m_sessions;
    FrameSelection *m_selection;
    PromptPanel *m_prompt;
    ImportController *m_imports;
    NoticePresenter *m_notices;
    TimelineModel *m_model;
    PendingIndicator *m_pending;
    QString m_keySource;
    QHash<QString, QTimer *> m_retryTimers;
    QHash<QString, int> m_autoRetries; // automatic retries made for a frame (rate limits)
    struct ClientWait {
        QDateTime until;
        int attempt = 0;
        int maxAttempts = 0;
    };
    QHash<QString, ClientWait> m_clientWaits; // the client is sleeping before its next attempt
    SelectionController *m_selections = nullptr;
    PrecisionRunner *m_precision = nullptr;
    struct RegionSend {
        QString parentId;
        QString prompt;
    };
    QHash<int, RegionSend> m_regionSends; // by PrecisionRunner ticket: being prepared, not yet a frame
    quint64 m_planSerial = 0;             // a newer plan drops a deferred cost estimate
};

} // namespace nb2
