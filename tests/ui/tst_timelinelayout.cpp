// The timeline's all-rows tables against what a row-by-row reading gives: the layout table the
// view draws from, the branch costs, the pending rows it spins; and the visible-range paint
// against the full paint. The model itself: tst_timelinemodel.cpp.
#include "core/session/costledger.h"
#include "core/session/sessionstore.h"
#include "timelinefixture.h"
#include "ui/timelineview.h"

#include <QIdentityProxyModel>
#include <QScrollBar>
#include <QStandardItemModel>
#include <QTest>

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

class tst_TimelineLayout : public TimelineFixture
{
    Q_OBJECT

private Q_SLOTS: // initTestCase, init and cleanup: TimelineFixture
    void layoutTableDrawsAsTheRowByRowLayout();
    void pendingRowsMatchAFullScan();
    void branchCostsFromTheRowsMatchTheGraph();
    void theVisibleRangePaintMatchesTheFullPaint();
    void aModelWithLongConnectorsIsPaintedWhole();
};

void tst_TimelineLayout::layoutTableDrawsAsTheRowByRowLayout()
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

void tst_TimelineLayout::branchCostsFromTheRowsMatchTheGraph()
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

void tst_TimelineLayout::theVisibleRangePaintMatchesTheFullPaint()
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

void tst_TimelineLayout::aModelWithLongConnectorsIsPaintedWhole()
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

void tst_TimelineLayout::pendingRowsMatchAFullScan()
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

QTEST_MAIN(tst_TimelineLayout)
#include "tst_timelinelayout.moc"
