// The transport linked in (nb2core_http): ClientCall and the versions of the libraries under it.
#include "core/api/clientcall.h"

#include <httplib.h>
#include <openssl/crypto.h>

namespace nb2::apidetail {

namespace {

AttemptOutcome attempt(const ClientConfig &config, const CallOptions &options, const std::string &method,
    const std::string &path, const std::string &body, bool stream, const ChunkHandler &onChunk)
{
    return ClientCall(config, options).attempt(method, path, body, stream, onChunk);
}

QString opensslVersion()
{
    // The runtime library's own words, not the header we compiled against.
    return QString::fromLatin1(OpenSSL_version(OPENSSL_VERSION));
}

QString httplibVersion()
{
    return QString::fromLatin1(CPPHTTPLIB_VERSION);
}

} // namespace

const NetBackend &linkedNetBackend()
{
    static const NetBackend backend {&attempt, &opensslVersion, &httplibVersion};
    return backend;
}

} // namespace nb2::apidetail
