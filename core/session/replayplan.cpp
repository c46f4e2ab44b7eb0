#include "core/session/replayplan.h"

#include "core/session/costledger.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace nb2 {

namespace {

struct Text {
    Q_DECLARE_TR_FUNCTIONS(ReplayPlan)
};

Error invalid(const QString &message)
{
    return Error::make(ErrorKind::InvalidInput, message);
}

/** A frame a replay may read from or build on: present and not in the trash. */
Result<const Frame *> liveFrame(const FrameGraph &graph, const QString &id)
{
    const Frame *f = graph.frame(id);
    if (!f)
        return invalid(Text::tr("There is no frame %1 in this session.").arg(id));
    if (f->isTrashed())
        return invalid(Text::tr("Frame %1 is in the trash; restore it first.").arg(id));
    return f;
}

} // namespace

QJsonObject ReplayStep::toJson() const
{
    QJsonObject o {{QStringLiteral("source"), sourceFrameId}, {QStringLiteral("prompt"), prompt}};
    if (!thinkingLevel.isEmpty())
        o.insert(QStringLiteral("thinking_level"), thinkingLevel);
    if (!note.isEmpty())
        o.insert(QStringLiteral("note"), note);
    return o;
}

ReplayStep ReplayStep::fromJson(const QJsonObject &o)
{
    ReplayStep s;
    s.sourceFrameId = o.value(QStringLiteral("source")).toString();
    s.prompt = o.value(QStringLiteral("prompt")).toString();
    s.thinkingLevel = o.value(QStringLiteral("thinking_level")).toString();
    s.note = o.value(QStringLiteral("note")).toString();
    return s;
}

QJsonObject ReplayTarget::toJson() const
{
    if (kind == Kind::Photo)
        return {{QStringLiteral("photo"), photoFile}};
    return {{QStringLiteral("frame"), frameId}};
}

ReplayTarget ReplayTarget::fromJson(const QJsonObject &o)
{
    ReplayTarget t;
    if (o.contains(QStringLiteral("photo"))) {
        t.kind = Kind::Photo;
        t.photoFile = o.value(QStringLiteral("photo")).toString();
    } else {
        t.frameId = o.value(QStringLiteral("frame")).toString();
    }
    return t;
}

Result<QList<ReplayStep>> replaySteps(const FrameGraph &graph, const QString &fromId, const QString &toId)
{
    for (const QString &id : {fromId, toId}) {
        if (Result<const Frame *> f = liveFrame(graph, id); !f)
            return f.error();
    }
    const QStringList path = graph.pathTo(toId);
    const qsizetype start = path.indexOf(fromId);
    if (start < 0)
        return invalid(
            Text::tr("Frame %1 is not on the path to %2: a replay runs along one branch, from a frame to one of "
                     "its descendants (FROM..TO, FROM first).")
                .arg(fromId, toId));
    QList<ReplayStep> steps;
    for (qsizetype i = start; i < path.size(); ++i) {
        const Frame &f = *graph.frame(path.at(i));
        if (f.kind == FrameKind::Import)
            continue; // a picture brought in has no prompt to repeat
        if (!f.isDone())
            return invalid(
                Text::tr("Frame %1 is %2: a replay repeats finished steps only; pick a range of done frames.")
                    .arg(f.id, frameStatusName(f.status)));
        if (f.prompt.trimmed().isEmpty())
            continue;
        ReplayStep step;
        step.sourceFrameId = f.id;
        step.prompt = f.prompt;
        step.thinkingLevel = f.thinkingLevel;
        if (f.kind == FrameKind::StyleEdit)
            step.note = Text::tr("style picture not repeated: sent as a plain edit");
        else if (!f.regionEdit.isEmpty())
            step.note = Text::tr("region not repeated: sent as a whole-picture edit");
        steps.append(step);
    }
    if (steps.isEmpty())
        return invalid(Text::tr("%1..%2 has no prompt to replay (imported pictures have none).").arg(fromId, toId));
    return steps;
}

Result<ReplayPlan> planReplayOnto(
    const FrameGraph &graph, const QString &fromId, const QString &toId, const QString &ontoId)
{
    Result<QList<ReplayStep>> steps = replaySteps(graph, fromId, toId);
    if (!steps)
        return steps.error();
    Result<const Frame *> onto = liveFrame(graph, ontoId);
    if (!onto)
        return onto.error();
    if (!onto.value()->isDone() || onto.value()->image.isNull())
        return invalid(Text::tr("Frame %1 has no finished picture to replay onto; pick a done frame.").arg(ontoId));
    ReplayPlan plan;
    plan.fromId = fromId;
    plan.toId = toId;
    plan.steps = steps.value();
    ReplayTarget target;
    target.frameId = ontoId;
    plan.targets.append(target);
    return plan;
}

QStringList picturesInFolder(const QString &folder)
{
    const QStringList patterns {QStringLiteral("*.jpg"), QStringLiteral("*.jpeg"), QStringLiteral("*.png"),
        QStringLiteral("*.webp"), QStringLiteral("*.gif")};
    QDir dir(folder);
    QStringList files;
    // Files only (symlinks included when they point at files), no recursion: a shoot is one folder.
    const QFileInfoList entries
        = dir.entryInfoList(patterns, QDir::Files | QDir::Readable, QDir::Name | QDir::IgnoreCase);
    for (const QFileInfo &info : entries)
        files.append(info.absoluteFilePath());
    return files;
}

Result<ReplayPlan> planReplayOnPhotos(
    const FrameGraph &graph, const QString &fromId, const QString &toId, const QStringList &filesOrFolders)
{
    Result<QList<ReplayStep>> steps = replaySteps(graph, fromId, toId);
    if (!steps)
        return steps.error();
    QStringList photos;
    for (const QString &entry : filesOrFolders) {
        const QFileInfo info(entry);
        if (info.isDir()) {
            const QStringList found = picturesInFolder(entry);
            if (found.isEmpty())
                return invalid(
                    Text::tr("Folder %1 has no pictures (jpg, png, webp, gif).").arg(QDir::toNativeSeparators(entry)));
            photos += found;
        } else if (info.isFile() && info.isReadable()) {
            photos.append(info.absoluteFilePath());
        } else {
            return invalid(Text::tr("Cannot read %1: name a picture or a folder of pictures.")
                               .arg(QDir::toNativeSeparators(entry)));
        }
        if (photos.size() > kMaxReplayPhotos)
            return invalid(
                Text::tr("More than %1 pictures: replay a smaller folder (or a few at a time).").arg(kMaxReplayPhotos));
    }
    if (photos.isEmpty())
        return invalid(Text::tr("Name at least one picture or folder to replay onto."));
    photos.removeDuplicates();
    ReplayPlan plan;
    plan.fromId = fromId;
    plan.toId = toId;
    plan.steps = steps.value();
    for (const QString &photo : std::as_const(photos)) {
        ReplayTarget target;
        target.kind = ReplayTarget::Kind::Photo;
        target.photoFile = photo;
        plan.targets.append(target);
    }
    return plan;
}

ReplayEstimate estimateReplay(
    const FrameGraph &graph, const PriceTable &prices, const ReplayPlan &plan, const QString &model, int remainingTurns)
{
    const TurnEstimate one = estimateTurn(graph, prices, FrameKind::Edit, model);
    ReplayEstimate e;
    e.turns = remainingTurns >= 0 ? remainingTurns : plan.turns();
    e.perTurnUsd = one.usd;
    e.totalUsd = one.usd * e.turns;
    e.basis = one.basis;
    return e;
}

} // namespace nb2
