#include "core/common/regularfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace nb2 {

namespace {
#ifdef Q_OS_UNIX
QString typeName(mode_t mode)
{
    if (S_ISFIFO(mode))
        return QStringLiteral("a FIFO");
    if (S_ISDIR(mode))
        return QStringLiteral("a folder");
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return QStringLiteral("a device");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    return QStringLiteral("not a plain file");
}
#endif
} // namespace

Result<void> openRegularFile(QFile *file, const QString &path, QIODevice::OpenMode mode, LinkPolicy links)
{
    const QString shown = QDir::toNativeSeparators(path);
#ifdef Q_OS_UNIX
    const bool append = mode.testFlag(QIODevice::WriteOnly);
    int flags = O_NONBLOCK | O_CLOEXEC | (append ? O_WRONLY | O_APPEND | O_CREAT : O_RDONLY);
    if (links == LinkPolicy::Refuse)
        flags |= O_NOFOLLOW;
    int fd = -1;
    do
        fd = ::open(QFile::encodeName(path).constData(), flags, 0666);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        const int error = errno;
        if (error == ELOOP && links == LinkPolicy::Refuse)
            return Error::make(ErrorKind::Unsafe, QStringLiteral("%1 is a link, not a file").arg(shown));
        if (error == ENXIO) // a FIFO opened for writing with nobody reading it
            return Error::make(ErrorKind::Corrupt, QStringLiteral("%1 is a FIFO, not a file").arg(shown));
        return Error::make(append ? writeFailureKind(path) : ErrorKind::Io,
            QStringLiteral("%1: cannot open: %2").arg(shown, QString::fromLocal8Bit(std::strerror(error))));
    }
    struct stat st {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const QString what = typeName(st.st_mode);
        ::close(fd);
        return Error::make(ErrorKind::Corrupt, QStringLiteral("%1 is %2, not a file").arg(shown, what));
    }
    // Blocking again: the descriptor is a regular file, for which the flag never mattered.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (!file->open(fd, mode, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        return Error::make(ErrorKind::Io, QStringLiteral("%1: cannot open: %2").arg(shown, file->errorString()));
    }
    return {};
#else
    const QFileInfo info(path);
    if (links == LinkPolicy::Refuse && info.isSymLink())
        return Error::make(ErrorKind::Unsafe, QStringLiteral("%1 is a link, not a file").arg(shown));
    if (info.exists() && !info.isFile())
        return Error::make(ErrorKind::Corrupt, QStringLiteral("%1 is not a file").arg(shown));
    file->setFileName(path);
    if (!file->open(mode))
        return Error::make(mode.testFlag(QIODevice::WriteOnly) ? writeFailureKind(path, file) : ErrorKind::Io,
            QStringLiteral("%1: cannot open: %2").arg(shown, file->errorString()));
    return {};
#endif
}

} // namespace nb2
