// Live: the app's side of a session (SessionController + TimelineModel, as the window uses them,
// offscreen) stays open while `nb2lite mcp` adds frames from another process. The model shows
// the agent's frames as they arrive, marked as the agent's, without a reopen; the person and the
// agent write at the same time and no frame is lost; the agent sees the person's frames.

#include "bridgeprocess.h"
#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "tests/session/sessiontestutil.h"
#include "ui/thumbnailprovider.h"
#include "ui/timelinemodel.h"
#include "ui/timelineroles.h"
#include "ui/timelineview.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QtTest>

using namespace nb2;
using namespace nb2::mcptest;

class tst_McpLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void agentFramesArriveLiveAndNothingIsLost()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("session"));
        QDir().mkpath(tmp.filePath(QStringLiteral("home")));

        FakeServerOptions fo;
        fo.apiKey = QStringLiteral("app-side-key");
        FakeServer fake(fo);
        QVERIFY(fake.start(0));
        ClientConfig config;
        config.baseUrl = fake.baseUrl();
        config.apiKey = ApiKey(fo.apiKey, QStringLiteral("test"));
        config.maxRetries = 0;

        SessionController app;
        app.setClient(std::make_shared<InteractionsClient>(config));
        const auto opened = app.open(dir);
        QVERIFY2(opened.ok(), qPrintable(opened.error().message));
        TimelineModel model(&app);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);

        BridgeProcess bridge;
        QVERIFY(bridge.start({QStringLiteral("--demo"), QStringLiteral("--demo-latency"), QStringLiteral("300"),
                                 QStringLiteral("--session"), dir},
            BridgeProcess::cleanEnvironment(tmp.filePath(QStringLiteral("home")))));
        QVERIFY(bridge.initialize());

        // The agent asks for three images while the person imports two pictures and generates one.
        for (int i = 1; i <= 3; ++i)
            bridge.write(toolCall(i, QStringLiteral("generate_image"),
                {{QStringLiteral("prompt"), QStringLiteral("agent picture %1").arg(i)}}));
        for (int i = 0; i < 2; ++i) {
            const QString png = writeImage(tmp.filePath(QStringLiteral("p%1.png").arg(i)), QSize(80 + i, 60));
            QVERIFY(app.importImage(png).ok());
            bridge.pump(30);
        }
        TurnParams personal;
        personal.prompt = QStringLiteral("the person's own picture");
        QVERIFY(app.generate(personal).ok());

        // The model follows without a reopen.
        auto agentRows = [&model] {
            QStringList ids;
            for (int r = 0; r < model.rowCount(); ++r)
                if (model.index(r).data(TimelineRole::MadeByAgent).toBool())
                    ids.append(model.index(r).data(TimelineRole::FrameId).toString());
            return ids;
        };
        auto allDone = [&] {
            for (int r = 0; r < model.rowCount(); ++r)
                if (TimelineState(model.index(r).data(TimelineRole::State).toInt()) != TimelineState::Done)
                    return false;
            return true;
        };
        QElapsedTimer clock;
        clock.start();
        int seenAgentRows = 0;
        while (clock.elapsed() < 60000 && !(model.rowCount() == 6 && allDone() && agentRows().size() == 3)) {
            bridge.pump(20);
            seenAgentRows = qMax(seenAgentRows, int(agentRows().size()));
        }
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(agentRows().size(), 3);
        QVERIFY(allDone());
        for (int i = 1; i <= 3; ++i) {
            const QJsonObject answer = bridge.waitForAnswer(i);
            QVERIFY2(!isToolError(answer), qPrintable(resultText(answer)));
            const QString frameId = structured(answer).value(QLatin1String("frame_id")).toString();
            QVERIFY(agentRows().contains(frameId));
            const QModelIndex index = model.indexOf(frameId);
            QVERIFY(QFileInfo::exists(index.data(TimelineRole::ImagePath).toString()));
            QVERIFY(index.data(Qt::ToolTipRole).toString().contains(QLatin1String("agent")));
        }

        // The person branches from an agent frame while the agent keeps working.
        const QString agentFrame = agentRows().constFirst();
        TurnParams branch;
        branch.prompt = QStringLiteral("the person's variation");
        const Result<QString> personsBranch = app.branchFrom(agentFrame, branch);
        QVERIFY(personsBranch.ok());
        const QString agentHead = agentRows().constLast();
        const QString agentHeadId = model.indexOf(agentHead).data(TimelineRole::InteractionId).toString();
        bridge.write(toolCall(4, QStringLiteral("edit_image"),
            {{QStringLiteral("previous_interaction_id"), agentHeadId},
                {QStringLiteral("edit_prompt"), QStringLiteral("the agent goes on")}}));
        QVERIFY(app.waitForIdle(30000));
        const QJsonObject goesOn = bridge.waitForAnswer(4);
        QVERIFY2(!isToolError(goesOn), qPrintable(resultText(goesOn)));
        // (The agent's demo backend does not know the app's ids and vice versa: the person's edit of an
        // agent frame re-anchors from the stored pixels.)
        QCOMPARE(app.graph().value(personsBranch.value()).status, FrameStatus::Done);

        // The agent sees the person's frames, and may not silently fork the frame the person continued.
        const QJsonObject listed = bridge.ask(toolCall(5, QStringLiteral("list_frames"), {}), 5);
        const QJsonArray frames = structured(listed).value(QLatin1String("frames")).toArray();
        QCOMPARE(frames.size(), 8);
        bool sawPersonsBranch = false;
        for (const QJsonValue &f : frames)
            if (f.toObject().value(QLatin1String("id")).toString() == personsBranch.value()) {
                sawPersonsBranch = true;
                QCOMPARE(f.toObject().value(QLatin1String("parent")).toString(), agentFrame);
                QCOMPARE(f.toObject().value(QLatin1String("origin")).toString(), QString());
            }
        QVERIFY(sawPersonsBranch);
        const QJsonObject fork = bridge.ask(toolCall(6, QStringLiteral("edit_image"),
                                                {{QStringLiteral("previous_interaction_id"), agentFrame},
                                                    {QStringLiteral("edit_prompt"), QStringLiteral("x")}}),
            6);
        QVERIFY(isToolError(fork));
        QVERIFY(resultText(fork).contains(QLatin1String("branch_from")));

        bridge.closeInput();
        QVERIFY(bridge.waitForExit(15000));
        QCOMPARE(bridge.process().exitCode(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 8, 10000);
        QVERIFY(app.store()->flush());

        // Two writers, nothing lost: a fresh reader sees every frame, each one whole.
        SessionStore fresh;
        const auto reopened = fresh.open(dir, SessionStore::OpenMode::OpenExisting);
        QVERIFY2(reopened.ok(), qPrintable(reopened.error().message));
        QCOMPARE(fresh.graph().size(), 8);
        int byAgent = 0;
        for (const Frame &f : fresh.graph().frames()) {
            QCOMPARE(f.status, FrameStatus::Done);
            byAgent += f.origin == kFrameOriginMcp ? 1 : 0;
        }
        QCOMPARE(byAgent, 4);
        QCOMPARE(nb2::test::checkInvariants(dir), QStringList());
        QVERIFY(seenAgentRows > 0);

        // NB2_SCREENSHOT_OUT=docs/screenshots: the timeline as the person sees it (agent marks).
        const QString shots = qEnvironmentVariable("NB2_SCREENSHOT_OUT");
        if (!shots.isEmpty()) {
            TimelineView view;
            ThumbnailProvider thumbs;
            thumbs.setDiskCacheDir(app.store()->thumbsDir());
            view.setThumbnailProvider(&thumbs);
            view.setModel(&model);
            view.resize(760, 690);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            view.setCurrentIndex(model.indexOf(personsBranch.value()));
            for (int i = 0; i < 30; ++i) { // thumbnails arrive from workers
                thumbs.waitForDone();
                QTest::qWait(30);
            }
            QVERIFY(view.grab().save(QDir(shots).filePath(QStringLiteral("timeline-agent-frames.png"))));
        }
    }
};

QTEST_MAIN(tst_McpLive)
#include "tst_mcplive.moc"
