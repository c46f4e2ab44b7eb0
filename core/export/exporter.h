#pragma once

#include "core/export/exportfiles.h"
#include "core/export/exportsession.h"
#include "core/export/htmlexporter.h"

#include <optional>

namespace nb2 {

enum class ExportFormat { Html, Bundle, Sheet, Frames };

/** Everything the dialog or the CLI asks for in one export. */
struct ExportRequest {
    ExportFormat format = ExportFormat::Html;
    ExportScope scope;
    QString output;            // folder (html, frames) or file (html --single-file, bundle, sheet)
    bool singleFile = false;   // html only
    bool stripPrompts = false; // not for bundles (a bundle is the whole session, lossless)
    bool stripIds = false;     // not for bundles
    bool stripCost = false;    // html: leave the estimated cost out (only there when the session was read with prices)
    bool includeFailed = true; // html and sheet
    bool linkImages = true;    // html folder: hard links where possible
    /**
     * File outputs (bundle, sheet, html --single-file): Replace lets an existing regular file
     * be replaced (nb2lite --force; the dialog after it said so). Never a symlink, FIFO,
     * device or folder. Folder outputs must be new or empty either way.
     */
    ExistingTarget existing = ExistingTarget::Refuse;
};

/**
 * The one entry point for exporting: checks that the request makes sense for its format,
 * resolves the scope and hands off to the format's exporter. Blocking and free of GUI
 * state, so the dialog can run it on a worker thread and the CLI can call it directly.
 */
class Exporter
{
public:
    static Result<ExportReport> run(const ExportSession &session, const ExportRequest &request);
    /** The HTML exporter's options for a request (what run() passes it; the dialog's preview uses the same). */
    static HtmlExportOptions htmlOptions(const ExportRequest &request);

    static QString formatName(ExportFormat format); // "html", "bundle", "sheet", "frames"
    static std::optional<ExportFormat> formatFromName(const QString &name);

private:
    static Result<ExportReport> write(const ExportSession &session, const QList<const ExportFrame *> &frames,
        const ExportRequest &request, bool includeFailed);
};

} // namespace nb2
