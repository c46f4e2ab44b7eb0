// The single-pass reader of one frame object, as Frame::fromJson would read it (manifestparse.cpp
// reads the checkpoint's "frames" array and the journal's commit records with it).
#include "core/session/framereader.h"

#include <QDate>
#include <QTime>

#include <algorithm>
#include <climits>
#include <cstring>

namespace nb2::manifestdetail {

bool sameBytes(const char *s, qsizetype n, const char *literal)
{
    return qsizetype(std::strlen(literal)) == n && std::memcmp(s, literal, size_t(n)) == 0;
}

namespace {

// The frame fields the fast reader knows. Anything else sends the frame to Frame::fromJson.
enum Field : int {
    FId,
    FParent,
    FKind,
    FPrompt,
    FAspect,
    FThinking,
    FModel,
    FInteraction,
    FContinued,
    FStatus,
    FRequested,
    FFinished,
    FImage,
    FText,
    FUsage,
    FAttempts,
    FReAnchored,
    FTitle,
    FStarred,
    FFolded,
    FNote,
    FExpires,
    FTrashed,
    FTrashGroup,
    FOwnerPid,
    FOrigin,
    FReplayOf,
    FReplayRun,
    FPromptSent,
    FDrift,
    FUnknown
};

/** The n bytes at s are exactly the literal (its length known at compile time: no strlen). */
template <size_t N> bool is(const char *s, qsizetype n, const char (&literal)[N])
{
    return n == qsizetype(N - 1) && std::memcmp(s, literal, N - 1) == 0;
}

/**
 * The field a key names. By length first, so a key is compared with at most four names: a
 * loop over all 29 names was a fifth of the checkpoint's parse (20 keys a frame).
 */
Field fieldOf(const char *s, qsizetype n)
{
    switch (n) {
    case 2:
        return is(s, n, "id") ? FId : FUnknown;
    case 4:
        return is(s, n, "kind") ? FKind : is(s, n, "note") ? FNote : FUnknown;
    case 5:
        return is(s, n, "model") ? FModel
            : is(s, n, "image")  ? FImage
            : is(s, n, "usage")  ? FUsage
            : is(s, n, "title")  ? FTitle
            : is(s, n, "drift")  ? FDrift
                                 : FUnknown;
    case 6:
        return is(s, n, "parent") ? FParent
            : is(s, n, "prompt")  ? FPrompt
            : is(s, n, "status")  ? FStatus
            : is(s, n, "folded")  ? FFolded
            : is(s, n, "origin")  ? FOrigin
                                  : FUnknown;
    case 7:
        return is(s, n, "starred") ? FStarred : FUnknown;
    case 8:
        return is(s, n, "attempts") ? FAttempts : FUnknown;
    case 9:
        return is(s, n, "owner_pid") ? FOwnerPid : is(s, n, "replay_of") ? FReplayOf : FUnknown;
    case 10:
        return is(s, n, "model_text") ? FText
            : is(s, n, "trashed_at")  ? FTrashed
            : is(s, n, "replay_run")  ? FReplayRun
                                      : FUnknown;
    case 11:
        return is(s, n, "finished_at") ? FFinished
            : is(s, n, "re_anchored")  ? FReAnchored
            : is(s, n, "trash_group")  ? FTrashGroup
            : is(s, n, "prompt_sent")  ? FPromptSent
                                       : FUnknown;
    case 12:
        return is(s, n, "aspect_ratio") ? FAspect : is(s, n, "requested_at") ? FRequested : FUnknown;
    case 13:
        return is(s, n, "id_expires_at") ? FExpires : FUnknown;
    case 14:
        return is(s, n, "thinking_level") ? FThinking : is(s, n, "interaction_id") ? FInteraction : FUnknown;
    case 24:
        return is(s, n, "continued_interaction_id") ? FContinued : FUnknown;
    default:
        return FUnknown;
    }
}

/** "image" keys: 0 file, 1 sha256, 2 mime_type, 3 width, 4 height; -1 any other. */
int imageKeyOf(const char *s, qsizetype n)
{
    return is(s, n, "file")     ? 0
        : is(s, n, "sha256")    ? 1
        : is(s, n, "mime_type") ? 2
        : is(s, n, "width")     ? 3
        : is(s, n, "height")    ? 4
                                : -1;
}

/** "drift" keys: 0 measure, 1 changed, 2 outside_changed, 3 heatmap; -1 any other. */
int driftKeyOf(const char *s, qsizetype n)
{
    return is(s, n, "measure")        ? 0
        : is(s, n, "changed")         ? 1
        : is(s, n, "outside_changed") ? 2
        : is(s, n, "heatmap")         ? 3
                                      : -1;
}

/** A drift fraction as FrameDrift::fromJson keeps it: within [-1, 1]. */
double driftFraction(double v)
{
    return std::clamp(v, -1.0, 1.0);
}

/** "usage" keys: 0 input, 1 output, 2 thought, 3 total, 4 image output tokens; -1 any other. */
int usageKeyOf(const char *s, qsizetype n)
{
    return is(s, n, "input_tokens")       ? 0
        : is(s, n, "output_tokens")       ? 1
        : is(s, n, "thought_tokens")      ? 2
        : is(s, n, "total_tokens")        ? 3
        : is(s, n, "image_output_tokens") ? 4
                                          : -1;
}

/** Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (QDate's), for any valid date. */
constexpr qint64 daysFromCivil(int y, int m, int d)
{
    // H. Hinnant's days_from_civil: eras of 400 years, years starting in March.
    y -= m <= 2;
    const int era = (y >= 0 ? y : y - 399) / 400;
    const int yoe = y - era * 400;
    const int doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return qint64(era) * 146097 + doe - 719468;
}
static_assert(
    daysFromCivil(1970, 1, 1) == 0 && daysFromCivil(2000, 3, 1) == 11017 && daysFromCivil(1969, 12, 31) == -1);

/**
 * "2026-01-02T03:04:05.678Z" (what toIsoUtc writes) read from bytes; anything else via
 * fromIsoUtc. The instant is computed here (QDate + QTime + QDateTime(date, time, UTC) was
 * ~600 instructions a time, four times a frame); a date or time out of range (month 13, a 30th
 * of February, second 60) goes to fromIsoUtc like any other text, so the result is its.
 */
QDateTime timeFromBytes(const char *s, qsizetype n)
{
    auto num = [s](int at, int len) {
        int v = 0;
        for (int i = at; i < at + len; ++i) {
            if (s[i] < '0' || s[i] > '9')
                return -1;
            v = v * 10 + (s[i] - '0');
        }
        return v;
    };
    if (n == 24 && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':' && s[19] == '.'
        && s[23] == 'Z') {
        const int y = num(0, 4), mo = num(5, 2), d = num(8, 2);
        const int h = num(11, 2), mi = num(14, 2), sec = num(17, 2), ms = num(20, 3);
        static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        const bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
        if (y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= kDays[mo - 1] + (mo == 2 && leap) && h >= 0 && h < 24
            && mi >= 0 && mi < 60 && sec >= 0 && sec < 60 && ms >= 0)
            return QDateTime::fromMSecsSinceEpoch(
                ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60000 + sec * 1000 + ms, Qt::UTC);
    }
    return fromIsoUtc(QString::fromUtf8(s, n));
}

// The readers below take nullptr for a value that is only checked, not kept (readFrameNode()).

/** A string field: Ok with its value, or the reader's Other/Bad. */
Reader::Status readString(Reader &r, QString *out, Interned *intern = nullptr)
{
    const char *s = nullptr;
    qsizetype n = 0;
    bool plain = true;
    if (r.peek() != '"')
        return r.skip(0) ? Reader::Other : Reader::Bad;
    QString escaped;
    const Reader::Status st = r.string(&s, &n, &plain, out ? out : &escaped);
    if (st == Reader::Ok && plain && out)
        *out = intern ? intern->get(s, n) : QString::fromUtf8(s, n);
    return st;
}

Reader::Status readTime(Reader &r, QDateTime *out)
{
    const char *s = nullptr;
    qsizetype n = 0;
    bool plain = true;
    QString decoded;
    if (r.peek() != '"')
        return r.skip(0) ? Reader::Other : Reader::Bad;
    const Reader::Status st = r.string(&s, &n, &plain, &decoded);
    if (st == Reader::Ok && out)
        *out = plain ? timeFromBytes(s, n) : fromIsoUtc(decoded);
    return st;
}

/** A number read as QJsonValue::toInt() would (integers in int range; anything else: Other). */
Reader::Status readInt(Reader &r, int *out)
{
    const char c = r.peek();
    if (c != '-' && (c < '0' || c > '9'))
        return r.skip(0) ? Reader::Other : Reader::Bad;
    qint64 v = 0;
    const Reader::Status st = r.integer(&v);
    if (st != Reader::Ok)
        return st;
    if (v < INT_MIN || v > INT_MAX)
        return Reader::Other;
    if (out)
        *out = int(v);
    return Reader::Ok;
}

/** A number read as QJsonValue::toDouble() would; any other value: Other. */
Reader::Status readReal(Reader &r, double *out)
{
    const char c = r.peek();
    if (c != '-' && (c < '0' || c > '9'))
        return r.skip(0) ? Reader::Other : Reader::Bad;
    double unused = 0;
    return r.real(out ? out : &unused);
}

/** A number read as qint64(QJsonValue::toDouble()) would (integers below 2^53). */
Reader::Status readInt64(Reader &r, qint64 *out)
{
    const char c = r.peek();
    if (c != '-' && (c < '0' || c > '9'))
        return r.skip(0) ? Reader::Other : Reader::Bad;
    qint64 unused = 0;
    return r.integer(out ? out : &unused);
}

/** A true/false field. */
Reader::Status readBool(Reader &r, bool *out)
{
    bool unused = false;
    return r.boolean(out ? out : &unused);
}

/** Keys of a small object; duplicates are left to QJsonDocument. */
template <typename OnKey> Reader::Status readObject(Reader &r, OnKey onKey)
{
    if (!r.eat('{'))
        return r.skip(0) ? Reader::Other : Reader::Bad;
    if (r.eat('}'))
        return Reader::Ok;
    Reader::Status result = Reader::Ok;
    do {
        const char *k = nullptr;
        qsizetype kn = 0;
        bool plain = true;
        QString decoded;
        Reader::Status st = r.peek() == '"' ? r.string(&k, &kn, &plain, &decoded) : Reader::Bad;
        if (st == Reader::Bad || !r.eat(':'))
            return Reader::Bad;
        if (st == Reader::Other || !plain) {
            if (!r.skip(1))
                return Reader::Bad;
            result = Reader::Other; // an escaped key: not one toJson() writes
            continue;
        }
        st = onKey(k, kn);
        if (st == Reader::Bad)
            return st;
        if (st == Reader::Other)
            result = Reader::Other;
    } while (r.eat(','));
    return r.eat('}') ? result : Reader::Bad;
}

} // namespace

namespace {

/**
 * readFrame() into f, or readFrameNode() into node (f null): one reader for both, so a node
 * is made exactly when the frame would read and a frame built later from the node's bytes
 * reads. In node mode every value is still read and checked; only the node's fields are kept.
 */
Reader::Status readFrameInto(Reader &r, Interns &interns, Frame *f, FrameNode *node)
{
    quint64 seen = 0;
    QString heatmap; // node mode: the drift heatmap's path, for its check
    QString kindName, statusName;
    bool haveKind = false, haveStatus = false;
    const Reader::Status st = readObject(r, [&](const char *k, qsizetype kn) -> Reader::Status {
        const Field field = fieldOf(k, kn);
        if (field == FUnknown)
            return r.skip(0) ? Reader::Other : Reader::Bad; // extra, error, lineage, region_edit, ...
        if (seen & (quint64(1) << field))
            return r.skip(0) ? Reader::Other : Reader::Bad;
        seen |= quint64(1) << field;
        switch (field) {
        case FId:
            return readString(r, f ? &f->id : &node->id);
        case FParent:
            return readString(r, f ? &f->parentId : &node->parentId);
        case FKind: {
            const Reader::Status s = readString(r, &kindName);
            haveKind = s == Reader::Ok;
            return s;
        }
        case FPrompt:
            return readString(r, f ? &f->prompt : nullptr);
        case FAspect:
            return readString(r, f ? &f->aspectRatio : nullptr, &interns.aspect);
        case FThinking:
            return readString(r, f ? &f->thinkingLevel : nullptr, &interns.thinking);
        case FModel:
            return readString(r, f ? &f->model : &node->model, &interns.model);
        case FInteraction:
            return readString(r, f ? &f->interactionId : nullptr);
        case FContinued:
            return readString(r, f ? &f->continuedInteractionId : nullptr);
        case FStatus: {
            const Reader::Status s = readString(r, &statusName);
            haveStatus = s == Reader::Ok;
            return s;
        }
        case FRequested:
            return readTime(r, f ? &f->requestedAt : nullptr);
        case FFinished:
            return readTime(r, f ? &f->finishedAt : nullptr);
        case FImage: {
            quint32 sub = 0;
            return readObject(r, [&](const char *ik, qsizetype ikn) -> Reader::Status {
                const int which = imageKeyOf(ik, ikn);
                if (which < 0)
                    return r.skip(0) ? Reader::Ok : Reader::Bad; // Frame::fromJson ignores other keys here
                if (sub & (1u << which))
                    return r.skip(0) ? Reader::Other : Reader::Bad;
                sub |= 1u << which;
                switch (which) {
                case 0:
                    return readString(r, f ? &f->image.file : &node->imageFile);
                case 1:
                    return readString(r, f ? &f->image.sha256 : nullptr);
                case 2:
                    return readString(r, f ? &f->image.mimeType : nullptr, &interns.mime);
                case 3:
                    return readInt(r, f ? &f->image.width : nullptr);
                default:
                    return readInt(r, f ? &f->image.height : nullptr);
                }
            });
        }
        case FText:
            return readString(r, f ? &f->modelText : nullptr);
        case FUsage: {
            quint32 sub = 0;
            return readObject(r, [&](const char *uk, qsizetype ukn) -> Reader::Status {
                Usage &u = f ? f->usage : node->usage;
                qint64 *targets[]
                    = {&u.inputTokens, &u.outputTokens, &u.thoughtTokens, &u.totalTokens, &u.imageOutputTokens};
                const int which = usageKeyOf(uk, ukn);
                if (which < 0)
                    return r.skip(0) ? Reader::Ok : Reader::Bad;
                if (sub & (1u << which))
                    return r.skip(0) ? Reader::Other : Reader::Bad;
                sub |= 1u << which;
                return readInt64(r, targets[which]);
            });
        }
        case FAttempts:
            return readInt(r, f ? &f->attempts : nullptr);
        case FReAnchored:
            return readBool(r, f ? &f->reAnchored : nullptr);
        case FTitle:
            return readString(r, f ? &f->title : nullptr);
        case FStarred:
            return readBool(r, f ? &f->starred : nullptr);
        case FFolded:
            return readBool(r, f ? &f->folded : nullptr);
        case FNote:
            return readString(r, f ? &f->note : nullptr);
        case FExpires:
            return readTime(r, f ? &f->idExpiresAt : nullptr);
        case FTrashed: {
            if (f)
                return readTime(r, &f->trashedAt);
            QDateTime at;
            const Reader::Status s = readTime(r, &at);
            node->trashed = at.isValid(); // Frame::isTrashed()
            return s;
        }
        case FTrashGroup:
            return readString(r, f ? &f->trashGroup : nullptr);
        case FOwnerPid:
            return readInt64(r, f ? &f->ownerPid : &node->ownerPid);
        case FOrigin:
            return readString(r, f ? &f->origin : nullptr, &interns.origin);
        case FReplayOf:
            return readString(r, f ? &f->replayOf : nullptr);
        case FReplayRun:
            return readString(r, f ? &f->replayRun : nullptr);
        case FPromptSent:
            return readString(r, f ? &f->promptSent : nullptr);
        case FDrift: {
            // Every edit has one since the drift meter came (its reading, core/edit/driftmeter.h).
            quint32 sub = 0;
            Reader::Status s = readObject(r, [&](const char *dk, qsizetype dkn) -> Reader::Status {
                const int which = driftKeyOf(dk, dkn);
                if (which < 0)
                    return r.skip(0) ? Reader::Ok : Reader::Bad; // FrameDrift::fromJson ignores other keys
                if (sub & (1u << which))
                    return r.skip(0) ? Reader::Other : Reader::Bad;
                sub |= 1u << which;
                switch (which) {
                case 0:
                    return readString(r, f ? &f->drift.measure : nullptr, &interns.driftMeasure);
                case 1:
                    return readReal(r, f ? &f->drift.changed : nullptr);
                case 2:
                    return readReal(r, f ? &f->drift.outsideChanged : nullptr);
                default:
                    return readString(r, f ? &f->drift.heatmapFile : &heatmap);
                }
            });
            if (s != Reader::Ok)
                return s;
            if (sub == 0) {
                if (f)
                    f->drift = FrameDrift(); // {}: no reading, as fromJson reads an empty object
                return Reader::Ok;
            }
            if (f) {
                f->drift.changed = driftFraction(f->drift.changed);
                f->drift.outsideChanged = driftFraction(f->drift.outsideChanged);
            }
            // A heatmap outside the folder: Frame::fromJson words the refusal (the slow path).
            return isSafeSessionPath(f ? f->drift.heatmapFile : heatmap) ? Reader::Ok : Reader::Other;
        }
        case FUnknown:
            break;
        }
        return Reader::Other;
    });
    if (st != Reader::Ok)
        return st;
    // Missing or unusable id/kind/status: Frame::fromJson words the error.
    bool ok = false;
    if ((f ? f->id : node->id).isEmpty() || !haveKind || !haveStatus)
        return Reader::Other;
    const FrameKind kind = frameKindFromName(kindName, &ok);
    if (!ok)
        return Reader::Other;
    const FrameStatus status = frameStatusFromName(statusName, &ok);
    if (!ok)
        return Reader::Other;
    (f ? f->kind : node->kind) = kind;
    (f ? f->status : node->status) = status;
    return Reader::Ok;
}

} // namespace

Reader::Status readFrame(Reader &r, Interns &interns, Frame *f)
{
    return readFrameInto(r, interns, f, nullptr);
}

Reader::Status readFrameNode(Reader &r, Interns &interns, FrameNode *node)
{
    return readFrameInto(r, interns, nullptr, node);
}

} // namespace nb2::manifestdetail
