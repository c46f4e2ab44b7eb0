// TimelineModel: a thin adapter over the session graph; QAbstractItemModelTester watches every change.
#include "core/fakeapi/fakeserver.h"
#include "core/session/costledger.h"
#include "core/session/framefilter.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "ui/thumbnailprovider.h"
#include "ui/timelinemodel.h"
#include "ui/timelineview.h"
#include "uitesthelpers.h"

#include "core/api/interactionsclient.h"
#include "ui/thumbnailprovider.h"
#include <QScrollBar>

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QIdentityProxyModel>
#include <QMimeData>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace nb2;

namespace {
/** The timeline model without its all-rows roles: a view over it reads every row one by one. */
class RowByRowProxy : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!index.isValid())
            return {};
        return QIdentityProxyModel::data(index, role);
    }
};

/** What the view should spin, read row by row from the model. */
QList<int> scanPendingRows(const QAbstractItemModel &model)
{
    QList<int> rows;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex i = model.index(row, 0);
        if (TimelineState(i.data(TimelineRole::State).toInt()) == TimelineState::Pending
            || i.data(TimelineRole::RetryAt).toDateTime().isValid())
            rows.append(row);
    }
    return rows;
}
} // namespace

class tst_TimelineModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void emptySession();
    void lanesFollowBranches();
    void statesAndRolesTrackTheSession();
    void deleteUndoAndExternalWrites();
    void dragOutGivesTheImageFile();
    void thousandFrames();
    void appendedRowsMatchAFullRecount();
    void layoutTableDrawsAsTheRowByRowLayout();
    void pendingRowsMatchAFullScan();
    void branchCostsFromTheRowsMatchTheGraph();
    void theVisibleRangePaintMatchesTheFullPaint();
    void aModelWithLongConnectorsIsPaintedWhole();
    void thumbnailsComeFromTheDiskCacheSecondTime();
    void findDimsAllButMatchesAndTheirPath_data();
    void findDimsAllButMatchesAndTheirPath();
    void findFollowsStarsAndCostRole();

private:
    QString import(const QString &parentFrom = {});

    std::unique_ptr<FakeServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<SessionController> m_session;
    std::unique_ptr<TimelineModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    QString m_png;
};

void tst_TimelineModel::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    FakeServerOptions options;
    options.apiKey = QStringLiteral("model-key");
    m_server = std::make_unique<FakeServer>(options);
    QVERIFY(m_server->start(0));
}

void tst_TimelineModel::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_png = nb2test::writePng(m_dir->path() + QStringLiteral("/in.png"));
    m_session = std::make_unique<SessionController>();
    m_session->setClient(
        std::make_shared<InteractionsClient>(nb2test::fakeConfig(*m_server, QStringLiteral("model-key"))));
    const Result<void> opened = m_session->open(m_dir->path() + QStringLiteral("/s"));
    QVERIFY2(opened, qPrintable(opened.error().message));
    m_model = std::make_unique<TimelineModel>(m_session.get());
    m_tester = std::make_unique<QAbstractItemModelTester>(
        m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
}

void tst_TimelineModel::cleanup()
{
    m_session->waitForIdle(10000);
    m_tester.reset();
    m_model.reset();
    m_session.reset();
    m_dir.reset();
}

QString tst_TimelineModel::import(const QString &)
{
    auto r = m_session->importImage(m_png);
    return r ? r.value() : QString();
}

void tst_TimelineModel::emptySession()
{
    QCOMPARE(m_model->rowCount(), 0);
    QCOMPARE(m_model->laneCount(), 0);
    QVERIFY(!m_model->indexOf(QStringLiteral("nope")).isValid());
    QCOMPARE(m_model->rowCount(m_model->index(0)), 0);
}

void tst_TimelineModel::lanesFollowBranches()
{
    auto a = m_session->generate(nb2test::turn(QStringLiteral("root"), QStringLiteral("1:1")));
    QVERIFY(a);
    QVERIFY(m_session->waitForIdle(20000));
    auto b = m_session->edit(a.value(), nb2test::turn(QStringLiteral("b")));
    QVERIFY(b);
    QVERIFY(m_session->waitForIdle(20000));
    auto c = m_session->edit(b.value(), nb2test::turn(QStringLiteral("c")));
    QVERIFY(c);
    QVERIFY(m_session->waitForIdle(20000));
    auto d = m_session->branchFrom(a.value(), nb2test::turn(QStringLiteral("d")));
    QVERIFY(d);
    QVERIFY(m_session->waitForIdle(20000));
    auto e = m_session->branchFrom(b.value(), nb2test::turn(QStringLiteral("e")));
    QVERIFY(e);
    QVERIFY(m_session->waitForIdle(20000));
    const QString f = import(); // a second root opens its own lane

    auto lane = [this](const QString &id) { return m_model->indexOf(id).data(TimelineRole::Lane).toInt(); };
    auto depth = [this](const QString &id) { return m_model->indexOf(id).data(TimelineRole::Depth).toInt(); };
    QCOMPARE(lane(a.value()), 0);
    QCOMPARE(lane(b.value()), 0);
    QCOMPARE(lane(c.value()), 0);
    QCOMPARE(lane(d.value()), 1);
    QCOMPARE(lane(e.value()), 2);
    QCOMPARE(lane(f), 3);
    QCOMPARE(depth(c.value()), 2);
    QCOMPARE(depth(d.value()), 1);
    QCOMPARE(depth(e.value()), 2);
    QCOMPARE(depth(f), 0);
    QCOMPARE(m_model->laneCount(), 4);
    QCOMPARE(m_model->indexOf(e.value()).data(TimelineRole::ParentRow).toInt(), m_model->indexOf(b.value()).row());
    QVERIFY(m_model->indexOf(c.value()).data(TimelineRole::IsHead).toBool());
    QVERIFY(!m_model->indexOf(b.value()).data(TimelineRole::IsHead).toBool());
    QCOMPARE(m_model->indexOf(a.value()).data(TimelineRole::ChildCount).toInt(), 2);
}

void tst_TimelineModel::statesAndRolesTrackTheSession()
{
    m_server->setLatencyMs(600);
    auto a = m_session->generate(nb2test::turn(QStringLiteral("a cat"), QStringLiteral("4:3")));
    QVERIFY(a);
    const QModelIndex idx = m_model->indexOf(a.value());
    QVERIFY(idx.isValid());
    QCOMPARE(TimelineState(idx.data(TimelineRole::State).toInt()), TimelineState::Pending);
    QVERIFY(idx.data(TimelineRole::StartedAt).toDateTime().isValid());
    QVERIFY(idx.data(TimelineRole::ImagePath).toString().isEmpty());
    QCOMPARE(idx.data(TimelineRole::AspectRatio).toString(), QStringLiteral("4:3"));
    QCOMPARE(idx.data(TimelineRole::Kind).toString(), QStringLiteral("generate"));
    QCOMPARE(idx.data(TimelineRole::Number).toInt(), 1);
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    QVERIFY(m_session->waitForIdle(20000));
    m_server->setLatencyMs(0);
    QVERIFY(!changed.isEmpty());
    QCOMPARE(TimelineState(idx.data(TimelineRole::State).toInt()), TimelineState::Done);
    QVERIFY(QFileInfo::exists(idx.data(TimelineRole::ImagePath).toString()));
    QVERIFY(!idx.data(TimelineRole::InteractionId).toString().isEmpty());
    QVERIFY(idx.data(Qt::ToolTipRole).toString().contains(QStringLiteral("a cat")));

    QVERIFY(m_session->setStarred(a.value(), true));
    QVERIFY(idx.data(TimelineRole::Starred).toBool());
    QVERIFY(m_session->setTitle(a.value(), QStringLiteral("Tabby")));
    QCOMPARE(idx.data(Qt::DisplayRole).toString(), QStringLiteral("Tabby"));

    m_model->setRetryAt(a.value(), QDateTime::currentDateTimeUtc().addSecs(30));
    QVERIFY(idx.data(TimelineRole::RetryAt).toDateTime().isValid());
    m_model->setRetryAt(a.value(), {});
    QVERIFY(!idx.data(TimelineRole::RetryAt).toDateTime().isValid());
}

void tst_TimelineModel::deleteUndoAndExternalWrites()
{
    const QString a = import();
    const QString b = import();
    QCOMPARE(m_model->rowCount(), 2);
    const Result<void> deleted = m_session->deleteFrame(a);
    QVERIFY2(deleted, qPrintable(deleted.error().message));
    QCOMPARE(m_model->rowCount(), 1);
    QCOMPARE(m_model->frameIdAt(0), b);
    m_session->undoStack()->undo();
    QCOMPARE(m_model->rowCount(), 2);
    QCOMPARE(m_model->frameIdAt(0), a);

    // Another process (the CLI) adds a frame: the model follows without being told. It can
    // only build on what is on disk, so let our writer finish first.
    QVERIFY(m_session->store()->flush());
    SessionStore other;
    QVERIFY(other.open(m_session->store()->dir(), SessionStore::OpenMode::OpenExisting));
    QVERIFY(other.graph().contains(b));
    Frame f = other.graph().value(b);
    f.id = Frame::newId();
    f.parentId = b;
    f.title = QStringLiteral("from the CLI");
    const Result<void> committed = other.commit({f});
    QVERIFY2(committed, qPrintable(committed.error().message));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->rowCount(), 3, 10000);
    QCOMPARE(m_model->indexOf(f.id).data(TimelineRole::ParentRow).toInt(), m_model->indexOf(b).row());
}

void tst_TimelineModel::dragOutGivesTheImageFile()
{
    const QString a = import();
    const QModelIndex idx = m_model->indexOf(a);
    QVERIFY(m_model->flags(idx) & Qt::ItemIsDragEnabled);
    std::unique_ptr<QMimeData> mime(m_model->mimeData({idx}));
    QVERIFY(mime);
    QCOMPARE(mime->urls().size(), 1);
    QVERIFY(mime->urls().first().isLocalFile());
    QCOMPARE(mime->urls().first().toLocalFile(), idx.data(TimelineRole::ImagePath).toString());
    QVERIFY(QFileInfo::exists(mime->urls().first().toLocalFile()));
}

void tst_TimelineModel::thousandFrames()
{
    // 1,000 frames written by "another process" in one commit, then shown.
    const QString root = import();
    const Frame base = m_session->graph().value(root);
    QList<Frame> frames;
    QString parent = root;
    for (int i = 0; i < 999; ++i) {
        Frame f = base;
        f.id = Frame::newId();
        f.parentId = (i % 50 == 49) ? root : parent; // a new branch every 50 frames
        f.kind = FrameKind::Edit;
        frames << f;
        parent = f.id;
    }
    SessionStore other;
    QVERIFY(other.open(m_session->store()->dir(), SessionStore::OpenMode::OpenExisting));
    QVERIFY(other.commit(frames));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->rowCount(), 1000, 20000);

    QElapsedTimer t;
    t.start();
    m_model->refresh();
    const qint64 refreshMs = t.elapsed();

    TimelineView view;
    ThumbnailProvider thumbs;
    thumbs.setDiskCacheDir(m_session->store()->thumbsDir());
    view.setThumbnailProvider(&thumbs);
    view.setModel(m_model.get());
    view.resize(1200, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    t.restart();
    for (int i = 0; i < 20; ++i) {
        view.horizontalScrollBar()->setValue(view.horizontalScrollBar()->maximum() * i / 20);
        view.viewport()->repaint();
    }
    const qint64 paintMs = t.elapsed() / 20;
    qInfo("1000 frames: model refresh %lld ms, one timeline repaint %lld ms, %d lanes", refreshMs, paintMs,
        m_model->laneCount());
    QVERIFY(m_model->laneCount() > 10);
    thumbs.waitForDone();
}

void tst_TimelineModel::appendedRowsMatchAFullRecount()
{
    // Frames appended (here by "another process", in batches, with forks into old and new
    // frames) take the fast path that makes only the new rows; a trash in between takes the
    // full recount. Either way every row must be what a model built from scratch shows.
    const QString root = import();
    const Frame base = m_session->graph().value(root);
    // The root is on disk before the other process reads the session, as when a person runs a
    // second process on a session they see (else its commits could precede the root's record).
    QVERIFY(m_session->store()->flush());
    SessionStore other;
    QVERIFY(other.open(m_session->store()->dir(), SessionStore::OpenMode::OpenExisting));
    QStringList ids {root};
    int resets = 0;
    connect(m_model.get(), &QAbstractItemModel::modelReset, this, [&resets] { ++resets; });
    auto compareWithFresh = [&] {
        SessionController fresh;
        QVERIFY(fresh.open(m_session->store()->dir()));
        TimelineModel expected(&fresh);
        QCOMPARE(m_model->rowCount(), expected.rowCount());
        QCOMPARE(m_model->laneCount(), expected.laneCount());
        for (int row = 0; row < expected.rowCount(); ++row) {
            for (int role : {int(TimelineRole::FrameId), int(TimelineRole::ParentRow), int(TimelineRole::Depth),
                     int(TimelineRole::Lane), int(TimelineRole::ChildCount), int(TimelineRole::Number),
                     int(TimelineRole::IsHead)}) {
                QCOMPARE(m_model->index(row).data(role), expected.index(row).data(role));
            }
        }
    };
    for (int batch = 0; batch < 4; ++batch) {
        QList<Frame> frames;
        for (int i = 0; i < 7; ++i) {
            Frame f = base;
            f.id = Frame::newId();
            // Continue the newest frame, fork from an old one, fork from this batch's first frame.
            const int pick = (i * 5 + batch) % 3;
            f.parentId = pick == 0 ? ids.last()
                : pick == 1        ? ids.at((i * 7 + batch) % ids.size())
                                   : ids.value(ids.size() - i);
            f.kind = FrameKind::Edit;
            frames << f;
            ids << f.id;
        }
        QVERIFY(other.commit(frames));
        QTRY_COMPARE_WITH_TIMEOUT(m_model->rowCount(), int(ids.size()) - (batch >= 2 ? 1 : 0), 20000);
        compareWithFresh();
        if (batch == 0)
            QCOMPARE(resets, 0); // appended, not reset
        if (batch == 1) {
            // A frame in the middle goes to the trash: the rows shift, everything is recounted.
            Frame trashed = other.graph().value(ids.at(3));
            trashed.trashedAt = QDateTime::currentDateTimeUtc();
            QVERIFY(other.commit({trashed}));
            QTRY_COMPARE_WITH_TIMEOUT(m_model->rowCount(), int(ids.size()) - 1, 20000);
            compareWithFresh();
        }
    }
}

void tst_TimelineModel::thumbnailsComeFromTheDiskCacheSecondTime()
{
    const QString a = import();
    const QString path = m_model->indexOf(a).data(TimelineRole::ImagePath).toString();
    ThumbnailProvider thumbs;
    thumbs.setDiskCacheDir(m_session->store()->thumbsDir());
    QVERIFY(thumbs.thumbnail(path, path, 48).isNull()); // never blocks: made on a worker
    QSignalSpy ready(&thumbs, &ThumbnailProvider::thumbnailReady);
    QVERIFY(ready.wait(5000));
    const QPixmap p = thumbs.thumbnail(path, path, 48);
    QVERIFY(!p.isNull());
    QVERIFY(qMax(p.width(), p.height()) <= 48);
    QVERIFY(thumbs.memoryUsedKb() > 0);
    QCOMPARE(QDir(m_session->store()->thumbsDir()).entryList(QDir::Files).size(), 1);

    ThumbnailProvider second; // a new run: served from thumbs/ on disk
    second.setDiskCacheDir(m_session->store()->thumbsDir());
    QVERIFY(second.thumbnail(path, path, 48).isNull());
    QSignalSpy ready2(&second, &ThumbnailProvider::thumbnailReady);
    QVERIFY(ready2.wait(5000));
    QVERIFY(!second.thumbnail(path, path, 48).isNull());

    second.setMemoryLimitKb(1);
    QVERIFY(second.memoryLimitKb() == 1);
}

namespace {

/** The tree used by the find tests: fox -> blue -> snow, fox -> night (branch), and an import. */
struct FindTree {
    QString fox, blue, snow, night, photo;
};

FindState findState(const TimelineModel &m, const QString &id)
{
    return FindState(m.indexOf(id).data(TimelineRole::FindState).toInt());
}

} // namespace

void tst_TimelineModel::findDimsAllButMatchesAndTheirPath_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("status"); // -1: any
    QTest::addColumn<int>("kind");   // -1: any
    QTest::addColumn<QString>(
        "expected"); // per frame fox,blue,snow,night,photo: M match, P path, D dimmed, N no filter

    QTest::newRow("no filter") << QString() << -1 << -1 << QStringLiteral("NNNNN");
    QTest::newRow("text deep in a chain keeps its path")
        << QStringLiteral("SNOW") << -1 << -1 << QStringLiteral("PPMDD");
    QTest::newRow("text on a branch") << QStringLiteral("night") << -1 << -1 << QStringLiteral("PDDMD");
    QTest::newRow("kind edit") << QString() << -1 << int(FrameKind::Edit) << QStringLiteral("PMMMD");
    QTest::newRow("kind import") << QString() << -1 << int(FrameKind::Import) << QStringLiteral("DDDDM");
    QTest::newRow("status failed: none") << QString() << int(FrameStatus::Failed) << -1 << QStringLiteral("DDDDD");
    QTest::newRow("text and kind") << QStringLiteral("fox") << -1 << int(FrameKind::Generate)
                                   << QStringLiteral("MDDDD");
}

void tst_TimelineModel::findDimsAllButMatchesAndTheirPath()
{
    QFETCH(QString, text);
    QFETCH(int, status);
    QFETCH(int, kind);
    QFETCH(QString, expected);
    FindTree t;
    auto turn = [this](Result<QString> r) {
        if (!r || !m_session->waitForIdle(20000))
            return QString();
        return r.value();
    };
    t.fox = turn(m_session->generate(nb2test::turn(QStringLiteral("a red fox"), QStringLiteral("1:1"))));
    t.blue = turn(m_session->edit(t.fox, nb2test::turn(QStringLiteral("make it blue"))));
    t.snow = turn(m_session->edit(t.blue, nb2test::turn(QStringLiteral("add snow"))));
    t.night = turn(m_session->branchFrom(t.fox, nb2test::turn(QStringLiteral("at night"))));
    t.photo = import();
    QVERIFY(!t.fox.isEmpty() && !t.blue.isEmpty() && !t.snow.isEmpty() && !t.night.isEmpty() && !t.photo.isEmpty());

    FrameFilter filter;
    filter.text = text;
    if (status >= 0)
        filter.status = FrameStatus(status);
    if (kind >= 0)
        filter.kind = FrameKind(kind);
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    m_model->setFilter(filter);
    if (!filter.isEmpty())
        QVERIFY(!changed.isEmpty());
    const QStringList ids {t.fox, t.blue, t.snow, t.night, t.photo};
    QString got;
    for (const QString &id : ids) {
        switch (findState(*m_model, id)) {
        case FindState::NoFilter:
            got += QLatin1Char('N');
            break;
        case FindState::Match:
            got += QLatin1Char('M');
            break;
        case FindState::OnPath:
            got += QLatin1Char('P');
            break;
        case FindState::Dimmed:
            got += QLatin1Char('D');
            break;
        }
    }
    QCOMPARE(got, expected);
    QCOMPARE(m_model->rowCount(), 5); // find never hides rows
    QCOMPARE(m_model->matchCount(), int(expected.count(QLatin1Char('M'))));

    m_model->setFilter({}); // off again
    for (const QString &id : ids)
        QCOMPARE(findState(*m_model, id), FindState::NoFilter);
}

void tst_TimelineModel::findFollowsStarsAndCostRole()
{
    auto a = m_session->generate(nb2test::turn(QStringLiteral("a cat"), QStringLiteral("1:1")));
    QVERIFY(a);
    QVERIFY(m_session->waitForIdle(20000));
    const QString photo = import();
    FrameFilter starred;
    starred.starredOnly = true;
    m_model->setFilter(starred);
    QCOMPARE(findState(*m_model, a.value()), FindState::Dimmed);
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    QVERIFY(m_session->setStarred(a.value(), true)); // starring moves the frame into the find
    QCOMPARE(findState(*m_model, a.value()), FindState::Match);
    QCOMPARE(m_model->matchCount(), 1);
    QVERIFY(!changed.isEmpty());
    QVERIFY(m_session->undoStack()->canUndo());
    m_session->undoStack()->undo();
    QCOMPARE(findState(*m_model, a.value()), FindState::Dimmed);

    // The turn's cost from its usage and the default price table; an import has none.
    const double cost = m_model->indexOf(a.value()).data(TimelineRole::CostUsd).toDouble();
    QVERIFY2(cost > 0.02 && cost < 0.05, qPrintable(QString::number(cost)));
    QCOMPARE(m_model->indexOf(photo).data(TimelineRole::CostUsd).toDouble(), -1.0);
}

void tst_TimelineModel::layoutTableDrawsAsTheRowByRowLayout()
{
    // 1,000 frames with forks: the view laid out from the model's one-call LayoutTable must
    // place every card where the row-by-row reading (any other model) places it, and draw the
    // same pixels.
    const QString root = import();
    const Frame base = m_session->graph().value(root);
    QList<Frame> frames;
    QString parent = root;
    for (int i = 0; i < 999; ++i) {
        Frame f = base;
        f.id = Frame::newId();
        f.parentId = (i % 10 == 9) ? frames.value(i / 2, base).id : parent; // a fork every 10 frames
        f.kind = FrameKind::Edit;
        frames << f;
        parent = f.id;
    }
    QVERIFY(m_session->store()->flush()); // the root is on disk before the other process reads the session
    SessionStore other;
    QVERIFY(other.open(m_session->store()->dir(), SessionStore::OpenMode::OpenExisting));
    QVERIFY(other.commit(frames));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->rowCount(), 1000, 20000);
    QCOMPARE(m_model->data(QModelIndex(), TimelineRole::LayoutTable).value<QList<int>>().size(), 3000);

    RowByRowProxy proxy;
    proxy.setSourceModel(m_model.get());
    TimelineView fast;
    TimelineView slow;
    fast.setModel(m_model.get());
    slow.setModel(&proxy);
    QVERIFY(fast.laneCount() > 10);
    QCOMPARE(fast.laneCount(), slow.laneCount());
    for (int row = 0; row < m_model->rowCount(); ++row)
        QCOMPARE(fast.visualRect(m_model->index(row)), slow.visualRect(proxy.index(row, 0)));
    for (TimelineView *view : {&fast, &slow}) {
        view->resize(1200, 600);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view));
        view->horizontalScrollBar()->setValue(view->horizontalScrollBar()->maximum() / 3);
        view->verticalScrollBar()->setValue(view->verticalScrollBar()->maximum() / 2);
    }
    QCOMPARE(fast.horizontalScrollBar()->maximum(), slow.horizontalScrollBar()->maximum());
    QCOMPARE(fast.verticalScrollBar()->maximum(), slow.verticalScrollBar()->maximum());
    QCOMPARE(fast.viewport()->grab().toImage(), slow.viewport()->grab().toImage());
}

void tst_TimelineModel::branchCostsFromTheRowsMatchTheGraph()
{
    // A lane header's cost (BranchCostUsd) walks the model's rows instead of asking the graph
    // for every parent's children: it must equal FrameGraph::branchOwnFrames() priced frame by
    // frame, with forks, a trashed frame in the middle of a chain (its children stay live: the
    // walk then asks the graph) and a trashed head.
    const QString root = import();
    Frame base = m_session->graph().value(root);
    base.kind = FrameKind::Edit;
    base.usage.inputTokens = 1400;
    base.usage.outputTokens = 1120;
    QList<Frame> frames;
    QString parent = root;
    for (int i = 0; i < 300; ++i) {
        Frame f = base;
        f.id = Frame::newId();
        f.parentId = (i % 10 == 9) ? frames.value(i / 2, base).id : parent; // a fork every 10 frames
        f.usage.outputTokens = 1000 + i;                                    // every frame its own price
        frames << f;
        parent = f.id;
    }
    QVERIFY(m_session->store()->flush()); // the root is on disk before the other process reads the session
    SessionStore other;
    QVERIFY(other.open(m_session->store()->dir(), SessionStore::OpenMode::OpenExisting));
    QVERIFY(other.commit(frames));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->rowCount(), 301, 20000);
    Frame middle = other.graph().value(frames.at(150).id);
    middle.trashedAt = QDateTime::currentDateTimeUtc();
    Frame head = other.graph().value(frames.last().id);
    head.trashedAt = QDateTime::currentDateTimeUtc();
    QVERIFY(other.commit({middle, head}));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->rowCount(), 299, 20000);

    const FrameGraph &graph = m_session->graph();
    const CostLedger ledger(graph, m_session->priceTable());
    int heads = 0;
    int walkedThroughTheTrash = 0;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex i = m_model->index(row);
        const QString id = i.data(TimelineRole::FrameId).toString();
        if (!i.data(TimelineRole::IsHead).toBool()) {
            QCOMPARE(i.data(TimelineRole::BranchCostUsd).toDouble(), -1.0);
            continue;
        }
        ++heads;
        double expected = 0;
        const QStringList own = graph.branchOwnFrames(id);
        for (const QString &f : own)
            expected += ledger.frame(f).usd;
        if (own.contains(middle.id))
            ++walkedThroughTheTrash;
        QVERIFY(expected > 0);
        QCOMPARE(i.data(TimelineRole::BranchCostUsd).toDouble(), expected);
    }
    QVERIFY(heads > 20);
    QCOMPARE(walkedThroughTheTrash, 1);
}

void tst_TimelineModel::theVisibleRangePaintMatchesTheFullPaint()
{
    // The view paints only the columns (and lane headers) in view: on 1,000 frames with forks
    // (long connectors across many lanes), at the start, in the middle, at the end and with a
    // selected frame's path highlighted, it must draw what the paint of every row drew.
    const QString root = import();
    const Frame base = m_session->graph().value(root);
    QList<Frame> frames;
    QString parent = root;
    for (int i = 0; i < 999; ++i) {
        Frame f = base;
        f.id = Frame::newId();
        f.parentId = (i % 10 == 9) ? frames.value(i / 2, base).id : parent; // a fork every 10 frames
        f.kind = FrameKind::Edit;
        f.usage.inputTokens = 1400; // lane headers with costs
        f.usage.outputTokens = 1120 + i;
        frames << f;
        parent = f.id;
    }
    QVERIFY(m_session->store()->flush()); // the root is on disk before the other process reads the session
    SessionStore other;
    QVERIFY(other.open(m_session->store()->dir(), SessionStore::OpenMode::OpenExisting));
    QVERIFY(other.commit(frames));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->rowCount(), 1000, 20000);

    TimelineView view; // the same view both ways: hover, focus and selection are the same
    view.setModel(m_model.get());
    view.resize(1200, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.laneCount() > 50);
    auto compareBothWays = [&view](QImage *shown) {
        *shown = view.viewport()->grab().toImage();
        view.setPaintsOnlyVisibleRange(false);
        const QImage every = view.viewport()->grab().toImage();
        view.setPaintsOnlyVisibleRange(true);
        QCOMPARE(*shown, every);
    };
    QList<QImage> shown;
    for (const QPointF at : {QPointF(0, 0), QPointF(0.5, 0.5), QPointF(0.3, 0.1), QPointF(1, 1)}) {
        view.horizontalScrollBar()->setValue(int(view.horizontalScrollBar()->maximum() * at.x()));
        view.verticalScrollBar()->setValue(int(view.verticalScrollBar()->maximum() * at.y()));
        shown << QImage();
        compareBothWays(&shown.last());
        if (QTest::currentTestFailed())
            return;
    }
    QVERIFY(shown.at(0) != shown.at(2)); // the positions show different parts
    // A selected frame deep in the history: its path to the root is drawn on top.
    const QModelIndex deep = m_model->indexOf(frames.at(700).id);
    view.setCurrentIndex(deep);
    view.scrollTo(deep);
    QImage selected;
    compareBothWays(&selected);
    QVERIFY(selected != shown.last());
}

void tst_TimelineModel::aModelWithLongConnectorsIsPaintedWhole()
{
    // Another model's depths need not follow its parents: a connector from column 0 to column
    // 60 crosses every column between. Such a layout is painted row by row (the visible-range
    // paint would miss the connector when neither end is in view).
    QStandardItemModel model(100, 1);
    for (int row = 0; row < 100; ++row) {
        QStandardItem *item = model.item(row) ? model.item(row) : new QStandardItem;
        const bool far = row == 99;
        item->setData(far ? 60 : row, TimelineRole::Depth);
        item->setData(far ? 1 : 0, TimelineRole::Lane);
        item->setData(far ? 0 : row - 1, TimelineRole::ParentRow);
        item->setData(QStringLiteral("f%1").arg(row), TimelineRole::FrameId);
        model.setItem(row, item);
    }
    TimelineView view;
    view.setModel(&model);
    view.resize(900, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.horizontalScrollBar()->setValue(view.horizontalScrollBar()->maximum() / 3); // about column 30
    const QImage shown = view.viewport()->grab().toImage();
    view.setPaintsOnlyVisibleRange(false);
    QCOMPARE(shown, view.viewport()->grab().toImage());
}

void tst_TimelineModel::pendingRowsMatchAFullScan()
{
    // The view tracks the spinning rows from change notices (a few rows read one by one, a
    // large change asked of the model at once) instead of reading every row at each change:
    // after appends, finishes, retries and a trash it must still match a full scan.
    const QString root = import();
    const Frame base = m_session->graph().value(root);
    QVERIFY(m_session->store()->flush()); // the root is on disk before the other process reads the session
    SessionStore other;
    QVERIFY(other.open(m_session->store()->dir(), SessionStore::OpenMode::OpenExisting));
    RowByRowProxy proxy;
    proxy.setSourceModel(m_model.get());
    TimelineView fast;
    TimelineView slow;
    fast.setModel(m_model.get());
    slow.setModel(&proxy);
    auto check = [&] {
        const QList<int> expected = scanPendingRows(*m_model);
        QCOMPARE(fast.pendingRows(), expected);
        QCOMPARE(slow.pendingRows(), expected);
    };
    QList<Frame> frames;
    for (int i = 0; i < 100; ++i) {
        Frame f = base;
        f.id = Frame::newId();
        f.parentId = i == 0 ? root : frames.at(i - 1).id;
        f.kind = FrameKind::Edit;
        if (i % 30 == 7)
            f.status = FrameStatus::Pending;
        frames << f;
    }
    QVERIFY(other.commit(frames));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->rowCount(), 101, 20000);
    check();
    // A retry time on one row (a small change) and then off again.
    m_model->setRetryAt(frames.at(50).id, QDateTime::currentDateTimeUtc().addSecs(30));
    check();
    QVERIFY(fast.pendingRows().contains(m_model->indexOf(frames.at(50).id).row()));
    // The pending frames finish (an external write: a change of every row's state).
    QList<Frame> finished;
    for (const Frame &f : std::as_const(frames)) {
        if (f.status == FrameStatus::Pending) {
            Frame done = other.graph().value(f.id);
            done.status = FrameStatus::Done;
            finished << done;
        }
    }
    QVERIFY(!finished.isEmpty());
    QVERIFY(other.commit(finished));
    QTRY_VERIFY_WITH_TIMEOUT(scanPendingRows(*m_model).size() == 1, 20000);
    check();
    // A frame before the retrying one goes to the trash: the rows shift.
    Frame trashed = other.graph().value(frames.at(10).id);
    trashed.trashedAt = QDateTime::currentDateTimeUtc();
    QVERIFY(other.commit({trashed}));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->rowCount(), 100, 20000);
    check();
    QCOMPARE(fast.pendingRows(), QList<int> {m_model->indexOf(frames.at(50).id).row()});
    m_model->setRetryAt(frames.at(50).id, {});
    check();
    QVERIFY(fast.pendingRows().isEmpty());
}

QTEST_MAIN(tst_TimelineModel)
#include "tst_timelinemodel.moc"
