#pragma once

#include "core/common/error.h"

#include <QString>

namespace nb2 {

/**
 * Copies a finished image into `folder` (IMAGE_OUTPUT_DIR, as the seed server saved there)
 * under its own file name, creating the folder. Never overwrites and never writes through a
 * symbolic link: an existing name is an error. Written to a temp file, synced, then renamed,
 * so a crash leaves no half image. Returns the copy's absolute path. Reads and writes files:
 * call it on a worker thread.
 */
Result<QString> copyImageToFolder(const QString &sourcePath, const QString &folder);

} // namespace nb2
