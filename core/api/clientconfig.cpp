#include "core/api/clientconfig.h"

#include <QRegularExpression>
#include <QUrl>

namespace nb2 {

static bool isLoopbackHost(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    // 127.0.0.0/8 (dotted quad only: no shorthand forms a resolver might read differently).
    static const QRegularExpression v4(QStringLiteral("^127\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})$"));
    const auto m = v4.match(host);
    if (m.hasMatch())
        return m.captured(1).toInt() < 256 && m.captured(2).toInt() < 256 && m.captured(3).toInt() < 256;
    // ::1 in its usual spellings (QUrl strips the brackets).
    QString h = host;
    h.remove(QLatin1Char('[')).remove(QLatin1Char(']'));
    return h == QLatin1String("::1") || h == QLatin1String("0:0:0:0:0:0:0:1");
}

Result<void> checkTransportSecurity(const QString &baseUrl)
{
    const QUrl url(baseUrl.trimmed(), QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty()) {
        return Error::make(ErrorKind::Tls,
            QStringLiteral("The base URL '%1' is not a valid URL; use e.g. https://generativelanguage.googleapis.com.")
                .arg(baseUrl));
    }
    const QString scheme = url.scheme().toLower();
    if (scheme == QLatin1String("https"))
        return {};
    if (scheme == QLatin1String("http")) {
        if (isLoopbackHost(url.host()))
            return {};
        return Error::make(ErrorKind::Tls,
            QStringLiteral("Refusing plain http to '%1': the API key would travel unencrypted. "
                           "Use https, or http only for a local server (127.0.0.1, ::1, localhost).")
                .arg(url.host()));
    }
    return Error::make(ErrorKind::Tls,
        QStringLiteral("The base URL '%1' must start with https:// (or http:// for a local server).").arg(baseUrl));
}

} // namespace nb2
