// Counts the ik test binary's heap allocations (allocation_counter.cpp replaces the global
// operator new), so tests can show that a frame's solve allocates nothing.
#pragma once

namespace iktest {

// The number of operator new calls (all forms but the aligned ones) made so far, by any thread.
long AllocationCount();

}  // namespace iktest
