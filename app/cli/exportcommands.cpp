#include "app/cli/exportcommands.h"

#include "app/cli/exitcodes.h"
#include "core/export/exporter.h"
#include "core/export/exportfiles.h"
#include "core/export/sessionbundle.h"
#include "core/session/sessionstore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace nb2::cli {

namespace {

struct ExportArgs {
    QString dir;
    QString command;            // "export" or "open-bundle"
    QString format;
    QString branch;
    QStringList frames;
    QString output;
    bool stripPrompts = false, stripIds = false, singleFile = false, noFailed = false, copy = false, json = false;
};

QString parse(const QStringList &a, ExportArgs *out)
{
    QStringList positional;
    bool inFrames = false;
    for (int i = 0; i < a.size(); ++i) {
        const QString &t = a.at(i);
        auto value = [&](QString *v) -> QString {
            if (i + 1 >= a.size() || a.at(i + 1).startsWith(QLatin1String("--")))
                return QStringLiteral("%1 needs a value").arg(t);
            *v = a.at(++i);
            return {};
        };
        QString e;
        if (t.startsWith(QLatin1String("--")))
            inFrames = false;
        if (t == QLatin1String("--session")) e = value(&out->dir);
        else if (t == QLatin1String("--format")) e = value(&out->format);
        else if (t == QLatin1String("--branch")) e = value(&out->branch);
        else if (t == QLatin1String("--frames")) inFrames = true;
        else if (t == QLatin1String("--strip-prompts")) out->stripPrompts = true;
        else if (t == QLatin1String("--strip-ids")) out->stripIds = true;
        else if (t == QLatin1String("--single-file")) out->singleFile = true;
        else if (t == QLatin1String("--no-failed")) out->noFailed = true;
        else if (t == QLatin1String("--copy")) out->copy = true;
        else if (t == QLatin1String("--json")) out->json = true;
        else if (t.startsWith(QLatin1String("--"))) e = QStringLiteral("unknown option %1 for %2").arg(t, out->command.isEmpty() ? QStringLiteral("export") : out->command);
        else if (out->command.isEmpty()) out->command = t;
        else if (inFrames) out->frames += t.split(QLatin1Char(','), Qt::SkipEmptyParts);
        else positional.append(t);
        if (!e.isEmpty())
            return e;
    }
    // `--frames a b OUT`: the last word of the line is the output, not a frame.
    if (positional.isEmpty() && !out->frames.isEmpty() && !a.isEmpty() && a.last() == out->frames.last()
        && !a.last().contains(QLatin1Char(',')))
        positional.append(out->frames.takeLast());
    if (out->dir.isEmpty())
        return QStringLiteral("--session needs a folder");
    if (positional.size() != 1)
        return out->command == QLatin1String("open-bundle")
                   ? QStringLiteral("open-bundle needs exactly one bundle file")
                   : QStringLiteral("export needs exactly one output path (OUT), got %1").arg(positional.size());
    out->output = positional.first();
    if (out->command == QLatin1String("open-bundle"))
        return {};
    if (out->format.isEmpty())
        return QStringLiteral("export needs --format html|bundle|sheet|frames");
    if (!Exporter::formatFromName(out->format))
        return QStringLiteral("unknown export format \"%1\" (one of: html, bundle, sheet, frames)").arg(out->format);
    if (!out->branch.isEmpty() && !out->frames.isEmpty())
        return QStringLiteral("use either --branch or --frames, not both");
    if (a.contains(QStringLiteral("--frames")) && out->frames.isEmpty())
        return QStringLiteral("--frames needs at least one frame id");
    return {};
}

int usage(const QString &message, bool json, QTextStream &out, QTextStream &err)
{
    if (json) {
        QJsonObject o{{QStringLiteral("ok"), false}, {QStringLiteral("error"), QStringLiteral("usage")},
                      {QStringLiteral("message"), message}};
        out << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) << '\n';
    }
    err << "nb2lite: " << message << "\nTry 'nb2lite --help'.\n";
    return kExitUsage;
}

int failure(const Error &error, bool json, QTextStream &out, QTextStream &err)
{
    if (json) {
        QJsonObject o{{QStringLiteral("ok"), false}, {QStringLiteral("error"), errorKindName(error.kind)},
                      {QStringLiteral("message"), error.message}};
        out << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) << '\n';
    }
    err << "nb2lite: " << error.message << '\n';
    return exitCodeFor(error.kind);
}

Result<QString> resolveFrame(const SessionStore &store, const QString &ref)
{
    if (ref == QLatin1String("head") && !store.currentFrameId().isEmpty())
        return store.currentFrameId();
    const QStringList matches = store.graph().matchPrefix(ref, FrameGraph::LiveOnly);
    if (matches.size() == 1)
        return matches.first();
    if (matches.isEmpty())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("no frame \"%1\" in this session").arg(ref));
    return Error::make(ErrorKind::InvalidInput, QStringLiteral("\"%1\" matches %2 frames (%3); give more characters")
                                                  .arg(ref).arg(matches.size()).arg(matches.mid(0, 5).join(QStringLiteral(", "))));
}

QString sizeText(qint64 bytes)
{
    if (bytes < 10 * 1024)
        return QStringLiteral("%1 bytes").arg(bytes);
    if (bytes < 10 * 1024 * 1024)
        return QStringLiteral("%1 KiB").arg(bytes / 1024);
    return QStringLiteral("%1 MiB").arg(bytes / (1024 * 1024));
}

int openBundle(const ExportArgs &args, QTextStream &out, QTextStream &err)
{
    auto r = SessionBundle::extract(args.output, args.dir);
    if (!r)
        return failure(r.error(), args.json, out, err);
    SessionStore store;
    if (const Result<void> opened = store.open(args.dir, SessionStore::OpenMode::OpenExisting); !opened)
        return failure(Error::make(opened.error().kind, QStringLiteral("the bundle was extracted but does not open as a session: %1")
                                                            .arg(opened.error().message)),
                       args.json, out, err);
    if (args.json) {
        QJsonObject o{{QStringLiteral("ok"), true}, {QStringLiteral("session"), args.dir},
                      {QStringLiteral("frames"), store.graph().size()}, {QStringLiteral("files"), qint64(r.value().files.size())}};
        out << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) << '\n';
    } else {
        out << QStringLiteral("Opened the bundle as a session in %1: %2 frames, %3 files (checksums verified).\n")
                   .arg(QDir::toNativeSeparators(args.dir)).arg(store.graph().size()).arg(r.value().files.size());
    }
    return kExitSuccess;
}

} // namespace

bool isExportCommand(const QStringList &arguments)
{
    if (!arguments.contains(QStringLiteral("--session")))
        return false;
    // The command is the first word that is neither an option nor an option's value (the
    // session commands' value options may come first: `--session D --title export generate`).
    static const QStringList valueOptions{
        QStringLiteral("--session"), QStringLiteral("--base-url"), QStringLiteral("--model"), QStringLiteral("--aspect"),
        QStringLiteral("--aspect-ratio"), QStringLiteral("--thinking"), QStringLiteral("--thinking-level"),
        QStringLiteral("--file"), QStringLiteral("--style"), QStringLiteral("--title"), QStringLiteral("--retention"),
        QStringLiteral("--demo-latency"), QStringLiteral("--step-delay"), QStringLiteral("--lock-timeout")};
    for (int i = 0; i < arguments.size(); ++i) {
        const QString &t = arguments.at(i);
        if (valueOptions.contains(t)) {
            ++i;
            continue;
        }
        if (t.startsWith(QLatin1String("--")))
            continue;
        return t == QLatin1String("export") || t == QLatin1String("open-bundle");
    }
    return false;
}

int runExportCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    ExportArgs args;
    const QString problem = parse(arguments, &args);
    if (!problem.isEmpty())
        return usage(problem, args.json || arguments.contains(QStringLiteral("--json")), out, err);
    if (args.command == QLatin1String("open-bundle"))
        return openBundle(args, out, err);

    SessionStore store;
    if (const Result<void> opened = store.open(args.dir, SessionStore::OpenMode::OpenExisting); !opened)
        return failure(Error::make(opened.error().kind, QStringLiteral("cannot open the session: %1").arg(opened.error().message)),
                       args.json, out, err);

    ExportRequest request;
    request.format = *Exporter::formatFromName(args.format);
    request.output = args.output;
    request.singleFile = args.singleFile;
    request.stripPrompts = args.stripPrompts;
    request.stripIds = args.stripIds;
    request.includeFailed = !args.noFailed;
    request.linkImages = !args.copy;
    if (!args.branch.isEmpty()) {
        bool numeric = false;
        const int n = args.branch.toInt(&numeric);
        if (numeric && n >= 1 && n <= store.graph().branches().size()) {
            request.scope = ExportScope::ofBranch(args.branch);
        } else {
            auto id = resolveFrame(store, args.branch);
            if (!id)
                return failure(id.error(), args.json, out, err);
            // A frame names the branch that continues through it, down to its head.
            request.scope = ExportScope::ofBranch(store.graph().headFrom(id.value()));
        }
    } else if (!args.frames.isEmpty()) {
        QStringList ids;
        for (const QString &ref : args.frames) {
            auto id = resolveFrame(store, ref);
            if (!id)
                return failure(id.error(), args.json, out, err);
            ids.append(id.value());
        }
        request.scope = ExportScope::ofFrames(ids);
    }

    const ExportSession session = ExportSession::fromGraph(store.graph(), store.dir());
    QElapsedTimer timer;
    timer.start();
    auto report = Exporter::run(session, request);
    if (!report)
        return failure(report.error(), args.json, out, err);
    const ExportReport &r = report.value();
    for (const QString &w : r.warnings)
        err << "warning: " << w << '\n';
    if (args.json) {
        QJsonObject o{{QStringLiteral("ok"), true},
                      {QStringLiteral("format"), args.format},
                      {QStringLiteral("output"), r.output},
                      {QStringLiteral("frames"), r.frames},
                      {QStringLiteral("images_linked"), r.imagesLinked},
                      {QStringLiteral("images_copied"), r.imagesCopied},
                      {QStringLiteral("bytes_written"), r.bytesWritten},
                      {QStringLiteral("files"), QJsonArray::fromStringList(r.files)},
                      {QStringLiteral("warnings"), QJsonArray::fromStringList(r.warnings)},
                      {QStringLiteral("elapsed_ms"), timer.elapsed()}};
        out << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) << '\n';
    } else {
        out << QStringLiteral("Exported %1 frames as %2 to %3").arg(r.frames).arg(args.format, QDir::toNativeSeparators(r.output));
        if (request.format == ExportFormat::Html && r.imagesLinked + r.imagesCopied > 0)
            out << QStringLiteral(" (%1 images hard-linked, %2 copied)").arg(r.imagesLinked).arg(r.imagesCopied);
        else if (request.format == ExportFormat::Frames)
            out << QStringLiteral(" (%1 pictures with their provenance record)").arg(r.files.size());
        out << QStringLiteral(", %1 written in %2 ms.\n").arg(sizeText(r.bytesWritten)).arg(timer.elapsed());
    }
    return kExitSuccess;
}

QString exportCommandHelp()
{
    return QStringLiteral(
        "EXPORT\n"
        "  nb2lite --session DIR export --format FORMAT [SCOPE] [OPTIONS] OUT\n"
        "    html     OUT/index.html + OUT/images (the session's files, hard-linked or copied);\n"
        "             with --single-file, OUT is one .html with the images inline\n"
        "    bundle   OUT.nb2session: the whole session, lossless (open it with open-bundle)\n"
        "    sheet    OUT.png: a contact sheet with captions\n"
        "    frames   OUT/01-first-prompt.jpg ...: pictures with their lineage in the metadata\n"
        "  SCOPE: the whole session (default), --branch N|FRAME, or --frames F [F ...]\n"
        "  OPTIONS: --strip-prompts, --strip-ids (what goes into pages, captions and metadata),\n"
        "           --no-failed (leave failed turns out), --copy (never hard-link), --json\n"
        "  nb2lite --session DIR open-bundle FILE.nb2session\n"
        "    extracts a bundle into DIR (new or empty) and checks that it opens\n");
}

} // namespace nb2::cli
