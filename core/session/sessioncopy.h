#pragma once

#include "core/common/error.h"

#include <QString>

namespace nb2 {

/**
 * "Save Session As": copies a session folder to a new folder that must not exist yet. Blocking
 * (run it on a worker); the caller flushes the store first so the copy sees every queued write.
 * The lock file is left behind, symbolic links are neither followed nor copied (a link could
 * point out of the session), and nothing existing is overwritten. On failure the partial copy
 * is removed, so a failed Save As leaves no half session.
 */
Result<void> copySessionFolder(const QString &from, const QString &to);

} // namespace nb2
