#include "core/export/archivelibrary.h"

#include <QCoreApplication>
#include <QLibrary>
#include <QMutex>

#include <atomic>

namespace nb2 {

namespace {
struct Text {
    Q_DECLARE_TR_FUNCTIONS(ArchiveLibrary)
};

std::atomic<const ArchiveLibrary *> g_loaded {nullptr};
} // namespace

Result<ArchiveLibrary> ArchiveLibrary::load(const QString &name, int version)
{
    QLibrary library(name, version);
    auto missing = [&](const QString &why) {
        return Error::make(ErrorKind::Io,
            Text::tr("Bundles (.nb2session) need libarchive %1, which could not be loaded (%2). Install the "
                     "package libarchive13 and try again.")
                .arg(QString::number(version), why));
    };
    // Never unloaded: the functions stay valid for the life of the process.
    if (!library.load())
        return missing(library.errorString());
    ArchiveLibrary functions;
#define NB2_ARCHIVE_RESOLVE(fn)                                                                                        \
    functions.fn = reinterpret_cast<decltype(functions.fn)>(library.resolve(#fn));                                     \
    if (!functions.fn)                                                                                                 \
        return missing(Text::tr("it has no function %1").arg(QLatin1String(#fn)));
    NB2_ARCHIVE_FUNCTIONS(NB2_ARCHIVE_RESOLVE)
#undef NB2_ARCHIVE_RESOLVE
    return functions;
}

Result<const ArchiveLibrary *> ArchiveLibrary::require()
{
    if (const ArchiveLibrary *loaded = g_loaded.load(std::memory_order_acquire))
        return loaded;
    // Once per process; a failure is tried again next time (the package may have been installed since).
    static QBasicMutex mutex;
    const QMutexLocker lock(&mutex);
    if (const ArchiveLibrary *loaded = g_loaded.load(std::memory_order_acquire))
        return loaded;
    Result<ArchiveLibrary> made = load(QLatin1String(kName), kVersion);
    if (!made)
        return made.error();
    static ArchiveLibrary functions; // lives as long as the process
    functions = made.value();
    g_loaded.store(&functions, std::memory_order_release);
    return &functions;
}

bool ArchiveLibrary::isLoaded()
{
    return g_loaded.load(std::memory_order_acquire) != nullptr;
}

const ArchiveLibrary &arc()
{
    if (const ArchiveLibrary *loaded = g_loaded.load(std::memory_order_acquire))
        return *loaded;
    // An entry point that forgot require(): load now, and stop with the reason rather than crash.
    const Result<const ArchiveLibrary *> loaded = ArchiveLibrary::require();
    if (!loaded)
        qFatal("%s", qPrintable(loaded.error().message));
    return *loaded.value();
}

} // namespace nb2
