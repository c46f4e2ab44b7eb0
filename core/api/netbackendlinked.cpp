// netBackend() for programs that link the transport (the CLI, the tests, the bench): it is
// simply there. nb2lite-studio defines its own (app/studio/netbackendloaded.cpp), which loads
// the transport as a module after the first frame; because the studio's definition is in its
// own objects, the linker never pulls this file, nor through it cpp-httplib and OpenSSL.
#include "core/api/clientcall.h"

namespace nb2::apidetail {

Result<const NetBackend *> netBackend()
{
    return &linkedNetBackend();
}

} // namespace nb2::apidetail
