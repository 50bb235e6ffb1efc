// The crowd of `skelview bench`: the batched limb solve gives the same poses as solving each
// limb in turn, every limb reaches its lifted target, and characters stand apart.
#include "app/core/crowd.h"

#include <gtest/gtest.h>

#include "assets/builtin/builtin_character.h"
#include "tests/support/builtin.h"

namespace {

using testsupport::Builtin;

// The built-in character's rig facts, found once (as the viewer does per load).
const app::Character& BuiltinCharacter() {
  static const app::Character character(Builtin());
  return character;
}

TEST(Crowd, BatchedLimbsMatchSolvingThemInTurn) {
  app::Crowd batched(BuiltinCharacter(), 9, /*clip=*/0, /*spacing=*/1.2f, /*lift=*/0.03f,
                     /*batch=*/true);
  app::Crowd sequential(BuiltinCharacter(), 9, 0, 1.2f, 0.03f, /*batch=*/false);
  ASSERT_TRUE(batched.batched());
  ASSERT_FALSE(sequential.batched());
  ASSERT_EQ(batched.chain_count(), 4);
  for (int frame = 0; frame < 20; ++frame) {
    batched.Update(1.0f / 30.0f);
    sequential.Update(1.0f / 30.0f);
    EXPECT_EQ(batched.reached_count(), 9 * 4) << "frame " << frame;
    EXPECT_EQ(sequential.reached_count(), 9 * 4);
    for (int c = 0; c < batched.size(); ++c) {
      for (size_t j = 0; j < batched.models(c).size(); ++j) {
        const glm::vec3 a(batched.models(c)[j][3]), b(sequential.models(c)[j][3]);
        ASSERT_LT(glm::length(a - b), 2e-5f) << "character " << c << " joint " << j;
      }
      const auto& pa = batched.palette(c);
      const auto& pb = sequential.palette(c);
      ASSERT_EQ(pa.size(), pb.size());
      for (size_t b = 0; b < pa.size(); ++b)
        for (int col = 0; col < 4; ++col) ASSERT_LT(glm::length(pa[b][col] - pb[b][col]), 2e-5f);
    }
  }
}

TEST(Crowd, CharactersStandOnAGridApart) {
  app::Crowd crowd(BuiltinCharacter(), 4, 0, 2.0f);
  crowd.Update(0.0f);
  const int hips = Builtin().skeleton.Find("Hips");
  for (int a = 0; a < crowd.size(); ++a)
    for (int b = a + 1; b < crowd.size(); ++b)
      EXPECT_GT(glm::length(glm::vec3(crowd.models(a)[hips][3] - crowd.models(b)[hips][3])), 1.5f);
}

}  // namespace
