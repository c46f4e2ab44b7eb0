#pragma once

#include "core/common/error.h"
#include "core/session/replayplan.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace nb2 {

/** Where one step of one chain is. Sent: its frame exists (pending, or failed and about to be retried). */
enum class ReplayStepState { Waiting, Sent, Done, Failed, Cancelled };
QString replayStepStateName(ReplayStepState state); // "waiting", "sent", "done", "failed", "cancelled"

struct ReplayStepRun {
    QString frameId; // the frame made for this step; set the moment it exists, before it is sent
    ReplayStepState state = ReplayStepState::Waiting;
    QString error; // why it failed (readable)
};

/** One copy of the chain: its target, the frame its first step edits, and each step's frame. */
struct ReplayChain {
    ReplayTarget target;
    QString startFrameId; // Frame target: that frame; Photo: the import frame (empty until imported)
    QList<ReplayStepRun> steps;

    /** Every step done, or one failed or cancelled (what follows it is never sent). */
    bool isFinished() const;
    /** The first step that is not done; steps.size() when all are. */
    int nextStep() const;
    /** The frame step i edits: the start frame, or the previous step's frame. */
    QString parentOf(int step) const { return step == 0 ? startFrameId : steps.at(step - 1).frameId; }
};

/** The whole run: running, paused by the user or a rate limit, stopped by a quota, cancelled or finished. */
enum class ReplayStatus { Running, Paused, Stopped, Cancelled, Finished };
QString replayStatusName(ReplayStatus status); // "running", "paused", "stopped", "cancelled", "finished"

/**
 * A replay's persistent state: the plan, the model and thinking override it runs with, and
 * for every chain which frame each step made and where it is. Saved atomically to
 * <session>/replay/<id>.json (QSaveFile: a crash leaves the previous version) every time a
 * frame is created or a step changes, so a resumed run knows what was sent and never sends
 * a step twice. Its own file, beside the session's manifest and journal, not inside them.
 */
struct ReplayState {
    QString id; // 8 hex chars; the file name and every replayed frame's replay_run
    QDateTime createdAt;
    QString model;         // the model the run was started with (a resume warns when it differs)
    QString thinkingLevel; // overrides every step's level; empty: each step keeps its source's
    ReplayPlan plan;
    QList<ReplayChain> chains; // one per plan.targets, same order
    ReplayStatus status = ReplayStatus::Running;
    QString stopReason; // Stopped / a failed chain: the explanation

    static ReplayState create(const ReplayPlan &plan, const QString &model, const QString &thinkingLevel);
    int totalSteps() const;
    int doneSteps() const;
    /** Steps no frame exists for yet: what is still to be paid for. */
    int unsentSteps() const;
    bool isOver() const { return status == ReplayStatus::Cancelled || status == ReplayStatus::Finished; }

    QJsonObject toJson() const;
    /** Corrupt when the object is not a replay state of this version (ids and counts are checked). */
    static Result<ReplayState> fromJson(const QJsonObject &object);
};

/** <session>/replay */
QString replayFolder(const QString &sessionDir);
/** Writes <session>/replay/<id>.json atomically (never through a symlink). */
Result<void> saveReplayState(const QString &sessionDir, const ReplayState &state);
/** Reads one state; NotFound when there is none with that id. Files over 8 MB are refused. */
Result<ReplayState> loadReplayState(const QString &sessionDir, const QString &id);
/** Every replay of the session, oldest first, the finished ones included; damaged files are skipped. */
QList<ReplayState> listReplays(const QString &sessionDir);
/** The replays a resume would continue: not finished and not cancelled. */
QList<ReplayState> unfinishedReplays(const QString &sessionDir);

} // namespace nb2
