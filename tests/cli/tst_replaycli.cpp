// `nb2lite --session DIR replay ...` (issue 14) through the whole command line, in-process
// against the fake server (whose request log shows what was sent), and the nb2lite binary
// killed with SIGKILL mid-replay, then `replay --resume`: no step is sent twice.

#include "core/export/provenance.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/replayqueue.h"
#include "core/session/sessionstore.h"
#include "tests/cli/inprocesscli.h"
#include "tests/testpaths.h"

#include <QBuffer>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

namespace {

const char kKey[] = "replay-test-key";

QString writeJpeg(const QString &path, const QColor &color)
{
    QImage img(64, 48, QImage::Format_RGB32);
    img.fill(color);
    img.save(path, "JPEG");
    return path;
}

} // namespace

class tst_ReplayCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    FakeServer m_fake {[] {
        FakeServerOptions o;
        o.apiKey = QString::fromLatin1(kKey);
        return o;
    }()};

    using Run = test::CliRun;

    Run run(const QString &session, const QStringList &args)
    {
        return test::runCli(
            QStringList {QStringLiteral("--session"), session, QStringLiteral("--base-url"), m_fake.baseUrl()} + args);
    }

    /** generate + night, lantern, snow; returns the 4 frame ids. */
    QStringList makeChain(const QString &session)
    {
        QStringList ids;
        Run g = run(session, {QStringLiteral("generate"), QStringLiteral("a red fox"), QStringLiteral("--json")});
        ids << g.json().value(QLatin1String("frame_id")).toString();
        for (const char *prompt : {"make it night", "add a lantern", "let it snow"}) {
            Run e = run(
                session, {QStringLiteral("edit"), ids.last(), QString::fromLatin1(prompt), QStringLiteral("--json")});
            ids << e.json().value(QLatin1String("frame_id")).toString();
        }
        return ids;
    }

    int createsWith(const QString &prompt) const
    {
        int n = 0;
        for (const FakeRequest &r : m_fake.requests())
            n += r.method == QLatin1String("POST") && r.path.endsWith(QLatin1String("/interactions"))
                    && QString::fromUtf8(r.body).contains(prompt)
                ? 1
                : 0;
        return n;
    }

    int createCount() const { return test::createRequests(m_fake); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        test::isolateCliEnvironment(m_tmp.filePath(QStringLiteral("home")), kKey);
        QVERIFY(m_fake.start(0));
    }

    void dryRunOntoAndJson()
    {
        const QString session = m_tmp.filePath(QStringLiteral("onto"));
        const QStringList chain = makeChain(session);
        QCOMPARE(chain.size(), 4);
        const QString range = chain[1] + QStringLiteral("..") + chain[3];
        m_fake.clearRequests();

        const Run dry = run(session,
            {QStringLiteral("replay"), range, QStringLiteral("--onto"), chain[0], QStringLiteral("--dry-run"),
                QStringLiteral("--json")});
        QCOMPARE(dry.status, 0);
        QCOMPARE(dry.json().value(QLatin1String("dry_run")).toBool(), true);
        QCOMPARE(dry.json().value(QLatin1String("turns")).toInt(), 3);
        QVERIFY(dry.json().value(QLatin1String("estimate_usd")).toDouble() > 0);
        QCOMPARE(dry.json().value(QLatin1String("steps")).toArray().size(), 3);
        QCOMPARE(m_fake.requests().size(), 0); // a dry run sends nothing
        // --onto start: the frame FROM continued (old-vs-new with --model).
        const Run start = run(session,
            {QStringLiteral("replay"), range, QStringLiteral("--onto"), QStringLiteral("start"),
                QStringLiteral("--dry-run"), QStringLiteral("--json")});
        QCOMPARE(start.status, 0);
        QCOMPARE(start.json()
                     .value(QLatin1String("chains"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QLatin1String("target"))
                     .toObject()
                     .value(QLatin1String("frame"))
                     .toString(),
            chain[0]);
        const Run dryText = run(session,
            {QStringLiteral("replay"), range, QStringLiteral("--onto"), chain[0], QStringLiteral("--dry-run")});
        QCOMPARE(dryText.status, 0);
        QVERIFY2(dryText.out.contains(QStringLiteral("3 turn")), qPrintable(dryText.out));
        QVERIFY(dryText.out.contains(QStringLiteral("let it snow")));

        const Run done = run(
            session, {QStringLiteral("replay"), range, QStringLiteral("--onto"), chain[0], QStringLiteral("--json")});
        QVERIFY2(done.status == 0, qPrintable(done.err + done.out));
        QCOMPARE(done.json().value(QLatin1String("ok")).toBool(), true);
        QCOMPARE(done.json().value(QLatin1String("status")).toString(), QStringLiteral("finished"));
        const QJsonArray steps = done.json()
                                     .value(QLatin1String("chains"))
                                     .toArray()
                                     .at(0)
                                     .toObject()
                                     .value(QLatin1String("steps"))
                                     .toArray();
        QCOMPARE(steps.size(), 3);
        SessionStore store;
        QVERIFY(store.open(session, SessionStore::OpenMode::OpenExisting));
        for (int i = 0; i < 3; ++i) {
            const QJsonObject s = steps.at(i).toObject();
            QCOMPARE(s.value(QLatin1String("state")).toString(), QStringLiteral("done"));
            QCOMPARE(s.value(QLatin1String("source")).toString(), chain[i + 1]);
            const Frame f = store.graph().value(s.value(QLatin1String("frame_id")).toString());
            QCOMPARE(f.replayOf, chain[i + 1]);
            QVERIFY(!f.drift.isEmpty());
        }
        QCOMPARE(store.graph().children(chain[0]).size(), 2);
        QCOMPARE(createCount(), 3);

        // The link in the exports: the HTML card's "Replays" field and the pictures' provenance record.
        const QString last = steps.at(2).toObject().value(QLatin1String("frame_id")).toString();
        const QString page = m_tmp.filePath(QStringLiteral("onto-page"));
        QCOMPARE(
            run(session, {QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("html"), page}).status,
            0);
        QFile html(page + QStringLiteral("/index.html"));
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(html.readAll());
        QVERIFY(text.contains(QStringLiteral("Replays")));
        QVERIFY(text.contains(QStringLiteral("frame %1").arg(chain[3])));
        const QString pictures = m_tmp.filePath(QStringLiteral("onto-frames"));
        QCOMPARE(run(session,
                     {QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("frames"),
                         QStringLiteral("--frames"), last, pictures})
                     .status,
            0);
        const QStringList written = QDir(pictures).entryList(QDir::Files);
        QCOMPARE(written.size(), 1);
        const Result<Provenance> record = readProvenance(pictures + QLatin1Char('/') + written.first());
        QVERIFY2(record, qPrintable(record.error().message));
        QCOMPARE(record.value().replayOf, chain[3]);
        QCOMPARE(record.value().frameId, last);
    }

    void photosBudgetAndErrors()
    {
        const QString session = m_tmp.filePath(QStringLiteral("photos"));
        const QStringList chain = makeChain(session);
        const QString range = chain[1] + QStringLiteral("..") + chain[3];
        const QString shoot = m_tmp.filePath(QStringLiteral("shoot"));
        QDir().mkpath(shoot);
        writeJpeg(shoot + QStringLiteral("/one.jpg"), Qt::green);
        writeJpeg(shoot + QStringLiteral("/two.jpg"), Qt::yellow);

        // Budget: refused for the whole replay before anything is imported or sent.
        m_fake.clearRequests();
        const Run poor = run(session,
            {QStringLiteral("replay"), range, QStringLiteral("--photos"), shoot, QStringLiteral("--budget"),
                QStringLiteral("0.05"), QStringLiteral("--json")});
        QVERIFY(poor.status != 0);
        QCOMPARE(poor.json().value(QLatin1String("error")).toObject().value(QLatin1String("kind")).toString(),
            QStringLiteral("budget"));
        QCOMPARE(m_fake.requests().size(), 0);

        // Invalid ranges and forms.
        const Run reversed = run(session,
            {QStringLiteral("replay"), chain[3] + QStringLiteral("..") + chain[1], QStringLiteral("--onto"), chain[0]});
        QVERIFY(reversed.status != 0);
        QVERIFY2(reversed.err.contains(QStringLiteral("not on the path")), qPrintable(reversed.err));
        QCOMPARE(run(session, {QStringLiteral("replay"), range}).status, 2); // neither --onto nor --photos
        QCOMPARE(run(session, {QStringLiteral("replay"), chain[1], QStringLiteral("--onto"), chain[0]}).status,
            2); // no range
        QCOMPARE(m_fake.requests().size(), 0);

        const Run done = run(
            session, {QStringLiteral("replay"), range, QStringLiteral("--photos"), shoot, QStringLiteral("--json")});
        QVERIFY2(done.status == 0, qPrintable(done.err + done.out));
        QCOMPARE(done.json().value(QLatin1String("done")).toInt(), 6);
        QCOMPARE(createCount(), 6);
        QCOMPARE(createsWith(QStringLiteral("make it night")), 2);
        const QJsonArray chains = done.json().value(QLatin1String("chains")).toArray();
        QCOMPARE(chains.size(), 2);
        QVERIFY(chains.at(0)
                    .toObject()
                    .value(QLatin1String("target"))
                    .toObject()
                    .value(QLatin1String("photo"))
                    .toString()
                    .endsWith(QLatin1String("one.jpg")));

        // Nothing left to resume.
        const Run resume
            = run(session, {QStringLiteral("replay"), QStringLiteral("--resume"), QStringLiteral("--json")});
        QCOMPARE(resume.status, 0);
        QCOMPARE(resume.json().value(QLatin1String("resumed")).toArray().size(), 0);
    }

    void killedMidReplayResumesSendingEachStepOnce()
    {
        const QString session = m_tmp.filePath(QStringLiteral("killed"));
        const QStringList chain = makeChain(session);
        const QString range = chain[1] + QStringLiteral("..") + chain[3];
        const QString a = writeJpeg(m_tmp.filePath(QStringLiteral("ka.jpg")), Qt::red);
        const QString b = writeJpeg(m_tmp.filePath(QStringLiteral("kb.jpg")), Qt::blue);
        m_fake.clearRequests();
        m_fake.setLatencyMs(1500); // streaming: the id arrives at once, the picture 1.5 s later

        QProcess cli;
        cli.setProgram(nb2test::cliProgram());
        cli.setArguments({QStringLiteral("--session"), session, QStringLiteral("--base-url"), m_fake.baseUrl(),
            QStringLiteral("replay"), range, QStringLiteral("--photos"), a, b});
        cli.start();
        QVERIFY(cli.waitForStarted());
        // Kill it once the first steps are done and the next ones are on their way (their ids known).
        QElapsedTimer timer;
        timer.start();
        bool cut = false;
        while (timer.elapsed() < 60000 && !cut) {
            QTest::qWait(50);
            const QList<ReplayState> states = listReplays(session);
            if (states.isEmpty())
                continue;
            const ReplayState &s = states.first();
            int sent = 0;
            for (const ReplayChain &c : s.chains)
                for (const ReplayStepRun &r : c.steps)
                    sent += r.state == ReplayStepState::Sent ? 1 : 0;
            if (s.doneSteps() >= 2 && sent > 0) {
                QTest::qWait(500);
                cli.kill(); // SIGKILL: no cleanup, no cancel
                cut = true;
            }
        }
        QVERIFY(cut);
        QVERIFY(cli.waitForFinished(10000));
        m_fake.setLatencyMs(0);
        const ReplayState before = listReplays(session).first();
        QVERIFY(before.doneSteps() < 6);
        qInfo("killed after %d of 6 steps done, %d creates sent", before.doneSteps(), createCount());

        const Run resumed
            = run(session, {QStringLiteral("replay"), QStringLiteral("--resume"), QStringLiteral("--json")});
        QVERIFY2(resumed.status == 0, qPrintable(resumed.err + resumed.out));
        QCOMPARE(resumed.json().value(QLatin1String("status")).toString(), QStringLiteral("finished"));
        QCOMPARE(resumed.json().value(QLatin1String("done")).toInt(), 6);
        // Over the killed run and the resumed one: each step of each chain created once.
        QCOMPARE(createsWith(QStringLiteral("make it night")), 2);
        QCOMPARE(createsWith(QStringLiteral("add a lantern")), 2);
        QCOMPARE(createsWith(QStringLiteral("let it snow")), 2);
        QCOMPARE(createCount(), 6);
        QVERIFY(unfinishedReplays(session).isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_ReplayCli)
#include "tst_replaycli.moc"
