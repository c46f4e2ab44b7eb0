#include "controllerfixture.h"
#include "core/session/journal.h"
#include "core/session/sessionstore.h"
#include "sessiontestutil.h"

#include <QFileInfo>
#include <QLockFile>
#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>

using namespace nb2;

/**
 * SessionController against the in-process fake API: turns, statuses, queueing, imports, undo.
 * Re-anchoring, recovery and retention: tst_sessionrecovery.cpp.
 */
class tst_SessionController : public test::ControllerFixture
{
    Q_OBJECT

private Q_SLOTS: // init and cleanup: ControllerFixture
    void aTurnWithFramesOnDemandBuildsOnlyWhatItReads()
    {
        // What a CLI turn opens with (SessionStore::setFramesOnDemand()): an edit of the head of
        // a session of 60 frames builds the frames it reads (the parent, the pending frames'
        // owners), not the session, and leaves the same session as an ordinary open would.
        {
            SessionController c;
            openController(c);
            QString head = finish(c, c.generate(p("a harbour"))).id;
            for (int i = 0; i < 59; ++i) {
                const Frame e = finish(c, c.edit(head, p("one more boat")));
                QCOMPARE(e.status, FrameStatus::Done);
                head = e.id;
            }
            QVERIFY(c.store()->checkpoint()); // every frame in manifest.json: the checkpoint is read on demand
        }
        SessionStore::setFramesOnDemand(true);
        struct Restore {
            ~Restore() { SessionStore::setFramesOnDemand(false); }
        } restore;
        SessionController c;
        SessionSettings cli; // as a CLI turn opens: recovery of the whole session is `nb2lite recover`'s
        cli.recoverOnOpen = false;
        openController(c, cli);
        QVERIFY(c.graph().onDemand());
        const Result<QString> head = c.resolveFrameRef(QStringLiteral("head"));
        QVERIFY(head);
        const Frame e = finish(c, c.edit(head.value(), p("a lantern on the pier")));
        QCOMPARE(e.status, FrameStatus::Done);
        QCOMPARE(e.parentId, head.value());
        QVERIFY(c.graph().onDemand());
        QVERIFY2(c.graph().framesBuiltOnDemand() <= 3, qPrintable(QString::number(c.graph().framesBuiltOnDemand())));
        QCOMPARE(c.graph().size(), 61);
        const QList<Frame> onDemand = c.graph().frames(); // built now, all of them
        c.close();
        SessionStore::setFramesOnDemand(false);
        SessionController plain;
        openController(plain);
        QVERIFY(!plain.graph().onDemand());
        QCOMPARE(plain.graph().frames().size(), onDemand.size());
        for (qsizetype i = 0; i < onDemand.size(); ++i)
            QCOMPARE(plain.graph().frames().at(i).toJson(), onDemand.at(i).toJson());
    }

    void generateAndEditWriteFilesManifestAndJournal()
    {
        SessionController c;
        openController(c);
        QSignalSpy added(&c, &SessionController::frameAdded);
        const Frame g = finish(c, c.generate(p("a red fox")));
        QCOMPARE(g.status, FrameStatus::Done);
        QCOMPARE(added.count(), 1);
        QVERIFY(!g.interactionId.isEmpty());
        QVERIFY(QRegularExpression(QStringLiteral("^images/gen_\\d{10}_%1\\.(jpg|png|webp)$").arg(g.id))
                    .match(g.image.file)
                    .hasMatch());
        const QByteArray bytes = test::readFile(c.store()->absolutePath(g.image.file));
        QCOMPARE(SessionStore::sha256Hex(bytes), g.image.sha256);
        QCOMPARE(sniffImageMimeType(bytes), g.image.mimeType);
        QVERIFY(g.image.width > 0 && g.image.height > 0);
        QVERIFY(qAbs(g.idExpiresAt.secsTo(QDateTime::currentDateTimeUtc().addDays(55))) < 120);
        QCOMPARE(g.attempts, 1);

        const Frame e = finish(c, c.edit(g.id, p("make it blue")));
        QCOMPARE(e.status, FrameStatus::Done);
        QCOMPARE(e.kind, FrameKind::Edit);
        QCOMPARE(e.parentId, g.id);
        QCOMPARE(e.continuedInteractionId, g.interactionId);
        QVERIFY(e.image.file.startsWith(QStringLiteral("images/edit_")));
        const QList<FakeRequest> creates = requestsMatching(QStringLiteral("POST"), QStringLiteral("/interactions"));
        QCOMPARE(creates.size(), 2);
        QVERIFY(creates.last().body.contains(g.interactionId.toUtf8()));

        // Journal: a commit record (the frame table's write path) before each request record,
        // and begin, id, end for each turn, in that order.
        const QList<QJsonObject> recs = Journal::readAll(c.store()->journalPath());
        QStringList ops;
        for (const QJsonObject &r : recs)
            ops.append(r.value(QStringLiteral("op")).toString());
        QCOMPARE(ops.first(), QStringLiteral("commit")); // the pending frame is recorded before "begin"
        QCOMPARE(ops.indexOf(QStringLiteral("commit"), ops.indexOf(QStringLiteral("id")))
                < ops.indexOf(QStringLiteral("end")),
            true);
        ops.removeAll(QStringLiteral("commit"));
        QCOMPARE(ops,
            (QStringList {QStringLiteral("begin"), QStringLiteral("id"), QStringLiteral("end"), QStringLiteral("begin"),
                QStringLiteral("id"), QStringLiteral("end")}));

        // Another store sees the same thing on disk (relative paths).
        SessionStore other;
        QVERIFY(other.open(m_tmp->path(), SessionStore::OpenMode::OpenExisting));
        QCOMPARE(other.graph().value(e.id).toJson(), e.toJson());
        QVERIFY(test::checkInvariants(m_tmp->path()).isEmpty());
    }

    void editOfFrameWithChildrenNeedsExplicitBranch()
    {
        SessionController c;
        openController(c);
        const Frame g = finish(c, c.generate(p("root")));
        const Frame e1 = finish(c, c.edit(g.id, p("first")));
        QCOMPARE(e1.status, FrameStatus::Done);
        const int before = c.graph().size();
        const int requestsBefore = m_fake->requests().size();
        const Result<QString> refused = c.edit(g.id, p("second"));
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind, ErrorKind::Conflict);
        QVERIFY2(refused.error().message.contains(QStringLiteral("branchFrom")), qPrintable(refused.error().message));
        QCOMPARE(c.graph().size(), before);
        QCOMPARE(m_fake->requests().size(), requestsBefore);

        QSignalSpy branched(&c, &SessionController::branchCreated);
        const Frame b = finish(c, c.branchFrom(g.id, p("second")));
        QCOMPARE(b.status, FrameStatus::Done);
        QCOMPARE(branched.count(), 1);
        QCOMPARE(branched.first().at(0).toString(), g.id);
        QCOMPARE(c.graph().branches().size(), 2);
        QCOMPARE(c.graph().heads(), (QStringList {e1.id, b.id}));
        // Continuing a head needs no branch.
        QVERIFY(c.edit(b.id, p("third")));
        QVERIFY(c.waitForIdle(20000));
    }

    void refusedChildIsNoContinuation()
    {
        // A text-only refusal leaves the parent without a continuation: rephrasing from it is
        // an edit, not a forced branch (TurnPlanner::countsAsContinuation).
        SessionController c;
        openController(c);
        const Frame g = finish(c, c.generate(p("root")));
        FakeFault refusal;
        refusal.kind = FakeFault::Kind::TextOnlyRefusal;
        m_fake->injectFault(refusal, 1);
        const Frame refused = finish(c, c.edit(g.id, p("something refused")));
        QCOMPARE(refused.status, FrameStatus::Failed);
        QCOMPARE(refused.error.kind, QStringLiteral("no_image"));
        const Frame rephrased = finish(c, c.edit(g.id, p("something allowed")));
        QCOMPARE(rephrased.status, FrameStatus::Done);
        QCOMPARE(rephrased.parentId, g.id);
        // A finished child does count: the next edit from the root must branch on purpose.
        const Result<QString> again = c.edit(g.id, p("third"));
        QVERIFY(!again);
        QCOMPARE(again.error().kind, ErrorKind::Conflict);
    }

    void failedThenRetried()
    {
        SessionController c;
        openController(c);
        FakeFault fault;
        fault.kind = FakeFault::Kind::ServerErrorJson;
        m_fake->injectFault(fault, 1);
        QSignalSpy failed(&c, &SessionController::turnFailed);
        const Frame f = finish(c, c.generate(p("x")));
        QCOMPARE(f.status, FrameStatus::Failed);
        QCOMPARE(f.error.kind, QStringLiteral("server"));
        QCOMPARE(f.error.httpStatus, 500);
        QCOMPARE(failed.count(), 1);
        // Done is terminal, failed may be retried: same frame, attempts accumulate.
        const Frame r = finish(c, c.retry(f.id));
        QCOMPARE(r.id, f.id);
        QCOMPARE(r.status, FrameStatus::Done);
        QCOMPARE(r.attempts, 2);
        QVERIFY(r.error.isEmpty());
        QVERIFY(!c.retry(f.id)); // done -> pending is not allowed
    }

    void textOnlyAnswerFailsWithModelText()
    {
        SessionController c;
        openController(c);
        FakeFault fault;
        fault.kind = FakeFault::Kind::TextOnlyRefusal;
        m_fake->injectFault(fault, 1);
        const Frame f = finish(c, c.generate(p("x")));
        QCOMPARE(f.status, FrameStatus::Failed);
        QCOMPARE(f.error.kind, QStringLiteral("no_image"));
        QVERIFY(!f.modelText.isEmpty());
        QVERIFY(f.image.isNull());
    }

    void cancelRunningAndQueued()
    {
        SessionController c;
        SessionSettings s;
        s.concurrencyLimit = 1;
        openController(c, s);
        m_fake->setLatencyMs(3000);
        const Result<QString> a = c.generate(p("slow one"));
        const Result<QString> b = c.generate(p("queued one"));
        QVERIFY(a && b);
        QCOMPARE(c.runningCount(), 1);
        QCOMPARE(c.queuedCount(), 1);
        QVERIFY(c.cancel(b.value()));
        QCOMPARE(c.graph().value(b.value()).status, FrameStatus::Cancelled);
        QVERIFY(c.cancel(a.value()));
        QElapsedTimer t;
        t.start();
        QVERIFY(c.waitForIdle(10000));
        QVERIFY2(t.elapsed() < 2500, "cancel should abort the call in flight");
        QCOMPARE(c.graph().value(a.value()).status, FrameStatus::Cancelled);
        m_fake->setLatencyMs(0);
        const Frame r = finish(c, c.retry(b.value()));
        QCOMPARE(r.status, FrameStatus::Done);
    }

    void concurrencyLimitQueuesTheRest()
    {
        SessionController c;
        SessionSettings s;
        s.concurrencyLimit = 2;
        openController(c, s);
        m_fake->setLatencyMs(300);
        m_fake->resetPeakConcurrentRequests();
        QStringList ids;
        for (int i = 0; i < 5; ++i) {
            const Result<QString> r = c.generate(TurnParams {QStringLiteral("n%1").arg(i), {}, {}, false, {}});
            QVERIFY(r);
            ids.append(r.value());
        }
        QCOMPARE(c.runningCount(), 2);
        QCOMPARE(c.queuedCount(), 3);
        QVERIFY(c.waitForIdle(30000));
        // The limit is on requests at the server (a turn writing its image no longer holds a slot).
        QCOMPARE(m_fake->peakConcurrentRequests(), 2);
        for (const QString &id : ids)
            QCOMPARE(c.graph().value(id).status, FrameStatus::Done);
    }

    void queuedTurnStartsOnceTheAnswerBeforeItIsIn()
    {
        // Concurrency 1: the second request leaves as soon as the first answer is in, while the
        // first turn still makes its image durable; the first frame is done only after that.
        SessionController c;
        SessionSettings s;
        s.concurrencyLimit = 1;
        openController(c, s);
        m_fake->setLatencyMs(200);
        QStringList events;
        connect(&c, &SessionController::turnStarted, this,
            [&](const QString &id) { events << QStringLiteral("started ") + id; });
        connect(&c, &SessionController::turnFinished, this, [&](const QString &id) {
            events << QStringLiteral("finished ") + id;
            QVERIFY(c.graph().value(id).isDone());
            QVERIFY(QFileInfo(c.store()->absolutePath(c.graph().value(id).image.file)).size() > 0);
        });
        const Result<QString> a = c.generate(p("first"));
        const Result<QString> b = c.generate(p("second"));
        QVERIFY(a && b);
        QVERIFY(c.waitForIdle(20000));
        QCOMPARE(events,
            (QStringList {QStringLiteral("started ") + a.value(), QStringLiteral("started ") + b.value(),
                QStringLiteral("finished ") + a.value(), QStringLiteral("finished ") + b.value()}));
        QCOMPARE(m_fake->peakConcurrentRequests(), 1);
    }

    void queuedTurnWaitsOnlyForItsOwnPendingWrite()
    {
        // A queued turn needs the write that lists its own pending frame, not the writes that
        // other turns queued since (their ids, their results). With the session lock held after
        // both pending frames are on disk, the writer cannot write anything more, and the
        // second request still leaves when the first answer is in.
        SessionController c;
        SessionSettings s;
        s.concurrencyLimit = 1;
        s.lockTimeoutMs = 60000;
        openController(c, s);
        m_fake->setLatencyMs(400);
        const int requestsBefore = int(m_fake->requests().size());
        const Result<QString> a = c.generate(p("first"));
        const Result<QString> b = c.generate(p("second"));
        QVERIFY(a && b);
        QVERIFY(c.store()->flush()); // both pending frames listed on disk
        QLockFile held(c.store()->lockPath());
        QVERIFY(held.tryLock(0));
        QTRY_COMPARE_WITH_TIMEOUT(int(m_fake->requests().size()), requestsBefore + 2, 10000);
        held.unlock();
        QVERIFY(c.waitForIdle(20000));
        QVERIFY(c.graph().value(a.value()).isDone());
        QVERIFY(c.graph().value(b.value()).isDone());
    }

    void manifestThenJournalThenRequestWhileTheLockIsHeld()
    {
        // Disk work runs on the store's writer: generate() returns at once even while another
        // process holds the lock, but nothing is journaled or sent before the manifest lists the frame.
        SessionController c;
        openController(c);
        const int requestsBefore = int(m_fake->requests().size());
        QLockFile held(c.store()->lockPath());
        QVERIFY(held.tryLock(0));
        const Result<QString> r = c.generate(p("waits for the lock"));
        QVERIFY(r);
        QVERIFY(c.graph().value(r.value()).isPending()); // the in-memory graph has it at once
        QTest::qWait(300);                               // a negative check: give a wrongly ordered worker time to send
        QCOMPARE(int(m_fake->requests().size()), requestsBefore);
        QVERIFY(!Journal::replay(c.store()->journalPath()).frames.contains(r.value()));
        SessionStore reader;
        QVERIFY(reader.open(m_tmp->path(), SessionStore::OpenMode::OpenExisting));
        QVERIFY(!reader.graph().contains(r.value()));
        reader.close();
        held.unlock();
        QVERIFY(c.waitForIdle(20000));
        QCOMPARE(c.graph().value(r.value()).status, FrameStatus::Done);
        QCOMPARE(int(m_fake->requests().size()), requestsBefore + 1);
        const Journal::Replay replay = Journal::replay(c.store()->journalPath());
        QVERIFY(replay.frames.contains(r.value()));
        QVERIFY(!replay.openTurns.contains(r.value()));
        SessionStore after;
        QVERIFY(after.open(m_tmp->path(), SessionStore::OpenMode::OpenExisting));
        QCOMPARE(after.graph().value(r.value()).status, FrameStatus::Done);
    }

    void interactionIdJournaledWhileRunning()
    {
        SessionController c;
        openController(c);
        m_fake->setLatencyMs(1500);
        const Result<QString> r = c.generate(p("slow"));
        QVERIFY(r);
        QTRY_VERIFY_WITH_TIMEOUT(!c.graph().value(r.value()).interactionId.isEmpty(), 5000);
        QVERIFY(c.graph().value(r.value()).isPending());
        const Journal::Replay replay = Journal::replay(c.store()->journalPath());
        QVERIFY(replay.openTurns.contains(r.value()));
        QCOMPARE(replay.interactionIds.value(r.value()), c.graph().value(r.value()).interactionId);
        QVERIFY(c.waitForIdle(20000));
        QCOMPARE(c.graph().value(r.value()).status, FrameStatus::Done);
        QVERIFY(!Journal::replay(c.store()->journalPath()).openTurns.contains(r.value()));
    }

    void editLocalStyleAndImport()
    {
        SessionController c;
        openController(c);
        const QString png = test::writeFile(
            m_tmp->filePath(QStringLiteral("../in_%1.jpg").arg(QCoreApplication::applicationPid())), test::pngBytes());
        const int before = m_fake->requests().size();
        const Result<QString> imp = c.importImage(png);
        QVERIFY(imp);
        QCOMPARE(m_fake->requests().size(), before); // import never calls the API
        const Frame i = c.graph().value(imp.value());
        QCOMPARE(i.status, FrameStatus::Done);
        QVERIFY2(i.image.file.endsWith(QStringLiteral(".png")), qPrintable(i.image.file)); // extension of the bytes
        QVERIFY(i.image.file.startsWith(QStringLiteral("images/import_")));

        const Frame el = finish(c, c.editLocal(i.id, {}, p("sharper")));
        QCOMPARE(el.status, FrameStatus::Done);
        QCOMPARE(el.inputImages, QStringList {i.image.file});
        QVERIFY(el.image.file.startsWith(QStringLiteral("images/edit_local_")));

        const Frame root = finish(c, c.editLocal({}, png, p("from a file")));
        QCOMPARE(root.status, FrameStatus::Done);
        QVERIFY(root.parentId.isEmpty());
        QVERIFY(root.inputImages.first().startsWith(QStringLiteral("images/input_")));
        QVERIFY(QFileInfo::exists(c.store()->absolutePath(root.inputImages.first())));

        const Frame st = finish(c, c.styleEdit(el.id, {}, png, p("in this style")));
        QCOMPARE(st.status, FrameStatus::Done);
        QCOMPARE(st.inputImages.size(), 2);
        QCOMPARE(st.inputImages.at(1), el.image.file);
        QVERIFY(st.image.file.startsWith(QStringLiteral("images/style_edit_")));
        QFile::remove(png);

        const Result<QString> bad = c.importImage(m_tmp->filePath(QStringLiteral("nope.png")));
        QVERIFY(!bad);
        QVERIFY(!bad.error().message.isEmpty());
        QVERIFY(test::checkInvariants(m_tmp->path()).isEmpty());
    }

    void importOfAPictureAWorkerStored()
    {
        // The GUI writes the picture on a worker and only records the frame on its own thread.
        SessionController c;
        openController(c);
        const QDateTime when = QDateTime::currentDateTimeUtc();
        const QString rel
            = SessionStore::imageFileName(QStringLiteral("import"), when, Frame::newId(), test::pngBytes());
        const Result<FrameImage> stored = SessionStore::writeImageFile(c.store()->dir(), rel, test::pngBytes());
        QVERIFY(stored);
        ImportOptions options;
        options.title = QStringLiteral("dropped.png");
        const Result<QString> id = c.importStoredImage(stored.value(), when, options);
        QVERIFY(id);
        const Frame f = c.graph().value(id.value());
        QCOMPARE(f.kind, FrameKind::Import);
        QCOMPARE(f.status, FrameStatus::Done);
        QCOMPARE(f.image.file, rel);
        QCOMPARE(f.image.sha256, SessionStore::sha256Hex(test::pngBytes()));
        QCOMPARE(f.title, QStringLiteral("dropped.png"));
        QVERIFY(c.store()->flush());
        QVERIFY(test::checkInvariants(m_tmp->path()).isEmpty());

        // Nothing stored: refused, nothing added.
        const int frames = c.graph().size();
        QVERIFY(!c.importStoredImage(FrameImage(), when, options));
        QCOMPARE(c.graph().size(), frames);
    }

    void invalidInputAddsNothing()
    {
        SessionController c;
        openController(c);
        const Result<QString> r = c.generate(p(""));
        QVERIFY(!r);
        QCOMPARE(r.error().kind, ErrorKind::InvalidInput);
        QCOMPARE(c.graph().size(), 0);
        QVERIFY(!c.edit(QStringLiteral("nosuch"), p("x")));
        QCOMPARE(m_fake->requests().size(), 0);
    }

    void undoRedoOfLocalOpsNeverCallsTheApi()
    {
        SessionController c;
        openController(c);
        const Frame a = finish(c, c.generate(p("a")));
        const Frame b = finish(c, c.edit(a.id, p("b")));
        const Frame d = finish(c, c.editLocal(b.id, {}, p("d")));
        m_fake->clearRequests();
        QUndoStack *u = c.undoStack();

        QVERIFY(c.setTitle(a.id, QStringLiteral("Fox")));
        QVERIFY(c.setStarred(b.id, true));
        QVERIFY(c.setNote(b.id, QStringLiteral("keep")));
        const Result<void> deleted = c.deleteFrame(b.id);
        QVERIFY2(deleted, qPrintable(deleted.error().message)); // b and d to the trash
        QVERIFY(c.graph().value(b.id).isTrashed());
        QVERIFY(c.graph().value(d.id).isTrashed());
        QCOMPARE(c.graph().heads(), QStringList {a.id});
        QCOMPARE(u->count(), 4);

        for (int i = 0; i < 4; ++i)
            u->undo();
        QCOMPARE(c.graph().value(a.id).title, QString());
        QVERIFY(!c.graph().value(b.id).starred);
        QVERIFY(!c.graph().value(d.id).isTrashed());
        for (int i = 0; i < 4; ++i)
            u->redo();
        QCOMPARE(c.graph().value(a.id).title, QStringLiteral("Fox"));
        QCOMPARE(c.graph().value(b.id).note, QStringLiteral("keep"));
        QVERIFY(c.graph().value(d.id).isTrashed());

        QVERIFY(c.restoreFrame(d.id));
        QVERIFY(!c.graph().value(d.id).isTrashed());
        QVERIFY(!c.graph().value(b.id).isTrashed());
        u->undo();
        QVERIFY(c.graph().value(d.id).isTrashed());
        QCOMPARE(m_fake->requests().size(), 0);

        // Persisted: a fresh store reads the same user fields (once the writer has written them).
        QVERIFY(c.store()->flush());
        SessionStore other;
        QVERIFY(other.open(m_tmp->path(), SessionStore::OpenMode::OpenExisting));
        QCOMPARE(other.graph().value(a.id).title, QStringLiteral("Fox"));
        QVERIFY(other.graph().value(b.id).isTrashed());
    }

    void emptyTrashDeletesOnlyUnusedFiles()
    {
        SessionController c;
        openController(c);
        const Frame a = finish(c, c.generate(p("a")));
        const Frame l = finish(c, c.editLocal(a.id, {}, p("local"))); // uses a's image as input
        const Frame b = finish(c, c.branchFrom(a.id, p("b")));
        QVERIFY(c.deleteBranch(l.id));
        QVERIFY(c.graph().value(l.id).isTrashed());
        QVERIFY(!c.graph().value(a.id).isTrashed()); // shared with b's branch
        // Still restorable: nothing deleted before emptying the trash.
        QVERIFY(QFileInfo::exists(c.store()->absolutePath(l.image.file)));
        // Cached thumbnails as the window names them: l's go with its picture, a's stay (its
        // picture stays), and a file the cache did not name is left alone.
        const auto thumb = [&](const Frame &f, int side) {
            return c.store()->thumbsDir() + QLatin1Char('/')
                + SessionStore::thumbnailPrefix(c.store()->absolutePath(f.image.file)) + QString::number(side)
                + QStringLiteral(".png");
        };
        const QString other = c.store()->thumbsDir() + QLatin1Char('/') + l.id + QStringLiteral("_note.png");
        for (const QString &path : {thumb(l, 103), thumb(l, 206), thumb(a, 103), other}) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("png");
        }
        QSignalSpy removed(&c, &SessionController::framesRemoved);
        QVERIFY(c.emptyTrash());
        QVERIFY(c.store()->flush()); // the files go on the writer, after the manifest write
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed.first().at(0).toStringList(), QStringList {l.id});
        QVERIFY(!QFileInfo::exists(thumb(l, 103)));
        QVERIFY(!QFileInfo::exists(thumb(l, 206)));
        QVERIFY(QFileInfo::exists(thumb(a, 103)));
        QVERIFY(QFileInfo::exists(other));
        QVERIFY(!c.graph().contains(l.id));
        QVERIFY(!QFileInfo::exists(c.store()->absolutePath(l.image.file)));
        QVERIFY(QFileInfo::exists(c.store()->absolutePath(a.image.file))); // l's input, but a still uses it
        QVERIFY(QFileInfo::exists(c.store()->absolutePath(b.image.file)));
        QCOMPARE(c.undoStack()->count(), 0);
        QVERIFY(test::checkInvariants(m_tmp->path()).isEmpty());

        // A pending frame cannot be deleted.
        m_fake->setLatencyMs(1000);
        const Result<QString> slow = c.edit(b.id, p("slow"));
        QVERIFY(slow);
        const Result<void> refused = c.deleteFrame(slow.value());
        QVERIFY(!refused);
        QVERIFY(refused.error().message.contains(QStringLiteral("running")));
        QVERIFY(c.waitForIdle(20000));
    }

    void resolveReferences()
    {
        SessionController c;
        openController(c);
        const Frame a = finish(c, c.generate(p("a")));
        const Frame b = finish(c, c.edit(a.id, p("b")));
        QCOMPARE(c.resolveFrameRef(QStringLiteral("head")).value(), b.id);
        QCOMPARE(c.resolveFrameRef(a.id.left(6)).value(), a.id);
        QVERIFY(!c.resolveFrameRef(QStringLiteral("zzzz")));
    }
};

QTEST_GUILESS_MAIN(tst_SessionController)
#include "tst_sessioncontroller.moc"
