// The session's storage design: the journal is the write path, manifest.json a checkpoint.
#include "core/session/journal.h"
#include "core/session/sessionstore.h"
#include "sessiontestutil.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace nb2;

/** A change is one journal record whatever the session's size; open = checkpoint + tail; old sessions upgrade. */
class tst_SessionCheckpoint : public QObject
{
    Q_OBJECT

private:
    static Frame doneFrame(const QString &id, const QString &parent = {})
    {
        Frame f;
        f.id = id;
        f.parentId = parent;
        f.kind = parent.isEmpty() ? FrameKind::Generate : FrameKind::Edit;
        f.prompt = QStringLiteral("prompt %1 with some words so that the manifest has realistic weight").arg(id);
        f.status = FrameStatus::Done;
        f.requestedAt = QDateTime::currentDateTimeUtc();
        return f;
    }

    static QJsonObject readJson(const QString &path) { return QJsonDocument::fromJson(test::readFile(path)).object(); }

    /** A session of n frames, checkpointed: its manifest holds everything. */
    static void makeSession(const QString &dir, int n)
    {
        SessionStore s;
        QVERIFY(s.open(dir));
        QList<Frame> frames;
        for (int i = 0; i < n; ++i)
            frames.append(doneFrame(QStringLiteral("%1").arg(i, 8, 16, QLatin1Char('0')),
                i ? QStringLiteral("%1").arg(i - 1, 8, 16, QLatin1Char('0')) : QString()));
        QVERIFY(s.commit(frames));
        QVERIFY(s.checkpoint());
    }

private Q_SLOTS:
    void aChangeAppendsOneRecordAndLeavesTheManifest()
    {
        QTemporaryDir tmp;
        makeSession(tmp.path(), 500);
        SessionStore s;
        QVERIFY(s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        const QByteArray manifestBefore = test::readFile(s.manifestPath());
        const qint64 journalBefore = QFileInfo(s.journalPath()).size();
        Frame f = s.graph().value(QStringLiteral("00000010"));
        f.title = QStringLiteral("renamed");
        QVERIFY(s.commit({f}));
        QCOMPARE(test::readFile(s.manifestPath()), manifestBefore); // not rewritten for one change
        const qint64 grown = QFileInfo(s.journalPath()).size() - journalBefore;
        QVERIFY2(grown > 0 && grown < 4096, qPrintable(QString::number(grown))); // one small record
        // A second reader sees the change: checkpoint + the journal's tail.
        SessionStore other;
        QVERIFY(other.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        QCOMPARE(other.graph().size(), 500);
        QCOMPARE(other.graph().value(QStringLiteral("00000010")).title, QStringLiteral("renamed"));
    }

    void theTailIsFoldedOnceItPays()
    {
        QTemporaryDir tmp;
        makeSession(tmp.path(), 200);
        SessionStore s;
        QVERIFY(s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        const qint64 manifestSize = QFileInfo(s.manifestPath()).size();
        const qint64 offsetBefore
            = qint64(readJson(s.manifestPath()).value(QStringLiteral("journal_offset")).toDouble());
        // Changes until the tail is well past an eighth of the manifest: a checkpoint follows.
        for (int i = 0; i < 200
             && qint64(readJson(s.manifestPath()).value(QStringLiteral("journal_offset")).toDouble()) == offsetBefore;
             ++i) {
            Frame f = s.graph().value(QStringLiteral("%1").arg(i, 8, 16, QLatin1Char('0')));
            f.note = QStringLiteral("note %1").arg(i);
            QVERIFY(s.commit({f}));
        }
        const QJsonObject root = readJson(s.manifestPath());
        QVERIFY2(qint64(root.value(QStringLiteral("journal_offset")).toDouble()) > offsetBefore,
            "no checkpoint was written");
        QVERIFY(QFileInfo(s.journalPath()).size() - offsetBefore < manifestSize); // ... and not later than it pays
        QCOMPARE(root.value(QStringLiteral("schema_version")).toInt(), 2);
    }

    void theFirstChangeDoesNotCopyTheFrameTable()
    {
        // The writer thread used to hold a shared copy of the table it was opened with, so the
        // GUI thread's first change detached (copied) all of it: ~12 ms at 10,000 frames.
        QTemporaryDir tmp;
        makeSession(tmp.path(), 300);
        SessionStore s;
        QVERIFY(s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        const Frame *before = s.graph().frames().constData();
        Frame f = doneFrame(QStringLiteral("new00001"), QStringLiteral("0000012b"));
        QVERIFY(s.commit({f}, {}, f.id)); // room was reserved at open: an append moves nothing
        Frame g = s.graph().value(QStringLiteral("00000007"));
        g.title = QStringLiteral("renamed");
        QVERIFY(s.commit({g}));
        QCOMPARE(s.graph().frames().constData(), before);
    }

    void aCheckpointReadsTheTableItDidNotKeep()
    {
        // The writer reads the disk view back only for a checkpoint: what it writes is exactly
        // the checkpoint + every commit, ours and another process's, and nothing queued is lost.
        QTemporaryDir tmp;
        makeSession(tmp.path(), 120);
        SessionStore s, other;
        QVERIFY(s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        QVERIFY(other.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        Frame mine = s.graph().value(QStringLiteral("00000005"));
        mine.note = QStringLiteral("from s");
        QVERIFY(s.commit({mine}));
        Frame theirs = other.graph().value(QStringLiteral("00000009"));
        theirs.note = QStringLiteral("from other");
        QVERIFY(other.commit({theirs}, {QStringLiteral("00000077")}));
        QVERIFY(s.commit(
            {doneFrame(QStringLiteral("new00002"), QStringLiteral("00000005"))}, {}, QStringLiteral("new00002")));
        QVERIFY(s.checkpoint());
        const QJsonObject root = readJson(s.manifestPath());
        QCOMPARE(qint64(root.value(QStringLiteral("journal_offset")).toDouble()), QFileInfo(s.journalPath()).size());
        QCOMPARE(root.value(QStringLiteral("current_frame")).toString(), QStringLiteral("new00002"));
        QHash<QString, QJsonObject> byId;
        for (const QJsonValue &v : root.value(QStringLiteral("frames")).toArray())
            byId.insert(v.toObject().value(QStringLiteral("id")).toString(), v.toObject());
        QCOMPARE(byId.size(), 120); // 120 - 1 removed + 1 new
        QVERIFY(!byId.contains(QStringLiteral("00000077")));
        QVERIFY(byId.contains(QStringLiteral("new00002")));
        QCOMPARE(
            byId.value(QStringLiteral("00000005")).value(QStringLiteral("note")).toString(), QStringLiteral("from s"));
        QCOMPARE(byId.value(QStringLiteral("00000009")).value(QStringLiteral("note")).toString(),
            QStringLiteral("from other"));
        // Later changes after the read-back go on top of it.
        Frame again = s.graph().value(QStringLiteral("00000001"));
        again.title = QStringLiteral("later");
        QVERIFY(s.commit({again}));
        QVERIFY(s.checkpoint());
        SessionStore reader;
        QVERIFY(reader.open(tmp.path(), SessionStore::OpenMode::ReadOnly));
        QCOMPARE(reader.graph().value(QStringLiteral("00000001")).title, QStringLiteral("later"));
        QCOMPARE(reader.graph().size(), 120);
    }

    void closeForExitKeepsTheTableButWritesEverything()
    {
        // The CLI's close on its way out: the table is handed to the process-wide list (not
        // freed), and the change queued just before close is on disk all the same.
        QTemporaryDir tmp;
        makeSession(tmp.path(), 50);
        const qsizetype keptBefore = SessionStore::framesKeptForExit();
        SessionStore::setKeepTablesForExit(true);
        {
            SessionStore s;
            QVERIFY(s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
            Frame f = s.graph().value(QStringLiteral("00000003"));
            f.title = QStringLiteral("queued before close");
            s.commitAsync({f}); // not flushed: close() must write it
            s.close();
            QVERIFY(s.graph().isEmpty());
        }
        SessionStore::setKeepTablesForExit(false);
        QCOMPARE(SessionStore::framesKeptForExit() - keptBefore, qsizetype(50));
        SessionStore reader;
        QVERIFY(reader.open(tmp.path(), SessionStore::OpenMode::ReadOnly));
        QCOMPARE(reader.graph().value(QStringLiteral("00000003")).title, QStringLiteral("queued before close"));
        reader.close();
        QCOMPARE(SessionStore::framesKeptForExit() - keptBefore, qsizetype(50)); // off again: freed as usual
    }

    void schemaOneSessionIsUpgradedOnOpen()
    {
        QTemporaryDir tmp;
        makeSession(tmp.path(), 3);
        // Make it what an older version wrote: schema 1, no offset, a journal of request records.
        QJsonObject root = readJson(tmp.filePath(QStringLiteral("manifest.json")));
        root.insert(QStringLiteral("schema_version"), 1);
        root.remove(QStringLiteral("journal_offset"));
        test::writeFile(tmp.filePath(QStringLiteral("manifest.json")), QJsonDocument(root).toJson());
        test::writeFile(tmp.filePath(QStringLiteral("journal.jsonl")),
            "{\"op\":\"end\",\"frame\":{\"id\":\"00000000\",\"kind\":\"generate\",\"status\":\"done\",\"prompt\":"
            "\"old\"}}\n");
        SessionStore s;
        QVERIFY(s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        QCOMPARE(s.graph().size(), 3);
        QCOMPARE(s.graph().value(QStringLiteral("00000000")).prompt,
            root.value(QStringLiteral("frames")).toArray().at(0).toObject().value(QStringLiteral("prompt")).toString());
        const QJsonObject upgraded = readJson(s.manifestPath());
        QCOMPARE(upgraded.value(QStringLiteral("schema_version")).toInt(), 2);
        QCOMPARE(
            qint64(upgraded.value(QStringLiteral("journal_offset")).toDouble()), QFileInfo(s.journalPath()).size());
        QVERIFY(s.commit({doneFrame(QStringLiteral("0000000a"), QStringLiteral("00000002"))}));
        s.close();
        SessionStore again;
        QVERIFY(again.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        QCOMPARE(again.graph().size(), 4);
    }

    void aTornLastLineDoesNotSwallowTheNextRecord()
    {
        QTemporaryDir tmp;
        makeSession(tmp.path(), 2);
        // A process killed mid-append left half a record without its newline.
        QFile j(tmp.filePath(QStringLiteral("journal.jsonl")));
        QVERIFY(j.open(QIODevice::Append));
        j.write("{\"op\":\"commit\",\"frames\":[{\"id\":\"dead");
        j.close();
        {
            SessionStore s;
            QVERIFY(s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
            QCOMPARE(s.graph().size(), 2);
            QVERIFY(s.commit({doneFrame(QStringLiteral("0000000b"), QStringLiteral("00000001"))}));
        }
        SessionStore s;
        QVERIFY(s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        QVERIFY(s.graph().contains(QStringLiteral("0000000b")));
    }

    void anotherWritersCommitsArriveAsADelta()
    {
        QTemporaryDir tmp;
        makeSession(tmp.path(), 50);
        SessionStore a, b;
        QVERIFY(a.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        QVERIFY(b.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        QSignalSpy spy(&a, &SessionStore::changedExternally);
        Frame renamed = b.graph().value(QStringLiteral("00000005"));
        renamed.title = QStringLiteral("from b");
        QVERIFY(b.commit({doneFrame(QStringLiteral("000000ff"), QStringLiteral("00000031")), renamed}));
        QVERIFY(a.reload());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toStringList(), QStringList {QStringLiteral("000000ff")}); // added
        QCOMPARE(spy.at(0).at(1).toStringList(), QStringList {QStringLiteral("00000005")}); // changed
        QVERIFY(spy.at(0).at(2).toStringList().isEmpty());
        QCOMPARE(a.graph().value(QStringLiteral("00000005")).title, QStringLiteral("from b"));
        QCOMPARE(a.graph().size(), 51);
        // Our own writes are never announced as another process's.
        Frame own = a.graph().value(QStringLiteral("00000006"));
        own.title = QStringLiteral("from a");
        QVERIFY(a.commit({own}));
        QVERIFY(!a.reload());
        QCOMPARE(spy.count(), 1);
    }

    void isoDatesReadFastAndTheSame_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("written form") << QStringLiteral("2026-01-02T03:04:05.678Z");
        QTest::newRow("end of year") << QStringLiteral("2025-12-31T23:59:59.999Z");
        QTest::newRow("leap day") << QStringLiteral("2028-02-29T00:00:00.000Z");
        QTest::newRow("no such day") << QStringLiteral("2027-02-29T00:00:00.000Z");
        QTest::newRow("month 13") << QStringLiteral("2026-13-02T03:04:05.678Z");
        QTest::newRow("offset") << QStringLiteral("2026-01-02T05:04:05.678+02:00");
        QTest::newRow("no millis") << QStringLiteral("2026-01-02T03:04:05Z");
    }

    void isoDatesReadFastAndTheSame()
    {
        QFETCH(QString, text);
        QDateTime slow = QDateTime::fromString(text, Qt::ISODateWithMs);
        if (!slow.isValid())
            slow = QDateTime::fromString(text, Qt::ISODate);
        const QDateTime fast = fromIsoUtc(text);
        QCOMPARE(fast.isValid(), slow.isValid());
        if (slow.isValid()) {
            QCOMPARE(fast, slow.toUTC());
            QCOMPARE(toIsoUtc(fast), toIsoUtc(slow));
        }
    }

    void rebuildReadsCommitRecords()
    {
        QTemporaryDir tmp;
        makeSession(tmp.path(), 4);
        {
            SessionStore s;
            QVERIFY(s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
            QVERIFY(s.commit({}, {QStringLiteral("00000003")}, QStringLiteral("00000002")));
        }
        test::writeFile(tmp.filePath(QStringLiteral("manifest.json")), "{broken");
        SessionStore s;
        QVERIFY(!s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        QVERIFY(s.rebuild(tmp.path()));
        QCOMPARE(s.graph().size(), 3); // frames from commit records, the removal honoured
        QVERIFY(!s.graph().contains(QStringLiteral("00000003")));
        QCOMPARE(s.currentFrameId(), QStringLiteral("00000002"));
    }
};

QTEST_GUILESS_MAIN(tst_SessionCheckpoint)
#include "tst_sessioncheckpoint.moc"
