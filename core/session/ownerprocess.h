#pragma once

#include <QtGlobal>

namespace nb2 {

/**
 * Whether the process that owns a pending turn (Frame::ownerPid) can still finish it. A pid
 * that does not exist is dead; so is a zombie (/proc/<pid>/stat state Z or X): it was killed
 * and only waits for its parent to reap it, and kill(pid, 0) alone would call it alive for as
 * long as that takes (issue 11: a turn spun "pending" for minutes after kill -9). 0 or a
 * negative pid is no owner. A pid owned by another user counts as alive (EPERM).
 */
bool isOwnerProcessAlive(qint64 pid);

} // namespace nb2
