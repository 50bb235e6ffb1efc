// The one --anim check (app/core/pose_input.h): which indices it accepts and its one-line message.
#include "app/core/pose_input.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/builtin.h"

namespace {

assets::Model ModelWithClips(int count) {
  assets::Model model;
  model.source = "walk.glb";
  model.clips.resize(static_cast<size_t>(count));
  return model;
}

TEST(ValidateAnim, AcceptsEveryClipIndexAndNothingElse) {
  const assets::Model model = ModelWithClips(3);
  for (int anim = 0; anim < 3; ++anim) {
    std::string why = "untouched";
    EXPECT_TRUE(app::ValidateAnim(anim, model, false, &why)) << anim;
    EXPECT_EQ(why, "untouched");
  }
  std::string why;
  EXPECT_FALSE(app::ValidateAnim(3, model, false, &why));
  EXPECT_FALSE(app::ValidateAnim(-1, model, false, &why));
  EXPECT_FALSE(app::ValidateAnim(-2, model, true, &why));
  EXPECT_FALSE(app::ValidateAnim(3, model, true, &why));
}

TEST(ValidateAnim, MinusOneIsTheRestPoseOnlyWhereAllowed) {
  EXPECT_TRUE(app::ValidateAnim(-1, ModelWithClips(2), true, nullptr));
  EXPECT_TRUE(app::ValidateAnim(-1, ModelWithClips(0), true, nullptr));
  EXPECT_FALSE(app::ValidateAnim(-1, ModelWithClips(2), false, nullptr));
}

TEST(ValidateAnim, MessageNamesTheOptionTheModelAndTheClipsThereAre) {
  std::string why;
  ASSERT_FALSE(app::ValidateAnim(5, ModelWithClips(3), false, &why));
  EXPECT_EQ(why, "--anim 5: walk.glb has 3 clip(s), numbered 0 to 2");
  ASSERT_FALSE(app::ValidateAnim(0, ModelWithClips(0), false, &why));
  EXPECT_EQ(why, "--anim 0: walk.glb has no animation clips");
  ASSERT_FALSE(app::ValidateAnim(-7, ModelWithClips(1), true, &why));
  EXPECT_EQ(why, "--anim -7: walk.glb has 1 clip(s), numbered 0 to 0 (-1: the rest pose)");
  EXPECT_EQ(why.find('\n'), std::string::npos);
}

TEST(ResolveAnim, OneClipIsItsIndexSeveralPlayTogetherAsTheCharactersNextClip) {
  assets::Model model = ModelWithClips(3);
  model.clips[0].name = "Walk";
  model.clips[2].name = "Wave";
  app::Character character(model);
  app::PoseArgs args;
  int clip = -1;
  std::string why;
  args.anim = 2;
  ASSERT_TRUE(app::ResolveAnim(args, &character, &clip, &why)) << why;
  EXPECT_EQ(clip, 2);
  EXPECT_EQ(character.clip_count(), 3);
  args.anim = 0;
  args.anim_together = {2};
  ASSERT_TRUE(app::ResolveAnim(args, &character, &clip, &why)) << why;
  EXPECT_EQ(clip, 3);
  ASSERT_NE(character.clip(3), nullptr);
  EXPECT_EQ(character.clip(3)->name, "Walk+Wave");
  EXPECT_EQ(character.together(), (std::vector<int>{0, 2}));
  // The combination is the character's: the model keeps the clips it was loaded with.
  EXPECT_EQ(model.clips.size(), 3u);
  args.anim_together = {1, 3 + 5};
  EXPECT_FALSE(app::ResolveAnim(args, &character, &clip, &why));
  EXPECT_EQ(why.rfind("--anim 8: walk.glb", 0), 0u) << why;
  EXPECT_EQ(model.clips.size(), 3u);
}

// ParseConstraints on the built-in character with these --ik and --pin values.
bool Parse(const std::vector<std::string>& ik, const std::vector<std::string>& pin,
           app::ConstraintRequests* requests, std::string* error) {
  static const app::Character character(testsupport::Builtin());
  app::PoseArgs args;
  args.ik = ik;
  args.pin = pin;
  return app::ParseConstraints(args, character, requests, error);
}

TEST(ParseConstraints, KeysOfOneEndBecomeOneKeyedRequest) {
  app::ConstraintRequests requests;
  std::string error;
  ASSERT_TRUE(Parse({"LeftFoot@1=0.2,0.4,0.1,pole=0,0,1", "RightFoot=0,0.2,0",
                     "LeftFoot@0=0.2,0.2,0.1,pole=0,0,2"},
                    {"LeftHand@0.5=0.5,1,0", "LeftHand@0.25=0.4,1,0"}, &requests, &error))
      << error;
  ASSERT_EQ(requests.ik.size(), 2u);  // LeftFoot (keyed), RightFoot
  ASSERT_EQ(requests.keyed.size(), 2u);
  const app::ConstraintRequests::Keyed& foot = requests.keyed[0];
  EXPECT_FALSE(foot.pin);
  EXPECT_EQ(foot.index, 0);
  ASSERT_EQ(foot.target.size(), 2u);
  EXPECT_EQ(foot.target[0].time, 0.0f);  // sorted by time
  EXPECT_EQ(foot.target[0].value, glm::vec3(0.2f, 0.2f, 0.1f));
  EXPECT_EQ(foot.pole[1].value, glm::vec3(0, 0, 1));
  const app::ConstraintRequests::Keyed& hand = requests.keyed[1];
  EXPECT_TRUE(hand.pin);
  EXPECT_EQ(hand.target[0].time, 0.25f);
  // The requests at a time: the keys' values there.
  app::KeyRequestsAt(0.5f, &requests);
  EXPECT_EQ(requests.ik[0].target.position, app::KeyedValue(foot.target, 0.5f, {}));
  EXPECT_NEAR(requests.ik[0].target.position.y, 0.3f, 1e-6f);
  EXPECT_EQ(*requests.ik[0].options.pole_model, app::KeyedValue(foot.pole, 0.5f, {}));
  EXPECT_EQ(requests.ik[1].target.position, glm::vec3(0, 0.2f, 0));
  ASSERT_EQ(requests.body.effectors.size(), 1u);
  EXPECT_EQ(*requests.body.effectors[0].target_model, glm::vec3(0.5f, 1, 0));
}

TEST(ParseConstraints, BadKeysAreOneLineErrorsNamingTheArgument) {
  struct Case {
    std::vector<std::string> ik, pin;
    std::string error;
  };
  const Case cases[] = {
      {{"LeftFoot@1=0,0.2,0", "LeftFoot@1.0=0,0.3,0"},
       {},
       "--ik 'LeftFoot@1.0=0,0.3,0': LeftFoot has two keys at 1 s"},
      {{"LeftFoot@0=0,0.2,0", "LeftFoot@1=0,0.3,0,pole=0,0,1"},
       {},
       "--ik 'LeftFoot@1=0,0.3,0,pole=0,0,1': a key's options must be those of the first key of "
       "LeftFoot ('LeftFoot@0=0,0.2,0')"},
      {{"LeftFoot@0=0,0.2,0,soft=0.1", "LeftFoot@1=0,0.3,0"},
       {},
       "--ik 'LeftFoot@1=0,0.3,0': a key's options must be those of the first key of LeftFoot "
       "('LeftFoot@0=0,0.2,0,soft=0.1')"},
      {{"LeftFoot@0=0,0.2,0", "LeftFoot=0,0.3,0"},
       {},
       "--ik 'LeftFoot=0,0.3,0': LeftFoot is given both with key times (@T) and without"},
      {{}, {"Hips@0=0,1,0", "Hips@0=0,1.1,0"}, "--pin 'Hips@0=0,1.1,0': Hips has two keys at 0 s"},
      {{},
       {"Hips@0=0,1,0,weight=2", "Hips@1=0,1.1,0"},
       "--pin 'Hips@1=0,1.1,0': a key's options must be those of the first key of Hips "
       "('Hips@0=0,1,0,weight=2')"},
      {{"LeftFoot@nan=0,0.2,0"},
       {},
       "--ik 'LeftFoot@nan=0,0.2,0': the key time 'nan' is not a finite number of seconds within "
       "+-1e9"},
  };
  for (const Case& c : cases) {
    app::ConstraintRequests requests;
    std::string error;
    EXPECT_FALSE(Parse(c.ik, c.pin, &requests, &error)) << c.error;
    EXPECT_EQ(error, c.error);
  }
}

}  // namespace
