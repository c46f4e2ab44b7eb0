// nb2lite-studio's netBackend() (core/api/transport.h): the transport comes from libnb2net.so,
// loaded after the first frame. Because this definition is in the studio's own objects, the
// linker never pulls nb2core_http's (netbackendlinked.cpp), and with it cpp-httplib and OpenSSL,
// into the executable: they load with the module (tests/app/tst_netmodule checks the links).
#include "app/studio/netmoduleloader.h"

namespace nb2::apidetail {

Result<const NetBackend *> netBackend()
{
    const Result<const NetModule *> module = NetModuleLoader::require();
    if (!module)
        return module.error();
    return module.value()->backend;
}

} // namespace nb2::apidetail
