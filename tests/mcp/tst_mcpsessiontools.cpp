// The bridge's tools over a real session: McpHandler + McpSessionTools + SessionController
// against the in-process fake API. Checks what an agent gets back (texts, structuredContent,
// image blocks, errors that name the fix) and what the session keeps on disk.

#include "core/api/clientconfig.h"
#include "core/api/interactionsclient.h"
#include "core/api/thinkinglevels.h"
#include "core/fakeapi/fakeserver.h"
#include "core/mcp/mcpcall.h"
#include "core/mcp/mcphandler.h"
#include "core/mcp/mcpoutputcopy.h"
#include "core/mcp/mcpsessiontools.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "mcptestutil.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace nb2;
using namespace nb2::mcptest;

namespace {
const QString kKey = QStringLiteral("nb2-mcp-test-key-Q7w3Zr9Kx2");
}

class tst_McpSessionTools : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeServer> m_fake;
    std::unique_ptr<QTemporaryDir> m_tmp;
    std::unique_ptr<ThinkingLevels> m_levels;
    std::unique_ptr<SessionController> m_session;
    std::unique_ptr<McpSessionTools> m_tools;
    std::unique_ptr<McpHandler> m_handler;
    QList<QJsonObject> m_out;
    QByteArrayList m_rawOut;
    int m_nextId = 100;

    QString sessionDir() const { return m_tmp->filePath(QStringLiteral("session")); }

    ClientConfig config() const
    {
        ClientConfig c;
        c.baseUrl = m_fake->baseUrl();
        c.apiKey = ApiKey(kKey, QStringLiteral("GEMINI_API_KEY"));
        c.maxRetries = 0;
        c.maxRateLimitWaitMs = 1000; // a longer Retry-After comes back as an error at once
        c.readTimeoutMs = 20000;
        c.thinkingLevels = m_levels.get();
        return c;
    }

    McpBridgeOptions defaultOptions() const
    {
        McpBridgeOptions o;
        o.version = QStringLiteral("0.1.0");
        o.keySource = QStringLiteral("GEMINI_API_KEY");
        o.sessionDir = sessionDir();
        o.workingDir = m_tmp->path();
        o.thinkingLevels = m_levels.get();
        return o;
    }

    void start(McpBridgeOptions options, const QString &version = QStringLiteral("2025-11-25"))
    {
        m_handler.reset();
        m_tools.reset();
        m_out.clear(); // answers of the previous handler (m_rawOut keeps them for the key scan)
        m_session = std::make_unique<SessionController>();
        m_session->setClient(std::make_shared<InteractionsClient>(config()));
        const auto opened = m_session->open(sessionDir());
        QVERIFY2(opened.ok(), qPrintable(opened.error().message));
        m_tools = std::make_unique<McpSessionTools>(m_session.get(), options);
        m_handler = std::make_unique<McpHandler>(
            McpHandler::ServerInfo {QStringLiteral("nb2lite"), {}, QStringLiteral("0.1.0")}, m_tools.get());
        connect(m_handler.get(), &McpHandler::lineReady, this, [this](const QByteArray &l) {
            m_rawOut.append(l);
            m_out.append(QJsonDocument::fromJson(l).object());
        });
        const QJsonObject init = send(initializeRequest(1, version), 1);
        QCOMPARE(
            init.value(QLatin1String("result")).toObject().value(QLatin1String("protocolVersion")).toString(), version);
        m_handler->handleLine(notification(QStringLiteral("notifications/initialized")));
    }

    /** Sends a line and waits for the answer with this id. */
    QJsonObject send(const QByteArray &line, const QJsonValue &id, int timeoutMs = 20000)
    {
        m_handler->handleLine(line);
        return waitForAnswer(id, timeoutMs);
    }
    QJsonObject waitForAnswer(const QJsonValue &id, int timeoutMs = 20000)
    {
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < timeoutMs) {
            for (const QJsonObject &o : std::as_const(m_out))
                if (o.value(QLatin1String("id")) == id && !o.contains(QLatin1String("method")))
                    return o;
            QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 20);
        }
        qWarning() << "no answer for id" << id;
        return {};
    }
    QJsonObject call(const QString &tool, const QJsonObject &args,
        const QJsonValue &progressToken = QJsonValue(QJsonValue::Undefined))
    {
        const int id = m_nextId++;
        return send(toolCall(id, tool, args, progressToken), id);
    }
    QList<QJsonObject> notifications(const QString &method) const
    {
        QList<QJsonObject> out;
        for (const QJsonObject &o : m_out)
            if (o.value(QLatin1String("method")).toString() == method)
                out.append(o);
        return out;
    }
    QString generate(const QString &prompt, QString *interactionId = nullptr)
    {
        const QJsonObject r = call(QStringLiteral("generate_image"), {{QStringLiteral("prompt"), prompt}});
        if (isToolError(r))
            qWarning() << resultText(r);
        if (interactionId)
            *interactionId = structured(r).value(QLatin1String("interaction_id")).toString();
        return structured(r).value(QLatin1String("frame_id")).toString();
    }
    const FrameGraph &graph() const { return m_session->graph(); }

private Q_SLOTS:
    void init()
    {
        FakeServerOptions fo;
        fo.apiKey = kKey;
        m_fake = std::make_unique<FakeServer>(fo);
        QVERIFY(m_fake->start(0));
        m_tmp = std::make_unique<QTemporaryDir>();
        m_levels = std::make_unique<ThinkingLevels>(); // memory only
        m_out.clear();
        m_rawOut.clear();
        start(defaultOptions());
    }
    void cleanup()
    {
        m_handler.reset();
        m_tools.reset();
        if (m_session)
            m_session->waitForIdle(10000);
        // Never the key: not in any protocol line, not in any file of the session.
        for (const QByteArray &l : std::as_const(m_rawOut))
            QVERIFY2(!l.contains(kKey.toUtf8()), l.left(200).constData());
        if (m_tmp)
            QCOMPARE(filesContaining(m_tmp->path(), kKey.toUtf8()), QStringList());
        m_session.reset();
        m_fake.reset();
        m_tmp.reset();
    }

    void toolsListHasTheSeedsNamesAndSchemas()
    {
        const QJsonArray tools = send(request(2, QStringLiteral("tools/list")), 2)
                                     .value(QLatin1String("result"))
                                     .toObject()
                                     .value(QLatin1String("tools"))
                                     .toArray();
        QStringList names;
        for (const QJsonValue &t : tools) {
            names.append(t.toObject().value(QLatin1String("name")).toString());
            QVERIFY(t.toObject().value(QLatin1String("inputSchema")).toObject().value(QLatin1String("type"))
                == QStringLiteral("object"));
            QVERIFY(t.toObject().value(QLatin1String("outputSchema")).isObject());
        }
        QCOMPARE(names,
            (QStringList {QStringLiteral("generate_image"), QStringLiteral("edit_image"),
                QStringLiteral("edit_local_image"), QStringLiteral("edit_local_image_with_style"),
                QStringLiteral("branch_from"), QStringLiteral("list_frames"), QStringLiteral("get_help")}));
        auto prop = [&](const QString &tool, const QString &p) {
            for (const QJsonValue &t : tools)
                if (t.toObject().value(QLatin1String("name")).toString() == tool)
                    return t.toObject()
                        .value(QLatin1String("inputSchema"))
                        .toObject()
                        .value(QLatin1String("properties"))
                        .toObject()
                        .value(p)
                        .toObject();
            return QJsonObject();
        };
        QCOMPARE(prop(QStringLiteral("generate_image"), QStringLiteral("aspect_ratio"))
                     .value(QLatin1String("default"))
                     .toString(),
            QStringLiteral("1:1"));
        QVERIFY(prop(QStringLiteral("generate_image"), QStringLiteral("aspect_ratio"))
                    .value(QLatin1String("enum"))
                    .toArray()
                    .contains(QStringLiteral("21:9")));
        QCOMPARE(prop(QStringLiteral("edit_image"), QStringLiteral("thinking_level"))
                     .value(QLatin1String("default"))
                     .toString(),
            QStringLiteral("low"));
        QCOMPARE(
            prop(QStringLiteral("edit_image"), QStringLiteral("thinking_level")).value(QLatin1String("enum")).toArray(),
            (QJsonArray {QStringLiteral("low"), QStringLiteral("high")}));
        // edit_local's ratio has no default: it follows the input.
        QVERIFY(!prop(QStringLiteral("edit_local_image"), QStringLiteral("aspect_ratio"))
                     .contains(QLatin1String("default")));
    }

    void generateThenEditByTheReturnedId()
    {
        QSignalSpy added(m_session.get(), &SessionController::frameAdded);
        const QJsonObject r
            = call(QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("a red fox in snow")}});
        QVERIFY2(!isToolError(r), qPrintable(resultText(r)));
        const QJsonObject s = structured(r);
        const QString path = s.value(QLatin1String("path")).toString();
        QVERIFY(QFileInfo(path).isAbsolute() && QFileInfo::exists(path));
        QVERIFY2(QRegularExpression(QStringLiteral("^gen_\\d{10}_[0-9a-f]{8}\\.jpg$"))
                     .match(QFileInfo(path).fileName())
                     .hasMatch(),
            qPrintable(path));
        QCOMPARE(QFileInfo(path).absolutePath(), QDir(sessionDir()).filePath(QStringLiteral("images")));
        const QString text = resultText(r);
        for (const QString &field :
            {path, s.value(QLatin1String("interaction_id")).toString(), s.value(QLatin1String("frame_id")).toString()})
            QVERIFY2(text.contains(field), qPrintable(text));
        QCOMPARE(s.value(QLatin1String("aspect_ratio")).toString(), QStringLiteral("1:1"));
        QCOMPARE(s.value(QLatin1String("thinking_level")).toString(), QStringLiteral("low"));
        QCOMPARE(s.value(QLatin1String("kind")).toString(), QStringLiteral("generate"));

        // The preview: a real image, bounded.
        const QJsonArray images = blocks(r, QStringLiteral("image"));
        QCOMPARE(images.size(), 1);
        QCOMPARE(images.at(0).toObject().value(QLatin1String("mimeType")).toString(), QStringLiteral("image/jpeg"));
        const QImage preview = QImage::fromData(
            QByteArray::fromBase64(images.at(0).toObject().value(QLatin1String("data")).toString().toLatin1()));
        QVERIFY(!preview.isNull());
        QVERIFY(qMax(preview.width(), preview.height()) <= 512);
        QCOMPARE(blocks(r, QStringLiteral("resource_link")).size(), 1);

        // The frame on disk is marked as the agent's.
        const Frame gen = graph().value(s.value(QLatin1String("frame_id")).toString());
        QCOMPARE(gen.origin, QString(kFrameOriginMcp));
        // (manifest.json is a checkpoint of the journal: what is on disk is the two folded together)
        const Result<QByteArray> onDisk = SessionStore::foldedManifest(sessionDir());
        QVERIFY(onDisk);
        const QJsonArray framesOnDisk
            = QJsonDocument::fromJson(onDisk.value()).object().value(QLatin1String("frames")).toArray();
        const auto genOnDisk = std::find_if(framesOnDisk.begin(), framesOnDisk.end(),
            [&](const QJsonValue &f) { return f.toObject().value(QLatin1String("id")).toString() == gen.id; });
        QVERIFY(genOnDisk != framesOnDisk.end());
        QCOMPARE((*genOnDisk).toObject().value(QLatin1String("origin")).toString(), QStringLiteral("mcp"));

        const QJsonObject e = call(QStringLiteral("edit_image"),
            {{QStringLiteral("previous_interaction_id"), s.value(QLatin1String("interaction_id"))},
                {QStringLiteral("edit_prompt"), QStringLiteral("add a lantern")}});
        QVERIFY2(!isToolError(e), qPrintable(resultText(e)));
        const QJsonObject es = structured(e);
        QCOMPARE(es.value(QLatin1String("parent_frame_id")).toString(), gen.id);
        QCOMPARE(es.value(QLatin1String("continued_interaction_id")).toString(), gen.interactionId);
        QVERIFY(QFileInfo(es.value(QLatin1String("path")).toString()).fileName().startsWith(QLatin1String("edit_")));
        // An agent's edit gets its drift reading before the answer, recorded in the session (a person
        // watching sees it on the timeline); a generation has none.
        QVERIFY(!s.contains(QLatin1String("drift_changed")));
        const double changed = es.value(QLatin1String("drift_changed")).toDouble(-1);
        QVERIFY2(changed >= 0 && changed <= 1, qPrintable(resultText(e)));
        QVERIFY(es.value(QLatin1String("drift_warning")).isBool());
        QVERIFY2(
            resultText(e).contains(QStringLiteral("Drift: %1 % of the picture changed.").arg(qRound(changed * 100))),
            qPrintable(resultText(e)));
        const Frame edited = graph().value(es.value(QLatin1String("frame_id")).toString());
        QCOMPARE(edited.drift.changed, changed);
        QVERIFY(QFileInfo::exists(m_session->store()->absolutePath(edited.drift.heatmapFile)));
        QVERIFY(m_session->store()->flush()); // the reading is on the writer thread's way to the journal
        const Result<QByteArray> withDrift = SessionStore::foldedManifest(sessionDir());
        QVERIFY(withDrift && withDrift.value().contains("\"drift\""));
        // A frame id prefix works too.
        const QJsonObject e2 = call(QStringLiteral("edit_image"),
            {{QStringLiteral("previous_interaction_id"), es.value(QLatin1String("frame_id")).toString().left(5)},
                {QStringLiteral("edit_prompt"), QStringLiteral("make it night")}});
        QVERIFY2(!isToolError(e2), qPrintable(resultText(e2)));
        QCOMPARE(structured(e2).value(QLatin1String("parent_frame_id")).toString(),
            es.value(QLatin1String("frame_id")).toString());
        QVERIFY(m_session->waitForIdle(5000));
        QCOMPARE(graph().size(), 3);
    }

    void anEditWhoseDriftCannotBeMeasuredStillAnswers()
    {
        QString interactionId;
        const QString gen = generate(QStringLiteral("a lighthouse"), &interactionId);
        QVERIFY(QFile::remove(m_session->store()->absolutePath(graph().value(gen).image.file)));
        const QJsonObject e = call(QStringLiteral("edit_image"),
            {{QStringLiteral("previous_interaction_id"), interactionId},
                {QStringLiteral("edit_prompt"), QStringLiteral("add fog")}});
        QVERIFY2(!isToolError(e), qPrintable(resultText(e)));
        QVERIFY(!structured(e).contains(QLatin1String("drift_changed")));
        QVERIFY(graph().value(structured(e).value(QLatin1String("frame_id")).toString()).isDone());
    }

    void forkingIsExplicit()
    {
        const QString gen = generate(QStringLiteral("a lighthouse"));
        const QString genId = graph().value(gen).interactionId;
        QVERIFY(!isToolError(call(QStringLiteral("edit_image"),
            {{QStringLiteral("previous_interaction_id"), genId},
                {QStringLiteral("edit_prompt"), QStringLiteral("add fog")}})));
        const int before = graph().size();
        const QJsonObject again = call(QStringLiteral("edit_image"),
            {{QStringLiteral("previous_interaction_id"), genId},
                {QStringLiteral("edit_prompt"), QStringLiteral("add birds")}});
        QVERIFY(isToolError(again));
        QVERIFY2(resultText(again).contains(QLatin1String("branch_from")), qPrintable(resultText(again)));
        QVERIFY2(resultText(again).contains(QLatin1String("newer edit")), qPrintable(resultText(again)));
        QCOMPARE(graph().size(), before); // nothing added, nothing sent

        const QJsonObject branch = call(QStringLiteral("branch_from"),
            {{QStringLiteral("frame_or_interaction_id"), gen},
                {QStringLiteral("edit_prompt"), QStringLiteral("add birds")}});
        QVERIFY2(!isToolError(branch), qPrintable(resultText(branch)));
        QCOMPARE(structured(branch).value(QLatin1String("parent_frame_id")).toString(), gen);
        QCOMPARE(graph().children(gen).size(), 2);
        QCOMPARE(graph().heads().size(), 2);
    }

    void unknownInteractionBecomesANewRoot()
    {
        // An id from "an earlier conversation": made on the server, never in this session.
        InteractionsClient outside(config());
        const Result<Interaction> made = outside.create(
            TurnRequest::generate(QStringLiteral("a castle"), QStringLiteral("16:9"), QStringLiteral("low")));
        QVERIFY(made.ok());
        const QString id = made.value().id;
        const QJsonObject r = call(QStringLiteral("edit_image"),
            {{QStringLiteral("previous_interaction_id"), id},
                {QStringLiteral("edit_prompt"), QStringLiteral("add a moat")}});
        QVERIFY2(!isToolError(r), qPrintable(resultText(r)));
        const Frame f = graph().value(structured(r).value(QLatin1String("frame_id")).toString());
        QVERIFY(f.parentId.isEmpty());
        QCOMPARE(f.continuedInteractionId, id);
        QCOMPARE(f.kind, FrameKind::Edit);
        QCOMPARE(f.aspectRatio, QStringLiteral("16:9")); // learned from the interaction's image
        QVERIFY(resultText(r).contains(QLatin1String("new root")));
        // Continuing the same outside id again is a fork too.
        const QJsonObject again = call(QStringLiteral("edit_image"),
            {{QStringLiteral("previous_interaction_id"), id},
                {QStringLiteral("edit_prompt"), QStringLiteral("add a dragon")}});
        QVERIFY(isToolError(again));
        QVERIFY(resultText(again).contains(QLatin1String("branch_from")));
        QVERIFY(!isToolError(call(QStringLiteral("branch_from"),
            {{QStringLiteral("frame_or_interaction_id"), id},
                {QStringLiteral("edit_prompt"), QStringLiteral("add a dragon")}})));
        QCOMPARE(graph().roots().size(), 2);

        // An id the server does not know: a clear error, nothing recorded.
        const int before = graph().size();
        const QJsonObject gone = call(QStringLiteral("edit_image"),
            {{QStringLiteral("previous_interaction_id"), QStringLiteral("v1_doesNotExist")},
                {QStringLiteral("edit_prompt"), QStringLiteral("x")}});
        QVERIFY(isToolError(gone));
        QVERIFY2(resultText(gone).contains(QLatin1String("does not know interaction v1_doesNotExist")),
            qPrintable(resultText(gone)));
        QVERIFY(resultText(gone).contains(QLatin1String("edit_local_image")));
        QCOMPARE(graph().size(), before);
        // A frame id that is not there is not mistaken for an interaction id.
        const QJsonObject noFrame = call(QStringLiteral("edit_image"),
            {{QStringLiteral("previous_interaction_id"), QStringLiteral("abcdef12")},
                {QStringLiteral("edit_prompt"), QStringLiteral("x")}});
        QVERIFY(resultText(noFrame).contains(QLatin1String("no frame abcdef12")));
    }

    void textOnlyAnswerIsAFailureAndDoesNotBlockTheRetry()
    {
        const QString gen = generate(QStringLiteral("a boat"));
        FakeFault refusal;
        refusal.kind = FakeFault::Kind::TextOnlyRefusal;
        m_fake->injectFault(refusal);
        const QJsonObject r = call(QStringLiteral("edit_image"),
            {{QStringLiteral("previous_interaction_id"), gen},
                {QStringLiteral("edit_prompt"), QStringLiteral("add a sail")}});
        QVERIFY(isToolError(r));
        QVERIFY2(resultText(r).contains(QLatin1String("text only")), qPrintable(resultText(r)));
        QVERIFY(!toolResult(r).contains(QLatin1String("structuredContent")));
        const QStringList kids = graph().children(gen);
        QCOMPARE(kids.size(), 1);
        QCOMPARE(graph().value(kids.first()).status, FrameStatus::Failed);
        // The failed attempt is a dead end, not a continuation: the retry goes through.
        const QJsonObject retry = call(QStringLiteral("edit_image"),
            {{QStringLiteral("previous_interaction_id"), gen},
                {QStringLiteral("edit_prompt"), QStringLiteral("add a sail")}});
        QVERIFY2(!isToolError(retry), qPrintable(resultText(retry)));
    }

    void rateLimitNamesTheRetryTime()
    {
        FakeFault limit;
        limit.kind = FakeFault::Kind::RateLimit;
        limit.retryAfterSeconds = 37;
        m_fake->injectFault(limit);
        const QJsonObject r
            = call(QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("a tree")}});
        QVERIFY(isToolError(r));
        QVERIFY2(resultText(r).contains(QLatin1String("429")), qPrintable(resultText(r)));
        QVERIFY2(resultText(r).contains(QLatin1String("Retry after 37 s")), qPrintable(resultText(r)));
    }

    void serverTeachesThinkingLevels()
    {
        m_fake->setThinkingLevels({QStringLiteral("minimal"), QStringLiteral("high")});
        const QJsonObject r
            = call(QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("a tree")}});
        QVERIFY(isToolError(r));
        QVERIFY2(resultText(r).contains(QLatin1String("minimal, high")), qPrintable(resultText(r)));
        QTRY_COMPARE(notifications(QStringLiteral("notifications/tools/list_changed")).size(), 1);
        const QJsonArray tools = send(request(3, QStringLiteral("tools/list")), 3)
                                     .value(QLatin1String("result"))
                                     .toObject()
                                     .value(QLatin1String("tools"))
                                     .toArray();
        const QJsonObject thinking = tools.at(0)
                                         .toObject()
                                         .value(QLatin1String("inputSchema"))
                                         .toObject()
                                         .value(QLatin1String("properties"))
                                         .toObject()
                                         .value(QLatin1String("thinking_level"))
                                         .toObject();
        QCOMPARE(thinking.value(QLatin1String("enum")).toArray(),
            (QJsonArray {QStringLiteral("minimal"), QStringLiteral("high")}));
        QCOMPARE(thinking.value(QLatin1String("default")).toString(), QStringLiteral("minimal"));
        // The learned default is what an argument-less call now sends, and it works.
        QVERIFY(!isToolError(
            call(QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("a tree")}})));
        // The old default is refused before anything is sent.
        const QJsonObject low = call(QStringLiteral("generate_image"),
            {{QStringLiteral("prompt"), QStringLiteral("a tree")},
                {QStringLiteral("thinking_level"), QStringLiteral("low")}});
        QVERIFY(resultText(low).contains(QLatin1String("must be one of minimal, high")));
    }

    void missingKeyNamesTheFix()
    {
        McpBridgeOptions o = defaultOptions();
        o.keySource.clear();
        start(o);
        const QJsonObject r
            = call(QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("a tree")}});
        QVERIFY(isToolError(r));
        QVERIFY(resultText(r).contains(QLatin1String("GEMINI_API_KEY")));
        QVERIFY(resultText(r).contains(QLatin1String("~/gemini.key")));
        QCOMPARE(graph().size(), 0);
        const QJsonObject help = call(QStringLiteral("get_help"), {});
        QCOMPARE(structured(help).value(QLatin1String("key_status")).toString(), QStringLiteral("missing"));
        QVERIFY(resultText(help).contains(QLatin1String("MISSING")));
    }

    void editLocalKeepsTheInputsShape()
    {
        const QString png = writeImage(m_tmp->filePath(QStringLiteral("photo.png")), QSize(400, 300));
        const QJsonObject r = call(QStringLiteral("edit_local_image"),
            {{QStringLiteral("image_path"), QStringLiteral("photo.png")}, // relative
                {QStringLiteral("edit_prompt"), QStringLiteral("make it autumn")}});
        QVERIFY2(!isToolError(r), qPrintable(resultText(r)));
        const QJsonObject s = structured(r);
        QCOMPARE(s.value(QLatin1String("aspect_ratio")).toString(), QStringLiteral("4:3"));
        QVERIFY(resultText(r).contains(QLatin1String("nearest supported one to the 400x300 input")));
        QVERIFY(
            QFileInfo(s.value(QLatin1String("path")).toString()).fileName().startsWith(QLatin1String("edit_local_")));
        const Frame f = graph().value(s.value(QLatin1String("frame_id")).toString());
        QVERIFY(f.parentId.isEmpty());
        QCOMPARE(f.inputImages.size(), 1);
        QCOMPARE(readAll(QDir(sessionDir()).filePath(f.inputImages.first())),
            readAll(png)); // the input is kept in the session
        // An explicit ratio wins.
        const QJsonObject wide = call(QStringLiteral("edit_local_image"),
            {{QStringLiteral("image_path"), png}, {QStringLiteral("edit_prompt"), QStringLiteral("x")},
                {QStringLiteral("aspect_ratio"), QStringLiteral("16:9")}});
        QCOMPARE(structured(wide).value(QLatin1String("aspect_ratio")).toString(), QStringLiteral("16:9"));
    }

    void styleEdit()
    {
        const QString target = writeImage(m_tmp->filePath(QStringLiteral("t.png")), QSize(300, 300));
        const QString style = writeImage(m_tmp->filePath(QStringLiteral("s.jpg")), QSize(64, 64), Qt::darkRed, "JPEG");
        const QJsonObject r = call(QStringLiteral("edit_local_image_with_style"),
            {{QStringLiteral("image_path"), target}, {QStringLiteral("style_image_path"), style},
                {QStringLiteral("edit_prompt"), QStringLiteral("as a woodblock print")}});
        QVERIFY2(!isToolError(r), qPrintable(resultText(r)));
        const Frame f = graph().value(structured(r).value(QLatin1String("frame_id")).toString());
        QCOMPARE(f.kind, FrameKind::StyleEdit);
        QVERIFY(f.prompt.endsWith(QLatin1String("as a woodblock print")));
        QVERIFY(f.prompt.startsWith(QLatin1String("Apply the visual style")));
        QVERIFY(QFileInfo(structured(r).value(QLatin1String("path")).toString())
                    .fileName()
                    .startsWith(QLatin1String("style_edit_")));
    }

    void badImagePaths_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("missing") << QStringLiteral("nope.png") << QStringLiteral("does not exist");
        QTest::newRow("folder") << QStringLiteral(".") << QStringLiteral("is a folder, not an image file");
        QTest::newRow("30 MB") << QStringLiteral("huge.png") << QStringLiteral("at most 20 MB");
        QTest::newRow("not an image") << QStringLiteral("notes.txt") << QStringLiteral("image_path");
    }
    void badImagePaths()
    {
        QFETCH(QString, path);
        QFETCH(QString, mentions);
        QFile huge(m_tmp->filePath(QStringLiteral("huge.png")));
        QVERIFY(huge.open(QIODevice::WriteOnly));
        QVERIFY(huge.resize(30 * 1000 * 1000));
        huge.close();
        QFile notes(m_tmp->filePath(QStringLiteral("notes.txt")));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("just words\n");
        notes.close();
        const QJsonObject r = call(QStringLiteral("edit_local_image"),
            {{QStringLiteral("image_path"), path}, {QStringLiteral("edit_prompt"), QStringLiteral("x")}});
        QVERIFY(isToolError(r));
        QVERIFY2(resultText(r).contains(mentions), qPrintable(resultText(r)));
        QVERIFY(resultText(r).contains(QLatin1String("Nothing was sent")));
        QCOMPARE(graph().size(), 0);
        QCOMPARE(QDir(sessionDir() + QStringLiteral("/images")).entryList(QDir::Files).size(), 0);
    }

    void cancelMarksTheFrameCancelled()
    {
        m_fake->setLatencyMs(4000);
        const int id = m_nextId++;
        m_handler->handleLine(toolCall(id, QStringLiteral("generate_image"),
            {{QStringLiteral("prompt"), QStringLiteral("slow")}}, QStringLiteral("p1")));
        // Progress arrives while it runs (the client gave a token).
        QTRY_VERIFY_WITH_TIMEOUT(notifications(QStringLiteral("notifications/progress")).size() >= 2, 5000);
        QCOMPARE(m_session->runningCount(), 1);
        const QString frameId = graph().frameIds().constLast();
        QElapsedTimer clock;
        clock.start();
        m_handler->handleLine(notification(QStringLiteral("notifications/cancelled"),
            {{QStringLiteral("requestId"), id}, {QStringLiteral("reason"), QStringLiteral("test")}}));
        QTRY_COMPARE_WITH_TIMEOUT(graph().value(frameId).status, FrameStatus::Cancelled, 3000);
        qInfo("cancel took %lld ms to reach the frame", clock.elapsed());
        QVERIFY(m_session->waitForIdle(5000));
        QCOMPARE(
            QDir(sessionDir() + QStringLiteral("/images")).entryList(QDir::Files).size(), 0); // nothing half-written
        QCOMPARE(m_handler->callsInFlight(), 0);
        QTest::qWait(300);
        for (const QJsonObject &o : std::as_const(m_out))
            QVERIFY(o.value(QLatin1String("id")) != QJsonValue(id)); // never answered
        double last = -1;
        for (const QJsonObject &n : notifications(QStringLiteral("notifications/progress"))) {
            const QJsonObject p = n.value(QLatin1String("params")).toObject();
            QCOMPARE(p.value(QLatin1String("progressToken")).toString(), QStringLiteral("p1"));
            QVERIFY(p.value(QLatin1String("progress")).toDouble() > last);
            last = p.value(QLatin1String("progress")).toDouble();
        }
        m_fake->setLatencyMs(0);
        QVERIFY(
            !isToolError(call(QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("fast")}})));
    }

    void imageOutputDirGetsACopy()
    {
        McpBridgeOptions o = defaultOptions();
        o.outputCopyDir = m_tmp->filePath(QStringLiteral("out"));
        o.imageBlocks = false;
        start(o);
        const QJsonObject r
            = call(QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("a kite")}});
        const QString copy = structured(r).value(QLatin1String("copy_path")).toString();
        QCOMPARE(QFileInfo(copy).absolutePath(), o.outputCopyDir);
        QCOMPARE(
            QFileInfo(copy).fileName(), QFileInfo(structured(r).value(QLatin1String("path")).toString()).fileName());
        QCOMPARE(readAll(copy), readAll(structured(r).value(QLatin1String("path")).toString()));
        QVERIFY(resultText(r).contains(copy));
        QCOMPARE(blocks(r, QStringLiteral("image")).size(), 0); // --no-image-blocks
        // A copy never overwrites, and never writes through a link.
        QVERIFY(!copyImageToFolder(structured(r).value(QLatin1String("path")).toString(), o.outputCopyDir).ok());
        QVERIFY(QDir().mkpath(m_tmp->filePath(QStringLiteral("out2"))));
        // out2/x.jpg is a dangling link to elsewhere.jpg: writing "x.jpg" there must not create elsewhere.jpg.
        QVERIFY(QFile::link(
            m_tmp->filePath(QStringLiteral("elsewhere.jpg")), m_tmp->filePath(QStringLiteral("out2/x.jpg"))));
        const QString source = m_tmp->filePath(QStringLiteral("x.jpg"));
        QFile::copy(copy, source);
        const Result<QString> throughLink = copyImageToFolder(source, m_tmp->filePath(QStringLiteral("out2")));
        QVERIFY(!throughLink.ok());
        QVERIFY(!QFileInfo::exists(m_tmp->filePath(QStringLiteral("elsewhere.jpg"))));
    }

    void resourceLinksOnlyForNewerClients()
    {
        start(defaultOptions(), QStringLiteral("2025-03-26"));
        const QJsonObject r
            = call(QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("a kite")}});
        QVERIFY(!isToolError(r));
        QCOMPARE(blocks(r, QStringLiteral("resource_link")).size(), 0);
        QCOMPARE(blocks(r, QStringLiteral("image")).size(), 1);
    }

    void resourcesAreTheFinishedFrames()
    {
        const QString a = generate(QStringLiteral("one"));
        const QString b = generate(QStringLiteral("two"));
        QTRY_VERIFY(!notifications(QStringLiteral("notifications/resources/list_changed")).isEmpty());
        const QJsonArray list = send(request(4, QStringLiteral("resources/list")), 4)
                                    .value(QLatin1String("result"))
                                    .toObject()
                                    .value(QLatin1String("resources"))
                                    .toArray();
        QCOMPARE(list.size(), 2);
        QCOMPARE(list.at(0).toObject().value(QLatin1String("uri")).toString(), QStringLiteral("nb2lite://frame/") + a);
        QCOMPARE(list.at(1).toObject().value(QLatin1String("mimeType")).toString(), QStringLiteral("image/jpeg"));
        const QJsonObject read = send(request(5, QStringLiteral("resources/read"),
                                          {{QStringLiteral("uri"), QStringLiteral("nb2lite://frame/") + b}}),
            5);
        const QJsonObject content = read.value(QLatin1String("result"))
                                        .toObject()
                                        .value(QLatin1String("contents"))
                                        .toArray()
                                        .at(0)
                                        .toObject();
        QCOMPARE(QByteArray::fromBase64(content.value(QLatin1String("blob")).toString().toLatin1()),
            readAll(m_session->store()->absolutePath(graph().value(b).image.file)));
        QCOMPARE(send(request(6, QStringLiteral("resources/read"),
                          {{QStringLiteral("uri"), QStringLiteral("nb2lite://frame/zzzz")}}),
                     6)
                     .value(QLatin1String("error"))
                     .toObject()
                     .value(QLatin1String("code"))
                     .toInt(),
            -32002);
        const QJsonArray templates = send(request(7, QStringLiteral("resources/templates/list")), 7)
                                         .value(QLatin1String("result"))
                                         .toObject()
                                         .value(QLatin1String("resourceTemplates"))
                                         .toArray();
        QCOMPARE(templates.size(), 1);
    }

    void listFramesShowsWhatAPersonAddsToo()
    {
        const QString gen = generate(QStringLiteral("a bridge"));
        QVERIFY(m_session->waitForIdle(5000));
        {
            // "The app": another controller on the same folder imports a picture.
            SessionController app;
            const auto opened = app.open(sessionDir());
            QVERIFY2(opened.ok(), qPrintable(opened.error().message));
            const QString png = writeImage(m_tmp->filePath(QStringLiteral("mine.png")), QSize(64, 64));
            QVERIFY(app.importImage(png).ok());
            QVERIFY(app.waitForIdle(5000));
        }
        const QJsonObject r = call(QStringLiteral("list_frames"), {});
        QVERIFY2(!isToolError(r), qPrintable(resultText(r)));
        const QJsonArray frames = structured(r).value(QLatin1String("frames")).toArray();
        QCOMPARE(frames.size(), 2);
        QCOMPARE(frames.at(0).toObject().value(QLatin1String("origin")).toString(), QStringLiteral("mcp"));
        QCOMPARE(frames.at(1).toObject().value(QLatin1String("origin")).toString(), QString());
        QCOMPARE(frames.at(1).toObject().value(QLatin1String("kind")).toString(), QStringLiteral("import"));
        QVERIFY(resultText(r).contains(QLatin1String("[agent]")));
        // The person's frame can be edited by its id.
        const QString imported = frames.at(1).toObject().value(QLatin1String("id")).toString();
        const QJsonObject e = call(QStringLiteral("edit_image"),
            {{QStringLiteral("previous_interaction_id"), imported},
                {QStringLiteral("edit_prompt"), QStringLiteral("add a hat")}});
        QVERIFY2(!isToolError(e), qPrintable(resultText(e)));
        // With branch: only that branch.
        const QJsonObject one = call(QStringLiteral("list_frames"), {{QStringLiteral("branch"), gen}});
        QCOMPARE(structured(one).value(QLatin1String("frames")).toArray().size(), 1);
        QCOMPARE(structured(one).value(QLatin1String("total")).toInt(), 1);
    }

    void helpReportsTheSetupNotTheKey()
    {
        const QJsonObject r = call(QStringLiteral("get_help"), {});
        QVERIFY(!isToolError(r));
        const QJsonObject s = structured(r);
        QCOMPARE(s.value(QLatin1String("key_status")).toString(), QStringLiteral("set"));
        QCOMPARE(s.value(QLatin1String("key_source")).toString(), QStringLiteral("GEMINI_API_KEY"));
        QCOMPARE(s.value(QLatin1String("session_dir")).toString(), sessionDir());
        QCOMPARE(s.value(QLatin1String("default_thinking_level")).toString(), QStringLiteral("low"));
        QVERIFY(resultText(r).contains(QLatin1String("branch_from")));
        QVERIFY(!resultText(r).contains(kKey));
    }
};

QTEST_GUILESS_MAIN(tst_McpSessionTools)
#include "tst_mcpsessiontools.moc"
