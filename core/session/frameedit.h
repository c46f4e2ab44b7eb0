#pragma once

#include "core/common/error.h"

#include <QJsonObject>
#include <QRect>
#include <QString>

namespace nb2 {

/** How a selection was used: the crop sent inline and pasted back, or the whole image edited and the rest restored. */
enum class RegionMode { None, Region, Protect };

QString regionModeName(RegionMode mode); // "", "region", "protect"
RegionMode regionModeFromName(const QString &name, bool *ok = nullptr);

/**
 * What a precision edit (issue 13) adds to a frame: the selection (a grey PNG in the session),
 * how it was used, the crop sent, and the server's image as it came back (the frame's `image`
 * is then the lossless composite). Paths are relative to the session folder.
 */
struct FrameRegionEdit {
    RegionMode mode = RegionMode::None;
    QString maskFile;   // images/mask_<frame>.png: white may change, black is protected
    int feather = 0;    // pixels
    QRect crop;         // Region: the part of the parent sent inline (parent pixels)
    QString cropAspect; // the ratio asked for the crop
    QString rawFile;    // the server's image, unmodified
    QString rawSha256;

    bool isEmpty() const { return mode == RegionMode::None; }
    QJsonObject toJson() const;
    /** Unsafe when a path is absolute or leaves the session folder; Corrupt for an unknown mode. */
    static Result<FrameRegionEdit> fromJson(const QJsonObject &object);
    bool operator==(const FrameRegionEdit &other) const = default;
};

/** The drift meter's reading of an edit (core/edit/driftmeter.h says how it is measured). */
struct FrameDrift {
    QString measure;            // "cie76_grid256_de10": the measure, so later readings can tell
    double changed = -1;        // fraction of the picture changed, 0..1; -1: not measured
    double outsideChanged = -1; // fraction of the protected area the model changed in its raw output; -1: no selection
    QString heatmapFile;        // images/drift_<frame>.png

    bool isEmpty() const { return changed < 0; }
    QJsonObject toJson() const;
    static Result<FrameDrift> fromJson(const QJsonObject &object);
    bool operator==(const FrameDrift &other) const = default;
};

/**
 * Whether `path` (read from a session file) is a plain relative path that stays inside the
 * session folder: not absolute, no drive or scheme, no ".." segment after cleaning.
 */
bool isSafeSessionPath(const QString &path);

} // namespace nb2
