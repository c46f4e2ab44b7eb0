#include "core/common/humanduration.h"

namespace nb2 {

QString humanDuration(qint64 ms)
{
    if (ms <= 0)
        return QStringLiteral("0 s");
    if (ms < 10'000) {
        // One decimal below ten seconds: "1.5 s" matters, "12.3 s" does not.
        const qint64 tenths = (ms + 50) / 100;
        return tenths % 10 == 0 ? QStringLiteral("%1 s").arg(tenths / 10)
                                : QStringLiteral("%1.%2 s").arg(tenths / 10).arg(tenths % 10);
    }
    const qint64 s = (ms + 500) / 1000;
    if (s < 60)
        return QStringLiteral("%1 s").arg(s);
    if (s < 3600)
        return s % 60 ? QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60) : QStringLiteral("%1 min").arg(s / 60);
    const qint64 m = (s + 30) / 60;
    if (m < 24 * 60)
        return m % 60 ? QStringLiteral("%1 h %2 min").arg(m / 60).arg(m % 60) : QStringLiteral("%1 h").arg(m / 60);
    const qint64 h = (m + 30) / 60;
    const qint64 days = h / 24;
    const QString dayText = days == 1 ? QStringLiteral("1 day") : QStringLiteral("%1 days").arg(days);
    return h % 24 ? QStringLiteral("%1 %2 h").arg(dayText).arg(h % 24) : dayText;
}

} // namespace nb2
