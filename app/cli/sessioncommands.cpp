#include "app/cli/sessioncommands.h"

#include "app/cli/demobackend.h"
#include "app/cli/exitcodes.h"
#include "app/cli/signalcancel.h"
#include "core/api/interactionsclient.h"
#include "core/export/provenance.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QTextStream>

namespace nb2::cli {

namespace {

struct SessionArgs {
    QString dir;
    QString command;
    QStringList positional;
    QString baseUrl, model, aspect, thinking, file, style, title, retention;
    bool demo = false, json = false, branch = false, noReAnchor = false, all = false, noContinue = false;
    int demoLatencyMs = 0, stepDelayMs = 0, lockTimeoutMs = -1;
};

const QStringList &commands()
{
    static const QStringList c{QStringLiteral("generate"), QStringLiteral("edit"), QStringLiteral("edit-local"),
                               QStringLiteral("style-edit"), QStringLiteral("import"), QStringLiteral("retry"),
                               QStringLiteral("reanchor"), QStringLiteral("log"), QStringLiteral("recover"),
                               QStringLiteral("rebuild")};
    return c;
}

QString parse(const QStringList &a, SessionArgs *out)
{
    auto value = [&](int &i, QString *v) -> QString {
        if (i + 1 >= a.size())
            return QStringLiteral("%1 needs a value").arg(a.at(i));
        *v = a.at(++i);
        return {};
    };
    auto number = [&](int &i, int *v) -> QString {
        QString s;
        if (QString e = value(i, &s); !e.isEmpty())
            return e;
        bool ok = false;
        *v = s.toInt(&ok);
        return ok && *v >= 0 ? QString() : QStringLiteral("%1 needs a non-negative number, not \"%2\"").arg(a.at(i - 1), s);
    };
    for (int i = 0; i < a.size(); ++i) {
        const QString &t = a.at(i);
        QString e;
        if (t == QLatin1String("--session")) e = value(i, &out->dir);
        else if (t == QLatin1String("--base-url")) e = value(i, &out->baseUrl);
        else if (t == QLatin1String("--model")) e = value(i, &out->model);
        else if (t == QLatin1String("--aspect") || t == QLatin1String("--aspect-ratio")) e = value(i, &out->aspect);
        else if (t == QLatin1String("--thinking") || t == QLatin1String("--thinking-level")) e = value(i, &out->thinking);
        else if (t == QLatin1String("--file")) e = value(i, &out->file);
        else if (t == QLatin1String("--style")) e = value(i, &out->style);
        else if (t == QLatin1String("--title")) e = value(i, &out->title);
        else if (t == QLatin1String("--retention")) e = value(i, &out->retention);
        else if (t == QLatin1String("--demo-latency")) { e = number(i, &out->demoLatencyMs); out->demo = true; }
        else if (t == QLatin1String("--step-delay")) e = number(i, &out->stepDelayMs);
        else if (t == QLatin1String("--lock-timeout")) e = number(i, &out->lockTimeoutMs);
        else if (t == QLatin1String("--demo")) out->demo = true;
        else if (t == QLatin1String("--json")) out->json = true;
        else if (t == QLatin1String("--branch")) out->branch = true;
        else if (t == QLatin1String("--no-reanchor")) out->noReAnchor = true;
        else if (t == QLatin1String("--all")) out->all = true;
        else if (t == QLatin1String("--no-continue")) out->noContinue = true;
        else if (t == QLatin1String("--help") || t == QLatin1String("-h")) { out->command = QStringLiteral("help"); return {}; }
        else if (t == QLatin1String("--")) { out->positional += a.mid(i + 1); break; }
        else if (t.startsWith(QLatin1String("--"))) e = QStringLiteral("unknown option %1 for session commands").arg(t);
        else if (out->command.isEmpty()) out->command = t;
        else out->positional.append(t);
        if (!e.isEmpty())
            return e;
    }
    if (out->dir.isEmpty())
        return QStringLiteral("--session needs a folder");
    if (out->command.isEmpty())
        return QStringLiteral("no session command given (one of: %1)").arg(commands().join(QStringLiteral(", ")));
    if (!commands().contains(out->command))
        return QStringLiteral("unknown session command \"%1\" (one of: %2)").arg(out->command, commands().join(QStringLiteral(", ")));
    return {};
}

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
        line += f.lineage.frameId.isEmpty() ? QStringLiteral(" [lineage record]")
                                            : QStringLiteral(" [lineage: frame %1]").arg(f.lineage.frameId);
    if (f.reAnchored)
        line += QStringLiteral(" [re-anchored: continuity may differ]");
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

void printTree(const FrameGraph &g, const QString &id, const QString &prefix, bool last, bool top, bool all,
               QTextStream &out)
{
    const Frame *f = g.frame(id);
    out << prefix << (top ? QString() : (last ? QStringLiteral("`-- ") : QStringLiteral("|-- "))) << frameLine(*f) << '\n';
    const QStringList kids = g.children(id, all ? FrameGraph::IncludeTrashed : FrameGraph::LiveOnly);
    const QString childPrefix = top ? prefix : prefix + (last ? QStringLiteral("    ") : QStringLiteral("|   "));
    for (int i = 0; i < kids.size(); ++i)
        printTree(g, kids.at(i), childPrefix, i == kids.size() - 1, false, all, out);
}

QJsonObject graphJson(const SessionController &s)
{
    const FrameGraph &g = s.graph();
    QJsonArray frames;
    for (const Frame &f : g.frames())
        frames.append(f.toJson());
    QJsonArray branches;
    for (const Branch &b : g.branches())
        branches.append(QJsonObject{{QStringLiteral("head"), b.head()},
                                    {QStringLiteral("path"), QJsonArray::fromStringList(b.path)}});
    return {{QStringLiteral("session"), s.store()->dir()},
            {QStringLiteral("current_frame"), s.store()->currentFrameId()},
            {QStringLiteral("roots"), QJsonArray::fromStringList(g.roots())},
            {QStringLiteral("heads"), QJsonArray::fromStringList(g.heads())},
            {QStringLiteral("branches"), branches},
            {QStringLiteral("frames"), frames}};
}

int errorExit(const Error &e, QTextStream &err)
{
    err << "error: " << e.message << '\n';
    if (!e.api.serverMessage.isEmpty() && e.api.serverMessage != e.message)
        err << "server said: " << e.api.serverMessage << '\n';
    const int code = exitCodeFor(e.kind);
    return code == kExitSuccess ? kExitInternal : code;
}

} // namespace

bool isSessionCommand(const QStringList &arguments)
{
    return arguments.contains(QStringLiteral("--session"));
}

QString sessionCommandHelp()
{
    return QStringLiteral(
        "Session commands (a session is a folder: manifest.json, images/, journal.jsonl):\n"
        "  nb2lite --session DIR generate PROMPT [--aspect R] [--thinking L]\n"
        "  nb2lite --session DIR edit REF PROMPT [--branch]        REF: frame id, unique prefix or 'head'\n"
        "  nb2lite --session DIR edit-local (REF | --file IMAGE) PROMPT [--branch]\n"
        "  nb2lite --session DIR style-edit (REF | --file IMAGE) --style IMAGE PROMPT [--branch]\n"
        "  nb2lite --session DIR import IMAGE [--title T] [--no-continue]\n"
        "    Shows the image's embedded lineage record (from an nb2lite export) and keeps it with the\n"
        "    frame; edits of the frame continue the recorded interaction, re-anchoring from the pixels\n"
        "    if the server no longer has it. --no-continue: keep the record but start from the pixels.\n"
        "  nb2lite --session DIR retry REF | reanchor REF | recover | rebuild\n"
        "  nb2lite --session DIR log [--json] [--all]\n"
        "  Editing a frame that already has children forks a new branch: pass --branch to do it.\n"
        "  Options: --demo [--demo-latency MS], --base-url URL, --model M, --no-reanchor,\n"
        "           --retention paid|free|DAYS, --lock-timeout MS\n");
}

int runSessionCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    SessionArgs a;
    if (const QString e = parse(arguments, &a); !e.isEmpty()) {
        err << "error: " << e << '\n' << sessionCommandHelp();
        return kExitUsage;
    }
    if (a.command == QLatin1String("help")) {
        out << sessionCommandHelp();
        return kExitSuccess;
    }

    SessionSettings settings;
    settings.autoReAnchor = !a.noReAnchor;
    if (a.lockTimeoutMs >= 0)
        settings.lockTimeoutMs = qMax(100, a.lockTimeoutMs);
    if (!a.retention.isEmpty()) {
        bool ok = false;
        const int days = a.retention.toInt(&ok);
        if (a.retention == QLatin1String("paid") || a.retention == QLatin1String("free")) {
            settings.retentionPlan = a.retention;
        } else if (ok && days >= 1 && prefs::customRetentionDays.isValid(days)) {
            settings.retentionPlan = QStringLiteral("custom");
            settings.customRetentionDays = days;
        } else {
            err << "error: --retention takes paid, free or a number of days (1-3650), not \"" << a.retention << "\"\n";
            return kExitUsage;
        }
    }

    // Before any thread starts (demo server, workers): Ctrl-C cancels the running turns cleanly.
    SignalCanceller signalCanceller;
    DemoBackend demo;
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    ClientConfig config = ClientConfig::fromEnvironment(env, QDir::homePath(), a.baseUrl, a.model);
    if (a.demo) {
        if (const QString e = demo.start(a.demoLatencyMs); !e.isEmpty()) {
            err << "error: " << e << '\n';
            return kExitInternal;
        }
        config.baseUrl = demo.baseUrl();
        config.apiKey = demo.apiKey();
    }

    SessionController session;
    session.setSettings(settings);
    session.setStepDelayForTesting(a.stepDelayMs);
    const bool needsApi = a.command != QLatin1String("log") && a.command != QLatin1String("import")
        && a.command != QLatin1String("rebuild");
    if (needsApi || !config.apiKey.isEmpty())
        session.setClient(std::make_shared<InteractionsClient>(config));

    struct HookGuard {
        CancelTokenPtr token;
        ~HookGuard() { token->setAbortHook({}); }
    } hookGuard{signalCanceller.token()};
    hookGuard.token->setAbortHook([&session] {
        QMetaObject::invokeMethod(&session, [&session] {
            for (const QString &id : session.graph().withStatus(FrameStatus::Pending))
                session.cancel(id);
        }, Qt::QueuedConnection);
    });
    QObject::connect(&session, &SessionController::errorOccurred, &session,
                     [&err](const QString &m) { err << "warning: " << m << '\n'; err.flush(); });
    QObject::connect(&session, &SessionController::frameReAnchored, &session, [&err](const QString &id) {
        err << "note: frame " << id << " re-anchored (the parent's id is gone; its image was sent inline, continuity may differ)\n";
        err.flush();
    });
    QObject::connect(&session, &SessionController::recoveryFinished, &session, [&err](int recovered, int interrupted) {
        if (recovered || interrupted)
            err << "recovery: " << recovered << " turn(s) fetched with get, " << interrupted
                << " marked interrupted (retry them to re-send)\n";
    });

    const Result<void> opened = a.command == QLatin1String("rebuild") ? session.rebuild(a.dir) : session.open(a.dir);
    if (!opened) {
        err << "error: " << opened.error().message << '\n';
        if (a.command != QLatin1String("rebuild"))
            err << "The session can be rebuilt from its journal and images (nothing is deleted): nb2lite --session "
                << a.dir << " rebuild\n";
        return exitCodeFor(opened.error().kind);
    }
    // Recovery of crashed turns runs first; its results are part of what log shows.
    session.waitForIdle(10 * 60 * 1000);

    const TurnParams params{a.positional.value(a.positional.size() - 1), a.aspect, a.thinking, a.branch};
    auto needPositional = [&](int n, const char *usage) {
        if (a.positional.size() == n)
            return true;
        err << "error: usage: nb2lite --session DIR " << usage << '\n';
        return false;
    };
    auto resolve = [&](const QString &ref, QString *id) {
        const Result<QString> r = session.resolveFrameRef(ref);
        if (!r)
            return errorExit(r.error(), err);
        *id = r.value();
        return 0;
    };

    Result<QString> started = QString();
    const QString &cmd = a.command;
    if (cmd == QLatin1String("log")) {
        if (a.json) {
            out << QJsonDocument(graphJson(session)).toJson(QJsonDocument::Indented);
        } else {
            const FrameGraph &g = session.graph();
            for (const QString &root : g.roots(a.all ? FrameGraph::IncludeTrashed : FrameGraph::LiveOnly))
                printTree(g, root, QString(), true, true, a.all, out);
            out << g.heads().size() << " branch(es), " << g.frameIds().size() << " frame(s)";
            const int interrupted = g.withStatus(FrameStatus::Interrupted).size();
            if (interrupted)
                out << ", " << interrupted << " interrupted (retry REF to re-send)";
            out << '\n';
        }
        return kExitSuccess;
    } else if (cmd == QLatin1String("recover") || cmd == QLatin1String("rebuild")) {
        out << "session " << session.store()->dir() << ": " << session.graph().size() << " frame(s)\n";
        return kExitSuccess;
    } else if (cmd == QLatin1String("generate")) {
        if (!needPositional(1, "generate PROMPT"))
            return kExitUsage;
        started = session.generate(params);
    } else if (cmd == QLatin1String("edit")) {
        if (!needPositional(2, "edit REF PROMPT [--branch]"))
            return kExitUsage;
        QString parent;
        if (int rc = resolve(a.positional.at(0), &parent))
            return rc;
        started = session.edit(parent, params);
        if (!started && session.graph().hasChildren(parent) && !a.branch) {
            err << "error: frame " << parent << " already has children; editing it would fork a new branch.\n"
                << "Pass --branch to fork on purpose, or edit the branch head (" << session.graph().headFrom(parent)
                << ", or 'head').\n";
            return kExitUsage;
        }
    } else if (cmd == QLatin1String("edit-local") || cmd == QLatin1String("style-edit")) {
        const bool style = cmd == QLatin1String("style-edit");
        QString parent;
        if (a.file.isEmpty()) {
            if (!needPositional(2, style ? "style-edit REF --style IMAGE PROMPT" : "edit-local REF PROMPT"))
                return kExitUsage;
            if (int rc = resolve(a.positional.at(0), &parent))
                return rc;
        } else if (!needPositional(1, style ? "style-edit --file IMAGE --style IMAGE PROMPT" : "edit-local --file IMAGE PROMPT")) {
            return kExitUsage;
        }
        if (style && a.style.isEmpty()) {
            err << "error: style-edit needs --style IMAGE\n";
            return kExitUsage;
        }
        started = style ? session.styleEdit(parent, a.file, a.style, params) : session.editLocal(parent, a.file, params);
    } else if (cmd == QLatin1String("import")) {
        if (!needPositional(1, "import IMAGE [--title T] [--no-continue]"))
            return kExitUsage;
        const QString file = a.positional.at(0);
        ImportOptions options;
        options.title = a.title;
        options.continueChain = !a.noContinue;
        // The record is read here, above the session layer (core/export depends on core/session).
        // An unreadable file is reported by importImage itself, with the same wording as before.
        const Result<Provenance> record = readProvenance(file);
        if (record) {
            options.lineage = FrameLineage::fromRecordJson(record.value().toJson());
            if (!a.json) {
                out << "lineage record:\n";
                for (const auto &row : Provenance::fieldsToWrite(record.value()))
                    out << "  " << row.first << ": " << row.second << '\n';
            }
        } else if (!a.json && QFileInfo::exists(file)) {
            out << "no lineage record (" << record.error().message << "): plain import\n";
        }
        started = session.importImage(file, options);
        if (started && !a.json && record) {
            if (record.value().interactionId.isEmpty())
                out << "the record has no interaction id: edits of this frame re-anchor from its pixels\n";
            else if (a.noContinue)
                out << "--no-continue: edits of this frame start from its pixels\n";
            else
                out << "edits of this frame continue interaction " << record.value().interactionId
                    << " (re-anchoring from the pixels if the server no longer has it)\n";
        }
    } else if (cmd == QLatin1String("retry") || cmd == QLatin1String("reanchor")) {
        if (!needPositional(1, "retry|reanchor REF"))
            return kExitUsage;
        QString id;
        if (int rc = resolve(a.positional.at(0), &id))
            return rc;
        started = cmd == QLatin1String("retry") ? session.retry(id) : session.reAnchor(id);
    }
    if (!started)
        return errorExit(started.error(), err);

    const QString id = started.value();
    session.waitForIdle(24 * 3600 * 1000);
    // Manifest writes run on the session's writer thread: exit with an error unless they reached the disk.
    if (const Result<void> flushed = session.store()->flush(); !flushed)
        return errorExit(flushed.error(), err);
    const Frame f = session.graph().value(id);
    if (a.json) {
        out << QJsonDocument(f.toJson()).toJson(QJsonDocument::Indented);
    } else {
        out << frameLine(f) << '\n';
        if (!f.image.isNull())
            out << "image: " << QDir::toNativeSeparators(session.store()->absolutePath(f.image.file)) << '\n';
        if (!f.modelText.isEmpty())
            out << "model: " << f.modelText << '\n';
    }
    out.flush();
    if (f.isDone())
        return kExitSuccess;
    ErrorKind kind = errorKindFromName(f.error.kind);
    if (f.status == FrameStatus::Cancelled)
        kind = ErrorKind::Cancelled;
    if (f.status == FrameStatus::Failed && f.kind == FrameKind::Edit && kind == ErrorKind::NotFound)
        err << "hint: nb2lite --session " << a.dir << " reanchor " << f.id << '\n';
    else if (f.status != FrameStatus::Done && f.status != FrameStatus::Pending)
        err << "hint: nb2lite --session " << a.dir << " retry " << f.id << '\n';
    Error e;
    e.kind = kind == ErrorKind::None ? ErrorKind::Server : kind;
    e.message = f.error.message.isEmpty() ? f.statusText() : f.error.message;
    e.api.serverMessage = f.error.serverMessage;
    return errorExit(e, err);
}

} // namespace nb2::cli
