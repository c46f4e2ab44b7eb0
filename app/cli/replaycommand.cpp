#include "app/cli/replaycommand.h"

#include "app/cli/cliargs.h"
#include "app/cli/clireport.h"
#include "app/cli/clitext.h"
#include "app/cli/console.h"
#include "app/cli/exitcodes.h"
#include "app/cli/jsonout.h"
#include "core/api/interactionsclient.h"
#include "core/session/costledger.h"
#include "core/session/replayrunner.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <cmath>

namespace nb2::cli {

namespace {

double roundUsd(double usd)
{
    return std::round(usd * 1e6) / 1e6;
}

CliReport errorReport(const Error &error)
{
    CliReport report;
    report.error = error;
    return report;
}

QString targetName(const ReplayTarget &t)
{
    return t.kind == ReplayTarget::Kind::Photo ? QDir::toNativeSeparators(t.photoFile) : t.frameId;
}

OutJson stateJson(const ReplayState &s, const SessionController &session)
{
    OutJson steps = OutJson::array();
    for (const ReplayStep &step : s.plan.steps)
        steps.push_back(OutJson {{"source", step.sourceFrameId.toStdString()}, {"prompt", step.prompt.toStdString()},
            {"note", stringOrNull(step.note)}});
    OutJson chains = OutJson::array();
    for (const ReplayChain &c : s.chains) {
        OutJson runs = OutJson::array();
        for (int i = 0; i < c.steps.size(); ++i) {
            const ReplayStepRun &r = c.steps.at(i);
            const Frame *f = r.frameId.isEmpty() ? nullptr : session.graph().frame(r.frameId);
            OutJson o {{"source", s.plan.steps.at(i).sourceFrameId.toStdString()},
                {"state", replayStepStateName(r.state).toStdString()}, {"frame_id", stringOrNull(r.frameId)}};
            if (f && f->isDone() && !f->image.isNull())
                o["path"] = QDir::toNativeSeparators(session.store()->absolutePath(f->image.file)).toStdString();
            if (!r.error.isEmpty())
                o["error"] = r.error.toStdString();
            runs.push_back(o);
        }
        OutJson target = OutJson::object();
        if (c.target.kind == ReplayTarget::Kind::Photo)
            target["photo"] = c.target.photoFile.toStdString();
        else
            target["frame"] = c.target.frameId.toStdString();
        chains.push_back(OutJson {{"target", target}, {"start_frame", stringOrNull(c.startFrameId)}, {"steps", runs}});
    }
    OutJson o = OutJson::object();
    o["replay"] = s.id.toStdString();
    o["from"] = s.plan.fromId.toStdString();
    o["to"] = s.plan.toId.toStdString();
    o["model"] = s.model.toStdString();
    o["thinking_level"] = stringOrNull(s.thinkingLevel);
    o["status"] = replayStatusName(s.status).toStdString();
    o["stop_reason"] = stringOrNull(s.stopReason);
    o["turns"] = s.totalSteps();
    o["done"] = s.doneSteps();
    o["steps"] = steps;
    o["chains"] = chains;
    return o;
}

QString planText(const ReplayState &s, const ReplayEstimate &e)
{
    QString text = CliText::tr("replay %1: %2..%3, %n step(s)", nullptr, int(s.plan.steps.size()))
                       .arg(s.id, s.plan.fromId, s.plan.toId)
        + QLatin1Char('\n');
    for (int i = 0; i < s.plan.steps.size(); ++i) {
        const ReplayStep &step = s.plan.steps.at(i);
        text += QStringLiteral("  %1. %2 \"%3\"").arg(QString::number(i + 1), step.sourceFrameId, step.prompt);
        if (!step.note.isEmpty())
            text += QStringLiteral(" (%1)").arg(step.note);
        text += QLatin1Char('\n');
    }
    for (const ReplayChain &c : s.chains)
        text += (c.target.kind == ReplayTarget::Kind::Photo ? CliText::tr("  onto picture %1 (a new root)")
                                                            : CliText::tr("  onto frame %1 (a new branch)"))
                    .arg(targetName(c.target))
            + QLatin1Char('\n');
    text += CliText::tr("%n turn(s) on %1, estimated %2 (%3)", nullptr, e.turns)
                .arg(s.model, formatUsd(e.totalUsd), e.basis)
        + QLatin1Char('\n');
    return text;
}

/** Runs one replay to its end; returns the exit status. */
int runOne(SessionController &session, ReplayState state, const CliArgs &a, Console &console)
{
    ReplayRunner runner(&session, std::move(state));
    QEventLoop loop;
    Error stopError;
    bool ended = false;
    QObject::connect(&runner, &ReplayRunner::finished, &loop, [&loop, &ended] {
        ended = true;
        loop.quit();
    });
    QObject::connect(&runner, &ReplayRunner::stopped, &loop, [&loop, &ended, &stopError](const Error &e) {
        stopError = e;
        ended = true;
        loop.quit();
    });
    QObject::connect(&runner, &ReplayRunner::paused, &runner, [&console](int delayMs, const QString &reason) {
        if (delayMs >= 0)
            console.err(CliText::tr("replay: %1").arg(reason) + QLatin1Char('\n'));
    });
    QObject::connect(&runner, &ReplayRunner::stepChanged, &runner, [&runner, &console](int chain, int step) {
        const ReplayState &s = runner.state();
        const ReplayStepRun &r = s.chains.at(chain).steps.at(step);
        if (r.state == ReplayStepState::Waiting)
            return;
        console.err(CliText::tr("replay: %1 step %2/%3 %4 %5")
                        .arg(targetName(s.chains.at(chain).target), QString::number(step + 1),
                            QString::number(s.plan.steps.size()), replayStepStateName(r.state), r.frameId)
            + QLatin1Char('\n'));
    });
    if (const Result<void> started = runner.start(); !started)
        return console.finish(errorReport(started.error()), a.json);
    if (!ended)
        loop.exec();
    session.waitForIdle(60 * 1000); // cancelled turns come back
    if (const Result<void> flushed = session.store()->flush(); !flushed)
        return console.finish(errorReport(flushed.error()), a.json);

    const ReplayState &s = runner.state();
    if (a.json) {
        OutJson o = OutJson::object();
        o["ok"] = s.status == ReplayStatus::Finished;
        o.update(stateJson(s, session));
        console.out(jsonLine(o));
    } else {
        QString text;
        for (const ReplayChain &c : s.chains) {
            QStringList frames;
            for (const ReplayStepRun &r : c.steps)
                frames << (r.frameId.isEmpty() ? QStringLiteral("-") : r.frameId);
            text += QStringLiteral("%1: %2 -> %3\n")
                        .arg(targetName(c.target), c.startFrameId, frames.join(QStringLiteral(" -> ")));
        }
        text += CliText::tr("replay %1 %2: %3 of %4 steps done")
                    .arg(s.id, replayStatusName(s.status), QString::number(s.doneSteps()),
                        QString::number(s.totalSteps()))
            + QLatin1Char('\n');
        console.out(text);
    }
    if (s.status == ReplayStatus::Finished)
        return kExitSuccess;
    // The exit status says why: the stop's own kind (quota, budget), else the first failed or cancelled step's.
    ErrorKind kind = ErrorKind::Server;
    for (const ReplayChain &c : s.chains) {
        for (const ReplayStepRun &r : c.steps) {
            if (kind != ErrorKind::Server
                || (r.state != ReplayStepState::Failed && r.state != ReplayStepState::Cancelled))
                continue;
            const Frame f = session.graph().value(r.frameId);
            const ErrorKind k = r.state == ReplayStepState::Cancelled || f.status == FrameStatus::Cancelled
                ? ErrorKind::Cancelled
                : errorKindFromName(f.error.kind);
            if (k != ErrorKind::None)
                kind = k;
        }
    }
    Error error = stopError.kind != ErrorKind::None ? stopError : Error::make(kind, s.stopReason);
    if (s.status == ReplayStatus::Cancelled)
        error = Error::make(ErrorKind::Cancelled, CliText::tr("The replay was cancelled."));
    if (error.message.isEmpty())
        error.message = CliText::tr("The replay did not finish.");
    error.message += CliText::tr(" -- nb2lite --session %1 replay --resume %2 continues it").arg(a.sessionDir, s.id);
    CliReport report = errorReport(error);
    console.err(console.printer().errorLine(report));
    return exitCodeOf(report);
}

int printPlan(const SessionController &session, const ReplayState &state, const CliArgs &a, Console &console)
{
    const QString model = state.model;
    const ReplayEstimate e
        = estimateReplay(session.graph(), session.priceTable(), state.plan, model, state.unsentSteps());
    const Result<void> allowed = CostLedger(session.graph(), session.priceTable())
                                     .checkBudget(session.settings().budgetUsd, FrameKind::Edit, model, e.turns);
    if (a.json) {
        OutJson o = OutJson::object();
        o["ok"] = true;
        o["dry_run"] = true;
        o.update(stateJson(state, session));
        o["turns"] = e.turns;
        o["estimate_usd"] = roundUsd(e.totalUsd);
        o["estimate_per_turn_usd"] = roundUsd(e.perTurnUsd);
        o["estimate_basis"] = e.basis.toStdString();
        o["budget_usd"] = session.settings().budgetUsd > 0 ? OutJson(session.settings().budgetUsd) : OutJson();
        o["within_budget"] = allowed.ok();
        console.out(jsonLine(o));
    } else {
        console.out(CliText::tr("dry run, nothing sent.") + QLatin1Char('\n') + planText(state, e));
    }
    if (!allowed) {
        CliReport report = errorReport(allowed.error());
        console.err(console.printer().errorLine(report));
        return exitCodeOf(report);
    }
    return kExitSuccess;
}

} // namespace

/** The forms the table cannot express (checked here, so the parser stays generic): a usage error, or empty. */
static QString replayUsageError(const CliArgs &a)
{
    if (a.resume && (!a.onto.isEmpty() || a.photos || a.positional.size() > 1))
        return CliText::tr("replay --resume takes at most a replay id, without --onto or --photos");
    if (a.resume)
        return {};
    if (a.onto.isEmpty() == !a.photos)
        return CliText::tr("replay needs exactly one of --onto REF or --photos FILE|DIR ...");
    if (!a.positional.value(0).contains(QStringLiteral("..")))
        return CliText::tr("replay needs a range FROM..TO (two frames of one branch), not '%1'")
            .arg(a.positional.value(0));
    if (!a.onto.isEmpty() && a.positional.size() != 1)
        return CliText::tr("replay --onto takes only the range: replay FROM..TO --onto REF");
    if (a.photos && a.positional.size() < 2)
        return CliText::tr("replay --photos needs at least one picture or folder after the range");
    return {};
}

int runReplay(SessionController &session, const CliArgs &a, Console &console)
{
    if (const QString usage = replayUsageError(a); !usage.isEmpty())
        return console.finish(failureReport(QStringLiteral("usage"), usage), a.json);
    const QString model = session.client() ? session.client()->config().model : a.model;
    const QString sessionDir = session.store()->dir();
    if (a.resume) {
        QList<ReplayState> states;
        if (!a.positional.isEmpty()) {
            Result<ReplayState> one = loadReplayState(sessionDir, a.positional.first());
            if (!one)
                return console.finish(errorReport(one.error()), a.json);
            states.append(one.value());
        } else {
            states = unfinishedReplays(sessionDir);
        }
        if (states.isEmpty()) {
            if (a.json)
                console.out(jsonLine(OutJson {{"ok", true}, {"resumed", OutJson::array()}}));
            else
                console.out(CliText::tr("no unfinished replay in this session") + QLatin1Char('\n'));
            return kExitSuccess;
        }
        int status = kExitSuccess;
        for (ReplayState &s : states) {
            if (!s.model.isEmpty() && s.model != model && !a.json)
                console.err(
                    CliText::tr("note: replay %1 was started with %2; it goes on with %3").arg(s.id, s.model, model)
                    + QLatin1Char('\n'));
            s.model = model;
            const int one = a.dryRun ? printPlan(session, s, a, console) : runOne(session, s, a, console);
            if (status == kExitSuccess)
                status = one;
        }
        return status;
    }

    const QString range = a.positional.first();
    const qsizetype dots = range.indexOf(QStringLiteral(".."));
    const Result<QString> from = session.resolveFrameRef(range.left(dots));
    if (!from)
        return console.finish(errorReport(from.error()), a.json);
    const Result<QString> to = session.resolveFrameRef(range.mid(dots + 2));
    if (!to)
        return console.finish(errorReport(to.error()), a.json);
    const Result<ReplayPlan> plan = [&]() -> Result<ReplayPlan> {
        if (a.onto.isEmpty())
            return planReplayOnPhotos(session.graph(), from.value(), to.value(), a.positional.mid(1));
        // "start": the frame FROM continued, so the replay becomes FROM's sibling branch (old vs new model).
        if (a.onto == QLatin1String("start")) {
            const QString start = session.graph().parent(from.value());
            if (start.isEmpty())
                return Error::make(ErrorKind::InvalidInput,
                    CliText::tr("Frame %1 is a root: it has no start to replay onto; name a frame with --onto.")
                        .arg(from.value()));
            return planReplayOnto(session.graph(), from.value(), to.value(), start);
        }
        const Result<QString> onto = session.resolveFrameRef(a.onto);
        if (!onto)
            return onto.error();
        return planReplayOnto(session.graph(), from.value(), to.value(), onto.value());
    }();
    if (!plan)
        return console.finish(errorReport(plan.error()), a.json);
    const ReplayState state = ReplayState::create(plan.value(), model, a.thinkingLevel);
    if (a.dryRun)
        return printPlan(session, state, a, console);
    if (!a.json) {
        const ReplayEstimate e = estimateReplay(session.graph(), session.priceTable(), state.plan, model);
        console.err(planText(state, e));
    }
    return runOne(session, state, a, console);
}

} // namespace nb2::cli
