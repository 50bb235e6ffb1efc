// Solid bones: which side a name is on, which joints deform, the bones drawn for a pose, and that
// clicking a bone selects the joint whose bone is then highlighted.
#include "app/scene/bones.h"

#include <gtest/gtest.h>

#include "app/scene/picking.h"
#include "assets/builtin/builtin_character.h"
#include "assets/importer.h"
#include "ik/body/limbs.h"
#include "ik/core/kinematics.h"
#include "tests/test_paths.h"

namespace {

TEST(SideOfName, CommonNamingSchemesAreRead) {
  using app::BoneSide;
  const std::pair<const char*, BoneSide> cases[] = {
      {"mixamorig:LeftArm", BoneSide::kLeft},
      {"RightUpLeg", BoneSide::kRight},
      {"upper_arm.L", BoneSide::kLeft},
      {"thigh.R", BoneSide::kRight},
      {"Bip01 L Thigh", BoneSide::kLeft},
      {"Bip01 R Clavicle", BoneSide::kRight},
      {"l_hand", BoneSide::kLeft},
      {"hand_r", BoneSide::kRight},
      {"Hips", BoneSide::kCenter},
      {"Spine1", BoneSide::kCenter},
      {"Clavicle", BoneSide::kCenter},
      {"Root", BoneSide::kCenter},
      {"LR_mixed L R", BoneSide::kCenter},
      {"leftright", BoneSide::kCenter},
  };
  for (const auto& [name, side] : cases) EXPECT_EQ(app::SideOfName(name), side) << name;
}

TEST(ClassifyBones, JointsWithoutWeightAreHelpers) {
  assets::Model model = assets::MakeBuiltinCharacter();
  std::vector<app::BoneClass> classes = app::ClassifyBones(model);
  ASSERT_EQ(classes.size(), size_t(model.skeleton.joint_count()));
  const int hand = model.skeleton.Find("LeftHand");
  ASSERT_GE(hand, 0);
  EXPECT_TRUE(classes[size_t(hand)].deforms);
  EXPECT_EQ(classes[size_t(hand)].side, app::BoneSide::kLeft);
  EXPECT_EQ(classes[size_t(model.skeleton.Find("Hips"))].side, app::BoneSide::kCenter);
  // Move every vertex the hand weighs on to another bone: the hand becomes a helper.
  for (assets::Mesh& mesh : model.meshes) {
    for (size_t v = 0; v < mesh.joints.size(); ++v) {
      for (int k = 0; k < 4; ++k) {
        const int bone = mesh.joints[v][k];
        if (mesh.bone_joints[size_t(bone)] == hand) mesh.weights[v][k] = 0.0f;
      }
    }
  }
  classes = app::ClassifyBones(model);
  EXPECT_FALSE(classes[size_t(hand)].deforms);
  EXPECT_TRUE(classes[size_t(model.skeleton.Find("LeftForeArm"))].deforms);
}

// CesiumMan's joints have no names: its limbs, found by symmetry, give the sides.
TEST(ClassifyBones, UnnamedLimbsTakeTheirSideFromTheirSymmetry) {
  const std::string path =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb");
  if (path.empty()) GTEST_SKIP() << "../shared/models is not here: CesiumMan is needed";
  assets::LoadResult loaded = assets::LoadModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  const assets::Model& model = *loaded.model;
  const std::vector<app::BoneClass> classes = app::ClassifyBones(model);
  int left = 0, right = 0;
  for (const ik::Limb& limb : ik::DetectLimbs(model.skeleton, &model.is_bone)) {
    const app::BoneSide expected =
        limb.side == ik::LimbSide::kLeft ? app::BoneSide::kLeft : app::BoneSide::kRight;
    for (int j : {limb.chain.start, limb.chain.mid, limb.chain.end}) {
      EXPECT_EQ(classes[size_t(j)].side, expected) << model.skeleton.name(j);
    }
    (expected == app::BoneSide::kLeft ? left : right) += 3;
  }
  EXPECT_EQ(left, 6) << "an arm and a leg on each side";
  EXPECT_EQ(right, 6);
  // The spine stays in the middle.
  const ik::Skeleton& s = model.skeleton;
  int middle = 0;
  for (int j = 0; j < s.joint_count(); ++j)
    middle += classes[size_t(j)].side == app::BoneSide::kCenter;
  EXPECT_GE(middle, 3);
}

TEST(BoneSegments, EachJointOwnsTheBonesToItsChildrenAndLeavesGetAStub) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, ik::Pose::Rest(model.skeleton), &models);
  std::vector<app::BoneSegment> segments;
  app::BoneSegments(model, models, &segments);
  const ik::Skeleton& s = model.skeleton;
  const int hips = s.Find("Hips");
  int hips_bones = 0;
  for (const app::BoneSegment& bone : segments) {
    EXPECT_EQ(bone.head, glm::vec3(models[size_t(bone.joint)][3]));
    if (bone.joint == hips) ++hips_bones;
    if (s.children(bone.joint).empty()) {
      // A stub continuing the parent's bone at half its length.
      const glm::vec3 parent(models[size_t(s.parent(bone.joint))][3]);
      const glm::vec3 expected = bone.head + 0.5f * (bone.head - parent);
      EXPECT_NEAR(glm::length(bone.tail - expected), 0.0f, 1e-5f) << s.name(bone.joint);
    }
  }
  EXPECT_EQ(hips_bones, int(s.children(hips).size()));
  // Every joint of the character is a bone and has at least one segment.
  for (int j = 0; j < s.joint_count(); ++j) {
    bool found = false;
    for (const app::BoneSegment& bone : segments) found = found || bone.joint == j;
    EXPECT_TRUE(found) << s.name(j);
  }
}

TEST(SolidBones, OctahedraAreClosedAndColouredByKind) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, ik::Pose::Rest(model.skeleton), &models);
  std::vector<app::BoneSegment> segments;
  app::BoneSegments(model, models, &segments);
  const std::vector<app::BoneClass> classes = app::ClassifyBones(model);
  const int arm = model.skeleton.Find("LeftArm");
  app::BoneHighlight highlight;
  highlight.selected_joint = arm;
  renderer::DebugShapes shapes;
  app::AddSolidBones(segments, classes, models, highlight, &shapes, arm);
  // One bone (the arm has one child): 8 faces.
  ASSERT_EQ(shapes.vertices().size(), 24u);
  const glm::vec3 head(models[size_t(arm)][3]);
  const glm::vec3 tail(models[size_t(model.skeleton.children(arm)[0])][3]);
  int at_head = 0, at_tail = 0;
  for (const renderer::ShapeVertex& v : shapes.vertices()) {
    at_head += glm::length(v.position - head) < 1e-6f;
    at_tail += glm::length(v.position - tail) < 1e-6f;
    // The selected colour, shaded: cyan-white, never the left side's blue.
    EXPECT_GT(v.color.g, v.color.b * 0.7f);
    EXPECT_GT(v.color.r, 0.2f);
  }
  EXPECT_EQ(at_head, 4);
  EXPECT_EQ(at_tail, 4);
  // Unselected, the left arm is blue.
  shapes.Clear();
  app::AddSolidBones(segments, classes, models, app::BoneHighlight{}, &shapes, arm);
  for (const renderer::ShapeVertex& v : shapes.vertices()) EXPECT_GT(v.color.b, v.color.r);
}

TEST(SolidBones, ClickingABoneSelectsTheJointItHighlights) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, ik::Pose::Rest(model.skeleton), &models);
  app::OrbitCamera camera;
  camera.target = {0, 0.9f, 0};
  camera.distance = 3.0f;
  app::PickView view;
  view.viewport = {800, 800};
  view.view = camera.View();
  view.projection = camera.Projection(1.0f);
  std::vector<app::BoneSegment> segments;
  app::BoneSegments(model, models, &segments);
  const std::vector<app::BoneClass> classes = app::ClassifyBones(model);
  int checked = 0;
  for (const app::BoneSegment& bone : segments) {
    glm::vec2 a, b;
    if (!app::ProjectToPixel(view.view, view.projection, view.viewport, bone.head, &a) ||
        !app::ProjectToPixel(view.view, view.projection, view.viewport, bone.tail, &b) ||
        glm::length(b - a) < 40.0f) {
      continue;  // short bones: the joint markers at their ends win
    }
    // Two fifths along the bone, off its axis by a few pixels.
    const glm::vec2 click = a + 0.4f * (b - a) + glm::vec2(2.0f, 0.0f);
    const int picked = app::PickBone(model, models, view, click, 8.0f);
    EXPECT_EQ(picked, bone.joint) << model.skeleton.name(bone.joint);
    // The highlighted bone for that selection is the one clicked.
    app::BoneHighlight highlight;
    highlight.selected_joint = picked;
    renderer::DebugShapes shapes;
    app::AddSolidBones(segments, classes, models, highlight, &shapes, picked);
    bool has_clicked_bone = false;
    for (const renderer::ShapeVertex& v : shapes.vertices()) {
      has_clicked_bone = has_clicked_bone || glm::length(v.position - bone.tail) < 1e-6f;
    }
    EXPECT_TRUE(has_clicked_bone) << model.skeleton.name(bone.joint);
    ++checked;
  }
  EXPECT_GE(checked, 6) << "the limbs' long bones";
}

}  // namespace
