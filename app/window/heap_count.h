// How many C++ heap allocations (operator new, any thread) the program has made so far: the
// viewer's idle frames are measured with it. Private to app/window.
#pragma once

namespace app {

long HeapAllocations();

}  // namespace app
