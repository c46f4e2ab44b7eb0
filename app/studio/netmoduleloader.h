#pragma once

#include "app/netmodule/netmodule.h"
#include "core/common/error.h"

#include <QStringList>

class QThreadPool;

namespace nb2 {

/**
 * Finds and loads libnb2net.so (netmodule.h) once per process. nb2lite-studio starts the load
 * on its BackgroundPool right after the first frame (preload()); whatever needs HTTP first — a
 * request, the demo server, the diagnostics' library versions — calls require(), which waits
 * for that load (or does it, if none was started). A module that cannot be loaded is an error
 * naming the file, the folders searched and the package to reinstall; the next require() tries again.
 */
class NetModuleLoader
{
public:
    static QString fileName(); // "libnb2net.so"
    /** Where the installed app keeps it (bin/../<libdir>/nb2lite-studio/modules), then the app's own folder (the build tree). */
    static QStringList defaultSearchDirs();
    /** Replaces the folders searched (tests point it at an empty folder). Before the first load. */
    static void setSearchDirs(const QStringList &dirs);

    /** Starts loading on `pool` (once; later calls do nothing). */
    static void preload(QThreadPool *pool);
    /** The module, waiting for a load in progress. */
    static Result<const NetModule *> require();
    static bool isLoaded();
};

} // namespace nb2
