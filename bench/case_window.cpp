// Case "window" (issue 10, case 2): from launching nb2lite-studio to its first painted frame,
// on an empty session and on the big sessions, against a bare Qt Widgets window launched the
// same way in the same run (alternated, so each ratio compares launches moments apart).
// Both print the time their first paint begins and the time it is over (NB2_BENCH_FIRST_PAINT),
// and quit.

#include "bench/benchcases.h"
#include "bench/benchcontext.h"

#include <QDir>

#include <chrono>

namespace nb2::bench {

namespace {

/** What one launch printed, in ms from the launch; < 0 where it printed nothing. */
struct Launch {
    double firstPaint = -1;     // the first paint event begins (the figure with the targets)
    double firstFrameDone = -1; // that paint pass is over: the first frame is complete
    double sessionOpen = -1;    // the studio: its session open and painted
    double guiCpu = -1;         // the studio: its GUI thread's CPU time up to the first paint
};

/** Launches the program and reads its NB2_BENCH_FIRST_PAINT lines; false (and *error) on failure. */
bool launch(
    const QString &program, const QStringList &args, const QProcessEnvironment &env, QString *error, Launch *out)
{
    const auto launched
        = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count();
    QByteArray printed;
    if (runProcess(program, args, env, 120000, error, &printed) < 0)
        return false;
    // "<key> <integer>" on a line of its own; -1 when the line is missing.
    auto value = [&printed](const QByteArray &key) -> qint64 {
        const qsizetype at = printed.indexOf(key + ' ');
        return at < 0 ? -1 : printed.mid(at + key.size() + 1).split('\n').first().trimmed().toLongLong();
    };
    const qint64 painted = value("first_paint_us");
    if (painted < 0) {
        *error = QStringLiteral("%1 printed no first paint").arg(program);
        return false;
    }
    auto sinceLaunch = [launched](qint64 us) { return us < 0 ? -1.0 : (us - launched) / 1000.0; };
    out->firstPaint = sinceLaunch(painted);
    out->firstFrameDone = sinceLaunch(value("first_frame_done_us"));
    out->sessionOpen = sinceLaunch(value("session_open_us"));
    const qint64 cpuUs = value("first_paint_gui_cpu_us");
    out->guiCpu = cpuUs < 0 ? -1 : cpuUs / 1000.0;
    return true;
}

} // namespace

void runWindowStart(Context &ctx)
{
    const QString kCase = QStringLiteral("window");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // 2: the studio also prints when its session is open and painted (it opens after the first
    // paint since the checkpoint is parsed on a worker); the bare window only knows 1.
    env.insert(QStringLiteral("NB2_BENCH_FIRST_PAINT"), QStringLiteral("2"));
    if (env.value(QStringLiteral("QT_QPA_PLATFORM")).isEmpty())
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), ctx.scratchDir + QStringLiteral("/window-config"));
    QList<int> sizes {0};
    sizes += ctx.bigSizes();
    for (int n : sizes) {
        QString dir = ctx.scratchDir + QStringLiteral("/window-empty");
        if (n > 0) {
            const Result<QString> made = ensureSession(ctx, n);
            if (!made)
                return ctx.report->addError(kCase, made.error().message);
            // A copy (images hard-linked): the studio opens the session after its first paint,
            // writes its lock and thumbnails, and the cache must stay as made.
            const Result<QString> copy
                = copySession(made.value(), ctx.scratchDir + QStringLiteral("/window-%1").arg(n));
            if (!copy)
                return ctx.report->addError(kCase, copy.error().message);
            dir = copy.value();
        }
        const QString label = n ? QStringLiteral("%1 frames").arg(n) : QStringLiteral("empty session");
        const double target = n >= 10000 ? 2.0 : n >= 1000 ? 1.5 : 0;
        Figure bare {kCase, QStringLiteral("bare Qt window, launch to first paint"), QStringLiteral("ms"), {},
            Goal::None, 0, {}};
        Figure app {kCase, QStringLiteral("nb2lite-studio, %1, launch to first paint").arg(label), QStringLiteral("ms"),
            {}, Goal::None, 0, {}};
        Figure ratio {kCase, QStringLiteral("studio / bare window, %1").arg(label), QStringLiteral("x"), {},
            target > 0 ? Goal::AtMost : Goal::None, target, {}};
        Figure shown {kCase, QStringLiteral("nb2lite-studio, %1, launch to the session open and painted").arg(label),
            QStringLiteral("ms"), {}, Goal::None, 0, {}};
        // Information beside the ratio: how many ms the studio takes beyond the bare window (a
        // launcher's own overhead, paid by both, moves the ratio but not this), and the GUI
        // thread's CPU up to the first paint (hardly moved by the machine's load).
        Figure gap {kCase, QStringLiteral("studio - bare window, %1, launch to first paint").arg(label),
            QStringLiteral("ms"), {}, Goal::None, 0, {}};
        Figure guiCpu {kCase, QStringLiteral("nb2lite-studio, %1, GUI thread CPU from exec to first paint").arg(label),
            QStringLiteral("ms"), {}, Goal::None, 0, {}};
        // Information for the 1,000-frame target, no target of its own: the bare window shows no
        // text, so it never loads the fonts before its first paint; the same window with one label does.
        const bool withLabel = n == 1000 || (ctx.quick && n > 0);
        Figure labelled {kCase, QStringLiteral("bare Qt window with one label, launch to first paint"),
            QStringLiteral("ms"), {}, Goal::None, 0, {}};
        Figure labelledRatio {kCase, QStringLiteral("studio / bare window with one label, %1").arg(label),
            QStringLiteral("x"), {}, Goal::None, 0, {}};
        // Information (no target): the same launches timed to the end of their first paint
        // pass, when the first frame is complete. The targets take the start of that pass in
        // both programs; a window with more to draw spends longer inside it.
        Figure bareDone {kCase, QStringLiteral("bare Qt window, launch to first frame complete"), QStringLiteral("ms"),
            {}, Goal::None, 0, {}};
        Figure appDone {kCase, QStringLiteral("nb2lite-studio, %1, launch to first frame complete").arg(label),
            QStringLiteral("ms"), {}, Goal::None, 0, {}};
        Figure doneRatio {kCase, QStringLiteral("studio / bare window, %1, first frame complete").arg(label),
            QStringLiteral("x"), {}, Goal::None, 0, {}};
        QString error;
        Launch unused;
        if (!ctx.quick) {
            launch(ctx.bareWindowPath, {}, env, &error, &unused); // warm the caches
            launch(ctx.studioPath, {QStringLiteral("--demo"), dir}, env, &error, &unused);
        }
        // 25 pairs: a launch is 40-70 ms, and on a shared 2-core machine single launches vary by a
        // third; with 9 pairs the median ratio still moved by 0.1x from one run to the next.
        for (int r = 0; r < ctx.runs(25); ++r) {
            Launch a, l, b;
            if (!launch(ctx.bareWindowPath, {}, env, &error, &a)
                || (withLabel && !launch(ctx.bareWindowPath, {QStringLiteral("--label")}, env, &error, &l))
                || !launch(ctx.studioPath, {QStringLiteral("--demo"), dir}, env, &error, &b))
                return ctx.report->addError(kCase, error);
            if (withLabel) {
                labelled.samples.push_back(l.firstPaint);
                labelledRatio.samples.push_back(b.firstPaint / l.firstPaint);
            }
            if (b.sessionOpen >= 0)
                shown.samples.push_back(b.sessionOpen);
            if (b.guiCpu >= 0)
                guiCpu.samples.push_back(b.guiCpu);
            if (a.firstFrameDone > 0 && b.firstFrameDone > 0) {
                bareDone.samples.push_back(a.firstFrameDone);
                appDone.samples.push_back(b.firstFrameDone);
                doneRatio.samples.push_back(b.firstFrameDone / a.firstFrameDone);
            }
            bare.samples.push_back(a.firstPaint);
            app.samples.push_back(b.firstPaint);
            ratio.samples.push_back(b.firstPaint / a.firstPaint);
            gap.samples.push_back(b.firstPaint - a.firstPaint);
        }
        if (n == 0)
            ctx.report->add(bare);
        ctx.report->add(app);
        ctx.report->add(ratio);
        ctx.report->add(gap);
        if (!guiCpu.samples.empty())
            ctx.report->add(guiCpu);
        if (withLabel) {
            ctx.report->add(labelled);
            ctx.report->add(labelledRatio);
        }
        if (!shown.samples.empty())
            ctx.report->add(shown);
        if (!appDone.samples.empty()) {
            if (n == 0)
                ctx.report->add(bareDone);
            ctx.report->add(appDone);
            ctx.report->add(doneRatio);
        }
    }
}

} // namespace nb2::bench
