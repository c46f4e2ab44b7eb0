// A turn whose interaction id is known is fetched, never paid for twice (issue 11, items 5
// and 6): a cut answer is followed by a get, recover and retry get a known id first, a
// retry sends anew only when the id is gone, --no-stream works in a session, and --timeout
// bounds a turn with progress on stderr. End to end: the nb2lite command line (the session
// driver) against the fake server, whose request log counts every create and get.

#include "core/fakeapi/fakeserver.h"
#include "core/session/sessionstore.h"
#include "sessiontestutil.h"
#include "tests/testpaths.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace nb2;

class tst_KnownIds : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeServer> m_fake;
    std::unique_ptr<QTemporaryDir> m_tmp;
    QString m_session;

    struct Run {
        int code = -1;
        QByteArray out, err;
    };

    Run run(const QStringList &command)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GOOGLE_GEMINI_BASE_URL"), m_fake->baseUrl());
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("test-key"));
        p.setProcessEnvironment(env);
        p.start(nb2test::sessionDriverProgram(), QStringList {QStringLiteral("--session"), m_session} + command);
        if (!p.waitForFinished(120000))
            return {};
        return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
    }

    int count(const char *method) const
    {
        int n = 0;
        for (const FakeRequest &r : m_fake->requests())
            n += r.method == QLatin1String(method) && r.path.contains(QLatin1String("/interactions")) ? 1 : 0;
        return n;
    }

    Frame onlyFrame() const
    {
        SessionStore store;
        if (!store.open(m_session, SessionStore::OpenMode::ReadOnly) || store.graph().frames().isEmpty())
            return {};
        return store.graph().frames().first();
    }

    /** A turn that failed after its id arrived: the cut answer and the follow-up get both cut. */
    void failWithKnownId()
    {
        FakeFault cut;
        cut.kind = FakeFault::Kind::TruncatedJson;
        m_fake->injectFault(cut, 2);
        const Run r = run({QStringLiteral("generate"), QStringLiteral("a lighthouse")});
        QVERIFY(r.code != 0);
        const Frame f = onlyFrame();
        QCOMPARE(f.status, FrameStatus::Failed);
        QVERIFY(!f.interactionId.isEmpty());
        QVERIFY(f.isRecoverable());
        QVERIFY2(r.err.contains("recover fetches it without sending it again"), r.err.constData());
        QCOMPARE(count("POST"), 1);
    }

private Q_SLOTS:
    void init()
    {
        m_fake = std::make_unique<FakeServer>();
        QVERIFY(m_fake->start(0));
        m_tmp = std::make_unique<QTemporaryDir>();
        m_session = m_tmp->filePath(QStringLiteral("session"));
    }

    void cutAnswerIsFetchedNotResent_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::newRow("stream") << true;
        QTest::newRow("no-stream") << false;
    }

    void cutAnswerIsFetchedNotResent()
    {
        // The connection drops halfway through the answer: the interaction exists, so it is
        // fetched with get; a second create would be a second (billed) interaction.
        QFETCH(bool, stream);
        FakeFault reset;
        reset.kind = FakeFault::Kind::ConnectionReset;
        m_fake->injectFault(reset, 1);
        QStringList command {QStringLiteral("generate"), QStringLiteral("a lighthouse")};
        if (!stream)
            command << QStringLiteral("--no-stream");
        const Run r = run(command);
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(onlyFrame().status, FrameStatus::Done);
        QCOMPARE(count("POST"), 1);
        QVERIFY(count("GET") >= 1);
        // --no-stream really turns streaming off for a session turn.
        const QJsonObject body = QJsonDocument::fromJson(m_fake->requests().first().body).object();
        QCOMPARE(body.value(QStringLiteral("stream")).toBool(false), stream);
        QCOMPARE(onlyFrame().interactionId.isEmpty(), false);
    }

    void recoverFetchesAKnownId()
    {
        failWithKnownId();
        const Run r = run({QStringLiteral("recover")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("1 turn(s) fetched with get"), r.err.constData());
        const Frame f = onlyFrame();
        QCOMPARE(f.status, FrameStatus::Done);
        QVERIFY(QFileInfo::exists(m_session + QLatin1Char('/') + f.image.file));
        QCOMPARE(count("POST"), 1); // still the one create
    }

    void retryGetsAKnownIdFirst()
    {
        failWithKnownId();
        const Run r = run({QStringLiteral("retry"), QStringLiteral("head")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(onlyFrame().status, FrameStatus::Done);
        QCOMPARE(count("POST"), 1); // fetched, not paid for again
    }

    void retrySendsAnewOnlyWhenTheIdIsGone()
    {
        failWithKnownId();
        const QString gone = onlyFrame().interactionId;
        m_fake->forget(gone);
        const Run r = run({QStringLiteral("retry"), QStringLiteral("head")});
        QVERIFY2(r.code == 0, r.err.constData());
        const Frame f = onlyFrame();
        QCOMPARE(f.status, FrameStatus::Done);
        QVERIFY(f.interactionId != gone);
        QCOMPARE(count("POST"), 2);
        // The get of the gone id came before the new create.
        QStringList order;
        for (const FakeRequest &req : m_fake->requests())
            order << req.method;
        QVERIFY2(order.lastIndexOf(QStringLiteral("GET")) < order.lastIndexOf(QStringLiteral("POST")),
            qPrintable(order.join(QLatin1Char(' '))));
    }

    void timeoutBoundsATurn()
    {
        // A server that does not answer: --timeout ends the turn, not the 120 s read timeout
        // times five attempts.
        m_fake->setLatencyMs(60000);
        QElapsedTimer timer;
        timer.start();
        const Run r = run({QStringLiteral("--timeout"), QStringLiteral("2"), QStringLiteral("generate"),
            QStringLiteral("a lighthouse"), QStringLiteral("--no-stream")});
        QVERIFY(timer.elapsed() < 20000);
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("error (timeout") && r.err.contains("time limit"), r.err.constData());
        QCOMPARE(onlyFrame().status, FrameStatus::Failed);
        QCOMPARE(count("POST"), 1);
    }

    void retriesAreShownOnStderr()
    {
        FakeFault failing;
        failing.kind = FakeFault::Kind::ServerErrorJson;
        m_fake->injectFault(failing, 2);
        const Run r = run({QStringLiteral("generate"), QStringLiteral("a lighthouse")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("retrying: attempt 1 of 5 failed (server:"), r.err.constData());
        QVERIFY2(r.err.contains("retrying: attempt 2 of 5 failed"), r.err.constData());
        QVERIFY(!r.out.contains("retrying")); // progress never mixes into stdout
    }
};

QTEST_GUILESS_MAIN(tst_KnownIds)
#include "tst_knownids.moc"
