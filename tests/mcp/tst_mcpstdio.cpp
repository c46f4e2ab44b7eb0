// `nb2lite mcp` as a process on stdio: garbage and odd requests each answered and the next one
// served, end of input and SIGTERM ending cleanly with the session on disk, the default session
// folder, --print-skill, a missing key, and the key never appearing anywhere.

#include "bridgeprocess.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessionstore.h"
#include "tests/testpaths.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace nb2;
using namespace nb2::mcptest;

namespace {
const QByteArray kKey = "nb2-stdio-key-8Hq4Lm2Vx9Pz";
}

class tst_McpStdio : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    int m_id = 10;

    QString path(const QString &name) const { return m_tmp->filePath(name); }
    QProcessEnvironment env() const { return BridgeProcess::cleanEnvironment(path(QStringLiteral("home"))); }

    static int errorCode(const QJsonObject &answer)
    {
        return answer.value(QLatin1String("error")).toObject().value(QLatin1String("code")).toInt();
    }
    void pingServed(BridgeProcess &bridge)
    {
        const int id = m_id++;
        const QJsonObject r = bridge.ask(request(id, QStringLiteral("ping")), id);
        QVERIFY2(r.contains(QLatin1String("result")), bridge.rawStderr().right(2000).constData());
    }
    QJsonObject callTool(BridgeProcess &bridge, const QString &tool, const QJsonObject &args)
    {
        const int id = m_id++;
        return bridge.ask(toolCall(id, tool, args), id);
    }
    static SessionStore *openStore(SessionStore &store, const QString &dir)
    {
        return store.open(dir, SessionStore::OpenMode::OpenExisting).ok() ? &store : nullptr;
    }

private Q_SLOTS:
    void init()
    {
        m_tmp = std::make_unique<QTemporaryDir>();
        QDir().mkpath(path(QStringLiteral("home")));
    }
    void cleanup() { m_tmp.reset(); }

    void everyOddInputIsAnsweredAndServiceGoesOn()
    {
        BridgeProcess bridge;
        QVERIFY(
            bridge.start({QStringLiteral("--demo"), QStringLiteral("--session"), path(QStringLiteral("s"))}, env()));
        QVERIFY(bridge.initialize());
        QFile huge(path(QStringLiteral("huge.png")));
        QVERIFY(huge.open(QIODevice::WriteOnly) && huge.resize(30 * 1000 * 1000));
        huge.close();

        struct Case {
            const char *name;
            QByteArray line;
            int protocolError; // 0: answered by a tool result with isError
            QString mentions;
            QJsonValue id;
        };
        const QList<Case> cases {
            {"garbage", "this is not json", -32700, QStringLiteral("Parse error"), QJsonValue::Null},
            {"binary", QByteArray("\x01\x02\xff{{{", 6), -32700, QStringLiteral("Parse error"), QJsonValue::Null},
            {"batch", R"([{"jsonrpc":"2.0","id":500,"method":"ping"},{"jsonrpc":"2.0","id":501,"method":"ping"}])",
                -32600, QStringLiteral("batches"), QJsonValue::Null},
            {"unknown method", request(502, QStringLiteral("sampling/createMessage")), -32601,
                QStringLiteral("Method not found"), 502},
            {"unknown tool", toolCall(503, QStringLiteral("make_video"), {}), -32602, QStringLiteral("Unknown tool"),
                503},
            {"missing argument", toolCall(504, QStringLiteral("generate_image"), {}), 0,
                QStringLiteral("missing required argument \"prompt\""), 504},
            {"wrong type", toolCall(505, QStringLiteral("generate_image"), {{QStringLiteral("prompt"), 12}}), 0,
                QStringLiteral("\"prompt\" must be a string, not a number"), 505},
            {"30 MB image",
                toolCall(506, QStringLiteral("edit_local_image"),
                    {{QStringLiteral("image_path"), path(QStringLiteral("huge.png"))},
                        {QStringLiteral("edit_prompt"), QStringLiteral("x")}}),
                0, QStringLiteral("at most 20 MB"), 506},
            {"directory",
                toolCall(507, QStringLiteral("edit_local_image"),
                    {{QStringLiteral("image_path"), m_tmp->path()},
                        {QStringLiteral("edit_prompt"), QStringLiteral("x")}}),
                0, QStringLiteral("is a folder"), 507},
            {"oversized",
                QByteArray(R"({"method":"tools/call","params":{"name":"get_help","arguments":{"x":")")
                    + QByteArray(2 * 1024 * 1024, 'y') + QByteArray(R"("}},"jsonrpc":"2.0","id":508})"),
                -32600, QStringLiteral("too large"), 508},
        };
        for (const Case &c : cases) {
            const int before = bridge.messages().size();
            bridge.write(c.line);
            QJsonObject answer;
            if (c.id.isNull()) {
                QElapsedTimer clock;
                clock.start();
                while (bridge.messages().size() == before && clock.elapsed() < 10000)
                    bridge.pump();
                answer = bridge.messages().value(before);
            } else {
                answer = bridge.waitForAnswer(c.id);
            }
            QVERIFY2(!answer.isEmpty(), c.name);
            if (c.protocolError) {
                QCOMPARE(errorCode(answer), c.protocolError);
                QVERIFY2(answer.value(QLatin1String("error"))
                             .toObject()
                             .value(QLatin1String("message"))
                             .toString()
                             .contains(c.mentions),
                    c.name);
            } else {
                QVERIFY2(isToolError(answer), c.name);
                QVERIFY2(resultText(answer).contains(c.mentions),
                    qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(c.name), resultText(answer))));
            }
            pingServed(bridge);
        }
        // A real call still works after all that.
        const QJsonObject ok
            = callTool(bridge, QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("fine")}});
        QVERIFY2(!isToolError(ok), qPrintable(resultText(ok)));

        bridge.closeInput();
        QVERIFY(bridge.waitForExit(15000));
        QCOMPARE(bridge.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(bridge.process().exitCode(), 0);
        QCOMPARE(bridge.badLines(), QByteArrayList()); // stdout carried protocol messages only
        SessionStore store;
        QVERIFY(openStore(store, path(QStringLiteral("s"))));
        QCOMPARE(store.graph().size(), 1);
        QCOMPARE(store.graph().frames().first().status, FrameStatus::Done);
    }

    void endOfInputFinishesTheCallInFlight()
    {
        BridgeProcess bridge;
        QVERIFY(bridge.start({QStringLiteral("--demo"), QStringLiteral("--demo-latency"), QStringLiteral("1500"),
                                 QStringLiteral("--session"), path(QStringLiteral("s"))},
            env()));
        QVERIFY(bridge.initialize());
        bridge.write(
            toolCall(1, QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("a slow one")}}));
        bridge.closeInput();
        const QJsonObject answer = bridge.waitForAnswer(1);
        QVERIFY2(!isToolError(answer), qPrintable(resultText(answer)));
        QVERIFY(bridge.waitForExit(10000));
        QCOMPARE(bridge.process().exitCode(), 0);
        SessionStore store;
        QVERIFY(openStore(store, path(QStringLiteral("s"))));
        QCOMPARE(store.graph().frames().first().status, FrameStatus::Done);
        QVERIFY(QFileInfo::exists(store.absolutePath(store.graph().frames().first().image.file)));
    }

    void sigtermCancelsAndLeavesNothingHalfWritten()
    {
        BridgeProcess bridge;
        QVERIFY(bridge.start({QStringLiteral("--demo"), QStringLiteral("--demo-latency"), QStringLiteral("8000"),
                                 QStringLiteral("--session"), path(QStringLiteral("s"))},
            env()));
        QVERIFY(bridge.initialize());
        bridge.write(toolCall(
            1, QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("never finished")}}, 7));
        QElapsedTimer clock;
        clock.start();
        while (bridge.notifications(QStringLiteral("notifications/progress")).size() < 2 && clock.elapsed() < 10000)
            bridge.pump();
        QVERIFY(bridge.notifications(QStringLiteral("notifications/progress")).size() >= 2);
        clock.restart();
        bridge.process().terminate(); // SIGTERM
        QVERIFY(bridge.waitForExit(8000));
        qInfo("exited %lld ms after SIGTERM", clock.elapsed());
        QCOMPARE(bridge.process().exitCode(), 0);
        SessionStore store;
        QVERIFY(openStore(store, path(QStringLiteral("s"))));
        QCOMPARE(store.graph().size(), 1);
        QCOMPARE(store.graph().frames().first().status, FrameStatus::Cancelled);
        QCOMPARE(QDir(path(QStringLiteral("s/images"))).entryList(QDir::Files | QDir::Hidden).size(), 0);
    }

    void printsTheSkill()
    {
        QProcess p;
        p.setProcessEnvironment(env());
        p.start(nb2test::cliProgram(), {QStringLiteral("mcp"), QStringLiteral("--print-skill")});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray out = p.readAllStandardOutput();
        QCOMPARE(out, readAll(nb2test::sourceDir() + QStringLiteral("/resources/skills/nb2lite-image/SKILL.md")));
        QVERIFY(out.startsWith("---\nname: nb2lite-image\n"));
    }

    void defaultSessionFolder()
    {
        const QString project = path(QStringLiteral("project"));
        QDir().mkpath(project);
        {
            BridgeProcess bridge;
            QVERIFY(bridge.start({QStringLiteral("--demo")}, env(), project));
            QVERIFY(bridge.initialize());
            const QJsonObject r = callTool(
                bridge, QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("here")}});
            QCOMPARE(structured(r).value(QLatin1String("session_dir")).toString(),
                project + QStringLiteral("/.nb2lite/session"));
            bridge.closeInput();
            QVERIFY(bridge.waitForExit(10000));
        }
        QVERIFY(QFileInfo::exists(project + QStringLiteral("/.nb2lite/session/manifest.json")));
        QProcessEnvironment e = env();
        e.insert(QStringLiteral("NB2LITE_SESSION"), QStringLiteral("art/history"));
        BridgeProcess bridge;
        QVERIFY(bridge.start({QStringLiteral("--demo")}, e, project));
        QVERIFY(bridge.initialize());
        const QJsonObject help = callTool(bridge, QStringLiteral("get_help"), {});
        QCOMPARE(
            structured(help).value(QLatin1String("session_dir")).toString(), project + QStringLiteral("/art/history"));
    }

    void withoutAKeyTheToolsSaySo()
    {
        BridgeProcess bridge;
        QVERIFY(bridge.start({QStringLiteral("--session"), path(QStringLiteral("s"))}, env()));
        QVERIFY(bridge.initialize());
        const QJsonObject r
            = callTool(bridge, QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("x")}});
        QVERIFY(isToolError(r));
        QVERIFY(resultText(r).contains(QLatin1String("GEMINI_API_KEY")));
        QVERIFY(bridge.rawStderr().contains("NO API KEY"));
        bridge.closeInput();
        QVERIFY(bridge.waitForExit(10000));
        QCOMPARE(bridge.process().exitCode(), 0);
    }

    void theKeyNeverAppears()
    {
        FakeServerOptions fo;
        fo.apiKey = QString::fromLatin1(kKey);
        FakeServer fake(fo);
        QVERIFY(fake.start(0));
        QProcessEnvironment e = env();
        e.insert(QStringLiteral("GEMINI_API_KEY"), QString::fromLatin1(kKey));
        e.insert(QStringLiteral("GOOGLE_GEMINI_BASE_URL"), fake.baseUrl());
        e.insert(QStringLiteral("IMAGE_OUTPUT_DIR"), path(QStringLiteral("out")));
        BridgeProcess bridge;
        QVERIFY(bridge.start({QStringLiteral("--session"), path(QStringLiteral("s"))}, e));
        QVERIFY(bridge.initialize());
        QVERIFY(bridge
                    .ask(request(1, QStringLiteral("logging/setLevel"),
                             {{QStringLiteral("level"), QStringLiteral("debug")}}),
                        1)
                    .contains(QLatin1String("result")));
        const QJsonObject gen = callTool(
            bridge, QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("a key-less fox")}});
        QVERIFY2(!isToolError(gen), qPrintable(resultText(gen)));
        QVERIFY(QFileInfo::exists(structured(gen).value(QLatin1String("copy_path")).toString()));
        const QJsonObject edit = callTool(bridge, QStringLiteral("edit_image"),
            {{QStringLiteral("previous_interaction_id"), structured(gen).value(QLatin1String("interaction_id"))},
                {QStringLiteral("edit_prompt"), QStringLiteral("add a hat")}});
        QVERIFY2(!isToolError(edit), qPrintable(resultText(edit)));
        FakeFault bad;
        bad.kind = FakeFault::Kind::InvalidKey;
        fake.injectFault(bad);
        const QJsonObject refused
            = callTool(bridge, QStringLiteral("generate_image"), {{QStringLiteral("prompt"), QStringLiteral("x")}});
        QVERIFY(isToolError(refused));
        QVERIFY2(resultText(refused).contains(QLatin1String("GEMINI_API_KEY")), qPrintable(resultText(refused)));
        QVERIFY(!isToolError(callTool(bridge, QStringLiteral("get_help"), {})));
        QVERIFY(!isToolError(callTool(bridge, QStringLiteral("list_frames"), {})));
        const QJsonObject read
            = bridge.ask(request(2, QStringLiteral("resources/read"),
                             {{QStringLiteral("uri"), structured(gen).value(QLatin1String("resource_uri"))}}),
                2);
        const QByteArray blob = QByteArray::fromBase64(read.value(QLatin1String("result"))
                                                           .toObject()
                                                           .value(QLatin1String("contents"))
                                                           .toArray()
                                                           .at(0)
                                                           .toObject()
                                                           .value(QLatin1String("blob"))
                                                           .toString()
                                                           .toLatin1());
        QVERIFY(!blob.isEmpty());
        bridge.closeInput();
        QVERIFY(bridge.waitForExit(10000));

        QVERIFY(!bridge.rawStdout().contains(kKey));
        QVERIFY(!bridge.rawStderr().contains(kKey));
        QVERIFY(!blob.contains(kKey));
        for (const QJsonObject &answer : {gen, edit})
            for (const QJsonValue &image : blocks(answer, QStringLiteral("image")))
                QVERIFY(!QByteArray::fromBase64(image.toObject().value(QLatin1String("data")).toString().toLatin1())
                             .contains(kKey));
        QCOMPARE(filesContaining(path(QStringLiteral("s")), kKey), QStringList());
        QCOMPARE(filesContaining(path(QStringLiteral("out")), kKey), QStringList());
        QVERIFY(
            !bridge.notifications(QStringLiteral("notifications/message")).isEmpty()); // logging was on and said things
        // The key was really used: the fake refuses requests without it.
        int creates = 0;
        for (const FakeRequest &r : fake.requests())
            creates += r.method == QLatin1String("POST") ? 1 : 0;
        QVERIFY(creates >= 2);
    }
};

QTEST_GUILESS_MAIN(tst_McpStdio)
#include "tst_mcpstdio.moc"
