#pragma once
// The calling thread's own CPU time: what the programs that print the GUI thread's cost
// (tst_branchcost, tst_infopanel) measure, so that waiting for a CPU on a shared machine is not
// counted as the app's work.

#include <ctime>

namespace nb2test {

inline double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

} // namespace nb2test
