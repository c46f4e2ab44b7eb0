#include "core/session/frame.h"

#include "core/session/keeplist.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>

namespace nb2 {

namespace {

struct KindEntry {
    FrameKind kind;
    const char *name;
    const char *prefix;
};

constexpr KindEntry kKinds[] = {
    {FrameKind::Generate, "generate", "gen"},
    {FrameKind::Edit, "edit", "edit"},
    {FrameKind::EditLocal, "edit_local", "edit_local"},
    {FrameKind::StyleEdit, "style_edit", "style_edit"},
    {FrameKind::Import, "import", "import"},
    {FrameKind::ReAnchor, "re_anchor", "edit_local"},
};

struct StatusEntry {
    FrameStatus status;
    const char *name;
};

constexpr StatusEntry kStatuses[] = {
    {FrameStatus::Pending, "pending"},
    {FrameStatus::Done, "done"},
    {FrameStatus::Failed, "failed"},
    {FrameStatus::Cancelled, "cancelled"},
    {FrameStatus::Interrupted, "interrupted"},
};

// Manifest field names (snake_case like the API and errorKindName()).
const QLatin1String kId("id"), kParent("parent"), kKind("kind"), kPrompt("prompt"), kAspect("aspect_ratio"),
    kThinking("thinking_level"), kModel("model"), kInteraction("interaction_id"),
    kContinued("continued_interaction_id"), kStatus("status"), kError("error"), kRequested("requested_at"),
    kFinished("finished_at"), kImage("image"), kInputs("input_images"), kText("model_text"), kUsage("usage"),
    kAttempts("attempts"), kReAnchored("re_anchored"), kTitle("title"), kStarred("starred"), kFolded("folded"),
    kNote("note"), kExpires("id_expires_at"), kTrashed("trashed_at"), kTrashGroup("trash_group"),
    kOwnerPid("owner_pid"), kLineage("lineage"), kOrigin("origin"), kRegionEdit("region_edit"), kDrift("drift"),
    kReplayOf("replay_of"), kReplayRun("replay_run"), kPromptSent("prompt_sent"), kKeepList("keep_list");

const QLatin1String kKnown[] = {kId, kParent, kKind, kPrompt, kAspect, kThinking, kModel, kInteraction, kContinued,
    kStatus, kError, kRequested, kFinished, kImage, kInputs, kText, kUsage, kAttempts, kReAnchored, kTitle, kStarred,
    kFolded, kNote, kExpires, kTrashed, kTrashGroup, kOwnerPid, kLineage, kOrigin, kRegionEdit, kDrift, kReplayOf,
    kReplayRun, kPromptSent, kKeepList};

void putString(QJsonObject &o, QLatin1String key, const QString &value)
{
    if (!value.isEmpty())
        o.insert(key, value);
}

void putTime(QJsonObject &o, QLatin1String key, const QDateTime &value)
{
    if (value.isValid())
        o.insert(key, toIsoUtc(value));
}

void putTokens(QJsonObject &o, const char *key, qint64 value)
{
    if (value >= 0)
        o.insert(QLatin1String(key), value);
}

/**
 * A JSON number as qint64, truncated toward zero as the plain cast always read it; `fallback`
 * for any other value and for a number outside qint64's range, whose cast would be undefined
 * (a damaged or hand-edited file: "owner_pid": 2.3e80 was found by fuzz_sessionload).
 */
qint64 wholeNumber(const QJsonValue &v, qint64 fallback)
{
    if (!v.isDouble())
        return fallback;
    const double d = v.toDouble();
    constexpr double kTwoTo63 = 9223372036854775808.0; // exactly representable
    if (!(d > -kTwoTo63 && d < kTwoTo63))
        return fallback;
    return qint64(d);
}

qint64 tokens(const QJsonObject &o, const char *key)
{
    return wholeNumber(o.value(QLatin1String(key)), -1);
}

} // namespace

QString frameKindName(FrameKind kind)
{
    for (const auto &e : kKinds)
        if (e.kind == kind)
            return QLatin1String(e.name);
    return QStringLiteral("generate");
}

FrameKind frameKindFromName(const QString &name, bool *ok)
{
    for (const auto &e : kKinds) {
        if (name == QLatin1String(e.name)) {
            if (ok)
                *ok = true;
            return e.kind;
        }
    }
    if (ok)
        *ok = false;
    return FrameKind::Generate;
}

QString frameKindFilePrefix(FrameKind kind)
{
    for (const auto &e : kKinds)
        if (e.kind == kind)
            return QLatin1String(e.prefix);
    return QStringLiteral("gen");
}

QString frameStatusName(FrameStatus status)
{
    for (const auto &e : kStatuses)
        if (e.status == status)
            return QLatin1String(e.name);
    return QStringLiteral("pending");
}

FrameStatus frameStatusFromName(const QString &name, bool *ok)
{
    for (const auto &e : kStatuses) {
        if (name == QLatin1String(e.name)) {
            if (ok)
                *ok = true;
            return e.status;
        }
    }
    if (ok)
        *ok = false;
    return FrameStatus::Pending;
}

bool isValidStatusTransition(FrameStatus from, FrameStatus to)
{
    switch (from) {
    case FrameStatus::Pending:
        // A pending turn ends in any terminal state; Interrupted only via crash recovery.
        return to != FrameStatus::Pending;
    case FrameStatus::Done:
        return false; // a done frame is history; a new try is a new frame
    case FrameStatus::Failed:
    case FrameStatus::Cancelled:
    case FrameStatus::Interrupted:
        return to == FrameStatus::Pending; // retry / re-anchor / recovery
    }
    return false;
}

FrameError FrameError::fromError(const Error &error)
{
    FrameError e;
    e.kind = errorKindName(error.kind);
    e.httpStatus = error.api.httpStatus;
    e.serverMessage = error.api.serverMessage;
    e.message = error.message;
    return e;
}

QStringList Frame::files() const
{
    QStringList out;
    for (const QString &file : {image.file, regionEdit.maskFile, regionEdit.rawFile, drift.heatmapFile})
        if (!file.isEmpty())
            out.append(file);
    for (const QString &input : inputImages)
        if (!input.isEmpty())
            out.append(input);
    return out;
}

bool Frame::isRecoverable() const
{
    if (isTrashed() || kind == FrameKind::Import || interactionId.isEmpty())
        return false;
    if (status == FrameStatus::Interrupted)
        return true;
    if (status != FrameStatus::Failed)
        return false;
    // Failures that say nothing about whether the server made the picture.
    const ErrorKind why = errorKindFromName(error.kind);
    // Local write failures after the answer arrived (disk full, read-only folder, I/O): the
    // server has the picture under the known id, so a retry gets it instead of paying again.
    return why == ErrorKind::Network || why == ErrorKind::Timeout || why == ErrorKind::MalformedResponse
        || why == ErrorKind::Server || why == ErrorKind::None || why == ErrorKind::DiskFull
        || why == ErrorKind::NotWritable || why == ErrorKind::Io;
}

bool Frame::hasUsableId(const QDateTime &now) const
{
    if (interactionId.isEmpty())
        return false;
    return !idExpiresAt.isValid() || idExpiresAt > now;
}

QString Frame::statusText() const
{
    QString text;
    switch (status) {
    case FrameStatus::Pending:
        text = QStringLiteral("pending");
        break;
    case FrameStatus::Done:
        text = QStringLiteral("done");
        break;
    case FrameStatus::Failed:
        text = QStringLiteral("failed: %1").arg(error.message.isEmpty() ? error.kind : error.message);
        break;
    case FrameStatus::Cancelled:
        text = QStringLiteral("cancelled");
        break;
    case FrameStatus::Interrupted:
        text = interactionId.isEmpty()
            ? QStringLiteral("interrupted — the request may not have reached the server; retry to re-send it")
            : QStringLiteral("interrupted — could not recover %1; retry to re-send").arg(interactionId);
        break;
    }
    if (reAnchored)
        text += QStringLiteral(" · re-anchored (continuity may differ)");
    if (isTrashed())
        text += QStringLiteral(" · in trash");
    return text;
}

QJsonObject Frame::toJson() const
{
    QJsonObject o = extra;
    o.insert(kId, id);
    putString(o, kParent, parentId);
    o.insert(kKind, frameKindName(kind));
    o.insert(kPrompt, prompt);
    putString(o, kAspect, aspectRatio);
    putString(o, kThinking, thinkingLevel);
    putString(o, kModel, model);
    putString(o, kInteraction, interactionId);
    putString(o, kContinued, continuedInteractionId);
    o.insert(kStatus, frameStatusName(status));
    if (!error.isEmpty()) {
        QJsonObject e;
        e.insert(QLatin1String("kind"), error.kind);
        if (error.httpStatus)
            e.insert(QLatin1String("http_status"), error.httpStatus);
        putString(e, QLatin1String("server_message"), error.serverMessage);
        putString(e, QLatin1String("message"), error.message);
        o.insert(kError, e);
    }
    putTime(o, kRequested, requestedAt);
    putTime(o, kFinished, finishedAt);
    if (!image.isNull()) {
        QJsonObject i;
        i.insert(QLatin1String("file"), image.file);
        i.insert(QLatin1String("sha256"), image.sha256);
        i.insert(QLatin1String("mime_type"), image.mimeType);
        i.insert(QLatin1String("width"), image.width);
        i.insert(QLatin1String("height"), image.height);
        o.insert(kImage, i);
    }
    if (!inputImages.isEmpty())
        o.insert(kInputs, QJsonArray::fromStringList(inputImages));
    putString(o, kText, modelText);
    QJsonObject u;
    putTokens(u, "input_tokens", usage.inputTokens);
    putTokens(u, "output_tokens", usage.outputTokens);
    putTokens(u, "thought_tokens", usage.thoughtTokens);
    putTokens(u, "total_tokens", usage.totalTokens);
    putTokens(u, "image_output_tokens", usage.imageOutputTokens);
    if (!u.isEmpty())
        o.insert(kUsage, u);
    o.insert(kAttempts, attempts);
    if (reAnchored)
        o.insert(kReAnchored, true);
    putString(o, kTitle, title);
    if (starred)
        o.insert(kStarred, true);
    if (folded)
        o.insert(kFolded, true);
    putString(o, kNote, note);
    putTime(o, kExpires, idExpiresAt);
    putTime(o, kTrashed, trashedAt);
    putString(o, kTrashGroup, trashGroup);
    if (ownerPid)
        o.insert(kOwnerPid, ownerPid);
    if (!lineage.isEmpty())
        o.insert(kLineage, lineage.toJson());
    putString(o, kOrigin, origin);
    if (!regionEdit.isEmpty())
        o.insert(kRegionEdit, regionEdit.toJson());
    if (!drift.isEmpty())
        o.insert(kDrift, drift.toJson());
    putString(o, kReplayOf, replayOf);
    putString(o, kReplayRun, replayRun);
    putString(o, kPromptSent, promptSent);
    if (keepListSet)
        o.insert(kKeepList, QJsonArray::fromStringList(keepList));
    return o;
}

Result<Frame> Frame::fromJson(const QJsonObject &o)
{
    auto fail = [](const QString &m) { return Error::make(ErrorKind::Corrupt, m); };
    Frame f;
    f.id = o.value(kId).toString();
    if (f.id.isEmpty())
        return fail(QStringLiteral("frame without an \"id\""));
    bool ok = false;
    f.kind = frameKindFromName(o.value(kKind).toString(), &ok);
    if (!ok)
        return fail(QStringLiteral("frame %1: unknown kind \"%2\"").arg(f.id, o.value(kKind).toString()));
    f.status = frameStatusFromName(o.value(kStatus).toString(), &ok);
    if (!ok)
        return fail(QStringLiteral("frame %1: unknown status \"%2\"").arg(f.id, o.value(kStatus).toString()));
    f.parentId = o.value(kParent).toString();
    f.prompt = o.value(kPrompt).toString();
    f.aspectRatio = o.value(kAspect).toString();
    f.thinkingLevel = o.value(kThinking).toString();
    f.model = o.value(kModel).toString();
    f.interactionId = o.value(kInteraction).toString();
    f.continuedInteractionId = o.value(kContinued).toString();
    const QJsonObject e = o.value(kError).toObject();
    f.error.kind = e.value(QLatin1String("kind")).toString();
    f.error.httpStatus = e.value(QLatin1String("http_status")).toInt();
    f.error.serverMessage = e.value(QLatin1String("server_message")).toString();
    f.error.message = e.value(QLatin1String("message")).toString();
    f.requestedAt = fromIsoUtc(o.value(kRequested).toString());
    f.finishedAt = fromIsoUtc(o.value(kFinished).toString());
    const QJsonObject i = o.value(kImage).toObject();
    f.image.file = i.value(QLatin1String("file")).toString();
    f.image.sha256 = i.value(QLatin1String("sha256")).toString();
    f.image.mimeType = i.value(QLatin1String("mime_type")).toString();
    f.image.width = i.value(QLatin1String("width")).toInt();
    f.image.height = i.value(QLatin1String("height")).toInt();
    const QJsonArray inputs = o.value(kInputs).toArray();
    for (const QJsonValue &v : inputs)
        f.inputImages.append(v.toString());
    f.modelText = o.value(kText).toString();
    const QJsonObject u = o.value(kUsage).toObject();
    f.usage.inputTokens = tokens(u, "input_tokens");
    f.usage.outputTokens = tokens(u, "output_tokens");
    f.usage.thoughtTokens = tokens(u, "thought_tokens");
    f.usage.totalTokens = tokens(u, "total_tokens");
    f.usage.imageOutputTokens = tokens(u, "image_output_tokens");
    f.attempts = o.value(kAttempts).toInt();
    f.reAnchored = o.value(kReAnchored).toBool();
    f.title = o.value(kTitle).toString();
    f.starred = o.value(kStarred).toBool();
    f.folded = o.value(kFolded).toBool();
    f.note = o.value(kNote).toString();
    f.idExpiresAt = fromIsoUtc(o.value(kExpires).toString());
    f.trashedAt = fromIsoUtc(o.value(kTrashed).toString());
    f.trashGroup = o.value(kTrashGroup).toString();
    f.ownerPid = wholeNumber(o.value(kOwnerPid), 0); // no owner, as when the key is missing
    f.lineage = FrameLineage::fromJson(o.value(kLineage).toObject());
    f.origin = o.value(kOrigin).toString();
    // Sessions written before issue 13 have neither object: both read as empty.
    Result<FrameRegionEdit> region = FrameRegionEdit::fromJson(o.value(kRegionEdit).toObject());
    if (!region)
        return Error::make(region.error().kind, QStringLiteral("frame %1: %2").arg(f.id, region.error().message));
    f.regionEdit = region.value();
    Result<FrameDrift> drift = FrameDrift::fromJson(o.value(kDrift).toObject());
    if (!drift)
        return Error::make(drift.error().kind, QStringLiteral("frame %1: %2").arg(f.id, drift.error().message));
    f.drift = drift.value();
    f.replayOf = o.value(kReplayOf).toString();
    f.replayRun = o.value(kReplayRun).toString();
    f.promptSent = o.value(kPromptSent).toString();
    if (o.contains(kKeepList)) {
        QStringList items;
        for (const QJsonValue &v : o.value(kKeepList).toArray())
            items.append(v.toString());
        f.keepList = KeepList::cleaned(items); // bounded: a hand-edited file cannot make a huge prompt
        f.keepListSet = true;
    }
    f.extra = o;
    for (const QLatin1String &k : kKnown)
        f.extra.remove(k);
    return f;
}

QJsonObject FrameLineage::toJson() const
{
    QJsonObject o;
    putString(o, QLatin1String("app"), app);
    putString(o, QLatin1String("frame"), frameId);
    putString(o, QLatin1String("parentSha256"), parentSha256);
    putString(o, QLatin1String("model"), model);
    putString(o, QLatin1String("interaction"), interactionId);
    putString(o, QLatin1String("kind"), kind);
    if (!promptChain.isEmpty()) {
        o.insert(QLatin1String("prompts"), QJsonArray::fromStringList(promptChain));
        o.insert(QLatin1String("promptsTotal"), qMax(promptChainTotal, int(promptChain.size())));
    }
    return o;
}

FrameLineage FrameLineage::fromJson(const QJsonObject &o)
{
    FrameLineage l;
    l.app = o.value(QLatin1String("app")).toString();
    l.frameId = o.value(QLatin1String("frame")).toString();
    l.parentSha256 = o.value(QLatin1String("parentSha256")).toString();
    l.model = o.value(QLatin1String("model")).toString();
    l.interactionId = o.value(QLatin1String("interaction")).toString();
    l.kind = o.value(QLatin1String("kind")).toString();
    const QJsonArray prompts = o.value(QLatin1String("prompts")).toArray();
    for (const QJsonValue &v : prompts)
        if (v.isString())
            l.promptChain.append(v.toString());
    if (!l.promptChain.isEmpty()) // as Provenance::fromJson: a total without a chain is not kept
        l.promptChainTotal = qMax(o.value(QLatin1String("promptsTotal")).toInt(), int(l.promptChain.size()));
    return l;
}

FrameLineage FrameLineage::fromRecordJson(const QByteArray &json)
{
    return fromJson(QJsonDocument::fromJson(json).object());
}

QString Frame::newId()
{
    return QUuid::createUuid().toString(QUuid::Id128).left(8);
}

QString toIsoUtc(const QDateTime &dt)
{
    return dt.toUTC().toString(Qt::ISODateWithMs);
}

namespace {
/** The digits at text[at..at+n), or -1. */
int digits(const QString &text, int at, int n)
{
    int v = 0;
    for (int i = at; i < at + n; ++i) {
        const char16_t c = text.at(i).unicode();
        if (c < u'0' || c > u'9')
            return -1;
        v = v * 10 + (c - u'0');
    }
    return v;
}
} // namespace

QDateTime fromIsoUtc(const QString &text)
{
    if (text.isEmpty())
        return {};
    // Fast path for what toIsoUtc() writes, "2026-01-02T03:04:05.678Z": a session of 10,000
    // frames holds ~40,000 of these, and QDateTime::fromString was a fifth of opening it.
    if (text.size() == 24 && text.at(4) == u'-' && text.at(7) == u'-' && text.at(10) == u'T' && text.at(13) == u':'
        && text.at(16) == u':' && text.at(19) == u'.' && text.at(23) == u'Z') {
        const QDate date(digits(text, 0, 4), digits(text, 5, 2), digits(text, 8, 2));
        const QTime time(digits(text, 11, 2), digits(text, 14, 2), digits(text, 17, 2), digits(text, 20, 3));
        if (date.isValid() && time.isValid())
            return QDateTime(date, time, Qt::UTC);
    }
    QDateTime dt = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!dt.isValid())
        dt = QDateTime::fromString(text, Qt::ISODate);
    return dt.toUTC();
}

} // namespace nb2
