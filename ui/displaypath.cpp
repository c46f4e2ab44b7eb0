#include "ui/displaypath.h"

#include <QDir>

namespace nb2 {

QString displayPath(const QString &path)
{
    const QString home = QDir::homePath();
    if (path.startsWith(home + QLatin1Char('/')))
        return QStringLiteral("~") + path.mid(home.size());
    return QDir::toNativeSeparators(path);
}

} // namespace nb2
