// Issue 14 in the window: "Variants: N" sends N sibling turns at once (an explicit fork for an
// edit, said before sending), the grid picks one (starred; the others folded, persisted, never
// deleted), the budget refuses a whole batch with nothing sent, and each timeline lane header
// shows its branch's own cost. Against the in-process fake server.
#include "core/api/clientconfig.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/appsettings.h"
#include "core/session/costledger.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "ui/frameselection.h"
#include "ui/mainwindow.h"
#include "ui/noticepresenter.h"
#include "ui/promptpanel.h"
#include "ui/sessionmanager.h"
#include "ui/timelinemodel.h"
#include "ui/timelineroles.h"
#include "ui/timelineview.h"
#include "ui/turndispatcher.h"
#include "ui/variantgrid.h"
#include "ui/variantsdispatch.h"
#include "uitesthelpers.h"

#include <QApplication>
#include <QDialog>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace nb2;

class tst_Variants : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void generateSendsNSiblingRoots();
    void editForksNBranchesAndSaysSoBeforeSending();
    void pickStarsOneAndFoldsTheOthers();
    void budgetRefusesTheWholeBatch();
    void sendButtonSaysWhatSendingWillCost();
    void laneHeadersShowTheBranchCost();
    void foldedCardsAreDrawnCollapsed();
    void laneHeadersOnALargeSession();

private:
    Frame frame(const QString &id) const { return m_window->session()->graph().value(id); }
    void send(const QString &prompt, int variants);
    bool waitIdle(int timeoutMs = 20000);
    QList<FakeRequest> creates() const;
    QString generateOne(const QString &prompt);

    std::unique_ptr<FakeServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_sessionDir;
    MainWindow *m_window = nullptr;
};

void tst_Variants::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    qputenv("NB2_NO_AUTO_SETTINGS", "1");
    QApplication::setOrganizationName(QStringLiteral("NB2LiteTest"));
    QApplication::setApplicationName(QStringLiteral("tst_variants"));
    FakeServerOptions options;
    options.apiKey = QStringLiteral("ui-test-key");
    m_server = std::make_unique<FakeServer>(options);
    QVERIFY2(m_server->start(0), qPrintable(m_server->errorString()));
}

void tst_Variants::init()
{
    m_server->clearFaults();
    m_server->setLatencyMs(0);
    m_server->clearRequests();
    m_dir = std::make_unique<QTemporaryDir>();
    {
        QSettings s;
        s.clear();
        appprefs::sessionsFolder.write(s, m_dir->path() + QStringLiteral("/sessions"));
    }
    m_window = new MainWindow;
    m_window->setBackend(nb2test::fakeConfig(*m_server, QStringLiteral("ui-test-key")), true);
    m_sessionDir = m_dir->path() + QStringLiteral("/s1");
    const Result<void> opened = m_window->sessions()->open(m_sessionDir);
    QVERIFY2(opened, qPrintable(opened.error().message));
    m_window->resize(1100, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void tst_Variants::cleanup()
{
    if (m_window) {
        m_window->session()->waitForIdle(10000);
        delete m_window;
        m_window = nullptr;
    }
    m_dir.reset();
}

void tst_Variants::send(const QString &prompt, int variants)
{
    PromptPanel *p = m_window->promptPanel();
    p->setVariants(variants);
    p->setPrompt(prompt);
    QTest::mouseClick(p->sendButton(), Qt::LeftButton);
}

bool tst_Variants::waitIdle(int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        if (m_window->session()->graph().withStatus(FrameStatus::Pending).isEmpty())
            return true;
        QTest::qWait(20);
    }
    return false;
}

QList<FakeRequest> tst_Variants::creates() const
{
    QList<FakeRequest> out;
    for (const FakeRequest &r : m_server->requests())
        if (r.method == QLatin1String("POST"))
            out.append(r);
    return out;
}

QString tst_Variants::generateOne(const QString &prompt)
{
    m_window->selection()->requestNewImage();
    send(prompt, 1);
    if (!waitIdle())
        return {};
    const QList<Frame> frames = m_window->session()->graph().frames();
    return frames.isEmpty() ? QString() : frames.last().id;
}

void tst_Variants::generateSendsNSiblingRoots()
{
    m_server->setLatencyMs(400);
    PromptPanel *p = m_window->promptPanel();
    p->setVariants(3);
    QCOMPARE(p->sendButton()->text(), QStringLiteral("Send 3 variants"));
    QVERIFY(p->contextText().contains(QStringLiteral("new images (sibling roots)")));
    QElapsedTimer wall;
    wall.start();
    send(QStringLiteral("a lighthouse at dusk"), 3);
    // All three are in flight at once: the grid shows them spinning.
    VariantGrid *grid = m_window->variants()->grid();
    QVERIFY(grid);
    QCOMPARE(grid->frameIds().size(), 3);
    QCOMPARE(grid->pendingCount(), 3);
    QVERIFY(m_window->variants()->gridDialog()->isVisible());
    QVERIFY(waitIdle());
    const qint64 ms = wall.elapsed();
    QCOMPARE(creates().size(), 3);
    const FrameGraph &g = m_window->session()->graph();
    QCOMPARE(g.roots().size(), qsizetype(3));
    for (const QString &id : grid->frameIds()) {
        QVERIFY(frame(id).isDone());
        QVERIFY(frame(id).parentId.isEmpty());
        QCOMPARE(frame(id).prompt, QStringLiteral("a lighthouse at dusk"));
    }
    QTRY_COMPARE(grid->pendingCount(), 0);
    QVERIFY(grid->pickButton(grid->frameIds().first())->isEnabled());
    QVERIFY(p->prompt().isEmpty());
    // Concurrent: about one turn's latency, far below three in a row.
    QVERIFY2(ms < 3 * 400, qPrintable(QString::number(ms)));
    qInfo("3 variants, 400 ms latency each: %lld ms wall time", ms);
}

void tst_Variants::editForksNBranchesAndSaysSoBeforeSending()
{
    const QString parent = generateOne(QStringLiteral("a harbour"));
    QVERIFY(!parent.isEmpty());
    const QString parentInteraction = frame(parent).interactionId;
    QVERIFY(!parentInteraction.isEmpty());
    m_window->selection()->select(parent);
    PromptPanel *p = m_window->promptPanel();
    p->setVariants(4);
    // Before anything is sent: the button and the reason line say it is a fork of N branches.
    QCOMPARE(p->sendButton()->text(), QStringLiteral("Send 4 variants"));
    const QString label = m_window->selection()->label(parent);
    QVERIFY2(p->contextText().contains(QStringLiteral("an explicit fork: 4 new branches from %1").arg(label)),
        qPrintable(p->contextText()));
    QVERIFY(p->sendButton()->toolTip().contains(QStringLiteral("sibling branches")));
    // The timeline's dashed slot says "new branch", not "next edit".
    QCOMPARE(m_window->timelineView()->attachHint(), TimelineView::AttachHint::Branch);
    p->setVariants(1);
    QCOMPARE(m_window->timelineView()->attachHint(), TimelineView::AttachHint::Edit);
    QVERIFY(!p->contextText().contains(QStringLiteral("explicit fork")));
    p->setVariants(4);
    m_server->clearRequests();
    send(QStringLiteral("at night"), 4);
    QVERIFY(waitIdle());
    const QList<FakeRequest> sent = creates();
    QCOMPARE(sent.size(), 4);
    for (const FakeRequest &r : sent) {
        const QJsonObject body = QJsonDocument::fromJson(r.body).object();
        QCOMPARE(body.value(QStringLiteral("previous_interaction_id")).toString(), parentInteraction);
    }
    const QStringList children = m_window->session()->graph().children(parent);
    QCOMPARE(children.size(), qsizetype(4));
    for (const QString &c : children) {
        QVERIFY(frame(c).isDone());
        QCOMPARE(frame(c).prompt, QStringLiteral("at night"));
    }
    QCOMPARE(m_window->timelineView()->laneCount(), 4); // four branches: four lanes
    QCOMPARE(m_window->variants()->grid()->frameIds().size(), 4);
}

void tst_Variants::pickStarsOneAndFoldsTheOthers()
{
    send(QStringLiteral("three teapots"), 3);
    QVERIFY(waitIdle());
    VariantGrid *grid = m_window->variants()->grid();
    const QStringList ids = grid->frameIds();
    QCOMPARE(ids.size(), 3);
    const int framesBefore = m_window->session()->graph().frames().size();
    QTest::mouseClick(grid->pickButton(ids.at(1)), Qt::LeftButton);
    QCOMPARE(grid->pickedId(), ids.at(1));
    QVERIFY(frame(ids.at(1)).starred);
    QVERIFY(!frame(ids.at(1)).folded);
    QVERIFY(frame(ids.at(0)).folded && !frame(ids.at(0)).starred);
    QVERIFY(frame(ids.at(2)).folded && !frame(ids.at(2)).starred);
    QCOMPARE(m_window->selection()->currentId(), ids.at(1));
    // Nothing deleted: all frames live, none in the trash; the model says which are folded.
    QCOMPARE(m_window->session()->graph().frames().size(), framesBefore);
    for (const QString &id : ids)
        QVERIFY(!frame(id).isTrashed());
    TimelineModel *model = m_window->timelineModel();
    QVERIFY(model->indexOf(ids.at(0)).data(TimelineRole::Folded).toBool());
    QVERIFY(!model->indexOf(ids.at(1)).data(TimelineRole::Folded).toBool());
    // One undo step brings all three back as they were.
    m_window->session()->undoStack()->undo();
    QVERIFY(!frame(ids.at(1)).starred && !frame(ids.at(0)).folded && !frame(ids.at(2)).folded);
    m_window->session()->undoStack()->redo();
    QVERIFY(frame(ids.at(1)).starred && frame(ids.at(0)).folded);
    // Unfold one again from the timeline's choice.
    QVERIFY(m_window->session()->setFolded({ids.at(2)}, false));
    QVERIFY(!frame(ids.at(2)).folded);

    // The fold persists: reopened from disk, the pick and the folds are as left.
    QVERIFY(m_window->sessions()->flush());
    delete m_window;
    m_window = nullptr;
    SessionStore store;
    QVERIFY(store.open(m_sessionDir, SessionStore::OpenMode::ReadOnly));
    QCOMPARE(store.graph().frames().size(), framesBefore);
    QVERIFY(store.graph().value(ids.at(1)).starred);
    QVERIFY(store.graph().value(ids.at(0)).folded);
    QVERIFY(!store.graph().value(ids.at(2)).folded);
    QVERIFY(!store.graph().value(ids.at(1)).folded);
}

void tst_Variants::budgetRefusesTheWholeBatch()
{
    SessionController *s = m_window->session();
    const TurnEstimate one
        = estimateTurn(s->graph(), s->priceTable(), FrameKind::Generate, QString::fromLatin1(kDefaultModel));
    QVERIFY(one.usd > 0);
    SessionSettings settings = s->settings();
    settings.budgetUsd = one.usd * 2.5; // two turns fit, three do not
    s->setSettings(settings);
    m_server->clearRequests();
    send(QStringLiteral("too many"), 3);
    QTest::qWait(200);
    QCOMPARE(m_server->requests().size(), 0); // nothing sent
    QCOMPARE(s->graph().frames().size(), 0);  // nothing added
    QVERIFY2(m_window->notices()->lastMessage().contains(QStringLiteral("budget")),
        qPrintable(m_window->notices()->lastMessage()));
    QCOMPARE(m_window->promptPanel()->prompt(), QStringLiteral("too many")); // kept for another try
    // Two fit.
    send(QStringLiteral("two fit"), 2);
    QVERIFY(waitIdle());
    QCOMPARE(creates().size(), 2);
}

void tst_Variants::sendButtonSaysWhatSendingWillCost()
{
    SessionController *s = m_window->session();
    const TurnEstimate one
        = estimateTurn(s->graph(), s->priceTable(), FrameKind::Generate, QString::fromLatin1(kDefaultModel));
    QVERIFY(one.usd > 0);
    PromptPanel *p = m_window->promptPanel();
    p->setPrompt(QStringLiteral("a lighthouse"));
    p->setVariants(1);
    QVERIFY2(p->sendButton()->toolTip().contains(QStringLiteral("Estimated cost: %1").arg(formatUsd(one.usd))),
        qPrintable(p->sendButton()->toolTip()));
    p->setVariants(3); // the estimate follows the number of turns
    QVERIFY2(p->sendButton()->toolTip().contains(
                 QStringLiteral("Estimated cost: %1 for 3 turn").arg(formatUsd(one.usd * 3))),
        qPrintable(p->sendButton()->toolTip()));
    SessionSettings settings = s->settings();
    settings.budgetUsd = 1.0;
    s->setSettings(settings);
    p->setVariants(1);
    m_window->turns()->updatePlan();
    QVERIFY2(p->sendButton()->toolTip().contains(QStringLiteral("Budget: %1 of %2").arg(formatUsd(0), formatUsd(1.0))),
        qPrintable(p->sendButton()->toolTip()));
}

void tst_Variants::laneHeadersShowTheBranchCost()
{
    const QString root = generateOne(QStringLiteral("a kite"));
    QVERIFY(!root.isEmpty());
    m_window->selection()->select(root);
    send(QStringLiteral("red kite"), 2); // two branches from the root
    QVERIFY(waitIdle());
    SessionController *s = m_window->session();
    const CostLedger ledger(s->graph(), s->priceTable());
    TimelineView *view = m_window->timelineView();
    TimelineModel *model = m_window->timelineModel();
    QCOMPARE(view->laneCount(), 2);
    int checked = 0;
    for (const BranchCost &b : ledger.branches()) {
        const int lane = model->indexOf(b.branch.head()).data(TimelineRole::Lane).toInt();
        QVERIFY(b.ownUsd > 0);
        QCOMPARE(view->laneHeaderText(lane), formatUsd(b.ownUsd));
        const QString tip = view->laneHeaderToolTip(lane);
        QVERIFY2(tip.contains(QStringLiteral("Cost to reproduce")) && tip.contains(formatUsd(b.reproduceUsd)),
            qPrintable(tip));
        QVERIFY(view->laneHeaderRect(lane).isValid());
        ++checked;
    }
    QCOMPARE(checked, 2);
    // The header column is not a card: clicking it selects nothing.
    QVERIFY(!view->indexAt(view->laneHeaderRect(0).center()).isValid());
}

void tst_Variants::foldedCardsAreDrawnCollapsed()
{
    const QString id = generateOne(QStringLiteral("a cup"));
    QVERIFY(!id.isEmpty());
    TimelineView *view = m_window->timelineView();
    m_window->selection()->select(QString());
    QTest::qWait(100);
    const QRect card = view->visualRect(m_window->timelineModel()->indexOf(id));
    const QImage open = view->viewport()->grab(card).toImage();
    QVERIFY(m_window->session()->setFolded({id}, true));
    QTest::qWait(100);
    const QImage folded = view->viewport()->grab(card).toImage();
    QVERIFY2(open != folded, "a folded card looks like an open one");
    QVERIFY(m_window->session()->setFolded({id}, false));
    QTest::qWait(100);
    QCOMPARE(view->viewport()->grab(card).toImage(), open);
}

void tst_Variants::laneHeadersOnALargeSession()
{
    // 1,000 frames: a main line of 500 and 50 branches of 10 forking from it. The headers are
    // computed once per change (cached), so scrolling does not walk the graph again.
    SessionController *s = m_window->session();
    QList<Frame> frames;
    const QDateTime t0 = QDateTime::currentDateTimeUtc().addDays(-1);
    auto make = [&](const QString &parent, int i) {
        Frame f;
        f.id = Frame::newId();
        f.parentId = parent;
        f.kind = parent.isEmpty() ? FrameKind::Generate : FrameKind::Edit;
        f.prompt = QStringLiteral("step %1").arg(i);
        f.model = QString::fromLatin1(kDefaultModel);
        f.status = FrameStatus::Done;
        f.requestedAt = t0.addSecs(i);
        f.finishedAt = f.requestedAt.addSecs(5);
        f.usage.inputTokens = 1400;
        f.usage.outputTokens = 1120;
        f.usage.imageOutputTokens = 1120;
        frames.append(f);
        return f.id;
    };
    QStringList main;
    for (int i = 0; i < 500; ++i)
        main.append(make(main.isEmpty() ? QString() : main.last(), i));
    for (int b = 0; b < 50; ++b) {
        QString cur = main.at(b * 10);
        for (int i = 0; i < 10; ++i)
            cur = make(cur, 500 + b * 10 + i);
    }
    QVERIFY(s->store()->commit(frames, {}, frames.last().id));
    m_window->timelineModel()->refresh();
    TimelineView *view = m_window->timelineView();
    QTRY_COMPARE(view->laneCount(), 51);
    QElapsedTimer t;
    t.start();
    QStringList texts;
    for (int lane = 0; lane < view->laneCount(); ++lane)
        texts.append(view->laneHeaderText(lane));
    const qint64 firstMs = t.elapsed();
    t.restart();
    for (int lane = 0; lane < view->laneCount(); ++lane)
        QCOMPARE(view->laneHeaderText(lane), texts.at(lane));
    const qint64 cachedUs = t.nsecsElapsed() / 1000;
    const double perFrame = frameCost(frames.first(), s->priceTable()).usd;
    QCOMPARE(texts.at(1), formatUsd(10 * perFrame)); // a branch of 10 frames of its own
    t.restart();
    view->viewport()->repaint();
    const qint64 paintMs = t.elapsed();
    qInfo("1,000 frames, 51 lanes: lane headers %lld ms to compute, %lld us cached; a full repaint %lld ms", firstMs,
        cachedUs, paintMs);
    QVERIFY2(firstMs < 2000, qPrintable(QString::number(firstMs)));
}

QTEST_MAIN(tst_Variants)
#include "tst_variants.moc"
