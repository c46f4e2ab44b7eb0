// Renders docs/screenshots/drift-badge-heatmap.png and keep-list.png (issue 13) against the
// in-process fake backend, plus the same at 800x600 (suffix -800x600).
// Run under Xvfb:  xvfb-run -a -s "-screen 0 1600x1000x24" nb2-driftshots <out-dir> [suffix]
// With QT_SCALE_FACTOR=2 pass a suffix such as "-scale2" so the normal shots are not replaced.
#include "core/fakeapi/fakeserver.h"
#include "core/session/appsettings.h"
#include "core/session/editfinisher.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "ui/canvasview.h"
#include "ui/compareview.h"
#include "ui/driftwatch.h"
#include "ui/frameselection.h"
#include "ui/imagestage.h"
#include "ui/keeplistwidget.h"
#include "ui/mainwindow.h"
#include "ui/promptpanel.h"
#include "ui/screenfit.h"
#include "ui/sessionmanager.h"
#include "ui/theme.h"
#include "ui/turndispatcher.h"
#include "ui/windowsettings.h"
#include "uitesthelpers.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QElapsedTimer>
#include <QSettings>
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

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("NB2LiteScreenshots"));
    QApplication::setApplicationName(QStringLiteral("NB2Lite Studio"));
    qputenv("NB2_NO_AUTO_SETTINGS", "1");
    applyTheme(app, ThemeMode::Light);
    const QString out = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral(".");
    const QString suffix = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QString();
    QDir().mkpath(out);

    QTemporaryDir tmp;
    {
        QSettings s;
        s.clear();
        appprefs::sessionsFolder.write(s, tmp.path() + QStringLiteral("/sessions"));
    }
    FakeServerOptions options;
    options.apiKey = QStringLiteral("demo-key");
    options.latencyMs = 200;
    FakeServer server(options);
    if (!server.start(0))
        return 1;

    MainWindow w;
    w.setBackend(nb2test::fakeConfig(server, QStringLiteral("demo-key")), true);
    if (!w.sessions()->open(tmp.path() + QStringLiteral("/Jar study")))
        return 2;
    w.resize(1440, 900);
    fitToScreen(&w);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return 3;
    SessionController *s = w.session();
    EditFinisher *finisher = w.findChild<DriftWatch *>()->finisher();
    auto run = [&](const QString &prompt) {
        w.promptPanel()->setPrompt(prompt);
        w.turns()->submit();
        waitFor([&] { return s->isIdle() && finisher->runningCount() == 0; });
        QTest::qWait(300);
        return w.selection()->currentId();
    };
    int failures = 0;
    w.promptPanel()->setAspectRatio(QStringLiteral("3:2"));
    const QString root = run(QStringLiteral("A glass jar of honey on a kitchen table, handwritten label"));
    s->setKeepList(root,
        {QStringLiteral("keep the label text"), QStringLiteral("same framing"),
            QStringLiteral("keep the wooden table")});
    QTest::qWait(200);
    run(QStringLiteral("Morning light from the left"));
    const QString edit = run(QStringLiteral("Add a bee on the lid"));

    for (const bool small : {false, true}) {
        if (small)
            w.resize(800, 600);
        else
            w.resize(1440, 900);
        const QString size = small ? QStringLiteral("-800x600") : QString();
        // The badge on the cards, the warning and the heatmap over the child in Compare.
        w.selection()->select(edit);
        w.stage()->compareView()->setMode(CompareView::Mode::SideBySide);
        w.stage()->showCompare();
        waitFor([&] { return w.stage()->compareView()->hasHeatmap(); }, 5000);
        w.stage()->compareView()->setHeatmapShown(true);
        QTest::qWait(900);
        failures += !nb2test::saveScreenshot(&w, out, QStringLiteral("drift-badge-heatmap%1%2.png").arg(size, suffix));
        w.stage()->compareView()->setHeatmapShown(false);
        w.stage()->showCanvas();

        // The keep-list above the prompt, inherited by the edit; Frame Details shows both prompts.
        w.selection()->select(edit);
        w.promptPanel()->setPrompt(QStringLiteral("Make the honey darker"));
        QTest::qWait(700);
        failures += !nb2test::saveScreenshot(&w, out, QStringLiteral("keep-list%1%2.png").arg(size, suffix));
        w.promptPanel()->setPrompt(QString());
    }

    // A heatmap that became a link out of the session (crafted): Compare shows none and says why.
    w.resize(1440, 900);
    const QString heatmap = s->store()->absolutePath(s->graph().value(edit).drift.heatmapFile);
    const QString outside = tmp.filePath(QStringLiteral("elsewhere.png"));
    if (!QFile::rename(heatmap, outside) || !QFile::link(outside, heatmap))
        return failures + 1;
    w.selection()->select(edit);
    w.stage()->showCompare();
    waitFor([&] { return !w.stage()->compareView()->shownRightImage().isNull(); }, 5000);
    QTest::qWait(700);
    failures += !nb2test::saveScreenshot(&w, out, QStringLiteral("compare-heatmap-refused%1.png").arg(suffix));
    return failures;
}
