#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/editfinisher.h"
#include "core/session/keeplist.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QUndoStack>
#include <QtTest>

using namespace nb2;

/**
 * Issue 13: the keep-list of a branch (stored on a frame, in force for its descendants, the
 * exact text sent recorded as prompt_sent and checked in the fake server's request log) and
 * the EditFinisher that measures drift after every edit the window makes, on a worker.
 */
class tst_KeepList : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeServer> m_fake;
    std::unique_ptr<QTemporaryDir> m_tmp;

    void openController(SessionController &c)
    {
        ClientConfig cfg;
        cfg.baseUrl = m_fake->baseUrl();
        cfg.apiKey = ApiKey(QStringLiteral("test-key"), QStringLiteral("test"));
        cfg.maxRetries = 0;
        cfg.readTimeoutMs = 20000;
        c.setClient(std::make_shared<InteractionsClient>(cfg));
        const Result<void> opened = c.open(m_tmp->path());
        QVERIFY2(opened, qPrintable(opened.error().message));
        QVERIFY(c.waitForIdle(10000));
    }

    static Frame finish(SessionController &c, const Result<QString> &r)
    {
        if (!r)
            qWarning() << "turn refused:" << r.error().message;
        if (!r)
            return {};
        c.waitForIdle(20000);
        return c.graph().value(r.value());
    }

    static TurnParams p(const QString &prompt, bool fork = false) { return TurnParams {prompt, {}, {}, fork, {}}; }

    static void collectStrings(const QJsonValue &v, QStringList *out)
    {
        if (v.isString())
            out->append(v.toString());
        else if (v.isArray())
            for (const QJsonValue &x : v.toArray())
                collectStrings(x, out);
        else if (v.isObject())
            for (const QJsonValue &x : v.toObject())
                collectStrings(x, out);
    }

    /** Every string value in the body of the last POST /interactions the fake received. */
    QStringList lastCreateStrings() const
    {
        QByteArray body;
        for (const FakeRequest &r : m_fake->requests())
            if (r.method == QLatin1String("POST") && r.path.contains(QLatin1String("/interactions")))
                body = r.body;
        QStringList out;
        collectStrings(QJsonDocument::fromJson(body).object(), &out);
        return out;
    }

private Q_SLOTS:
    void init()
    {
        m_fake = std::make_unique<FakeServer>();
        QVERIFY(m_fake->start(0));
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
    }

    void cleanup()
    {
        m_fake.reset();
        m_tmp.reset();
    }

    void cleanedIsBoundedAndOneLinePerItem()
    {
        QStringList many;
        for (int i = 0; i < 40; ++i)
            many << QStringLiteral("item %1").arg(i);
        QCOMPARE(KeepList::cleaned(many).size(), KeepList::kMaxItems);
        const QStringList c = KeepList::cleaned({QStringLiteral("  keep\nthe   face "), QString(),
            QStringLiteral("KEEP THE FACE"), QString(500, QLatin1Char('x'))});
        QCOMPARE(c.size(), 2);
        QCOMPARE(c.at(0), QStringLiteral("keep the face"));
        QCOMPARE(c.at(1).size(), KeepList::kMaxItemLength);
    }

    void promptToSendAppendsAVisibleBlock()
    {
        QCOMPARE(
            KeepList::promptToSend(QStringLiteral("make the sky orange"), {}), QStringLiteral("make the sky orange"));
        QCOMPARE(KeepList::promptToSend(QStringLiteral("make the sky orange "),
                     {QStringLiteral("keep the face"), QStringLiteral("same framing")}),
            QStringLiteral(
                "make the sky orange\n\nKeep-list (respect in this edit):\n- keep the face\n- same framing"));
    }

    void keepListIsInheritedByForksAndSentExactly()
    {
        SessionController c;
        openController(c);
        const Frame root = finish(c, c.generate(p(QStringLiteral("a portrait with a label"))));
        QCOMPARE(root.status, FrameStatus::Done);
        QVERIFY(root.promptSent.isEmpty()); // generations carry no keep-list

        QVERIFY(c.setKeepList(root.id, {QStringLiteral("keep the face"), QStringLiteral("keep the label text")}));
        QCOMPARE(KeepList::effective(c.graph(), root.id).setOn, root.id);

        const Frame a = finish(c, c.edit(root.id, p(QStringLiteral("make the sky orange"))));
        QCOMPARE(a.status, FrameStatus::Done);
        QCOMPARE(a.prompt, QStringLiteral("make the sky orange"));
        const QString expectedA = QStringLiteral(
            "make the sky orange\n\nKeep-list (respect in this edit):\n- keep the face\n- keep the label text");
        QCOMPARE(a.promptSent, expectedA);
        QVERIFY2(lastCreateStrings().contains(expectedA),
            "the fake server must receive the prompt with the keep-list block");
        QVERIFY(!lastCreateStrings().contains(QStringLiteral("make the sky orange")));

        // A branch forked from the root inherits the root's list; a list set on the branch head overrides it there only.
        const Frame b = finish(c, c.edit(root.id, p(QStringLiteral("add a hat"), true)));
        QCOMPARE(b.status, FrameStatus::Done);
        QCOMPARE(KeepList::effective(c.graph(), b.id).items,
            (QStringList {QStringLiteral("keep the face"), QStringLiteral("keep the label text")}));
        QCOMPARE(KeepList::effective(c.graph(), b.id).setOn, root.id);
        QVERIFY(c.setKeepList(b.id, {QStringLiteral("same framing")}));
        const Frame b2 = finish(c, c.edit(b.id, p(QStringLiteral("red hat"))));
        QCOMPARE(b2.promptSent, QStringLiteral("red hat\n\nKeep-list (respect in this edit):\n- same framing"));
        QVERIFY(lastCreateStrings().contains(b2.promptSent));
        const Frame a2 = finish(c, c.edit(a.id, p(QStringLiteral("warmer"))));
        QVERIFY2(a2.promptSent.endsWith(QStringLiteral("- keep the face\n- keep the label text")),
            qPrintable(a2.promptSent));

        // Cleared on a frame: nothing appended from there on; undo brings the list back.
        QVERIFY(c.setKeepList(a2.id, {}));
        const Frame a3 = finish(c, c.edit(a2.id, p(QStringLiteral("cooler"))));
        QVERIFY(a3.promptSent.isEmpty());
        QVERIFY(lastCreateStrings().contains(QStringLiteral("cooler")));
        c.undoStack()->undo();
        QVERIFY(!c.graph().value(a2.id).keepListSet);
        QCOMPARE(KeepList::effective(c.graph(), a2.id).setOn, root.id);

        // Stored: the manifest and the journal keep both, and a reopened session reads them back.
        QVERIFY(c.store()->flush());
        SessionStore reread;
        QVERIFY(reread.open(m_tmp->path(), SessionStore::OpenMode::ReadOnly));
        QCOMPARE(reread.graph().value(a.id).promptSent, expectedA);
        QCOMPARE(reread.graph().value(a.id).prompt, QStringLiteral("make the sky orange"));
        QCOMPARE(reread.graph().value(b.id).keepList, QStringList {QStringLiteral("same framing")});
        QVERIFY(reread.graph().value(b.id).keepListSet);
        QVERIFY(!reread.graph().value(a.id).keepListSet);
    }

    void retrySendsTheSameTextAgain()
    {
        SessionController c;
        openController(c);
        const Frame root = finish(c, c.generate(p(QStringLiteral("a cat"))));
        QVERIFY(c.setKeepList(root.id, {QStringLiteral("keep the cat's eyes")}));
        FakeFault fault;
        fault.kind = FakeFault::Kind::ResetBeforeFirstByte;
        m_fake->injectFault(fault, 1);
        const Frame failed = finish(c, c.edit(root.id, p(QStringLiteral("a bow tie"))));
        QVERIFY2(failed.status == FrameStatus::Failed, qPrintable(frameStatusName(failed.status)));
        QVERIFY(c.setKeepList(root.id, {QStringLiteral("changed since")})); // the stored request is what is re-sent
        const Frame retried = finish(c, c.retry(failed.id));
        QCOMPARE(retried.status, FrameStatus::Done);
        QCOMPARE(retried.promptSent,
            QStringLiteral("a bow tie\n\nKeep-list (respect in this edit):\n- keep the cat's eyes"));
        QVERIFY(lastCreateStrings().contains(retried.promptSent));
    }

    void editFinisherMeasuresEveryEditOnAWorker()
    {
        SessionController c;
        openController(c);
        EditFinisher finisher(&c);
        QSignalSpy finished(&finisher, &EditFinisher::finished);
        const Frame root = finish(c, c.generate(p(QStringLiteral("a lighthouse"))));
        QVERIFY(finisher.waitForIdle(10000));
        QCOMPARE(finished.count(), 0); // a generation has no parent to drift from
        QVERIFY(c.graph().value(root.id).drift.isEmpty());

        // The turn ends, then the drift arrives: measured off the GUI thread, recorded on it.
        QString measuredWhenTurnEnded = QStringLiteral("?");
        QString editId;
        connect(&c, &SessionController::turnFinished, this, [&](const QString &id) {
            measuredWhenTurnEnded = c.graph().value(id).drift.isEmpty() ? QStringLiteral("no") : QStringLiteral("yes");
        });
        const Result<QString> started = c.edit(root.id, p(QStringLiteral("at night")));
        QVERIFY(started);
        editId = started.value();
        QVERIFY(c.waitForIdle(20000));
        QVERIFY(finished.wait(10000) || finished.count() == 1);
        QCOMPARE(measuredWhenTurnEnded, QStringLiteral("no"));
        const Frame e = c.graph().value(editId);
        QVERIFY(!e.drift.isEmpty());
        QVERIFY(e.drift.changed >= 0 && e.drift.changed <= 1);
        QCOMPARE(e.drift.outsideChanged, -1.0);
        QVERIFY(QFileInfo::exists(c.store()->absolutePath(e.drift.heatmapFile)));
        QCOMPARE(e.drift.measure, QStringLiteral("cie76_grid256_de10"));
        // Stored in the session, not only in memory.
        QVERIFY(c.store()->flush());
        SessionStore reread;
        QVERIFY(reread.open(m_tmp->path(), SessionStore::OpenMode::ReadOnly));
        QCOMPARE(reread.graph().value(editId).drift, e.drift);
        // finishNow (the CLI's path) has nothing left to do for a measured frame.
        QVERIFY(EditFinisher::finishNow(c, editId));
        QCOMPARE(c.graph().value(editId).drift, e.drift);
    }

    void measuringA1024EditIsQuick()
    {
        // What the worker does after a 1024x1024 edit: decode both pictures, measure, write the heatmap.
        QVERIFY(QDir(m_tmp->path()).mkpath(QStringLiteral("images")));
        QImage a(1024, 1024, QImage::Format_RGB32);
        a.fill(QColor(40, 120, 200));
        QImage b = a;
        for (int y = 0; y < 400; ++y)
            for (int x = 0; x < 1024; ++x)
                b.setPixel(x, y, qRgb(230, 120, 40));
        QVERIFY(a.save(m_tmp->filePath(QStringLiteral("images/p.png"))));
        QVERIFY(b.save(m_tmp->filePath(QStringLiteral("images/c.png"))));
        Frame parent;
        parent.id = QStringLiteral("aaaaaaaa");
        parent.status = FrameStatus::Done;
        parent.image.file = QStringLiteral("images/p.png");
        Frame child;
        child.id = QStringLiteral("bbbbbbbb");
        child.parentId = parent.id;
        child.kind = FrameKind::Edit;
        child.status = FrameStatus::Done;
        child.image.file = QStringLiteral("images/c.png");
        qint64 best = 1 << 30;
        for (int i = 0; i < 3; ++i) {
            QElapsedTimer t;
            t.start();
            const Result<Frame> done = EditFinisher::compute(m_tmp->path(), parent, child);
            best = qMin(best, t.elapsed());
            QVERIFY2(done, qPrintable(done.error().message));
            QVERIFY(qAbs(done.value().drift.changed - 400.0 / 1024.0) < 0.02);
        }
        qInfo("EditFinisher::compute 1024x1024 (2 PNG decodes + drift + heatmap PNG): %lld ms (best of 3)", best);
        QVERIFY2(best < 1000, "decode + measure of a 1024 edit should take well under a second");
    }

    void warningRuleForSmallEdits_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("mode");
        QTest::addColumn<double>("changed");
        QTest::addColumn<double>("outside");
        QTest::addColumn<bool>("warns");
        QTest::newRow("edit 62%") << int(FrameKind::Edit) << int(RegionMode::None) << 0.62 << -1.0 << true;
        QTest::newRow("edit 38%") << int(FrameKind::Edit) << int(RegionMode::None) << 0.38 << -1.0 << false;
        QTest::newRow("edit-local 90%") << int(FrameKind::EditLocal) << int(RegionMode::None) << 0.90 << -1.0 << true;
        QTest::newRow("style edit 95%") << int(FrameKind::StyleEdit) << int(RegionMode::None) << 0.95 << -1.0 << false;
        QTest::newRow("protect, raw bled 45% outside")
            << int(FrameKind::Edit) << int(RegionMode::Protect) << 0.10 << 0.45 << true;
        QTest::newRow("protect, raw kept outside")
            << int(FrameKind::Edit) << int(RegionMode::Protect) << 0.10 << 0.05 << false;
        QTest::newRow("region, 80% in a big selection")
            << int(FrameKind::EditLocal) << int(RegionMode::Region) << 0.80 << 0.10 << false;
        QTest::newRow("not measured") << int(FrameKind::Edit) << int(RegionMode::None) << -1.0 << -1.0 << false;
    }

    void warningRuleForSmallEdits()
    {
        QFETCH(int, kind);
        QFETCH(int, mode);
        QFETCH(double, changed);
        QFETCH(double, outside);
        QFETCH(bool, warns);
        Frame f;
        f.kind = FrameKind(kind);
        f.regionEdit.mode = RegionMode(mode);
        f.drift.changed = changed;
        f.drift.outsideChanged = outside;
        QCOMPARE(EditFinisher::warrantsWarning(f), warns);
    }
};

QTEST_MAIN(tst_KeepList)
#include "tst_keeplist.moc"
