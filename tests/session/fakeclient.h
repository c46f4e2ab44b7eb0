#pragma once

// The client the session tests send their turns with: the in-process fake server's address and
// key, no retries (a failure must show as a failure, not as a retry), a 20 s read timeout.

#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"

#include <memory>

namespace nb2::test {

inline std::shared_ptr<InteractionsClient> fakeServerClient(const FakeServer &fake)
{
    ClientConfig cfg;
    cfg.baseUrl = fake.baseUrl();
    cfg.apiKey = ApiKey(QStringLiteral("test-key"), QStringLiteral("test"));
    cfg.maxRetries = 0;
    cfg.readTimeoutMs = 20000;
    return std::make_shared<InteractionsClient>(cfg);
}

} // namespace nb2::test
