// Reading commands never touch the network and never change the session; recovery happens
// only in `recover`, and an interrupted frame that has an interaction id stays recoverable
// (issue 11, item 4). End to end: the nb2lite command line (the session driver) against the
// fake server, whose request log shows every request that was sent.

#include "core/fakeapi/fakeserver.h"
#include "core/session/sessionstore.h"
#include "sessiontestutil.h"
#include "tests/testpaths.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace nb2;

namespace {

/** Every file under dir with its bytes' hash: "changes no byte" is this map staying equal. */
QMap<QString, QByteArray> snapshot(const QString &dir)
{
    QMap<QString, QByteArray> files;
    QDirIterator it(dir, QDir::Files | QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System,
        QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo info(path);
        files.insert(QDir(dir).relativeFilePath(path),
            info.isDir() ? QByteArray("<dir>")
                         : QCryptographicHash::hash(test::readFile(path), QCryptographicHash::Sha256).toHex());
    }
    return files;
}

} // namespace

class tst_ReadOnlyCommands : public QObject
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

    Run run(const QStringList &command, const QString &baseUrl = {})
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GOOGLE_GEMINI_BASE_URL"), baseUrl.isEmpty() ? m_fake->baseUrl() : baseUrl);
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("test-key"));
        p.setProcessEnvironment(env);
        p.start(nb2test::sessionDriverProgram(), QStringList {QStringLiteral("--session"), m_session} + command);
        if (!p.waitForFinished(120000))
            return {};
        return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
    }

    /** A pid that is certainly not running: a process that has just exited. */
    static qint64 deadPid()
    {
        QProcess p;
        p.start(QStringLiteral("true"), QStringList());
        p.waitForFinished();
        return p.processId() > 0 ? p.processId() : 999999;
    }

    /** Rewrites the one frame on disk as a crash would have left it. */
    void setFrameOnDisk(const QString &status, qint64 ownerPid)
    {
        const QString path = m_session + QStringLiteral("/manifest.json");
        QJsonObject root = QJsonDocument::fromJson(test::readFile(path)).object();
        QJsonArray frames = root.value(QStringLiteral("frames")).toArray();
        QJsonObject f = frames.at(0).toObject();
        f.insert(QStringLiteral("status"), status);
        f.remove(QStringLiteral("finished_at"));
        if (ownerPid)
            f.insert(QStringLiteral("owner_pid"), ownerPid);
        frames[0] = f;
        root.insert(QStringLiteral("frames"), frames);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QJsonDocument(root).toJson());
    }

    QJsonObject onlyFrame()
    {
        SessionStore store;
        if (!store.open(m_session, SessionStore::OpenMode::ReadOnly) || store.graph().frames().isEmpty())
            return {};
        return store.graph().frames().first().toJson();
    }

    int requestsTo(const char *method) const
    {
        int n = 0;
        for (const FakeRequest &r : m_fake->requests())
            n += r.method == QLatin1String(method) && r.path.contains(QLatin1String("/interactions")) ? 1 : 0;
        return n;
    }

private Q_SLOTS:
    void init()
    {
        m_fake = std::make_unique<FakeServer>();
        QVERIFY(m_fake->start(0));
        m_tmp = std::make_unique<QTemporaryDir>();
        m_session = m_tmp->filePath(QStringLiteral("session"));
        // One real turn, so the fake knows the interaction id; then a crash leaves it pending.
        const Run made = run({QStringLiteral("generate"), QStringLiteral("a lighthouse")});
        QVERIFY2(made.code == 0, made.err.constData());
        QVERIFY(!onlyFrame().value(QStringLiteral("interaction_id")).toString().isEmpty());
        setFrameOnDisk(QStringLiteral("pending"), deadPid());
        m_fake->clearRequests();
    }

    void readingCommandsSendNothingAndChangeNothing_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::newRow("log") << QStringList {QStringLiteral("log")};
        QTest::newRow("log --json") << QStringList {QStringLiteral("log"), QStringLiteral("--json")};
        QTest::newRow("log --ids") << QStringList {QStringLiteral("log"), QStringLiteral("--ids")};
        QTest::newRow("log --demo") << QStringList {QStringLiteral("--demo"), QStringLiteral("log")};
        QTest::newRow("export html") << QStringList {
            QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("html"), QStringLiteral("OUT")};
        QTest::newRow("export bundle") << QStringList {
            QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("bundle"), QStringLiteral("OUT")};
    }

    void readingCommandsSendNothingAndChangeNothing()
    {
        QFETCH(QStringList, command);
        command.replaceInStrings(QStringLiteral("OUT"), m_tmp->filePath(QStringLiteral("exported")));
        const QMap<QString, QByteArray> before = snapshot(m_session);
        const Run r = run(command);
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(m_fake->requests().size(), 0); // no get, no create: nothing left the process
        QCOMPARE(snapshot(m_session), before);  // not one byte, not one new file or folder
        QCOMPARE(onlyFrame().value(QStringLiteral("status")).toString(), QStringLiteral("pending"));
        if (command.first() == QLatin1String("log") && command.size() == 1)
            QVERIFY2(r.err.contains("recover"), r.err.constData()); // says what would finish it
    }

    void onlyRecoverRecovers()
    {
        // A writing command does its own turn and leaves the crashed one alone.
        const Run other = run({QStringLiteral("generate"), QStringLiteral("a second lighthouse")});
        QVERIFY2(other.code == 0, other.err.constData());
        QCOMPARE(requestsTo("GET"), 0);
        QCOMPARE(onlyFrame().value(QStringLiteral("status")).toString(), QStringLiteral("pending"));

        const Run r = run({QStringLiteral("recover")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("1 turn(s) fetched with get"), r.err.constData());
        QCOMPARE(onlyFrame().value(QStringLiteral("status")).toString(), QStringLiteral("done"));
    }

    void interruptedWithIdStaysRecoverable()
    {
        // recover while the server is unreachable: the frame becomes interrupted but keeps its id...
        const Run offline = run({QStringLiteral("recover")}, QStringLiteral("http://127.0.0.1:1"));
        QVERIFY2(offline.code == 0, offline.err.constData());
        QJsonObject f = onlyFrame();
        QCOMPARE(f.value(QStringLiteral("status")).toString(), QStringLiteral("interrupted"));
        QVERIFY(!f.value(QStringLiteral("interaction_id")).toString().isEmpty());
        QCOMPARE(m_fake->requests().size(), 0);

        // ...so a later recover with the right server fetches it with get, and creates nothing.
        const Run online = run({QStringLiteral("recover")});
        QVERIFY2(online.code == 0, online.err.constData());
        f = onlyFrame();
        QCOMPARE(f.value(QStringLiteral("status")).toString(), QStringLiteral("done"));
        QVERIFY(QFileInfo::exists(m_session + QLatin1Char('/')
            + f.value(QStringLiteral("image")).toObject().value(QStringLiteral("file")).toString()));
        QCOMPARE(requestsTo("GET"), 1);
        QCOMPARE(requestsTo("POST"), 0);
    }
};

QTEST_GUILESS_MAIN(tst_ReadOnlyCommands)
#include "tst_readonlycommands.moc"
