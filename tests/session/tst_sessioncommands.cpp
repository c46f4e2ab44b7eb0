#include "core/fakeapi/fakeserver.h"
#include "core/session/sessionstore.h"
#include "sessiontestutil.h"
#include "tests/testpaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <signal.h>

using namespace nb2;

/** `nb2lite --session DIR ...` end to end (through the session-command code) against the fake server. */
class tst_SessionCommands : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeServer> m_fake;
    std::unique_ptr<QTemporaryDir> m_tmp;

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
        p.start(nb2test::sessionDriverProgram(), QStringList {QStringLiteral("--session"), m_tmp->path()} + command);
        if (!p.waitForFinished(60000))
            return {};
        return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
    }

    QJsonObject log()
    {
        const Run r = run({QStringLiteral("log"), QStringLiteral("--json")});
        return QJsonDocument::fromJson(r.out).object();
    }

private Q_SLOTS:
    void init()
    {
        m_fake = std::make_unique<FakeServer>();
        QVERIFY(m_fake->start(0));
        m_tmp = std::make_unique<QTemporaryDir>();
    }

    void generateEditBranchAndLog()
    {
        Run r = run({QStringLiteral("generate"), QStringLiteral("a red fox"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject g = QJsonDocument::fromJson(r.out).object();
        const QString root = g.value(QStringLiteral("frame_id")).toString();
        QCOMPARE(g.value(QStringLiteral("status")).toString(), QStringLiteral("done"));

        r = run({QStringLiteral("edit"), QStringLiteral("head"), QStringLiteral("make it blue")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains(" edit done "));
        QVERIFY(!r.out.contains("re-anchored"));

        // The root now has a child: editing it again is a fork and needs --branch.
        r = run({QStringLiteral("edit"), root.left(5), QStringLiteral("make it green")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--branch") && r.err.contains("already has children"), r.err.constData());
        QCOMPARE(log().value(QStringLiteral("frames")).toArray().size(), 2); // nothing added

        r = run({QStringLiteral("edit"), root, QStringLiteral("make it green"), QStringLiteral("--branch")});
        QVERIFY2(r.code == 0, r.err.constData());

        const QJsonObject graph = log();
        QCOMPARE(graph.value(QStringLiteral("frames")).toArray().size(), 3);
        QCOMPARE(graph.value(QStringLiteral("branches")).toArray().size(), 2);
        QCOMPARE(graph.value(QStringLiteral("roots")).toArray(), QJsonArray {root});

        r = run({QStringLiteral("log")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(root.toUtf8()));
        QVERIFY(r.out.contains("expires="));
        QVERIFY(r.out.contains("2 branch(es), 3 frame(s)"));
    }

    void importEditLocalAndErrors()
    {
        const QString png = test::writeFile(m_tmp->filePath(QStringLiteral("in.png")), test::pngBytes());
        Run r = run({QStringLiteral("import"), png, QStringLiteral("--title"), QStringLiteral("mine")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(m_fake->requests().size(), 0);
        r = run({QStringLiteral("edit-local"), QStringLiteral("head"), QStringLiteral("sharper")});
        QVERIFY2(r.code == 0, r.err.constData());
        r = run({QStringLiteral("edit-local"), QStringLiteral("--file"), png, QStringLiteral("new root")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(log().value(QStringLiteral("roots")).toArray().size(), 2);

        r = run({QStringLiteral("edit"), QStringLiteral("zzzz"), QStringLiteral("x")});
        QVERIFY(r.code != 0);
        QVERIFY(r.err.contains("No frame matches"));
        r = run({QStringLiteral("frobnicate")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("unknown session command"));
        r = run({QStringLiteral("generate"), QStringLiteral("x"), QStringLiteral("--aspect"), QStringLiteral("7:3")});
        QVERIFY(r.code != 0);
        QVERIFY(r.err.contains("7:3"));
        QVERIFY(test::checkInvariants(m_tmp->path()).isEmpty());
    }

    void ctrlCCancelsTheRunningTurn()
    {
        m_fake->setLatencyMs(4000);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GOOGLE_GEMINI_BASE_URL"), m_fake->baseUrl());
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("test-key"));
        p.setProcessEnvironment(env);
        p.start(nb2test::sessionDriverProgram(),
            {QStringLiteral("--session"), m_tmp->path(), QStringLiteral("generate"), QStringLiteral("slow")});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(m_fake->requests().size() >= 1, 10000); // the request is in flight
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 12); // exitCodeFor(Cancelled)
        m_fake->setLatencyMs(0);
        const QJsonArray frames = log().value(QStringLiteral("frames")).toArray();
        QCOMPARE(frames.size(), 1);
        QCOMPARE(frames.at(0).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("cancelled"));
    }

    void corruptManifestNamesTheFileAndRebuilds()
    {
        QVERIFY(run({QStringLiteral("generate"), QStringLiteral("x")}).code == 0);
        test::writeFile(m_tmp->filePath(QStringLiteral("manifest.json")), "{oops");
        Run r = run({QStringLiteral("log")});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("manifest.json") && r.err.contains("rebuild"), r.err.constData());
        r = run({QStringLiteral("rebuild")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(log().value(QStringLiteral("frames")).toArray().size(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_SessionCommands)
#include "tst_sessioncommands.moc"
