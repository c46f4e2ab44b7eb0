#pragma once

#include "core/export/exportfiles.h"
#include "core/export/exportsession.h"

namespace nb2 {

/**
 * The `.nb2session` bundle: a zip holding a session folder exactly — manifest.json,
 * journal.jsonl and every file under images/ (generated images as received, imported inputs),
 * byte for byte — plus nb2bundle.json, an index with each file's size and sha256. Opening a
 * bundle extracts it into a new folder, refusing entry names that could land outside it
 * (absolute, `..`, backslashes, links, devices) and checking every file against the index, so
 * a damaged or hostile bundle is rejected with a clear message and leaves nothing behind.
 * Caches (thumbs/) and the lock file are not part of a session and are left out.
 */
class SessionBundle
{
public:
    static constexpr const char *kIndexName = "nb2bundle.json";
    static constexpr const char *kFormatName = "nb2lite-bundle";
    static constexpr int kFormatVersion = 1;

    /**
     * Writes session.sessionFiles (relative to session.sessionDir) to outFile atomically
     * (OutputFile: never through a link, never over a device or FIFO, an existing file only
     * with Replace).
     */
    static Result<ExportReport> write(
        const ExportSession &session, const QString &outFile, ExistingTarget existing = ExistingTarget::Refuse);

    /**
     * Extracts bundleFile into targetDir (created; must not exist or be empty) and verifies it.
     * Zip bombs and strays are refused before a byte is extracted: the index is read first,
     * every entry must be listed in it, the index's and the zip directory's sizes must agree
     * and stay under the caps (256 MiB per file, 4 GiB in all); then each file is streamed to
     * disk (64 KiB at a time) with a running size and checksum check. Finally the manifest's
     * paths must stay inside targetDir (SessionPaths). Returns what was written; on any error
     * nothing remains in targetDir.
     */
    static Result<ExportReport> extract(const QString &bundleFile, const QString &targetDir);

    /** Whether a relative entry name is safe to create under a target folder. */
    static bool isSafeEntryName(const QString &name);
};

} // namespace nb2
