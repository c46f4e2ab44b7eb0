// The manifest's reader: a single pass over the bytes for the frames toJson() writes, with
// QJsonDocument as the fallback for anything else (see manifestparse.h for why and how).
#include "core/session/manifestparse.h"

#include "core/session/jsonscanner.h"

#include <QDate>
#include <QFuture>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTime>
#include <QtConcurrent/QtConcurrentRun>

#include <climits>
#include <cstring>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace nb2 {

using namespace manifestdetail;

namespace {

const QLatin1String kFramesKey("frames");

Error corruptJson(const QJsonParseError &pe)
{
    return Error::make(
        ErrorKind::Corrupt, QStringLiteral("not valid JSON: %1 at byte %2").arg(pe.errorString()).arg(pe.offset));
}

QString frameErrorMessage(int i, const QString &why)
{
    return QStringLiteral("frames[%1]: %2").arg(i).arg(why);
}

QString notAnObjectMessage(int i)
{
    return QStringLiteral("frames[%1] is not an object").arg(i);
}

/** Frame::fromJson on one element of "frames" (its text already known to be valid JSON). */
bool readFrameDom(const QJsonValue &value, int i, ParsedManifest *out)
{
    if (!value.isObject()) {
        out->badFrame = i;
        out->badFrameMessage = notAnObjectMessage(i);
        return false;
    }
    Result<Frame> f = Frame::fromJson(value.toObject());
    if (!f) {
        out->badFrame = i;
        out->badFrameMessage = frameErrorMessage(i, f.error().message);
        return false;
    }
    out->frames.append(std::move(f.value()));
    return true;
}

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
    FUnknown
};

struct FieldName {
    const char *name;
    int size;
    Field field;
};

#define NB2_FIELD(text, f)                                                                                             \
    {                                                                                                                  \
        text, int(sizeof(text) - 1), f                                                                                 \
    }
constexpr FieldName kFields[] = {
    NB2_FIELD("id", FId),
    NB2_FIELD("parent", FParent),
    NB2_FIELD("kind", FKind),
    NB2_FIELD("prompt", FPrompt),
    NB2_FIELD("aspect_ratio", FAspect),
    NB2_FIELD("thinking_level", FThinking),
    NB2_FIELD("model", FModel),
    NB2_FIELD("interaction_id", FInteraction),
    NB2_FIELD("continued_interaction_id", FContinued),
    NB2_FIELD("status", FStatus),
    NB2_FIELD("requested_at", FRequested),
    NB2_FIELD("finished_at", FFinished),
    NB2_FIELD("image", FImage),
    NB2_FIELD("model_text", FText),
    NB2_FIELD("usage", FUsage),
    NB2_FIELD("attempts", FAttempts),
    NB2_FIELD("re_anchored", FReAnchored),
    NB2_FIELD("title", FTitle),
    NB2_FIELD("starred", FStarred),
    NB2_FIELD("folded", FFolded),
    NB2_FIELD("note", FNote),
    NB2_FIELD("id_expires_at", FExpires),
    NB2_FIELD("trashed_at", FTrashed),
    NB2_FIELD("trash_group", FTrashGroup),
    NB2_FIELD("owner_pid", FOwnerPid),
    NB2_FIELD("origin", FOrigin),
    NB2_FIELD("replay_of", FReplayOf),
    NB2_FIELD("replay_run", FReplayRun),
    NB2_FIELD("prompt_sent", FPromptSent),
};
#undef NB2_FIELD

Field fieldOf(const char *s, qsizetype n)
{
    for (const FieldName &f : kFields)
        if (f.size == n && std::memcmp(f.name, s, size_t(n)) == 0)
            return f.field;
    return FUnknown;
}

bool sameBytes(const char *s, qsizetype n, const char *literal)
{
    return qsizetype(std::strlen(literal)) == n && std::memcmp(s, literal, size_t(n)) == 0;
}

/** "2026-01-02T03:04:05.678Z" (what toIsoUtc writes) read from bytes; anything else via fromIsoUtc. */
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
        const QDate date(num(0, 4), num(5, 2), num(8, 2));
        const QTime time(num(11, 2), num(14, 2), num(17, 2), num(20, 3));
        if (date.isValid() && time.isValid())
            return QDateTime(date, time, Qt::UTC);
    }
    return fromIsoUtc(QString::fromUtf8(s, n));
}

/** Strings that repeat from frame to frame (model, MIME type, ratio) shared instead of copied. */
class Interned
{
public:
    const QString &get(const char *s, qsizetype n)
    {
        if (n != m_bytes.size() || std::memcmp(s, m_bytes.constData(), size_t(n)) != 0) {
            m_bytes = QByteArray(s, n);
            m_value = QString::fromUtf8(s, n);
        }
        return m_value;
    }

private:
    QByteArray m_bytes;
    QString m_value;
};

struct Interns {
    Interned model, aspect, thinking, mime, origin;
};

/** A string field: Ok with its value, or the reader's Other/Bad. */
Reader::Status readString(Reader &r, QString *out, Interned *intern = nullptr)
{
    const char *s = nullptr;
    qsizetype n = 0;
    bool plain = true;
    if (r.peek() != '"')
        return r.skip(0) ? Reader::Other : Reader::Bad;
    const Reader::Status st = r.string(&s, &n, &plain, out);
    if (st == Reader::Ok && plain)
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
    if (st == Reader::Ok)
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
    *out = int(v);
    return Reader::Ok;
}

/** A number read as qint64(QJsonValue::toDouble()) would (integers below 2^53). */
Reader::Status readInt64(Reader &r, qint64 *out)
{
    const char c = r.peek();
    if (c != '-' && (c < '0' || c > '9'))
        return r.skip(0) ? Reader::Other : Reader::Bad;
    return r.integer(out);
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

/**
 * One frame object at the cursor, as Frame::fromJson would read it; Other when it holds
 * anything toJson() does not write (then nothing is kept and the caller rereads it).
 */
Reader::Status readFrame(Reader &r, Interns &interns, Frame *f)
{
    quint64 seen = 0;
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
            return readString(r, &f->id);
        case FParent:
            return readString(r, &f->parentId);
        case FKind: {
            const Reader::Status s = readString(r, &kindName);
            haveKind = s == Reader::Ok;
            return s;
        }
        case FPrompt:
            return readString(r, &f->prompt);
        case FAspect:
            return readString(r, &f->aspectRatio, &interns.aspect);
        case FThinking:
            return readString(r, &f->thinkingLevel, &interns.thinking);
        case FModel:
            return readString(r, &f->model, &interns.model);
        case FInteraction:
            return readString(r, &f->interactionId);
        case FContinued:
            return readString(r, &f->continuedInteractionId);
        case FStatus: {
            const Reader::Status s = readString(r, &statusName);
            haveStatus = s == Reader::Ok;
            return s;
        }
        case FRequested:
            return readTime(r, &f->requestedAt);
        case FFinished:
            return readTime(r, &f->finishedAt);
        case FImage: {
            quint32 sub = 0;
            return readObject(r, [&](const char *ik, qsizetype ikn) -> Reader::Status {
                static constexpr const char *kImageKeys[] = {"file", "sha256", "mime_type", "width", "height"};
                int which = -1;
                for (int i = 0; i < 5; ++i)
                    if (sameBytes(ik, ikn, kImageKeys[i]))
                        which = i;
                if (which < 0)
                    return r.skip(0) ? Reader::Ok : Reader::Bad; // Frame::fromJson ignores other keys here
                if (sub & (1u << which))
                    return r.skip(0) ? Reader::Other : Reader::Bad;
                sub |= 1u << which;
                switch (which) {
                case 0:
                    return readString(r, &f->image.file);
                case 1:
                    return readString(r, &f->image.sha256);
                case 2:
                    return readString(r, &f->image.mimeType, &interns.mime);
                case 3:
                    return readInt(r, &f->image.width);
                default:
                    return readInt(r, &f->image.height);
                }
            });
        }
        case FText:
            return readString(r, &f->modelText);
        case FUsage: {
            quint32 sub = 0;
            return readObject(r, [&](const char *uk, qsizetype ukn) -> Reader::Status {
                qint64 *targets[] = {&f->usage.inputTokens, &f->usage.outputTokens, &f->usage.thoughtTokens,
                    &f->usage.totalTokens, &f->usage.imageOutputTokens};
                static constexpr const char *kUsageKeys[]
                    = {"input_tokens", "output_tokens", "thought_tokens", "total_tokens", "image_output_tokens"};
                int which = -1;
                for (int i = 0; i < 5; ++i)
                    if (sameBytes(uk, ukn, kUsageKeys[i]))
                        which = i;
                if (which < 0)
                    return r.skip(0) ? Reader::Ok : Reader::Bad;
                if (sub & (1u << which))
                    return r.skip(0) ? Reader::Other : Reader::Bad;
                sub |= 1u << which;
                return readInt64(r, targets[which]);
            });
        }
        case FAttempts:
            return readInt(r, &f->attempts);
        case FReAnchored:
            return r.boolean(&f->reAnchored);
        case FTitle:
            return readString(r, &f->title);
        case FStarred:
            return r.boolean(&f->starred);
        case FFolded:
            return r.boolean(&f->folded);
        case FNote:
            return readString(r, &f->note);
        case FExpires:
            return readTime(r, &f->idExpiresAt);
        case FTrashed:
            return readTime(r, &f->trashedAt);
        case FTrashGroup:
            return readString(r, &f->trashGroup);
        case FOwnerPid:
            return readInt64(r, &f->ownerPid);
        case FOrigin:
            return readString(r, &f->origin, &interns.origin);
        case FReplayOf:
            return readString(r, &f->replayOf);
        case FReplayRun:
            return readString(r, &f->replayRun);
        case FPromptSent:
            return readString(r, &f->promptSent);
        case FUnknown:
            break;
        }
        return Reader::Other;
    });
    if (st != Reader::Ok)
        return st;
    // Missing or unusable id/kind/status: Frame::fromJson words the error.
    bool ok = false;
    if (f->id.isEmpty() || !haveKind || !haveStatus)
        return Reader::Other;
    f->kind = frameKindFromName(kindName, &ok);
    if (!ok)
        return Reader::Other;
    f->status = frameStatusFromName(statusName, &ok);
    return ok ? Reader::Ok : Reader::Other;
}

/** Frames read by one pass over part of the "frames" array. */
struct FramesPart {
    QList<Frame> frames;
    int badFrame = -1; // index in the whole array
    QString badFrameMessage;
    int readFast = 0;
    int count = 0; // elements passed (read or not)
};

enum class PartEnd { Invalid, Ended, Stopped };

/**
 * The elements of the "frames" array from the cursor (at an element, the array's '[' already
 * eaten) up to the array's ']' (eaten: Ended), or, when stopAt is given, up to the element
 * boundary there (the ',' at stopAt, not eaten: Stopped). A stopAt this pass does not land on
 * exactly is dropped and the pass goes on to the end. firstIndex: the first element's index in
 * the array; spanEnd: where this part's text ends (sizes the list). Invalid: not valid JSON.
 */
PartEnd readFrameElements(Reader &r, const char *stopAt, int firstIndex, const char *spanEnd, FramesPart *out)
{
    const char *spanBegin = r.pos();
    Interns interns;
    int i = firstIndex;
    do {
        r.ws();
        const char *start = r.pos();
        if (out->badFrame >= 0) {
            if (!r.skip(1)) // the rest is only checked to be JSON, as QJsonDocument does
                return PartEnd::Invalid;
        } else if (r.peek() != '{') {
            if (!r.skip(1))
                return PartEnd::Invalid;
            out->badFrame = i;
            out->badFrameMessage = notAnObjectMessage(i);
        } else {
            Frame f;
            const Reader::Status st = readFrame(r, interns, &f);
            if (st == Reader::Bad)
                return PartEnd::Invalid;
            if (st == Reader::Ok) {
                out->frames.append(std::move(f));
                ++out->readFast;
                if (i - firstIndex == 63) {
                    // Room for as many frames as the text seems to hold: growing a list of
                    // 10,000 frames step by step moved each of them several times.
                    const double perFrame = double(r.pos() - spanBegin) / 64;
                    out->frames.reserve(qsizetype(double(spanEnd - spanBegin) / perFrame * 1.1) + 64);
                }
            } else {
                r.seek(start);
                if (!r.skip(1))
                    return PartEnd::Invalid;
                const QByteArray text = QByteArray::fromRawData(start, r.pos() - start);
                QJsonParseError pe;
                const QJsonDocument doc = QJsonDocument::fromJson(text, &pe);
                if (pe.error != QJsonParseError::NoError)
                    return PartEnd::Invalid;
                ParsedManifest one;
                if (readFrameDom(QJsonValue(doc.object()), i, &one))
                    out->frames.append(std::move(one.frames.first()));
                else if (out->badFrame < 0) {
                    out->badFrame = i;
                    out->badFrameMessage = one.badFrameMessage;
                }
            }
        }
        ++i;
        ++out->count;
        if (stopAt && r.pos() >= stopAt) {
            if (r.pos() == stopAt)
                return PartEnd::Stopped;
            stopAt = nullptr; // not an element boundary after all: read on to the end
        }
    } while (r.eat(','));
    return r.eat(']') ? PartEnd::Ended : PartEnd::Invalid;
}

/**
 * Where the second of two threads could start reading a big "frames" array: the ',' between
 * two frames near the middle of the text. A checkpoint is written indented (toJson), where a
 * frame of the array ends in a line "        }," followed by one starting "        {"; a line
 * break is never inside a JSON string, so this is a guess that is almost always right, and
 * the first thread proves it (it must arrive at exactly this ',' reading element by element).
 */
const char *splitPoint(const char *from, const char *end)
{
    static constexpr char kBoundary[] = "\n        },\n        {";
    const qsizetype n = sizeof(kBoundary) - 1;
    const char *mid = from + (end - from) / 2;
    const QByteArrayView rest(mid, end - mid);
    const qsizetype at = rest.indexOf(QByteArrayView(kBoundary, n));
    return at < 0 ? nullptr : mid + at + 10; // the ',' after "\n        }"
}

/** A "frames" array worth two threads (a checkpoint of a few thousand frames). */
constexpr qsizetype kSplitBytes = 1 << 20;

/** The "frames" array at the cursor. false: not valid JSON. */
bool readFrames(Reader &r, const char *end, ParsedManifest *out)
{
    r.eat('[');
    if (r.eat(']'))
        return true;
    const char *stop = end - r.pos() >= kSplitBytes && helperThreadsWelcome() ? splitPoint(r.pos(), end) : nullptr;
    // The second half on another thread, from the guessed boundary; used only if the first
    // half proves the guess. Its frames' indices are fixed up once the first half's count is
    // known.
    FramesPart second;
    const char *secondEnd = nullptr;
    PartEnd secondResult = PartEnd::Invalid;
    QFuture<void> secondDone;
    if (stop) {
        secondDone = QtConcurrent::run([&second, &secondEnd, &secondResult, stop, end] {
            Reader r2(stop + 1, end);
            secondResult = readFrameElements(r2, nullptr, 0, end, &second);
            secondEnd = r2.pos();
        });
    }
    FramesPart first;
    // Sized for the whole array: the second half's frames are appended in place, not moved
    // again with the whole list into a bigger one.
    const PartEnd firstResult = readFrameElements(r, stop, 0, end, &first);
    if (stop)
        secondDone.waitForFinished();
    if (firstResult == PartEnd::Invalid)
        return false;
    if (firstResult == PartEnd::Stopped) {
        if (secondResult == PartEnd::Invalid)
            return false; // the rest of the array is not valid JSON
        if (first.badFrame < 0 && second.badFrame >= 0) {
            first.badFrame = first.count + second.badFrame;
            // The message names the element: renumber it for the whole array.
            first.badFrameMessage = second.badFrameMessage;
            const QString local = QStringLiteral("frames[%1]").arg(second.badFrame);
            if (first.badFrameMessage.startsWith(local))
                first.badFrameMessage.replace(0, local.size(), QStringLiteral("frames[%1]").arg(first.badFrame));
        }
        first.frames.append(std::move(second.frames)); // any after a bad frame are dropped below
        first.readFast += second.readFast;
        first.count += second.count;
        r.seek(secondEnd);
        out->readInTwo = true;
    }
    out->badFrame = first.badFrame;
    out->badFrameMessage = first.badFrameMessage;
    out->readFast = first.readFast;
    out->frames = std::move(first.frames);
    if (out->badFrame >= 0 && out->frames.size() > out->badFrame)
        out->frames.resize(out->badFrame); // frames up to the first that does not read, as before
    return true;
}

/** The single pass; false when the text needs parseManifestDom() (not valid JSON, or unusual). */
bool parseFast(const QByteArray &raw, ParsedManifest *out)
{
    const char *begin = raw.constData();
    Reader r(begin, begin + raw.size());
    if (!r.eat('{'))
        return false; // not an object, a BOM, not JSON: the DOM reader says which
    QByteArray head = "{";
    bool framesSeen = false;
    if (!r.eat('}')) {
        do {
            r.ws();
            const char *keyStart = r.pos();
            QString key;
            if (r.peek() != '"' || r.qstring(&key) != Reader::Ok || !r.eat(':'))
                return false;
            if (key == kFramesKey) {
                if (framesSeen)
                    return false; // which one counts is QJsonDocument's rule
                framesSeen = true;
                if (r.peek() == '[') {
                    out->framesIsArray = true;
                    if (!readFrames(r, begin + raw.size(), out))
                        return false;
                } else if (!r.skip(1)) {
                    return false;
                }
                continue;
            }
            if (!r.skip(1))
                return false;
            if (head.size() > 1)
                head += ',';
            head.append(keyStart, r.pos() - keyStart);
        } while (r.eat(','));
        if (!r.eat('}'))
            return false;
    }
    if (!r.atEnd())
        return false;
    head += '}';
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(head, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return false;
    out->root = doc.object();
    return true;
}

} // namespace

bool helperThreadsWelcome()
{
#ifdef Q_OS_LINUX
    // Nice values are per thread on Linux; the process's is its main thread's.
    return getpriority(PRIO_PROCESS, id_t(gettid())) <= getpriority(PRIO_PROCESS, id_t(getpid()));
#else
    return true;
#endif
}

JournalLine parseCommitLine(
    QByteArrayView line, QString *writer, QList<Frame> *upserts, QStringList *removals, QString *current)
{
    Reader r(line.data(), line.data() + line.size());
    if (!r.eat('{'))
        return JournalLine::Unusual;
    Interns interns;
    bool isCommit = false, known = true;
    quint32 seen = 0;
    if (!r.eat('}')) {
        do {
            r.ws();
            const char *k = nullptr;
            qsizetype kn = 0;
            bool plain = true;
            QString decoded;
            if (r.peek() != '"' || r.string(&k, &kn, &plain, &decoded) != Reader::Ok || !plain || !r.eat(':'))
                return JournalLine::Unusual;
            static constexpr const char *kKeys[] = {"at", "current", "frames", "op", "removed", "w"};
            int which = -1;
            for (int i = 0; i < 6; ++i)
                if (sameBytes(k, kn, kKeys[i]))
                    which = i;
            if (which < 0) { // another kind's field (frame, frame_id...): only checked to be JSON
                known = false;
                if (!r.skip(1))
                    return JournalLine::Unusual;
                continue;
            }
            if (seen & (1u << which))
                return JournalLine::Unusual; // a duplicate key: which one counts is QJsonDocument's rule
            seen |= 1u << which;
            r.ws();
            switch (which) {
            case 0: // at
                if (r.peek() != '"' || !r.skip(1))
                    return JournalLine::Unusual;
                break;
            case 1: // current
                if (r.peek() != '"' || r.qstring(current) != Reader::Ok)
                    return JournalLine::Unusual;
                break;
            case 2: // frames
                if (!r.eat('['))
                    return JournalLine::Unusual;
                if (!r.eat(']')) {
                    do {
                        r.ws();
                        Frame f;
                        if (r.peek() != '{' || readFrame(r, interns, &f) != Reader::Ok)
                            return JournalLine::Unusual;
                        upserts->append(std::move(f));
                    } while (r.eat(','));
                    if (!r.eat(']'))
                        return JournalLine::Unusual;
                }
                break;
            case 3: { // op
                QString op;
                if (r.peek() != '"' || r.qstring(&op) != Reader::Ok)
                    return JournalLine::Unusual;
                isCommit = op == QLatin1String("commit");
                break;
            }
            case 4: // removed
                if (!r.eat('['))
                    return JournalLine::Unusual;
                if (!r.eat(']')) {
                    do {
                        r.ws();
                        QString id;
                        if (r.peek() != '"' || r.qstring(&id) != Reader::Ok)
                            return JournalLine::Unusual;
                        removals->append(id);
                    } while (r.eat(','));
                    if (!r.eat(']'))
                        return JournalLine::Unusual;
                }
                break;
            default: // w
                if (r.peek() != '"' || r.qstring(writer) != Reader::Ok)
                    return JournalLine::Unusual;
                break;
            }
        } while (r.eat(','));
        if (!r.eat('}'))
            return JournalLine::Unusual;
    }
    r.ws();
    if (!r.atEnd())
        return JournalLine::Unusual;
    if (!isCommit)
        return (seen & (1u << 3)) ? JournalLine::NotCommit : JournalLine::Unusual;
    return known ? JournalLine::Commit : JournalLine::Unusual;
}

Result<ParsedManifest> parseManifestDom(const QByteArray &raw)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(raw, &pe);
    if (pe.error != QJsonParseError::NoError)
        return corruptJson(pe);
    if (!doc.isObject())
        return Error::make(ErrorKind::Corrupt, QStringLiteral("expected a JSON object at the top level"));
    ParsedManifest out;
    out.root = doc.object();
    const QJsonValue frames = out.root.value(kFramesKey);
    out.root.remove(kFramesKey);
    out.framesIsArray = frames.isArray();
    const QJsonArray array = frames.toArray();
    for (int i = 0; i < array.size(); ++i)
        if (!readFrameDom(array.at(i), i, &out))
            break;
    return out;
}

Result<ParsedManifest> parseManifest(const QByteArray &raw)
{
    ParsedManifest out;
    if (parseFast(raw, &out))
        return out;
    return parseManifestDom(raw);
}

} // namespace nb2
