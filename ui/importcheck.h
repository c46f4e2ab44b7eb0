#pragma once

#include "core/session/frame.h"

#include <QByteArray>
#include <QDateTime>
#include <QImage>
#include <QList>
#include <QPair>
#include <QSize>
#include <QString>

namespace nb2 {

/** The outcome of checking one local picture before it becomes a frame or a style reference. */
struct ImportCheck {
    QString path; // the file checked (a temporary file for dropped / pasted image data)
    QString displayName;
    QString error;         // empty: usable
    bool tooLarge = false; // valid, but over the decode bound: offer downscaleToModelInput()
    QSize size;
    QImage preview;         // at most 160 px on the longer side, for small previews on the GUI thread
    QByteArray lineageJson; // the embedded NB2Lite lineage record, if any
    QList<QPair<QString, QString>> lineageRows; // that record as (label, value) rows to show
    QString lineageInteractionId;               // the server id the picture came from, if recorded
    FrameImage stored;                          // the copy written into the session (storeIn), if any
    QString storedIn;                           // the session folder that copy is in
    QDateTime storedAt;
    bool ok() const { return error.isEmpty(); }
};

/**
 * Checks a file the way an import needs it, on a worker thread: it exists, its bytes are an
 * image of a supported type (sniffed, not trusted from the name), under the API's size
 * limit, and it really decodes — a truncated or corrupt file is refused here, so the session
 * never gains a frame it cannot show. Blocking; never call it on the GUI thread.
 */
ImportCheck checkImportFile(const QString &path, const QString &displayName = {});

/**
 * Writes a checked picture into the session folder sessionDir (images/import_…, temp + fsync
 * + rename), so that the GUI thread only records the frame. Fills stored/storedIn/storedAt, or error.
 * Blocking; never call it on the GUI thread.
 */
void storeInSession(ImportCheck &check, const QString &sessionDir);

/** Writes image bytes (dropped or pasted data) to a file in dir and checks that file. Blocking. */
ImportCheck checkImportBytes(const QByteArray &bytes, const QString &dir, const QString &displayName);

} // namespace nb2
