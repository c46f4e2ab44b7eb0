#include "core/session/replayqueue.h"

#include "core/session/frame.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>

namespace nb2 {

namespace {

struct Text {
    Q_DECLARE_TR_FUNCTIONS(ReplayQueue)
};

constexpr int kFormatVersion = 1;
constexpr qint64 kMaxStateBytes = 8 * 1024 * 1024;

const QLatin1String kStepStates[] = {QLatin1String("waiting"), QLatin1String("sent"), QLatin1String("done"),
    QLatin1String("failed"), QLatin1String("cancelled")};
const QLatin1String kStatuses[] = {QLatin1String("running"), QLatin1String("paused"), QLatin1String("stopped"),
    QLatin1String("cancelled"), QLatin1String("finished")};

bool isReplayId(const QString &id)
{
    static const QRegularExpression re(QStringLiteral("^[0-9a-f]{8}$"));
    return re.match(id).hasMatch();
}

bool isFrameIdOrEmpty(const QString &id)
{
    return id.isEmpty() || isReplayId(id); // frame ids have the same shape
}

Error corrupt(const QString &what)
{
    return Error::make(
        ErrorKind::Corrupt, Text::tr("The replay record is damaged (%1); start the replay again.").arg(what));
}

} // namespace

QString replayStepStateName(ReplayStepState state)
{
    return kStepStates[int(state)];
}

QString replayStatusName(ReplayStatus status)
{
    return kStatuses[int(status)];
}

bool ReplayChain::isFinished() const
{
    for (const ReplayStepRun &s : steps) {
        if (s.state == ReplayStepState::Failed || s.state == ReplayStepState::Cancelled)
            return true;
        if (s.state != ReplayStepState::Done)
            return false;
    }
    return true;
}

int ReplayChain::nextStep() const
{
    for (int i = 0; i < steps.size(); ++i) {
        if (steps.at(i).state != ReplayStepState::Done)
            return i;
    }
    return int(steps.size());
}

ReplayState ReplayState::create(const ReplayPlan &plan, const QString &model, const QString &thinkingLevel)
{
    ReplayState s;
    s.id = Frame::newId();
    s.createdAt = QDateTime::currentDateTimeUtc();
    s.model = model;
    s.thinkingLevel = thinkingLevel;
    s.plan = plan;
    for (const ReplayTarget &t : plan.targets) {
        ReplayChain chain;
        chain.target = t;
        if (t.kind == ReplayTarget::Kind::Frame)
            chain.startFrameId = t.frameId;
        chain.steps.resize(plan.steps.size());
        s.chains.append(chain);
    }
    return s;
}

int ReplayState::totalSteps() const
{
    return plan.turns();
}

int ReplayState::doneSteps() const
{
    int n = 0;
    for (const ReplayChain &c : chains)
        n += int(std::count_if(
            c.steps.begin(), c.steps.end(), [](const ReplayStepRun &s) { return s.state == ReplayStepState::Done; }));
    return n;
}

int ReplayState::unsentSteps() const
{
    int n = 0;
    for (const ReplayChain &c : chains) {
        if (c.isFinished())
            continue;
        n += int(
            std::count_if(c.steps.begin(), c.steps.end(), [](const ReplayStepRun &s) { return s.frameId.isEmpty(); }));
    }
    return n;
}

QJsonObject ReplayState::toJson() const
{
    QJsonArray steps;
    for (const ReplayStep &s : plan.steps)
        steps.append(s.toJson());
    QJsonArray chainArray;
    for (const ReplayChain &c : chains) {
        QJsonArray runs;
        for (const ReplayStepRun &r : c.steps) {
            QJsonObject o {{QStringLiteral("state"), replayStepStateName(r.state)}};
            if (!r.frameId.isEmpty())
                o.insert(QStringLiteral("frame"), r.frameId);
            if (!r.error.isEmpty())
                o.insert(QStringLiteral("error"), r.error);
            runs.append(o);
        }
        QJsonObject o {{QStringLiteral("target"), c.target.toJson()}, {QStringLiteral("steps"), runs}};
        if (!c.startFrameId.isEmpty())
            o.insert(QStringLiteral("start"), c.startFrameId);
        chainArray.append(o);
    }
    QJsonObject o {{QStringLiteral("format"), QStringLiteral("nb2lite-replay")},
        {QStringLiteral("version"), kFormatVersion}, {QStringLiteral("id"), id},
        {QStringLiteral("created_at"), toIsoUtc(createdAt)}, {QStringLiteral("from"), plan.fromId},
        {QStringLiteral("to"), plan.toId}, {QStringLiteral("model"), model},
        {QStringLiteral("status"), replayStatusName(status)}, {QStringLiteral("steps"), steps},
        {QStringLiteral("chains"), chainArray}};
    if (!thinkingLevel.isEmpty())
        o.insert(QStringLiteral("thinking_level"), thinkingLevel);
    if (!stopReason.isEmpty())
        o.insert(QStringLiteral("stop_reason"), stopReason);
    return o;
}

Result<ReplayState> ReplayState::fromJson(const QJsonObject &o)
{
    if (o.value(QStringLiteral("format")).toString() != QLatin1String("nb2lite-replay"))
        return corrupt(QStringLiteral("format"));
    if (o.value(QStringLiteral("version")).toInt() != kFormatVersion)
        return Error::make(
            ErrorKind::Corrupt, Text::tr("The replay record was written by another version of nb2lite."));
    ReplayState s;
    s.id = o.value(QStringLiteral("id")).toString();
    if (!isReplayId(s.id))
        return corrupt(QStringLiteral("id"));
    s.createdAt = fromIsoUtc(o.value(QStringLiteral("created_at")).toString());
    s.model = o.value(QStringLiteral("model")).toString();
    s.thinkingLevel = o.value(QStringLiteral("thinking_level")).toString();
    s.stopReason = o.value(QStringLiteral("stop_reason")).toString();
    const QString status = o.value(QStringLiteral("status")).toString();
    const auto *found = std::find(std::begin(kStatuses), std::end(kStatuses), status);
    if (found == std::end(kStatuses))
        return corrupt(QStringLiteral("status"));
    s.status = ReplayStatus(found - std::begin(kStatuses));
    s.plan.fromId = o.value(QStringLiteral("from")).toString();
    s.plan.toId = o.value(QStringLiteral("to")).toString();
    for (const QJsonValue &v : o.value(QStringLiteral("steps")).toArray())
        s.plan.steps.append(ReplayStep::fromJson(v.toObject()));
    if (s.plan.steps.isEmpty())
        return corrupt(QStringLiteral("steps"));
    for (const QJsonValue &v : o.value(QStringLiteral("chains")).toArray()) {
        const QJsonObject co = v.toObject();
        ReplayChain c;
        c.target = ReplayTarget::fromJson(co.value(QStringLiteral("target")).toObject());
        c.startFrameId = co.value(QStringLiteral("start")).toString();
        if (!isFrameIdOrEmpty(c.startFrameId) || !isFrameIdOrEmpty(c.target.frameId))
            return corrupt(QStringLiteral("start"));
        for (const QJsonValue &rv : co.value(QStringLiteral("steps")).toArray()) {
            const QJsonObject ro = rv.toObject();
            ReplayStepRun r;
            r.frameId = ro.value(QStringLiteral("frame")).toString();
            r.error = ro.value(QStringLiteral("error")).toString();
            const QString state = ro.value(QStringLiteral("state")).toString();
            const auto *st = std::find(std::begin(kStepStates), std::end(kStepStates), state);
            if (st == std::end(kStepStates) || !isFrameIdOrEmpty(r.frameId))
                return corrupt(QStringLiteral("step"));
            r.state = ReplayStepState(st - std::begin(kStepStates));
            c.steps.append(r);
        }
        if (c.steps.size() != s.plan.steps.size())
            return corrupt(QStringLiteral("chain"));
        s.plan.targets.append(c.target);
        s.chains.append(c);
        if (s.chains.size() > kMaxReplayPhotos)
            return corrupt(QStringLiteral("chains"));
    }
    if (s.chains.isEmpty())
        return corrupt(QStringLiteral("chains"));
    return s;
}

QString replayFolder(const QString &sessionDir)
{
    return QDir(sessionDir).filePath(QStringLiteral("replay"));
}

Result<void> saveReplayState(const QString &sessionDir, const ReplayState &state)
{
    const QString folder = replayFolder(sessionDir);
    if (QFileInfo(folder).isSymLink())
        return Error::make(ErrorKind::Unsafe,
            Text::tr("%1 is a symbolic link; the replay record is not written through it.")
                .arg(QDir::toNativeSeparators(folder)));
    if (!QDir().mkpath(folder))
        return Error::make(
            writeFailureKind(folder), Text::tr("Cannot create %1.").arg(QDir::toNativeSeparators(folder)));
    const QString path = QDir(folder).filePath(state.id + QStringLiteral(".json"));
    const QByteArray raw = QJsonDocument(state.toJson()).toJson(QJsonDocument::Indented);
    QSaveFile file(
        path); // temp + rename: a crash leaves the previous record whole; a symlink is replaced, not followed
    if (!file.open(QIODevice::WriteOnly) || file.write(raw) != raw.size() || !file.commit())
        return Error::make(writeFailureKind(path, &file),
            Text::tr("Cannot write the replay record %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    return {};
}

Result<ReplayState> loadReplayState(const QString &sessionDir, const QString &id)
{
    if (!isReplayId(id))
        return Error::make(ErrorKind::InvalidInput, Text::tr("'%1' is not a replay id (8 hex characters).").arg(id));
    const QString path = QDir(replayFolder(sessionDir)).filePath(id + QStringLiteral(".json"));
    const QFileInfo info(path);
    if (info.isSymLink())
        return Error::make(
            ErrorKind::Unsafe, Text::tr("%1 is a symbolic link; it is not read.").arg(QDir::toNativeSeparators(path)));
    if (!info.isFile())
        return Error::make(ErrorKind::NotFound, Text::tr("There is no replay %1 in this session.").arg(id));
    if (info.size() > kMaxStateBytes)
        return corrupt(QStringLiteral("size"));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::make(
            ErrorKind::Io, Text::tr("Cannot read %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.read(kMaxStateBytes), &parseError);
    if (!doc.isObject())
        return corrupt(parseError.errorString());
    Result<ReplayState> state = ReplayState::fromJson(doc.object());
    if (state && state.value().id != id)
        return corrupt(QStringLiteral("id"));
    return state;
}

QList<ReplayState> listReplays(const QString &sessionDir)
{
    QList<ReplayState> states;
    const QDir dir(replayFolder(sessionDir));
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        Result<ReplayState> s = loadReplayState(sessionDir, name.chopped(5));
        if (s)
            states.append(s.value());
    }
    std::sort(states.begin(), states.end(),
        [](const ReplayState &a, const ReplayState &b) { return a.createdAt < b.createdAt; });
    return states;
}

QList<ReplayState> unfinishedReplays(const QString &sessionDir)
{
    QList<ReplayState> states = listReplays(sessionDir);
    states.removeIf([](const ReplayState &s) { return s.isOver(); });
    return states;
}

} // namespace nb2
