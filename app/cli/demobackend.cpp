#include "app/cli/demobackend.h"

#include "core/fakeapi/fakeserver.h"

namespace nb2 {

namespace {
// Not a secret: it only opens the in-process fake, which listens on loopback for the
// lifetime of one command.
const QString kDemoKey = QStringLiteral("nb2lite-demo-key");
} // namespace

DemoBackend::DemoBackend() = default;
DemoBackend::~DemoBackend() = default;

QString DemoBackend::start(int latencyMs)
{
    FakeServerOptions options;
    options.apiKey = kDemoKey;
    options.latencyMs = latencyMs > 0 ? latencyMs : 0;
    m_server = std::make_unique<FakeServer>(options);
    if (!m_server->start(0))
        return QStringLiteral("the built-in demo server did not start: %1").arg(m_server->errorString());
    return {};
}

QString DemoBackend::baseUrl() const
{
    return m_server ? m_server->baseUrl() : QString();
}

ApiKey DemoBackend::apiKey() const
{
    return ApiKey(kDemoKey, QStringLiteral("demo (built-in offline fake API)"));
}

} // namespace nb2
