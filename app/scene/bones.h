// Solid bones: each bone as a shaded octahedron from its joint to its child, in colours that tell
// deforming from helper joints, left from right, and mark the active chain and the selected bone.
// Picking uses the same bones (PickBone), so a click selects the bone it highlights.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "assets/model/model.h"
#include "ik/body/limbs.h"
#include "renderer/debug_geometry.h"

namespace app {

enum class BoneSide { kCenter, kLeft, kRight };

// The side a joint's name puts it on: "Left"/"Right" anywhere in it (mixamorig:LeftArm), or a
// lone L or R between separators (upper_arm.L, Bip01 R Thigh, l_hand); else kCenter. Case-blind.
BoneSide SideOfName(const std::string& name);

// Per joint, what kind of bone it is; measured once per model. The side comes from the name
// (SideOfName), else from the arm or leg the joint is part of (ik::DetectLimbs, which also finds
// the limbs of unnamed rigs by their mirror symmetry).
struct BoneClass {
  bool deforms = false;  // some vertex has a non-zero weight on it (every joint without meshes)
  BoneSide side = BoneSide::kCenter;
};
// `limbs`: the model's detected limbs when the caller has them (Character::limbs), else null
// to detect them here.
std::vector<BoneClass> ClassifyBones(const assets::Model& model,
                                     const std::vector<ik::Limb>* limbs = nullptr);

// The bone colours (linear RGBA) before shading.
namespace bone_colors {
constexpr glm::vec4 kCenter{0.45f, 0.8f, 0.45f, 1.0f};
constexpr glm::vec4 kLeft{0.3f, 0.55f, 1.0f, 1.0f};
constexpr glm::vec4 kRight{1.0f, 0.38f, 0.42f, 1.0f};
constexpr glm::vec4 kHelper{0.55f, 0.55f, 0.58f, 1.0f};
constexpr glm::vec4 kActiveChain{1.0f, 0.62f, 0.12f, 1.0f};
constexpr glm::vec4 kSelected{1.0f, 1.0f, 1.0f, 1.0f};
}  // namespace bone_colors

// The joints drawn as bones: model.is_bone when some joint is one, else nullptr, meaning every
// joint (a skeleton without skin). The form DebugLines::AddSkeleton and ik::DetectLimbs take.
const std::vector<bool>* ShownBones(const assets::Model& model);
// Whether joint `j` is drawn as a bone, given ShownBones' result.
bool IsShownBone(const std::vector<bool>* shown, int j);

// One drawn bone: joint `joint` owns the segment from `head` to `tail` (its child's position, or a
// stub half its parent bone's length for a joint with no child).
struct BoneSegment {
  int joint = -1;
  glm::vec3 head{0.0f}, tail{0.0f};
};
// The bones shown for a pose (`models`: one model-space matrix per joint): only joints marked in
// model.is_bone when any is, else every joint; each joint's bones next to each other, joints in
// skeleton order. *out is cleared first.
void BoneSegments(const assets::Model& model, const std::vector<glm::mat4>& models,
                  std::vector<BoneSegment>* out);

// The octahedron's widest radius for a bone of `length` model units.
float BoneRadius(float length, bool deforms);

// What the bones highlight: the selected joint's bones and the active chain's (joints whose bone
// is part of it, -1 for none).
struct BoneHighlight {
  int selected_joint = -1;
  int chain_joints[2] = {-1, -1};
};

// Adds the shaded octahedra of `segments` to `shapes` (world-space triangles, flat-shaded from a
// fixed light so each face reads). `classes` from ClassifyBones (shorter: all centre, deforming).
// With `only_joint` >= 0, only that joint's bones.
void AddSolidBones(const std::vector<BoneSegment>& segments, const std::vector<BoneClass>& classes,
                   const std::vector<glm::mat4>& models, const BoneHighlight& highlight,
                   renderer::DebugShapes* shapes, int only_joint = -1);

}  // namespace app
