#pragma once

#include "core/export/exportfiles.h"
#include "core/export/exportsession.h"
#include "core/export/provenance.h"

namespace nb2 {

struct FramesExportOptions {
    bool embedProvenance = true; // write the lineage record into each PNG/JPEG
    ProvenanceOptions provenance;
};

/**
 * The scope's pictures as plain files with readable names — `03-add-a-lantern.jpg`: position
 * along the export order, then the prompt as a slug — for people who just want the images.
 * Each file is the session's bytes with the provenance record added to the container
 * (pixels untouched); formats that cannot carry it are copied unchanged, with a warning.
 */
class FramesExporter
{
public:
    static Result<ExportReport> write(const ExportSession &session, const QList<const ExportFrame *> &frames,
        const QString &outDir, const FramesExportOptions &options);
    /** "03-add-a-lantern.jpg"; digits = max(2, digits of total). */
    static QString fileName(int position, int total, const ExportFrame &frame, const QString &extension);
};

} // namespace nb2
