#include "core/session/sessioncopy.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

namespace nb2 {

namespace {
Result<void> copyInto(const QString &from, const QString &to)
{
    const QDir src(from);
    QDirIterator it(from, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
        QDirIterator::Subdirectories); // no FollowSymlinks: a linked folder is not entered
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo info = it.fileInfo();
        const QString rel = src.relativeFilePath(path);
        if (rel == QLatin1String("session.lock") || info.isSymLink())
            continue;
        const QString target = to + QLatin1Char('/') + rel;
        if (info.isDir()) {
            if (!QDir().mkpath(target))
                return Error::make(writeFailureKind(target),
                    QStringLiteral("Cannot create %1; choose a folder you can write to.").arg(target));
            continue;
        }
        if (!info.isFile())
            continue; // sockets, fifos: not part of a session
        QDir().mkpath(QFileInfo(target).absolutePath());
        QFile in(path);
        if (!in.copy(target))
            return Error::make(QFileInfo::exists(target) ? ErrorKind::Conflict : writeFailureKind(target, &in),
                QStringLiteral("Cannot copy %1 to %2: %3").arg(path, target, in.errorString()));
    }
    return {};
}
} // namespace

Result<void> copySessionFolder(const QString &from, const QString &to)
{
    if (!QFileInfo(from).isDir())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("%1 is not a session folder.").arg(from));
    if (QFileInfo::exists(to) || QFileInfo(to).isSymLink())
        return Error::make(ErrorKind::Conflict, QStringLiteral("%1 already exists; choose a new name.").arg(to));
    const QString fromAbs = QDir(from).canonicalPath();
    const QString toAbs = QDir::cleanPath(QDir(to).absolutePath());
    if (toAbs == fromAbs || toAbs.startsWith(fromAbs + QLatin1Char('/')))
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Cannot copy the session into itself; choose a folder outside %1.").arg(from));
    if (!QDir().mkpath(to))
        return Error::make(
            writeFailureKind(to), QStringLiteral("Cannot create %1; choose a folder you can write to.").arg(to));
    const Result<void> copied = copyInto(from, to);
    if (!copied)
        QDir(to).removeRecursively(); // never leave a half copy that looks like a session
    return copied;
}

} // namespace nb2
