#include "core/export/outputfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QUuid>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nb2 {

namespace {

// Text::tr() with the context "nb2::OutputFile": a struct, not a free function, so that lupdate files
// the texts under the context they are looked up in.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(nb2::OutputFile)
};

QString shown(const QString &path)
{
    return QDir::toNativeSeparators(path);
}

QByteArray encoded(const QString &path)
{
    return QFile::encodeName(path);
}

QString typeName(mode_t mode)
{
    if (S_ISFIFO(mode))
        return Text::tr("a FIFO (named pipe)");
    if (S_ISCHR(mode))
        return Text::tr("a character device");
    if (S_ISBLK(mode))
        return Text::tr("a block device");
    if (S_ISSOCK(mode))
        return Text::tr("a socket");
    return Text::tr("not a regular file");
}

void syncDirectory(const QString &dir)
{
    const int fd = ::open(encoded(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace

OutputFile::OutputFile(QString path, ExistingTarget existing, bool durable)
    : m_path(std::move(path)), m_existing(existing), m_durable(durable)
{}

OutputFile::~OutputFile()
{
    discard();
}

Result<void> OutputFile::checkTarget(const QString &path, ExistingTarget existing)
{
    struct stat st {
    };
    if (::lstat(encoded(path).constData(), &st) != 0) {
        if (errno == ENOENT)
            return {};
        const int error = errno;
        return Error::make(ErrorKind::Io,
            Text::tr("Cannot check %1: %2").arg(shown(path), QString::fromLocal8Bit(std::strerror(error))));
    }
    // lstat, not stat: a link is judged as a link, never by what it points to.
    if (S_ISLNK(st.st_mode))
        return Error::make(ErrorKind::Unsafe,
            Text::tr("%1 is a symbolic link; an export never writes through a link (the file it "
                     "points to would be overwritten). Nothing was written; choose another name.")
                .arg(shown(path)));
    if (S_ISDIR(st.st_mode))
        return Error::make(ErrorKind::Conflict,
            Text::tr("%1 is a folder; this output is one file. Nothing was written; choose a "
                     "file name.")
                .arg(shown(path)));
    if (!S_ISREG(st.st_mode))
        return Error::make(ErrorKind::Unsafe,
            Text::tr("%1 is %2, not a regular file; an export never replaces one, even when told "
                     "to replace existing files. Nothing was written; choose another name.")
                .arg(shown(path), typeName(st.st_mode)));
    if (existing == ExistingTarget::Refuse)
        return Error::make(ErrorKind::Conflict,
            Text::tr("%1 already exists; nothing was overwritten. Choose another name, or "
                     "replace it on purpose (nb2lite: --force).")
                .arg(shown(path)));
    return {};
}

Error OutputFile::failure(const QString &what, int error) const
{
    ErrorKind kind = ErrorKind::Io;
    if (error == ENOSPC || error == EDQUOT)
        kind = ErrorKind::DiskFull;
    else if (error == EACCES || error == EROFS || error == EPERM)
        kind = ErrorKind::NotWritable;
    const QString why = QString::fromLocal8Bit(std::strerror(error));
    if (kind == ErrorKind::NotWritable)
        return Error::make(kind,
            Text::tr("Cannot write %1: the folder is not writable (%2). Choose another folder.")
                .arg(shown(m_path), why));
    if (kind == ErrorKind::DiskFull)
        return Error::make(kind,
            Text::tr("Cannot write %1: the disk is full (%2). Free some space and try again.").arg(shown(m_path), why));
    return Error::make(kind, Text::tr("Cannot write %1 (%2): %3").arg(shown(m_path), what, why));
}

Result<void> OutputFile::open()
{
    discard();
    m_size = 0;
    if (const Result<void> target = checkTarget(m_path, m_existing); !target)
        return target;
    const QFileInfo info(m_path);
    const QString dir = info.absolutePath();
    for (int attempt = 0; attempt < 16; ++attempt) {
        // Hidden, beside the target (same file system, so the rename is atomic), never an existing name.
        const QString temp = QStringLiteral("%1/.%2.nb2tmp-%3")
                                 .arg(dir, info.fileName(), QUuid::createUuid().toString(QUuid::Id128).left(8));
        const int fd = ::open(encoded(temp).constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            m_fd = fd;
            m_temp = temp;
            return {};
        }
        if (errno != EEXIST)
            return failure(Text::tr("creating a temporary file"), errno);
    }
    return failure(Text::tr("creating a temporary file"), EEXIST);
}

Result<void> OutputFile::write(const char *data, qint64 size)
{
    if (m_fd < 0)
        return Error::make(ErrorKind::Io, Text::tr("Cannot write %1: the file is not open.").arg(shown(m_path)));
    while (size > 0) {
        const ssize_t n = ::write(m_fd, data, size_t(size));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int error = errno;
            discard();
            return failure(Text::tr("writing"), error);
        }
        data += n;
        size -= n;
        m_size += n;
    }
    return {};
}

Result<qint64> OutputFile::commit()
{
    if (m_fd < 0)
        return Error::make(ErrorKind::Io, Text::tr("Cannot write %1: the file is not open.").arg(shown(m_path)));
    if (m_durable && ::fsync(m_fd) != 0) {
        const int error = errno;
        discard();
        return failure(Text::tr("flushing to disk"), error);
    }
    const int closed = ::close(m_fd);
    m_fd = -1;
    if (closed != 0) {
        const int error = errno;
        discard();
        return failure(Text::tr("closing"), error);
    }
    const QByteArray temp = encoded(m_temp);
    const QByteArray target = encoded(m_path);
    if (m_existing == ExistingTarget::Refuse) {
        // Atomic "create only": whatever appeared at the name meanwhile (a file, a link) stays.
        int moved = ::renameat2(AT_FDCWD, temp.constData(), AT_FDCWD, target.constData(), RENAME_NOREPLACE);
        if (moved != 0 && (errno == EINVAL || errno == ENOSYS || errno == ENOTSUP)) {
            // A file system without RENAME_NOREPLACE: link() never replaces either.
            moved = ::link(temp.constData(), target.constData());
            if (moved == 0)
                ::unlink(temp.constData());
        }
        if (moved != 0) {
            const int error = errno;
            discard();
            if (error == EEXIST) {
                const Result<void> again = checkTarget(m_path, ExistingTarget::Refuse);
                return again ? failure(Text::tr("moving into place"), error) : again.error();
            }
            return failure(Text::tr("moving into place"), error);
        }
    } else {
        // Checked again just before the rename: a link or a device put there since open() is not replaced.
        if (const Result<void> again = checkTarget(m_path, ExistingTarget::Replace); !again) {
            discard();
            return again.error();
        }
        if (::rename(temp.constData(), target.constData()) != 0) {
            const int error = errno;
            discard();
            return failure(Text::tr("moving into place"), error);
        }
    }
    m_temp.clear();
    if (m_durable)
        syncDirectory(QFileInfo(m_path).absolutePath());
    return m_size;
}

void OutputFile::discard()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    if (!m_temp.isEmpty()) {
        ::unlink(encoded(m_temp).constData());
        m_temp.clear();
    }
}

Result<qint64> OutputFile::writeAll(const QString &path, const QByteArray &bytes, ExistingTarget existing, bool durable)
{
    OutputFile file(path, existing, durable);
    if (const Result<void> opened = file.open(); !opened)
        return opened.error();
    if (const Result<void> written = file.write(bytes); !written)
        return written.error();
    return file.commit();
}

} // namespace nb2
