// The window's retarget mapping table (app/core/retarget_table.h): built from the automatic
// mapping, edited by the user, saved beside the model and read back, and applied as a new clip on
// the open character.
#include "app/core/retarget_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/core/character.h"
#include "assets/model/animation.h"
#include "ik/core/kinematics.h"
#include "tests/support/builtin.h"
#include "tests/support/clip_measures.h"

namespace {

using app::Character;
using app::RetargetTable;
using testsupport::Correlation;
using testsupport::JointHeights;

RetargetTable AutomaticTable(const Character& source, const Character& target) {
  app::RetargetMapping mapping;
  std::string error;
  EXPECT_TRUE(app::MapJoints(source, target, &mapping, &error)) << error;
  return app::BuildRetargetTable(source.skeleton(), mapping);
}

int RowOf(const RetargetTable& table, const ik::Skeleton& source, const std::string& name) {
  for (size_t i = 0; i < table.rows.size(); ++i) {
    if (table.rows[i].source == source.Find(name)) return static_cast<int>(i);
  }
  return -1;
}

std::string TempPath(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::path(testing::TempDir()) / "retarget_table_test";
  std::filesystem::create_directories(dir);
  const std::filesystem::path p = dir / name;
  std::filesystem::remove(p);
  return p.string();
}

TEST(RetargetTable, HasTheAutomaticPairsThenEverySourceJointUnmapped) {
  const Character c(testsupport::Builtin());
  app::RetargetMapping mapping;
  std::string error;
  ASSERT_TRUE(app::MapJoints(c, c, &mapping, &error)) << error;
  const RetargetTable table = app::BuildRetargetTable(c.skeleton(), mapping);
  ASSERT_EQ(table.rows.size(), size_t(c.skeleton().joint_count()));
  ASSERT_GT(mapping.pairs.size(), 10u);
  for (size_t i = 0; i < mapping.pairs.size(); ++i) {
    EXPECT_EQ(table.rows[i].source, mapping.pairs[i].source);
    EXPECT_EQ(table.rows[i].target, mapping.pairs[i].target);
    EXPECT_EQ(table.rows[i].by, mapping.pairs[i].by);
  }
  for (size_t i = mapping.pairs.size(); i < table.rows.size(); ++i) {
    EXPECT_EQ(table.rows[i].target, -1);
    EXPECT_EQ(table.rows[i].by, "");
  }
  EXPECT_EQ(app::MappedRows(table), int(mapping.pairs.size()));
  // Unedited, the table's mapping is the automatic one.
  const app::RetargetMapping back = app::TableMapping(table);
  ASSERT_EQ(back.pairs.size(), mapping.pairs.size());
  for (size_t i = 0; i < back.pairs.size(); ++i) {
    EXPECT_EQ(back.pairs[i].source, mapping.pairs[i].source);
    EXPECT_EQ(back.pairs[i].target, mapping.pairs[i].target);
  }
}

TEST(RetargetTable, UserEditOverridesAPairAndUnmapsTheRowThatHadItsTarget) {
  const Character c(testsupport::Builtin());
  const ik::Skeleton& s = c.skeleton();
  RetargetTable table = AutomaticTable(c, c);
  const int left = RowOf(table, s, "LeftFoot"), right = RowOf(table, s, "RightFoot");
  ASSERT_GE(left, 0);
  ASSERT_GE(right, 0);
  ASSERT_EQ(table.rows[size_t(left)].target, s.Find("LeftFoot"));
  app::SetRowTarget(&table, left, s.Find("RightFoot"), s.joint_count());
  EXPECT_EQ(table.rows[size_t(left)].target, s.Find("RightFoot"));
  EXPECT_EQ(table.rows[size_t(left)].by, "user");
  EXPECT_EQ(table.rows[size_t(right)].target, -1);  // a target follows one source joint
  const app::RetargetMapping m = app::TableMapping(table);
  int onto_right = 0;
  for (const app::RetargetPair& p : m.pairs) {
    if (p.target == s.Find("RightFoot")) {
      ++onto_right;
      EXPECT_EQ(p.source, s.Find("LeftFoot"));
      EXPECT_EQ(p.by, "user");
    }
    EXPECT_NE(p.target, s.Find("LeftFoot"));  // nothing maps onto the left foot now
  }
  EXPECT_EQ(onto_right, 1);
  // None, and out-of-range edits ignored.
  app::SetRowTarget(&table, left, -1, s.joint_count());
  EXPECT_EQ(table.rows[size_t(left)].target, -1);
  app::SetRowTarget(&table, left, s.joint_count(), s.joint_count());
  app::SetRowTarget(&table, int(table.rows.size()), 0, s.joint_count());
  EXPECT_EQ(table.rows[size_t(left)].target, -1);
}

TEST(RetargetTable, MapFileBesideTheModelRoundTripsAndKeepsOtherRigsEntries) {
  const Character c(testsupport::Builtin());
  const ik::Skeleton& s = c.skeleton();
  EXPECT_EQ(app::RetargetMapPath("/models/hero.glb"), "/models/hero.glb.retarget-map.json");
  EXPECT_EQ(app::RetargetMapPath(""), "");
  const std::string path = TempPath("hero.glb.retarget-map.json");
  app::JointMap loaded;
  std::string error;
  ASSERT_TRUE(app::LoadRetargetMap(path, &loaded, &error)) << error;  // none yet: empty
  EXPECT_TRUE(loaded.empty());

  RetargetTable table = AutomaticTable(c, c);
  app::SetRowTarget(&table, RowOf(table, s, "LeftFoot"), s.Find("RightFoot"), s.joint_count());
  app::SetRowTarget(&table, RowOf(table, s, "Head"), -1, s.joint_count());
  const app::JointMap previous = {{"mixamorig:Spine", "Spine"}, {"LeftHand", "Head"}};
  const app::JointMap map = app::UserJointMap(s, s, table, previous);
  // The other rig's entry kept; this rig's old one replaced by the edits.
  const app::JointMap expected = {
      {"mixamorig:Spine", "Spine"}, {"Head", ""}, {"LeftFoot", "RightFoot"}, {"RightFoot", ""}};
  app::JointMap sorted = map;
  std::sort(sorted.begin() + 1, sorted.end());
  EXPECT_EQ(sorted, expected);
  ASSERT_TRUE(app::SaveRetargetMap(path, map, &error)) << error;
  ASSERT_TRUE(app::LoadRetargetMap(path, &loaded, &error)) << error;
  std::sort(loaded.begin(), loaded.end());
  app::JointMap all = map;
  std::sort(all.begin(), all.end());
  EXPECT_EQ(loaded, all);

  // Next time: a fresh automatic table takes the saved edits (the other rig's entry skipped).
  RetargetTable again = AutomaticTable(c, c);
  EXPECT_EQ(app::ApplySavedMap(s, s, loaded, &again), 3);
  EXPECT_EQ(again.rows[size_t(RowOf(again, s, "LeftFoot"))].target, s.Find("RightFoot"));
  EXPECT_EQ(again.rows[size_t(RowOf(again, s, "RightFoot"))].target, -1);
  EXPECT_EQ(again.rows[size_t(RowOf(again, s, "Head"))].target, -1);
  EXPECT_EQ(again.rows[size_t(RowOf(again, s, "Head"))].by, "user");

  // The same file works as `skelview retarget --map`: "" unmaps the source joint.
  app::RetargetMapping cli;
  ASSERT_TRUE(app::MapJoints(c, c, &cli, &error)) << error;
  app::JointMap this_rig;
  for (const auto& entry : loaded) {
    if (s.Find(entry.first) >= 0) this_rig.push_back(entry);
  }
  ASSERT_TRUE(app::ApplyJointMap(s, s, this_rig, &cli, &error)) << error;
  for (const app::RetargetPair& p : cli.pairs) {
    EXPECT_NE(p.source, s.Find("Head"));
    if (p.target == s.Find("RightFoot")) {
      EXPECT_EQ(p.source, s.Find("LeftFoot"));
    }
  }
}

TEST(RetargetTable, BadMapFileIsRefusedNamingTheFile) {
  const std::string path = TempPath("bad.retarget-map.json");
  {
    std::ofstream out(path);
    out << "[\"not\", \"a map\"]";
  }
  app::JointMap map;
  std::string error;
  EXPECT_FALSE(app::LoadRetargetMap(path, &map, &error));
  EXPECT_NE(error.find("bad.retarget-map.json"), std::string::npos) << error;
  EXPECT_FALSE(app::LoadRetargetMap(std::filesystem::path(path).parent_path().string(), &map,
                                    &error));  // a folder
}

TEST(RetargetTable, ApplyingAddsANamedClipThatPlaysTheEditedMapping) {
  const assets::Model& source = testsupport::Builtin();
  const Character cs(source);
  assets::Model target = source;  // the open model
  Character ct(target);
  const ik::Skeleton& s = source.skeleton;
  RetargetTable table = AutomaticTable(cs, ct);
  // The user swaps the legs.
  for (const char* part : {"UpLeg", "Leg", "Foot", "ToeBase"}) {
    app::SetRowTarget(&table, RowOf(table, s, std::string("Left") + part),
                      s.Find(std::string("Right") + part), s.joint_count());
  }
  for (const char* part : {"UpLeg", "Leg", "Foot", "ToeBase"}) {
    app::SetRowTarget(&table, RowOf(table, s, std::string("Right") + part),
                      s.Find(std::string("Left") + part), s.joint_count());
  }
  const int walk = source.FindClip("Walk");
  ASSERT_GE(walk, 0);
  const std::string name = app::ImportedClipName("Walk", "/some/where/source.glb", target);
  EXPECT_EQ(name, "Walk (retargeted from source.glb)");
  assets::Clip clip;
  app::RetargetInfo info;
  std::string error;
  ASSERT_TRUE(app::RetargetWithTable(cs, walk, ct, table, name, &clip, &info, &error)) << error;
  const size_t clips_before = target.clips.size();
  const int index = app::AddClip(std::move(clip), &target, &ct);
  EXPECT_EQ(index, int(clips_before));
  EXPECT_EQ(ct.file_clip_count(), int(clips_before) + 1);
  ASSERT_NE(ct.clip(index), nullptr);
  EXPECT_EQ(ct.clip(index)->name, name);
  EXPECT_NEAR(ct.clip(index)->duration, source.clips[size_t(walk)].duration, 1e-4f);
  // A second import of the same clip gets a name of its own.
  EXPECT_EQ(app::ImportedClipName("Walk", "source.glb", target),
            "Walk (retargeted from source.glb) 2");
  // The right foot now steps as the source's left one.
  const float fps = float(info.frames) / source.clips[size_t(walk)].duration;
  const std::vector<float> right =
      JointHeights(target, index, s.Find("RightFoot"), fps, info.frames);
  const std::vector<float> left_source =
      JointHeights(source, walk, s.Find("LeftFoot"), fps, info.frames);
  const std::vector<float> right_source =
      JointHeights(source, walk, s.Find("RightFoot"), fps, info.frames);
  EXPECT_GE(Correlation(right, left_source), 0.9);
  EXPECT_LT(Correlation(right, right_source), 0.5);
  // Out of range clip: refused with a line.
  EXPECT_FALSE(app::RetargetWithTable(cs, 99, ct, table, name, &clip, &info, &error));
  EXPECT_NE(error.find("99"), std::string::npos);
}

TEST(RetargetTable, AddingAClipStopsClipsPlayedTogether) {
  assets::Model model = testsupport::Builtin();
  ASSERT_GE(model.clips.size(), 2u);
  Character c(model);
  c.PlayTogether({0, 1});
  ASSERT_FALSE(c.together().empty());
  assets::Clip extra = model.clips[0];
  extra.name = "extra";
  const int index = app::AddClip(extra, &model, &c);
  EXPECT_TRUE(c.together().empty());
  EXPECT_EQ(c.clip_count(), c.file_clip_count());
  EXPECT_EQ(c.clip(index)->name, "extra");
}

}  // namespace
