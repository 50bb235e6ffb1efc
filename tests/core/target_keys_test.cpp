// Keyed targets (app/core/target_keys.h and the chain's keys): the curve passes through every key,
// holds outside, never overshoots, is smooth across a key; keys are set, moved and deleted; a keyed
// chain's target in the frame pipeline is its keys' value at the clip time.
#include "app/core/target_keys.h"

#include <gtest/gtest.h>

#include <cmath>

#include "app/core/chain_edit.h"
#include "tests/support/builtin.h"

namespace {

using app::PointKey;

std::vector<PointKey> Keys(std::initializer_list<std::pair<float, float>> keys) {
  std::vector<PointKey> out;
  for (const auto& [t, y] : keys) out.push_back({t, glm::vec3(y, -y, 2.0f * y)});
  return out;
}

TEST(KeyedValue, PassesThroughEveryKeyAndHoldsBeforeTheFirstAndAfterTheLast) {
  const std::vector<PointKey> keys = Keys({{0.5f, 1.0f}, {1.0f, 3.0f}, {2.0f, -2.0f}});
  for (const PointKey& key : keys) EXPECT_EQ(app::KeyedValue(keys, key.time, {}), key.value);
  EXPECT_EQ(app::KeyedValue(keys, -10.0f, {}), keys[0].value);
  EXPECT_EQ(app::KeyedValue(keys, 0.0f, {}), keys[0].value);
  EXPECT_EQ(app::KeyedValue(keys, 2.5f, {}), keys[2].value);
  EXPECT_EQ(app::KeyedValue(keys, 1e9f, {}), keys[2].value);
  EXPECT_EQ(app::KeyedValue(keys, std::nanf(""), {}), keys[0].value);  // never NaN
}

TEST(KeyedValue, NoKeysGiveTheSingleValue) {
  EXPECT_EQ(app::KeyedValue({}, 0.7f, glm::vec3(1, 2, 3)), glm::vec3(1, 2, 3));
}

TEST(KeyedValue, NeverOvershootsBetweenTwoKeys) {
  // Up, flat, down, up again: every coordinate stays within its two keys' values, and between the
  // two equal keys it is flat.
  const std::vector<PointKey> keys =
      Keys({{0.0f, 0.0f}, {0.3f, 1.0f}, {1.0f, 1.0f}, {1.2f, 0.0f}, {3.0f, 5.0f}});
  for (size_t k = 0; k + 1 < keys.size(); ++k) {
    for (int i = 0; i <= 100; ++i) {
      const float t = keys[k].time + (keys[k + 1].time - keys[k].time) * float(i) / 100.0f;
      const glm::vec3 v = app::KeyedValue(keys, t, {});
      for (int c = 0; c < 3; ++c) {
        EXPECT_GE(v[c], std::min(keys[k].value[c], keys[k + 1].value[c])) << t;
        EXPECT_LE(v[c], std::max(keys[k].value[c], keys[k + 1].value[c])) << t;
      }
      if (k == 1) {
        EXPECT_EQ(v, keys[1].value) << t;
      }
    }
  }
}

TEST(KeyedValue, IsSmoothThroughAKeyAndEasesIntoTheHeldEnds) {
  const std::vector<PointKey> keys = Keys({{0.0f, 0.0f}, {1.0f, 1.0f}, {2.0f, 3.0f}});
  const float h = 1e-3f;
  auto slope = [&](float a, float b) {
    return (app::KeyedValue(keys, b, {}).x - app::KeyedValue(keys, a, {}).x) / (b - a);
  };
  // The same slope on both sides of the middle key (C1), and flat leaving the first key and
  // joining the last (no jump in speed where the hold begins).
  EXPECT_NEAR(slope(1.0f - h, 1.0f), slope(1.0f, 1.0f + h), 0.02f);
  EXPECT_GT(slope(1.0f - h, 1.0f), 1.0f);  // Catmull-Rom's slope through the middle key: 1.5
  EXPECT_NEAR(slope(0.0f, h), 0.0f, 0.01f);
  EXPECT_NEAR(slope(2.0f - h, 2.0f), 0.0f, 0.02f);
  // Monotone keys give a monotone curve.
  float last = -1.0f;
  for (int i = 0; i <= 200; ++i) {
    const float y = app::KeyedValue(keys, float(i) / 100.0f, {}).x;
    EXPECT_GE(y, last);
    last = y;
  }
  // Halfway between two keys with flat ends, the curve is halfway.
  EXPECT_FLOAT_EQ(app::KeyedValue(Keys({{0.0f, 0.0f}, {1.0f, 2.0f}}), 0.5f, {}).x, 1.0f);
}

TEST(Keys, SetReplacesTheKeyAtATimeAndInsertsInOrderMoveAndFind) {
  std::vector<PointKey> keys;
  EXPECT_EQ(app::SetKey(&keys, 1.0f, glm::vec3(1.0f)), 0);
  EXPECT_EQ(app::SetKey(&keys, 0.5f, glm::vec3(2.0f)), 0);
  EXPECT_EQ(app::SetKey(&keys, 2.0f, glm::vec3(3.0f)), 2);
  EXPECT_EQ(app::SetKey(&keys, 1.0f + 1e-5f, glm::vec3(4.0f)), 1);  // the same key
  ASSERT_EQ(keys.size(), 3u);
  EXPECT_EQ(keys[1].time, 1.0f);
  EXPECT_EQ(keys[1].value, glm::vec3(4.0f));
  EXPECT_EQ(app::KeysProblem(keys), "");
  EXPECT_EQ(app::FindKey(keys, 2.0f), 2);
  EXPECT_EQ(app::FindKey(keys, 1.5f), -1);
  EXPECT_EQ(app::MoveKey(&keys, 0, 3.0f), 2);  // past the others
  EXPECT_EQ(keys[2].value, glm::vec3(2.0f));
  EXPECT_EQ(app::MoveKey(&keys, 2, 1.0f), 0);  // onto another: it replaces it
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].value, glm::vec3(2.0f));
  EXPECT_EQ(app::KeysProblem(keys), "");
  keys.push_back({0.0f, glm::vec3(0.0f)});
  EXPECT_EQ(app::KeysProblem(keys), "key 2: time 0 is not after the key before (2)");
}

TEST(ChainKeys, AKeyedTargetIsItsKeysAtTheTimeAndMovingItKeysItThere) {
  app::ChainSettings chain;
  const app::SceneContacts contacts;
  app::EffectorInfo info;
  info.effector = glm::vec3(1.0f, 0.0f, 0.0f);
  chain.offset = glm::vec3(0.0f, 0.1f, 0.0f);
  EXPECT_FALSE(chain.keyed());
  app::KeyChainTarget(&chain, 0.0f);  // keys the single value
  ASSERT_EQ(chain.target_keys.size(), 1u);
  // Moved at another time: keyed there (the first key keeps its value).
  app::SetChainTarget(&chain, glm::vec3(1.0f, 0.5f, 0.0f), info, contacts, 1.0f);
  ASSERT_EQ(chain.target_keys.size(), 2u);
  EXPECT_EQ(app::ChainTarget(chain, info, contacts, 0.0f), glm::vec3(1.0f, 0.1f, 0.0f));
  EXPECT_EQ(app::ChainTarget(chain, info, contacts, 1.0f), glm::vec3(1.0f, 0.5f, 0.0f));
  EXPECT_NEAR(app::ChainTarget(chain, info, contacts, 0.5f).y, 0.3f, 1e-6f);
  EXPECT_EQ(app::ChainTarget(chain, info, contacts, 5.0f), glm::vec3(1.0f, 0.5f, 0.0f));
  // The pole is keyed with the target when it is on.
  chain.use_pole = true;
  chain.pole = glm::vec3(0.0f, 0.0f, 1.0f);
  app::KeyChainTarget(&chain, 2.0f);
  EXPECT_EQ(chain.pole_keys.size(), 1u);
  EXPECT_EQ(app::ChainKeyTimes(chain), (std::vector<float>{0.0f, 1.0f, 2.0f}));
  EXPECT_TRUE(app::MoveChainKey(&chain, 2.0f, 3.0f));
  EXPECT_EQ(app::ChainKeyTimes(chain), (std::vector<float>{0.0f, 1.0f, 3.0f}));
  EXPECT_FALSE(app::MoveChainKey(&chain, 2.0f, 3.0f));
  // Deleting keys: the last one's value stays as the single value.
  EXPECT_TRUE(app::DeleteChainKey(&chain, 0.0f));
  EXPECT_TRUE(app::DeleteChainKey(&chain, 3.0f));
  EXPECT_FALSE(app::DeleteChainKey(&chain, 3.0f));
  EXPECT_TRUE(app::DeleteChainKey(&chain, 1.0f));
  EXPECT_FALSE(chain.keyed());
  EXPECT_EQ(app::ChainTarget(chain, info, contacts, 0.0f), glm::vec3(1.0f, 0.5f, 0.0f));
}

TEST(ChainKeys, TheFramePipelineSolvesAKeyedTargetAtTheClipTime) {
  const app::Character character(testsupport::Builtin());
  const int walk = testsupport::Builtin().FindClip("Walk");
  ASSERT_GE(walk, 0);
  app::EditState edit;
  edit.chains = app::DefaultChains(character);
  app::ChainSettings& leg = edit.chains[0];
  leg.mode = app::TargetMode::kPinned;
  const glm::vec3 a(0.1f, 0.3f, 0.1f), b(0.1f, 0.4f, 0.2f);
  leg.target_keys = {{0.0f, a}, {0.8f, b}};
  app::EditedFrame frame;
  app::PoseState state;
  for (float t : {0.0f, 0.4f, 0.8f}) {
    app::EvaluateEditedFrame(character, app::ClipTime{walk, t}, edit, &frame, &state);
    const glm::vec3 want = app::KeyedValue(leg.target_keys, t, {});
    EXPECT_EQ(frame.chains[0].target, want) << t;
    const glm::vec3 foot(state.models[size_t(leg.chain.end)][3]);
    EXPECT_LT(glm::length(foot - want), 1e-3f) << t;
  }
  EXPECT_NEAR(app::KeyedValue(leg.target_keys, 0.4f, {}).y, 0.35f, 1e-6f);
}

}  // namespace
