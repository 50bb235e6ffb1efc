// The one --anim check (app/core/pose_input.h): which indices it accepts and its one-line message.
#include "app/core/pose_input.h"

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
