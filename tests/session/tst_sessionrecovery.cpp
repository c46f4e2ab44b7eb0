#include "controllerfixture.h"
#include "core/session/sessionstore.h"
#include "sessiontestutil.h"
#include "tests/testpaths.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QtTest>

using namespace nb2;

/**
 * SessionController against the in-process fake API when a turn cannot simply continue: expired
 * or missing parent ids (re-anchoring), turns a crash left pending (recovery on reopen), another
 * process's running turn, and the retention setting. The rest: tst_sessioncontroller.cpp.
 */
class tst_SessionRecovery : public test::ControllerFixture
{
    Q_OBJECT

private Q_SLOTS: // init and cleanup: ControllerFixture
    void reAnchoring_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("expired by time") << "expired";
        QTest::newRow("missing id") << "missing";
        QTest::newRow("404 from the server") << "forgotten";
    }

    void reAnchoring()
    {
        QFETCH(QString, how);
        SessionController c;
        openController(c);
        const Frame g = finish(c, c.generate(p("root")));
        QCOMPARE(g.status, FrameStatus::Done);
        Frame parent = g;
        if (how == QLatin1String("expired"))
            parent.idExpiresAt = QDateTime::currentDateTimeUtc().addSecs(-60);
        else if (how == QLatin1String("missing"))
            parent.interactionId.clear();
        else
            m_fake->forget(g.interactionId);
        QVERIFY(c.store()->commit({parent}));
        m_fake->clearRequests();

        QSignalSpy reanchored(&c, &SessionController::frameReAnchored);
        const Frame e = finish(c, c.edit(g.id, p("make it blue")));
        QCOMPARE(e.status, FrameStatus::Done);
        QVERIFY(e.reAnchored);
        QCOMPARE(e.kind, FrameKind::ReAnchor);
        QCOMPARE(e.parentId, g.id);
        QVERIFY(e.continuedInteractionId.isEmpty());
        QCOMPARE(e.inputImages, QStringList {g.image.file});
        QVERIFY(e.statusText().contains(QStringLiteral("re-anchored")));
        QVERIFY(!e.interactionId.isEmpty());
        QCOMPARE(reanchored.count(), 1);
        const QList<FakeRequest> creates = requestsMatching(QStringLiteral("POST"), QStringLiteral("/interactions"));
        // 404: the id was tried first; expired/missing: never sent.
        QCOMPARE(creates.size(), how == QLatin1String("forgotten") ? 2 : 1);
        QVERIFY(!creates.last().body.contains("previous_interaction_id"));
        QVERIFY(creates.last().body.contains("inline") || creates.last().body.contains("\"data\""));
        if (how == QLatin1String("forgotten"))
            QVERIFY(creates.first().body.contains(g.interactionId.toUtf8()));
    }

    void reAnchorDisabledFailsClearlyThenExplicitReAnchor_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("expired") << "expired";
        QTest::newRow("404") << "forgotten";
    }

    void reAnchorDisabledFailsClearlyThenExplicitReAnchor()
    {
        QFETCH(QString, how);
        SessionController c;
        SessionSettings s;
        s.autoReAnchor = false;
        openController(c, s);
        const Frame g = finish(c, c.generate(p("root")));
        if (how == QLatin1String("expired")) {
            Frame parent = g;
            parent.idExpiresAt = QDateTime::currentDateTimeUtc().addSecs(-60);
            QVERIFY(c.store()->commit({parent}));
        } else {
            m_fake->forget(g.interactionId);
        }
        m_fake->clearRequests();
        const Frame e = finish(c, c.edit(g.id, p("blue")));
        QCOMPARE(e.status, FrameStatus::Failed);
        QCOMPARE(e.error.kind, QStringLiteral("not_found"));
        QVERIFY(!e.reAnchored);
        QVERIFY2(e.error.message.contains(QStringLiteral("Re-anchor")), qPrintable(e.error.message));
        if (how == QLatin1String("expired"))
            QCOMPARE(m_fake->requests().size(), 0); // nothing sent for a known-expired id
        const Frame r = finish(c, c.reAnchor(e.id));
        QCOMPARE(r.id, e.id);
        QCOMPARE(r.status, FrameStatus::Done);
        QVERIFY(r.reAnchored);
        QCOMPARE(r.kind, FrameKind::ReAnchor);
    }

    void recoveryOnReopen()
    {
        // A turn the server knows (id journaled) and one it never confirmed, both owned by a dead process.
        const Result<Interaction> made
            = client()->create(TurnRequest::generate(QStringLiteral("made"), QStringLiteral("1:1"), {}));
        QVERIFY(made);
        {
            SessionStore store;
            QVERIFY(store.open(m_tmp->path()));
            Frame known;
            known.id = QStringLiteral("aaaa0001");
            known.prompt = QStringLiteral("made");
            known.aspectRatio = QStringLiteral("1:1");
            known.status = FrameStatus::Pending;
            known.ownerPid = 0; // no live owner
            known.requestedAt = QDateTime::currentDateTimeUtc();
            Frame unknown = known;
            unknown.id = QStringLiteral("aaaa0002");
            QVERIFY(store.commit({known, unknown}));
            store.journal().beginTurn(known);
            store.journal().recordInteractionId(known.id, made.value().id); // manifest never heard of it
            store.journal().beginTurn(unknown);
        }
        m_fake->clearRequests();
        SessionController c;
        c.setClient(client());
        QSignalSpy recovered(&c, &SessionController::recoveryFinished);
        QVERIFY(c.open(m_tmp->path()));
        QVERIFY(c.waitForIdle(20000));
        QCOMPARE(recovered.count(), 1);
        QCOMPARE(recovered.first().at(0).toInt(), 1);
        QCOMPARE(recovered.first().at(1).toInt(), 1);
        const Frame k = c.graph().value(QStringLiteral("aaaa0001"));
        QCOMPARE(k.status, FrameStatus::Done);
        QCOMPARE(k.interactionId, made.value().id);
        QVERIFY(QFileInfo::exists(c.store()->absolutePath(k.image.file)));
        const Frame u = c.graph().value(QStringLiteral("aaaa0002"));
        QCOMPARE(u.status, FrameStatus::Interrupted);
        QVERIFY(u.statusText().contains(QStringLiteral("retry")));
        // Fetched with get, nothing created again.
        QCOMPARE(requestsMatching(QStringLiteral("GET"), made.value().id).size(), 1);
        QCOMPARE(requestsMatching(QStringLiteral("POST"), QStringLiteral("/interactions")).size(), 0);
        // Interrupted -> pending only when the user asks.
        const Frame again = finish(c, c.retry(u.id));
        QCOMPARE(again.status, FrameStatus::Done);
        QCOMPARE(requestsMatching(QStringLiteral("POST"), QStringLiteral("/interactions")).size(), 1);
    }

    void recoveryOfForgottenIdIsInterrupted()
    {
        const Result<Interaction> made
            = client()->create(TurnRequest::generate(QStringLiteral("made"), QStringLiteral("1:1"), {}));
        QVERIFY(made);
        m_fake->forget(made.value().id);
        {
            SessionStore store;
            QVERIFY(store.open(m_tmp->path()));
            Frame known;
            known.id = QStringLiteral("bbbb0001");
            known.prompt = QStringLiteral("made");
            known.status = FrameStatus::Pending;
            known.interactionId = made.value().id;
            QVERIFY(store.commit({known}));
        }
        SessionController c;
        openController(c);
        const Frame k = c.graph().value(QStringLiteral("bbbb0001"));
        QCOMPARE(k.status, FrameStatus::Interrupted);
        QCOMPARE(k.error.kind, QStringLiteral("not_found"));
        QVERIFY(k.interactionId.isEmpty());
    }

    void anotherProcessLeavesARunningTurnAlone()
    {
        SessionController c;
        openController(c);
        m_fake->setLatencyMs(2500);
        const Result<QString> r = c.generate(p("long"));
        QVERIFY(r);
        // A second process opening the session must not call our live turn interrupted.
        QProcess other;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GOOGLE_GEMINI_BASE_URL"), m_fake->baseUrl());
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("test-key"));
        other.setProcessEnvironment(env);
        other.start(
            nb2test::sessionDriverProgram(), {QStringLiteral("--session"), m_tmp->path(), QStringLiteral("recover")});
        QVERIFY(other.waitForFinished(30000));
        QCOMPARE(other.exitCode(), 0);
        c.store()->reload(); // whatever the other process wrote is what we now see
        QVERIFY(c.graph().value(r.value()).isPending());
        QVERIFY(c.graph().withStatus(FrameStatus::Interrupted).isEmpty());
        QVERIFY(c.waitForIdle(20000));
        QCOMPARE(c.graph().value(r.value()).status, FrameStatus::Done);
        QCOMPARE(requestsMatching(QStringLiteral("POST"), QStringLiteral("/interactions")).size(), 1);
        QCOMPARE(requestsMatching(QStringLiteral("GET"), QStringLiteral("/interactions")).size(), 0);
    }

    void retentionSettingDecidesExpiryAndReAnchoring()
    {
        SessionController c;
        openController(c);
        const Frame g = finish(c, c.generate(p("root")));
        QVERIFY(g.idExpiresAt > QDateTime::currentDateTimeUtc().addDays(54));
        SessionSettings s;
        s.retentionPlan = QStringLiteral("custom");
        s.customRetentionDays = 1;
        c.setSettings(s);
        QVERIFY(c.applyRetentionToExistingFrames());
        const Frame after = c.graph().value(g.id);
        QVERIFY(qAbs(after.idExpiresAt.secsTo(g.finishedAt.addDays(1))) <= 1);
        // Pretend a day passed: the parent's id is now expired, so the edit is re-anchored without trying it.
        Frame old = after;
        old.finishedAt = old.finishedAt.addDays(-2);
        QVERIFY(c.store()->commit({old}));
        QVERIFY(c.applyRetentionToExistingFrames());
        QVERIFY(!c.graph().value(g.id).hasUsableId());
        m_fake->clearRequests();
        const Frame e = finish(c, c.edit(g.id, p("later")));
        QCOMPARE(e.status, FrameStatus::Done);
        QVERIFY(e.reAnchored);
        QCOMPARE(requestsMatching(QStringLiteral("POST"), QStringLiteral("/interactions")).size(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_SessionRecovery)
#include "tst_sessionrecovery.moc"
