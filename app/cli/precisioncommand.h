#pragma once

#include "core/common/error.h"

#include <QString>

namespace nb2 {
class SessionController;
struct CliArgs;
struct TurnParams;
} // namespace nb2

namespace nb2::cli {

/**
 * `edit REF PROMPT --region|--mask [--feather] [--mode]`: stores the selection, and starts the
 * turn — Region sends the crop of the parent inline (edit-local form) at a supported ratio,
 * Protect edits the whole frame by its interaction id. Returns the new frame's id.
 */
Result<QString> startPrecisionEdit(
    SessionController &session, const QString &parentId, const CliArgs &args, const TurnParams &params);

/**
 * After any edit turn has finished: composite a region/protect edit (the raw image stays
 * beside it) and measure drift against the parent, and record both in the session. Frames
 * that are not finished edits of a parent are left as they are.
 */
Result<void> finishEditTurn(SessionController &session, const QString &frameId);

} // namespace nb2::cli
