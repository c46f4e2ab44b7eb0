#include "app/studio/netmoduleloader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLibrary>
#include <QMutex>
#include <QThreadPool>

#include <atomic>

#ifndef NB2_MODULE_RELDIR
#define NB2_MODULE_RELDIR "../lib/nb2lite-studio/modules"
#endif

namespace nb2 {

namespace {

struct Text {
    Q_DECLARE_TR_FUNCTIONS(NetModuleLoader)
};

QBasicMutex g_mutex; // held for the whole load: require() during a preload waits on it
std::atomic<const NetModule *> g_loaded {nullptr};
std::atomic<bool> g_preloadStarted {false};
QStringList g_dirs; // empty: defaultSearchDirs()

Result<const NetModule *> load(const QStringList &dirs)
{
    QStringList tried;
    QString lastError;
    for (const QString &dir : dirs) {
        const QString path = QDir(dir).absoluteFilePath(NetModuleLoader::fileName());
        if (!QFileInfo::exists(path)) {
            tried << QDir::toNativeSeparators(QDir::cleanPath(dir));
            continue;
        }
        // Never unloaded: the transport's threads and the demo server live as long as the process.
        QLibrary library(path);
        if (!library.load()) {
            lastError = library.errorString();
            tried << QDir::toNativeSeparators(path);
            continue;
        }
        const auto entry = reinterpret_cast<NetModuleEntry>(library.resolve(kNetModuleEntry));
        const NetModule *module = entry ? entry() : nullptr;
        if (!module || module->abi != kNetModuleAbi || qstrcmp(module->version, NB2_VERSION) != 0)
            return Error::make(ErrorKind::Io,
                Text::tr("The network module %1 belongs to another build of NB2Lite Studio (expected version %2). "
                         "Reinstall the package nb2lite-studio.")
                    .arg(QDir::toNativeSeparators(path), QLatin1String(NB2_VERSION)));
        return module;
    }
    const QString why = lastError.isEmpty()
        ? Text::tr("not found in %1").arg(tried.join(QLatin1String(", ")))
        : Text::tr("%1; searched %2").arg(lastError, tried.join(QLatin1String(", ")));
    return Error::make(ErrorKind::Io,
        Text::tr("The network module %1 could not be loaded (%2), so NB2Lite Studio cannot make requests or "
                 "start its demo backend. Reinstall the package nb2lite-studio.")
            .arg(NetModuleLoader::fileName(), why));
}

} // namespace

QString NetModuleLoader::fileName()
{
    return QStringLiteral("libnb2net.so");
}

QStringList NetModuleLoader::defaultSearchDirs()
{
    const QString appDir = QCoreApplication::applicationDirPath();
    return {QDir(appDir).filePath(QLatin1String(NB2_MODULE_RELDIR)), appDir};
}

void NetModuleLoader::setSearchDirs(const QStringList &dirs)
{
    const QMutexLocker lock(&g_mutex);
    g_dirs = dirs;
}

void NetModuleLoader::preload(QThreadPool *pool)
{
    if (!g_preloadStarted.exchange(true))
        pool->start([] { (void)require(); });
}

Result<const NetModule *> NetModuleLoader::require()
{
    if (const NetModule *loaded = g_loaded.load(std::memory_order_acquire))
        return loaded;
    const QMutexLocker lock(&g_mutex);
    if (const NetModule *loaded = g_loaded.load(std::memory_order_acquire))
        return loaded;
    Result<const NetModule *> made = load(g_dirs.isEmpty() ? defaultSearchDirs() : g_dirs);
    if (made)
        g_loaded.store(made.value(), std::memory_order_release);
    return made;
}

bool NetModuleLoader::isLoaded()
{
    return g_loaded.load(std::memory_order_acquire) != nullptr;
}

} // namespace nb2
