// Heap allocations counted around a piece of code, through the counting operator new of
// app/window/heap_count.cpp (linked into the viewer and into the ik and app test binaries).
#pragma once

#include "app/window/heap_count.h"

namespace testsupport {

// The C++ heap allocations `body` makes (on this thread, or any other while it runs).
template <typename Body>
long AllocationsIn(Body&& body) {
  const long before = app::HeapAllocations();
  body();
  return app::HeapAllocations() - before;
}

}  // namespace testsupport
