#pragma once

#include "core/common/error.h"
#include "core/edit/editmask.h"
#include "core/session/frame.h"

#include <QCoreApplication>
#include <QRect>
#include <QString>

namespace nb2 {

/** What is written before a precision edit is sent: the mask and, for Region, the crop to send inline. */
struct PreparedRegion {
    FrameRegionEdit edit; // mode, mask file, feather, crop and its ratio (raw not yet known)
    QString cropFile;     // Region: relative path of the crop PNG to send inline (empty for Protect)
};

/**
 * The session side of a precision edit (issue 13), blocking, for a worker thread or the CLI:
 * before the turn, it stores the selection as a PNG in the session and, in Region mode, the
 * crop of the parent to send inline (edit-local form); after the turn, it composites the
 * server's image with the parent (core/edit/compositor.h), writes the composite as PNG beside
 * the raw image, measures drift and writes its heatmap, and returns the child frame with
 * `image` = composite, `regionEdit.raw*` = the server's image and `drift` filled in. It owns
 * nothing and never touches the network or the manifest: the controller commits the frame.
 */
class PrecisionEdit
{
    Q_DECLARE_TR_FUNCTIONS(nb2::PrecisionEdit)
public:
    static constexpr int kDefaultFeather = 4;
    static constexpr int kDefaultMargin = 32;
    /** Drift measure name stored with every reading. */
    static QString driftMeasureName();

    static Result<PreparedRegion> prepare(const QString &sessionDir, const Frame &parent, RegionMode mode,
        const EditMask &mask, int feather, int margin = kDefaultMargin);

    /** Composite + drift for a done child of a region/protect edit; mask is re-read from the session. */
    static Result<Frame> finish(const QString &sessionDir, const Frame &parent, Frame child);

    /** Drift only, for an ordinary edit (no selection): parent vs child as they are on disk. */
    static Result<Frame> measureDrift(const QString &sessionDir, const Frame &parent, Frame child);

    /**
     * Whether a file name in images/ is one this class writes beside a frame's picture: a
     * selection's mask or crop, a drift heatmap ("mask_", "crop_" or "drift_", 8 hex digits,
     * ".png"). Never a picture of its own: a rebuild leaves such a file alone when no frame
     * names it (an edit whose selection was prepared but never sent left its mask behind).
     */
    static bool isDerivedFileName(const QString &fileName);
};

} // namespace nb2
