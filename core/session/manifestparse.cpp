// The manifest's reader: a single pass over the bytes for the frames toJson() writes, with
// QJsonDocument as the fallback for anything else (see manifestparse.h for why and how).
#include "core/session/manifestparse.h"

#include "core/common/hugepages.h"
#include "core/common/threadpriority.h"
#include "core/session/framereader.h"
#include "core/session/jsonscanner.h"

#include <QFuture>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtConcurrent/QtConcurrentRun>

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

/** Frames read by one pass over part of the "frames" array. */
struct FramesPart {
    const char *base = nullptr; // nodes only: where the whole text begins (a node's offset is from here)
    QList<FrameNode> nodes;     // nodes only: one per frame read, in order
    QList<Frame> frames;        // every frame read; nodes only: those read through QJsonDocument
    int badFrame = -1;          // index in the whole array
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
    const bool nodesOnly = out->base != nullptr;
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
            // Read in place, in the list's own memory: a frame is ~1 KB, and building it on the
            // stack first cost a move into the list and a destructor, 10,000 times.
            Reader::Status st = Reader::Ok;
            if (nodesOnly) {
                FrameNode &node = out->nodes.emplace_back();
                st = readFrameNode(r, interns, &node);
                node.offset = start - out->base;
                node.length = r.pos() - start;
                if (st != Reader::Ok)
                    out->nodes.removeLast();
            } else {
                st = readFrame(r, interns, &out->frames.emplace_back());
                if (st != Reader::Ok)
                    out->frames.removeLast(); // partly read: the slow path below reads it again
            }
            if (st == Reader::Bad)
                return PartEnd::Invalid;
            if (st == Reader::Ok) {
                ++out->readFast;
                if (i - firstIndex == 63) {
                    // Room for as many frames as the text seems to hold: growing a list of
                    // 10,000 frames step by step moved each of them several times.
                    const double perFrame = double(r.pos() - spanBegin) / 64;
                    const qsizetype expected = qsizetype(double(spanEnd - spanBegin) / perFrame * 1.1) + 64;
                    if (nodesOnly)
                        out->nodes.reserve(expected);
                    else
                        out->frames.reserve(expected);
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
                if (readFrameDom(QJsonValue(doc.object()), i, &one)) {
                    if (nodesOnly)
                        out->nodes.append(FrameNode::of(one.frames.first())); // held built (no offset)
                    out->frames.append(std::move(one.frames.first()));
                } else if (out->badFrame < 0) {
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
 * two frames near the middle of the text. A checkpoint is written one frame per line
 * (manifestBytes(): "},\n{" between two frames); one written before that was indented, where
 * a frame ends in a line "        }," followed by one starting "        {". A line break is never
 * inside a JSON string, so either is a guess that is almost always right, and the first thread
 * proves it (it must arrive at exactly this ',' reading element by element).
 */
const char *splitPoint(const char *from, const char *end)
{
    const char *mid = from + (end - from) / 2;
    const QByteArrayView rest(mid, end - mid);
    // from: the first element's '{', just after the array's "[\n" when written one per line.
    if (from[-1] == '\n') {
        static constexpr char kLines[] = "},\n{";
        const qsizetype at = rest.indexOf(QByteArrayView(kLines, sizeof(kLines) - 1));
        return at < 0 ? nullptr : mid + at + 1; // the ',' after '}'
    }
    static constexpr char kIndented[] = "\n        },\n        {";
    const qsizetype at = rest.indexOf(QByteArrayView(kIndented, sizeof(kIndented) - 1));
    return at < 0 ? nullptr : mid + at + 10; // the ',' after "\n        }"
}

/** A "frames" array worth two threads (a checkpoint of a few thousand frames). */
constexpr qsizetype kSplitBytes = 1 << 20;

/** The "frames" array at the cursor. false: not valid JSON. */
bool readFrames(Reader &r, const char *begin, const char *end, ParsedManifest *out)
{
    const char *base = out->nodesOnly ? begin : nullptr;
    r.eat('[');
    if (r.eat(']'))
        return true;
    // r is at the first element (the '[' is behind it, so splitPoint() may look back a byte).
    const char *stop = end - r.pos() >= kSplitBytes && helperThreadsWelcome() ? splitPoint(r.pos(), end) : nullptr;
    // The second half on another thread, from the guessed boundary; used only if the first
    // half proves the guess. Its frames' indices are fixed up once the first half's count is
    // known.
    FramesPart second;
    const char *secondEnd = nullptr;
    PartEnd secondResult = PartEnd::Invalid;
    QFuture<void> secondDone;
    if (stop) {
        second.base = base;
        secondDone = QtConcurrent::run([&second, &secondEnd, &secondResult, stop, end] {
            preferHugePagesForThisThread(); // the second half's frames are allocated here
            Reader r2(stop + 1, end);
            secondResult = readFrameElements(r2, nullptr, 0, end, &second);
            secondEnd = r2.pos();
        });
    }
    FramesPart first;
    first.base = base;
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
        first.nodes.append(std::move(second.nodes));
        first.readFast += second.readFast;
        first.count += second.count;
        r.seek(secondEnd);
        out->readInTwo = true;
    }
    out->badFrame = first.badFrame;
    out->badFrameMessage = first.badFrameMessage;
    out->readFast = first.readFast;
    out->frames = std::move(first.frames);
    out->nodes = std::move(first.nodes);
    if (out->badFrame >= 0) {
        // Frames up to the first that does not read, as before.
        if (base && out->nodes.size() > out->badFrame) {
            int built = 0; // the frames held built among the nodes kept
            for (int k = 0; k < out->badFrame; ++k)
                built += out->nodes.at(k).offset < 0;
            out->nodes.resize(out->badFrame);
            out->frames.resize(built);
        } else if (!base && out->frames.size() > out->badFrame) {
            out->frames.resize(out->badFrame);
        }
    }
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
                    if (!readFrames(r, begin, begin + raw.size(), out))
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

Result<ParsedManifest> parseManifest(const QByteArray &raw, FrameDepth depth)
{
    ParsedManifest out;
    out.nodesOnly = depth == FrameDepth::Nodes;
    if (parseFast(raw, &out))
        return out;
    return parseManifestDom(raw); // every frame built: what nodes would save is not the cost here
}

} // namespace nb2
