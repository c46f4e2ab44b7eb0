#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/journal.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "sessiontestutil.h"
#include "tests/testpaths.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <iterator>

using namespace nb2;

/**
 * The kill -9 test: the session CLI (nb2lite's own code, linked into the test driver) runs
 * turns against a slow fake server and is SIGKILLed at random points; after every kill the session is
 * reopened and the crash-safety invariants are checked, then recovery runs and its outcome
 * is checked against the fake's request log.
 */
class tst_SessionCrash : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeServer> m_fake;

    std::shared_ptr<InteractionsClient> client() const
    {
        ClientConfig cfg;
        cfg.baseUrl = m_fake->baseUrl();
        cfg.apiKey = ApiKey(QStringLiteral("test-key"), QStringLiteral("test"));
        cfg.maxRetries = 0;
        return std::make_shared<InteractionsClient>(cfg);
    }

    QProcess *startDriver(const QString &dir, const QStringList &command)
    {
        auto *p = new QProcess;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GOOGLE_GEMINI_BASE_URL"), m_fake->baseUrl());
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("test-key"));
        env.remove(QStringLiteral("GOOGLE_API_KEY"));
        p->setProcessEnvironment(env);
        p->start(nb2test::sessionDriverProgram(), QStringList {QStringLiteral("--session"), dir} + command);
        return p;
    }

    int getRequestsFor(const QString &id) const
    {
        int n = 0;
        for (const FakeRequest &r : m_fake->requests())
            if (r.method == QLatin1String("GET") && r.path.endsWith(id))
                ++n;
        return n;
    }

private Q_SLOTS:
    void killNineAtRandomPoints()
    {
        m_fake = std::make_unique<FakeServer>();
        QVERIFY(m_fake->start(0));
        m_fake->setLatencyMs(250);
        QTemporaryDir tmp;
        const QString dir = tmp.path();

        // A finished root to edit from. Its duration sets the kill window: on a loaded machine
        // every step comes later, and a fixed window would then kill almost every turn before
        // its request (interrupted) instead of spreading the kills over the whole turn.
        int killWindowMs = 650;
        {
            QElapsedTimer seedTimer;
            seedTimer.start();
            std::unique_ptr<QProcess> seed(startDriver(dir, {QStringLiteral("generate"), QStringLiteral("seed")}));
            QVERIFY(seed->waitForFinished(30000));
            QVERIFY2(seed->exitCode() == 0, seed->readAllStandardError().constData());
            killWindowMs = std::max(killWindowMs, int(seedTimer.elapsed() * 11 / 10));
        }
        qInfo("kill window %d ms", killWindowMs);

        const quint32 seedValue = QRandomGenerator::global()->generate();
        QRandomGenerator rng(seedValue);
        qInfo("random seed %u", seedValue);
        const int kKills = 55;
        constexpr int kLatenciesMs[] = {150, 250, 400};
        int kills = 0, finishedBeforeKill = 0, recoveredByGet = 0, interrupted = 0;
        QElapsedTimer total;
        total.start();
        QString editTarget = QStringLiteral("head"); // the seed
        QTemporaryDir inputs;
        const QString inputFile
            = test::writeFile(inputs.filePath(QStringLiteral("input.png")), test::pngBytes(Qt::green, 256, 256));
        int edits = 0;
        for (int round = 0; kills < kKills && round < kKills * 3; ++round) {
            const int dice = int(rng.bounded(100));
            const bool edit = !editTarget.isEmpty() && dice < 40;
            const bool editLocal = !edit && dice < 55; // copies the input into the session first
            edits += edit ? 1 : 0;
            QStringList cmd = edit ? QStringList {QStringLiteral("edit"), editTarget, QStringLiteral("e%1").arg(round)}
                                   : QStringList {QStringLiteral("generate"), QStringLiteral("g%1").arg(round)};
            if (editLocal)
                cmd = {QStringLiteral("edit-local"), QStringLiteral("--file"), inputFile,
                    QStringLiteral("l%1").arg(round)};
            // The fake's latency moves the end of the turn within the kill window: a fast answer
            // leaves more kills to land on the writes after it (image, manifest, journal end),
            // a slow one more on the wait. No seam in the product widens those windows.
            m_fake->setLatencyMs(kLatenciesMs[rng.bounded(int(std::size(kLatenciesMs)))]);
            std::unique_ptr<QProcess> p(startDriver(dir, cmd));
            QVERIFY(p->waitForStarted(10000));
            const int killAfter = int(rng.bounded(killWindowMs));
            if (p->waitForFinished(killAfter)) {
                ++finishedBeforeKill;
                if (p->exitCode() != 0)
                    qInfo("round %d: %s exited %d: %s", round, qPrintable(cmd.join(QLatin1Char(' '))), p->exitCode(),
                        p->readAllStandardError().trimmed().constData());
            } else {
                p->kill(); // SIGKILL
                QVERIFY(p->waitForFinished(10000));
                ++kills;
            }

            // Invariants of what is on disk right after the crash.
            QString openError;
            const QStringList problems = test::checkInvariants(dir, &openError);
            QVERIFY2(problems.isEmpty(),
                qPrintable(QStringLiteral("round %1: %2").arg(round).arg(problems.join(QStringLiteral("; ")))));

            // What recovery should do: pending with a known id -> get; pending without -> interrupted.
            QStringList withId, withoutId;
            {
                SessionStore s;
                QVERIFY(s.open(dir, SessionStore::OpenMode::OpenExisting));
                for (const Frame &f : s.graph().frames()) {
                    if (!f.isPending())
                        continue;
                    (f.interactionId.isEmpty() ? withoutId : withId).append(f.id);
                }
            }
            QHash<QString, QString> ids;
            {
                SessionController c;
                c.setClient(client());
                const Result<void> opened = c.open(dir);
                QVERIFY2(opened, qPrintable(opened.error().message));
                for (const QString &id : std::as_const(withId))
                    ids.insert(id, c.graph().value(id).interactionId);
                QVERIFY(c.waitForIdle(30000));
                QVERIFY2(c.graph().withStatus(FrameStatus::Pending).isEmpty(), "recovery left a pending frame");
                for (const QString &id : std::as_const(withId)) {
                    const Frame f = c.graph().value(id);
                    QVERIFY2(f.isDone(), qPrintable(QStringLiteral("%1 not recovered: %2").arg(id, f.statusText())));
                    QVERIFY2(getRequestsFor(ids.value(id)) >= 1, "recovered without a get");
                    ++recoveredByGet;
                }
                for (const QString &id : std::as_const(withoutId)) {
                    QCOMPARE(c.graph().value(id).status, FrameStatus::Interrupted);
                    ++interrupted;
                }
                // Next edit continues the most recent finished head (an edit of a frame with children would need --branch).
                editTarget.clear();
                for (const QString &h : c.graph().heads())
                    if (c.graph().value(h).isDone())
                        editTarget = h;
            }
            const QStringList after = test::checkInvariants(dir);
            QVERIFY2(after.isEmpty(), qPrintable(after.join(QStringLiteral("; "))));
        }
        QVERIFY(kills >= kKills);
        // Most kills land while the fake is drawing, after it revealed the id: those must be fetched.
        QVERIFY2(recoveredByGet >= 10, "too few turns recovered by get");
        qInfo("kills %d (edits %d), finished before the kill %d, recovered by get %d, interrupted %d, %lld ms", kills,
            edits, finishedBeforeKill, recoveredByGet, interrupted, total.elapsed());

        // Interrupted turns are listed by the CLI's log, with the retry hint.
        std::unique_ptr<QProcess> log(startDriver(dir, {QStringLiteral("log")}));
        QVERIFY(log->waitForFinished(30000));
        QCOMPARE(log->exitCode(), 0);
        const QByteArray text = log->readAllStandardOutput();
        if (interrupted > 0)
            QVERIFY2(text.contains("interrupted"), text.constData());
        // No create was ever repeated by recovery: creates == turns started by the driver.
        int creates = 0;
        for (const FakeRequest &r : m_fake->requests())
            if (r.method == QLatin1String("POST"))
                ++creates;
        QVERIFY(creates <= kills + finishedBeforeKill + 1 + 0 /* re-anchors never happen here */);
    }
};

QTEST_GUILESS_MAIN(tst_SessionCrash)
#include "tst_sessioncrash.moc"
