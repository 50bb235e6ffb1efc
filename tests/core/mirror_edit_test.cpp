// Copying, pasting (flipped) and mirroring poses as edits, and a chain's target mirrored to the
// other side: on the built-in character (named), a Mixamo-style glTF rig (mixamorig: names) and
// CesiumMan (unnamed joints: sides from the rest pose's symmetry). The pose is what the window
// evaluates (EvaluateEditedFrame), IK included.
#include "app/core/mirror_edit.h"

#include <gtest/gtest.h>

#include "assets/builtin/builtin_character.h"
#include "assets/importer.h"
#include "ik/body/limbs.h"
#include "tests/core/mixamo_gltf.h"
#include "tests/test_paths.h"

namespace app {
namespace {

struct Rig {
  std::string name;
  assets::Model model;
};

std::vector<Rig> Rigs() {
  std::vector<Rig> rigs;
  rigs.push_back({"built-in", assets::MakeBuiltinCharacter()});
  const std::string mixamo = testrig::WriteMixamoGltf(testpaths::TempDir() + "/mirror-mixamo.gltf");
  assets::LoadResult loaded = assets::LoadModel(mixamo);
  EXPECT_TRUE(loaded.ok()) << loaded.error;
  if (loaded.ok()) rigs.push_back({"mixamo", std::move(*loaded.model)});
  const std::string cesium =
      testpaths::SharedModel("khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb");
  if (!cesium.empty()) {
    assets::LoadResult c = assets::LoadModel(cesium);
    EXPECT_TRUE(c.ok()) << c.error;
    if (c.ok()) rigs.push_back({"CesiumMan", std::move(*c.model)});
  }
  return rigs;
}

ik::MirrorMap MapOf(const assets::Model& model) {
  return ik::BuildMirrorMap(model.skeleton, ik::DetectLimbs(model.skeleton, &model.is_bone));
}

float Size(const assets::Model& model) {
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const glm::mat4& m : model.skeleton.rest_models()) {
    lo = glm::min(lo, glm::vec3(m[3]));
    hi = glm::max(hi, glm::vec3(m[3]));
  }
  return glm::length(hi - lo);
}

// The clip time the tests look at: in the middle of the first clip (0 without one).
float TimeOf(const assets::Model& model) {
  return model.clips.empty() ? 0.0f : 0.37f * model.clips[0].duration;
}

// The pose the window shows for `edit` at TimeOf (the rest pose without a clip).
PoseState Evaluate(const assets::Model& model, const EditState& edit) {
  const int clip = model.clips.empty() ? -1 : 0;
  const float time = TimeOf(model);
  EditedFrame frame;
  PoseState state;
  EvaluateEditedFrame(Character(model), ClipTime{clip, time}, edit, &frame, &state);
  return state;
}

// The edit of a freshly opened model with its first limb's target dragged (the body helping).
EditState DraggedEdit(const assets::Model& model) {
  EditState edit;
  edit.chains = DefaultChains(Character(model));
  if (!edit.chains.empty()) {
    edit.chains[0].offset = glm::vec3(0.0f, 0.06f, 0.04f) * Size(model);
  }
  return edit;
}

TEST(MirrorEdit, FindsPairsOnEveryRig) {
  for (const Rig& rig : Rigs()) {
    SCOPED_TRACE(rig.name);
    const ik::MirrorMap map = MapOf(rig.model);
    EXPECT_TRUE(map.found_plane);
    EXPECT_GE(map.pair_count(), 6) << "legs and arms";
    if (rig.name == "CesiumMan") {
      EXPECT_EQ(map.pairs_by_name, 0);
    }
    if (rig.name == "mixamo") {
      const ik::Skeleton& s = rig.model.skeleton;
      EXPECT_EQ(map.counterpart[size_t(s.Find("mixamorig:LeftHand"))],
                s.Find("mixamorig:RightHand"));
    }
  }
}

TEST(MirrorEdit, PastingACopiedPoseGivesThatPose) {
  for (const Rig& rig : Rigs()) {
    SCOPED_TRACE(rig.name);
    const assets::Model& model = rig.model;
    const EditState dragged = DraggedEdit(model);
    const PoseState before = Evaluate(model, dragged);
    // Pasted onto a fresh edit (the IK's result is in the pasted pose now).
    EditState pasted;
    pasted.chains = DefaultChains(Character(model));
    EXPECT_EQ(PastePose(CopyPose(model.skeleton, before.pose), model.skeleton, nullptr,
                        TimeOf(model), &pasted),
              model.skeleton.joint_count());
    const PoseState after = Evaluate(model, pasted);
    for (int j = 0; j < model.skeleton.joint_count(); ++j) {
      EXPECT_LT(glm::length(glm::vec3(after.models[size_t(j)][3]) -
                            glm::vec3(before.models[size_t(j)][3])),
                1e-5f * Size(model))
          << model.skeleton.name(j);
    }
  }
}

TEST(MirrorEdit, MirroringThePoseReflectsEveryJointAndTwiceGivesItBack) {
  for (const Rig& rig : Rigs()) {
    SCOPED_TRACE(rig.name);
    const assets::Model& model = rig.model;
    const ik::MirrorMap map = MapOf(model);
    EditState edit = DraggedEdit(model);
    const PoseState before = Evaluate(model, edit);
    MirrorWholePose(model.skeleton, map, before.pose, TimeOf(model), &edit);
    const PoseState once = Evaluate(model, edit);
    const float tolerance = 1e-4f * Size(model);
    float moved = 0.0f;
    for (int j = 0; j < model.skeleton.joint_count(); ++j) {
      const int m = map.counterpart[size_t(j)];
      const glm::vec3 expected = map.MirrorPoint(glm::vec3(before.models[size_t(m)][3]));
      const glm::vec3 got(once.models[size_t(j)][3]);
      EXPECT_LT(glm::length(got - expected), tolerance) << model.skeleton.name(j);
      moved = std::max(moved, glm::length(got - glm::vec3(before.models[size_t(j)][3])));
    }
    EXPECT_GT(moved, 0.01f * Size(model)) << "the mirror image is another pose";
    MirrorWholePose(model.skeleton, map, once.pose, TimeOf(model), &edit);
    const PoseState twice = Evaluate(model, edit);
    for (int j = 0; j < model.skeleton.joint_count(); ++j) {
      const ik::Transform& a = before.pose.locals[size_t(j)];
      const ik::Transform& b = twice.pose.locals[size_t(j)];
      EXPECT_LT(glm::length(a.translation - b.translation), 1e-5f * Size(model))
          << model.skeleton.name(j);
      EXPECT_GT(std::abs(glm::dot(a.rotation, b.rotation)), 1.0f - 1e-5f) << model.skeleton.name(j);
    }
  }
}

TEST(MirrorEdit, PastingFlippedIsTheMirrorImageOfTheCopy) {
  for (const Rig& rig : Rigs()) {
    SCOPED_TRACE(rig.name);
    const assets::Model& model = rig.model;
    const ik::MirrorMap map = MapOf(model);
    const PoseState source = Evaluate(model, DraggedEdit(model));
    EditState edit;
    edit.chains = DefaultChains(Character(model));
    PastePose(CopyPose(model.skeleton, source.pose), model.skeleton, &map, TimeOf(model), &edit);
    const PoseState flipped = Evaluate(model, edit);
    for (int j = 0; j < model.skeleton.joint_count(); ++j) {
      const int m = map.counterpart[size_t(j)];
      EXPECT_LT(glm::length(glm::vec3(flipped.models[size_t(j)][3]) -
                            map.MirrorPoint(glm::vec3(source.models[size_t(m)][3]))),
                1e-4f * Size(model))
          << model.skeleton.name(j);
    }
  }
}

// Blender's paste sets the pose at the current frame: a chain whose target is keyed (an offset
// from the effector at two other times) must not pull the pasted pose away at that frame; the
// target is keyed on the effector there, and its other keys stay.
TEST(MirrorEdit, PastingOntoKeyedTargetsGivesThePastedPoseAtThatFrame) {
  for (const Rig& rig : Rigs()) {
    SCOPED_TRACE(rig.name);
    const assets::Model& model = rig.model;
    ASSERT_FALSE(model.clips.empty());
    const ik::MirrorMap map = MapOf(model);
    const PoseState source = Evaluate(model, DraggedEdit(model));
    for (const bool flip : {false, true}) {
      SCOPED_TRACE(flip ? "flipped" : "as copied");
      EditState edit;
      edit.chains = DefaultChains(Character(model));
      ASSERT_GE(edit.chains.size(), 2u);
      const float size = Size(model), end = model.clips[0].duration;
      for (size_t c = 0; c < 2; ++c) {  // both legs (or arms): the flip crosses sides
        SetKey(&edit.chains[c].target_keys, 0.0f, glm::vec3(0.0f, 0.1f, 0.05f) * size);
        SetKey(&edit.chains[c].target_keys, end, glm::vec3(0.05f, 0.12f, 0.0f) * size);
      }
      EXPECT_EQ(PastePose(CopyPose(model.skeleton, source.pose), model.skeleton,
                          flip ? &map : nullptr, TimeOf(model), &edit),
                model.skeleton.joint_count());
      const PoseState pasted = Evaluate(model, edit);
      for (int j = 0; j < model.skeleton.joint_count(); ++j) {
        const int from = flip ? map.counterpart[size_t(j)] : j;
        glm::vec3 expected(source.models[size_t(from)][3]);
        if (flip) expected = map.MirrorPoint(expected);
        EXPECT_LT(glm::length(glm::vec3(pasted.models[size_t(j)][3]) - expected), 1e-4f * size)
            << model.skeleton.name(j);
      }
      for (size_t c = 0; c < 2; ++c) {
        const std::vector<PointKey>& keys = edit.chains[c].target_keys;
        ASSERT_EQ(keys.size(), 3u) << "keyed at the paste's time, the other keys kept";
        EXPECT_NEAR(keys[1].time, TimeOf(model), 1e-6f);
        EXPECT_EQ(keys[1].value, glm::vec3(0.0f));
        EXPECT_GT(glm::length(keys[2].value), 0.1f * size);
      }
    }
  }
}

// Mirroring the whole pose with keyed targets: at the frame shown the mirror image, not the
// mirror image plus the carried-across keys' offsets.
TEST(MirrorEdit, MirroringWithKeyedTargetsGivesTheMirrorImageAtThatFrame) {
  for (const Rig& rig : Rigs()) {
    SCOPED_TRACE(rig.name);
    const assets::Model& model = rig.model;
    const ik::MirrorMap map = MapOf(model);
    EditState edit = DraggedEdit(model);
    const float size = Size(model);
    SetKey(&edit.chains[0].target_keys, 0.0f, edit.chains[0].offset);
    SetKey(&edit.chains[0].target_keys, model.clips[0].duration,
           glm::vec3(0.05f, 0.12f, 0.0f) * size);
    const PoseState before = Evaluate(model, edit);
    MirrorWholePose(model.skeleton, map, before.pose, TimeOf(model), &edit);
    const PoseState once = Evaluate(model, edit);
    for (int j = 0; j < model.skeleton.joint_count(); ++j) {
      const int m = map.counterpart[size_t(j)];
      EXPECT_LT(glm::length(glm::vec3(once.models[size_t(j)][3]) -
                            map.MirrorPoint(glm::vec3(before.models[size_t(m)][3]))),
                1e-4f * size)
          << model.skeleton.name(j);
    }
  }
}

TEST(MirrorEdit, PastingAPoseByNameSkipsJointsTheModelDoesNotHave) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  PoseClipboard clipboard;
  clipboard.names = {"LeftArm", "no such joint"};
  ik::Transform turned;
  turned.rotation = glm::angleAxis(0.5f, glm::vec3(0, 0, 1));
  turned.translation =
      model.skeleton.rest_locals()[size_t(model.skeleton.Find("LeftArm"))].translation;
  clipboard.locals = {turned, turned};
  EditState edit;
  EXPECT_EQ(PastePose(clipboard, model.skeleton, nullptr, 0.0f, &edit), 1);
  EXPECT_EQ(edit.joint_rotations.size(), 1u);
  EXPECT_EQ(edit.joint_translations.size(), 1u);
  PoseClipboard none;
  none.names = {"x"};
  none.locals = {turned};
  EditState untouched;
  EXPECT_EQ(PastePose(none, model.skeleton, nullptr, 0.0f, &untouched), 0);
  EXPECT_TRUE(untouched == EditState());
}

TEST(MirrorEdit, ATargetMirroredToTheOtherSideIsReachedThere) {
  for (const Rig& rig : Rigs()) {
    SCOPED_TRACE(rig.name);
    const assets::Model& model = rig.model;
    const ik::MirrorMap map = MapOf(model);
    EditState edit;
    edit.chains = DefaultChains(Character(model));
    ASSERT_GE(edit.chains.size(), 2u);
    ChainSettings& left = edit.chains[0];
    ASSERT_NE(left.label.find("Left"), std::string::npos);
    const PoseState rest = Evaluate(model, edit);
    left.mode = TargetMode::kPinned;
    left.pinned = glm::vec3(rest.models[size_t(left.chain.end)][3]) +
                  glm::vec3(0.05f, 0.08f, 0.06f) * Size(model);
    left.soft = 0.1f;
    std::string why;
    const int other = MirrorChainTarget(Character(model), map, 0, &edit, &why);
    ASSERT_GE(other, 0) << why;
    EXPECT_EQ(other, CounterpartChain(edit.chains, map, 0));
    const ChainSettings& right = edit.chains[size_t(other)];
    EXPECT_EQ(right.mode, TargetMode::kPinned);
    EXPECT_EQ(right.pinned, map.MirrorPoint(edit.chains[0].pinned));
    EXPECT_EQ(right.soft, 0.1f);
    EXPECT_EQ(right.chain.end, map.counterpart[size_t(edit.chains[0].chain.end)]);
    EXPECT_NE(right.label, edit.chains[0].label);
    // Solved: each foot where its target is, one the mirror image of the other.
    const PoseState solved = Evaluate(model, edit);
    const glm::vec3 left_end(solved.models[size_t(edit.chains[0].chain.end)][3]);
    const glm::vec3 right_end(solved.models[size_t(right.chain.end)][3]);
    EXPECT_LT(glm::length(map.MirrorPoint(left_end) - right_end), 0.02f * Size(model));
  }
}

TEST(MirrorEdit, AChainOnThePlaneHasNoOtherSideAndAMissingOneIsMade) {
  const assets::Model model = assets::MakeBuiltinCharacter();
  const ik::MirrorMap map = MapOf(model);
  EditState edit;
  edit.chains = DefaultChains(Character(model));
  int hips = -1;
  for (size_t i = 0; i < edit.chains.size(); ++i) {
    if (edit.chains[i].kind == ConstraintKind::kBody && hips < 0) hips = static_cast<int>(i);
  }
  ASSERT_GE(hips, 0);
  std::string why;
  EXPECT_EQ(MirrorChainTarget(Character(model), map, hips, &edit, &why), -1);
  EXPECT_NE(why.find("on the mirror plane"), std::string::npos) << why;
  // An aim on the left hand only: mirroring it makes the right hand's.
  ChainSettings aim;
  ASSERT_TRUE(MakeAim(model, model.skeleton.Find("LeftHand"), &aim, &why)) << why;
  aim.mode = TargetMode::kPinned;
  aim.pinned = {0.5f, 1.2f, 0.4f};
  edit.chains.push_back(aim);
  const size_t count = edit.chains.size();
  const int other =
      MirrorChainTarget(Character(model), map, static_cast<int>(count) - 1, &edit, &why);
  ASSERT_EQ(other, static_cast<int>(count));
  EXPECT_EQ(edit.chains[size_t(other)].kind, ConstraintKind::kAim);
  EXPECT_EQ(edit.chains[size_t(other)].chain.end, model.skeleton.Find("RightHand"));
  EXPECT_EQ(edit.chains[size_t(other)].pinned, glm::vec3(-0.5f, 1.2f, 0.4f));
}

}  // namespace
}  // namespace app
