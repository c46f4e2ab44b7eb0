// The interface of libnb2net.so, the module that holds nb2lite-studio's HTTP code: the
// Interactions client's transport (cpp-httplib + OpenSSL, core/api/clientcall.cpp) and the
// demo server (core/fakeapi). Loading those libraries costs the studio's GUI thread ~17 M
// instructions (libcrypto's relocations and constructors, libssl, httplib's OpenSSL start-up)
// that its first frame does not need, so the studio loads the module after that frame
// (app/studio/netmoduleloader.h). The CLI, the tests and the bench link the same code directly.
#pragma once

#include "core/api/transport.h"

#include <QString>

namespace nb2 {

/** The built-in demo backend (core/fakeapi's FakeServer) as the studio uses it. */
class DemoServer
{
public:
    virtual ~DemoServer() = default;
    /** Binds 127.0.0.1 on an ephemeral port and serves on background threads. */
    virtual bool start() = 0;
    virtual QString baseUrl() const = 0;
    virtual QString errorString() const = 0;
};

struct NetModule {
    /** kNetModuleAbi of the build that made the module: the app refuses a module of another build. */
    int abi;
    const char *version; // NB2_VERSION
    const apidetail::NetBackend *backend;
    /** A new demo server that accepts only `apiKey` and answers after `latencyMs`. */
    DemoServer *(*createDemoServer)(const QString &apiKey, int latencyMs);
};

inline constexpr int kNetModuleAbi = 1;
/** The module's one exported function: extern "C" const NetModule *nb2_net_module(). */
inline constexpr char kNetModuleEntry[] = "nb2_net_module";
using NetModuleEntry = const NetModule *(*)();

} // namespace nb2
