#include "core/api/apierror.h"

#include <array>
#include <utility>

namespace nb2 {

namespace {

// One table so that the name <-> kind mapping cannot drift between the two directions.
constexpr std::array<std::pair<ErrorKind, const char *>, 15> kKindNames{{
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

} // namespace nb2
