#pragma once

#include "core/common/error.h"

#include <QString>

namespace nb2 {

/** Process exit statuses of nb2lite outside the per-ErrorKind table. */
constexpr int kExitSuccess = 0;
constexpr int kExitInternal = 1; // a bug or an unexpected local failure (e.g. the demo server did not start)
constexpr int kExitUsage = 2;    // bad command line (unknown flag, missing argument)

/**
 * Maps every ErrorKind to its own exit status so that scripts can branch on the cause
 * without parsing text. The table is the single source for --help as well.
 */
int exitCodeFor(ErrorKind kind);

/** The "EXIT STATUS" section of --help, generated from the same table. */
QString exitCodeHelp();

} // namespace nb2
