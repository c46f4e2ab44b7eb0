#pragma once

#include <QString>

namespace nb2 {

/** A path as people read it in a dialog: "~/Pictures/x" under the home folder, native separators. */
QString displayPath(const QString &path);

} // namespace nb2
