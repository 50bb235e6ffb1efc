// --show lists: what is listed is on, nothing else; bad items are refused by name.
#include "app/core/display_spec.h"

#include <gtest/gtest.h>

namespace {

TEST(ParseShowList, OnlyWhatIsListedIsOnAndTheListReadsBack) {
  app::DisplaySpec spec;
  std::string error;
  ASSERT_TRUE(app::ParseShowList("bones,grid,weights=mixamorig:LeftUpLeg", &spec, &error)) << error;
  EXPECT_TRUE(spec.bones);
  EXPECT_TRUE(spec.grid);
  EXPECT_FALSE(spec.mesh);
  EXPECT_FALSE(spec.handles);
  EXPECT_FALSE(spec.knees);
  EXPECT_FALSE(spec.limits);
  EXPECT_EQ(spec.weights, "mixamorig:LeftUpLeg");
  app::DisplaySpec again;
  ASSERT_TRUE(app::ParseShowList(app::ShowListOf(spec), &again, &error)) << error;
  EXPECT_EQ(again, spec);
  ASSERT_TRUE(app::ParseShowList("none", &spec, &error)) << error;
  EXPECT_EQ(app::ShowListOf(spec), "none");
  EXPECT_FALSE(spec.mesh || spec.grid || spec.bones || spec.axes || spec.handles || spec.knees ||
               spec.shells || spec.limits || !spec.weights.empty());
  ASSERT_TRUE(
      app::ParseShowList("mesh,grid,bones,axes,handles,knees,shells,limits", &spec, &error));
  EXPECT_TRUE(spec.mesh && spec.grid && spec.bones && spec.axes && spec.handles && spec.knees &&
              spec.shells && spec.limits);
}

TEST(ParseShowList, AnimationOverlaysAndLegendReadBack) {
  app::DisplaySpec spec;
  std::string error;
  ASSERT_TRUE(app::ParseShowList("mesh,influences,onion=4,trail=LeftHand,legend", &spec, &error))
      << error;
  EXPECT_TRUE(spec.mesh && spec.influences && spec.legend);
  EXPECT_FALSE(spec.bones);
  EXPECT_EQ(spec.onion, 4);
  EXPECT_EQ(spec.trail, "LeftHand");
  app::DisplaySpec again;
  ASSERT_TRUE(app::ParseShowList(app::ShowListOf(spec), &again, &error)) << error;
  EXPECT_EQ(again, spec);
  again.onion = 3;
  EXPECT_FALSE(again == spec);
  // onion=N:K puts the ghosts K frames apart; it reads back, and K = 1 is written as plain N.
  ASSERT_TRUE(app::ParseShowList("bones,onion=3:12", &spec, &error)) << error;
  EXPECT_EQ(spec.onion, 3);
  EXPECT_EQ(spec.onion_step, 12);
  EXPECT_EQ(app::ShowListOf(spec), "bones,onion=3:12");
  ASSERT_TRUE(app::ParseShowList(app::ShowListOf(spec), &again, &error)) << error;
  EXPECT_EQ(again, spec);
  ASSERT_TRUE(app::ParseShowList("onion=2:1", &spec, &error)) << error;
  EXPECT_EQ(app::ShowListOf(spec), "onion=2");
  ASSERT_TRUE(app::ParseShowList("none", &spec, &error));
  EXPECT_EQ(spec.onion, 0);
  EXPECT_TRUE(spec.trail.empty());
  EXPECT_FALSE(spec.influences || spec.legend);
}

TEST(ParseShowList, BadListsAreRefusedNamingTheItem) {
  app::DisplaySpec spec;
  std::string error;
  const std::pair<const char*, const char*> bad[] = {
      {"", "an empty item"},
      {"mesh,,grid", "an empty item"},
      {"mesh,mesh", "'mesh' is listed twice"},
      {"weights", "weights needs a joint"},
      {"weights=", "weights needs a joint"},
      {"none,mesh", "none cannot be combined"},
      {"skin", "unknown item 'skin'"},
      {"mesh=1", "unknown item 'mesh=1'"},
      {"onion", "onion needs a count of ghosts on each side from 1 to 16"},
      {"onion=0", "onion needs a count"},
      {"onion=17", "onion needs a count"},
      {"onion=-2", "onion needs a count"},
      {"onion=2x", "onion needs a count"},
      {"onion=:2", "onion needs a count"},
      {"onion=2:", "onion=N:K needs K, the frames between ghosts, from 1 to 120"},
      {"onion=2:0", "onion=N:K needs K"},
      {"onion=2:121", "onion=N:K needs K"},
      {"onion=2:1:1", "onion=N:K needs K"},
      {"trail", "trail needs a joint"},
      {"trail=", "trail needs a joint"},
      {"legend=1", "unknown item 'legend=1'"},
  };
  for (const auto& [text, why] : bad) {
    EXPECT_FALSE(app::ParseShowList(text, &spec, &error)) << text;
    EXPECT_EQ(error.rfind(std::string("--show '") + text + "'", 0), 0u) << error;
    EXPECT_NE(error.find(why), std::string::npos) << error;
  }
}

}  // namespace
