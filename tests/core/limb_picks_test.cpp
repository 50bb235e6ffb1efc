// The limb fix: the user's picks replace or add limbs (and the body rig is built on them), are
// remembered per model file by joint names, and a pick the rig cannot take is named, not applied.
#include "app/core/limb_picks.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "app/core/chain_edit.h"
#include "app/core/character.h"
#include "tests/support/builtin.h"
#include "tests/test_paths.h"

namespace {

using testsupport::Builtin;

ik::TwoBoneChain ChainOf(const ik::Skeleton& skeleton, const char* start, const char* mid,
                         const char* end) {
  return {skeleton.Find(start), skeleton.Find(mid), skeleton.Find(end)};
}

const ik::Limb* Labelled(const std::vector<ik::Limb>& limbs, const std::string& label) {
  for (const ik::Limb& l : limbs) {
    if (l.label == label) return &l;
  }
  return nullptr;
}

TEST(LimbPicks, APickReplacesTheDetectedLimbOfItsLabel) {
  const ik::Skeleton& skeleton = Builtin().skeleton;
  std::vector<ik::Limb> limbs = ik::DetectLimbs(skeleton, &Builtin().is_bone);
  ASSERT_EQ(limbs.size(), 4u);
  std::vector<std::string> problems;
  ik::ApplyLimbPicks(skeleton,
                     {{"LeftLeg", ChainOf(skeleton, "LeftUpLeg", "LeftLeg", "LeftToeBase")}},
                     &limbs, &problems);
  EXPECT_TRUE(problems.empty());
  ASSERT_EQ(limbs.size(), 4u);
  EXPECT_EQ(limbs[0].label, "LeftLeg");
  EXPECT_EQ(limbs[0].chain.end, skeleton.Find("LeftToeBase"));
  EXPECT_EQ(limbs[0].found_by, ik::LimbFoundBy::kUser);
  EXPECT_STREQ(ik::LimbFoundByName(limbs[0].found_by), "user");
  EXPECT_EQ(limbs[1].found_by, ik::LimbFoundBy::kName);  // the others as detected
}

TEST(LimbPicks, APickForAMissingLimbAddsItInDetectionOrder) {
  const ik::Skeleton& skeleton = Builtin().skeleton;
  std::vector<ik::Limb> limbs = ik::DetectLimbs(skeleton, &Builtin().is_bone);
  limbs.erase(limbs.begin());  // detection missed the left leg
  ik::ApplyLimbPicks(skeleton, {{"LeftLeg", ChainOf(skeleton, "LeftUpLeg", "LeftLeg", "LeftFoot")}},
                     &limbs);
  ASSERT_EQ(limbs.size(), 4u);
  EXPECT_EQ(limbs[0].label, "LeftLeg");
  EXPECT_EQ(limbs[0].kind, ik::LimbKind::kLeg);
  EXPECT_EQ(limbs[0].side, ik::LimbSide::kLeft);
  EXPECT_EQ(limbs[1].label, "RightLeg");
  EXPECT_EQ(limbs[2].label, "LeftArm");
}

TEST(LimbPicks, APickTheRigCannotTakeIsNamedAndChangesNothing) {
  const ik::Skeleton& skeleton = Builtin().skeleton;
  const std::vector<ik::Limb> detected = ik::DetectLimbs(skeleton, &Builtin().is_bone);
  std::vector<ik::Limb> limbs = detected;
  std::vector<std::string> problems;
  ik::ApplyLimbPicks(skeleton,
                     {{"LeftLeg", ChainOf(skeleton, "LeftFoot", "LeftLeg", "LeftUpLeg")},
                      {"Tail", ChainOf(skeleton, "Hips", "Spine", "Neck")}},
                     &limbs, &problems);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("LeftLeg: mid joint 'LeftLeg' is not a descendant"), std::string::npos)
      << problems[0];
  EXPECT_NE(problems[1].find("Tail: not a limb"), std::string::npos) << problems[1];
  ASSERT_EQ(limbs.size(), detected.size());
  for (size_t i = 0; i < limbs.size(); ++i) {
    EXPECT_EQ(limbs[i].chain.end, detected[i].chain.end);
    EXPECT_EQ(limbs[i].found_by, detected[i].found_by);
  }
}

TEST(LimbPicks, TheCharacterBuildsItsRigAndDefaultChainsOnThePicks) {
  const assets::Model& model = Builtin();
  const ik::Skeleton& skeleton = model.skeleton;
  const ik::TwoBoneChain toe = ChainOf(skeleton, "LeftUpLeg", "LeftLeg", "LeftToeBase");
  const app::Character character(model, {{"LeftLeg", toe}});
  const ik::Limb* leg = Labelled(character.limbs(), "LeftLeg");
  ASSERT_NE(leg, nullptr);
  EXPECT_EQ(leg->chain.end, toe.end);
  EXPECT_TRUE(character.IsLimbEnd(toe.end));
  EXPECT_FALSE(character.IsLimbEnd(skeleton.Find("LeftFoot")));
  const std::vector<app::ChainSettings> chains = app::DefaultChains(character);
  ASSERT_FALSE(chains.empty());
  EXPECT_EQ(chains[0].label, "LeftLeg");
  EXPECT_EQ(chains[0].chain.end, toe.end);
  const ik::BodyRig* rig = character.body_rig();
  ASSERT_NE(rig, nullptr);
  bool body_has_the_pick = false;
  for (const auto& body : rig->limbs) body_has_the_pick |= body.limb.chain.end == toe.end;
  EXPECT_TRUE(body_has_the_pick);
}

TEST(LimbPicks, PicksAreRememberedPerModelFileByJointNames) {
  const ik::Skeleton& skeleton = Builtin().skeleton;
  const std::string dir = testpaths::TempDir() + "/limb_picks";
  std::filesystem::remove_all(dir);
  const std::string path = dir + "/skelview/limbs.json";
  app::LimbPickStore store;
  const ik::TwoBoneChain toe = ChainOf(skeleton, "LeftUpLeg", "LeftLeg", "LeftToeBase");
  app::RememberPick(&store, "models/rig.glb", "LeftLeg", skeleton, &toe);
  app::RememberPick(&store, "", "LeftLeg", skeleton, &toe);  // the built-in: nothing to remember
  std::string error, warning;
  ASSERT_TRUE(app::SaveLimbPicks(path, store, &error)) << error;
  app::LimbPickStore loaded;
  app::LoadLimbPicks(path, &loaded, &warning);
  EXPECT_EQ(warning, "");
  ASSERT_EQ(loaded.models.size(), 1u);
  EXPECT_EQ(loaded.models.begin()->first, app::LimbPickKey("models/rig.glb"));
  EXPECT_TRUE(std::filesystem::path(loaded.models.begin()->first).is_absolute());
  // The same file by another relative spelling finds them; another file does not.
  std::vector<std::string> problems;
  const auto picks = app::PicksFor(loaded, "./models/../models/rig.glb", skeleton, &problems);
  ASSERT_EQ(picks.size(), 1u);
  EXPECT_EQ(picks[0].label, "LeftLeg");
  EXPECT_EQ(picks[0].chain.end, toe.end);
  EXPECT_TRUE(app::PicksFor(loaded, "models/other.glb", skeleton, &problems).empty());
  EXPECT_TRUE(problems.empty());
  // Forgotten: the model's entry goes.
  app::RememberPick(&loaded, "models/rig.glb", "LeftLeg", skeleton, nullptr);
  EXPECT_TRUE(loaded.models.empty());
}

// A limb fix keeps what the user did with the limb's chain: only its joints change.
TEST(LimbPicks, AFixedLimbsChainKeepsItsTargetKeysAndPole) {
  const assets::Model& model = Builtin();
  const ik::TwoBoneChain toe = ChainOf(model.skeleton, "LeftUpLeg", "LeftLeg", "LeftToeBase");
  const app::Character detected(model);
  std::vector<app::ChainSettings> chains = app::DefaultChains(detected);
  ASSERT_EQ(chains[0].label, "LeftLeg");
  chains[0].mode = app::TargetMode::kPinned;
  chains[0].pinned = glm::vec3(0.1f, 0.0f, 0.2f);
  chains[0].target_keys = {{0.5f, glm::vec3(0.0f, 0.1f, 0.0f)}, {1.0f, glm::vec3(0.2f)}};
  chains[0].use_pole = true;
  chains[0].pole = glm::vec3(0.0f, 0.5f, 1.0f);
  chains[0].weight = 0.5f;
  const std::vector<app::ChainSettings> before = chains;
  const app::Character fixed(model, {{"LeftLeg", toe}});
  app::ChainsFollowLimb(fixed, "LeftLeg", &chains);
  ASSERT_EQ(chains.size(), before.size());
  EXPECT_EQ(chains[0].chain.end, toe.end);
  app::ChainSettings joints_back = chains[0];
  joints_back.chain = before[0].chain;
  EXPECT_EQ(joints_back, before[0]);  // everything but the joints as it was
  for (size_t i = 1; i < chains.size(); ++i) {
    if (chains[i].kind != app::ConstraintKind::kBody) {
      EXPECT_EQ(chains[i], before[i]) << i;
    }
  }
}

// Undo and redo across a limb fix: the remembered pick follows the chain's joints.
TEST(LimbPicks, UndoAndRedoAcrossAFixMoveThePickWithTheChain) {
  const assets::Model& model = Builtin();
  const ik::Skeleton& skeleton = model.skeleton;
  const std::string file = "models/rig.glb";
  const ik::TwoBoneChain toe = ChainOf(skeleton, "LeftUpLeg", "LeftLeg", "LeftToeBase");
  std::vector<std::string> problems;
  app::LimbPickStore store;
  app::RememberPick(&store, file, "LeftLeg", skeleton, &toe);
  const app::Character fixed(model, app::PicksFor(store, file, skeleton, &problems));
  const app::Character detected(model);
  const std::vector<app::ChainSettings> fixed_chains = app::DefaultChains(fixed);
  const std::vector<app::ChainSettings> detected_chains = app::DefaultChains(detected);
  // Nothing to do while the chains and the character agree.
  EXPECT_TRUE(app::PicksFollowChains(fixed, fixed_chains, file, &store).empty());
  EXPECT_EQ(app::PicksFor(store, file, skeleton, &problems).size(), 1u);
  // Undo: the chains are back on the detected leg, so the pick is forgotten.
  EXPECT_EQ(app::PicksFollowChains(fixed, detected_chains, file, &store),
            std::vector<std::string>{"LeftLeg"});
  EXPECT_TRUE(app::PicksFor(store, file, skeleton, &problems).empty());
  // Redo: the chains hold the toe again, so it is remembered again.
  EXPECT_EQ(app::PicksFollowChains(detected, fixed_chains, file, &store),
            std::vector<std::string>{"LeftLeg"});
  const std::vector<ik::LimbPick> picks = app::PicksFor(store, file, skeleton, &problems);
  ASSERT_EQ(picks.size(), 1u);
  EXPECT_EQ(picks[0].chain.end, toe.end);
  EXPECT_TRUE(problems.empty());
}

TEST(LimbPicks, AJointTheModelNoLongerHasIsNamedNotGuessed) {
  const ik::Skeleton& skeleton = Builtin().skeleton;
  app::LimbPickStore store;
  store.models[app::LimbPickKey("rig.glb")]["LeftLeg"] = {"LeftUpLeg", "LeftKnee", "LeftFoot"};
  std::vector<std::string> problems;
  EXPECT_TRUE(app::PicksFor(store, "rig.glb", skeleton, &problems).empty());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "LeftLeg: no joint named 'LeftKnee'");
}

TEST(LimbPicks, AMissingFileIsEmptyAndACorruptOneAWarning) {
  const std::string dir = testpaths::TempDir() + "/limb_picks_bad";
  std::filesystem::create_directories(dir);
  app::LimbPickStore store;
  std::string warning;
  app::LoadLimbPicks(dir + "/none.json", &store, &warning);
  EXPECT_TRUE(store.models.empty());
  EXPECT_EQ(warning, "");
  { std::ofstream(dir + "/bad.json") << "{\"models\": [1, 2"; }
  app::LoadLimbPicks(dir + "/bad.json", &store, &warning);
  EXPECT_TRUE(store.models.empty());
  EXPECT_NE(warning.find("bad.json: not a limbs file"), std::string::npos) << warning;
  {
    std::ofstream(dir + "/partial.json")
        << R"({"models": {"/a.glb": {"LeftLeg": {"start": "A", "mid": "B", "end": "C"},
                                     "RightLeg": {"start": "A"}}}})";
  }
  app::LoadLimbPicks(dir + "/partial.json", &store, &warning);
  ASSERT_EQ(store.models.size(), 1u);
  EXPECT_EQ(store.models["/a.glb"].size(), 1u);
  EXPECT_NE(warning.find("1 entry without start, mid and end joint names skipped"),
            std::string::npos)
      << warning;
}

}  // namespace
