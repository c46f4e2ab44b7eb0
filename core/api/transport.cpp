#include "core/api/transport.h"

#include <QUrl>

#include <algorithm>
#include <cmath>
#include <random>

namespace nb2::apidetail {

Endpoint parseEndpoint(const QString &baseUrl)
{
    const QUrl url(baseUrl.trimmed());
    Endpoint e;
    e.https = url.scheme().toLower() == QLatin1String("https");
    e.host = url.host();
    const int port = url.port(e.https ? 443 : 80);
    const QString host = e.host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(e.host) : e.host;
    e.schemeHostPort = QStringLiteral("%1://%2:%3")
                           .arg(e.https ? QStringLiteral("https") : QStringLiteral("http"), host)
                           .arg(port)
                           .toStdString();
    QString path = url.path(QUrl::FullyEncoded);
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    e.pathPrefix = path.toStdString();
    return e;
}

int backoffMs(const ClientConfig &config, int attempt)
{
    thread_local std::mt19937 rng {std::random_device {}()};
    std::uniform_real_distribution<double> jitter(0.0, 1.0);
    const double delay = config.backoffBaseMs * std::pow(2.0, attempt) * (1.0 - jitter(rng) * 0.25);
    return int(std::min<double>(delay, config.backoffCapMs));
}

bool isRetryableStatus(int status)
{
    return status == 408 || status == 409 || status == 429 || status >= 500;
}

} // namespace nb2::apidetail
