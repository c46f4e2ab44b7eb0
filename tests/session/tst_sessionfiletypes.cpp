// A session folder's own files (manifest.json, journal.jsonl) that are not files: a FIFO, a
// folder, a device behind a link. Opening a FIFO for reading waits for a writer, so before
// openRegularFile() a crafted folder hung the studio, every CLI command and a rebuild for ever.
// Each must now fail at once with an error that names the file and what it is.

#include "core/common/regularfile.h"
#include "core/session/sessionstore.h"

#include "tests/session/sessiontestutil.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <functional>
#include <future>
#include <optional>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace nb2;

namespace {

/** The kinds of not-a-file put where the session keeps a file. */
enum class NotAFile { Fifo, Folder, DeviceLink };

QString describe(NotAFile what)
{
    switch (what) {
    case NotAFile::Fifo:
        return QStringLiteral("is a FIFO, not a file");
    case NotAFile::Folder:
        return QStringLiteral("is a folder, not a file");
    case NotAFile::DeviceLink:
        return QStringLiteral("is a device, not a file");
    }
    return {};
}

bool replaceBy(const QString &path, NotAFile what)
{
    QFile::remove(path);
    const QByteArray name = QFile::encodeName(path);
    switch (what) {
    case NotAFile::Fifo:
        return ::mkfifo(name.constData(), 0600) == 0;
    case NotAFile::Folder:
        return QDir().mkdir(path);
    case NotAFile::DeviceLink:
        return QFile::link(QStringLiteral("/dev/zero"), path);
    }
    return false;
}

/**
 * Runs call with a deadline. Before the fix the call never returned: it waited in open() for
 * the FIFO's other end. On a timeout the FIFO is opened from both ends (without waiting), which
 * lets the stuck call go on, and the test fails.
 */
template <typename T> std::optional<T> withinDeadline(const QString &fifo, const std::function<T()> &call)
{
    auto running = std::async(std::launch::async, call);
    if (running.wait_for(std::chrono::seconds(10)) == std::future_status::ready)
        return running.get();
    const QByteArray name = QFile::encodeName(fifo);
    const int reader = ::open(name.constData(), O_RDONLY | O_NONBLOCK);
    const int writer = ::open(name.constData(), O_WRONLY | O_NONBLOCK);
    running.wait();
    if (writer >= 0)
        ::close(writer);
    if (reader >= 0)
        ::close(reader);
    return std::nullopt;
}

} // namespace

Q_DECLARE_METATYPE(NotAFile)

class tst_SessionFileTypes : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;

    /** A closed one-frame session in a new folder. */
    QString makeSession(const QString &name)
    {
        const QString dir = m_tmp.filePath(name);
        return test::makeOneFrameSession(dir) ? dir : QString();
    }

    static void addRows()
    {
        QTest::addColumn<NotAFile>("what");
        QTest::newRow("a FIFO") << NotAFile::Fifo;
        QTest::newRow("a folder") << NotAFile::Folder;
        QTest::newRow("a link to a device") << NotAFile::DeviceLink;
    }

    /** Every way a session is opened fails with error, naming file and what it is. */
    void expectEveryOpenRefuses(const QString &dir, const QString &file, NotAFile what)
    {
        const QString path = dir + QLatin1Char('/') + file;
        const QString expected = QDir::toNativeSeparators(path) + QLatin1Char(' ') + describe(what);
        using Outcome = std::pair<bool, Error>;
        auto check = [&](const char *how, const std::function<Outcome()> &call) {
            const std::optional<Outcome> outcome = withinDeadline<Outcome>(path, call);
            QVERIFY2(outcome, qPrintable(QStringLiteral("%1 waited on %2").arg(QLatin1String(how), file)));
            QVERIFY2(!outcome->first, how);
            QCOMPARE(outcome->second.kind, ErrorKind::Corrupt);
            QVERIFY2(outcome->second.message.contains(expected), qPrintable(outcome->second.message));
        };
        for (const auto mode : {SessionStore::OpenMode::OpenExisting, SessionStore::OpenMode::ReadOnly}) {
            check(mode == SessionStore::OpenMode::ReadOnly ? "a read-only open" : "an open for work", [&] {
                SessionStore store;
                const Result<void> opened = store.open(dir, mode);
                return Outcome {bool(opened), opened ? Error {} : opened.error()};
            });
            if (QTest::currentTestFailed())
                return;
        }
        check("an open after a preload", [&] {
            SessionStore::preload(dir).waitForFinished();
            SessionStore store;
            const Result<void> opened = store.open(dir);
            return Outcome {bool(opened), opened ? Error {} : opened.error()};
        });
        if (QTest::currentTestFailed())
            return;
        check("a bundle's manifest", [&] {
            const Result<QByteArray> folded = SessionStore::foldedManifest(dir);
            return Outcome {bool(folded), folded ? Error {} : folded.error()};
        });
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void aManifestThatIsNotAFileIsRefused_data() { addRows(); }

    void aManifestThatIsNotAFileIsRefused()
    {
        QFETCH(NotAFile, what);
        const QString dir = makeSession(QStringLiteral("manifest-%1").arg(int(what)));
        QVERIFY(!dir.isEmpty());
        QVERIFY(replaceBy(dir + QStringLiteral("/manifest.json"), what));
        expectEveryOpenRefuses(dir, QStringLiteral("manifest.json"), what);
    }

    void aJournalThatIsNotAFileIsRefused_data() { addRows(); }

    void aJournalThatIsNotAFileIsRefused()
    {
        QFETCH(NotAFile, what);
        const QString dir = makeSession(QStringLiteral("journal-%1").arg(int(what)));
        QVERIFY(!dir.isEmpty());
        QVERIFY(replaceBy(dir + QStringLiteral("/journal.jsonl"), what));
        expectEveryOpenRefuses(dir, QStringLiteral("journal.jsonl"), what);
    }

    void aRebuildBesideAJournalFifoStopsAndSaysSo()
    {
        // The journal is what a rebuild trusts most: it stops before moving anything, instead
        // of waiting on the FIFO, and says what to do.
        const QString dir = makeSession(QStringLiteral("rebuild-journal-fifo"));
        QVERIFY(!dir.isEmpty());
        const QString journal = dir + QStringLiteral("/journal.jsonl");
        QVERIFY(replaceBy(journal, NotAFile::Fifo));
        const QByteArray manifestBefore = test::readFile(dir + QStringLiteral("/manifest.json"));
        QVERIFY(!manifestBefore.isEmpty());
        const std::optional<Result<void>> rebuilt = withinDeadline<Result<void>>(journal, [&] {
            SessionStore store;
            return store.rebuild(dir);
        });
        QVERIFY2(rebuilt, "the rebuild waited on the FIFO");
        QVERIFY(!*rebuilt);
        QCOMPARE(rebuilt->error().kind, ErrorKind::Corrupt);
        QCOMPARE(rebuilt->error().message,
            QDir::toNativeSeparators(journal)
                + QStringLiteral(" is a FIFO, not a file; nothing was rebuilt. Move it out of the session folder "
                                 "and rebuild again."));
        QCOMPARE(test::readFile(dir + QStringLiteral("/manifest.json")), manifestBefore);
    }

    void aRebuildSetsAManifestFifoAsideAndRecovers()
    {
        // A manifest that is not a file is what a rebuild is for: it is moved aside (nothing is
        // deleted) and the session is made again from the journal.
        const QString dir = makeSession(QStringLiteral("rebuild-manifest-fifo"));
        QVERIFY(!dir.isEmpty());
        const QString manifest = dir + QStringLiteral("/manifest.json");
        QVERIFY(replaceBy(manifest, NotAFile::Fifo));
        const std::optional<Result<void>> rebuilt = withinDeadline<Result<void>>(manifest, [&] {
            SessionStore store;
            return store.rebuild(dir);
        });
        QVERIFY2(rebuilt, "the rebuild waited on the FIFO");
        QVERIFY2(*rebuilt, qPrintable(rebuilt->error().message));
        const QStringList aside
            = QDir(dir).entryList({QStringLiteral("manifest.broken-*.json")}, QDir::System | QDir::Files);
        QCOMPARE(aside.size(), 1);
        struct stat st {
        };
        QCOMPARE(::lstat(QFile::encodeName(dir + QLatin1Char('/') + aside.first()).constData(), &st), 0);
        QVERIFY(S_ISFIFO(st.st_mode));
        SessionStore store;
        QVERIFY(store.open(dir));
        QVERIFY(store.graph().contains(QStringLiteral("0badc0de")));
    }

    void openRegularFileSaysWhatItFound()
    {
        const QString file = test::writeFile(m_tmp.filePath(QStringLiteral("plain.txt")), "hello\n");
        QVERIFY(!file.isEmpty());
        QFile a;
        QVERIFY(openRegularFile(&a, file));
        QCOMPARE(a.readAll(), QByteArray("hello\n"));

        const QString link = m_tmp.filePath(QStringLiteral("link.txt"));
        QVERIFY(QFile::link(file, link));
        QFile b;
        QVERIFY(openRegularFile(&b, link)); // followed by default
        const Result<void> refused = openRegularFile(&b, link, QIODevice::ReadOnly, LinkPolicy::Refuse);
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind, ErrorKind::Unsafe);
        QCOMPARE(refused.error().message, QDir::toNativeSeparators(link) + QStringLiteral(" is a link, not a file"));

        QFile c;
        const Result<void> missing = openRegularFile(&c, m_tmp.filePath(QStringLiteral("missing.txt")));
        QVERIFY(!missing);
        QCOMPARE(missing.error().kind, ErrorKind::Io);
        QVERIFY2(missing.error().message.contains(QStringLiteral("No such file")), qPrintable(missing.error().message));

        // Appending creates a missing file and adds to an existing one.
        const QString log = m_tmp.filePath(QStringLiteral("log.txt"));
        for (const char *line : {"one\n", "two\n"}) {
            QFile d;
            QVERIFY(openRegularFile(&d, log, QIODevice::WriteOnly | QIODevice::Append));
            QCOMPARE(d.write(line), qint64(4));
        }
        QCOMPARE(test::readFile(log), QByteArray("one\ntwo\n"));

        // A FIFO, for reading and for appending, without waiting for the other end.
        const QString fifo = m_tmp.filePath(QStringLiteral("pipe"));
        QVERIFY(replaceBy(fifo, NotAFile::Fifo));
        for (const QIODevice::OpenMode mode :
            {QIODevice::OpenMode(QIODevice::ReadOnly), QIODevice::OpenMode(QIODevice::WriteOnly | QIODevice::Append)}) {
            const std::optional<Result<void>> opened = withinDeadline<Result<void>>(fifo, [&] {
                QFile f;
                return openRegularFile(&f, fifo, mode);
            });
            QVERIFY2(opened, "waited on the FIFO");
            QVERIFY(!*opened);
            QCOMPARE(opened->error().kind, ErrorKind::Corrupt);
            QCOMPARE(
                opened->error().message, QDir::toNativeSeparators(fifo) + QStringLiteral(" is a FIFO, not a file"));
        }
    }
};

QTEST_GUILESS_MAIN(tst_SessionFileTypes)
#include "tst_sessionfiletypes.moc"
