// The editing core without a window: limb detection on real models, default chains, targets and
// the requests built from them.
#include "app/core/chain_edit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "assets/builtin/builtin_character.h"
#include "assets/importer.h"
#include "ik/body/limbs.h"
#include "ik/core/kinematics.h"
#include "tests/support/builtin.h"
#include "tests/test_paths.h"

namespace {

using testing::ElementsAre;

using testsupport::Builtin;

// The built-in character's rig facts, found once (as the viewer does per load).
const app::Character& BuiltinCharacter() {
  static const app::Character character(Builtin());
  return character;
}

std::vector<std::string> LimbTriples(const assets::Model& model) {
  std::vector<std::string> out;
  const ik::Skeleton& s = model.skeleton;
  for (const ik::Limb& l : ik::DetectLimbs(s, &model.is_bone)) {
    out.push_back(l.label + ":" + s.name(l.chain.start) + "/" + s.name(l.chain.mid) + "/" +
                  s.name(l.chain.end));
  }
  return out;
}

TEST(LimbsOnModels, BuiltinCharacterHasTwoArmsAndTwoLegs) {
  EXPECT_THAT(LimbTriples(Builtin()), ElementsAre("LeftLeg:LeftUpLeg/LeftLeg/LeftFoot",
                                                  "RightLeg:RightUpLeg/RightLeg/RightFoot",
                                                  "LeftArm:LeftArm/LeftForeArm/LeftHand",
                                                  "RightArm:RightArm/RightForeArm/RightHand"));
}

// CesiumMan and RiggedFigure have unnamed joints: found by symmetry. `left` is the world direction
// of the figure's left side (CesiumMan faces +X, so its left is -Z; RiggedFigure faces +Z, its
// left is +X); the left limbs must lie on that side.
void ExpectSymmetricHumanoid(const std::string& relative, const glm::vec3& left) {
  const std::string path = testpaths::SharedModel(relative);
  if (path.empty()) GTEST_SKIP() << "shared model " << relative << " not found";
  assets::LoadResult loaded = assets::LoadModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  const assets::Model& model = *loaded.model;
  const auto limbs = ik::DetectLimbs(model.skeleton, &model.is_bone);
  ASSERT_EQ(limbs.size(), 4u) << relative;
  const auto& rest = model.skeleton.rest_models();
  auto position = [&](int joint) { return glm::vec3(rest[joint][3]); };
  std::map<std::string, ik::Limb> by_label;
  for (const ik::Limb& l : limbs) by_label[l.label] = l;
  ASSERT_EQ(by_label.count("LeftLeg") + by_label.count("RightLeg") + by_label.count("LeftArm") +
                by_label.count("RightArm"),
            4u);
  // Legs below arms; feet near the floor; the left limbs on the -Z side.
  EXPECT_LT(position(by_label["LeftLeg"].chain.start).y,
            position(by_label["LeftArm"].chain.start).y);
  EXPECT_LT(position(by_label["LeftLeg"].chain.end).y, 0.2f);
  EXPECT_GT(
      glm::dot(position(by_label["LeftLeg"].chain.end) - position(by_label["RightLeg"].chain.end),
               left),
      0.05f);
  EXPECT_GT(
      glm::dot(position(by_label["LeftArm"].chain.end) - position(by_label["RightArm"].chain.end),
               left),
      0.2f);
  for (const ik::Limb& l : limbs) {
    EXPECT_EQ(l.found_by, ik::LimbFoundBy::kSymmetry);
    std::string why;
    EXPECT_TRUE(l.chain.Validate(model.skeleton, &why)) << why;
  }
}

TEST(LimbsOnModels, CesiumManBySymmetry) {
  ExpectSymmetricHumanoid("khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb",
                          glm::vec3(0, 0, -1));
}

TEST(LimbsOnModels, RiggedFigureBySymmetry) {
  ExpectSymmetricHumanoid("khronos-glTF-Sample-Models/RiggedFigure/glTF/RiggedFigure.gltf",
                          glm::vec3(1, 0, 0));
}

TEST(LimbsOnModels, BcnEpilepticByHipKneeAnkleNames) {
  const std::string path = testpaths::SharedModel("assimp/BCN_Epileptic/BCN_Epileptic.X");
  SKIP_IF_NO_MODEL(path, "BCN_Epileptic.X");
  assets::LoadResult loaded = assets::LoadModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  EXPECT_THAT(LimbTriples(*loaded.model),
              ElementsAre("LeftLeg:B_Hip_Left/B_Knee_Left/B_Ankle_Left",
                          "RightLeg:B_Hip_Right/B_Knee_Right/B_Ankle_Right",
                          "LeftArm:B_UpperArm_Left/B_ForeArm_Left/B_Hand_Left",
                          "RightArm:B_UpperArm_Right/B_ForeArm_Right/B_Hand_Right"));
}

TEST(LimbsOnModels, ModelsWithoutLimbsHaveNone) {
  for (const char* relative :
       {"khronos-glTF-Sample-Models/RiggedSimple/glTF/RiggedSimple.gltf",
        "khronos-glTF-Sample-Models/SimpleSkin/glTF-Embedded/SimpleSkin.gltf",
        "glTF-Asset-Generator/Animation_Skin/Animation_Skin_01.gltf"}) {
    const std::string path = testpaths::SharedModel(relative);
    if (path.empty()) GTEST_SKIP() << "shared model " << relative << " not found";
    assets::LoadResult loaded = assets::LoadModel(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error;
    EXPECT_TRUE(ik::DetectLimbs(loaded.model->skeleton, &loaded.model->is_bone).empty())
        << relative;
  }
}

TEST(DefaultChains, DetectedLimbsAreEnabledWithAOneWayKnee) {
  const auto chains = app::DefaultChains(BuiltinCharacter());
  // Four limbs, then the body handles on the hips and the chest (free until dragged).
  ASSERT_EQ(chains.size(), 6u);
  const ik::Skeleton& skeleton = Builtin().skeleton;
  EXPECT_EQ(chains[4].kind, app::ConstraintKind::kBody);
  EXPECT_EQ(skeleton.name(chains[4].chain.end), "Hips");
  EXPECT_EQ(chains[5].kind, app::ConstraintKind::kBody);
  EXPECT_EQ(skeleton.name(chains[5].chain.end), "Spine2");  // where the arms hang from
  EXPECT_EQ(chains[4].label, "Hips (body)");
  EXPECT_EQ(chains[5].label, "Chest (body)");
  for (const app::ChainSettings& c : chains) {
    EXPECT_TRUE(c.enabled);
    EXPECT_FALSE(c.body_helps);
    EXPECT_FALSE(c.body_pin);
    if (c.kind == app::ConstraintKind::kBody) continue;
    EXPECT_EQ(c.mode, app::TargetMode::kFollow);
    EXPECT_EQ(c.offset, glm::vec3(0.0f));
    EXPECT_TRUE(c.hinge) << c.label << ": the built-in character's knees and elbows are bent";
  }
}

TEST(DefaultChains, ARigsOwnIkControlsBecomeTheLegsPinnedTargetAndPole) {
  // A leg pair below the hips, and beside the hips (children of the root bone) a foot control at
  // each ankle and a pole in front of each knee.
  std::vector<ik::JointDesc> joints;
  auto add = [&](const std::string& name, int parent, glm::vec3 offset) {
    ik::JointDesc j;
    j.name = name;
    j.parent = parent;
    j.rest.translation = offset;
    joints.push_back(j);
    return static_cast<int>(joints.size()) - 1;
  };
  const int root = add("Root", -1, {0, 0, 0});
  const int hips = add("Hips", root, {0, 1.0f, 0});
  const int spine = add("Spine", hips, {0, 0.3f, 0});
  add("Head", spine, {0, 0.4f, 0});
  for (const float x : {1.0f, -1.0f}) {
    const std::string side = x > 0 ? "L" : "R";
    const int up = add("Thigh_" + side, hips, {0.1f * x, -0.05f, 0});
    const int low = add("Shin_" + side, up, {0, -0.45f, 0.03f});
    add("Shin_" + side + "_end", low, {0, -0.42f, -0.03f});
    add("FootCtrl_" + side, root, {0.1f * x, 0.1f, 0.01f});
    add("KneePole_" + side, root, {0.1f * x, 0.5f, 0.6f});
  }
  std::string error;
  auto skeleton = ik::Skeleton::Build(joints, &error);
  ASSERT_TRUE(skeleton) << error;
  assets::Model model;
  model.skeleton = *skeleton;
  const app::Character character(model);
  const auto chains = app::DefaultChains(character);
  ASSERT_GE(chains.size(), 2u);
  const ik::Skeleton& s = model.skeleton;
  for (size_t i = 0; i < 2; ++i) {
    const std::string side = i == 0 ? "L" : "R";
    SCOPED_TRACE(chains[i].label);
    EXPECT_EQ(s.name(chains[i].chain.start), "Thigh_" + side);
    EXPECT_EQ(chains[i].pinned, glm::vec3(s.rest_models()[s.Find("FootCtrl_" + side)][3]));
    EXPECT_TRUE(chains[i].use_pole);
    EXPECT_EQ(chains[i].pole, glm::vec3(s.rest_models()[s.Find("KneePole_" + side)][3]));
  }
}

app::EffectorInfo At(const glm::vec3& effector) {
  app::EffectorInfo info;
  info.effector = effector;
  info.start = effector + glm::vec3(0, 0.5f, 0);
  info.reach = 0.85f;
  info.contact_height = 0.08f;
  return info;
}

TEST(ChainTargets, FollowAddsTheOffsetPinnedStays) {
  app::ChainSettings chain;
  const app::SceneContacts contacts;
  const glm::vec3 effector(0.1f, 0.2f, 0.3f);
  app::SetChainTarget(&chain, {0.5f, 0.5f, 0.5f}, At(effector), contacts);
  EXPECT_EQ(app::ChainTarget(chain, At(effector), contacts), glm::vec3(0.5f, 0.5f, 0.5f));
  // Following: when the animated effector moves, the target moves with it.
  EXPECT_EQ(app::ChainTarget(chain, At(effector + glm::vec3(1, 0, 0)), contacts),
            glm::vec3(1.5f, 0.5f, 0.5f));
  chain.mode = app::TargetMode::kPinned;
  app::SetChainTarget(&chain, {0.5f, 0.5f, 0.5f}, At(effector), contacts);
  EXPECT_EQ(app::ChainTarget(chain, At(effector + glm::vec3(1, 0, 0)), contacts),
            glm::vec3(0.5f, 0.5f, 0.5f));
  app::ResetChainTarget(&chain, effector);
  EXPECT_EQ(app::ChainTarget(chain, At(effector), contacts), effector);
}

TEST(ChainTargets, GroundCarriesTheFootOntoTheRaisedGround) {
  app::ChainSettings chain;
  chain.mode = app::TargetMode::kGround;
  app::SceneContacts contacts;
  contacts.ground.enabled = true;
  contacts.ground.height = 0.25f;
  // A planted foot (at its rest contact height) lands on the ground, 0.25 higher.
  const glm::vec3 target = app::ChainTarget(chain, At({0.1f, 0.08f, 0.0f}), contacts);
  EXPECT_NEAR(target.y, 0.33f, 1e-6f);
  // A foot sunk below its contact height is lifted onto the ground.
  EXPECT_NEAR(app::ChainTarget(chain, At({0.1f, -0.2f, 0.0f}), contacts).y, 0.33f, 1e-6f);
  // Dragging adds an offset on top of the contact.
  app::SetChainTarget(&chain, target + glm::vec3(0.0f, 0.1f, 0.0f), At({0.1f, 0.08f, 0.0f}),
                      contacts);
  EXPECT_NEAR(app::ChainTarget(chain, At({0.1f, 0.08f, 0.0f}), contacts).y, 0.43f, 1e-6f);
}

TEST(ChainTargets, RungModeSnapsToTheNearestRungWithinReach) {
  app::ChainSettings chain;
  chain.mode = app::TargetMode::kRung;
  app::SceneContacts contacts;
  contacts.ladder.enabled = true;
  contacts.ladder.base = {0.0f, 1.0f, 0.3f};
  contacts.ladder.spacing = 0.3f;
  contacts.ladder.count = 3;  // rungs at y = 1.0, 1.3, 1.6
  const glm::vec3 hand(0.2f, 1.38f, 0.2f);
  const glm::vec3 target = app::ChainTarget(chain, At(hand), contacts);
  EXPECT_NEAR(target.y, 1.3f, 1e-6f);
  EXPECT_NEAR(target.z, 0.3f, 1e-6f);
  EXPECT_NEAR(target.x, 0.2f, 1e-6f);
  // Out of reach of the shoulder: the hand keeps following the animation.
  app::EffectorInfo far = At({5.0f, 1.3f, 5.0f});
  EXPECT_EQ(app::ChainTarget(chain, far, contacts), far.effector);
}

TEST(ChainTargets, AnimatedWeightFadesLinearlyBetweenKeys) {
  app::ChainSettings chain;
  chain.weight = 0.3f;
  EXPECT_FLOAT_EQ(chain.WeightAt(0.7f), 0.3f);
  chain.weight_keys = {{1.0f, 1.0f}, {0.0f, 0.0f}};  // unsorted on purpose
  EXPECT_FLOAT_EQ(chain.WeightAt(-1.0f), 0.0f);
  EXPECT_FLOAT_EQ(chain.WeightAt(0.25f), 0.25f);
  EXPECT_FLOAT_EQ(chain.WeightAt(0.5f), 0.5f);
  EXPECT_FLOAT_EQ(chain.WeightAt(3.0f), 1.0f);
  EXPECT_FLOAT_EQ(app::ChainOptions(chain, 0.75f).weight, 0.75f);
}

TEST(ChainTargets, RequestsOnlyForEnabledChains) {
  const assets::Model& model = Builtin();
  app::EditState edit;
  edit.chains = app::DefaultChains(BuiltinCharacter());
  edit.chains[1].enabled = false;
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, ik::Pose::Rest(model.skeleton), &models);
  app::EditedFrame frame;
  app::BuildRequests(BuiltinCharacter(), edit, models, 0.0f, &frame);
  const app::ConstraintRequests& requests = frame.requests;
  const std::vector<app::RequestIndex>& where = frame.chain_requests;
  ASSERT_EQ(requests.ik.size(), 3u);
  ASSERT_EQ(where.size(), 6u);
  EXPECT_EQ(where[0].index, 0);
  EXPECT_EQ(where[1].index, -1);
  EXPECT_EQ(where[2].index, 1);
  EXPECT_EQ(where[3].index, 2);
  // The body handles are left to the animation until moved: no body effector.
  EXPECT_EQ(where[4].index, -1);
  EXPECT_EQ(where[5].index, -1);
  EXPECT_TRUE(requests.body.effectors.empty());
  // With no offset the target is the effector itself: the solve leaves the pose unchanged.
  EXPECT_EQ(requests.ik[0].target.position, glm::vec3(models[edit.chains[0].chain.end][3]));
  EXPECT_TRUE(requests.ik[0].options.bend_axis_local.has_value());
}

}  // namespace
