// Case "bigsession" (issue 10, case 3): sessions of 1,000 and 10,000 frames made through the
// controller against the fake (1 MB images, a fork every 10 frames). Manifest open time, the
// app's RSS after opening and after scrolling the whole timeline, the time of `nb2lite log` and
// `nb2lite cost` on it, and the disk used per frame beyond the image itself.

#include "bench/benchcases.h"
#include "bench/benchcontext.h"

#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

namespace nb2::bench {

void runBigSessions(Context &ctx)
{
    const QString kCase = QStringLiteral("bigsession");
    for (int n : ctx.bigSizes()) {
        const Result<QString> made = ensureSession(ctx, n);
        if (!made)
            return ctx.report->addError(kCase, made.error().message);
        const QString dir = made.value();
        const QString size = QStringLiteral("%1 frames").arg(n);

        Figure storeOpen {
            kCase, QStringLiteral("SessionStore::open, %1").arg(size), QStringLiteral("ms"), {}, Goal::AtMost, 200, {}};
        Figure controllerOpen {kCase, QStringLiteral("SessionController::open, %1").arg(size), QStringLiteral("ms"), {},
            Goal::AtMost, 200, {}};
        for (int r = 0; r < ctx.runs(7); ++r) {
            QElapsedTimer t;
            t.start();
            {
                SessionStore s;
                if (!s.open(dir, SessionStore::OpenMode::OpenExisting) || s.graph().size() != n)
                    return ctx.report->addError(
                        kCase, QStringLiteral("%1 did not open with %2 frames").arg(dir).arg(n));
                storeOpen.samples.push_back(t.nsecsElapsed() / 1e6);
            }
            t.restart();
            {
                SessionController c;
                SessionSettings s;
                s.recoverOnOpen = false;
                c.setSettings(s);
                if (!c.open(dir))
                    return ctx.report->addError(kCase, QStringLiteral("the controller did not open %1").arg(dir));
                controllerOpen.samples.push_back(t.nsecsElapsed() / 1e6);
            }
        }
        ctx.report->add(storeOpen);
        ctx.report->add(controllerOpen);

        // The app itself: RSS after opening, and after scrolling the timeline end to end.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("NB2_BENCH_PROBE"), QStringLiteral("scroll"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), ctx.scratchDir + QStringLiteral("/config"));
        QString error;
        QByteArray out;
        if (runProcess(ctx.studioPath, {QStringLiteral("--demo"), dir}, env, 300000, &error, &out) < 0) {
            ctx.report->addError(kCase, error);
        } else {
            const QJsonObject probe = QJsonDocument::fromJson(out.mid(out.indexOf("{"))).object();
            if (probe.isEmpty()) {
                ctx.report->addError(kCase,
                    QStringLiteral("the app printed no probe result: %1").arg(QString::fromLocal8Bit(out.left(300))));
            } else {
                ctx.report->addValue(kCase, QStringLiteral("app RSS after opening, %1").arg(size), QStringLiteral("MB"),
                    probe.value(QStringLiteral("rss_open_mb")).toDouble(), Goal::AtMost, 150);
                ctx.report->addValue(kCase, QStringLiteral("app RSS after scrolling the timeline, %1").arg(size),
                    QStringLiteral("MB"), probe.value(QStringLiteral("rss_scrolled_mb")).toDouble(), Goal::AtMost, 150,
                    QStringLiteral("%1 rows scrolled in %2 ms")
                        .arg(probe.value(QStringLiteral("rows")).toInt())
                        .arg(probe.value(QStringLiteral("scroll_ms")).toDouble()));
            }
        }

        // The reading commands an agent runs between turns, as processes (launch to exit).
        // Information, no target: `cost` took ~1.1 s at 10,000 frames before its branches were
        // summed in one pass.
        const QProcessEnvironment cliEnv = QProcessEnvironment::systemEnvironment();
        for (const QStringList &command :
            {QStringList {QStringLiteral("log"), QStringLiteral("--ids")}, QStringList {QStringLiteral("cost")}}) {
            Figure reading {kCase, QStringLiteral("nb2lite %1 process, %2").arg(command.join(QLatin1Char(' ')), size),
                QStringLiteral("ms"), {}, Goal::None, 0, {}};
            for (int r = 0; r < ctx.runs(5); ++r) {
                const double ms = runProcess(
                    ctx.cliPath, QStringList {QStringLiteral("--session"), dir} + command, cliEnv, 120000, &error);
                if (ms < 0)
                    return ctx.report->addError(kCase, error);
                reading.samples.push_back(ms);
            }
            ctx.report->add(reading);
        }

        // Disk: what the session keeps beyond the images (manifest, journal, lock), per frame.
        const qint64 total = diskBytes(dir);
        const qint64 images = diskBytes(dir + QStringLiteral("/images"));
        const qint64 thumbs = diskBytes(dir + QStringLiteral("/thumbs"));
        ctx.report->addValue(kCase, QStringLiteral("disk per frame beyond the image, %1").arg(size),
            QStringLiteral("KB"), (total - images - thumbs) / 1024.0 / n, Goal::None, 0,
            QStringLiteral("images %1 MB in all").arg(images / 1048576.0, 0, 'f', 0));
        ctx.report->addValue(
            kCase, QStringLiteral("image file per frame, %1").arg(size), QStringLiteral("KB"), images / 1024.0 / n);
    }
}

} // namespace nb2::bench
