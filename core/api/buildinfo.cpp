#include "core/api/buildinfo.h"

#include <httplib.h>
#include <openssl/crypto.h>

namespace nb2 {

QString opensslVersion()
{
    // The runtime library's own words, not the header we compiled against.
    return QString::fromLatin1(OpenSSL_version(OPENSSL_VERSION));
}

QString httplibVersion()
{
    return QString::fromLatin1(CPPHTTPLIB_VERSION);
}

} // namespace nb2
