#pragma once

#include "core/export/exportfiles.h"
#include "core/export/exportsession.h"

namespace nb2 {

struct HtmlExportOptions {
    bool singleFile = false;   // one .html with images inline as data: URIs
    bool includeFailed = true; // show failed turns (with the server's message)
    bool linkImages = true;    // folder form: hard-link images when possible, else copy
    bool stripPrompts = false; // leave prompts and model text out of the page
    bool stripIds = false;     // leave frame and interaction ids out of the page
    bool stripCost = false;    // leave the estimated cost (per frame and the total) out of the page
    ExistingTarget existing = ExistingTarget::Refuse; // single file: may an existing file be replaced
};

/**
 * Writes the session history as a web page that works offline in any browser: the tree of
 * frames (one column per line of work, forks indented under the frame they branch from),
 * each with its thumbnail, prompt, kind, parameters, model text, timestamps, re-anchors and
 * failures. Images are the session's own files, hard-linked or copied (folder form) or
 * base64-inlined (single file) — never re-encoded. Everything user-provided is HTML-escaped;
 * the only script is inline and only opens the full image and fills a self-check line.
 */
class HtmlExporter
{
public:
    /** frames: the scope, in tree order (ExportSession::select). out: folder, or .html file when singleFile. */
    static Result<ExportReport> write(const ExportSession &session, const QList<const ExportFrame *> &frames,
        const QString &out, const HtmlExportOptions &options);
};

} // namespace nb2
