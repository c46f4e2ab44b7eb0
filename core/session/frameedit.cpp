#include "core/session/frameedit.h"
#include "core/session/sessionpaths.h"

#include <QJsonArray>

namespace nb2 {

QString regionModeName(RegionMode mode)
{
    switch (mode) {
    case RegionMode::Region:
        return QStringLiteral("region");
    case RegionMode::Protect:
        return QStringLiteral("protect");
    case RegionMode::None:
        break;
    }
    return {};
}

RegionMode regionModeFromName(const QString &name, bool *ok)
{
    const RegionMode mode = name == QLatin1String("region") ? RegionMode::Region
        : name == QLatin1String("protect")                  ? RegionMode::Protect
                                                            : RegionMode::None;
    if (ok)
        *ok = mode != RegionMode::None || name.isEmpty();
    return mode;
}

bool isSafeSessionPath(const QString &path)
{
    // SessionPaths owns the rule for a relative path inside the session; an empty path names no
    // file. A colon is refused as well, so a drive-like "C:x" is never taken for a relative path.
    return path.isEmpty() || (SessionPaths::isSafeRelative(path) && !path.contains(QLatin1Char(':')));
}

static Error unsafe(const QString &what, const QString &path)
{
    return Error::make(ErrorKind::Unsafe,
        QStringLiteral("The session names %1 \"%2\", which is outside the session folder; "
                       "the manifest was edited by hand or comes from an untrusted source.")
            .arg(what, path));
}

QJsonObject FrameRegionEdit::toJson() const
{
    QJsonObject o;
    o.insert(QLatin1String("mode"), regionModeName(mode));
    o.insert(QLatin1String("mask"), maskFile);
    o.insert(QLatin1String("feather"), feather);
    if (!crop.isNull())
        o.insert(QLatin1String("crop"), QJsonArray {crop.x(), crop.y(), crop.width(), crop.height()});
    if (!cropAspect.isEmpty())
        o.insert(QLatin1String("crop_aspect_ratio"), cropAspect);
    if (!rawFile.isEmpty()) {
        o.insert(QLatin1String("raw"), rawFile);
        o.insert(QLatin1String("raw_sha256"), rawSha256);
    }
    return o;
}

Result<FrameRegionEdit> FrameRegionEdit::fromJson(const QJsonObject &o)
{
    FrameRegionEdit r;
    if (o.isEmpty())
        return r;
    bool ok = false;
    r.mode = regionModeFromName(o.value(QLatin1String("mode")).toString(), &ok);
    if (!ok)
        return Error::make(ErrorKind::Corrupt,
            QStringLiteral("unknown region edit mode \"%1\"").arg(o.value(QLatin1String("mode")).toString()));
    r.maskFile = o.value(QLatin1String("mask")).toString();
    r.feather = std::max(0, o.value(QLatin1String("feather")).toInt());
    const QJsonArray c = o.value(QLatin1String("crop")).toArray();
    if (c.size() == 4)
        r.crop = QRect(c.at(0).toInt(), c.at(1).toInt(), c.at(2).toInt(), c.at(3).toInt());
    r.cropAspect = o.value(QLatin1String("crop_aspect_ratio")).toString();
    r.rawFile = o.value(QLatin1String("raw")).toString();
    r.rawSha256 = o.value(QLatin1String("raw_sha256")).toString();
    if (!isSafeSessionPath(r.maskFile))
        return unsafe(QStringLiteral("a mask"), r.maskFile);
    if (!isSafeSessionPath(r.rawFile))
        return unsafe(QStringLiteral("a raw image"), r.rawFile);
    return r;
}

QJsonObject FrameDrift::toJson() const
{
    QJsonObject o;
    o.insert(QLatin1String("measure"), measure);
    o.insert(QLatin1String("changed"), changed);
    if (outsideChanged >= 0)
        o.insert(QLatin1String("outside_changed"), outsideChanged);
    if (!heatmapFile.isEmpty())
        o.insert(QLatin1String("heatmap"), heatmapFile);
    return o;
}

Result<FrameDrift> FrameDrift::fromJson(const QJsonObject &o)
{
    FrameDrift d;
    if (o.isEmpty())
        return d;
    d.measure = o.value(QLatin1String("measure")).toString();
    d.changed = std::clamp(o.value(QLatin1String("changed")).toDouble(-1), -1.0, 1.0);
    d.outsideChanged = std::clamp(o.value(QLatin1String("outside_changed")).toDouble(-1), -1.0, 1.0);
    d.heatmapFile = o.value(QLatin1String("heatmap")).toString();
    if (!isSafeSessionPath(d.heatmapFile))
        return unsafe(QStringLiteral("a drift heatmap"), d.heatmapFile);
    return d;
}

} // namespace nb2
