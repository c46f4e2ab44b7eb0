#pragma once

#include "core/common/error.h"

#include <QIODevice>
#include <QString>

class QFile;

namespace nb2 {

/** Whether openRegularFile() may follow a symbolic link at the path's last step. */
enum class LinkPolicy { Follow, Refuse };

/**
 * Opens path into *file only if it is a regular file. A session folder is input like any other
 * file: a FIFO put where it keeps manifest.json or journal.jsonl would block whoever opens it
 * (opening a FIFO waits for the other end), a device would feed a reader without end. The open
 * itself never waits (O_NONBLOCK; it changes nothing for a regular file), and the check is made
 * on what was opened (fstat), so nothing can be swapped in between.
 * mode: ReadOnly, or WriteOnly | Append (the file is created if missing, as QFile would).
 * Errors: Io when it cannot be opened (its message names the system's reason, e.g. "No such
 * file or directory"); Corrupt when it is not a regular file ("is a FIFO, not a file"); Unsafe
 * when it is a link and links are refused. Each message starts with the path.
 */
Result<void> openRegularFile(QFile *file, const QString &path, QIODevice::OpenMode mode = QIODevice::ReadOnly,
    LinkPolicy links = LinkPolicy::Follow);

} // namespace nb2
