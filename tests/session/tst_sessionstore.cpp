#include "core/session/sessioncontroller.h"
#include "core/session/sessionsettings.h"
#include "core/session/sessionstore.h"
#include "sessiontestutil.h"
#include "tests/testpaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLockFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace nb2;

/** The session folder: persistence, schema, corrupt manifests and rebuild, cross-process lock and watcher. */
class tst_SessionStore : public QObject
{
    Q_OBJECT

private:
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

    static QJsonObject readJson(const QString &path) { return QJsonDocument::fromJson(test::readFile(path)).object(); }

    static QString driver() { return nb2test::sessionDriverProgram(); }

private Q_SLOTS:
    void createOpenAndRoundTripPreservesUnknownFields()
    {
        QTemporaryDir tmp;
        {
            SessionStore s;
            const Result<void> opened = s.open(tmp.path(), SessionStore::OpenMode::CreateIfMissing);
            QVERIFY2(opened, qPrintable(opened.error().message));
            QVERIFY(QFileInfo::exists(s.manifestPath()));
            QVERIFY(QFileInfo(s.imagesDir()).isDir());
            QVERIFY(QFileInfo(s.thumbsDir()).isDir());
            QVERIFY(s.commit({doneFrame(QStringLiteral("a0000001")),
                doneFrame(QStringLiteral("b0000002"), QStringLiteral("a0000001"))}));
        }
        // A newer writer added fields we do not know, at the top level and in a frame.
        const QString manifest = tmp.filePath(QStringLiteral("manifest.json"));
        QJsonObject root = readJson(manifest);
        QCOMPARE(root.value(QStringLiteral("format")).toString(), QStringLiteral("nb2lite-session"));
        QCOMPARE(root.value(QStringLiteral("schema_version")).toInt(), 2);
        root.insert(QStringLiteral("future_top"), QJsonObject {{QStringLiteral("k"), QStringLiteral("v")}});
        QJsonArray frames = root.value(QStringLiteral("frames")).toArray();
        QJsonObject f0 = frames.at(0).toObject();
        f0.insert(QStringLiteral("future_frame_field"), 42);
        frames[0] = f0;
        root.insert(QStringLiteral("frames"), frames);
        test::writeFile(manifest, QJsonDocument(root).toJson());

        SessionStore s;
        QVERIFY(s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        Frame a = s.graph().value(QStringLiteral("a0000001"));
        QCOMPARE(a.extra.value(QStringLiteral("future_frame_field")).toInt(), 42);
        a.title = QStringLiteral("renamed");
        QVERIFY(s.commit({a}));
        // A change is a journal record; the manifest is its checkpoint (written when due, or asked for).
        QVERIFY(s.checkpoint());
        const QJsonObject after = readJson(manifest);
        QCOMPARE(after.value(QStringLiteral("future_top")).toObject().value(QStringLiteral("k")).toString(),
            QStringLiteral("v"));
        const QJsonObject af0 = after.value(QStringLiteral("frames")).toArray().at(0).toObject();
        QCOMPARE(af0.value(QStringLiteral("future_frame_field")).toInt(), 42);
        QCOMPARE(af0.value(QStringLiteral("title")).toString(), QStringLiteral("renamed"));
        QCOMPARE(s.graph().pathTo(QStringLiteral("b0000002")),
            (QStringList {QStringLiteral("a0000001"), QStringLiteral("b0000002")}));
        // No temp files left behind by the atomic replace.
        QCOMPARE(QDir(tmp.path()).entryList({QStringLiteral("manifest.json*")}, QDir::Files | QDir::Hidden),
            QStringList {QStringLiteral("manifest.json")});
    }

    void unreadableManifests_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("problem");
        QTest::newRow("truncated") << QByteArray("{\"format\":\"nb2lite-session\",\"schema_version\":1,\"fra")
                                   << "not valid JSON";
        QTest::newRow("empty") << QByteArray("") << "empty";
        QTest::newRow("array") << QByteArray("[1,2]") << "JSON object";
        QTest::newRow("other format") << QByteArray("{\"format\":\"x\",\"schema_version\":1,\"frames\":[]}")
                                      << "not an NB2Lite";
        QTest::newRow("newer schema") << QByteArray(
            "{\"format\":\"nb2lite-session\",\"schema_version\":99,\"frames\":[]}")
                                      << "newer";
        QTest::newRow("bad frame") << QByteArray("{\"format\":\"nb2lite-session\",\"schema_version\":1,\"frames\":[{"
                                                 "\"id\":\"x\",\"kind\":\"zzz\",\"status\":\"done\"}]}")
                                   << "frames[0]";
    }

    void unreadableManifests()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, problem);
        QTemporaryDir tmp;
        test::writeFile(tmp.filePath(QStringLiteral("manifest.json")), content);
        SessionStore s;
        const Result<void> opened = s.open(tmp.path(), SessionStore::OpenMode::OpenExisting);
        QVERIFY(!opened);
        const QString &err = opened.error().message;
        QVERIFY2(err.contains(QStringLiteral("manifest.json")), qPrintable(err));
        QVERIFY2(err.contains(problem), qPrintable(err));
        QCOMPARE(test::readFile(tmp.filePath(QStringLiteral("manifest.json"))), content); // untouched
    }

    void corruptManifestIsRebuiltFromJournalAndImages()
    {
        QTemporaryDir tmp;
        QStringList ids;
        {
            SessionController c; // imports and local edits need no API
            QVERIFY(c.open(tmp.path()));
            for (int i = 0; i < 3; ++i) {
                const QString file = test::writeFile(
                    tmp.filePath(QStringLiteral("src%1.png").arg(i)), test::pngBytes(QColor(i * 40, 0, 0)));
                const Result<QString> r = c.importImage(file);
                QVERIFY(r);
                ids.append(r.value());
            }
            QVERIFY(c.setTitle(ids.at(1), QStringLiteral("the middle one")));
            QVERIFY(c.setStarred(ids.at(2), true));
        }
        // An image no record mentions (copied in by hand, or its frame's record was lost).
        test::writeFile(tmp.filePath(QStringLiteral("images/gen_1767000000_0badc0de.jpg")), test::jpegBytes());
        const QByteArray broken("{\"format\": \"nb2lite-session\", \"frames\": [ {\"id\": ");
        test::writeFile(tmp.filePath(QStringLiteral("manifest.json")), broken);
        const QStringList imagesBefore = QDir(tmp.filePath(QStringLiteral("images"))).entryList(QDir::Files);

        SessionController c;
        const Result<void> opened = c.open(tmp.path());
        QVERIFY(!opened);
        const QString &err = opened.error().message;
        QVERIFY2(err.contains(QStringLiteral("manifest.json")) && err.contains(QStringLiteral("not valid JSON")),
            qPrintable(err));
        const Result<void> rebuilt = c.rebuild(tmp.path());
        QVERIFY2(rebuilt, qPrintable(rebuilt.error().message));
        for (const QString &id : std::as_const(ids))
            QVERIFY2(c.graph().contains(id), qPrintable(id));
        QCOMPARE(c.graph().value(ids.at(1)).title, QStringLiteral("the middle one"));
        QVERIFY(c.graph().value(ids.at(2)).starred);
        const Frame orphan = c.graph().value(QStringLiteral("0badc0de"));
        QCOMPARE(orphan.kind, FrameKind::Import);
        QCOMPARE(orphan.image.file, QStringLiteral("images/gen_1767000000_0badc0de.jpg"));
        QCOMPARE(c.graph().size(), 4);
        // Nothing deleted: every image is still there and the broken manifest was kept aside.
        QCOMPARE(QDir(tmp.filePath(QStringLiteral("images"))).entryList(QDir::Files), imagesBefore);
        const QStringList aside = QDir(tmp.path()).entryList({QStringLiteral("manifest.broken-*.json")}, QDir::Files);
        QCOMPARE(aside.size(), 1);
        QCOMPARE(test::readFile(tmp.filePath(aside.first())), broken);
        QVERIFY(test::checkInvariants(tmp.path()).isEmpty());
    }

    void missingManifestWithJournalRebuilds()
    {
        QTemporaryDir tmp;
        {
            SessionStore s;
            QVERIFY(s.open(tmp.path()));
            Frame f = doneFrame(QStringLiteral("c0000001"));
            f.status = FrameStatus::Pending;
            s.journal().beginTurn(f);
        }
        QFile::remove(tmp.filePath(QStringLiteral("manifest.json")));
        SessionStore s;
        const Result<void> opened = s.open(tmp.path(), SessionStore::OpenMode::CreateIfMissing);
        QVERIFY2(opened, qPrintable(opened.error().message));
        QVERIFY(s.graph().contains(QStringLiteral("c0000001")));
    }

    void imageFilesAreNamedByTheirBytes()
    {
        QTemporaryDir tmp;
        const QDateTime when = QDateTime::fromSecsSinceEpoch(1767000000, Qt::UTC);
        QCOMPARE(
            SessionStore::imageFileName(QStringLiteral("gen"), when, QStringLiteral("ab12cd34"), test::jpegBytes()),
            QStringLiteral("images/gen_1767000000_ab12cd34.jpg"));
        QCOMPARE(SessionStore::imageFileName(
                     QStringLiteral("edit_local"), when, QStringLiteral("ab12cd34"), test::pngBytes()),
            QStringLiteral("images/edit_local_1767000000_ab12cd34.png"));
        const QByteArray bytes = test::pngBytes(Qt::green, 30, 20);
        const Result<FrameImage> w = SessionStore::writeImageFile(tmp.path(), QStringLiteral("images/x.png"), bytes);
        QVERIFY(w);
        QCOMPARE(w.value().width, 30);
        QCOMPARE(w.value().height, 20);
        QCOMPARE(w.value().mimeType, QStringLiteral("image/png"));
        QCOMPARE(w.value().sha256, SessionStore::sha256Hex(bytes));
        QCOMPARE(test::readFile(tmp.filePath(QStringLiteral("images/x.png"))), bytes);
        QCOMPARE(QDir(tmp.filePath(QStringLiteral("images"))).entryList(QDir::Files | QDir::Hidden),
            QStringList {QStringLiteral("x.png")});
    }

    void onlyAnUnrecordedCopyIsRemoved()
    {
        // A refused or overtaken import deletes its own copy; nothing else of the session is
        // ever touched, whatever name it is handed.
        QTemporaryDir tmp;
        const QDir root(tmp.path());
        QVERIFY(root.mkpath(QStringLiteral("images/sub")));
        const QStringList kept {QStringLiteral("images/gen_1767000000_ab12cd34.jpg"),
            QStringLiteral("images/edit_1767000000_ab12cd34.png"), QStringLiteral("images/sub/import_1_a.png"),
            QStringLiteral("import_1_top.png"), QStringLiteral("manifest.json")};
        const QStringList copies {
            QStringLiteral("images/import_1767000000_ab12cd34.png"), QStringLiteral("images/input_1767000000_ef56.jpg")};
        for (const QString &name : kept + copies)
            test::writeFile(root.filePath(name), "x");
        QTemporaryDir outside;
        test::writeFile(QDir(outside.path()).filePath(QStringLiteral("import_1_out.png")), "x");

        for (const QString &name : kept)
            SessionStore::removeUnrecordedCopy(tmp.path(), name);
        SessionStore::removeUnrecordedCopy(tmp.path(), QStringLiteral("images/../import_1_top.png"));
        // tmp and outside are siblings, and images/import_ is a folder: this name leads into outside.
        QVERIFY(root.mkpath(QStringLiteral("images/import_")));
        const QString escaping
            = QStringLiteral("images/import_/../../../%1/import_1_out.png").arg(QFileInfo(outside.path()).fileName());
        QVERIFY(QFileInfo::exists(root.filePath(escaping)));
        SessionStore::removeUnrecordedCopy(tmp.path(), escaping);
        const QString cwd = QDir::currentPath();
        QVERIFY(QDir::setCurrent(tmp.path()));
        SessionStore::removeUnrecordedCopy(QString(), copies.first()); // no folder: not the working directory's
        QVERIFY(QDir::setCurrent(cwd));
        QVERIFY(QFileInfo::exists(root.filePath(copies.first())));
        for (const QString &name : kept)
            QVERIFY2(QFileInfo::exists(root.filePath(name)), qPrintable(name));
        QVERIFY(QFileInfo::exists(QDir(outside.path()).filePath(QStringLiteral("import_1_out.png"))));

        for (const QString &name : copies) {
            SessionStore::removeUnrecordedCopy(tmp.path(), name);
            QVERIFY2(!QFileInfo::exists(root.filePath(name)), qPrintable(name));
        }
    }

    void settingsTableValidates()
    {
        QTemporaryDir tmp;
        QSettings s(tmp.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        QCOMPARE(prefs::concurrencyLimit.read(s), 4);
        QVERIFY(!prefs::concurrencyLimit.write(s, 0));
        QVERIFY(prefs::concurrencyLimit.write(s, 3));
        QCOMPARE(prefs::concurrencyLimit.read(s), 3);
        s.setValue(QLatin1String(prefs::retentionPlan.key), QStringLiteral("forever")); // hand-edited
        QCOMPARE(prefs::retentionPlan.read(s), QStringLiteral("paid"));
        SessionSettings v = SessionSettings::load(s);
        QCOMPARE(v.concurrencyLimit, 3);
        QCOMPARE(v.retentionDays(), 55);
        v.retentionPlan = QStringLiteral("free");
        QCOMPARE(v.retentionDays(), 1);
        v.retentionPlan = QStringLiteral("custom");
        v.customRetentionDays = 7;
        v.save(s);
        QCOMPARE(SessionSettings::load(s).retentionDays(), 7);
        QCOMPARE(prefs::sessionKeys().size(), 9); // ... and the session budget
    }

    void twoProcessesWriteTheSameSession()
    {
        QTemporaryDir tmp;
        SessionStore s;
        QVERIFY(s.open(tmp.path()));
        QSignalSpy external(&s, &SessionStore::changedExternally);
        const QString image = test::writeFile(
            tmp.filePath(QStringLiteral("../ext_%1.png").arg(QCoreApplication::applicationPid())), test::pngBytes());
        QList<QProcess *> procs;
        for (int i = 0; i < 3; ++i) {
            auto *p = new QProcess(this);
            p->start(driver(),
                {QStringLiteral("--session"), tmp.path(), QStringLiteral("import"), image, QStringLiteral("--title"),
                    QStringLiteral("ext%1").arg(i)});
            procs.append(p);
        }
        // Meanwhile this process writes too; every write goes through the lock and merges.
        for (int i = 0; i < 10; ++i) {
            const Result<void> committed
                = s.commit({doneFrame(QStringLiteral("d00000%1").arg(i, 2, 10, QLatin1Char('0')))});
            QVERIFY2(committed, qPrintable(committed.error().message));
            QTest::qWait(20);
        }
        for (QProcess *p : procs) {
            QVERIFY(p->state() == QProcess::NotRunning || p->waitForFinished(30000));
            QVERIFY2(p->exitCode() == 0, p->readAllStandardError().constData());
        }
        QTRY_VERIFY_WITH_TIMEOUT(s.graph().size() == 13, 5000); // the watcher reloads the others' writes
        QVERIFY(external.count() >= 1);
        SessionStore fresh;
        QVERIFY(fresh.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        QCOMPARE(fresh.graph().size(), 13);
        QStringList titles;
        for (const Frame &f : fresh.graph().frames())
            if (f.kind == FrameKind::Import)
                titles.append(f.title);
        titles.sort();
        QCOMPARE(titles, (QStringList {QStringLiteral("ext0"), QStringLiteral("ext1"), QStringLiteral("ext2")}));
        QFile::remove(image);
        qDeleteAll(procs);
    }

    void watcherSignalsOtherProcessChanges()
    {
        QTemporaryDir tmp;
        SessionController c;
        QVERIFY(c.open(tmp.path()));
        QSignalSpy external(&c, &SessionController::changedExternally);
        QSignalSpy added(&c, &SessionController::frameAdded);
        const QString image = test::writeFile(
            tmp.filePath(QStringLiteral("../w_%1.png").arg(QCoreApplication::applicationPid())), test::pngBytes());
        QProcess p;
        p.start(driver(), {QStringLiteral("--session"), tmp.path(), QStringLiteral("import"), image});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(external.wait(5000) || external.count() > 0);
        QCOMPARE(added.count(), 1);
        QCOMPARE(c.graph().size(), 1);
        QFile::remove(image);
    }

    void emptyLockFileOfAKilledWriterIsStale()
    {
        QTemporaryDir tmp;
        {
            SessionStore s;
            QVERIFY(s.open(tmp.path()));
        }
        // Killed between creating the lock file and writing its pid: an empty, old lock file.
        const QString lock = tmp.filePath(QStringLiteral("session.lock"));
        test::writeFile(lock, QByteArray());
        QFile f(lock);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(-10), QFileDevice::FileModificationTime));
        f.close();
        SessionStore s;
        s.setLockTimeoutMs(5000);
        QVERIFY(s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        const Result<void> committed = s.commit({doneFrame(QStringLiteral("e0000001"))});
        QVERIFY2(committed, qPrintable(committed.error().message));
    }

    void copiedFolderIsAWorkingSession()
    {
        QTemporaryDir a, b;
        QString id;
        {
            SessionController c;
            QVERIFY(c.open(a.path()));
            const QString file = test::writeFile(a.filePath(QStringLiteral("src.png")), test::pngBytes());
            const Result<QString> r = c.importImage(file);
            QVERIFY(r);
            id = r.value();
            QFile::remove(file);
        }
        // Copy every file to another place (as a user would with a file manager).
        const QStringList entries {QStringLiteral("manifest.json"), QStringLiteral("journal.jsonl")};
        for (const QString &e : entries)
            QVERIFY(QFile::copy(a.filePath(e), b.filePath(e)));
        QDir().mkpath(b.filePath(QStringLiteral("images")));
        for (const QString &img : QDir(a.filePath(QStringLiteral("images"))).entryList(QDir::Files))
            QVERIFY(
                QFile::copy(a.filePath(QStringLiteral("images/") + img), b.filePath(QStringLiteral("images/") + img)));
        SessionStore s;
        QVERIFY(s.open(b.path(), SessionStore::OpenMode::OpenExisting));
        QVERIFY(s.absolutePath(s.graph().value(id).image.file).startsWith(b.path()));
        QVERIFY(test::checkInvariants(b.path()).isEmpty());
        QVERIFY(!test::readFile(a.filePath(QStringLiteral("manifest.json"))).contains(a.path().toUtf8()));
    }

    void lockSerialisesWriters()
    {
        QTemporaryDir tmp;
        {
            SessionStore s;
            QVERIFY(s.open(tmp.path()));
        }
        const QString image = test::writeFile(
            tmp.filePath(QStringLiteral("../l_%1.png").arg(QCoreApplication::applicationPid())), test::pngBytes());
        QLockFile held(tmp.filePath(QStringLiteral("session.lock")));
        QVERIFY(held.tryLock(0));
        // Short timeout: the writer gives up with a clear message and changes nothing.
        QProcess quick;
        quick.start(driver(),
            {QStringLiteral("--session"), tmp.path(), QStringLiteral("import"), image, QStringLiteral("--lock-timeout"),
                QStringLiteral("300")});
        QVERIFY(quick.waitForFinished(30000));
        QVERIFY(quick.exitCode() != 0);
        QVERIFY2(quick.readAllStandardError().contains("locked"), "expected a lock message");
        // Long timeout: the writer waits for the lock and then succeeds.
        QProcess patient;
        patient.start(driver(),
            {QStringLiteral("--session"), tmp.path(), QStringLiteral("import"), image, QStringLiteral("--lock-timeout"),
                QStringLiteral("20000")});
        QVERIFY(patient.waitForStarted());
        QVERIFY(!patient.waitForFinished(1000)); // still waiting for us
        held.unlock();
        QVERIFY(patient.waitForFinished(30000));
        QVERIFY2(patient.exitCode() == 0, patient.readAllStandardError().constData());
        SessionStore s;
        QVERIFY(s.open(tmp.path(), SessionStore::OpenMode::OpenExisting));
        QCOMPARE(s.graph().size(), 1);
        QFile::remove(image);
    }
};

QTEST_GUILESS_MAIN(tst_SessionStore)
#include "tst_sessionstore.moc"
