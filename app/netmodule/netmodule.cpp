// libnb2net.so: nb2core_http and nb2fakeapi behind the one entry point of netmodule.h.
#include "app/netmodule/netmodule.h"

#include "core/api/clientcall.h"
#include "core/fakeapi/fakeserver.h"

#include <QtGlobal>

#include <memory>

namespace nb2 {

namespace {

class FakeDemoServer : public DemoServer
{
public:
    FakeDemoServer(const QString &apiKey, int latencyMs) : m_server(options(apiKey, latencyMs)) {}
    bool start() override { return m_server.start(0); }
    QString baseUrl() const override { return m_server.baseUrl(); }
    QString errorString() const override { return m_server.errorString(); }

private:
    static FakeServerOptions options(const QString &apiKey, int latencyMs)
    {
        FakeServerOptions o;
        o.apiKey = apiKey;
        o.latencyMs = latencyMs;
        return o;
    }
    FakeServer m_server;
};

DemoServer *createDemoServer(const QString &apiKey, int latencyMs)
{
    return new FakeDemoServer(apiKey, latencyMs);
}

} // namespace

} // namespace nb2

extern "C" Q_DECL_EXPORT const nb2::NetModule *nb2_net_module()
{
    static const nb2::NetModule module {
        nb2::kNetModuleAbi, NB2_VERSION, &nb2::apidetail::linkedNetBackend(), &nb2::createDemoServer};
    return &module;
}
