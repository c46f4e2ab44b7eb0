// Which files a command checks when it opens a session (SessionStore::setFileChecksDeferred()):
// a one-shot command that works on a few frames (`edit head`) checks every path lexically and
// every folder at open, and each file as it reads it; commands that read every frame (log,
// export) still refuse the whole session over one link out. In-process through the whole
// command line, against the fake server (whose request log shows what was sent).

#include "core/fakeapi/fakeserver.h"
#include "core/session/sessionstore.h"
#include "tests/cli/inprocesscli.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

class tst_CliFileChecks : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    FakeServer m_fake {[] {
        FakeServerOptions o;
        o.apiKey = QStringLiteral("file-checks-key");
        return o;
    }()};

    using Run = test::CliRun;

    Run run(const QString &session, const QStringList &args)
    {
        QStringList words {QStringLiteral("--session"), session};
        if (args.value(0) != QLatin1String("log") && args.value(0) != QLatin1String("export"))
            words << QStringLiteral("--no-stream") << QStringLiteral("--base-url") << m_fake.baseUrl();
        return test::runCli(words + args);
    }

    int posts() const { return test::createRequests(m_fake); }

    /** How many frames session holds, opened as a one-shot command opens it (-1: it does not open). */
    static int frameCount(const QString &session)
    {
        SessionStore::setFileChecksDeferred(true);
        SessionStore store;
        const bool opened = store.open(session).ok();
        const int count = opened ? int(store.graph().frames().size()) : -1;
        store.close();
        SessionStore::setFileChecksDeferred(false);
        return count;
    }

    /** A session of three frames (generate, edit, edit); the first one's image path is returned in *firstImage. */
    QString makeSession(const QString &name, QString *firstId, QString *firstImage)
    {
        const QString dir = m_tmp.filePath(name);
        if (run(dir, {QStringLiteral("generate"), QStringLiteral("a lighthouse at dusk")}).status != 0
            || run(dir, {QStringLiteral("edit"), QStringLiteral("head"), QStringLiteral("add a lantern")}).status != 0
            || run(dir, {QStringLiteral("edit"), QStringLiteral("head"), QStringLiteral("add a gull")}).status != 0)
            return {};
        SessionStore store;
        if (!store.open(dir) || store.graph().frames().size() != 3)
            return {};
        *firstId = store.graph().frames().first().id;
        *firstImage = store.graph().frames().first().image.file;
        return dir;
    }

    /** Replaces dir/relative by a link to a copy of it outside the session (a picture, so a read would succeed). */
    QString linkOut(const QString &dir, const QString &relative)
    {
        const QString outside = m_tmp.filePath(QStringLiteral("outside-%1.jpg").arg(QFileInfo(dir).fileName()));
        if (!QFile::copy(QDir(dir).filePath(relative), outside) || !QFile::remove(QDir(dir).filePath(relative))
            || !QFile::link(outside, QDir(dir).filePath(relative)))
            return {};
        return outside;
    }

    /** Rewrites the checkpoint's first frame's image path, as an attacker would. */
    static bool craftFirstImagePath(const QString &dir, const QString &path)
    {
        QFile file(dir + QStringLiteral("/manifest.json"));
        if (!file.open(QIODevice::ReadOnly))
            return false;
        QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        QJsonArray frames = root.value(QStringLiteral("frames")).toArray();
        QJsonObject frame = frames.at(0).toObject();
        QJsonObject image = frame.value(QStringLiteral("image")).toObject();
        image.insert(QStringLiteral("file"), path);
        frame.insert(QStringLiteral("image"), image);
        frames[0] = frame;
        root.insert(QStringLiteral("frames"), frames);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return false;
        return file.write(QJsonDocument(root).toJson()) > 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        test::isolateCliEnvironment(m_tmp.filePath(QStringLiteral("home")), "file-checks-key");
        QVERIFY(m_fake.start(0));
    }

    void anEditOnTheHeadWorksBesideALinkInAnUntouchedFrame()
    {
        QString first, image;
        const QString dir = makeSession(QStringLiteral("untouched"), &first, &image);
        QVERIFY(!dir.isEmpty());
        QVERIFY(!linkOut(dir, image).isEmpty());

        const Run edit = run(dir, {QStringLiteral("edit"), QStringLiteral("head"), QStringLiteral("more light")});
        QVERIFY2(edit.status == 0, qPrintable(edit.err));
        QCOMPARE(frameCount(dir), 4);
        // The deferral ended with the command: this process's next open checks every file.
        SessionStore store;
        const Result<void> opened = store.open(dir);
        QVERIFY(!opened);
        QCOMPARE(opened.error().kind, ErrorKind::Unsafe);
    }

    void aTurnFromTheLinkedFrameIsRefusedBeforeAnythingIsSent()
    {
        QString first, image;
        const QString dir = makeSession(QStringLiteral("fromlinked"), &first, &image);
        QVERIFY(!dir.isEmpty());
        QVERIFY(!linkOut(dir, image).isEmpty());
        const int before = posts();

        // An edit, a branch, a precision edit and a re-anchor from it: each reads that picture.
        const QList<QStringList> turns {
            {QStringLiteral("edit"), first, QStringLiteral("more light"), QStringLiteral("--branch")},
            {QStringLiteral("edit"), first, QStringLiteral("recolour"), QStringLiteral("--branch"),
                QStringLiteral("--region"), QStringLiteral("0,0,64,64")},
        };
        for (const QStringList &turn : turns) {
            const Run r = run(dir, turn);
            QVERIFY2(r.status != 0, qPrintable(turn.join(QLatin1Char(' '))));
            QVERIFY2(r.err.contains(QStringLiteral("a link that leads outside the session folder")), qPrintable(r.err));
        }
        QCOMPARE(posts(), before);
        QCOMPARE(frameCount(dir), 3); // nothing was recorded either
    }

    void commandsThatReadEveryFrameStillRefuseTheSession()
    {
        QString first, image;
        const QString dir = makeSession(QStringLiteral("everyframe"), &first, &image);
        QVERIFY(!dir.isEmpty());
        QVERIFY(!linkOut(dir, image).isEmpty());

        const Run log = run(dir, {QStringLiteral("log")});
        QVERIFY(log.status != 0);
        QVERIFY2(log.err.contains(QStringLiteral("a link that leads outside the session folder")), qPrintable(log.err));
        const Run page = run(dir,
            {QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("html"),
                m_tmp.filePath(QStringLiteral("everyframe.html"))});
        QVERIFY(page.status != 0);
        QVERIFY2(
            page.err.contains(QStringLiteral("a link that leads outside the session folder")), qPrintable(page.err));
        QVERIFY(!QFile::exists(m_tmp.filePath(QStringLiteral("everyframe.html"))));
    }

    void aPathOutsideOrALinkedFolderStillRefusesEveryCommand()
    {
        // Only a file's own last step waits for its reader: the lexical rule and the folders
        // are checked for every frame at every open.
        QString first, image;
        const QString crafted = makeSession(QStringLiteral("crafted"), &first, &image);
        QVERIFY(!crafted.isEmpty());
        QVERIFY(craftFirstImagePath(crafted, QStringLiteral("images/../../outside.jpg")));
        const Run edit = run(crafted, {QStringLiteral("edit"), QStringLiteral("head"), QStringLiteral("more light")});
        QVERIFY(edit.status != 0);
        QVERIFY2(edit.err.contains(QStringLiteral("images/../../outside.jpg")), qPrintable(edit.err));

        const QString linkedFolder = makeSession(QStringLiteral("linkedfolder"), &first, &image);
        QVERIFY(!linkedFolder.isEmpty());
        const QString images = linkedFolder + QStringLiteral("/images");
        const QString moved = m_tmp.filePath(QStringLiteral("moved-images"));
        QVERIFY(QDir().rename(images, moved));
        QVERIFY(QFile::link(moved, images));
        const int before = posts();
        const Run edit2
            = run(linkedFolder, {QStringLiteral("edit"), QStringLiteral("head"), QStringLiteral("more light")});
        QVERIFY(edit2.status != 0);
        QVERIFY2(
            edit2.err.contains(QStringLiteral("a link that leads outside the session folder")), qPrintable(edit2.err));
        QCOMPARE(posts(), before);
    }
};

QTEST_GUILESS_MAIN(tst_CliFileChecks)
#include "tst_clifilechecks.moc"
