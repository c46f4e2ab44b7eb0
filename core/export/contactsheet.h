#pragma once

#include "core/export/exportfiles.h"
#include "core/export/exportsession.h"

#include <QImage>

namespace nb2 {

struct ContactSheetOptions {
    int columns = 0;           // 0: chosen from the frame count (at most 6)
    int cellSize = 240;        // thumbnail box, pixels
    bool captions = true;      // "#3 edit · add a lantern" under each picture
    bool stripPrompts = false; // captions without the prompt
    /**
     * The session folder every image must resolve inside (ExportSession::imageFileIn), checked
     * as each is read. write() refuses frames with images when it is empty; render() alone
     * (previews of frames the caller built) reads imagePath as given then.
     */
    QString sessionDir;
    ExistingTarget existing = ExistingTarget::Refuse; // may an existing file at the output be replaced
};

/**
 * One PNG with the scope's frames in order, each scaled into a cell with a short caption.
 * Thumbnails are decoded at reduced size (QImageReader::setScaledSize) so a large session
 * stays cheap. Captions use QPainter's text when a QGuiApplication exists and the built-in
 * CaptionFont otherwise, so the CLI (a QCoreApplication) renders the same sheet without a
 * display. Frames without an image (failed turns) get a labelled empty cell.
 */
class ContactSheet
{
public:
    static QImage render(const QList<const ExportFrame *> &frames, const QString &title,
        const ContactSheetOptions &options, QStringList *warnings = nullptr);
    static Result<ExportReport> write(const QList<const ExportFrame *> &frames, const QString &title,
        const QString &outFile, const ContactSheetOptions &options);
    /** The caption of a frame: its turn number (n, 1-based position, when it has none), kind, prompt. */
    static QString caption(int n, const ExportFrame &frame, bool stripPrompts);
};

} // namespace nb2
