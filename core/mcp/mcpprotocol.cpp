#include "core/mcp/mcpprotocol.h"

namespace nb2::mcp {

namespace {
const QString k20250326 = QStringLiteral("2025-03-26");

constexpr const char *kLogLevelNames[]
    = {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};
} // namespace

const QStringList &supportedProtocolVersions()
{
    static const QStringList versions {QStringLiteral("2025-11-25"), QStringLiteral("2025-06-18"), k20250326,
        QStringLiteral("2024-11-05"), QStringLiteral("2024-10-07")};
    return versions;
}

QString latestProtocolVersion()
{
    return supportedProtocolVersions().constFirst();
}

QString negotiateProtocolVersion(const QString &requested)
{
    return supportedProtocolVersions().contains(requested) ? requested : latestProtocolVersion();
}

bool allowsBatches(const QString &version)
{
    return version == k20250326;
}

bool allowsResourceLinks(const QString &version)
{
    // Revisions are dates: string order is time order.
    return version >= QLatin1String("2025-06-18");
}

QString logLevelName(LogLevel level)
{
    return QString::fromLatin1(kLogLevelNames[int(level)]);
}

bool logLevelFromName(const QString &name, LogLevel *level)
{
    for (int i = 0; i < int(std::size(kLogLevelNames)); ++i) {
        if (name == QLatin1String(kLogLevelNames[i])) {
            *level = LogLevel(i);
            return true;
        }
    }
    return false;
}

} // namespace nb2::mcp
