// SessionStore::preload: the studio parses a session's checkpoint on a worker while its window
// is built; open() must then see exactly what it would have read itself.
#include "core/session/sessionstore.h"
#include "sessiontestutil.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace nb2;

class tst_SessionPreload : public QObject
{
    Q_OBJECT

private:
    static QString idOf(int i) { return QStringLiteral("%1").arg(i, 8, 16, QLatin1Char('0')); }

    static Frame doneFrame(const QString &id, const QString &parent = {})
    {
        Frame f;
        f.id = id;
        f.parentId = parent;
        f.kind = parent.isEmpty() ? FrameKind::Generate : FrameKind::Edit;
        f.prompt = QStringLiteral("prompt %1").arg(id);
        f.status = FrameStatus::Done;
        f.requestedAt = QDateTime::currentDateTimeUtc();
        return f;
    }

    /** A checkpointed session of n frames in a chain, then one change left in the journal's tail. */
    static void makeSession(const QString &dir, int n)
    {
        SessionStore s;
        QVERIFY(s.open(dir));
        QList<Frame> frames;
        for (int i = 0; i < n; ++i)
            frames.append(doneFrame(idOf(i), i ? idOf(i - 1) : QString()));
        QVERIFY(s.commit(frames));
        QVERIFY(s.checkpoint());
        Frame f = s.graph().value(idOf(1));
        f.title = QStringLiteral("in the tail");
        QVERIFY(s.commit({f}));
    }

private Q_SLOTS:
    void openUsesThePreloadAndWhatWasAppendedSince()
    {
        QTemporaryDir tmp;
        makeSession(tmp.path(), 300);
        QFuture<void> preload = SessionStore::preload(tmp.path());
        QVERIFY(preload.isValid());
        preload.waitForFinished();
        {
            // Another process appends after the preload read the journal.
            SessionStore other;
            QVERIFY(other.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
            QVERIFY(other.commit({doneFrame(QStringLiteral("appended"), idOf(299))}));
        }
        SessionStore s;
        QVERIFY(s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        QCOMPARE(s.graph().size(), 301);
        QCOMPARE(s.graph().value(idOf(1)).title, QStringLiteral("in the tail"));
        QVERIFY(s.graph().contains(QStringLiteral("appended")));
    }

    void aCheckpointWrittenAfterThePreloadIsReadAgain()
    {
        QTemporaryDir tmp;
        makeSession(tmp.path(), 200);
        SessionStore::preload(tmp.path()).waitForFinished();
        {
            SessionStore other;
            QVERIFY(other.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
            QVERIFY(other.commit({doneFrame(QStringLiteral("late"), idOf(199))}));
            QVERIFY(other.checkpoint()); // manifest.json replaced; the journal offset moves on
        }
        SessionStore s;
        QVERIFY(s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        QCOMPARE(s.graph().size(), 201);
        QVERIFY(s.graph().contains(QStringLiteral("late")));
    }

    void aPreloadOfAnotherFolderIsNotUsed()
    {
        QTemporaryDir a, b;
        makeSession(a.path(), 10);
        makeSession(b.path(), 20);
        SessionStore::preload(a.path()).waitForFinished();
        SessionStore s;
        QVERIFY(s.open(b.path(), SessionStore::OpenMode::OpenExisting));
        QCOMPARE(s.graph().size(), 20);
        s.close();
        QVERIFY(s.open(a.path(), SessionStore::OpenMode::OpenExisting)); // the preload was used up: read as usual
        QCOMPARE(s.graph().size(), 10);
    }

    void noManifestNoPreload()
    {
        QTemporaryDir tmp;
        QVERIFY(!SessionStore::preload(tmp.path()).isValid());
        QVERIFY(!SessionStore::preload(QString()).isValid());
    }
};

QTEST_GUILESS_MAIN(tst_SessionPreload)
#include "tst_sessionpreload.moc"
