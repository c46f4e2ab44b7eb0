#pragma once

#include "core/common/error.h"
#include "core/session/framegraph.h"
#include "core/session/pricetable.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace nb2 {

/** One prompt of the chain being replayed: the frame it comes from and what is sent again. */
struct ReplayStep {
    QString sourceFrameId; // the frame whose prompt this repeats (becomes the new frame's replay_of)
    QString prompt;
    QString thinkingLevel; // the source's level; a run's --thinking overrides it
    /** What the replay cannot repeat (a region/protect mask, a style picture): sent as the plain prompt. */
    QString note;

    QJsonObject toJson() const;
    static ReplayStep fromJson(const QJsonObject &object);
    bool operator==(const ReplayStep &other) const = default;
};

/** Where one copy of the chain goes: onto a frame of the session (a new branch there) or onto a photo (a new root). */
struct ReplayTarget {
    enum class Kind { Frame, Photo };
    Kind kind = Kind::Frame;
    QString frameId;   // Kind::Frame: the frame the first step edits
    QString photoFile; // Kind::Photo: the picture (absolute path) imported as a root first

    QJsonObject toJson() const;
    static ReplayTarget fromJson(const QJsonObject &object);
    bool operator==(const ReplayTarget &other) const = default;
};

/**
 * What a replay will do, before anything is sent: the prompts of FROM..TO in order (both
 * ends included; FROM must be TO or one of its ancestors) and the targets each copy of the
 * chain starts from. Pure data from the graph; planReplay*() refuse a range or a target that
 * cannot be replayed with an InvalidInput Error that says why.
 */
struct ReplayPlan {
    QString fromId;
    QString toId;
    QList<ReplayStep> steps;
    QList<ReplayTarget> targets;

    int turns() const { return int(steps.size() * targets.size()); }
};

/** The steps of FROM..TO along one branch (imports, which have no prompt, are skipped). */
Result<QList<ReplayStep>> replaySteps(const FrameGraph &graph, const QString &fromId, const QString &toId);
/** FROM..TO onto one frame of the session: a new branch there (the fork is explicit). */
Result<ReplayPlan> planReplayOnto(
    const FrameGraph &graph, const QString &fromId, const QString &toId, const QString &ontoId);
/** FROM..TO onto pictures (files, or folders whose pictures are taken in name order): each a new root. */
Result<ReplayPlan> planReplayOnPhotos(
    const FrameGraph &graph, const QString &fromId, const QString &toId, const QStringList &filesOrFolders);
/** Pictures a folder holds (jpg, jpeg, png, webp, gif; not recursive), sorted by name; absolute paths. */
QStringList picturesInFolder(const QString &folder);
/** The most pictures one replay takes (a shoot; more is almost surely a wrong folder). */
inline constexpr int kMaxReplayPhotos = 500;

/** The dry run's numbers: how many turns and what they will likely cost. */
struct ReplayEstimate {
    int turns = 0;
    double perTurnUsd = 0;
    double totalUsd = 0;
    QString basis; // how the per-turn estimate was made (CostLedger's words)
};
/** Every step is an edit (the first of a photo chain sends the picture inline): estimateTurn() per turn, on `model`. */
ReplayEstimate estimateReplay(const FrameGraph &graph, const PriceTable &prices, const ReplayPlan &plan,
    const QString &model, int remainingTurns = -1);

} // namespace nb2
