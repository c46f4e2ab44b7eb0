#pragma once

#include "core/api/apikey.h"
#include "core/common/error.h"

#include <QString>

namespace nb2 {

class ThinkingLevels;

constexpr auto kDefaultBaseUrl = "https://generativelanguage.googleapis.com";
constexpr auto kDefaultModel = "gemini-3.1-flash-lite-image";

/**
 * Everything an InteractionsClient needs to know; plain value, copied into the client. Where
 * model, base URL, version and key come from (flags, environment, settings) is decided in one
 * place above this layer: resolveConnection() in core/session/appsettings.h.
 */
struct ClientConfig {
    QString baseUrl = QString::fromLatin1(kDefaultBaseUrl); // may carry a path prefix
    QString apiVersion = QStringLiteral("v1");              // "v1" or "v1beta"
    QString model = QString::fromLatin1(kDefaultModel);
    ApiKey apiKey;
    int connectTimeoutMs = 10'000;
    int readTimeoutMs = 120'000;
    int maxRetries = 4;      // => at most 5 attempts
    int backoffBaseMs = 500; // 500, 1000, 2000, 4000 ms (with jitter)
    int backoffCapMs = 8'000;
    int maxRateLimitWaitMs = 30'000;          // a longer server-requested wait is returned, not slept
    QString caBundlePath;                     // empty: the system CA store
    ThinkingLevels *thinkingLevels = nullptr; // learned allowed levels (not owned; may be null)
};

/** Http to anything but loopback is refused, and so is a URL that is not one: a Tls error naming the fix. */
Result<void> checkTransportSecurity(const QString &baseUrl);

} // namespace nb2
