#include "core/common/hugepages.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <utility>

// Not under AddressSanitizer: its own allocator serves malloc, and glibc's heap is not used.
#if defined(__SANITIZE_ADDRESS__)
#define NB2_OTHER_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NB2_OTHER_MALLOC 1
#endif
#endif
#if defined(__linux__) && defined(__GLIBC__) && !defined(NB2_OTHER_MALLOC)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#define NB2_HEAP_ADVICE 1
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25 // <sys/mman.h> of a C library older than Linux 6.1
#endif
#endif

namespace nb2 {

namespace {

std::atomic<bool> g_optedIn {false};

#ifdef NB2_HEAP_ADVICE
constexpr uintptr_t kHugePage = uintptr_t(2) << 20;
// glibc's HEAP_MAX_SIZE on 64-bit (2 * DEFAULT_MMAP_THRESHOLD_MAX): a thread arena's heap is a
// mapping of this size aligned to it, so its start is found from any pointer into it.
constexpr uintptr_t kThreadHeap = uintptr_t(64) << 20;
constexpr int kTopPad = 64 << 20;
// Allocations below this come from the advised heap instead of a mapping of their own (a
// 10,000-frame table is one block of megabytes; decoded pictures are 4-16 MB). glibc's own
// threshold rises to this (DEFAULT_MMAP_THRESHOLD_MAX) once the first big block is freed, so a
// long run (nb2lite mcp) keeps what it would have had anyway; it only starts there.
constexpr int kMmapThreshold = 32 << 20;

void advise(uintptr_t begin, uintptr_t end)
{
    begin = (begin + kHugePage - 1) & ~(kHugePage - 1);
    end &= ~(kHugePage - 1);
    if (end > begin)
        (void)::madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE); // advice: failure is harmless
}
#endif

} // namespace

bool heapAdviceSupported()
{
#ifdef NB2_HEAP_ADVICE
    return true;
#else
    return false;
#endif
}

void preferHugePagesForHeap()
{
#ifdef NB2_HEAP_ADVICE
    if (g_optedIn.exchange(true))
        return;
    // Before any thread exists: glibc grows a thread's malloc arena one page at a time, each an
    // mprotect() that takes the address-space lock the other threads' page faults need, and the
    // main arena in 128 KB steps. With 64 MB of padding (a thread arena's whole heap) an arena
    // is made writable once. Address space only: pages are still taken when first written.
    mallopt(M_TOP_PAD, kTopPad);
    mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
    // Grow the main heap now (one step: the request plus the padding), advise all of it, and
    // give the block back: the padding stays (glibc trims only what exceeds it).
    void *grow = std::malloc(size_t(1) << 20);
    if (!grow)
        return;
    advise(reinterpret_cast<uintptr_t>(grow), reinterpret_cast<uintptr_t>(::sbrk(0)));
    std::free(grow);
#endif
}

void preferHugePagesForThisThread()
{
#ifdef NB2_HEAP_ADVICE
    if (!g_optedIn.load(std::memory_order_relaxed))
        return;
    thread_local bool advised = false;
    if (std::exchange(advised, true))
        return;
    // Above glibc's per-thread cache (blocks up to 1,032 bytes), which may hand back a block
    // another thread's arena made: this size comes from the arena of this thread.
    void *probe = std::malloc(4096);
    if (!probe)
        return;
    const auto at = reinterpret_cast<uintptr_t>(probe);
    std::free(probe);
    // In the main heap (below the program break) when glibc ran out of arenas: advised already.
    if (at < reinterpret_cast<uintptr_t>(::sbrk(0)))
        return;
    const uintptr_t heap = at & ~(kThreadHeap - 1);
    advise(heap, heap + kThreadHeap);
    // The heap's first 2 MB were written before this advice (glibc's bookkeeping, the probe), so
    // the rest of them would still be taken 4 KB at a time (~500 faults): made one 2 MB page
    // now, its contents copied (Linux 6.1 and later; elsewhere refused, harmlessly).
    (void)::madvise(reinterpret_cast<void *>(heap), kHugePage, MADV_COLLAPSE);
#endif
}

} // namespace nb2
