#include "core/session/ownerprocess.h"

#include <QByteArray>
#include <QFile>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <signal.h>
#endif

namespace nb2 {

namespace {

/** The state letter of /proc/<pid>/stat ("R", "S", "Z", ...), 0 when it cannot be read. */
char procState(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    // "pid (comm) S ...": comm may itself contain spaces and parentheses, so read after the last ')'.
    const QByteArray line = stat.read(4096);
    const qsizetype close = line.lastIndexOf(')');
    if (close < 0 || close + 2 >= line.size())
        return 0;
    return line.at(close + 2);
}

} // namespace

bool isOwnerProcessAlive(qint64 pid)
{
#ifdef Q_OS_UNIX
    if (pid <= 0)
        return false;
    if (::kill(pid_t(pid), 0) != 0 && errno != EPERM)
        return false;
    const char state = procState(pid);
    return state != 'Z' && state != 'X';
#else
    Q_UNUSED(pid);
    return false;
#endif
}

} // namespace nb2
