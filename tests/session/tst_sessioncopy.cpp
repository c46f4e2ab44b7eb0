// Save As: the session folder copied without its lock, without following links, never over anything.
#include "core/session/sessioncopy.h"

#include <QtTest>

using namespace nb2;

class tst_SessionCopy : public QObject
{
    Q_OBJECT

private:
    static void write(const QString &path, const QByteArray &bytes)
    {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
    static QByteArray read(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void copiesFilesAndFoldersButNotTheLock()
    {
        QTemporaryDir tmp;
        const QString from = tmp.path() + QStringLiteral("/s");
        write(from + QStringLiteral("/manifest.json"), "{}");
        write(from + QStringLiteral("/journal.jsonl"), "line\n");
        write(from + QStringLiteral("/images/gen_1.png"), "png");
        write(from + QStringLiteral("/.thumbs/t.png"), "thumb");
        write(from + QStringLiteral("/session.lock"), "123");
        QDir().mkpath(from + QStringLiteral("/empty"));
        const QString to = tmp.path() + QStringLiteral("/copy");
        const Result<void> r = copySessionFolder(from, to);
        QVERIFY2(r, qPrintable(r.error().message));
        QCOMPARE(read(to + QStringLiteral("/manifest.json")), QByteArray("{}"));
        QCOMPARE(read(to + QStringLiteral("/images/gen_1.png")), QByteArray("png"));
        QCOMPARE(read(to + QStringLiteral("/.thumbs/t.png")), QByteArray("thumb"));
        QVERIFY(QFileInfo(to + QStringLiteral("/empty")).isDir());
        QVERIFY(!QFileInfo::exists(to + QStringLiteral("/session.lock")));
        QVERIFY(QFileInfo::exists(from + QStringLiteral("/session.lock"))); // the original is untouched
    }

    void neverOverwrites()
    {
        QTemporaryDir tmp;
        const QString from = tmp.path() + QStringLiteral("/s");
        write(from + QStringLiteral("/manifest.json"), "{}");
        const QString to = tmp.path() + QStringLiteral("/taken");
        write(to + QStringLiteral("/keep.txt"), "mine");
        const Result<void> r = copySessionFolder(from, to);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, ErrorKind::Conflict);
        QVERIFY2(r.error().message.contains(QStringLiteral("choose a new name")), qPrintable(r.error().message));
        QCOMPARE(read(to + QStringLiteral("/keep.txt")), QByteArray("mine"));
        QVERIFY(!QFileInfo::exists(to + QStringLiteral("/manifest.json")));
    }

    void refusesToCopyIntoItself()
    {
        QTemporaryDir tmp;
        const QString from = tmp.path() + QStringLiteral("/s");
        write(from + QStringLiteral("/manifest.json"), "{}");
        const Result<void> r = copySessionFolder(from, from + QStringLiteral("/inner"));
        QVERIFY(!r);
        QCOMPARE(r.error().kind, ErrorKind::InvalidInput);
        QVERIFY(!QFileInfo::exists(from + QStringLiteral("/inner")));
    }

    void linksAreNeitherFollowedNorCopied()
    {
        QTemporaryDir tmp;
        const QString from = tmp.path() + QStringLiteral("/s");
        write(from + QStringLiteral("/manifest.json"), "{}");
        write(tmp.path() + QStringLiteral("/outside/secret.txt"), "secret");
        QVERIFY(QFile::link(tmp.path() + QStringLiteral("/outside"), from + QStringLiteral("/linked")));
        QVERIFY(QFile::link(tmp.path() + QStringLiteral("/outside/secret.txt"), from + QStringLiteral("/images.png")));
        const QString to = tmp.path() + QStringLiteral("/copy");
        QVERIFY(copySessionFolder(from, to));
        QVERIFY(QFileInfo::exists(to + QStringLiteral("/manifest.json")));
        QVERIFY(!QFileInfo::exists(to + QStringLiteral("/linked")));
        QVERIFY(!QFileInfo(to + QStringLiteral("/linked")).isSymLink());
        QVERIFY(!QFileInfo::exists(to + QStringLiteral("/images.png")));
    }

    void missingSourceIsAnError()
    {
        QTemporaryDir tmp;
        const Result<void> r
            = copySessionFolder(tmp.path() + QStringLiteral("/nope"), tmp.path() + QStringLiteral("/copy"));
        QVERIFY(!r);
        QVERIFY(!QFileInfo::exists(tmp.path() + QStringLiteral("/copy")));
    }
};

QTEST_GUILESS_MAIN(tst_SessionCopy)
#include "tst_sessioncopy.moc"
