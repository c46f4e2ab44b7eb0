// Case "responsive" (issue 10, case 5): the GUI thread's longest event-loop stall (target <=
// 16 ms, one frame at 60 Hz) while 8 requests return 1 MB images at once, while the biggest
// session opens, while it is exported to HTML, and while a second process appends frames to
// it. The session has the app's timeline model attached, so model updates are included.
// Opening is measured on the app's own path: a main window (model and view) opening the
// session as the Open and Open Recent menus do (SessionManager::openInBackground).

#include "bench/benchcases.h"
#include "bench/benchcontext.h"
#include "bench/stallmonitor.h"

#include "core/export/exporter.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "ui/exportdialog.h"
#include "ui/mainwindow.h"
#include "ui/sessionmanager.h"
#include "ui/timelinemodel.h"

#include <QCoreApplication>
#include <QDir>
#include <QFutureWatcher>
#include <QProcess>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

#include <map>

namespace nb2::bench {

void runResponsiveness(Context &ctx)
{
    const QString kCase = QStringLiteral("responsive");
    std::unique_ptr<FakeServer> fake = startFake(300);
    if (!fake)
        return ctx.report->addError(kCase, QStringLiteral("the fake server did not start"));
    const int biggest = ctx.bigSizes().last();
    const Result<QString> cached = ensureSession(ctx, biggest);
    if (!cached)
        return ctx.report->addError(kCase, cached.error().message);
    const Result<QString> copy = copySession(cached.value(), ctx.scratchDir + QStringLiteral("/responsive"));
    if (!copy)
        return ctx.report->addError(kCase, copy.error().message);
    const QString dir = copy.value();
    const QString size = QStringLiteral("%1 frames").arg(biggest);
    auto figure = [&](const QString &name) {
        return Figure {kCase, name, QStringLiteral("ms"), {}, Goal::AtMost, 16, {}};
    };

    Figure opening = figure(QStringLiteral("longest stall: opening %1 from the menu (window, model, view)").arg(size));
    Figure turns = figure(QStringLiteral("longest stall: 8 concurrent 1 MB turns on %1").arg(size));
    Figure exporting = figure(QStringLiteral("longest stall: HTML export of %1").arg(size));
    Figure appending = figure(QStringLiteral("longest stall: another process appends 5 frames to %1").arg(size));
    // The window keeps its settings (last and recent sessions) in the scratch folder.
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, ctx.scratchDir + QStringLiteral("/settings"));
    qputenv("NB2_NO_AUTO_SETTINGS", "1"); // no settings dialog for the missing API key
    // What the longest stalls were made of (the note of each figure): the GUI thread's own CPU
    // (the app's work) against its wait for a CPU (the machine's load), the largest of the runs.
    std::map<Figure *, std::pair<double, double>> parts;
    auto sample = [&parts](Figure &f, StallMonitor &m) {
        f.samples.push_back(m.stop());
        auto &[cpu, wait] = parts[&f];
        cpu = std::max(cpu, m.cpuInLongestMs());
        wait = std::max(wait, m.runQueueWaitInLongestMs());
    };
    for (int r = 0; r < ctx.runs(3, 1); ++r) {
        {
            MainWindow window;
            window.resize(1280, 800);
            window.show();
            waitUntil([] { return false; }, 300); // shown, painted, idle
            StallMonitor monitor;
            monitor.start();
            bool done = false;
            QString error;
            window.sessions()->openInBackground(dir, [&](const Result<void> &opened) {
                done = true;
                error = opened ? QString() : opened.error().message;
            });
            if (!waitUntil([&done] { return done; }, 120000) || !error.isEmpty())
                return ctx.report->addError(kCase, QStringLiteral("cannot open %1: %2").arg(dir, error));
            waitUntil([] { return false; }, 300); // what the open queued (layout, paint, thumbnails)
            sample(opening, monitor);
            if (window.sessions()->session()->graph().size() < biggest)
                return ctx.report->addError(kCase, QStringLiteral("the window opened too few frames"));
        }
        SessionController c;
        TimelineModel model(&c);
        c.setClient(clientFor(*fake));
        SessionSettings s;
        s.concurrencyLimit = 8;
        s.recoverOnOpen = false;
        c.setSettings(s);
        if (!c.open(dir))
            return ctx.report->addError(kCase, QStringLiteral("cannot open %1").arg(dir));
        waitUntil([] { return false; }, 200); // what the open queued (model reset, writer reports)

        StallMonitor monitor;
        const Result<QString> head = c.resolveFrameRef(QStringLiteral("head"));
        monitor.start();
        for (int i = 0; i < 8 && head; ++i)
            c.branchFrom(head.value(), TurnParams {QStringLiteral("variant %1").arg(i), {}, {}, true});
        // Wait as the app does: the event loop runs (waitForIdle() would also block on flush()).
        if (!waitUntil([&c] { return c.isIdle(); }, 120000))
            return ctx.report->addError(kCase, QStringLiteral("the turns did not finish"));
        sample(turns, monitor);
        c.store()->flush();

        monitor.start();
        const QString exported = QStringLiteral("%1/export-%2").arg(ctx.scratchDir).arg(r);
        {
            // The app's path (WindowDialogs::showExport): the export model is made on a worker
            // from a copy of the graph, the Export dialog opens with it (its scope counts and
            // preview are GUI-thread work), and its Export button runs the export on a worker.
            QFutureWatcher<ExportSession> prepared;
            prepared.setFuture(prepareExportSession(c.graph(), c.store()->dir(), c.priceTable()));
            waitUntil([&prepared] { return prepared.isFinished(); }, 300000);
            const QString current = head ? head.value() : QString();
            ExportDialog dialog(prepared.result(), current.isEmpty() ? QStringList() : QStringList {current}, current);
            prepared.setFuture(QFuture<ExportSession>()); // as the app drops its watcher: the dialog holds the model
            dialog.show();
            waitUntil([] { return false; }, 100); // shown and painted
            dialog.setChoice(ExportDialog::Choice::HtmlPage);
            dialog.setCopyImages(false); // link the images: the bench measures the GUI, not the disk
            dialog.setOutputPath(exported);
            bool finished = false;
            bool ok = false;
            QObject::connect(&dialog, &ExportDialog::exportFinished, [&](bool result) {
                finished = true;
                ok = result;
            });
            dialog.startExporting();
            waitUntil([&finished] { return finished; }, 300000);
            if (!ok)
                return ctx.report->addError(
                    kCase, QStringLiteral("the export failed: %1").arg(dialog.lastOutcome().errorMessage));
        }
        sample(exporting, monitor);
        QDir(exported).removeRecursively(); // the bench's cleanup, not the app's: not measured

        monitor.start();
        const QProcessEnvironment env = cliEnvironment(*fake);
        for (int i = 0; i < 5; ++i) {
            QString error;
            if (runProcess(ctx.cliPath,
                    {QStringLiteral("--session"), dir, QStringLiteral("generate"),
                        QStringLiteral("from outside %1").arg(i)},
                    env, 120000, &error)
                < 0)
                return ctx.report->addError(kCase, error);
        }
        waitUntil([] { return false; }, 300); // the watcher's reload arrives
        sample(appending, monitor);
        c.close();
    }
    for (Figure *f : {&opening, &turns, &exporting, &appending}) {
        f->note = QStringLiteral("in the longest: GUI thread CPU <= %1 ms, waiting for a CPU <= %2 ms")
                      .arg(parts[f].first, 0, 'f', 1)
                      .arg(parts[f].second, 0, 'f', 1);
        ctx.report->add(*f);
    }
    QDir(dir).removeRecursively();
}

} // namespace nb2::bench
