#include "core/session/sessionpaths.h"

#include "core/session/frame.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

namespace nb2 {

namespace {

bool isInside(const QString &canonical, const QString &canonicalRoot)
{
    if (canonical == canonicalRoot)
        return true;
    const QString prefix = canonicalRoot.endsWith(QLatin1Char('/')) ? canonicalRoot : canonicalRoot + QLatin1Char('/');
    return canonical.startsWith(prefix);
}

bool isRegularFile(const QString &path)
{
#ifdef Q_OS_UNIX
    struct stat st {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 && S_ISREG(st.st_mode);
#else
    return QFileInfo(path).isFile();
#endif
}

Error unsafe(const QString &entry, const QString &relative, const QString &why)
{
    const QString who = entry.isEmpty() ? QStringLiteral("a session entry") : entry;
    return Error::make(ErrorKind::Unsafe,
                       QStringLiteral("%1 names '%2', %3. Nothing was read from it: the session is damaged or was made "
                                      "to reach other files; correct or remove that entry, or restore the session "
                                      "from a copy you trust.")
                           .arg(who, relative, why));
}

} // namespace

bool SessionPaths::isSafeRelative(const QString &relative)
{
    if (relative.isEmpty() || relative.size() > 4096)
        return false;
    if (relative.contains(QChar(0)) || relative.contains(QLatin1Char('\\')))
        return false;
    if (relative.startsWith(QLatin1Char('/')) || QDir::isAbsolutePath(relative))
        return false;
    const QStringList parts = relative.split(QLatin1Char('/'));
    for (const QString &part : parts) {
        if (part == QLatin1String(".."))
            return false;
    }
    return true;
}

Result<QString> SessionPaths::resolveInside(const QString &root, const QString &relative, const QString &entry)
{
    if (relative.isEmpty())
        return unsafe(entry, relative, QStringLiteral("an empty path"));
    if (relative.startsWith(QLatin1Char('/')) || QDir::isAbsolutePath(relative))
        return unsafe(entry, relative, QStringLiteral("an absolute path outside the session folder"));
    if (!isSafeRelative(relative))
        return unsafe(entry, relative, QStringLiteral("outside the session folder"));

    const QString canonicalRoot = QFileInfo(root).canonicalFilePath();
    if (canonicalRoot.isEmpty())
        return Error::make(ErrorKind::Io, QStringLiteral("The session folder %1 does not exist.").arg(QDir::toNativeSeparators(root)));

    // Walk the existing part one component at a time, so that a symlink anywhere on the way
    // (images/ itself, or the file) is judged by where it really leads.
    const QStringList parts = relative.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString current = canonicalRoot;
    qsizetype i = 0;
    for (; i < parts.size(); ++i) {
        if (parts.at(i) == QLatin1String("."))
            continue;
        const QString next = current + QLatin1Char('/') + parts.at(i);
        const QFileInfo info(next);
        if (!info.exists() && !info.isSymLink())
            break; // the rest does not exist yet: nothing on it can lead anywhere
        const QString canonical = info.canonicalFilePath();
        if (canonical.isEmpty())
            return unsafe(entry, relative, QStringLiteral("a link that leads nowhere"));
        if (!isInside(canonical, canonicalRoot))
            return unsafe(entry, relative,
                          QStringLiteral("a link that leads outside the session folder (to %1)").arg(QDir::toNativeSeparators(canonical)));
        current = canonical;
    }
    if (i == parts.size()) {
        if (current == canonicalRoot || !isRegularFile(current))
            return unsafe(entry, relative, QStringLiteral("which is not a regular file"));
        return current;
    }
    QStringList rest;
    for (qsizetype j = i; j < parts.size(); ++j) {
        if (parts.at(j) != QLatin1String("."))
            rest.append(parts.at(j));
    }
    return current + QLatin1Char('/') + rest.join(QLatin1Char('/'));
}

Result<void> SessionPaths::checkFrame(const Frame &frame, const QString &root, const QString &source)
{
    const QString entry = QStringLiteral("%1 entry for frame %2").arg(source, frame.id);
    if (!frame.image.isNull()) {
        if (const Result<QString> r = resolveInside(root, frame.image.file, entry); !r && r.error().kind == ErrorKind::Unsafe)
            return r.error();
    }
    for (const QString &input : frame.inputImages) {
        if (input.isEmpty())
            continue; // names no file at all
        if (const Result<QString> r = resolveInside(root, input, entry); !r && r.error().kind == ErrorKind::Unsafe)
            return r.error();
    }
    return {};
}

Result<void> SessionPaths::checkManifest(const QByteArray &manifestJson, const QString &root)
{
    const QJsonArray frames = QJsonDocument::fromJson(manifestJson).object().value(QLatin1String("frames")).toArray();
    for (const QJsonValue &value : frames) {
        const Result<Frame> frame = Frame::fromJson(value.toObject());
        if (!frame)
            continue;
        if (const Result<void> inside = checkFrame(frame.value(), root, QStringLiteral("manifest")); !inside)
            return inside;
    }
    return {};
}

} // namespace nb2
