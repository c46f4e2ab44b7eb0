#include "app/cli/precisioncommand.h"

#include "app/cli/cliargs.h"
#include "app/cli/clitext.h"
#include "core/edit/editmask.h"
#include "core/session/editfinisher.h"
#include "core/session/precisionedit.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionpaths.h"
#include "core/session/sessionstore.h"

#include <QImageReader>

namespace nb2::cli {

Result<QString> startPrecisionEdit(
    SessionController &session, const QString &parentId, const CliArgs &a, const TurnParams &paramsIn)
{
    const Frame parent = session.graph().value(parentId);
    if (!parent.isDone() || parent.image.isNull())
        return Error::make(ErrorKind::InvalidInput,
            CliText::tr("frame %1 has no finished image to select from; pick a done frame").arg(parentId));
    // Resolved as it is read (the store may have left that step to its readers).
    const Result<QString> parentFile = SessionPaths::resolveInside(
        session.store()->dir(), parent.image.file, CliText::tr("image of frame %1").arg(parentId));
    if (!parentFile)
        return parentFile.error();
    const QString parentPath = parentFile.value();
    const QSize size = QImageReader(parentPath).size();
    if (!size.isValid())
        return Error::make(
            ErrorKind::Io, CliText::tr("could not read the image of frame %1 (%2)").arg(parentId, parentPath));

    EditMask mask;
    if (!a.region.isNull()) {
        if (!QRect(QPoint(0, 0), size).intersects(a.region))
            return Error::make(ErrorKind::InvalidInput,
                CliText::tr("--region %1,%2,%3,%4 lies outside frame %5, which is %6x%7 pixels")
                    .arg(a.region.x())
                    .arg(a.region.y())
                    .arg(a.region.width())
                    .arg(a.region.height())
                    .arg(parentId)
                    .arg(size.width())
                    .arg(size.height()));
        mask = EditMask::fromRect(size, a.region);
    } else {
        Result<EditMask> read = EditMask::fromFile(a.maskFile, size);
        if (!read)
            return read.error();
        mask = read.value();
    }
    const RegionMode mode = a.regionMode == QLatin1String("protect") ? RegionMode::Protect : RegionMode::Region;
    const int feather = a.feather >= 0 ? a.feather : PrecisionEdit::kDefaultFeather;
    Result<PreparedRegion> prepared = PrecisionEdit::prepare(session.store()->dir(), parent, mode, mask, feather);
    if (!prepared)
        return prepared.error();

    TurnParams params = paramsIn;
    params.regionEdit = prepared.value().edit;
    if (mode == RegionMode::Protect)
        return session.edit(parentId, params);
    // The crop is sent as the picture to edit, at the ratio the crop was widened to.
    params.aspectRatio = prepared.value().edit.cropAspect;
    return session.editLocal(parentId, session.store()->absolutePath(prepared.value().cropFile), params);
}

Result<void> finishEditTurn(SessionController &session, const QString &frameId)
{
    // The same step the window runs on a worker after every edit (core/session/editfinisher.h).
    if (Result<void> finished = EditFinisher::finishNow(session, frameId); !finished)
        return finished;
    return session.store()->flush();
}

} // namespace nb2::cli
