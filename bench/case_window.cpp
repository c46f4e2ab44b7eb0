// Case "window" (issue 10, case 2): from launching nb2lite-studio to its first painted frame,
// on an empty session and on the big sessions, against a bare Qt Widgets window launched the
// same way in the same run (alternated, so each ratio compares launches moments apart).
// Both print the time of their first paint (NB2_BENCH_FIRST_PAINT) and quit.

#include "bench/benchcases.h"
#include "bench/benchcontext.h"

#include <QDir>

#include <chrono>

namespace nb2::bench {

namespace {

/**
 * Launch-to-first-paint in ms, < 0 on failure; sessionOpenMs: launch to the session shown, and
 * guiCpuMs: the GUI thread's CPU time up to the first paint, when printed (the studio prints both).
 */
double firstPaintMs(const QString &program, const QStringList &args, const QProcessEnvironment &env, QString *error,
    double *sessionOpenMs = nullptr, double *guiCpuMs = nullptr)
{
    const auto launched
        = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count();
    QByteArray out;
    if (runProcess(program, args, env, 120000, error, &out) < 0)
        return -1;
    const qsizetype at = out.indexOf("first_paint_us ");
    if (at < 0) {
        *error = QStringLiteral("%1 printed no first paint").arg(program);
        return -1;
    }
    const qint64 painted = out.mid(at + 15).split('\n').first().trimmed().toLongLong();
    if (const qsizetype shown = out.indexOf("session_open_us "); sessionOpenMs && shown >= 0)
        *sessionOpenMs = (out.mid(shown + 16).split('\n').first().trimmed().toLongLong() - launched) / 1000.0;
    if (const qsizetype cpu = out.indexOf("first_paint_gui_cpu_us "); guiCpuMs && cpu >= 0)
        *guiCpuMs = out.mid(cpu + 23).split('\n').first().trimmed().toLongLong() / 1000.0;
    return (painted - launched) / 1000.0;
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
        QString error;
        if (!ctx.quick) {
            firstPaintMs(ctx.bareWindowPath, {}, env, &error); // warm the caches
            firstPaintMs(ctx.studioPath, {QStringLiteral("--demo"), dir}, env, &error);
        }
        // 25 pairs: a launch is 40-70 ms, and on a shared 2-core machine single launches vary by a
        // third; with 9 pairs the median ratio still moved by 0.1x from one run to the next.
        for (int r = 0; r < ctx.runs(25); ++r) {
            const double a = firstPaintMs(ctx.bareWindowPath, {}, env, &error);
            const double l = withLabel ? firstPaintMs(ctx.bareWindowPath, {QStringLiteral("--label")}, env, &error) : 0;
            double sessionMs = -1;
            double cpuMs = -1;
            const double b
                = firstPaintMs(ctx.studioPath, {QStringLiteral("--demo"), dir}, env, &error, &sessionMs, &cpuMs);
            if (a < 0 || l < 0 || b < 0)
                return ctx.report->addError(kCase, error);
            if (withLabel) {
                labelled.samples.push_back(l);
                labelledRatio.samples.push_back(b / l);
            }
            if (sessionMs >= 0)
                shown.samples.push_back(sessionMs);
            if (cpuMs >= 0)
                guiCpu.samples.push_back(cpuMs);
            bare.samples.push_back(a);
            app.samples.push_back(b);
            ratio.samples.push_back(b / a);
            gap.samples.push_back(b - a);
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
    }
}

} // namespace nb2::bench
