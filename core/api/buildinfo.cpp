#include "core/api/buildinfo.h"

#include "core/api/transport.h"

namespace nb2 {

// Through netBackend(): in nb2lite-studio the libraries are in a module loaded after start-up.
QString opensslVersion()
{
    const Result<const apidetail::NetBackend *> backend = apidetail::netBackend();
    return backend ? backend.value()->opensslVersion() : backend.error().message;
}

QString httplibVersion()
{
    const Result<const apidetail::NetBackend *> backend = apidetail::netBackend();
    return backend ? backend.value()->httplibVersion() : backend.error().message;
}

} // namespace nb2
