// What nb2lite says when things go wrong (issue 11, item 7): a read-only folder is "folder
// not writable" at once (not "locked by pid 0" three times after 10 s), --json prints the
// documented object for a session turn on success and failure, a 413 advises --reencode
// only when an image was sent, a 404 is said once, Qt's decoder warnings stay off stderr,
// and after a failed edit "edit head" points at retry. The nb2lite binary itself (the
// session driver) against the fake server, or a scripted one where the fake cannot misbehave.

#include "core/fakeapi/fakeserver.h"
#include "core/session/sessionstore.h"
#include "tests/api/scriptedserver.h"
#include "tests/session/sessiontestutil.h"
#include "tests/testpaths.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace nb2;

class tst_CliMessages : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeServer> m_fake;
    std::unique_ptr<QTemporaryDir> m_tmp;
    QString m_session;

    struct Run {
        int code = -1;
        QByteArray out, err;
        qint64 ms = 0;
        QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
    };

    Run run(const QStringList &args, const QString &baseUrl = {}, bool asNobody = false)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GOOGLE_GEMINI_BASE_URL"), baseUrl.isEmpty() ? m_fake->baseUrl() : baseUrl);
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("test-key"));
        env.insert(QStringLiteral("HOME"), m_tmp->path());
        env.remove(QStringLiteral("QT_LOGGING_RULES"));
        p.setProcessEnvironment(env);
        if (asNobody) {
            // Root writes anywhere: a read-only folder is only read-only to someone else.
            p.setChildProcessModifier([] {
                if (::setgid(65534) != 0 || ::setuid(65534) != 0)
                    ::_exit(97);
            });
        }
        QElapsedTimer timer;
        timer.start();
        p.start(nb2test::sessionDriverProgram(), args);
        if (!p.waitForFinished(120000))
            return {};
        return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError(), timer.elapsed()};
    }

    Run session(const QStringList &args, const QString &baseUrl = {})
    {
        return run(QStringList {QStringLiteral("--session"), m_session} + args, baseUrl);
    }

private Q_SLOTS:
    void init()
    {
        m_fake = std::make_unique<FakeServer>();
        QVERIFY(m_fake->start(0));
        m_tmp = std::make_unique<QTemporaryDir>();
        m_session = m_tmp->filePath(QStringLiteral("session"));
    }

    void readOnlyFolderIsNotWritableAtOnce()
    {
        const Run made = session({QStringLiteral("generate"), QStringLiteral("a lighthouse")});
        QVERIFY2(made.code == 0, made.err.constData());
        QVERIFY(QFile::setPermissions(m_tmp->path(),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther
                | QFile::ReadGroup | QFile::ExeGroup));
        // Read-only: r-x for everyone, the files readable.
        QCOMPARE(::chmod(QFile::encodeName(m_session).constData(), 0555), 0);
        const bool root = ::geteuid() == 0;
        const Run r = run({QStringLiteral("--session"), m_session, QStringLiteral("edit"), QStringLiteral("head"),
                              QStringLiteral("add a lantern")},
            {}, root);
        ::chmod(QFile::encodeName(m_session).constData(), 0755);
        QVERIFY2(r.code != 97, "could not drop root for the test");
        QVERIFY(r.code != 0);
        QVERIFY2(r.ms < 5000, qPrintable(QString::number(r.ms))); // not after a 10 s lock timeout
        QVERIFY2(r.err.contains("error (not_writable)") && r.err.contains("folder not writable"), r.err.constData());
        QCOMPARE(int(r.err.count("folder not writable")), 1);
        QVERIFY2(!r.err.contains("locked by another process"), r.err.constData());
        QVERIFY2(!r.err.contains("rebuild"), r.err.constData()); // a rebuild would not help
        QCOMPARE(m_fake->requests().size(), 1); // only the first generate; nothing was sent for the edit
    }

    void jsonTurnObject()
    {
        const Run ok = session({QStringLiteral("--json"), QStringLiteral("generate"), QStringLiteral("a lighthouse")});
        QVERIFY2(ok.code == 0, ok.err.constData());
        QJsonObject o = ok.json();
        QCOMPARE(o.value(QStringLiteral("ok")).toBool(), true);
        QVERIFY(QFileInfo::exists(o.value(QStringLiteral("path")).toString()));
        QVERIFY(!o.value(QStringLiteral("interaction_id")).toString().isEmpty());
        QCOMPARE(o.value(QStringLiteral("mime_type")).toString(), QStringLiteral("image/jpeg"));
        QVERIFY(o.value(QStringLiteral("width")).toInt() > 0);
        QVERIFY(o.value(QStringLiteral("error")).isNull());
        QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("done"));
        const QString parentId = o.value(QStringLiteral("interaction_id")).toString();

        // The parent's id is gone and re-anchoring is off: the edit fails on the server.
        m_fake->forget(parentId);
        const Run failed = session({QStringLiteral("--json"), QStringLiteral("edit"), QStringLiteral("head"),
            QStringLiteral("add a lantern"), QStringLiteral("--no-reanchor")});
        QVERIFY(failed.code != 0);
        QVERIFY2(!failed.out.trimmed().isEmpty(), "a failed turn still prints its JSON object");
        QCOMPARE(int(failed.out.trimmed().count('\n')), 0); // exactly one line
        o = failed.json();
        QCOMPARE(o.value(QStringLiteral("ok")).toBool(true), false);
        QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
        QCOMPARE(o.value(QStringLiteral("error")).toObject().value(QStringLiteral("kind")).toString(),
            QStringLiteral("not_found"));
        QVERIFY(!o.value(QStringLiteral("frame_id")).toString().isEmpty());
        QVERIFY(o.value(QStringLiteral("path")).isNull());

        // After the failed edit, "edit head" means the failed frame: the message says to retry it.
        const Run again = session({QStringLiteral("edit"), QStringLiteral("head"), QStringLiteral("add a lantern")});
        QVERIFY(again.code != 0);
        QVERIFY2(again.err.contains("retry " + o.value(QStringLiteral("frame_id")).toString().toUtf8()),
            again.err.constData());
    }

    void tooLargeAdvice()
    {
        ScriptedServer server;
        server.setDefaultReply(ScriptedServer::json(413,
            R"({"error":{"code":413,"message":"Request payload size exceeds the limit.","status":"INVALID_ARGUMENT"}})"));
        const QString out = m_tmp->filePath(QStringLiteral("out"));
        QDir().mkpath(out);
        const Run text = run({QStringLiteral("--out"), out, QStringLiteral("generate"), QStringLiteral("a lighthouse")},
            server.baseUrl());
        QCOMPARE(text.code, 15);
        QVERIFY2(!text.err.contains("reencode") && !text.err.contains("re-encode"), text.err.constData());
        QVERIFY2(text.err.contains("no image"), text.err.constData());

        const QString png = test::writeFile(m_tmp->filePath(QStringLiteral("in.png")), test::pngBytes());
        const Run image
            = run({QStringLiteral("--out"), out, QStringLiteral("edit-local"), png, QStringLiteral("sharper")},
                server.baseUrl());
        QCOMPARE(image.code, 15);
        QVERIFY2(image.err.contains("--reencode"), image.err.constData());
    }

    void notFoundSaidOnce()
    {
        const Run r
            = run({QStringLiteral("--out"), m_tmp->path(), QStringLiteral("get"), QStringLiteral("v1_nosuchthing")});
        QCOMPARE(r.code, 6);
        QCOMPARE(int(r.err.count("not found")), 1);
        QCOMPARE(int(r.err.count('\n')), 1);
    }

    void decoderWarningsStayOffStderr()
    {
        // A session whose picture is cut short: drawing the contact sheet decodes it.
        SessionStore store;
        QVERIFY(store.open(m_session));
        const QByteArray jpeg = test::jpegBytes(Qt::red, 400, 300);
        Frame f;
        f.id = QStringLiteral("c0ffee00");
        f.kind = FrameKind::Import;
        f.status = FrameStatus::Done;
        f.requestedAt = f.finishedAt = QDateTime::currentDateTimeUtc();
        f.image = SessionStore::writeImageFile(m_session, QStringLiteral("images/cut.jpg"), jpeg.left(jpeg.size() / 2))
                      .value();
        QVERIFY(store.commit({f}, {}, f.id));
        store.close();
        const Run r = session({QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("sheet"),
            m_tmp->filePath(QStringLiteral("sheet.png"))});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(!r.err.contains("Corrupt JPEG") && !r.err.contains("qt.gui.imageio"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(tst_CliMessages)
#include "tst_climessages.moc"
