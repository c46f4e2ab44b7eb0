#include "app/cli/sessioncommands.h"

#include "app/cli/cliargs.h"
#include "app/cli/clisetup.h"
#include "app/cli/clitext.h"
#include "app/cli/console.h"
#include "app/cli/demobackend.h"
#include "app/cli/exitcodes.h"
#include "app/cli/jsonout.h"
#include "app/cli/loggraph.h"
#include "app/cli/precisioncommand.h"
#include "app/cli/signalcancel.h"
#include "core/api/interactionsclient.h"
#include "core/export/provenance.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QProcessEnvironment>

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
OutJson graphJson(const SessionController &s)
{
    const FrameGraph &g = s.graph();
    OutJson frames = OutJson::array();
    for (const Frame &f : g.frames())
        frames.push_back(toOutJson(QJsonValue(f.toJson())));
    OutJson branches = OutJson::array();
    for (const Branch &b : g.branches())
        branches.push_back(OutJson{{"head", b.head().toStdString()}, {"path", toOutJson(b.path)}});
    OutJson o = OutJson::object();
    o["session"] = toOutJson(s.store()->dir());
    o["current_frame"] = toOutJson(s.store()->currentFrameId());
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
    return settings;
}

/** `log --ids`: the frame ids, read from the manifest alone (no recovery, no network, no client). */
int listFrameIds(const CliArgs &a, Console &console)
{
    // Shell completion calls this for whatever folder was typed: never touch a folder that is
    // not a session (opening one would create images/ and thumbs/ in it).
    if (!QFileInfo(QDir(a.sessionDir).filePath(QStringLiteral("manifest.json"))).isFile())
        return console.finish(errorReport(Error::make(ErrorKind::InvalidInput, CliText::tr("%1 is not a session (no manifest.json)")
                                                                        .arg(QDir::toNativeSeparators(a.sessionDir)))),
                              false);
    SessionStore store;
    if (const Result<void> opened = store.open(a.sessionDir, SessionStore::OpenMode::OpenExisting); !opened)
        return console.finish(errorReport(opened.error()), false);
    const QStringList ids = store.graph().frameIds(a.all ? FrameGraph::IncludeTrashed : FrameGraph::LiveOnly);
    console.out(ids.isEmpty() ? QString() : ids.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    return kExitSuccess;
}

void printLog(const SessionController &session, const CliArgs &a, Console &console)
{
    const FrameGraph &g = session.graph();
    const FrameGraph::Visibility visibility = a.all ? FrameGraph::IncludeTrashed : FrameGraph::LiveOnly;
    if (a.json) {
        console.out(jsonLine(graphJson(session)));
        return;
    }
    const QStringList lines = logGraphLines(g, visibility, frameLine);
    QString text = lines.isEmpty() ? QString() : lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
    text += CliText::tr("%n branch(es), ", nullptr, int(g.heads().size())) + CliText::tr("%n frame(s)", nullptr, int(g.frameIds().size()));
    const int interrupted = int(g.withStatus(FrameStatus::Interrupted).size());
    if (interrupted)
        text += CliText::tr(", %n interrupted (retry REF to re-send)", nullptr, interrupted);
    console.out(text + QLatin1Char('\n'));
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
        console.out(CliText::tr("the record has no interaction id: edits of this frame re-anchor from its pixels") + QLatin1Char('\n'));
    else if (noContinue)
        console.out(CliText::tr("--no-continue: edits of this frame start from its pixels") + QLatin1Char('\n'));
    else
        console.out(CliText::tr("edits of this frame continue interaction %1 (re-anchoring from the pixels if the server no "
                       "longer has it)")
                        .arg(record.interactionId)
                    + QLatin1Char('\n'));
}

/** Prints a finished turn (its frame) and returns the exit status. */
int reportTurn(const SessionController &session, const Frame &f, const CliArgs &a, Console &console)
{
    if (a.json) {
        console.out(jsonLine(toOutJson(QJsonValue(f.toJson()))));
    } else {
        QString text = frameLine(f) + QLatin1Char('\n');
        if (!f.image.isNull())
            text += CliText::tr("image: %1").arg(QDir::toNativeSeparators(session.store()->absolutePath(f.image.file)))
                    + QLatin1Char('\n');
        if (!f.modelText.isEmpty())
            text += CliText::tr("model: %1").arg(f.modelText) + QLatin1Char('\n');
        console.out(text);
    }
    if (f.isDone())
        return kExitSuccess;
    ErrorKind kind = errorKindFromName(f.error.kind);
    if (f.status == FrameStatus::Cancelled)
        kind = ErrorKind::Cancelled;
    if (f.status == FrameStatus::Failed && f.kind == FrameKind::Edit && kind == ErrorKind::NotFound)
        console.err(CliText::tr("hint: nb2lite --session %1 reanchor %2").arg(a.sessionDir, f.id) + QLatin1Char('\n'));
    else if (f.status != FrameStatus::Done && f.status != FrameStatus::Pending)
        console.err(CliText::tr("hint: nb2lite --session %1 retry %2").arg(a.sessionDir, f.id) + QLatin1Char('\n'));
    Error e = Error::make(kind == ErrorKind::None ? ErrorKind::Server : kind,
                          f.error.message.isEmpty() ? f.statusText() : f.error.message);
    e.api.serverMessage = f.error.serverMessage;
    e.api.httpStatus = f.error.httpStatus;
    const CliReport report = errorReport(e);
    console.err(console.printer().errorLine(report)); // the frame above is the one JSON object
    return exitCodeOf(report);
}

} // namespace

int runSessionCommand(const CliArgs &a, Console &console, const CommandContext &context)
{
    const CliCommand cmd = a.command;
    if (cmd == CliCommand::Log && a.idsOnly)
        return listFrameIds(a, console);
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
    const bool needsApi = cmd != CliCommand::Log && cmd != CliCommand::Import && cmd != CliCommand::Rebuild;
    if (needsApi || !config.apiKey.isEmpty())
        session.setClient(std::make_shared<InteractionsClient>(config));

    struct HookGuard {
        CancelTokenPtr token;
        ~HookGuard() { token->setAbortHook({}); }
    } hookGuard{cancel};
    hookGuard.token->setAbortHook([&session] {
        QMetaObject::invokeMethod(&session, [&session] {
            for (const QString &id : session.graph().withStatus(FrameStatus::Pending))
                session.cancel(id);
        }, Qt::QueuedConnection);
    });
    QObject::connect(&session, &SessionController::errorOccurred, &session,
                     [&console](const QString &m) { console.err(CliText::tr("warning: %1").arg(m) + QLatin1Char('\n')); });
    QObject::connect(&session, &SessionController::frameReAnchored, &session, [&console](const QString &id) {
        console.err(CliText::tr("note: frame %1 re-anchored (the parent's id is gone; its image was sent inline, continuity may "
                       "differ)")
                        .arg(id)
                    + QLatin1Char('\n'));
    });
    QObject::connect(&session, &SessionController::recoveryFinished, &session, [&console](int recovered, int interrupted) {
        if (recovered || interrupted)
            console.err(CliText::tr("recovery: %n turn(s) fetched with get", nullptr, recovered) + QStringLiteral(", ")
                        + CliText::tr("%n marked interrupted (retry to re-send)", nullptr, interrupted)
                        + QLatin1Char('\n'));
    });

    const Result<void> opened = cmd == CliCommand::Rebuild ? session.rebuild(a.sessionDir) : session.open(a.sessionDir);
    if (!opened) {
        Error error = opened.error();
        if (cmd != CliCommand::Rebuild)
            error.message += CliText::tr(" -- the session can be rebuilt from its journal and images (nothing is deleted): "
                                         "nb2lite --session %1 rebuild")
                                 .arg(a.sessionDir);
        return fail(error);
    }
    // Recovery of crashed turns runs first; its results are part of what log shows.
    session.waitForIdle(10 * 60 * 1000);

    const TurnParams params{a.prompt, a.aspectRatio, a.thinkingLevel, a.fork, {}};
    QString ref; // the frame the command names
    if (cmd == CliCommand::Edit || cmd == CliCommand::Retry || cmd == CliCommand::ReAnchor
        || ((cmd == CliCommand::EditLocal || cmd == CliCommand::StyleEdit) && a.sourceFile.isEmpty())) {
        const Result<QString> resolved = session.resolveFrameRef(a.positional.first());
        if (!resolved)
            return fail(resolved.error());
        ref = resolved.value();
    }

    Result<QString> started = QString();
    std::optional<Provenance> record;
    switch (cmd) {
    case CliCommand::Log:
        printLog(session, a, console);
        return kExitSuccess;
    case CliCommand::Recover:
    case CliCommand::Rebuild:
        console.out(CliText::tr("session %1: %n frame(s)", nullptr, int(session.graph().size())).arg(session.store()->dir())
                    + QLatin1Char('\n'));
        return kExitSuccess;
    case CliCommand::Generate: started = session.generate(params); break;
    case CliCommand::Edit:
        started = a.region.isNull() && a.maskFile.isEmpty() ? session.edit(ref, params)
                                                            : startPrecisionEdit(session, ref, a, params);
        if (!started && session.graph().hasChildren(ref) && !a.fork)
            return usage(CliText::tr("frame %1 already has children; editing it would fork a new branch. Pass --branch to fork "
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
    case CliCommand::Retry: started = session.retry(ref); break;
    case CliCommand::ReAnchor: started = session.reAnchor(ref); break;
    default:
        return console.finish(failureReport(QStringLiteral("internal"), CliText::tr("'%1' is not a session command").arg(a.commandName)),
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
