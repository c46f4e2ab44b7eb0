// preferHugePagesForHeap / preferHugePagesForThisThread: the memory malloc hands out is advised
// for transparent huge pages (the "hg" flag of its mapping in /proc/self/smaps) once the process
// opted in, on the main thread and on a worker's own arena; before that, nothing is advised.
#include "core/common/hugepages.h"

#include <QFile>
#include <QFileInfo>
#include <QtTest>

#include <cstdlib>
#include <thread>
#include <vector>

using namespace nb2;

namespace {

/** The VmFlags of the mapping that holds address, or "(none)" when no mapping does. */
QByteArray vmFlagsAt(const void *address)
{
    QFile smaps(QStringLiteral("/proc/self/smaps"));
    if (!smaps.open(QIODevice::ReadOnly))
        return "(no smaps)";
    const auto at = reinterpret_cast<quintptr>(address);
    bool inside = false;
    for (const QByteArray &line : smaps.readAll().split('\n')) {
        const qsizetype dash = line.indexOf('-');
        const qsizetype space = line.indexOf(' ');
        if (dash > 0 && space > dash && line.at(space - 1) != ':') { // "start-end perms ...": a new mapping
            bool ok1 = false, ok2 = false;
            const quintptr start = line.left(dash).toULongLong(&ok1, 16);
            const quintptr end = line.mid(dash + 1, space - dash - 1).toULongLong(&ok2, 16);
            inside = ok1 && ok2 && start <= at && at < end;
        } else if (inside && line.startsWith("VmFlags:")) {
            return line.mid(8).trimmed();
        }
    }
    return "(none)";
}

bool advised(const QByteArray &flags)
{
    return flags.split(' ').contains("hg");
}

/** Allocates on a new thread (its own glibc arena), after calling prefer() there if asked. */
QByteArray flagsOfAWorkersAllocation(bool prefer)
{
    QByteArray flags;
    std::thread worker([&] {
        if (prefer)
            preferHugePagesForThisThread();
        void *p = std::malloc(4096);
        flags = vmFlagsAt(p);
        std::free(p);
    });
    worker.join();
    return flags;
}

} // namespace

class tst_HugePages : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (!heapAdviceSupported())
            QSKIP("the heap advice is for glibc's malloc on Linux (not AddressSanitizer's)");
        if (!QFileInfo::exists(QStringLiteral("/sys/kernel/mm/transparent_hugepage/enabled")))
            QSKIP("this kernel has no transparent huge pages");
    }

    // In declaration order: the process opts in once, in the second test.
    void nothingIsAdvisedBeforeTheProcessOptsIn()
    {
        void *p = std::malloc(4096);
        const QByteArray mainFlags = vmFlagsAt(p);
        std::free(p);
        QVERIFY2(!advised(mainFlags), mainFlags.constData());
        const QByteArray workerFlags = flagsOfAWorkersAllocation(true); // asks, but the process did not opt in
        QVERIFY2(!advised(workerFlags), workerFlags.constData());
    }

    void theMainHeapIsAdvised()
    {
        preferHugePagesForHeap();
        // What a session's parse allocates: megabytes of small blocks (the first few may reuse
        // what was freed before main, below the advised part) and one big block, the frame table.
        std::vector<void *> small(20000);
        for (void *&p : small)
            p = std::malloc(256);
        const QByteArray smallFlags = vmFlagsAt(small.back());
        for (void *p : small)
            std::free(p);
        QVERIFY2(advised(smallFlags), smallFlags.constData());
        void *big = std::malloc(size_t(8) << 20);
        const QByteArray bigFlags = vmFlagsAt(big);
        std::free(big);
        QVERIFY2(advised(bigFlags), bigFlags.constData());
    }

    void aWorkersHeapIsAdvisedWhenItAsks()
    {
        const QByteArray flags = flagsOfAWorkersAllocation(true);
        QVERIFY2(advised(flags), flags.constData());
    }
};

QTEST_GUILESS_MAIN(tst_HugePages)
#include "tst_hugepages.moc"
