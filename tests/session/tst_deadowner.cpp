#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/ownerprocess.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "sessiontestutil.h"
#include "tests/testpaths.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace nb2;

/**
 * Issue 11, item 9: a session open in one process while another process (the nb2lite command
 * line, as a second window would) runs a turn and is killed with -9. The process is left a
 * zombie (not reaped), as a window killed under a shell that has not yet waited for it is:
 * kill(pid, 0) still succeeds then. The open session must see the owner is dead within a few
 * seconds and recover the turn: by get when its interaction id is known (no second POST), else
 * by marking it interrupted so that Retry works.
 */
class tst_DeadOwner : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeServer> m_fake;
    std::unique_ptr<QTemporaryDir> m_tmp;
    pid_t m_child = 0;

    std::shared_ptr<InteractionsClient> client() const
    {
        ClientConfig cfg;
        cfg.baseUrl = m_fake->baseUrl();
        cfg.apiKey = ApiKey(QStringLiteral("test-key"), QStringLiteral("test"));
        cfg.maxRetries = 0;
        return std::make_shared<InteractionsClient>(cfg);
    }

    /** The second writer, spawned without QProcess so that nothing reaps it behind our back. */
    pid_t spawnWriter(const QStringList &args)
    {
        QList<QByteArray> argBytes {
            nb2test::sessionDriverProgram().toLocal8Bit(), QByteArrayLiteral("--session"), m_tmp->path().toLocal8Bit()};
        for (const QString &a : args)
            argBytes.append(a.toLocal8Bit());
        std::vector<char *> argv;
        for (QByteArray &a : argBytes)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        // The key and the endpoint by environment, never on the command line.
        QList<QByteArray> envBytes;
        for (char **e = environ; *e; ++e) {
            const QByteArray entry(*e);
            if (!entry.startsWith("GEMINI_API_KEY=") && !entry.startsWith("GOOGLE_API_KEY=")
                && !entry.startsWith("GOOGLE_GEMINI_BASE_URL="))
                envBytes.append(entry);
        }
        envBytes.append("GEMINI_API_KEY=test-key");
        envBytes.append("GOOGLE_GEMINI_BASE_URL=" + m_fake->baseUrl().toUtf8());
        std::vector<char *> envp;
        for (QByteArray &e : envBytes)
            envp.push_back(e.data());
        envp.push_back(nullptr);
        pid_t pid = 0;
        if (::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), envp.data()) != 0)
            return 0;
        return pid;
    }

    /** The pending frame the writer put in the manifest (with its interaction id when wantId). */
    QString waitForPendingTurn(bool wantId, int timeoutMs)
    {
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < timeoutMs) {
            SessionStore peek;
            if (peek.open(m_tmp->path(), SessionStore::OpenMode::OpenExisting)) {
                for (const Frame &f : peek.graph().frames())
                    if (f.isPending() && f.ownerPid == m_child && (!wantId || !f.interactionId.isEmpty()))
                        return f.id;
            }
            QTest::qWait(30);
        }
        return {};
    }

    int requests(const char *method) const
    {
        int n = 0;
        for (const FakeRequest &r : m_fake->requests())
            n += r.method == QLatin1String(method) && r.path.contains(QLatin1String("/interactions"));
        return n;
    }

    /** A finished root made by this process, so the writer has something to edit. */
    QString seed()
    {
        SessionController c;
        c.setClient(client());
        if (!c.open(m_tmp->path()))
            return {};
        const Result<QString> g = c.generate({QStringLiteral("a harbour"), {}, {}, false});
        if (!g || !c.waitForIdle(20000))
            return {};
        return g.value();
    }

    void killToZombie()
    {
        QVERIFY(m_child > 0);
        QCOMPARE(::kill(m_child, SIGKILL), 0);
        // Wait until it is a zombie (not reaped: waitid with WNOWAIT leaves it so).
        siginfo_t info {};
        QCOMPARE(::waitid(P_PID, id_t(m_child), &info, WEXITED | WNOWAIT), 0);
        QCOMPARE(::kill(m_child, 0), 0); // still "exists" to kill(): the trap of issue 11
    }

private Q_SLOTS:
    void init()
    {
        m_fake = std::make_unique<FakeServer>();
        QVERIFY(m_fake->start(0));
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
    }

    void cleanup()
    {
        if (m_child > 0) {
            ::kill(m_child, SIGKILL);
            ::waitpid(m_child, nullptr, 0);
            m_child = 0;
        }
        m_fake.reset();
        m_tmp.reset();
    }

    void ownerProcessStates()
    {
        QVERIFY(isOwnerProcessAlive(QCoreApplication::applicationPid()));
        QVERIFY(!isOwnerProcessAlive(0));
        QVERIFY(!isOwnerProcessAlive(-5));
        char sleepPath[] = "/bin/sleep";
        char arg[] = "30";
        char *argv[] = {sleepPath, arg, nullptr};
        QCOMPARE(::posix_spawn(&m_child, sleepPath, nullptr, nullptr, argv, environ), 0);
        QVERIFY(isOwnerProcessAlive(m_child));
        killToZombie();
        QVERIFY2(!isOwnerProcessAlive(m_child), "a zombie cannot finish a turn");
        ::waitpid(m_child, nullptr, 0);
        const pid_t reaped = m_child;
        m_child = 0;
        QVERIFY(!isOwnerProcessAlive(reaped));
    }

    /** The owner learned the id (streaming) and died: an open session fetches it, once. */
    void openSessionRecoversByGet()
    {
        const QString root = seed();
        QVERIFY(!root.isEmpty());
        SessionController window; // "window B": has the session open before the turn starts
        window.setClient(client());
        QVERIFY(window.open(m_tmp->path()));
        m_fake->clearRequests();
        m_fake->setLatencyMs(8000); // the latency: the owner is killed while the server draws

        m_child = spawnWriter({QStringLiteral("edit"), root, QStringLiteral("make it night")});
        const QString turn = waitForPendingTurn(true, 20000);
        QVERIFY2(!turn.isEmpty(), "the writer never listed its turn with an interaction id");
        killToZombie();
        m_fake->setLatencyMs(0);

        // Window B learns of the pending turn from the file watcher, then sees its owner is dead.
        QElapsedTimer clock;
        clock.start();
        QTRY_VERIFY_WITH_TIMEOUT(window.graph().value(turn).isDone(), 15000);
        qInfo("recovered %lld ms after the kill", clock.elapsed());
        QVERIFY(clock.elapsed() < 10000);
        QCOMPARE(requests("POST"), 1); // fetched, never paid for twice
        QVERIFY(requests("GET") >= 1);
        QVERIFY(window.waitForIdle(10000));
        window.close();
        QVERIFY(test::checkInvariants(m_tmp->path()).isEmpty());
    }

    /** The owner died before the server confirmed anything: interrupted, and Retry works. */
    void openSessionMarksInterruptedThenRetry()
    {
        const QString root = seed();
        QVERIFY(!root.isEmpty());
        SessionController window;
        window.setClient(client());
        QVERIFY(window.open(m_tmp->path()));
        m_fake->setLatencyMs(8000);
        // No streaming: the id would only come with the answer, which never arrives.
        m_child = spawnWriter(
            {QStringLiteral("edit"), root, QStringLiteral("make it night"), QStringLiteral("--no-stream")});
        const QString turn = waitForPendingTurn(false, 20000);
        QVERIFY(!turn.isEmpty());
        // Once the request is out (the fake logged it), kill it.
        QTRY_VERIFY_WITH_TIMEOUT(requests("POST") >= 2, 10000);
        killToZombie();
        m_fake->setLatencyMs(0);

        QTRY_COMPARE_WITH_TIMEOUT(window.graph().value(turn).status, FrameStatus::Interrupted, 15000);
        const Frame f = window.graph().value(turn);
        QVERIFY2(f.error.message.contains(QStringLiteral("retry"), Qt::CaseInsensitive), qPrintable(f.error.message));
        QCOMPARE(f.ownerPid, qint64(0));
        const Result<QString> retried = window.retry(turn);
        QVERIFY2(retried, qPrintable(retried.error().message));
        QVERIFY(window.waitForIdle(20000));
        QCOMPARE(window.graph().value(turn).status, FrameStatus::Done);
    }

    /** Cancel on a dead process's turn does not say "not running": it recovers the turn at once. */
    void cancelRecoversDeadOwnersTurn()
    {
        const QString root = seed();
        QVERIFY(!root.isEmpty());
        m_fake->setLatencyMs(8000);
        m_child = spawnWriter(
            {QStringLiteral("edit"), root, QStringLiteral("make it night"), QStringLiteral("--no-stream")});
        const QString turn = waitForPendingTurn(false, 20000);
        QVERIFY(!turn.isEmpty());
        SessionController window;
        window.setClient(client());
        SessionSettings s;
        s.recoverOnOpen = false; // opened while the owner still lived: nothing to recover yet
        window.setSettings(s);
        QVERIFY(window.open(m_tmp->path()));
        QVERIFY(window.graph().value(turn).isPending());
        QVERIFY2(!window.cancel(turn), "a live process's turn is not ours to cancel");
        killToZombie();
        m_fake->setLatencyMs(0);
        QVERIFY(window.cancel(turn));
        QTRY_COMPARE_WITH_TIMEOUT(window.graph().value(turn).status, FrameStatus::Interrupted, 5000);
    }
};

QTEST_GUILESS_MAIN(tst_DeadOwner)
#include "tst_deadowner.moc"
