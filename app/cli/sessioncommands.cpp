#include "app/cli/sessioncommands.h"

#include "app/cli/cliargs.h"
#include "app/cli/clisetup.h"
#include "app/cli/clitext.h"
#include "app/cli/console.h"
#include "app/cli/costcommands.h"
#include "app/cli/demobackend.h"
#include "app/cli/exitcodes.h"
#include "app/cli/jsonout.h"
#include "app/cli/keepcommand.h"
#include "app/cli/loggraph.h"
#include "app/cli/precisioncommand.h"
#include "app/cli/replaycommand.h"
#include "app/cli/signalcancel.h"
#include "core/api/interactionsclient.h"
#include "core/export/provenance.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QThreadPool>

#include <nlohmann/json.hpp>

namespace nb2::cli {

namespace {

QString oneLine(QString s, int max = 48)
{
    s.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return s.size() > max ? s.left(max - 1) + QChar(0x2026) : s;
}

QString frameLine(const Frame &f)
{
    QString line = QStringLiteral("%1 %2 %3").arg(f.id, frameKindName(f.kind), frameStatusName(f.status));
    if (!f.prompt.isEmpty())
        line += QStringLiteral(" \"%1\"").arg(oneLine(f.prompt));
    if (!f.interactionId.isEmpty())
        line += QStringLiteral(" id=%1").arg(f.interactionId);
    if (f.idExpiresAt.isValid())
        line += QStringLiteral(" expires=%1").arg(f.idExpiresAt.toString(Qt::ISODate));
    if (!f.lineage.isEmpty())
        line += f.lineage.frameId.isEmpty() ? CliText::tr(" [lineage record]")
                                            : CliText::tr(" [lineage: frame %1]").arg(f.lineage.frameId);
    if (f.reAnchored)
        line += CliText::tr(" [re-anchored: continuity may differ]");
    if (f.starred)
        line += QStringLiteral(" *");
    if (!f.title.isEmpty())
        line += QStringLiteral(" (%1)").arg(oneLine(f.title, 32));
    if (f.isTrashed())
        line += QStringLiteral(" [trash]");
    if (f.status == FrameStatus::Failed || f.status == FrameStatus::Interrupted)
        line += QStringLiteral(" -- %1").arg(oneLine(f.statusText(), 100));
    return line;
}

/** Every frame (the trash too: each frame says whether it is trashed), the live roots, heads and branches. */
OutJson graphJson(const SessionStore &store)
{
    const FrameGraph &g = store.graph();
    OutJson frames = OutJson::array();
    for (const Frame &f : g.frames())
        frames.push_back(toOutJson(QJsonValue(f.toJson())));
    OutJson branches = OutJson::array();
    for (const Branch &b : g.branches())
        branches.push_back(OutJson {{"head", b.head().toStdString()}, {"path", toOutJson(b.path)}});
    OutJson o = OutJson::object();
    o["session"] = toOutJson(store.dir());
    o["current_frame"] = toOutJson(store.currentFrameId());
    o["roots"] = toOutJson(g.roots());
    o["heads"] = toOutJson(g.heads());
    o["branches"] = branches;
    o["frames"] = frames;
    return o;
}

CliReport errorReport(const Error &error)
{
    CliReport report;
    report.error = error;
    return report;
}

/** Settings from the session options (parsed and range-checked by the command line). */
SessionSettings settingsFrom(const CliArgs &a)
{
    SessionSettings settings;
    // Crashed or cut-off turns are fetched by `recover` only: no other command goes to the
    // server for them or changes them behind the user's back.
    settings.recoverOnOpen = a.command == CliCommand::Recover || (a.command == CliCommand::Replay && a.resume);
    settings.autoReAnchor = !a.noReAnchor;
    if (a.lockTimeoutMs >= 0)
        settings.lockTimeoutMs = a.lockTimeoutMs;
    if (a.stream || a.noStream)
        settings.streamTurns = a.stream;
    if (a.retention == QLatin1String("paid") || a.retention == QLatin1String("free")) {
        settings.retentionPlan = a.retention;
    } else if (!a.retention.isEmpty()) {
        settings.retentionPlan = QStringLiteral("custom");
        settings.customRetentionDays = a.retention.toInt();
    }
    if (a.budgetUsd >= 0)
        settings.budgetUsd = a.budgetUsd;
    return settings;
}

/**
 * `log` (and `log --ids`): read from the manifest (and what the journal knows) with the session
 * opened read-only: no recovery, no network, no client, no lock, not one byte written.
 */
int runLog(const CliArgs &a, Console &console)
{
    // Shell completion calls `log --ids` for whatever folder was typed: a folder that is not a
    // session is refused before anything else looks at it.
    if (!QFileInfo(QDir(a.sessionDir).filePath(QStringLiteral("manifest.json"))).isFile()
        && !QFileInfo(QDir(a.sessionDir).filePath(QStringLiteral("journal.jsonl"))).isFile())
        return console.finish(
            errorReport(Error::make(ErrorKind::InvalidInput,
                CliText::tr("%1 is not a session (no manifest.json)").arg(QDir::toNativeSeparators(a.sessionDir)))),
            a.json && !a.idsOnly);
    SessionStore store;
    if (const Result<void> opened = store.open(a.sessionDir, SessionStore::OpenMode::ReadOnly); !opened) {
        Error error = opened.error();
        if (error.kind == ErrorKind::Corrupt)
            error.message
                += CliText::tr(" -- the session can be rebuilt from its journal and images (nothing is deleted): "
                               "nb2lite --session %1 rebuild")
                       .arg(a.sessionDir);
        return console.finish(errorReport(error), a.json && !a.idsOnly);
    }
    const FrameGraph &g = store.graph();
    const FrameGraph::Visibility visibility = a.all ? FrameGraph::IncludeTrashed : FrameGraph::LiveOnly;
    if (!a.grep.trimmed().isEmpty() || a.starredOnly) {
        printFilteredLog(store, a, console, &frameLine);
        return kExitSuccess;
    }
    if (a.idsOnly) {
        const QStringList ids = g.frameIds(visibility);
        console.out(ids.isEmpty() ? QString() : ids.join(QLatin1Char('\n')) + QLatin1Char('\n'));
        return kExitSuccess;
    }
    if (a.json) {
        console.out(jsonLine(graphJson(store)));
        return kExitSuccess;
    }
    const QStringList lines = logGraphLines(g, visibility, frameLine);
    QString text = lines.isEmpty() ? QString() : lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
    text += CliText::tr("%n branch(es), ", nullptr, int(g.heads().size()))
        + CliText::tr("%n frame(s)", nullptr, int(g.frameIds().size()));
    const int interrupted = int(g.withStatus(FrameStatus::Interrupted).size());
    if (interrupted)
        text += CliText::tr(", %n interrupted (retry REF to re-send)", nullptr, interrupted);
    console.out(text + QLatin1Char('\n'));
    int recoverable = 0;
    for (const Frame &f : g.frames())
        recoverable += (f.isRecoverable() || f.isPending()) && !f.isTrashed() ? 1 : 0;
    if (recoverable)
        console.err(
            CliText::tr(
                "note: %n turn(s) not finished here (still running, or stopped by a crash or a cut connection); "
                "nb2lite --session %1 recover fetches what the server has",
                nullptr, recoverable)
                .arg(a.sessionDir)
            + QLatin1Char('\n'));
    return kExitSuccess;
}

/** The lineage-record lines `import` prints, and the options it implies. */
ImportOptions importOptions(const CliArgs &a, const QString &file, Console &console, std::optional<Provenance> *record)
{
    ImportOptions options;
    options.title = a.title;
    options.continueChain = !a.noContinue;
    // The record is read here, above the session layer (core/export depends on core/session).
    // An unreadable file is reported by importImage itself.
    const Result<Provenance> read = readProvenance(file);
    if (read) {
        *record = read.value();
        options.lineage = FrameLineage::fromRecordJson(read.value().toJson());
        if (!a.json) {
            QString text = CliText::tr("lineage record:") + QLatin1Char('\n');
            for (const auto &row : Provenance::fieldsToWrite(read.value()))
                text += QStringLiteral("  %1: %2\n").arg(row.first, row.second);
            console.out(text);
        }
    } else if (!a.json && QFileInfo::exists(file)) {
        console.out(CliText::tr("no lineage record (%1): plain import").arg(read.error().message) + QLatin1Char('\n'));
    }
    return options;
}

void explainImport(const Provenance &record, bool noContinue, Console &console)
{
    if (record.interactionId.isEmpty())
        console.out(CliText::tr("the record has no interaction id: edits of this frame re-anchor from its pixels")
            + QLatin1Char('\n'));
    else if (noContinue)
        console.out(CliText::tr("--no-continue: edits of this frame start from its pixels") + QLatin1Char('\n'));
    else
        console.out(
            CliText::tr("edits of this frame continue interaction %1 (re-anchoring from the pixels if the server no "
                        "longer has it)")
                .arg(record.interactionId)
            + QLatin1Char('\n'));
}

/**
 * The result of a finished turn: the documented --json object (the API commands' keys, then
 * frame_id, status, session and the whole frame), or the frame line and its image for
 * people; a failure also gets its error line and a hint on stderr. Returns the exit status.
 */
int reportTurn(const SessionController &session, const Frame &f, const CliArgs &a, Console &console)
{
    CliReport report;
    report.ok = f.isDone();
    report.interactionId = f.interactionId;
    report.attempts = f.attempts;
    report.text = f.modelText;
    if (f.usage.totalTokens >= 0 || f.usage.inputTokens >= 0 || f.usage.outputTokens >= 0)
        report.usage = f.usage;
    if (!f.image.isNull()) {
        report.path = QDir::toNativeSeparators(session.store()->absolutePath(f.image.file));
        report.mimeType = f.image.mimeType;
        report.width = f.image.width > 0 ? f.image.width : -1;
        report.height = f.image.height > 0 ? f.image.height : -1;
    }
    report.extra.insert(QStringLiteral("frame_id"), f.id);
    report.extra.insert(QStringLiteral("status"), frameStatusName(f.status));
    report.extra.insert(QStringLiteral("session"), session.store()->dir());
    report.extra.insert(QStringLiteral("frame"), f.toJson());
    if (!f.isDone()) {
        ErrorKind kind = errorKindFromName(f.error.kind);
        if (f.status == FrameStatus::Cancelled)
            kind = ErrorKind::Cancelled;
        Error e = Error::make(kind == ErrorKind::None ? ErrorKind::Server : kind,
            f.error.message.isEmpty() ? f.statusText() : f.error.message);
        e.api.serverMessage = f.error.serverMessage;
        e.api.httpStatus = f.error.httpStatus;
        e.api.attempts = f.attempts;
        report.error = e;
    }

    if (!a.json) {
        QString text = frameLine(f) + QLatin1Char('\n');
        if (!report.path.isEmpty())
            text += CliText::tr("image: %1").arg(report.path) + QLatin1Char('\n');
        if (!f.modelText.isEmpty())
            text += CliText::tr("model: %1").arg(f.modelText) + QLatin1Char('\n');
        console.out(text);
    }
    if (!f.isDone()) {
        const ErrorKind kind = report.error->kind;
        if (f.isRecoverable())
            console.err(
                CliText::tr("hint: the server knows this turn (%1): nb2lite --session %2 recover fetches it without "
                            "sending it again")
                    .arg(f.interactionId, a.sessionDir)
                + QLatin1Char('\n'));
        else if (f.status == FrameStatus::Failed && f.kind == FrameKind::Edit && kind == ErrorKind::NotFound)
            console.err(
                CliText::tr("hint: nb2lite --session %1 reanchor %2").arg(a.sessionDir, f.id) + QLatin1Char('\n'));
        else if (f.status != FrameStatus::Pending)
            console.err(CliText::tr("hint: nb2lite --session %1 retry %2").arg(a.sessionDir, f.id) + QLatin1Char('\n'));
    }
    if (a.json)
        return console.finish(report, true); // the one JSON object, and the error line on stderr
    if (!report.ok)
        console.err(console.printer().errorLine(report));
    return exitCodeOf(report);
}

/**
 * --variants N: N independent turns at once, all checked against the budget together before
 * the first is sent. Generate: N sibling roots; edit: N sibling branches of one frame.
 */
int runVariants(SessionController &session, CliCommand cmd, const QString &ref, TurnParams params, const CliArgs &a,
    Console &console)
{
    const FrameKind kind = cmd == CliCommand::Generate ? FrameKind::Generate : FrameKind::Edit;
    if (const Result<void> allowed = session.checkBudget(kind, a.variants); !allowed)
        return console.finish(errorReport(allowed.error()), a.json);
    SessionSettings settings = session.settings();
    settings.concurrencyLimit = qMax(settings.concurrencyLimit, a.variants); // all at once: wall time of one turn
    session.setSettings(settings);
    params.newBranch = true; // siblings of one frame are the point: the fork is intended
    QStringList ids;
    for (int i = 0; i < a.variants; ++i) {
        const Result<QString> started
            = kind == FrameKind::Generate ? session.generate(params) : session.edit(ref, params);
        if (!started) {
            for (const QString &id : std::as_const(ids))
                session.cancel(id);
            session.waitForIdle(60 * 1000);
            return console.finish(errorReport(started.error()), a.json);
        }
        ids.append(started.value());
    }
    session.waitForIdle(24 * 3600 * 1000);
    if (const Result<void> flushed = session.store()->flush(); !flushed)
        return console.finish(errorReport(flushed.error()), a.json);
    if (a.json) {
        OutJson frames = OutJson::array();
        for (const QString &id : std::as_const(ids))
            frames.push_back(toOutJson(QJsonValue(session.graph().value(id).toJson())));
        console.out(jsonLine(OutJson {{"variants", frames}}));
    }
    int status = kExitSuccess;
    CliArgs quiet = a;
    quiet.json = false;
    for (const QString &id : std::as_const(ids)) {
        const Frame f = session.graph().value(id);
        int one = kExitSuccess;
        if (!a.json) {
            one = reportTurn(session, f, quiet, console);
        } else if (!f.isDone()) {
            const ErrorKind k
                = f.status == FrameStatus::Cancelled ? ErrorKind::Cancelled : errorKindFromName(f.error.kind);
            one = exitCodeOf(errorReport(Error::make(k == ErrorKind::None ? ErrorKind::Server : k, f.error.message)));
        }
        if (status == kExitSuccess)
            status = one;
    }
    return status;
}

} // namespace

bool opensSessionForWork(const CliArgs &a)
{
    // Only what runSessionCommand() opens with SessionController::open(): log and the
    // commands handled elsewhere (export, open-bundle, mcp) open otherwise or not at all.
    return a.inSession && !a.help && !a.version && !a.sessionDir.isEmpty() && a.command != CliCommand::Log
        && a.command != CliCommand::Rebuild && a.command != CliCommand::Export && a.command != CliCommand::OpenBundle
        && a.command != CliCommand::Mcp && a.command != CliCommand::Help && a.command != CliCommand::Completion;
}

bool usesFewFrames(const CliArgs &a)
{
    if (!opensSessionForWork(a))
        return false;
    switch (a.command) {
    case CliCommand::Generate:
    case CliCommand::Edit:
    case CliCommand::EditLocal:
    case CliCommand::StyleEdit:
    case CliCommand::Import:
    case CliCommand::Retry:
    case CliCommand::ReAnchor:
    case CliCommand::Keep:
        return true;
    default:
        return false;
    }
}

bool preloadSessionForWork(const CliArgs &a)
{
    if (!opensSessionForWork(a))
        return false;
    // A thread of its own, at the process's priority: the global pool's two threads are left to
    // the parse's second half and the images/ listing, as when open() reads by itself. The
    // pool is the application's child, so it is waited for and gone before the process exits.
    auto *pool = new QThreadPool(QCoreApplication::instance());
    pool->setMaxThreadCount(1);
    return SessionStore::preload(a.sessionDir, pool).isValid();
}

int runSessionCommand(const CliArgs &a, Console &console, const CommandContext &context)
{
    const CliCommand cmd = a.command;
    if (cmd == CliCommand::Log)
        return runLog(a, console); // reading: before any backend, client or lock exists
    auto fail = [&](const Error &error) { return console.finish(errorReport(error), a.json); };
    auto usage = [&](const QString &message) {
        return console.finish(failureReport(QStringLiteral("usage"), message), a.json);
    };

    // Ctrl-C cancels the running turns cleanly (a second one exits).
    const CancelTokenPtr cancel = context.canceller ? context.canceller->token() : std::make_shared<CancelToken>();
    if (context.canceller)
        context.canceller->setCancelsCleanly(true);
    DemoBackend demo;
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    ClientConfig config = resolveCliSetup(a, env, QDir::homePath()).config;
    if (a.demo) {
        if (const QString e = demo.start(a.demoLatencyMs, DemoBackend::sessionStoreDir(a.sessionDir)); !e.isEmpty())
            return console.finish(failureReport(QStringLiteral("internal"), e), a.json);
        if (!demo.warning().isEmpty())
            console.err(CliText::tr("warning: %1").arg(demo.warning()) + QLatin1Char('\n'));
        config.baseUrl = demo.baseUrl();
        config.apiKey = demo.apiKey();
    }

    SessionController session;
    session.setSettings(settingsFrom(a));
    if (a.timeoutMs >= 0)
        session.setTurnTimeoutMs(a.timeoutMs);
    QObject::connect(&session, &SessionController::turnRetrying, &session,
        [&console](const QString &, int attempt, int maxAttempts, int delayMs, const Error &error) {
            RetryNotice n;
            n.attempt = attempt;
            n.maxAttempts = maxAttempts;
            n.delayMs = delayMs;
            n.error = error;
            console.err(retryNoticeLine(n) + QLatin1Char('\n'));
        });
    const bool needsApi = cmd != CliCommand::Import && cmd != CliCommand::Rebuild && cmd != CliCommand::Cost
        && cmd != CliCommand::Keep && !a.dryRun;
    if (needsApi || !config.apiKey.isEmpty())
        session.setClient(std::make_shared<InteractionsClient>(config));

    struct HookGuard {
        CancelTokenPtr token;
        ~HookGuard() { token->setAbortHook({}); }
    } hookGuard {cancel};
    hookGuard.token->setAbortHook([&session] {
        QMetaObject::invokeMethod(
            &session,
            [&session] {
                for (const QString &id : session.graph().withStatus(FrameStatus::Pending))
                    session.cancel(id);
            },
            Qt::QueuedConnection);
    });
    QObject::connect(&session, &SessionController::errorOccurred, &session,
        [&console](const QString &m) { console.err(CliText::tr("warning: %1").arg(m) + QLatin1Char('\n')); });
    QObject::connect(
        &session, &SessionController::inputConverted, &session, [&console](const QString &, const QString &note) {
            console.err(CliText::tr("note: %1").arg(note) + QLatin1Char('\n'));
        });
    QObject::connect(&session, &SessionController::frameReAnchored, &session, [&console](const QString &id) {
        console.err(
            CliText::tr(
                "note: frame %1 re-anchored (the parent's id is gone; its image was sent inline, continuity may "
                "differ)")
                .arg(id)
            + QLatin1Char('\n'));
    });
    int recoveredCount = 0, interruptedCount = 0;
    QObject::connect(&session, &SessionController::recoveryFinished, &session,
        [&console, &recoveredCount, &interruptedCount](int recovered, int interrupted) {
            recoveredCount = recovered;
            interruptedCount = interrupted;
            if (recovered || interrupted)
                console.err(CliText::tr("recovery: %n turn(s) fetched with get", nullptr, recovered)
                    + QStringLiteral(", ")
                    + CliText::tr("%n marked interrupted (retry to re-send)", nullptr, interrupted)
                    + QLatin1Char('\n'));
        });

    const Result<void> opened = cmd == CliCommand::Rebuild ? session.rebuild(a.sessionDir) : session.open(a.sessionDir);
    if (!opened) {
        Error error = opened.error();
        // Only damage is what a rebuild repairs (not a read-only folder, a lock or a newer format).
        if (cmd != CliCommand::Rebuild && error.kind == ErrorKind::Corrupt)
            error.message
                += CliText::tr(" -- the session can be rebuilt from its journal and images (nothing is deleted): "
                               "nb2lite --session %1 rebuild")
                       .arg(a.sessionDir);
        return fail(error);
    }
    // Recovery of crashed turns runs first; its results are part of what log shows.
    session.waitForIdle(10 * 60 * 1000);

    const TurnParams params {a.prompt, a.aspectRatio, a.thinkingLevel, a.fork, {}};
    QString ref; // the frame the command names
    if (cmd == CliCommand::Edit || cmd == CliCommand::Retry || cmd == CliCommand::ReAnchor || cmd == CliCommand::Keep
        || ((cmd == CliCommand::EditLocal || cmd == CliCommand::StyleEdit) && a.sourceFile.isEmpty())) {
        const Result<QString> resolved = session.resolveFrameRef(a.positional.first());
        if (!resolved)
            return fail(resolved.error());
        ref = resolved.value();
    }

    if (cmd == CliCommand::Replay) // its own dry run: the whole plan
        return runReplay(session, a, console);

    if (a.dryRun) {
        FrameKind kind = FrameKind::Generate;
        if (cmd == CliCommand::Edit)
            kind = FrameKind::Edit;
        else if (cmd == CliCommand::EditLocal || cmd == CliCommand::StyleEdit)
            kind = a.styleFile.isEmpty() ? FrameKind::EditLocal : FrameKind::StyleEdit;
        if (cmd == CliCommand::Edit && session.graph().hasChildren(ref) && !a.fork && a.variants == 1)
            return usage(
                CliText::tr("frame %1 already has children; editing it would fork a new branch. Pass --branch to fork "
                            "on purpose, or edit the branch head (%2, or 'head').")
                    .arg(ref, session.graph().headFrom(ref)));
        const int turns = cmd == CliCommand::Generate || cmd == CliCommand::Edit ? a.variants : 1;
        return printDryRun(
            session.graph(), session.priceTable(), session.settings().budgetUsd, kind, config.model, turns, a, console);
    }

    if (a.variants > 1 && (cmd == CliCommand::Generate || cmd == CliCommand::Edit))
        return runVariants(session, cmd, ref, params, a, console);

    Result<QString> started = QString();
    std::optional<Provenance> record;
    switch (cmd) {
    case CliCommand::Cost:
        return printCost(session, a, console);
    case CliCommand::Keep:
        return runKeep(session, ref, a, console);
    case CliCommand::Recover:
    case CliCommand::Rebuild:
        if (a.json) {
            OutJson o = OutJson::object();
            o["ok"] = true;
            o["session"] = toOutJson(session.store()->dir());
            o["frames"] = session.graph().size();
            o["recovered"] = recoveredCount;
            o["interrupted"] = interruptedCount;
            console.out(jsonLine(o));
        } else {
            console.out(
                CliText::tr("session %1: %n frame(s)", nullptr, int(session.graph().size())).arg(session.store()->dir())
                + QLatin1Char('\n'));
        }
        return kExitSuccess;
    case CliCommand::Generate:
        started = session.generate(params);
        break;
    case CliCommand::Edit:
        started = a.region.isNull() && a.maskFile.isEmpty() ? session.edit(ref, params)
                                                            : startPrecisionEdit(session, ref, a, params);
        if (!started && session.graph().hasChildren(ref) && !a.fork)
            return usage(
                CliText::tr("frame %1 already has children; editing it would fork a new branch. Pass --branch to fork "
                            "on purpose, or edit the branch head (%2, or 'head').")
                    .arg(ref, session.graph().headFrom(ref)));
        break;
    case CliCommand::EditLocal:
    case CliCommand::StyleEdit:
        // edit-local with --style is a style edit, as it is without a session.
        started = a.styleFile.isEmpty() ? session.editLocal(ref, a.sourceFile, params)
                                        : session.styleEdit(ref, a.sourceFile, a.styleFile, params);
        break;
    case CliCommand::Import: {
        const QString file = a.positional.first();
        started = session.importImage(file, importOptions(a, file, console, &record));
        break;
    }
    case CliCommand::Retry:
        started = session.retry(ref);
        break;
    case CliCommand::ReAnchor:
        started = session.reAnchor(ref);
        break;
    default:
        return console.finish(
            failureReport(QStringLiteral("internal"), CliText::tr("'%1' is not a session command").arg(a.commandName)),
            a.json);
    }
    if (!started)
        return fail(started.error());
    if (record && !a.json)
        explainImport(*record, a.noContinue, console);

    const QString id = started.value();
    session.waitForIdle(24 * 3600 * 1000);
    // Manifest writes run on the session's writer thread: exit with an error unless they reached the disk.
    if (const Result<void> flushed = session.store()->flush(); !flushed)
        return fail(flushed.error());
    // Every finished edit gets its drift reading; region/protect edits their composite first.
    if (const Result<void> finished = finishEditTurn(session, id); !finished)
        return fail(finished.error());
    return reportTurn(session, session.graph().value(id), a, console);
}

} // namespace nb2::cli
