// Every path a session's files name stays inside the session folder (issue 11, item 1): the
// rule itself, and a crafted manifest or journal refused at load with a message naming the entry.

#include "core/session/journal.h"
#include "core/session/manifestparse.h"
#include "core/session/precisionedit.h"
#include "core/session/sessionpaths.h"
#include "core/session/sessionstore.h"

#include "tests/session/sessiontestutil.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace nb2;

/** SessionStore::setFramesOnDemand() for one test (a CLI turn opens its session so). */
struct FramesOnDemand {
    explicit FramesOnDemand(bool on) { SessionStore::setFramesOnDemand(on); }
    ~FramesOnDemand() { SessionStore::setFramesOnDemand(false); }
};

/** Each refusal is tested twice: frames built when read, and on demand (the checks must not differ). */
void addOnDemandRows()
{
    QTest::addColumn<bool>("onDemand");
    QTest::newRow("frames") << false;
    QTest::newRow("frames on demand") << true;
}

class tst_SessionPaths : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_root;       // a session-like folder
    QString m_secret;     // a file outside it that nothing may read
    QByteArray m_rawName; // a file whose name is not UTF-8: QTemporaryDir cannot remove it (Qt cannot name it)

    /** A one-frame session whose frame names imageFile (any string: the test crafts it). */
    QString craftSession(const QString &name, const QString &imageFile, const QStringList &inputs = {})
    {
        const QString dir = m_tmp.filePath(name);
        // The store itself refuses to record a path outside the folder: the paths are crafted below.
        if (!test::makeOneFrameSession(dir, inputs.isEmpty() ? FrameKind::Generate : FrameKind::EditLocal))
            return {};
        // Now rewrite the manifest by hand, as an attacker would.
        QFile file(dir + QStringLiteral("/manifest.json"));
        file.open(QIODevice::ReadOnly);
        QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        QJsonArray frames = root.value(QStringLiteral("frames")).toArray();
        QJsonObject frame = frames.at(0).toObject();
        QJsonObject image = frame.value(QStringLiteral("image")).toObject();
        image.insert(QStringLiteral("file"), imageFile);
        frame.insert(QStringLiteral("image"), image);
        if (!inputs.isEmpty())
            frame.insert(QStringLiteral("input_images"), QJsonArray::fromStringList(inputs));
        frames[0] = frame;
        root.insert(QStringLiteral("frames"), frames);
        file.open(QIODevice::WriteOnly | QIODevice::Truncate);
        file.write(QJsonDocument(root).toJson());
        return dir;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_root = m_tmp.filePath(QStringLiteral("root"));
        QVERIFY(QDir().mkpath(m_root + QStringLiteral("/images")));
        QVERIFY(!test::writeFile(m_root + QStringLiteral("/images/a.jpg"), test::jpegBytes()).isEmpty());
        m_secret = m_tmp.filePath(QStringLiteral("secret.txt"));
        QVERIFY(!test::writeFile(m_secret, "top secret\n").isEmpty());
        QVERIFY(QFile::link(m_secret, m_root + QStringLiteral("/images/out.jpg")));
        QVERIFY(QFile::link(m_tmp.path(), m_root + QStringLiteral("/linkdir")));
        QVERIFY(QFile::link(m_root + QStringLiteral("/images/a.jpg"), m_root + QStringLiteral("/images/alias.jpg")));
        QVERIFY(
            QFile::link(m_tmp.filePath(QStringLiteral("nowhere")), m_root + QStringLiteral("/images/dangling.jpg")));
        QCOMPARE(::mkfifo(QFile::encodeName(m_root + QStringLiteral("/images/fifo.jpg")).constData(), 0600), 0);
        // A regular file whose name is not UTF-8 beside a link out named as that name decodes.
        m_rawName = QFile::encodeName(m_root) + "/images/x\xff.jpg";
        const int fd = ::open(m_rawName.constData(), O_CREAT | O_WRONLY, 0600);
        QVERIFY(fd >= 0);
        ::close(fd);
        QVERIFY(QFile::link(m_secret, m_root + QStringLiteral("/images/x\uFFFD.jpg")));
    }

    void cleanupTestCase()
    {
        if (!m_rawName.isEmpty())
            ::unlink(m_rawName.constData()); // by its bytes, so the temporary folder can go
    }

    void resolveInside_data()
    {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<bool>("safe");
        QTest::newRow("plain file") << QStringLiteral("images/a.jpg") << true;
        QTest::newRow("not yet written") << QStringLiteral("images/new.jpg") << true;
        QTest::newRow("dot component") << QStringLiteral("./images/a.jpg") << true;
        QTest::newRow("link inside") << QStringLiteral("images/alias.jpg") << true;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("absolute") << QStringLiteral("/etc/hostname") << false;
        QTest::newRow("dot-dot") << QStringLiteral("images/../../../../etc/passwd") << false;
        QTest::newRow("dot-dot inside") << QStringLiteral("images/../images/a.jpg")
                                        << false; // lexical rule: never '..'
        QTest::newRow("leading dot-dot") << QStringLiteral("../secret.txt") << false;
        QTest::newRow("trailing dot-dot") << QStringLiteral("images/..") << false;
        QTest::newRow("only dot-dot") << QStringLiteral("..") << false;
        QTest::newRow("dots in a name") << QStringLiteral("images/..a.jpg") << true;
        QTest::newRow("resource path") << QStringLiteral(":/images/a.jpg") << false;
        QTest::newRow("backslash") << QStringLiteral("images\\..\\..\\secret.txt") << false;
        QTest::newRow("link out") << QStringLiteral("images/out.jpg") << false;
        QTest::newRow("folder link out") << QStringLiteral("linkdir/secret.txt") << false;
        QTest::newRow("folder link out, missing") << QStringLiteral("linkdir/none/x.jpg") << false;
        QTest::newRow("dangling link") << QStringLiteral("images/dangling.jpg") << false;
        QTest::newRow("a folder") << QStringLiteral("images") << false;
        QTest::newRow("a fifo") << QStringLiteral("images/fifo.jpg") << false;
        QTest::newRow("link named as a non-UTF-8 file decodes") << QStringLiteral("images/x\uFFFD.jpg") << false;
    }

    void resolveInside()
    {
        QFETCH(QString, relative);
        QFETCH(bool, safe);
        const Result<QString> r = SessionPaths::resolveInside(m_root, relative, QStringLiteral("test entry"));
        QVERIFY2(r.ok() == safe, qPrintable(r ? r.value() : r.error().message));
        if (safe) {
            QVERIFY(r.value().startsWith(QFileInfo(m_root).canonicalFilePath() + QLatin1Char('/')));
        } else {
            QCOMPARE(r.error().kind, ErrorKind::Unsafe);
            QVERIFY(r.error().message.startsWith(QStringLiteral("test entry names '%1'").arg(relative)));
        }
    }

    void checkAfterManyFramesStillRefusesLinksOut_data() { resolveInside_data(); }

    void checkAfterManyFramesStillRefusesLinksOut()
    {
        // check() reads a folder's listing once it has been asked about often: an entry after
        // many plain ones must be judged exactly as resolveInside() judges it.
        QFETCH(QString, relative);
        QFETCH(bool, safe);
        const SessionPaths paths(m_root);
        Frame f;
        f.id = QStringLiteral("0000beef");
        f.image.file = QStringLiteral("images/a.jpg");
        for (int i = 0; i < 300; ++i) // past the point where check() reads the folder's listing
            QVERIFY(paths.check(f, QStringLiteral("manifest")));
        f.image.file = relative;
        // check() accepts what resolve() accepts, and an empty name means no image at all.
        const Result<void> r = paths.check(f, QStringLiteral("manifest"));
        QVERIFY2(r.ok() == (safe || relative.isEmpty()), qPrintable(r ? QString() : r.error().message));
        if (!r) {
            QCOMPARE(r.error().kind, ErrorKind::Unsafe);
            QVERIFY(r.error().message.startsWith(QStringLiteral("manifest entry for frame 0000beef names")));
        }
        f.image.file = QStringLiteral("images/a.jpg");
        f.inputImages = {relative};
        QCOMPARE(paths.check(f, QStringLiteral("manifest")).ok(), safe || relative.isEmpty());
    }

    void checkAfterAnEarlyListingJudgesTheSame_data() { resolveInside_data(); }

    void checkAfterAnEarlyListingJudgesTheSame()
    {
        // A big manifest's folder is listed up front (on another thread while the text is
        // parsed): every entry is then judged exactly as resolveInside() judges it, and a
        // folder that leads out is never listed.
        QFETCH(QString, relative);
        QFETCH(bool, safe);
        const SessionPaths paths(m_root);
        for (const QString &folder : {QStringLiteral("images"), QStringLiteral("linkdir"), QStringLiteral(".."),
                 QStringLiteral("images/.."), QString()})
            paths.readListing(folder);
        Frame f;
        f.id = QStringLiteral("0000beef");
        f.image.file = relative;
        const Result<void> r = paths.check(f, QStringLiteral("manifest"));
        QVERIFY2(r.ok() == (safe || relative.isEmpty()), qPrintable(r ? QString() : r.error().message));
    }

    void isSafeRelativeIsTheLexicalRule_data()
    {
        // The rule is checked in one pass over the characters: every way a ".." segment, a NUL
        // or a backslash can sit in a path, and names that only look like them.
        QTest::addColumn<QString>("relative");
        QTest::addColumn<bool>("safe");
        QTest::newRow("plain") << QStringLiteral("images/a.jpg") << true;
        QTest::newRow("three dots") << QStringLiteral("...") << true;
        QTest::newRow("three dots in a folder") << QStringLiteral("images/...") << true;
        QTest::newRow("dots before a name") << QStringLiteral("..a") << true;
        QTest::newRow("dots after a name") << QStringLiteral("images/a..") << true;
        QTest::newRow("dot segment") << QStringLiteral("images/./a.jpg") << true;
        QTest::newRow("double slash") << QStringLiteral("images//a.jpg") << true;
        QTest::newRow("longest") << QString(4096, QLatin1Char('x')) << true;
        QTest::newRow("too long") << QString(4097, QLatin1Char('x')) << false;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("only dot-dot") << QStringLiteral("..") << false;
        QTest::newRow("dot-dot slash") << QStringLiteral("../") << false;
        QTest::newRow("dot-dot first") << QStringLiteral("../a") << false;
        QTest::newRow("dot-dot middle") << QStringLiteral("a/../b") << false;
        QTest::newRow("dot-dot last") << QStringLiteral("a/b/..") << false;
        QTest::newRow("dot-dot after a dot") << QStringLiteral("./..") << false;
        QTest::newRow("dot-dot after a double slash") << QStringLiteral("a//../b") << false;
        QTest::newRow("backslash") << QStringLiteral("a\\b") << false;
        QTest::newRow("backslash last") << QStringLiteral("images\\") << false;
        QTest::newRow("nul") << QStringLiteral("images/a") + QChar(0) + QStringLiteral(".jpg") << false;
        QTest::newRow("nul last") << QStringLiteral("images/a.jpg") + QChar(0) << false;
        QTest::newRow("absolute") << QStringLiteral("/a") << false;
        QTest::newRow("resource") << QStringLiteral(":/a") << false;
    }

    void isSafeRelativeIsTheLexicalRule()
    {
        QFETCH(QString, relative);
        QFETCH(bool, safe);
        QCOMPARE(SessionPaths::isSafeRelative(relative), safe);
    }

    void checkAcrossTwoListedFoldersJudgesEachByItsOwn()
    {
        // check() keeps the last folder's listing at hand; paths alternating between two listed
        // folders (past the point where each is listed) are each judged by their own folder's
        // listing: a link out in the second is refused, a file only the first has is not found
        // in the second's.
        QVERIFY(QDir().mkpath(m_root + QStringLiteral("/more")));
        QVERIFY(!test::writeFile(m_root + QStringLiteral("/more/b.jpg"), test::jpegBytes()).isEmpty());
        QVERIFY(QFile::link(m_secret, m_root + QStringLiteral("/more/out2.jpg")));
        const SessionPaths paths(m_root);
        Frame f;
        f.id = QStringLiteral("0000beef");
        for (int i = 0; i < 300; ++i) {
            f.image.file = QStringLiteral("images/a.jpg");
            QVERIFY(paths.check(f, QStringLiteral("manifest")));
            f.image.file = QStringLiteral("more/b.jpg");
            QVERIFY(paths.check(f, QStringLiteral("manifest")));
        }
        f.image.file = QStringLiteral("more/out2.jpg");
        QCOMPARE(paths.check(f, QStringLiteral("manifest")).error().kind, ErrorKind::Unsafe);
        f.image.file = QStringLiteral("images/out.jpg");
        QCOMPARE(paths.check(f, QStringLiteral("manifest")).error().kind, ErrorKind::Unsafe);
        f.image.file = QStringLiteral("more/a.jpg"); // not there: nothing on it can lead out
        QVERIFY(paths.check(f, QStringLiteral("manifest")));
        // A copy starts afresh and judges the same.
        const SessionPaths copy = paths;
        f.image.file = QStringLiteral("more/out2.jpg");
        QCOMPARE(copy.check(f, QStringLiteral("manifest")).error().kind, ErrorKind::Unsafe);
        f.image.file = QStringLiteral("images/a.jpg");
        QVERIFY(copy.check(f, QStringLiteral("manifest")));
        QVERIFY(QFile::remove(m_root + QStringLiteral("/more/out2.jpg")));
        QVERIFY(QDir(m_root + QStringLiteral("/more")).removeRecursively());
    }

    void craftedManifestIsRefused_data()
    {
        QTest::addColumn<QString>("imageFile");
        QTest::addColumn<QStringList>("inputs");
        QTest::addColumn<bool>("onDemand");
        for (const bool onDemand : {false, true}) {
            const char *suffix = onDemand ? ", frames on demand" : "";
            QTest::addRow("dot-dot%s", suffix)
                << QStringLiteral("images/../../../../etc/passwd") << QStringList() << onDemand;
            QTest::addRow("absolute%s", suffix) << QStringLiteral("/etc/hostname") << QStringList() << onDemand;
            QTest::addRow("input dot-dot%s", suffix)
                << QStringLiteral("images/real.jpg") << QStringList {QStringLiteral("../../etc/passwd")} << onDemand;
            QTest::addRow("input absolute%s", suffix)
                << QStringLiteral("images/real.jpg") << QStringList {QStringLiteral("/etc/passwd")} << onDemand;
        }
    }

    void craftedManifestIsRefused()
    {
        QFETCH(QString, imageFile);
        QFETCH(QStringList, inputs);
        QFETCH(bool, onDemand);
        const FramesOnDemand mode(onDemand);
        const QString dir = craftSession(QStringLiteral("crafted-%1")
                                             .arg(QString::fromLatin1(QTest::currentDataTag())
                                                      .replace(QLatin1Char(' '), QLatin1Char('_'))
                                                      .remove(QLatin1Char(','))),
            imageFile, inputs);
        QVERIFY(!dir.isEmpty());
        const QByteArray before = test::readFile(dir + QStringLiteral("/manifest.json"));
        SessionStore store;
        const Result<void> opened = store.open(dir, SessionStore::OpenMode::OpenExisting);
        QVERIFY(!opened);
        QCOMPARE(opened.error().kind, ErrorKind::Unsafe);
        const QString named = inputs.isEmpty() ? imageFile : inputs.first();
        QVERIFY2(
            opened.error().message.contains(QStringLiteral("manifest entry for frame 0badc0de names '%1'").arg(named)),
            qPrintable(opened.error().message));
        QVERIFY(!store.isOpen());
        QCOMPARE(test::readFile(dir + QStringLiteral("/manifest.json")), before); // refused, not "repaired"
    }

    void symlinkOutOfTheSessionIsRefused_data() { addOnDemandRows(); }

    void symlinkOutOfTheSessionIsRefused()
    {
        QFETCH(bool, onDemand);
        const FramesOnDemand mode(onDemand);
        const QString dir
            = craftSession(QStringLiteral("symlinked%1").arg(onDemand ? QStringLiteral("-ondemand") : QString()),
                QStringLiteral("images/real.jpg"));
        QVERIFY(QFile::remove(dir + QStringLiteral("/images/real.jpg")));
        QVERIFY(QFile::link(m_secret, dir + QStringLiteral("/images/real.jpg")));
        SessionStore store;
        const Result<void> opened = store.open(dir, SessionStore::OpenMode::OpenExisting);
        QVERIFY(!opened);
        QCOMPARE(opened.error().kind, ErrorKind::Unsafe);
        QVERIFY2(opened.error().message.contains(QStringLiteral("'images/real.jpg', a link that leads outside")),
            qPrintable(opened.error().message));
    }

    void checkFoldersLeavesOnlyTheFileToItsReader_data()
    {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("plain file") << QStringLiteral("images/a.jpg") << true;
        QTest::newRow("not yet written") << QStringLiteral("images/new.jpg") << true;
        // The file's own step is left to whatever reads it (resolveInside() refuses these):
        QTest::newRow("link out") << QStringLiteral("images/out.jpg") << true;
        QTest::newRow("dangling link") << QStringLiteral("images/dangling.jpg") << true;
        QTest::newRow("a fifo") << QStringLiteral("images/fifo.jpg") << true;
        // ... but never the lexical rule or a folder:
        QTest::newRow("folder link out") << QStringLiteral("linkdir/secret.txt") << false;
        QTest::newRow("folder link out, missing") << QStringLiteral("linkdir/none/x.jpg") << false;
        QTest::newRow("dot-dot") << QStringLiteral("images/../../../../etc/passwd") << false;
        QTest::newRow("leading dot-dot") << QStringLiteral("../secret.txt") << false;
        QTest::newRow("absolute") << QStringLiteral("/etc/hostname") << false;
        QTest::newRow("backslash") << QStringLiteral("images\\..\\..\\secret.txt") << false;
        QTest::newRow("a folder") << QStringLiteral("images") << false;
    }

    void checkFoldersLeavesOnlyTheFileToItsReader()
    {
        // The same answer whether the path is the first its resolver sees in that folder or not.
        QFETCH(QString, relative);
        QFETCH(bool, accepted);
        Frame f;
        f.id = QStringLiteral("0000beef");
        for (const bool first : {true, false}) {
            const SessionPaths paths(m_root);
            if (!first) {
                f.image.file = QStringLiteral("images/a.jpg");
                QVERIFY(paths.checkFolders(f, QStringLiteral("manifest")));
            }
            f.image.file = relative;
            const Result<void> r = paths.checkFolders(f, QStringLiteral("manifest"));
            QVERIFY2(r.ok() == accepted, qPrintable(r ? QStringLiteral("accepted") : r.error().message));
            if (!r)
                QCOMPARE(r.error().kind, ErrorKind::Unsafe);
        }
    }

    void aFileLeftToItsReaderIsResolvedWhenRead()
    {
        // A drift reading (and a precision edit) reads the parent's picture and the child's:
        // each resolved as it is read, so a link out or a FIFO is refused, not read or waited on.
        Frame parent;
        parent.id = QStringLiteral("0000beef");
        parent.status = FrameStatus::Done;
        Frame child = parent;
        child.id = QStringLiteral("0000cafe");
        child.parentId = parent.id;
        child.image.file = QStringLiteral("images/a.jpg");
        for (const QString &bad : {QStringLiteral("images/out.jpg"), QStringLiteral("images/fifo.jpg")}) {
            parent.image.file = bad;
            const Result<Frame> measured = PrecisionEdit::measureDrift(m_root, parent, child);
            QVERIFY2(!measured, qPrintable(bad));
            QCOMPARE(measured.error().kind, ErrorKind::Unsafe);
            QVERIFY2(measured.error().message.contains(QStringLiteral("'%1'").arg(bad)),
                qPrintable(measured.error().message));
        }
    }

    void aDeferredOpenTakesALinkOutButNotAPathOut_data() { addOnDemandRows(); }

    void aDeferredOpenTakesALinkOutButNotAPathOut()
    {
        // SessionStore::setFileChecksDeferred(): what a one-shot CLI command opens with (a CLI
        // turn with frames on demand as well).
        QFETCH(bool, onDemand);
        const FramesOnDemand mode(onDemand);
        const QString linked
            = craftSession(QStringLiteral("deferred-link%1").arg(onDemand ? QStringLiteral("-ondemand") : QString()),
                QStringLiteral("images/real.jpg"));
        QVERIFY(QFile::remove(linked + QStringLiteral("/images/real.jpg")));
        QVERIFY(QFile::link(m_secret, linked + QStringLiteral("/images/real.jpg")));
        const QString crafted
            = craftSession(QStringLiteral("deferred-dotdot%1").arg(onDemand ? QStringLiteral("-ondemand") : QString()),
                QStringLiteral("images/../../secret.txt"));
        struct Deferred {
            Deferred() { SessionStore::setFileChecksDeferred(true); }
            ~Deferred() { SessionStore::setFileChecksDeferred(false); }
        } deferred;
        {
            SessionStore store;
            QVERIFY(store.open(linked, SessionStore::OpenMode::OpenExisting));
            QCOMPARE(store.graph().size(), 1);
        }
        SessionStore store;
        const Result<void> opened = store.open(crafted, SessionStore::OpenMode::OpenExisting);
        QVERIFY(!opened);
        QCOMPARE(opened.error().kind, ErrorKind::Unsafe);
    }

    void aRebuildTakesOnlyThePicturesTheFolderReallyHolds()
    {
        // A rebuild reads every picture no record mentions: a link (out, or to a picture) and a
        // FIFO are passed over without being opened for reading (a FIFO would block for ever),
        // and a turn's output that is a link does not finish its turn.
        const QString dir = m_tmp.filePath(QStringLiteral("rebuild-links"));
        {
            SessionStore store;
            QVERIFY(store.open(dir));
            Frame f;
            f.id = QStringLiteral("c0000001");
            f.kind = FrameKind::Generate;
            f.prompt = QStringLiteral("p");
            f.status = FrameStatus::Pending;
            f.requestedAt = QDateTime::currentDateTimeUtc();
            store.journal().beginTurn(f); // its output is looked for as images/gen_<unix>_c0000001.*
        }
        const QString picture = m_tmp.filePath(QStringLiteral("outside-picture.jpg"));
        QVERIFY(!test::writeFile(picture, test::jpegBytes()).isEmpty());
        QVERIFY(QFile::link(picture, dir + QStringLiteral("/images/gen_1767000000_c0000001.jpg")));
        QVERIFY(QFile::link(picture, dir + QStringLiteral("/images/holiday.jpg")));
        QVERIFY(QFile::link(m_secret, dir + QStringLiteral("/images/secret.jpg")));
        QCOMPARE(::mkfifo(QFile::encodeName(dir + QStringLiteral("/images/pipe.jpg")).constData(), 0600), 0);
        QVERIFY(!test::writeFile(dir + QStringLiteral("/images/found.jpg"), test::jpegBytes()).isEmpty());
        QVERIFY(QFile::remove(dir + QStringLiteral("/manifest.json")));

        SessionStore store;
        const Result<void> rebuilt = store.rebuild(dir);
        QVERIFY2(rebuilt, qPrintable(rebuilt ? QString() : rebuilt.error().message));
        QStringList files;
        for (const Frame &f : store.graph().frames())
            files << f.image.file;
        QCOMPARE(files.size(), 2); // the turn, and the one real picture nobody mentioned
        QVERIFY(files.contains(QStringLiteral("images/found.jpg")));
        QVERIFY(!store.graph().value(QStringLiteral("c0000001")).isDone());
        store.close();
        // The rebuilt session opens under the whole check: it names no link and no FIFO.
        QVERIFY(store.open(dir, SessionStore::OpenMode::OpenExisting));
    }

    void aRebuildRefusesAnImagesFolderThatIsNotItsOwn_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("link out") << "link out"
                                  << "is a link that leads outside the session folder (to ";
        QTest::newRow("dangling link") << "dangling link"
                                       << "is a link to ";
        QTest::newRow("link to the session itself") << "link to itself"
                                                    << "is a link to the session folder itself";
        QTest::newRow("link to a file") << "link to a file"
                                        << "which is not a folder";
        QTest::newRow("a file") << "file"
                                << "images is not a folder";
    }

    void aRebuildRefusesAnImagesFolderThatIsNotItsOwn()
    {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        const QString dir = m_tmp.filePath(
            QStringLiteral("rebuild-folder-") + QString(kind).replace(QLatin1Char(' '), QLatin1Char('-')));
        QVERIFY(QDir().mkpath(dir));
        const QString images = dir + QStringLiteral("/images");
        const QString elsewhere = m_tmp.filePath(QStringLiteral("someone-elses-pictures"));
        QVERIFY(QDir().mkpath(elsewhere));
        QVERIFY(!test::writeFile(elsewhere + QStringLiteral("/private.jpg"), test::jpegBytes()).isEmpty());
        QString expected = message;
        if (kind == QLatin1String("link out")) {
            QVERIFY(QFile::link(elsewhere, images));
            expected += QFileInfo(elsewhere).canonicalFilePath();
        } else if (kind == QLatin1String("dangling link")) {
            QVERIFY(QFile::link(m_tmp.filePath(QStringLiteral("gone")), images));
            expected += m_tmp.filePath(QStringLiteral("gone")) + QStringLiteral(", which does not exist");
        } else if (kind == QLatin1String("link to itself")) {
            QVERIFY(QFile::link(dir, images));
        } else if (kind == QLatin1String("link to a file")) {
            QVERIFY(QFile::link(elsewhere + QStringLiteral("/private.jpg"), images));
        } else {
            QVERIFY(!test::writeFile(images, "not a folder").isEmpty());
        }
        QVERIFY(!test::writeFile(dir + QStringLiteral("/manifest.json"), "{ broken").isEmpty());

        SessionStore store;
        const Result<void> rebuilt = store.rebuild(dir);
        QVERIFY(!rebuilt);
        QCOMPARE(rebuilt.error().kind, ErrorKind::Unsafe);
        QVERIFY2(rebuilt.error().message.contains(expected), qPrintable(rebuilt.error().message));
        QVERIFY2(rebuilt.error().message.contains(QStringLiteral("nothing was rebuilt")),
            qPrintable(rebuilt.error().message));
        QVERIFY(!store.isOpen());
        // Nothing was moved or written: the broken manifest is where it was, and nothing was set aside.
        QCOMPARE(test::readFile(dir + QStringLiteral("/manifest.json")), QByteArray("{ broken"));
        QVERIFY(QDir(dir).entryList({QStringLiteral("manifest.broken-*")}, QDir::Files).isEmpty());
    }

    void aBigManifestIsCheckedAsASmallOne_data() { addOnDemandRows(); }

    void aBigManifestIsCheckedAsASmallOne()
    {
        // Over 1 MB the checkpoint is parsed by two threads while a third lists images/: a link
        // out in the second half is still refused, and the same session without it opens whole.
        QFETCH(bool, onDemand);
        const FramesOnDemand mode(onDemand);
        const QString dir
            = m_tmp.filePath(QStringLiteral("big%1").arg(onDemand ? QStringLiteral("-ondemand") : QString()));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/images")));
        QJsonArray frames;
        for (int i = 0; i < 1500; ++i) {
            Frame f;
            f.id = QStringLiteral("%1").arg(0x20000000 + i, 8, 16, QLatin1Char('0'));
            f.status = FrameStatus::Done;
            f.prompt = QString(700, QLatin1Char('p'));
            f.requestedAt = f.finishedAt = QDateTime::currentDateTimeUtc();
            f.image.file = i == 1200 ? QStringLiteral("images/evil.jpg") : QStringLiteral("images/%1.jpg").arg(f.id);
            f.image.mimeType = QStringLiteral("image/jpeg");
            if (i != 1200)
                QVERIFY(!test::writeFile(dir + QLatin1Char('/') + f.image.file, "x").isEmpty());
            frames.append(f.toJson());
        }
        QVERIFY(QFile::link(m_secret, dir + QStringLiteral("/images/evil.jpg")));
        const QJsonObject root {{QStringLiteral("format"), QStringLiteral("nb2lite-session")},
            {QStringLiteral("schema_version"), 2}, {QStringLiteral("journal_offset"), 0},
            {QStringLiteral("frames"), frames}};
        const QByteArray text = QJsonDocument(root).toJson();
        QVERIFY(text.size() > (1 << 20));
        QVERIFY(parseManifest(text).value().readInTwo);
        QVERIFY(!test::writeFile(dir + QStringLiteral("/manifest.json"), text).isEmpty());
        {
            SessionStore store;
            const Result<void> opened = store.open(dir, SessionStore::OpenMode::OpenExisting);
            QVERIFY(!opened);
            QCOMPARE(opened.error().kind, ErrorKind::Unsafe);
            QVERIFY2(opened.error().message.contains(QStringLiteral("'images/evil.jpg', a link that leads outside")),
                qPrintable(opened.error().message));
        }
        QVERIFY(QFile::remove(dir + QStringLiteral("/images/evil.jpg")));
        QVERIFY(!test::writeFile(dir + QStringLiteral("/images/evil.jpg"), "x").isEmpty());
        SessionStore store;
        QVERIFY(store.open(dir, SessionStore::OpenMode::OpenExisting));
        QCOMPARE(store.graph().size(), 1500);
        QCOMPARE(store.graph().onDemand(), onDemand);
        QCOMPARE(store.graph().frames().at(1499).id, QStringLiteral("200005db"));
    }

    void craftedJournalIsRefused()
    {
        // No manifest: opening rebuilds from the journal, whose record names a file outside.
        const QString dir = m_tmp.filePath(QStringLiteral("journal-only"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/images")));
        Journal journal(dir + QStringLiteral("/journal.jsonl"));
        Frame f;
        f.id = QStringLiteral("feedf00d");
        f.kind = FrameKind::Generate;
        f.status = FrameStatus::Done;
        f.prompt = QStringLiteral("p");
        f.image.file = QStringLiteral("../secret.txt");
        QVERIFY(journal.endTurn(f));
        SessionStore store;
        const Result<void> opened = store.open(dir);
        QVERIFY(!opened);
        QCOMPARE(opened.error().kind, ErrorKind::Unsafe);
        QVERIFY2(
            opened.error().message.contains(QStringLiteral("journal entry for frame feedf00d names '../secret.txt'")),
            qPrintable(opened.error().message));
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/manifest.json")));
    }

    void craftedCommitAfterTheCheckpointIsRefused()
    {
        // The journal is the write path: frames changed since the manifest's checkpoint are read
        // from its commit records, which must pass the same check as the manifest's frames.
        const QString dir = craftSession(QStringLiteral("tail"), QStringLiteral("images/real.jpg"));
        QVERIFY(!dir.isEmpty());
        Journal journal(dir + QStringLiteral("/journal.jsonl"));
        Frame f;
        f.id = QStringLiteral("feedf00d");
        f.kind = FrameKind::Generate;
        f.status = FrameStatus::Done;
        f.prompt = QStringLiteral("p");
        f.image.file = QStringLiteral("/etc/hostname");
        QVERIFY(journal.appendCommits({JournalCommit {QStringLiteral("attacker"), {f}, {}, f.id}}));
        for (const auto mode : {SessionStore::OpenMode::OpenExisting, SessionStore::OpenMode::ReadOnly}) {
            SessionStore store;
            const Result<void> opened = store.open(dir, mode);
            QVERIFY(!opened);
            QCOMPARE(opened.error().kind, ErrorKind::Unsafe);
            QVERIFY2(opened.error().message.contains(QStringLiteral("feedf00d")), qPrintable(opened.error().message));
        }
        const Result<QByteArray> folded = SessionStore::foldedManifest(dir);
        QVERIFY(!folded);
        QCOMPARE(folded.error().kind, ErrorKind::Unsafe);
    }
};

QTEST_GUILESS_MAIN(tst_SessionPaths)
#include "tst_sessionpaths.moc"
