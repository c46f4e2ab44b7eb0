#include "core/common/error.h"

#include <QFileDevice>
#include <QFileInfo>

#include <array>

namespace nb2 {

namespace {

// One table so that the name <-> kind mapping cannot drift between the two directions. The
// names are stored in session files and printed by --json: never rename one.
constexpr std::array<std::pair<ErrorKind, const char *>, 22> kKindNames {{
    {ErrorKind::None, "none"},
    {ErrorKind::InvalidInput, "invalid_input"},
    {ErrorKind::InvalidRequest, "invalid_request"},
    {ErrorKind::Auth, "auth"},
    {ErrorKind::NotFound, "not_found"},
    {ErrorKind::RateLimited, "rate_limited"},
    {ErrorKind::Server, "server"},
    {ErrorKind::Network, "network"},
    {ErrorKind::Tls, "tls"},
    {ErrorKind::Timeout, "timeout"},
    {ErrorKind::Cancelled, "cancelled"},
    {ErrorKind::MalformedResponse, "malformed_response"},
    {ErrorKind::NoImage, "no_image"},
    {ErrorKind::TooLarge, "too_large"},
    {ErrorKind::Io, "io"},
    {ErrorKind::Conflict, "conflict"},
    {ErrorKind::Unsafe, "unsafe"},
    {ErrorKind::Corrupt, "corrupt"},
    {ErrorKind::Locked, "locked"},
    {ErrorKind::NotWritable, "not_writable"},
    {ErrorKind::DiskFull, "disk_full"},
    {ErrorKind::Budget, "budget"},
}};

} // namespace

QString errorKindName(ErrorKind kind)
{
    for (const auto &[k, name] : kKindNames) {
        if (k == kind)
            return QString::fromLatin1(name);
    }
    return QStringLiteral("unknown");
}

ErrorKind errorKindFromName(const QString &name)
{
    for (const auto &[k, n] : kKindNames) {
        if (name == QLatin1String(n))
            return k;
    }
    return ErrorKind::None;
}

Error Error::make(ErrorKind kind, QString message)
{
    Error e;
    e.kind = kind;
    e.message = std::move(message);
    return e;
}

ErrorKind writeFailureKind(const QString &path, const QFileDevice *file)
{
    // Qt reports ENOSPC (and EDQUOT) on write as ResourceError; nothing else maps to it on a write.
    if (file && file->error() == QFileDevice::ResourceError)
        return ErrorKind::DiskFull;
    QFileInfo info(path);
    QString dir = info.isDir() ? info.absoluteFilePath() : info.absolutePath();
    while (!QFileInfo::exists(dir)) {
        const QString up = QFileInfo(dir).absolutePath();
        if (up == dir)
            break;
        dir = up;
    }
    const QFileInfo folder(dir);
    if (folder.isDir() && !folder.isWritable())
        return ErrorKind::NotWritable;
    return ErrorKind::Io;
}

const Error &noError()
{
    static const Error none;
    return none;
}

} // namespace nb2
