// The viewer's allocation count (what its idle frames are measured with) counts every operator
// new of the program.
#include "app/window/heap_count.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace {

TEST(HeapCount, CountsEveryOperatorNew) {
  const long before = app::HeapAllocations();
  auto one = std::make_unique<int>(7);
  std::vector<double> many(1000, 1.0);
  std::string long_text(200, 'x');
  const long after = app::HeapAllocations();
  EXPECT_EQ(after - before, 3);
  EXPECT_EQ(*one + int(many.size()) + int(long_text.size()), 1207);
}

}  // namespace
