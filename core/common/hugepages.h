#pragma once

namespace nb2 {

/**
 * Transparent huge pages for the malloc heap of nb2lite and the studio. A 10,000-frame
 * session's frame table is ~25 MB of small allocations, each page first written once: ~7,000
 * page faults of 4 KB, which on a virtual machine cost more than parsing the text. With the heap
 * advised (madvise MADV_HUGEPAGE, for systems whose THP mode is "madvise"; with "always" the
 * kernel does it unasked) the kernel backs it with 2 MB pages, one fault each. What glibc's own tunable
 * glibc.malloc.hugetlb=1 does, without needing the environment set before the process starts.
 * The price is resident memory rounded up to 2 MB steps: 2-6 MB more for a big session.
 *
 * Linux with glibc's malloc only; elsewhere (or under AddressSanitizer, or with THP "never") these
 * do nothing and cost nothing. Call preferHugePagesForHeap() at the start of main(), before any
 * thread exists: it also sets the heap's growth step (M_TOP_PAD, 64 MB), so that this first
 * region is all the advice needs.
 */
void preferHugePagesForHeap();

/**
 * For a thread about to allocate much (the session parse's workers): glibc gives each thread
 * its own heap (an arena, in a 64 MB aligned mapping), which the advice above does not cover.
 * Does nothing unless preferHugePagesForHeap() was called in this process (tests and tools that
 * did not opt in keep glibc's defaults), and once per thread.
 */
void preferHugePagesForThisThread();

/** Whether this build gives the advice at all (Linux, glibc's malloc, no AddressSanitizer). */
bool heapAdviceSupported();

} // namespace nb2
