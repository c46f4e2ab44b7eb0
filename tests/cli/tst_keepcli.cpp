// `nb2lite --session DIR keep REF [--add TEXT | --remove N | --clear | --inherit]` and the
// keep-list on every edit, in-process through the whole command line against the fake server
// (whose request log shows the exact prompt sent), and `log --json`'s prompt and prompt_sent.

#include "core/fakeapi/fakeserver.h"
#include "core/session/sessionstore.h"
#include "tests/cli/inprocesscli.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

class tst_KeepCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    FakeServer m_fake {[] {
        FakeServerOptions o;
        o.apiKey = QStringLiteral("keep-test-key");
        return o;
    }()};

    using Run = test::CliRun;

    Run run(const QStringList &args)
    {
        QStringList words {QStringLiteral("--session"), m_tmp.filePath(QStringLiteral("s"))};
        if (args.value(0) != QLatin1String("log") && args.value(0) != QLatin1String("keep"))
            words << QStringLiteral("--no-stream") << QStringLiteral("--base-url") << m_fake.baseUrl();
        return test::runCli(words + args);
    }

    QString lastCreatedInput() const
    {
        const QList<FakeRequest> requests = m_fake.requests();
        for (qsizetype i = requests.size() - 1; i >= 0; --i)
            if (requests[i].method == QLatin1String("POST"))
                return QString::fromUtf8(requests[i].body);
        return {};
    }

    QString currentId() const
    {
        SessionStore store;
        if (!store.open(m_tmp.filePath(QStringLiteral("s")), SessionStore::OpenMode::ReadOnly))
            return {};
        return store.currentFrameId();
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::isolateCliEnvironment(m_tmp.filePath(QStringLiteral("home")), "keep-test-key");
        QVERIFY(m_fake.start(0));
    }

    void keepCommandSetsShowsAndEditsSendIt()
    {
        Run g = run({QStringLiteral("generate"), QStringLiteral("a jar of honey with a label")});
        QVERIFY2(g.status == 0, qPrintable(g.err + g.out));
        const QString root = currentId();

        Run shown = run({QStringLiteral("keep"), root});
        QCOMPARE(shown.status, 0);
        QVERIFY2(shown.out.contains(QStringLiteral("no keep-list")), qPrintable(shown.out));

        QCOMPARE(
            run({QStringLiteral("keep"), root, QStringLiteral("--add"), QStringLiteral("keep the label text")}).status,
            0);
        Run added = run({QStringLiteral("keep"), root, QStringLiteral("--add"), QStringLiteral("same framing")});
        QCOMPARE(added.status, 0);
        QVERIFY2(added.out.contains(QStringLiteral("1. keep the label text"))
                && added.out.contains(QStringLiteral("2. same framing")),
            qPrintable(added.out));

        Run json = run({QStringLiteral("keep"), root, QStringLiteral("--json")});
        const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(o.value(QStringLiteral("set_on")).toString(), root);
        QCOMPARE(o.value(QStringLiteral("keep_list")).toArray().size(), 2);

        Run e = run({QStringLiteral("edit"), root, QStringLiteral("make the jar blue")});
        QVERIFY2(e.status == 0, qPrintable(e.err + e.out));
        const QString edit = currentId();
        const QByteArray body = lastCreatedInput().toUtf8();
        QVERIFY2(
            body.contains(
                "make the jar blue\\n\\nKeep-list (respect in this edit):\\n- keep the label text\\n- same framing"),
            body.constData());

        // log --json: what was typed and what was sent.
        Run log = run({QStringLiteral("log"), QStringLiteral("--json")});
        QCOMPARE(log.status, 0);
        const QJsonArray frames
            = QJsonDocument::fromJson(log.out.toUtf8()).object().value(QStringLiteral("frames")).toArray();
        QJsonObject f;
        for (const QJsonValue &v : frames)
            if (v.toObject().value(QStringLiteral("id")).toString() == edit)
                f = v.toObject();
        QCOMPARE(f.value(QStringLiteral("prompt")).toString(), QStringLiteral("make the jar blue"));
        QCOMPARE(f.value(QStringLiteral("prompt_sent")).toString(),
            QStringLiteral(
                "make the jar blue\n\nKeep-list (respect in this edit):\n- keep the label text\n- same framing"));
        QVERIFY(f.contains(QStringLiteral("drift"))); // the CLI measures every edit

        // The child inherits; --remove on it overrides there; --inherit goes back; --clear sends nothing more.
        Run inherited = run({QStringLiteral("keep"), edit});
        QVERIFY2(inherited.out.contains(QStringLiteral("inherited from %1").arg(root)), qPrintable(inherited.out));
        Run removed = run({QStringLiteral("keep"), edit, QStringLiteral("--remove"), QStringLiteral("1")});
        QVERIFY2(removed.out.contains(QStringLiteral("(set here)")) && !removed.out.contains(QStringLiteral("label")),
            qPrintable(removed.out));
        QVERIFY(run({QStringLiteral("keep"), root}).out.contains(QStringLiteral("keep the label text")));
        Run back = run({QStringLiteral("keep"), edit, QStringLiteral("--inherit")});
        QVERIFY2(back.out.contains(QStringLiteral("inherited from")), qPrintable(back.out));
        QCOMPARE(run({QStringLiteral("keep"), edit, QStringLiteral("--clear")}).status, 0);
        QVERIFY(run({QStringLiteral("edit"), edit, QStringLiteral("warmer")}).status == 0);
        QVERIFY(!lastCreatedInput().contains(QStringLiteral("Keep-list")));
    }

    void keepCommandRefusesNonsense()
    {
        Run g = run({QStringLiteral("generate"), QStringLiteral("a cup")});
        QCOMPARE(g.status, 0);
        const QString id = currentId();
        Run two = run({QStringLiteral("keep"), id, QStringLiteral("--clear"), QStringLiteral("--inherit")});
        QVERIFY(two.status != 0);
        QVERIFY2(two.err.contains(QStringLiteral("one change at a time")), qPrintable(two.err));
        Run none = run({QStringLiteral("keep"), id, QStringLiteral("--remove"), QStringLiteral("3")});
        QVERIFY(none.status != 0);
        QVERIFY2((none.err + none.out).contains(QStringLiteral("no constraint 3")), qPrintable(none.err + none.out));
        QVERIFY(run({QStringLiteral("keep"), id, QStringLiteral("--remove"), QStringLiteral("zero")}).status != 0);
    }
};

QTEST_MAIN(tst_KeepCli)
#include "tst_keepcli.moc"
