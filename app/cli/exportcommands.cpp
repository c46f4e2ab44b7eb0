#include "app/cli/exportcommands.h"

#include "app/cli/cliargs.h"
#include "app/cli/clitext.h"
#include "app/cli/console.h"
#include "app/cli/exitcodes.h"
#include "app/cli/jsonout.h"
#include "core/export/exporter.h"
#include "core/export/exportfiles.h"
#include "core/export/sessionbundle.h"
#include "core/session/pricetable.h"
#include "core/session/sessionstore.h"

#include <QDir>
#include <QElapsedTimer>

#include <nlohmann/json.hpp>

namespace nb2::cli {

namespace {

int failure(const Error &error, const CliArgs &args, Console &console)
{
    CliReport report;
    report.error = error;
    return console.finish(report, args.json);
}

Result<QString> resolveFrame(const SessionStore &store, const QString &ref)
{
    if (ref == QLatin1String("head") && !store.currentFrameId().isEmpty())
        return store.currentFrameId();
    const QStringList matches = store.graph().matchPrefix(ref, FrameGraph::LiveOnly);
    if (matches.size() == 1)
        return matches.first();
    if (matches.isEmpty())
        return Error::make(ErrorKind::InvalidInput, CliText::tr("no frame \"%1\" in this session").arg(ref));
    return Error::make(ErrorKind::InvalidInput,
        CliText::tr("\"%1\" matches %2 frames (%3); give more characters")
            .arg(ref)
            .arg(matches.size())
            .arg(matches.mid(0, 5).join(QStringLiteral(", "))));
}

QString sizeText(qint64 bytes)
{
    if (bytes < 10 * 1024)
        return CliText::tr("%1 bytes").arg(bytes);
    if (bytes < 10 * 1024 * 1024)
        return CliText::tr("%1 KiB").arg(bytes / 1024);
    return CliText::tr("%1 MiB").arg(bytes / (1024 * 1024));
}

int openBundle(const CliArgs &args, Console &console)
{
    const QString bundle = args.positional.first();
    auto r = SessionBundle::extract(bundle, args.sessionDir);
    if (!r)
        return failure(r.error(), args, console);
    SessionStore store;
    if (const Result<void> opened = store.open(args.sessionDir, SessionStore::OpenMode::ReadOnly); !opened)
        return failure(
            Error::make(opened.error().kind,
                CliText::tr("the bundle was extracted but does not open as a session: %1").arg(opened.error().message)),
            args, console);
    if (args.json) {
        OutJson o = OutJson::object();
        o["ok"] = true;
        o["session"] = toOutJson(args.sessionDir);
        o["frames"] = store.graph().size();
        o["files"] = qint64(r.value().files.size());
        console.out(jsonLine(o));
    } else {
        console.out(
            CliText::tr("Opened the bundle as a session in %1: %n frame(s), ", nullptr, int(store.graph().size()))
                .arg(QDir::toNativeSeparators(args.sessionDir))
            + CliText::tr("%n file(s) (checksums verified).", nullptr, int(r.value().files.size()))
            + QLatin1Char('\n'));
    }
    return kExitSuccess;
}

} // namespace

int runExportCommand(const CliArgs &args, Console &console)
{
    if (args.command == CliCommand::OpenBundle)
        return openBundle(args, console);

    SessionStore store;
    if (const Result<void> opened = store.open(args.sessionDir, SessionStore::OpenMode::ReadOnly); !opened)
        return failure(
            Error::make(opened.error().kind, CliText::tr("cannot open the session: %1").arg(opened.error().message)),
            args, console);

    ExportRequest request;
    request.format = *Exporter::formatFromName(args.format); // the parser accepts only known formats
    request.output = args.positional.first();
    request.singleFile = args.singleFile;
    request.stripPrompts = args.stripPrompts;
    request.stripIds = args.stripIds;
    request.stripCost = args.stripCost;
    request.includeFailed = !args.noFailed;
    request.linkImages = !args.copy;
    // --force lets a file output replace an existing regular file (never a link, FIFO or device).
    request.existing = args.force ? ExistingTarget::Replace : ExistingTarget::Refuse;
    if (!args.exportBranch.isEmpty()) {
        bool numeric = false;
        const int n = args.exportBranch.toInt(&numeric);
        if (numeric && n >= 1 && n <= store.graph().branches().size()) {
            request.scope = ExportScope::ofBranch(args.exportBranch);
        } else {
            auto id = resolveFrame(store, args.exportBranch);
            if (!id)
                return failure(id.error(), args, console);
            // A frame names the branch that continues through it, down to its head.
            request.scope = ExportScope::ofBranch(store.graph().headFrom(id.value()));
        }
    } else if (!args.frames.isEmpty()) {
        QStringList ids;
        for (const QString &ref : args.frames) {
            auto id = resolveFrame(store, ref);
            if (!id)
                return failure(id.error(), args, console);
            ids.append(id.value());
        }
        request.scope = ExportScope::ofFrames(ids);
    }

    // Costs at the same prices `nb2lite cost` uses (an estimate; the page says the table's date).
    const ExportSession session = ExportSession::fromGraph(store.graph(), store.dir(), PriceTable::defaults());
    QElapsedTimer timer;
    timer.start();
    auto report = Exporter::run(session, request);
    if (!report)
        return failure(report.error(), args, console);
    const ExportReport &r = report.value();
    for (const QString &w : r.warnings)
        console.err(CliText::tr("warning: %1").arg(w) + QLatin1Char('\n'));
    if (args.json) {
        OutJson o = OutJson::object();
        o["ok"] = true;
        o["format"] = toOutJson(args.format);
        o["output"] = toOutJson(r.output);
        o["frames"] = r.frames;
        o["images_linked"] = r.imagesLinked;
        o["images_copied"] = r.imagesCopied;
        o["bytes_written"] = r.bytesWritten;
        o["files"] = toOutJson(r.files);
        o["warnings"] = toOutJson(r.warnings);
        o["elapsed_ms"] = timer.elapsed();
        console.out(jsonLine(o));
    } else {
        QString text = CliText::tr("Exported %n frame(s) as %1 to %2", nullptr, int(r.frames))
                           .arg(args.format, QDir::toNativeSeparators(r.output));
        if (request.format == ExportFormat::Html && r.imagesLinked + r.imagesCopied > 0)
            text += CliText::tr(" (%n image(s) hard-linked, ", nullptr, int(r.imagesLinked))
                + CliText::tr("%n copied)", nullptr, int(r.imagesCopied));
        else if (request.format == ExportFormat::Frames)
            text += CliText::tr(" (%n picture(s), each with its provenance record)", nullptr, int(r.files.size()));
        text += CliText::tr(", %1 written in %2 ms.").arg(sizeText(r.bytesWritten)).arg(timer.elapsed());
        console.out(text + QLatin1Char('\n'));
    }
    return kExitSuccess;
}

} // namespace nb2::cli
