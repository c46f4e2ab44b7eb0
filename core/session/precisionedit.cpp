#include "core/session/precisionedit.h"

#include "core/common/threadpriority.h"
#include "core/edit/compositor.h"
#include "core/edit/cropbox.h"
#include "core/edit/driftmeter.h"
#include "core/session/sessionpaths.h"
#include "core/session/sessionstore.h"

#include <QBuffer>
#include <QDir>
#include <QFuture>
#include <QImageReader>
#include <QRegularExpression>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>

namespace nb2 {

namespace {

// The names of the files this class writes beside a frame's picture (isDerivedFileName()).
QString derivedFile(const char *what, const QString &id)
{
    return QStringLiteral("images/%1_%2.png").arg(QLatin1String(what), id);
}

QString shortUuid()
{
    return QUuid::createUuid().toString(QUuid::Id128).left(8);
}

Result<QByteArray> encodePng(const QImage &image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return Error::make(ErrorKind::Io, QStringLiteral("Could not encode a PNG image; check free memory and retry."));
    return bytes;
}

Result<FrameImage> writePng(const QString &sessionDir, const QString &rel, const QImage &image)
{
    Result<QByteArray> png = encodePng(image);
    if (!png)
        return png.error();
    return SessionStore::writeImageFile(sessionDir, rel, png.value());
}

Result<QImage> readSessionImage(const QString &sessionDir, const QString &rel, const char *what)
{
    // Resolved here, as it is read: a store may have left the file's own step to its readers
    // (SessionStore::setFileChecksDeferred()), and a file can change after the session opened.
    const Result<QString> file
        = SessionPaths::resolveInside(sessionDir, rel, QStringLiteral("The %1").arg(QLatin1String(what)));
    if (!file)
        return file.error();
    QImageReader reader(file.value());
    const QSize size = reader.size();
    if (size.isValid() && qint64(size.width()) * size.height() > 100'000'000LL)
        return Error::make(
            ErrorKind::TooLarge, QStringLiteral("The %1 %2 is over 100 megapixels.").arg(QLatin1String(what), rel));
    QImage image = reader.read();
    if (image.isNull())
        return Error::make(ErrorKind::Io,
            QStringLiteral("Could not read the %1 %2 (%3); the session may be damaged.")
                .arg(QLatin1String(what), rel, reader.errorString()));
    return image;
}

/** A parent's picture and its child's, read at once. */
struct ParentAndChild {
    Result<QImage> parent;
    Result<QImage> child;
};

/**
 * Decoding the two pictures is most of a drift reading (a 1024×1024 JPEG takes ~9 ms, a third
 * of what the CLI's edit spends after the answer), so the parent is read on another thread
 * while this one reads the child. Not from a thread that was made to yield (helperThreadsWelcome):
 * a helper at normal priority would undo that. If the pool has no thread free, waiting for the
 * result runs the read here.
 */
ParentAndChild readParentAndChild(
    const QString &sessionDir, const QString &parentRel, const QString &childRel, const char *childWhat)
{
    if (!helperThreadsWelcome())
        return {
            readSessionImage(sessionDir, parentRel, "parent image"), readSessionImage(sessionDir, childRel, childWhat)};
    QFuture<Result<QImage>> parent = QtConcurrent::run(
        [sessionDir, parentRel] { return readSessionImage(sessionDir, parentRel, "parent image"); });
    Result<QImage> child = readSessionImage(sessionDir, childRel, childWhat);
    return {parent.result(), std::move(child)};
}

} // namespace

QString PrecisionEdit::driftMeasureName()
{
    return QStringLiteral("cie76_grid%1_de%2").arg(DriftMeter::kGrid).arg(int(DriftMeter::kChangedDeltaE));
}

bool PrecisionEdit::isDerivedFileName(const QString &fileName)
{
    static const QRegularExpression derived(QStringLiteral("^(mask|crop|drift)_[0-9a-f]{8}\\.png$"));
    return derived.match(fileName).hasMatch();
}

Result<PreparedRegion> PrecisionEdit::prepare(
    const QString &sessionDir, const Frame &parent, RegionMode mode, const EditMask &mask, int feather, int margin)
{
    if (mode == RegionMode::None)
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("Choose --mode region or --mode protect."));
    Result<QImage> parentImage = readSessionImage(sessionDir, parent.image.file, "parent image");
    if (!parentImage)
        return parentImage.error();
    if (mask.size() != parentImage.value().size())
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("The mask is %1×%2 but the frame is %3×%4; scale it to the frame first.")
                .arg(mask.size().width())
                .arg(mask.size().height())
                .arg(parentImage.value().width())
                .arg(parentImage.value().height()));
    const QRect selection = mask.boundingRect();
    if (selection.isEmpty())
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("The selection is empty; select the area that may change (white in a mask)."));
    PreparedRegion out;
    out.edit.mode = mode;
    out.edit.feather = std::max(0, feather);
    const QString id = shortUuid();
    const QString maskRel = derivedFile("mask", id);
    if (Result<FrameImage> written = writePng(sessionDir, maskRel, mask.image()); !written)
        return written.error();
    out.edit.maskFile = maskRel;
    if (mode == RegionMode::Region) {
        // The margin must hold the feather band, so the blend never needs pixels the model did not send.
        const CropBox box = cropBoxFor(selection, parentImage.value().size(), std::max(margin, out.edit.feather + 2));
        out.edit.crop = box.rect;
        out.edit.cropAspect = box.aspectRatio;
        const QString cropRel = derivedFile("crop", id);
        if (Result<FrameImage> written = writePng(sessionDir, cropRel, parentImage.value().copy(box.rect)); !written)
            return written.error();
        out.cropFile = cropRel;
    }
    return out;
}

Result<Frame> PrecisionEdit::finish(const QString &sessionDir, const Frame &parent, Frame child)
{
    const FrameRegionEdit &edit = child.regionEdit;
    if (edit.isEmpty() || !child.isDone() || child.image.isNull())
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Frame %1 is not a finished region or protect edit.").arg(child.id));
    ParentAndChild read = readParentAndChild(sessionDir, parent.image.file, child.image.file, "edited image");
    const Result<QImage> &parentImage = read.parent;
    if (!parentImage)
        return parentImage.error();
    const Result<QImage> &raw = read.child;
    if (!raw)
        return raw.error();
    Result<QImage> maskImage = readSessionImage(sessionDir, edit.maskFile, "mask");
    if (!maskImage)
        return maskImage.error();
    const QImage &p = parentImage.value();
    Result<EditMask> mask = EditMask::fromImage(maskImage.value(), p.size());
    if (!mask)
        return mask.error();
    const QImage weight = mask.value().feathered(edit.feather);

    Result<QImage> composite = edit.mode == RegionMode::Region
        ? Compositor::pasteRegion(p, raw.value(), edit.crop, mask.value(), edit.feather)
        : Compositor::protect(p, raw.value(), mask.value(), edit.feather);
    if (!composite)
        return composite.error();
    // What the model changed outside the selection, in what it sent (before the composite hid it).
    const DriftReading rawReading = edit.mode == RegionMode::Region
        ? DriftMeter::measure(p.copy(edit.crop), raw.value(), weight.copy(edit.crop))
        : DriftMeter::measure(p, raw.value(), weight);
    const DriftReading shown = DriftMeter::measure(p, composite.value());

    const QString stem = QStringLiteral("images/%1_%2").arg(frameKindFilePrefix(child.kind), child.id);
    Result<FrameImage> compositeFile = writePng(sessionDir, stem + QStringLiteral("_composite.png"), composite.value());
    if (!compositeFile)
        return compositeFile.error();
    Result<FrameImage> heatmapFile
        = writePng(sessionDir, derivedFile("drift", child.id), shown.heatmap);
    if (!heatmapFile)
        return heatmapFile.error();

    child.regionEdit.rawFile = child.image.file;
    child.regionEdit.rawSha256 = child.image.sha256;
    child.image = compositeFile.value();
    child.drift.measure = driftMeasureName();
    child.drift.changed = shown.changed;
    child.drift.outsideChanged = rawReading.outsideChanged;
    child.drift.heatmapFile = heatmapFile.value().file;
    return child;
}

Result<Frame> PrecisionEdit::measureDrift(const QString &sessionDir, const Frame &parent, Frame child)
{
    const ParentAndChild read = readParentAndChild(sessionDir, parent.image.file, child.image.file, "edited image");
    if (!read.parent)
        return read.parent.error();
    if (!read.child)
        return read.child.error();
    const DriftReading reading = DriftMeter::measure(read.parent.value(), read.child.value());
    Result<FrameImage> heatmapFile
        = writePng(sessionDir, derivedFile("drift", child.id), reading.heatmap);
    if (!heatmapFile)
        return heatmapFile.error();
    child.drift.measure = driftMeasureName();
    child.drift.changed = reading.changed;
    child.drift.outsideChanged = -1;
    child.drift.heatmapFile = heatmapFile.value().file;
    return child;
}

} // namespace nb2
