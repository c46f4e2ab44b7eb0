// PrecisionRunner (issue 13), the window's path for region and protect edits, against the
// in-process fake: the mask and crop are written off the GUI thread, the turn is sent in the
// CLI's form, the composite and drift are made on a worker and recorded, and a composite a
// crash left unmade is finished when the session opens again.
#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/precisionrunner.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "fakeclient.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace nb2;

class tst_PrecisionRunner : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeServer> m_fake;
    std::unique_ptr<QTemporaryDir> m_tmp;

    std::shared_ptr<InteractionsClient> client() const { return test::fakeServerClient(*m_fake); }

    QString generated(SessionController &c)
    {
        TurnParams params;
        params.prompt = QStringLiteral("a harbour");
        const Result<QString> r = c.generate(params);
        if (!r || !c.waitForIdle(20000))
            return {};
        return r.value();
    }

    QJsonObject lastCreateBody() const
    {
        const QList<FakeRequest> requests = m_fake->requests();
        for (qsizetype i = requests.size() - 1; i >= 0; --i)
            if (requests[i].method == QLatin1String("POST"))
                return QJsonDocument::fromJson(requests[i].body).object();
        return {};
    }

    /** Starts a request and waits until its frame is done and composited; returns the frame id. */
    QString run(SessionController &c, PrecisionRunner &runner, const PrecisionRequest &request)
    {
        QSignalSpy started(&runner, &PrecisionRunner::started);
        QSignalSpy failed(&runner, &PrecisionRunner::failed);
        const Result<int> ticket = runner.start(request);
        if (!ticket)
            return {};
        if (!QTest::qWaitFor([&] { return !started.isEmpty() || !failed.isEmpty(); }, 10000) || started.isEmpty())
            return {};
        const QString id = started.first().at(1).toString();
        c.waitForIdle(20000);
        runner.waitForIdle(20000);
        return id;
    }

private Q_SLOTS:
    void init()
    {
        m_fake = std::make_unique<FakeServer>();
        QVERIFY(m_fake->start(0));
        m_tmp = std::make_unique<QTemporaryDir>();
    }

    void cleanup()
    {
        m_fake.reset();
        m_tmp.reset();
    }

    void regionSendsTheCropAndComposites()
    {
        SessionController c;
        c.setClient(client());
        QVERIFY(c.open(m_tmp->path()));
        PrecisionRunner runner(&c);
        const QString root = generated(c);
        QVERIFY(!root.isEmpty());
        const Frame parent = c.graph().value(root);
        const QSize size(parent.image.width, parent.image.height);

        PrecisionRequest request;
        request.parentId = root;
        request.mode = RegionMode::Region;
        request.mask = EditMask::fromRect(size, QRect(size.width() / 4, size.height() / 4, 60, 40));
        request.feather = 3;
        request.params.prompt = QStringLiteral("a red boat");
        m_fake->clearRequests();
        QSignalSpy composited(&runner, &PrecisionRunner::composited);
        const QString id = run(c, runner, request);
        QVERIFY(!id.isEmpty());
        QCOMPARE(composited.size(), 1);
        const Frame child = c.graph().value(id);
        QCOMPARE(child.kind, FrameKind::EditLocal);
        QCOMPARE(child.regionEdit.mode, RegionMode::Region);
        QCOMPARE(child.regionEdit.feather, 3);
        QVERIFY(!child.regionEdit.rawFile.isEmpty());
        QCOMPARE(child.image.mimeType, QStringLiteral("image/png"));
        QVERIFY(QFileInfo::exists(c.store()->absolutePath(child.regionEdit.maskFile)));
        QVERIFY(QFileInfo::exists(c.store()->absolutePath(child.regionEdit.rawFile)));
        QVERIFY(child.drift.changed >= 0 && child.drift.outsideChanged >= 0);
        // What the worker does after the turn, timed (1024x1024 parent: read 3 pictures, composite,
        // drift twice, write the PNG composite and the heatmap). Never on the GUI thread.
        Frame again = child;
        again.image.file = child.regionEdit.rawFile;
        again.regionEdit.rawFile.clear();
        QElapsedTimer timer;
        timer.start();
        const Result<Frame> redone = PrecisionEdit::finish(c.store()->dir(), parent, again);
        QVERIFY(redone);
        qInfo("composite + drift + PNG writes for a %dx%d frame on a worker: %lld ms", size.width(), size.height(),
            qint64(timer.elapsed()));
        const QJsonObject body = lastCreateBody();
        QVERIFY(!body.contains(QLatin1String("previous_interaction_id")));
        QVERIFY(QJsonDocument(body).toJson().contains(child.regionEdit.cropAspect.toUtf8()));
    }

    void protectContinuesByIdOrInline()
    {
        SessionController c;
        c.setClient(client());
        QVERIFY(c.open(m_tmp->path()));
        PrecisionRunner runner(&c);
        const QString root = generated(c);
        const Frame parent = c.graph().value(root);
        const QSize size(parent.image.width, parent.image.height);
        PrecisionRequest request;
        request.parentId = root;
        request.mode = RegionMode::Protect;
        request.mask = EditMask::fromRect(size, QRect(0, 0, size.width() / 2, size.height()));
        request.params.prompt = QStringLiteral("make it night");
        m_fake->clearRequests();
        const QString byId = run(c, runner, request);
        QVERIFY(!byId.isEmpty());
        QCOMPARE(c.graph().value(byId).kind, FrameKind::Edit);
        QCOMPARE(lastCreateBody().value(QLatin1String("previous_interaction_id")).toString(), parent.interactionId);

        // Inline (the parent is a composite, say): the parent's stored pixels go with the prompt.
        request.inlineParent = true;
        request.params.newBranch = true;
        m_fake->clearRequests();
        const QString sentInline = run(c, runner, request);
        QVERIFY(!sentInline.isEmpty());
        QCOMPARE(c.graph().value(sentInline).kind, FrameKind::EditLocal);
        QVERIFY(!lastCreateBody().contains(QLatin1String("previous_interaction_id")));
        QVERIFY(!c.graph().value(sentInline).regionEdit.rawFile.isEmpty());
    }

    void refusesBadRequestsAtOnce()
    {
        SessionController c;
        c.setClient(client());
        QVERIFY(c.open(m_tmp->path()));
        PrecisionRunner runner(&c);
        const QString root = generated(c);
        const Frame parent = c.graph().value(root);
        PrecisionRequest request;
        request.parentId = root;
        request.params.prompt = QStringLiteral("x");
        request.mask = EditMask::fromRect(QSize(parent.image.width, parent.image.height), QRect());
        QCOMPARE(runner.start(request).error().kind, ErrorKind::InvalidInput); // empty selection
        request.mask = EditMask::fromRect(QSize(7, 7), QRect(0, 0, 3, 3));
        QCOMPARE(runner.start(request).error().kind, ErrorKind::InvalidInput); // another size
        request.parentId = QStringLiteral("nope");
        QCOMPARE(runner.start(request).error().kind, ErrorKind::InvalidInput);
        QVERIFY(runner.isIdle());
    }

    void missingCompositeIsMadeOnOpen()
    {
        QString id;
        {
            SessionController c;
            c.setClient(client());
            QVERIFY(c.open(m_tmp->path()));
            // No runner: the turn finishes but nobody composites it (as if the app had quit first).
            const QString root = generated(c);
            const Frame parent = c.graph().value(root);
            const QSize size(parent.image.width, parent.image.height);
            const Result<PreparedRegion> prepared = PrecisionEdit::prepare(
                c.store()->dir(), parent, RegionMode::Protect, EditMask::fromRect(size, QRect(0, 0, 20, 20)), 2);
            QVERIFY(prepared);
            TurnParams params;
            params.prompt = QStringLiteral("dusk");
            params.regionEdit = prepared.value().edit;
            const Result<QString> r = c.edit(root, params);
            QVERIFY(r);
            QVERIFY(c.waitForIdle(20000));
            id = r.value();
            QVERIFY(c.graph().value(id).regionEdit.rawFile.isEmpty());
        }
        SessionController c;
        c.setClient(client());
        PrecisionRunner runner(&c);
        QSignalSpy composited(&runner, &PrecisionRunner::composited);
        QVERIFY(c.open(m_tmp->path()));
        QVERIFY(runner.waitForIdle(20000));
        QVERIFY(c.waitForIdle(10000));
        QCOMPARE(composited.size(), 1); // only the frame with a region edit: the root is no candidate
        QCOMPARE(composited.first().at(0).toString(), id);
        QVERIFY(!c.graph().value(id).regionEdit.rawFile.isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_PrecisionRunner)
#include "tst_precisionrunner.moc"
