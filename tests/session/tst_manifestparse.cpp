// The single-pass manifest reader (core/session/manifestparse.h) against the QJsonDocument
// reference: every text gives the same frames, the same top-level fields and the same error,
// and the frames toJson() writes are read by the single pass (not the fallback).

#include "core/common/threadpriority.h"
#include "core/session/journal.h"
#include "core/session/manifestparse.h"
#include "core/session/sessionstore.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <thread>

#include <sys/resource.h>
#include <unistd.h>

using namespace nb2;

namespace {

Frame richFrame(int i)
{
    Frame f;
    f.id = QStringLiteral("%1").arg(0x10000000 + i, 8, 16, QLatin1Char('0'));
    f.parentId = i ? QStringLiteral("%1").arg(0x10000000 + i - 1, 8, 16, QLatin1Char('0')) : QString();
    f.kind = i ? FrameKind::Edit : FrameKind::Generate;
    f.prompt
        = QStringLiteral("step %1: \"quotes\", a back\\slash, a tab\t, a newline\n, é, 日本, 🦆, /slash").arg(i);
    f.aspectRatio = QStringLiteral("16:9");
    f.thinkingLevel = QStringLiteral("high");
    f.model = QStringLiteral("gemini-3.1-flash-lite-image");
    f.interactionId = QStringLiteral("v1_interaction_%1").arg(i);
    f.continuedInteractionId = i ? QStringLiteral("v1_interaction_%1").arg(i - 1) : QString();
    f.status = FrameStatus::Done;
    f.requestedAt = QDateTime(QDate(2026, 12, 1), QTime(12, 16, 43, 129), Qt::UTC).addSecs(i);
    f.finishedAt = f.requestedAt.addMSecs(1234);
    f.image.file = QStringLiteral("images/edit_1796127403_%1.jpg").arg(f.id);
    f.image.sha256 = QStringLiteral("0613ee1d417f14992abe3a47668f3e31e357bcc13a95abfeb0e2c99d1db6b941");
    f.image.mimeType = QStringLiteral("image/jpeg");
    f.image.width = 1024;
    f.image.height = 768;
    f.modelText = QStringLiteral("Here is lane %1.").arg(i);
    f.usage.inputTokens = 1149;
    f.usage.outputTokens = 1146;
    f.usage.thoughtTokens = 90;
    f.usage.totalTokens = 2385;
    f.usage.imageOutputTokens = 1120;
    f.attempts = 2;
    f.reAnchored = i % 2;
    f.title = QStringLiteral("title %1").arg(i);
    f.starred = i % 3 == 0;
    f.folded = i % 5 == 0;
    f.note = QStringLiteral("a note");
    f.idExpiresAt = f.finishedAt.addDays(55);
    if (i % 7 == 0) {
        f.trashedAt = f.finishedAt.addSecs(60);
        f.trashGroup = QStringLiteral("g1");
    }
    f.ownerPid = i % 4 == 0 ? 4194303 : 0;
    f.origin = i % 2 ? QString(kFrameOriginMcp) : QString();
    f.replayOf = QStringLiteral("abcdef01");
    f.replayRun = QStringLiteral("run1");
    f.promptSent = QStringLiteral("sent");
    if (i % 3 == 1) { // the drift meter's reading (every edit has one)
        f.drift.measure = QStringLiteral("cie76_grid256_de10");
        f.drift.changed = 0.1031951904296875 * (i % 5);
        f.drift.heatmapFile = QStringLiteral("images/drift_%1.png").arg(f.id);
    } else if (i % 3 == 2) {
        f.drift.measure = QStringLiteral("cie76_grid256_de10");
        f.drift.changed = 1.0 / (i + 1);
        f.drift.outsideChanged = 0.25;
    }
    return f;
}

QJsonObject manifestHead()
{
    QJsonObject root;
    root.insert(QLatin1String("format"), QLatin1String("nb2lite-session"));
    root.insert(QLatin1String("schema_version"), 2);
    root.insert(QLatin1String("created_at"), QLatin1String("2026-12-01T12:15:51.136Z"));
    root.insert(QLatin1String("current_frame"), QLatin1String("10000001"));
    root.insert(QLatin1String("journal_offset"), 3731519);
    return root;
}

QByteArray manifestOf(const QJsonArray &frames, QJsonDocument::JsonFormat format = QJsonDocument::Indented)
{
    QJsonObject root = manifestHead();
    root.insert(QLatin1String("frames"), frames);
    return QJsonDocument(root).toJson(format);
}

/** An array's elements one per line, as a checkpoint writes its frames: "[\n{…},\n{…}\n]". */
QByteArray elementsInLines(const QJsonArray &elements)
{
    QByteArray out("[");
    for (qsizetype i = 0; i < elements.size(); ++i) {
        out += i ? ",\n" : "\n";
        // Any value (a test puts a number among the frames): its text inside a one-element array.
        out += QJsonDocument(QJsonArray {elements.at(i)}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
    }
    return out + "\n]";
}

/** The layout of a checkpoint (manifestBytes()): the other fields on the first line, then one frame per line. */
QByteArray manifestInLines(const QJsonArray &frames, const QByteArray &after = {})
{
    QByteArray head = QJsonDocument(manifestHead()).toJson(QJsonDocument::Compact);
    head.chop(1);
    return head + ",\"frames\":" + elementsInLines(frames) + after + "}\n";
}

/** The two layouts a big checkpoint is found in: one frame per line (written now), indented (before). */
enum class Layout { Lines, Indented };

QByteArray manifestIn(Layout layout, const QJsonArray &frames)
{
    return layout == Layout::Lines ? manifestInLines(frames) : manifestOf(frames, QJsonDocument::Indented);
}

void addLayoutColumn()
{
    QTest::addColumn<Layout>("layout");
}

/** A test's data: one row per layout. */
void addLayoutRows()
{
    addLayoutColumn();
    QTest::newRow("one frame per line") << Layout::Lines;
    QTest::newRow("indented") << Layout::Indented;
}

/** Both readers agree on text (the single pass may fall back; the result must not differ). */
void expectSame(const QByteArray &text, int *readFast = nullptr)
{
    const Result<ParsedManifest> fast = parseManifest(text);
    const Result<ParsedManifest> dom = parseManifestDom(text);
    QCOMPARE(bool(fast), bool(dom));
    if (!dom) {
        QCOMPARE(fast.error().kind, dom.error().kind);
        QCOMPARE(fast.error().message, dom.error().message);
        return;
    }
    const ParsedManifest &a = fast.value(), &b = dom.value();
    QCOMPARE(a.root, b.root);
    QCOMPARE(a.framesIsArray, b.framesIsArray);
    QCOMPARE(a.badFrame, b.badFrame);
    QCOMPARE(a.badFrameMessage, b.badFrameMessage);
    QCOMPARE(a.frames.size(), b.frames.size());
    for (int i = 0; i < a.frames.size(); ++i) {
        QCOMPARE(a.frames.at(i).toJson(), b.frames.at(i).toJson());
        QCOMPARE(a.frames.at(i).requestedAt, b.frames.at(i).requestedAt);
        QCOMPARE(a.frames.at(i).usage.inputTokens, b.frames.at(i).usage.inputTokens);
        QCOMPARE(a.frames.at(i).usage.totalTokens, b.frames.at(i).usage.totalTokens);
        // Bit for bit (QCOMPARE of doubles calls -0.0 and 0.0 the same).
        const FrameDrift &da = a.frames.at(i).drift, &db = b.frames.at(i).drift;
        QVERIFY(std::memcmp(&da.changed, &db.changed, sizeof(double)) == 0);
        QVERIFY(std::memcmp(&da.outsideChanged, &db.outsideChanged, sizeof(double)) == 0);
        QCOMPARE(da.measure, db.measure);
        QCOMPARE(da.heatmapFile, db.heatmapFile);
    }
    if (readFast)
        *readFast = a.readFast;

    // Frames on demand: the same text read for nodes says the same, and every node's frame,
    // built later from its bytes, is the frame the reference reads.
    const Result<ParsedManifest> nodes = parseManifest(text, FrameDepth::Nodes);
    QVERIFY(nodes);
    const ParsedManifest &n = nodes.value();
    QCOMPARE(n.root, b.root);
    QCOMPARE(n.framesIsArray, b.framesIsArray);
    QCOMPARE(n.badFrame, b.badFrame);
    QCOMPARE(n.badFrameMessage, b.badFrameMessage);
    if (!n.nodesOnly) { // not read in one pass: every frame built, as the reference reads them
        QCOMPARE(n.frames.size(), b.frames.size());
        return;
    }
    QCOMPARE(n.nodes.size(), b.frames.size());
    const FrameSource source(text);
    qsizetype held = 0;
    for (int i = 0; i < n.nodes.size(); ++i) {
        const FrameNode &node = n.nodes.at(i);
        const Frame &expected = b.frames.at(i);
        const Frame built = node.offset < 0 ? n.frames.value(held++) : source.build(node);
        QCOMPARE(built.toJson(), expected.toJson());
        QCOMPARE(built.requestedAt, expected.requestedAt);
        const FrameNode want = FrameNode::of(expected);
        QCOMPARE(node.id, want.id);
        QCOMPARE(node.parentId, want.parentId);
        QCOMPARE(node.imageFile, want.imageFile);
        QCOMPARE(node.model, want.model);
        QVERIFY(node.usage == want.usage);
        QCOMPARE(node.ownerPid, want.ownerPid);
        QCOMPARE(node.status, want.status);
        QCOMPARE(node.kind, want.kind);
        QCOMPARE(node.trashed, want.trashed);
        QCOMPARE(node.keepListSet, want.keepListSet);
    }
    QCOMPARE(held, n.frames.size()); // every frame held built belongs to a node
}

/** One frame's JSON with one field replaced by raw JSON text (a wrong type, a duplicate...). */
QByteArray withFrameText(const QByteArray &frameJson)
{
    return QByteArrayLiteral("{\"format\":\"nb2lite-session\",\"schema_version\":2,\"frames\":[") + frameJson
        + QByteArrayLiteral("]}");
}

const QByteArray kMinimal = QByteArrayLiteral("\"id\":\"0000000a\",\"kind\":\"edit\",\"status\":\"done\"");

} // namespace

Q_DECLARE_METATYPE(Layout)

class TestManifestParse : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void writtenFramesReadInOnePass()
    {
        QJsonArray frames;
        for (int i = 0; i < 40; ++i)
            frames.append(richFrame(i).toJson());
        for (const auto format : {QJsonDocument::Indented, QJsonDocument::Compact}) {
            int fast = -1;
            expectSame(manifestOf(frames, format), &fast);
            QCOMPARE(fast, 40); // none fell back to QJsonDocument
        }
        const Result<ParsedManifest> parsed = parseManifest(manifestOf(frames));
        QVERIFY(parsed);
        const Frame expected = richFrame(3);
        const Frame &got = parsed.value().frames.at(3);
        QCOMPARE(got.toJson(), expected.toJson());
        QCOMPARE(got.prompt, expected.prompt);
        QCOMPARE(got.finishedAt, expected.finishedAt);
        QCOMPARE(got.ownerPid, 0);
        QCOMPARE(parsed.value().frames.at(4).ownerPid, qint64(4194303));
        QCOMPARE(parsed.value().root.value(QLatin1String("journal_offset")).toInteger(), 3731519);
        QVERIFY(!parsed.value().root.contains(QLatin1String("frames")));
    }

    void aBigArrayIsReadByTwoThreadsAndAgrees_data() { addLayoutRows(); }

    void aBigArrayIsReadByTwoThreadsAndAgrees()
    {
        QFETCH(Layout, layout);
        QJsonArray frames;
        for (int i = 0; i < 1200; ++i) // ~1.1 MB in lines, ~1.5 MB indented: over the two-thread threshold
            frames.append(richFrame(i).toJson());
        const QByteArray text = manifestIn(layout, frames);
        QVERIFY(text.size() > (1 << 20));
        int fast = -1;
        expectSame(text, &fast);
        QCOMPARE(fast, 1200);
        const Result<ParsedManifest> parsed = parseManifest(text);
        QVERIFY(parsed.value().readInTwo);
        QCOMPARE(parsed.value().frames.size(), 1200);
        QCOMPARE(parsed.value().frames.at(1199).id, richFrame(1199).id); // order kept across the halves
        QCOMPARE(parsed.value().frames.at(600).id, richFrame(600).id);
    }

    void aCheckpointIsWrittenOneFramePerLineAndReadByTwoThreads()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SessionStore store;
        QVERIFY(store.open(dir.path()));
        QList<Frame> frames;
        for (int i = 0; i < 1200; ++i)
            frames.append(richFrame(i));
        QVERIFY(store.commit(frames, {}, frames.last().id));
        QVERIFY(store.checkpoint());
        store.close();
        QFile file(dir.path() + QStringLiteral("/manifest.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.size() > (1 << 20));
        // The layout: the other fields on the first line, each frame alone on a line, then "]}".
        const QList<QByteArray> lines = text.split('\n');
        QCOMPARE(lines.size(), 1200 + 3); // + the head, the close and the empty rest after the last line break
        QVERIFY(lines.first().startsWith("{\"") && lines.first().endsWith(",\"frames\":["));
        QCOMPARE(lines.at(1201), QByteArray("]}"));
        for (const int i : {0, 1, 599, 600, 1199}) {
            const QByteArray line = lines.at(1 + i).endsWith(',') ? lines.at(1 + i).chopped(1) : lines.at(1 + i);
            QJsonParseError error;
            const QJsonDocument alone = QJsonDocument::fromJson(line, &error);
            QCOMPARE(error.error, QJsonParseError::NoError);
            QCOMPARE(alone.object(), richFrame(i).toJson());
        }
        int fast = -1;
        expectSame(text, &fast);
        QCOMPARE(fast, 1200);
        const Result<ParsedManifest> parsed = parseManifest(text);
        QVERIFY(parsed.value().readInTwo);
        QCOMPARE(parsed.value().frames.size(), 1200);
        QCOMPARE(parsed.value().root.value(QLatin1String("current_frame")).toString(), richFrame(1199).id);
    }

    void aNicedCallerReadsAlone()
    {
        // The studio's start-up parse runs on a niced thread: it must not hand half of the work
        // to a normal-priority helper. The result is the same.
        QJsonArray frames;
        for (int i = 0; i < 1200; ++i)
            frames.append(richFrame(i).toJson());
        const QByteArray text = manifestOf(frames);
        QVERIFY(helperThreadsWelcome());
        bool welcome = true, two = true;
        qsizetype count = 0;
        std::thread niced([&] {
            setpriority(PRIO_PROCESS, id_t(gettid()), getpriority(PRIO_PROCESS, id_t(gettid())) + 5);
            welcome = helperThreadsWelcome();
            const Result<ParsedManifest> parsed = parseManifest(text);
            two = parsed.value().readInTwo;
            count = parsed.value().frames.size();
        });
        niced.join();
        QVERIFY(!welcome);
        QVERIFY(!two);
        QCOMPARE(count, qsizetype(1200));
    }

    void aBadFrameInEitherHalfIsReportedAsByOneThread_data()
    {
        QTest::addColumn<int>("bad");
        QTest::addColumn<QByteArray>("element");
        addLayoutColumn();
        for (const Layout layout : {Layout::Lines, Layout::Indented}) {
            const char *in = layout == Layout::Lines ? ", one frame per line" : ", indented";
            QTest::addRow("second half, not an object%s", in) << 1000 << QByteArray("42") << layout;
            QTest::addRow("second half, no id%s", in)
                << 1100 << QByteArray("{\"kind\":\"edit\",\"status\":\"done\"}") << layout;
            QTest::addRow("first half, no id%s", in)
                << 10 << QByteArray("{\"kind\":\"edit\",\"status\":\"done\"}") << layout;
            QTest::addRow("second half, unusual but good%s", in)
                << 1001 << QByteArray("{\"id\":\"0000000a\",\"kind\":\"edit\",\"status\":\"done\",\"new_field\":1}")
                << layout;
        }
    }

    void aBadFrameInEitherHalfIsReportedAsByOneThread()
    {
        QFETCH(int, bad);
        QFETCH(QByteArray, element);
        QFETCH(Layout, layout);
        QJsonArray frames;
        for (int i = 0; i < 1200; ++i)
            frames.append(i == bad ? QJsonDocument::fromJson("[" + element + "]").array().at(0)
                                   : QJsonValue(richFrame(i).toJson()));
        const QByteArray text = manifestIn(layout, frames);
        expectSame(text);
        if (bad >= 600)
            QVERIFY(parseManifest(text).value().readInTwo);
    }

    void invalidTextInTheSecondHalfGivesTheSameError_data() { addLayoutRows(); }

    void invalidTextInTheSecondHalfGivesTheSameError()
    {
        QFETCH(Layout, layout);
        QJsonArray frames;
        for (int i = 0; i < 1200; ++i)
            frames.append(richFrame(i).toJson());
        QByteArray text = manifestIn(layout, frames);
        const qsizetype at = text.lastIndexOf("\"title\"");
        text.insert(at, "\"unterminated");
        expectSame(text);
    }

    void aGuessOutsideTheArrayIsNotUsed_data() { addLayoutRows(); }

    void aGuessOutsideTheArrayIsNotUsed()
    {
        // A small "frames" array, then a big unknown field whose objects are laid out exactly
        // like frames: the guessed boundary falls in that field, the first thread never arrives
        // at it, and the one-thread result stands. (Indented, keys are written sorted, so the
        // field follows "frames"; a checkpoint written one per line puts "frames" last, this
        // crafted file does not.)
        QFETCH(Layout, layout);
        QJsonArray frames;
        for (int i = 0; i < 5; ++i)
            frames.append(richFrame(i).toJson());
        QJsonArray lookalike;
        for (int i = 0; i < 1200; ++i)
            lookalike.append(richFrame(i).toJson());
        QByteArray text;
        if (layout == Layout::Lines) {
            text = manifestInLines(frames, ",\"zz_newer_field\":" + elementsInLines(lookalike));
        } else {
            QJsonObject root = QJsonDocument::fromJson(manifestOf(frames)).object();
            root.insert(QLatin1String("zz_newer_field"), lookalike);
            text = QJsonDocument(root).toJson(QJsonDocument::Indented);
        }
        QVERIFY(text.size() > (1 << 20));
        expectSame(text);
        const Result<ParsedManifest> parsed = parseManifest(text);
        QVERIFY(!parsed.value().readInTwo);
        QCOMPARE(parsed.value().frames.size(), 5);
        QCOMPARE(parsed.value().root.value(QLatin1String("zz_newer_field")).toArray().size(), 1200);
    }

    void stringsAreScannedRightAtEveryOffset()
    {
        // The string scanner takes 16 bytes at a time: a quote, an escape, a control byte, a
        // multi-byte or an invalid UTF-8 sequence at any offset (and across a 16-byte step)
        // must read exactly as QJsonDocument reads it.
        const QList<QByteArray> specials {"\\\"", "\\\\", "\\n", "\\u00e9", "\xc3\xa9", "\xe6\x97\xa5",
            "\xf0\x9f\xa6\x86", "\xff", "\xc3", "\x01", "\t", "\x7f"};
        for (int k = 0; k < 40; ++k) {
            for (const QByteArray &special : specials) {
                const QByteArray prompt = QByteArray(k, 'a') + special + QByteArray(37 - k % 7, 'b');
                const QByteArray text = withFrameText("{" + kMinimal + ",\"prompt\":\"" + prompt + "\"}");
                expectSame(text);
                if (QTest::currentTestFailed()) {
                    qWarning() << "offset" << k << "special" << special.toHex();
                    return;
                }
            }
        }
    }

    void whiteSpaceRunsOfEveryLengthAgree()
    {
        // White space is skipped 16 bytes at a time once a run is two bytes or longer: runs of
        // every length (across one and two 16-byte steps, at the end of the text) of each
        // kind, around every token of a frame, must read as QJsonDocument reads them.
        const QList<QByteArray> kinds {" ", "\t", "\n", "\r\n", " \t\r\n"};
        for (int n = 0; n <= 40; ++n) {
            for (const QByteArray &unit : kinds) {
                QByteArray run;
                while (run.size() < n)
                    run += unit;
                run.truncate(n);
                const QByteArray frame = "{" + run + "\"id\"" + run + ":" + run + "\"0000000a\"" + run + "," + run
                    + "\"kind\":\"edit\"," + run + "\"status\"" + run + ":\"done\"," + run + "\"image\":{" + run
                    + "\"width\"" + run + ":" + run + "7" + run + "}" + run + "}";
                const QByteArray other = QByteArray(frame).replace("0000000a", "0000000b");
                const QByteArray text = withFrameText(run + frame + run + "," + run + other) + run;
                int readFast = -1;
                expectSame(text, &readFast);
                if (QTest::currentTestFailed()) {
                    qWarning() << "run of" << n << unit.toHex();
                    return;
                }
                QCOMPARE(readFast, 2);
            }
        }
    }

    void timesReadAsTheReferenceReadsThem_data()
    {
        QTest::addColumn<QByteArray>("time");
        for (const char *t : {"2026-12-01T12:16:43.129Z", "1970-01-01T00:00:00.000Z", "1969-12-31T23:59:59.999Z",
                 "0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z", "2024-02-29T10:00:00.000Z",
                 "2000-02-29T10:00:00.000Z", "2100-02-29T10:00:00.000Z", "2023-02-29T10:00:00.000Z",
                 "2026-04-31T10:00:00.000Z", "2026-13-01T10:00:00.000Z", "2026-00-01T10:00:00.000Z",
                 "2026-01-00T10:00:00.000Z", "0000-01-01T00:00:00.000Z", "2026-01-01T24:00:00.000Z",
                 "2026-01-01T23:60:00.000Z", "2026-12-31T23:59:60.000Z", "2026-01-01T00:00:00.1a3Z",
                 "2026-01-01 00:00:00.000Z", "2026-01-01T00:00:00.000+", "1600-03-01T00:00:00.000Z",
                 "1899-12-31T23:59:59.000Z"})
            QTest::newRow(t) << QByteArray(t);
    }

    void timesReadAsTheReferenceReadsThem()
    {
        // Times in toIsoUtc's form are computed from their digits (not through QDate/QTime);
        // every date, valid or not, must give what Frame::fromJson gives.
        QFETCH(QByteArray, time);
        const QByteArray frame = "{" + kMinimal + ",\"requested_at\":\"" + time + "\",\"finished_at\":\"" + time
            + "\",\"id_expires_at\":\"" + time + "\",\"trashed_at\":\"" + time + "\"}";
        expectSame(withFrameText(frame));
        const Result<ParsedManifest> fast = parseManifest(withFrameText(frame));
        const Result<ParsedManifest> dom = parseManifestDom(withFrameText(frame));
        QVERIFY(fast && dom);
        const Frame &a = fast.value().frames.first(), &b = dom.value().frames.first();
        for (const auto &[x, y] : {std::pair {a.requestedAt, b.requestedAt}, std::pair {a.finishedAt, b.finishedAt},
                 std::pair {a.idExpiresAt, b.idExpiresAt}, std::pair {a.trashedAt, b.trashedAt}}) {
            QCOMPARE(x.isValid(), y.isValid());
            QCOMPARE(x, y);
            QCOMPARE(x.timeSpec(), y.timeSpec());
            QCOMPARE(toIsoUtc(x), toIsoUtc(y));
        }
    }

    void aKeyOneByteFromAKnownNameIsKeptAsUnknown()
    {
        // Keys are matched by length, then bytes: a key of a known name's length that differs
        // in one byte (first, middle or last) is no field the single pass knows; the frame goes
        // to Frame::fromJson, which keeps it in "extra", and both readers agree.
        const QList<QByteArray> names {"id", "parent", "kind", "prompt", "aspect_ratio", "thinking_level", "model",
            "interaction_id", "continued_interaction_id", "status", "requested_at", "finished_at", "image",
            "model_text", "usage", "attempts", "re_anchored", "title", "starred", "folded", "note", "id_expires_at",
            "trashed_at", "trash_group", "owner_pid", "origin", "replay_of", "replay_run", "prompt_sent"};
        for (const QByteArray &name : names) {
            for (const int at : {0, int(name.size() / 2), int(name.size() - 1)}) {
                QByteArray key = name;
                key[at] = key[at] == 'x' ? 'y' : 'x';
                const QByteArray plain = "{" + kMinimal + "}";
                const QByteArray odd = "{" + kMinimal + ",\"" + key + "\":\"v\"}";
                int readFast = -1;
                expectSame(withFrameText(plain + "," + odd + "," + plain), &readFast);
                QVERIFY2(readFast == 2, key.constData());
                const Result<ParsedManifest> parsed = parseManifest(withFrameText(odd));
                QVERIFY(parsed);
                QCOMPARE(parsed.value().frames.first().extra.value(QLatin1String(key)).toString(), QStringLiteral("v"));
            }
        }
        // And every image and usage key the writer uses is read in the single pass.
        const QByteArray all = "{" + kMinimal
            + ",\"image\":{\"file\":\"images/a.png\",\"sha256\":\"ab\",\"mime_type\":\"image/png\",\"width\":3,"
              "\"height\":4},\"usage\":{\"input_tokens\":1,\"output_tokens\":2,\"thought_tokens\":3,"
              "\"total_tokens\":6,\"image_output_tokens\":5}}";
        int readFast = -1;
        expectSame(withFrameText(all), &readFast);
        QCOMPARE(readFast, 1);
        const Frame f = parseManifest(withFrameText(all)).value().frames.first();
        QCOMPARE(f.image.sha256, QStringLiteral("ab"));
        QCOMPARE(f.image.mimeType, QStringLiteral("image/png"));
        QCOMPARE(f.image.height, 4);
        QCOMPARE(f.usage.thoughtTokens, 3);
        QCOMPARE(f.usage.imageOutputTokens, 5);
    }

    void journalCommitsReadInOnePassAndAgree()
    {
        // Journal::readCommits reads appendCommits()'s lines in one pass; every other line goes
        // through QJsonDocument + Frame::fromJson. The commits must be exactly what that
        // reference reads from every line.
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("journal.jsonl"));
        Journal j(path);
        QList<JournalCommit> written;
        for (int i = 0; i < 6; ++i) {
            JournalCommit c;
            c.writer = QStringLiteral("writer%1").arg(i % 2);
            c.upserts = {richFrame(2 * i), richFrame(2 * i + 1)};
            if (i % 3 == 1)
                c.removals = {QStringLiteral("deadbeef"), QStringLiteral("0000000%1").arg(i)};
            if (i % 2)
                c.current = richFrame(2 * i).id;
            written.append(c);
        }
        QVERIFY(j.appendCommits(written.mid(0, 3)));
        QVERIFY(j.beginTurn(richFrame(40)));
        QVERIFY(j.recordInteractionId(QStringLiteral("10000028"), QStringLiteral("v1_x")));
        QFile f(path);
        QVERIFY(f.open(QIODevice::Append));
        // Unusual lines the reference reads: an unknown frame field, a key with an escape, a
        // duplicate key, the record's keys in another order with spaces, a torn line.
        f.write("{\"at\":\"x\",\"frames\":[{\"id\":\"aaaaaaa1\",\"kind\":\"edit\",\"status\":\"done\","
                "\"future\":1}],\"op\":\"commit\",\"w\":\"other\"}\n");
        f.write("{\"frames\":[{\"id\":\"aaaaaaa2\",\"kind\":\"edit\",\"status\":\"done\"}],\"o\\u0070\":\"commit\"}\n");
        f.write("{\"op\":\"commit\",\"current\":\"a\",\"current\":\"b\",\"frames\":[]}\n");
        f.write("{ \"w\" : \"spaced\", \"op\" : \"commit\", \"frames\" : [ {\"status\":\"done\",\"kind\":\"edit\","
                "\"id\":\"aaaaaaa3\"} ], \"removed\": [\"10000001\"] }\n");
        f.write("{\"frames\":[{\"id\":\"aaaaaaa4\",\"kind\":\"edit\",\"sta\n");
        f.close();
        QVERIFY(j.appendCommits(written.mid(3)));
        QVERIFY(j.endTurn(richFrame(40)));

        // The reference: every line through QJsonDocument and Frame::fromJson.
        QList<JournalCommit> expected;
        for (const QByteArray &line : [&] {
                 QFile in(path);
                 in.open(QIODevice::ReadOnly);
                 return in.readAll().split('\n');
             }()) {
            const QJsonObject rec = QJsonDocument::fromJson(line).object();
            if (rec.value(QLatin1String("op")).toString() != QLatin1String("commit"))
                continue;
            JournalCommit c;
            c.writer = rec.value(QLatin1String("w")).toString();
            for (const QJsonValue &v : rec.value(QLatin1String("frames")).toArray())
                c.upserts.append(Frame::fromJson(v.toObject()).value());
            for (const QJsonValue &v : rec.value(QLatin1String("removed")).toArray())
                c.removals.append(v.toString());
            c.current = rec.value(QLatin1String("current")).toString();
            expected.append(c);
        }
        QCOMPARE(expected.size(), 10); // 6 written + 4 unusual (the torn line is none)
        const Journal::Tail tail = Journal::readCommits(path, 0);
        QVERIFY(!tail.unsafe);
        QCOMPARE(tail.badLines, 1);
        QCOMPARE(tail.records, 13);
        QCOMPARE(tail.commits.size(), expected.size());
        for (int i = 0; i < expected.size(); ++i) {
            const JournalCommit &a = tail.commits.at(i), &b = expected.at(i);
            QCOMPARE(a.writer, b.writer);
            QCOMPARE(a.removals, b.removals);
            QCOMPARE(a.current, b.current);
            QCOMPARE(a.upserts.size(), b.upserts.size());
            for (int k = 0; k < a.upserts.size(); ++k)
                QCOMPARE(a.upserts.at(k).toJson(), b.upserts.at(k).toJson());
        }
        // What appendCommits writes is read by the single pass, not the fallback (and so is the
        // spaced record: only its layout differs).
        QFile in(path);
        QVERIFY(in.open(QIODevice::ReadOnly));
        int fast = 0;
        for (const QByteArray &line : in.readAll().split('\n')) {
            QString w, cur;
            QList<Frame> up;
            QStringList rm;
            if (parseCommitLine(line, &w, &up, &rm, &cur) == JournalLine::Commit)
                ++fast;
        }
        QCOMPARE(fast, 7);
    }

    void unusualFramesFallBackAndAgree_data()
    {
        QTest::addColumn<QByteArray>("frame");
        QTest::addColumn<bool>("fast");
        QTest::newRow("minimal") << QByteArray("{" + kMinimal + "}") << true;
        QTest::newRow("unknown field kept") << QByteArray("{" + kMinimal + ",\"future\":{\"a\":[1,2]}}") << false;
        QTest::newRow("error object") << QByteArray(
            "{" + kMinimal + ",\"error\":{\"kind\":\"network\",\"http_status\":503}}")
                                      << false;
        QTest::newRow("input images") << QByteArray("{" + kMinimal + ",\"input_images\":[\"images/a.png\"]}") << false;
        QTest::newRow("keep list") << QByteArray("{" + kMinimal + ",\"keep_list\":[\"the red hat\", 3]}") << false;
        QTest::newRow("attempts as string") << QByteArray("{" + kMinimal + ",\"attempts\":\"3\"}") << false;
        QTest::newRow("attempts fraction") << QByteArray("{" + kMinimal + ",\"attempts\":2.0}") << false;
        QTest::newRow("attempts exponent") << QByteArray("{" + kMinimal + ",\"attempts\":1e2}") << false;
        QTest::newRow("attempts beyond int") << QByteArray("{" + kMinimal + ",\"attempts\":4294967296}") << false;
        QTest::newRow("negative attempts") << QByteArray("{" + kMinimal + ",\"attempts\":-7}") << true;
        QTest::newRow("parent null") << QByteArray("{" + kMinimal + ",\"parent\":null}") << false;
        QTest::newRow("starred as 1") << QByteArray("{" + kMinimal + ",\"starred\":1}") << false;
        QTest::newRow("duplicate prompt")
            << QByteArray("{" + kMinimal + ",\"prompt\":\"a\",\"prompt\":\"b\"}") << false;
        QTest::newRow("duplicate image key")
            << QByteArray("{" + kMinimal + ",\"image\":{\"file\":\"images/a.png\",\"file\":\"images/b.png\"}}")
            << false;
        QTest::newRow("image extra key ignored")
            << QByteArray("{" + kMinimal + ",\"image\":{\"file\":\"images/a.png\",\"dpi\":[72]}}") << true;
        QTest::newRow("image as array") << QByteArray("{" + kMinimal + ",\"image\":[1]}") << false;
        QTest::newRow("usage as string") << QByteArray("{" + kMinimal + ",\"usage\":{\"input_tokens\":\"5\"}}")
                                         << false;
        QTest::newRow("usage huge") << QByteArray("{" + kMinimal + ",\"usage\":{\"input_tokens\":12345678901234567}}")
                                    << false;
        QTest::newRow("owner pid") << QByteArray("{" + kMinimal + ",\"owner_pid\":123456789012}") << true;
        // Outside qint64: the slow path's cast was undefined (fuzz_sessionload).
        QTest::newRow("owner pid beyond int64") << QByteArray("{" + kMinimal + ",\"owner_pid\":2.3e80}") << false;
        QTest::newRow("usage beyond int64")
            << QByteArray("{" + kMinimal + ",\"usage\":{\"output_tokens\":-1e300}}") << false;
        QTest::newRow("no id") << QByteArray("{\"kind\":\"edit\",\"status\":\"done\"}") << false;
        QTest::newRow("unknown kind") << QByteArray("{\"id\":\"0000000a\",\"kind\":\"paint\",\"status\":\"done\"}")
                                      << false;
        QTest::newRow("unknown status") << QByteArray("{\"id\":\"0000000a\",\"kind\":\"edit\",\"status\":\"x\"}")
                                        << false;
        QTest::newRow("escaped key") << QByteArray("{" + kMinimal + ",\"pro\\u006dpt\":\"p\"}") << false;
        QTest::newRow("escapes") << QByteArray(
            "{" + kMinimal + ",\"prompt\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\u0000\"}")
                                 << true;
        QTest::newRow("surrogate pair escape")
            << QByteArray("{" + kMinimal + ",\"prompt\":\"\\ud83e\\udd86\"}") << false;
        QTest::newRow("lone surrogate escape") << QByteArray("{" + kMinimal + ",\"prompt\":\"\\ud83e\"}") << false;
        QTest::newRow("noncharacter") << QByteArray("{" + kMinimal + ",\"prompt\":\"\xef\xbf\xbe\"}") << true;
        QTest::newRow("odd time") << QByteArray("{" + kMinimal + ",\"requested_at\":\"2026-01-02T03:04:05Z\"}") << true;
        QTest::newRow("bad time") << QByteArray("{" + kMinimal + ",\"finished_at\":\"2026-13-02T03:04:05.000Z\"}")
                                  << true;
        QTest::newRow("region edit") << QByteArray("{" + kMinimal + ",\"region_edit\":{\"mode\":\"nonsense\"}}")
                                     << false;
        QTest::newRow("drift") << QByteArray("{" + kMinimal
            + ",\"drift\":{\"measure\":\"cie76_grid256_de10\",\"changed\":0.1031951904296875,"
              "\"outside_changed\":0.5,\"heatmap\":\"images/drift_0000000a.png\"}}")
                               << true;
        QTest::newRow("drift integer") << QByteArray("{" + kMinimal + ",\"drift\":{\"changed\":1}}") << true;
        QTest::newRow("drift minus zero") << QByteArray("{" + kMinimal + ",\"drift\":{\"changed\":-0}}") << true;
        QTest::newRow("drift minus zero point zero")
            << QByteArray("{" + kMinimal + ",\"drift\":{\"changed\":-0.0}}") << true;
        QTest::newRow("drift exponent") << QByteArray("{" + kMinimal + ",\"drift\":{\"changed\":2.5e-1}}") << true;
        QTest::newRow("drift clamped") << QByteArray(
            "{" + kMinimal + ",\"drift\":{\"changed\":7,\"outside_changed\":-3}}")
                                       << true;
        QTest::newRow("drift tiny") << QByteArray("{" + kMinimal + ",\"drift\":{\"changed\":4.9e-324}}") << true;
        QTest::newRow("drift long fraction")
            << QByteArray("{" + kMinimal + ",\"drift\":{\"changed\":0.12345678901234567890123456789}}") << true;
        QTest::newRow("drift empty") << QByteArray("{" + kMinimal + ",\"drift\":{}}") << true;
        QTest::newRow("drift unknown key only") << QByteArray("{" + kMinimal + ",\"drift\":{\"x\":[1]}}") << true;
        QTest::newRow("drift changed as string")
            << QByteArray("{" + kMinimal + ",\"drift\":{\"changed\":\"0.5\"}}") << false;
        QTest::newRow("drift measure as number") << QByteArray("{" + kMinimal + ",\"drift\":{\"measure\":5}}") << false;
        QTest::newRow("drift duplicate key")
            << QByteArray("{" + kMinimal + ",\"drift\":{\"changed\":0.1,\"changed\":0.2}}") << false;
        QTest::newRow("drift as array") << QByteArray("{" + kMinimal + ",\"drift\":[0.1]}") << false;
        QTest::newRow("drift heatmap outside")
            << QByteArray("{" + kMinimal + ",\"drift\":{\"changed\":0.1,\"heatmap\":\"../../etc/passwd\"}}") << false;
        QTest::newRow("drift heatmap absolute")
            << QByteArray("{" + kMinimal + ",\"drift\":{\"changed\":0.1,\"heatmap\":\"/etc/passwd\"}}") << false;
        QTest::newRow("not an object") << QByteArray("[1]") << false;
    }

    void unusualFramesFallBackAndAgree()
    {
        QFETCH(QByteArray, frame);
        QFETCH(bool, fast);
        // The frame between two ordinary ones: only it may take the slow path.
        const QByteArray plain = "{" + kMinimal + "}";
        const QByteArray text = withFrameText(plain + ",\n" + frame + ",\n" + plain);
        int readFast = -1;
        expectSame(text, &readFast);
        const Result<ParsedManifest> parsed = parseManifest(text);
        QVERIFY(parsed);
        if (parsed.value().badFrame < 0)
            QCOMPARE(readFast, fast ? 3 : 2);
    }

    void invalidTextGivesTheSameError_data()
    {
        QTest::addColumn<QByteArray>("text");
        const QByteArray good = withFrameText("{" + kMinimal + "}");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("truncated") << good.left(good.size() - 3);
        QTest::newRow("garbage after") << QByteArray(good + "x");
        QTest::newRow("bom") << QByteArray("\xef\xbb\xbf" + good);
        QTest::newRow("top-level array") << QByteArray("[" + good + "]");
        QTest::newRow("frames not an array") << QByteArray("{\"format\":\"nb2lite-session\",\"frames\":{}}");
        QTest::newRow("no frames") << QByteArray("{\"format\":\"nb2lite-session\"}");
        QTest::newRow("two frames keys") << QByteArray("{\"frames\":[],\"frames\":[{" + kMinimal + "}]}");
        QTest::newRow("invalid utf-8") << withFrameText("{" + kMinimal + ",\"prompt\":\"\xc3\x28\"}");
        QTest::newRow("overlong utf-8") << withFrameText("{" + kMinimal + ",\"prompt\":\"\xc0\xaf\"}");
        QTest::newRow("utf-8 surrogate") << withFrameText("{" + kMinimal + ",\"prompt\":\"\xed\xa0\x80\"}");
        QTest::newRow("control char") << withFrameText("{" + kMinimal + ",\"prompt\":\"a\x01\"}");
        QTest::newRow("bad escape") << withFrameText("{" + kMinimal + ",\"prompt\":\"\\x\"}");
        QTest::newRow("short unicode escape") << withFrameText("{" + kMinimal + ",\"prompt\":\"\\u12\"}");
        QTest::newRow("leading zero") << withFrameText("{" + kMinimal + ",\"attempts\":01}");
        QTest::newRow("bare minus") << withFrameText("{" + kMinimal + ",\"attempts\":-}");
        QTest::newRow("trailing comma") << withFrameText("{" + kMinimal + ",}");
        QTest::newRow("bad literal") << withFrameText("{" + kMinimal + ",\"starred\":tru}");
        QTest::newRow("second frame bad after a bad first")
            << withFrameText("{\"kind\":\"edit\",\"status\":\"done\"}, 5, {" + kMinimal + ",}");
        QTest::newRow("deep nesting") << withFrameText(
            "{" + kMinimal + ",\"x\":" + QByteArray(2000, '[') + QByteArray(2000, ']') + "}");
        QTest::newRow("moderate nesting")
            << withFrameText("{" + kMinimal + ",\"x\":" + QByteArray(300, '[') + QByteArray(300, ']') + "}");
    }

    void invalidTextGivesTheSameError()
    {
        QFETCH(QByteArray, text);
        expectSame(text);
    }

    void numbersOutsideInt64ReadAsMissing()
    {
        // Casting them to qint64 was undefined behaviour (UBSan, found by fuzz_sessionload).
        const QJsonObject o = QJsonDocument::fromJson("{" + kMinimal
            + ",\"owner_pid\":2.3e80,\"usage\":{\"input_tokens\":1e19,\"output_tokens\":-1e300,"
              "\"total_tokens\":42.9}}")
                                  .object();
        const Result<Frame> f = Frame::fromJson(o);
        QVERIFY(f);
        QCOMPARE(f.value().ownerPid, qint64(0));           // no owner, as with the key missing
        QCOMPARE(f.value().usage.inputTokens, qint64(-1)); // unknown
        QCOMPARE(f.value().usage.outputTokens, qint64(-1));
        QCOMPARE(f.value().usage.totalTokens, qint64(42)); // in range: truncated, as always
    }

    void timingOnARealManifest()
    {
        // Measurement aid, not a check of time: NB2_MANIFEST_TIMING=<manifest.json> prints both
        // readers' times (best of 5) and checks they agree on that file.
        const QByteArray path = qgetenv("NB2_MANIFEST_TIMING");
        if (path.isEmpty())
            QSKIP("set NB2_MANIFEST_TIMING=<manifest.json> to time both readers on it");
        QFile file(QString::fromLocal8Bit(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray raw = file.readAll();
        double best[2] = {1e9, 1e9};
        for (int run = 0; run < 5; ++run) {
            for (int which = 0; which < 2; ++which) {
                QElapsedTimer t;
                t.start();
                const Result<ParsedManifest> r = which ? parseManifestDom(raw) : parseManifest(raw);
                best[which] = qMin(best[which], t.nsecsElapsed() / 1e6);
                QVERIFY(r);
            }
        }
        int fast = 0;
        expectSame(raw, &fast);
        qInfo("%lld bytes: single pass %.1f ms (%d frames read fast), QJsonDocument %.1f ms", qint64(raw.size()),
            best[0], fast, best[1]);
    }

    void timingOfOpen()
    {
        // Measurement aid: NB2_OPEN_TIMING=<a copy of a session> prints SessionStore::open's
        // time (each run, then the best of 7) on it, as the CLI opens it (for work: lock, writer).
        const QString dir = qEnvironmentVariable("NB2_OPEN_TIMING");
        if (dir.isEmpty())
            QSKIP("set NB2_OPEN_TIMING=<a copy of a session folder> to time SessionStore::open on it");
        double best = 1e9;
        QString runs;
        for (int run = 0; run < 7; ++run) {
            SessionStore store;
            QElapsedTimer t;
            t.start();
            QVERIFY(store.open(dir, SessionStore::OpenMode::OpenExisting));
            const double ms = t.nsecsElapsed() / 1e6;
            best = qMin(best, ms);
            runs += QStringLiteral(" %1").arg(ms, 0, 'f', 1);
            QVERIFY(store.graph().size() > 0);
            QElapsedTimer c;
            c.start();
            store.close();
            runs += QStringLiteral(" (close %1)").arg(c.nsecsElapsed() / 1e6, 0, 'f', 1);
        }
        qInfo("SessionStore::open:%s ms; best %.1f ms", qPrintable(runs), best);
    }

    void randomDamageGivesTheSameResult()
    {
        // A small fuzzer in the unit tests: byte flips, cuts and insertions of JSON's own characters.
        QJsonArray frames;
        for (int i = 0; i < 4; ++i)
            frames.append(richFrame(i).toJson());
        const QByteArray good = manifestOf(frames, QJsonDocument::Compact);
        QRandomGenerator rng(20261201);
        const char tokens[] = "{}[]\",:\\0123456789-.eEtrufalsn \x80\xc3\xff";
        for (int round = 0; round < 3000; ++round) {
            QByteArray text = good;
            const int edits = 1 + int(rng.bounded(3));
            for (int e = 0; e < edits; ++e) {
                const int at = int(rng.bounded(text.size()));
                const char c = tokens[rng.bounded(int(sizeof(tokens) - 1))];
                switch (rng.bounded(3)) {
                case 0:
                    text[at] = c;
                    break;
                case 1:
                    text.insert(at, c);
                    break;
                default:
                    text.remove(at, 1 + int(rng.bounded(8)));
                    break;
                }
            }
            expectSame(text);
            if (QTest::currentTestFailed()) {
                qWarning("damaged text: %s", text.toPercentEncoding("{}[]\",:").constData());
                return;
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestManifestParse)
#include "tst_manifestparse.moc"
