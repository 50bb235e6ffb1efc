// How many C++ heap allocations (operator new, any thread) the program has made so far: the
// viewer's idle frames are measured with it. heap_count.cpp replaces the global operator new to
// count; it is linked into skelview (through app/window), the app tests that link the window, and
// ik_tests, whose solver allocation tests read the count too.
#pragma once

namespace app {

long HeapAllocations();

}  // namespace app
