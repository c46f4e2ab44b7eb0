// The replay panel (issue 14): Shift+click on the timeline picks the range along a branch, a
// replay onto two pictures shows per-step progress, pause holds the queue, cancel ends it.
// A photo still being imported (on a worker) shows its first step as "importing".
// With NB2_SCREENSHOT_OUT set it writes replay-progress.png, replay-dialog.png and
// replay-importing.png there (docs/screenshots/).

#include "../session/fifophoto.h"
#include "core/api/interactionsclient.h"
#include "core/common/translations.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/replayrunner.h"
#include "core/session/sessioncontroller.h"
#include "ui/replaydialog.h"
#include "ui/replaypanel.h"
#include "ui/timelinemodel.h"
#include "ui/timelineview.h"
#include "uitesthelpers.h"

#include <QBuffer>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace nb2;

class tst_ReplayPanel : public QObject
{
    Q_OBJECT

    static QString finish(SessionController &c, const Result<QString> &r)
    {
        return r && c.waitForIdle(20000) && c.graph().value(r.value()).isDone() ? r.value() : QString();
    }

    // A new session in dir, its client on the fake server; its config (the model it sends).
    static ClientConfig openOnFake(FakeServer &fake, const QTemporaryDir &dir, SessionController &c)
    {
        ClientConfig cfg = nb2test::fakeConfig(fake, QStringLiteral("test-key"));
        c.setClient(std::make_shared<InteractionsClient>(cfg));
        if (c.open(dir.filePath(QStringLiteral("s"))))
            c.waitForIdle(10000);
        return cfg;
    }

private Q_SLOTS:
    void initTestCase()
    {
        // As the app does: plural messages read "2 prompts", not "2 prompt(s)" (the screenshots).
        installTranslations(qApp, QLocale(QStringLiteral("en_US")));
    }
    void rangeProgressPauseCancel()
    {
        FakeServer fake;
        QVERIFY(fake.start(0));
        QTemporaryDir dir;
        SessionController c;
        const ClientConfig cfg = openOnFake(fake, dir, c);
        QVERIFY(c.isOpen());
        const QString g = finish(c, c.generate(nb2test::turn(QStringLiteral("a red fox"))));
        const QString e1 = finish(c, c.edit(g, nb2test::turn(QStringLiteral("make it night"))));
        const QString e2 = finish(c, c.edit(e1, nb2test::turn(QStringLiteral("add a lantern"))));
        const QString e3 = finish(c, c.edit(e2, nb2test::turn(QStringLiteral("let it snow"))));
        QVERIFY(!e3.isEmpty());

        TimelineModel model(&c);
        TimelineView view;
        view.setModel(&model);
        view.resize(900, 300);
        ReplayPanel panel(&c);
        panel.resize(560, 380);
        connect(&view, &TimelineView::rangeRequested, &panel, [&panel](const QModelIndex &a, const QModelIndex &b) {
            panel.setRange(a.data(TimelineRole::FrameId).toString(), b.data(TimelineRole::FrameId).toString());
        });
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        // Current frame e3, Shift+click e1: the range e1..e3, and the selection stays on e3.
        view.setCurrentIndex(model.indexOf(e3));
        QTest::mouseClick(
            view.viewport(), Qt::LeftButton, Qt::ShiftModifier, view.visualRect(model.indexOf(e1)).center());
        QCOMPARE(panel.rangeFrom(), e1);
        QCOMPARE(panel.rangeTo(), e3);
        QCOMPARE(view.currentIndex(), model.indexOf(e3));
        QVERIFY(panel.findChild<QPushButton *>(QStringLiteral("replayOntoButton"))->isEnabled());
        // Across branches: refused, with the reason.
        const QString side = finish(c, c.branchFrom(e1, nb2test::turn(QStringLiteral("a side branch"))));
        QVERIFY(!panel.setRange(side, e3));
        QVERIFY(!panel.findChild<QPushButton *>(QStringLiteral("replayOntoButton"))->isEnabled());
        QVERIFY(panel.setRange(e3, e1)); // either order

        const QString a = nb2test::writePng(dir.filePath(QStringLiteral("a.png")), {96, 64}, QColor(200, 80, 40));
        const QString b = nb2test::writePng(dir.filePath(QStringLiteral("b.png")), {96, 64}, QColor(40, 160, 90));
        fake.setLatencyMs(700);
        QVERIFY(panel.startReplay(planReplayOnPhotos(c.graph(), e1, e3, {a, b}).value()));
        auto *steps = panel.findChild<QTreeWidget *>(QStringLiteral("replaySteps"));
        auto *progress = panel.findChild<QProgressBar *>(QStringLiteral("replayProgress"));
        QCOMPARE(steps->topLevelItemCount(), 6);
        panel.show();
        QTRY_VERIFY_WITH_TIMEOUT(panel.runner()->state().doneSteps() >= 2, 30000);
        QTest::qWait(100);
        const QByteArray shots = qgetenv("NB2_SCREENSHOT_OUT");
        if (!shots.isEmpty())
            QVERIFY(panel.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/replay-progress.png"), "PNG"));

        // Pause: running steps finish, nothing new is sent.
        panel.findChild<QPushButton *>(QStringLiteral("replayPauseButton"))->click();
        QCOMPARE(panel.runner()->state().status, ReplayStatus::Paused);
        QVERIFY(c.waitForIdle(20000));
        const int creates = int(fake.requests().size());
        QTest::qWait(300);
        QCOMPARE(int(fake.requests().size()), creates);
        QVERIFY(panel.findChild<QLabel *>(QStringLiteral("replayStatus"))->text().contains(QStringLiteral("Paused")));
        panel.findChild<QPushButton *>(QStringLiteral("replayPauseButton"))->click(); // resume
        fake.setLatencyMs(0);
        QTRY_COMPARE_WITH_TIMEOUT(panel.runner()->state().status, ReplayStatus::Finished, 30000);
        QCOMPARE(progress->value(), 6);
        for (int i = 0; i < steps->topLevelItemCount(); ++i)
            QVERIFY(!steps->topLevelItem(i)->text(4).isEmpty()); // every row names its frame
        QCOMPARE(c.graph().value(steps->topLevelItem(5)->text(4)).replayOf, e3);

        // Cancel: the running step is cancelled and nothing after it is sent.
        fake.setLatencyMs(1500);
        QVERIFY(panel.startReplay(planReplayOnto(c.graph(), e1, e3, g).value()));
        QTRY_VERIFY_WITH_TIMEOUT(panel.runner()->state().chains[0].steps[0].state == ReplayStepState::Sent, 10000);
        panel.findChild<QPushButton *>(QStringLiteral("replayCancelButton"))->click();
        QCOMPARE(panel.runner()->state().status, ReplayStatus::Cancelled);
        QVERIFY(c.waitForIdle(20000));
        QCOMPARE(c.graph().value(panel.runner()->state().chains[0].steps[0].frameId).status, FrameStatus::Cancelled);
        QVERIFY(panel.runner()->state().chains[0].steps[1].frameId.isEmpty());
    }

    // While a photo is checked and copied in (a worker; here a FIFO nobody has written yet) its
    // first step reads "importing", the status line counts the imports, and the window
    // keeps painting; once it is in, the chain runs as any other.
    void importingPhotoShowsInProgress()
    {
        FakeServer fake;
        QVERIFY(fake.start(0));
        QTemporaryDir dir;
        SessionController c;
        openOnFake(fake, dir, c);
        QVERIFY(c.isOpen());
        const QString g = finish(c, c.generate(nb2test::turn(QStringLiteral("a red fox"))));
        const QString e1 = finish(c, c.edit(g, nb2test::turn(QStringLiteral("make it night"))));
        const QString e2 = finish(c, c.edit(e1, nb2test::turn(QStringLiteral("add a lantern"))));
        QVERIFY(!e2.isEmpty());
        const QString a
            = nb2test::writePng(dir.filePath(QStringLiteral("IMG_0001.png")), {96, 64}, QColor(200, 80, 40));
        const QString slow = dir.filePath(QStringLiteral("IMG_0002.jpg"));
        nb2::test::FifoPhoto photo(slow);
        QVERIFY(photo.isMade());

        ReplayPanel panel(&c);
        panel.resize(560, 380);
        QVERIFY(panel.setRange(e1, e2));
        ReplayPlan plan = planReplayOnto(c.graph(), e1, e2, e2).value();
        plan.targets
            = {ReplayTarget {ReplayTarget::Kind::Photo, {}, a}, ReplayTarget {ReplayTarget::Kind::Photo, {}, slow}};
        fake.setLatencyMs(400);
        QVERIFY(panel.startReplay(plan));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto *steps = panel.findChild<QTreeWidget *>(QStringLiteral("replaySteps"));
        auto *status = panel.findChild<QLabel *>(QStringLiteral("replayStatus"));
        QCOMPARE(steps->topLevelItemCount(), 4);
        QCOMPARE(steps->topLevelItem(2)->text(3), QStringLiteral("importing"));
        QCOMPARE(steps->topLevelItem(3)->text(3), QStringLiteral("waiting"));
        QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("Importing 1 photo")), 10000);
        QVERIFY(panel.findChild<QPushButton *>(QStringLiteral("replayCancelButton"))->isEnabled());
        QTest::qWait(100);
        const QByteArray shots = qgetenv("NB2_SCREENSHOT_OUT");
        if (!shots.isEmpty())
            QVERIFY(panel.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/replay-importing.png"), "PNG"));

        QImage picture(96, 64, QImage::Format_RGB32);
        picture.fill(QColor(40, 160, 90));
        QByteArray jpeg;
        QBuffer buffer(&jpeg);
        buffer.open(QIODevice::WriteOnly);
        QVERIFY(picture.save(&buffer, "JPEG"));
        fake.setLatencyMs(0);
        photo.feed(jpeg);
        QTRY_COMPARE_WITH_TIMEOUT(panel.runner()->state().status, ReplayStatus::Finished, 30000);
        QCOMPARE(steps->topLevelItem(2)->text(3), QStringLiteral("done"));
        QVERIFY(!status->text().contains(QStringLiteral("Importing")));
        QCOMPARE(c.graph().value(panel.runner()->state().chains[1].startFrameId).title, QStringLiteral("IMG_0002.jpg"));
    }

    // "Replay onto…" shows the model the turns go to and lets every step be sent at one thinking
    // level (the CLI's --thinking); "As each step was made" keeps each source step's level.
    void dialogThinkingLevel()
    {
        FakeServer fake;
        QVERIFY(fake.start(0));
        QTemporaryDir dir;
        SessionController c;
        const ClientConfig cfg = openOnFake(fake, dir, c);
        QVERIFY(c.isOpen());
        TurnParams lowTurn = nb2test::turn(QStringLiteral("a red fox"));
        lowTurn.thinkingLevel = QStringLiteral("low");
        const QString g = finish(c, c.generate(lowTurn));
        lowTurn.prompt = QStringLiteral("make it night");
        const QString e1 = finish(c, c.edit(g, lowTurn));
        lowTurn.prompt = QStringLiteral("add a lantern");
        const QString e2 = finish(c, c.edit(e1, lowTurn));
        QVERIFY(!e2.isEmpty());

        ReplayPanel panel(&c);
        QVERIFY(panel.setRange(e1, e2));
        const auto sentLevels = [&fake] {
            QStringList levels;
            for (const FakeRequest &r : fake.requests()) {
                if (r.method != QLatin1String("POST"))
                    continue;
                const QJsonObject body = QJsonDocument::fromJson(r.body).object();
                levels << body.value(QStringLiteral("generation_config"))
                              .toObject()
                              .value(QStringLiteral("thinking_level"))
                              .toString();
            }
            return levels;
        };

        for (const QString &choice : {QStringLiteral("high"), QString()}) {
            ReplayDialog dialog(&c, e1, e2, g);
            auto *model = dialog.findChild<QLabel *>(QStringLiteral("replayModel"));
            QVERIFY(model && model->text().contains(cfg.model));
            auto *thinking = dialog.findChild<QComboBox *>(QStringLiteral("replayThinking"));
            QVERIFY(thinking);
            QCOMPARE(thinking->itemData(0).toString(), QString()); // the default keeps each step's level
            QCOMPARE(dialog.thinkingLevel(), QString());
            const int i = thinking->findData(choice);
            QVERIFY2(i >= 0, qPrintable(choice));
            thinking->setCurrentIndex(i);
            QCOMPARE(dialog.thinkingLevel(), choice);
            const QByteArray shots = qgetenv("NB2_SCREENSHOT_OUT");
            if (!shots.isEmpty() && !choice.isEmpty()) {
                dialog.show();
                QVERIFY(QTest::qWaitForWindowExposed(&dialog));
                QVERIFY(
                    dialog.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/replay-dialog.png"), "PNG"));
            }
            const Result<ReplayPlan> plan = dialog.plan();
            QVERIFY(plan);

            fake.clearRequests();
            QVERIFY(panel.startReplay(plan.value(), dialog.thinkingLevel()));
            QTRY_COMPARE_WITH_TIMEOUT(panel.runner()->state().status, ReplayStatus::Finished, 30000);
            QCOMPARE(panel.runner()->state().thinkingLevel, choice);
            const QString expected = choice.isEmpty() ? QStringLiteral("low") : choice;
            QCOMPARE(sentLevels(), QStringList({expected, expected}));
        }
    }
};

QTEST_MAIN(tst_ReplayPanel)
#include "tst_replaypanel.moc"
