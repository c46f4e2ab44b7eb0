#include "core/export/exporter.h"

#include "core/export/contactsheet.h"
#include "core/export/framesexporter.h"
#include "core/export/htmlexporter.h"
#include "core/export/sessionbundle.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace nb2 {

namespace {

Error invalid(const QString &message)
{
    return Error::make(ErrorKind::InvalidInput, message);
}

// tr() for this file's functions with the context "nb2::Exporter": a struct, not a free function, so
// that lupdate files the texts under the context they are looked up in.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(nb2::Exporter)
};

} // namespace

HtmlExportOptions Exporter::htmlOptions(const ExportRequest &request)
{
    HtmlExportOptions o;
    o.singleFile = request.singleFile;
    o.includeFailed = request.includeFailed;
    o.linkImages = request.linkImages;
    o.stripPrompts = request.stripPrompts;
    o.stripIds = request.stripIds;
    o.stripCost = request.stripCost;
    o.existing = request.existing;
    return o;
}

QString Exporter::formatName(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Html:
        return QStringLiteral("html");
    case ExportFormat::Bundle:
        return QStringLiteral("bundle");
    case ExportFormat::Sheet:
        return QStringLiteral("sheet");
    case ExportFormat::Frames:
        return QStringLiteral("frames");
    }
    return {};
}

std::optional<ExportFormat> Exporter::formatFromName(const QString &name)
{
    for (ExportFormat f : {ExportFormat::Html, ExportFormat::Bundle, ExportFormat::Sheet, ExportFormat::Frames}) {
        if (formatName(f) == name)
            return f;
    }
    return std::nullopt;
}

Result<ExportReport> Exporter::run(const ExportSession &session, const ExportRequest &request)
{
    if (request.output.isEmpty())
        return invalid(Text::tr("No output path was given."));
    if (request.singleFile && request.format != ExportFormat::Html)
        return invalid(Text::tr("--single-file only applies to the html format."));
    if (request.format == ExportFormat::Bundle) {
        // A bundle is the session itself: leaving anything out would break the round trip.
        if (request.scope.kind != ExportScope::Kind::Session)
            return invalid(Text::tr("A bundle always holds the whole session; --branch and --frames do not apply."));
        if (request.stripPrompts || request.stripIds)
            return invalid(
                Text::tr("A bundle is a lossless copy of the session; --strip-prompts and --strip-ids do not apply."));
        return SessionBundle::write(session, request.output, request.existing);
    }

    // A file output whose name is taken fails before any work (it is checked again when written).
    const bool folder
        = request.format == ExportFormat::Frames || (request.format == ExportFormat::Html && !request.singleFile);
    if (!folder) {
        if (const Result<void> target = OutputFile::checkTarget(request.output, request.existing); !target)
            return target.error();
    }

    // Frames export is about pictures: failed turns (no image) are never part of it.
    const bool includeFailed = request.includeFailed && request.format != ExportFormat::Frames;
    auto frames = session.select(request.scope, includeFailed);
    if (!frames)
        return frames.error();
    if (frames.value().isEmpty())
        return invalid(Text::tr("The chosen scope has no frames to export."));

    // Folder formats write into a new or empty folder; if they fail halfway, empty it again
    // so that a failed export leaves nothing that looks like a finished one.
    const QFileInfo target(request.output);
    const bool existed = target.exists() || target.isSymLink();
    // Never a link: cleaning up after a failure must not reach through one.
    const bool fresh = !existed
        || (!target.isSymLink() && target.isDir()
            && QDir(request.output).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System));
    auto result = write(session, frames.value(), request, includeFailed);
    if (!result && folder && fresh) {
        QDir(request.output).removeRecursively();
        if (existed)
            QDir().mkpath(request.output);
    }
    return result;
}

Result<ExportReport> Exporter::write(const ExportSession &session, const QList<const ExportFrame *> &frames,
    const ExportRequest &request, bool includeFailed)
{
    switch (request.format) {
    case ExportFormat::Html: {
        HtmlExportOptions o = htmlOptions(request);
        o.includeFailed = includeFailed;
        return HtmlExporter::write(session, frames, request.output, o);
    }
    case ExportFormat::Sheet: {
        ContactSheetOptions o;
        o.stripPrompts = request.stripPrompts;
        o.sessionDir = session.sessionDir;
        o.existing = request.existing;
        return ContactSheet::write(frames, session.title, request.output, o);
    }
    case ExportFormat::Frames: {
        FramesExportOptions o;
        o.provenance.stripPrompts = request.stripPrompts;
        o.provenance.stripIds = request.stripIds;
        return FramesExporter::write(session, frames, request.output, o);
    }
    case ExportFormat::Bundle:
        break;
    }
    return invalid(Text::tr("Unknown export format."));
}

} // namespace nb2
