// Renders the docs/screenshots/*.png of the main window against the demo (fake) backend.
// Run under Xvfb:  xvfb-run -a -s "-screen 0 1600x1000x24" nb2-screenshots <out-dir>
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "ui/compareview.h"
#include "ui/frameselection.h"
#include "ui/imagestage.h"
#include "ui/keystore.h"
#include "ui/mainwindow.h"
#include "ui/promptpanel.h"
#include "ui/screenfit.h"
#include "ui/sessionmanager.h"
#include "ui/settingsdialog.h"
#include "ui/theme.h"
#include "ui/thumbnailprovider.h"
#include "ui/timelinemodel.h"
#include "ui/timelineroles.h"
#include "ui/timelineview.h"
#include "ui/turndispatcher.h"
#include "ui/variantgrid.h"
#include "ui/variantsdispatch.h"
#include "uitesthelpers.h"

#include "ui/infopanel.h"
#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace nb2;

namespace {

bool waitFor(const std::function<bool()> &done, int timeoutMs = 30000)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QTest::qWait(20);
    }
    return true;
}

void settle(int ms = 600)
{
    QTest::qWait(ms);
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("NB2LiteScreenshots"));
    QApplication::setApplicationName(QStringLiteral("NB2Lite Studio"));
    qputenv("NB2_NO_AUTO_SETTINGS", "1");
    applyTheme(app, qEnvironmentVariable("NB2_THEME") == QLatin1String("dark") ? ThemeMode::Dark : ThemeMode::Light);
    const QString out = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral(".");
    QDir().mkpath(out);

    QTemporaryDir tmp;
    {
        QSettings s;
        s.clear();
        appprefs::sessionsFolder.write(s, tmp.path() + QStringLiteral("/sessions"));
    }
    FakeServerOptions options;
    options.apiKey = QStringLiteral("demo-key");
    options.latencyMs = 300;
    FakeServer server(options);
    if (!server.start(0))
        return 1;

    MainWindow w;
    ClientConfig config = nb2test::fakeConfig(server, QStringLiteral("demo-key"));
    config.maxRateLimitWaitMs = 1000;
    w.setBackend(config, true);
    if (!w.sessions()->open(tmp.path() + QStringLiteral("/Lighthouse study")))
        return 2;
    w.resize(1440, 900);
    fitToScreen(&w); // as the app does: at QT_SCALE_FACTOR=2 the window still fits the screen
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return 3;
    settle();
    int failures = 0;
    failures += !nb2test::saveScreenshot(&w, out, QStringLiteral("empty-window.png"));

    SessionController *s = w.session();
    auto idle = [s] { return s->isIdle(); };
    auto run = [&](const QString &prompt) {
        w.promptPanel()->setPrompt(prompt);
        w.turns()->submit();
        waitFor(idle);
        settle(200);
    };
    w.promptPanel()->setAspectRatio(QStringLiteral("3:2"));
    run(QStringLiteral("A lighthouse on a cliff at dusk, warm light in the window"));
    const QString first = w.selection()->currentId();
    run(QStringLiteral("Add a full moon above the sea"));
    const QString second = w.selection()->currentId();
    run(QStringLiteral("Make the sea stormy, with spray on the rocks"));
    w.selection()->select(first);
    run(QStringLiteral("Paint it as a loose watercolour"));
    const QString water = w.selection()->currentId();
    server.forget(s->graph().value(water).interactionId); // its server id expired: the next edit re-anchors
    run(QStringLiteral("Warmer colours, softer edges"));
    s->setStarred(water, true);

    // A pending branch from the second frame, left running while the screenshot is taken.
    server.setLatencyMs(120000);
    w.selection()->select(second);
    w.promptPanel()->setPrompt(QStringLiteral("The same scene in winter, snow on the cliff"));
    w.turns()->submit();
    waitFor([s] { return s->runningCount() == 1; });
    const QString pending = w.selection()->currentId();
    w.selection()->select(pending);
    w.promptPanel()->setPrompt(QString());
    QTest::qWait(3200); // let the card's elapsed counter show a few seconds
    failures += !nb2test::saveScreenshot(&w, out, QStringLiteral("two-branches-pending.png"));

    // Compare: the stormy edit against its parent, as a swipe.
    w.selection()->select(w.timelineModel()->frameIdAt(2));
    w.stage()->compareView()->setMode(CompareView::Mode::Swipe);
    w.stage()->showCompare();
    settle(1500);
    w.stage()->compareView()->setSwipePosition(0.5);
    settle(300);
    failures += !nb2test::saveScreenshot(&w, out, QStringLiteral("compare-view.png"));
    w.stage()->showCanvas();

    // Error state: a rate-limited request with its countdown.
    s->cancel(pending);
    waitFor(idle);
    s->deleteFrame(pending); // tidy up the cancelled branch, as a user would
    server.setLatencyMs(200);
    FakeFault fault;
    fault.kind = FakeFault::Kind::RateLimit;
    fault.retryAfterSeconds = 42;
    server.injectFault(fault, 10);
    w.selection()->select(water);
    w.promptPanel()->setPrompt(QStringLiteral("Add a small sailing boat on the horizon"));
    w.turns()->submit();
    waitFor(idle);
    settle(1200);
    failures += !nb2test::saveScreenshot(&w, out, QStringLiteral("error-state.png"));
    if (qEnvironmentVariableIsSet("NB2_SHOT_DEBUG")) {
        for (const char *name : {"infoKind", "infoError", "infoAspect"}) {
            auto *l = w.infoPanel()->findChild<QLabel *>(QLatin1String(name));
            qInfo("%s geo %d,%d %dx%d min %d hfw %d vis %d", name, l->x(), l->y(), l->width(), l->height(),
                l->minimumHeight(), l->heightForWidth(l->width()), l->isVisible());
        }
    }
    server.clearFaults();

    // A small screen, driven from the keyboard: 800×600, focus on the timeline (its ring shows
    // where the keyboard is), the prompt panel scrolling rather than overlapping.
    w.resize(800, 600);
    w.selection()->select(water);
    w.timelineView()->setFocus(Qt::TabFocusReason);
    settle(800);
    failures += !nb2test::saveScreenshot(&w, out, QStringLiteral("window-800x600-keyboard.png"));
    w.resize(1440, 900);
    settle(300);

    // Find and cost: "moon" found (bright) with its path, the rest dimmed; the frame's cost in
    // Frame Details and the session's in the status bar.
    w.selection()->select(second);
    if (auto *find = w.findChild<QLineEdit *>(QStringLiteral("findText")))
        find->setText(QStringLiteral("moon"));
    settle(600);
    failures += !nb2test::saveScreenshot(&w, out, QStringLiteral("find-and-cost.png"));
    if (auto *find = w.findChild<QLineEdit *>(QStringLiteral("findText")))
        find->clear();

    // Variants (issue 14): four variants of one edit, two arrived and two still spinning (the
    // session runs two at a time here), then the pick: starred, the others folded; each lane
    // header shows its branch's own cost.
    {
        SessionSettings one = s->settings();
        SessionSettings two = one;
        two.concurrencyLimit = 2;
        s->setSettings(two);
        server.setLatencyMs(1500);
        w.selection()->select(second);
        w.promptPanel()->setVariants(4);
        w.promptPanel()->setPrompt(QStringLiteral("A red lantern hanging by the door"));
        w.turns()->submit();
        VariantGrid *grid = w.variants()->grid();
        waitFor([&] { return grid && grid->pendingCount() == 2 && s->runningCount() == 2; });
        settle(700);
        failures += !nb2test::saveScreenshot(w.variants()->gridDialog(), out, QStringLiteral("variants-grid.png"));
        waitFor(idle);
        settle(300);
        grid->pick(grid->frameIds().at(2));
        w.variants()->gridDialog()->close();
        w.promptPanel()->setVariants(1);
        s->setSettings(one);
        server.setLatencyMs(200);
        // A taller timeline for this one: the lanes of the four variants and the ones above them.
        auto *timelineDock = w.findChild<QDockWidget *>(QStringLiteral("timelineDock"));
        w.resizeDocks({timelineDock}, {560}, Qt::Vertical);
        settle(300);
        w.timelineView()->scrollTo(w.timelineModel()->indexOf(grid->frameIds().at(3)));
        settle(800);
        failures += !nb2test::saveScreenshot(timelineDock, out, QStringLiteral("lane-cost.png"));
        w.resizeDocks({timelineDock}, {362}, Qt::Vertical);
    }

    // Settings dialog (key stored in a file: no keychain service under Xvfb).
    KeyStore keys;
    keys.setKeychainEnabled(false);
    keys.setFilePath(tmp.path() + QStringLiteral("/gemini.key"));
    SettingsDialog dialog(&keys, QProcessEnvironment(), &w);
    dialog.show();
    waitFor([&] { return dialog.isKeyLoaded(); }, 5000);
    dialog.resize(640, dialog.sizeHint().height());
    dialog.adjustSize();
    settle(500);
    failures += !nb2test::saveScreenshot(&dialog, out, QStringLiteral("settings-dialog.png"));
    dialog.reject();

    if (qEnvironmentVariableIsSet("NB2_SHOT_DEBUG")) {
        // Every card state side by side, for checking the delegate by eye (beside the others in
        // the output folder; not one of the committed screenshots).
        QStandardItemModel states;
        const QString img = s->store()->absolutePath(s->graph().value(first).image.file);
        const QDateTime now = QDateTime::currentDateTimeUtc();
        struct Row {
            TimelineState st;
            bool star, anchor;
            QDateTime expires, retry;
        };
        const QList<Row> rows {{TimelineState::Done, true, false, {}, {}},
            {TimelineState::Done, false, true, now.addSecs(20 * 3600), {}},
            {TimelineState::Pending, false, false, {}, {}}, {TimelineState::Failed, false, false, {}, now.addSecs(33)},
            {TimelineState::Interrupted, false, false, {}, {}}, {TimelineState::Cancelled, false, false, {}, {}},
            {TimelineState::Done, false, false, now.addSecs(-10), {}}};
        for (int i = 0; i < rows.size(); ++i) {
            auto *item = new QStandardItem;
            item->setData(QStringLiteral("f%1").arg(i), TimelineRole::FrameId);
            item->setData(i, TimelineRole::Depth);
            item->setData(0, TimelineRole::Lane);
            item->setData(i - 1, TimelineRole::ParentRow);
            item->setData(int(rows[i].st), TimelineRole::State);
            item->setData(QStringLiteral("edit"), TimelineRole::Kind);
            item->setData(i + 1, TimelineRole::Number);
            item->setData(QStringLiteral("3:2"), TimelineRole::AspectRatio);
            if (rows[i].st == TimelineState::Done)
                item->setData(img, TimelineRole::ImagePath);
            item->setData(now.addSecs(-7), TimelineRole::StartedAt);
            item->setData(rows[i].star, TimelineRole::Starred);
            item->setData(rows[i].anchor, TimelineRole::ReAnchored);
            item->setData(rows[i].expires, TimelineRole::ExpiresAt);
            item->setData(rows[i].retry, TimelineRole::RetryAt);
            states.appendRow(item);
        }
        ThumbnailProvider thumbs;
        TimelineView view;
        view.setThumbnailProvider(&thumbs);
        view.setModel(&states);
        view.resize(1100, 150);
        view.show();
        if (!QTest::qWaitForWindowExposed(&view))
            return 5;
        view.grab();
        settle(800);
        failures += !nb2test::saveScreenshot(&view, out, QStringLiteral("debug-timeline-states.png"));
    }

    for (const QString &id : s->graph().withStatus(FrameStatus::Pending))
        s->cancel(id);
    s->waitForIdle(5000);
    return failures;
}
