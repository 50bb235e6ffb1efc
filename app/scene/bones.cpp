// Bone classification and the octahedral bone geometry.
#include "app/scene/bones.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "ik/body/limbs.h"

namespace app {

namespace {

bool ContainsWord(const std::string& lower, const char* word) {
  return lower.find(word) != std::string::npos;
}

}  // namespace

BoneSide SideOfName(const std::string& name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool left = ContainsWord(lower, "left"), right = ContainsWord(lower, "right");
  if (left != right) return left ? BoneSide::kLeft : BoneSide::kRight;
  // A lone letter between separators (or the name's ends): upper_arm.L, Bip01 R Thigh, l_hand.
  BoneSide side = BoneSide::kCenter;
  size_t start = 0;
  while (start < lower.size()) {
    size_t end = start;
    while (end < lower.size() && std::isalnum(static_cast<unsigned char>(lower[end]))) ++end;
    if (end == start + 1 && (lower[start] == 'l' || lower[start] == 'r')) {
      const BoneSide found = lower[start] == 'l' ? BoneSide::kLeft : BoneSide::kRight;
      if (side != BoneSide::kCenter && side != found) return BoneSide::kCenter;  // both: unknown
      side = found;
    }
    start = end + 1;
  }
  return side;
}

std::vector<BoneClass> ClassifyBones(const assets::Model& model,
                                     const std::vector<ik::Limb>* limbs) {
  const int count = model.skeleton.joint_count();
  std::vector<BoneClass> classes(static_cast<size_t>(count));
  for (int j = 0; j < count; ++j) {
    classes[size_t(j)].side = SideOfName(model.skeleton.name(j));
    // A skeleton with no skin: no joint can be told to be a helper.
    classes[size_t(j)].deforms = model.meshes.empty();
  }
  // Joints whose names say no side take the side of the arm or leg they belong to (limbs found by
  // topology and mirror symmetry for unnamed rigs such as CesiumMan's), down to the fingers.
  const std::vector<ik::Limb> detected =
      limbs ? std::vector<ik::Limb>() : ik::DetectLimbs(model.skeleton, ShownBones(model));
  for (const ik::Limb& limb : limbs ? *limbs : detected) {
    if (limb.side == ik::LimbSide::kCenter || limb.chain.start < 0) continue;
    const BoneSide side = limb.side == ik::LimbSide::kLeft ? BoneSide::kLeft : BoneSide::kRight;
    std::vector<int> stack{limb.chain.start};
    while (!stack.empty()) {
      const int j = stack.back();
      stack.pop_back();
      if (classes[size_t(j)].side == BoneSide::kCenter) classes[size_t(j)].side = side;
      for (int c : model.skeleton.children(j)) stack.push_back(c);
    }
  }
  for (const assets::Mesh& mesh : model.meshes) {
    std::vector<char> used(mesh.bone_joints.size(), 0);
    auto mark = [&](const glm::u16vec4& joints, const glm::vec4& weights) {
      for (int k = 0; k < 4; ++k) {
        if (weights[k] > 0.0f && joints[k] < used.size()) used[joints[k]] = 1;
      }
    };
    for (size_t v = 0; v < mesh.weights.size() && v < mesh.joints.size(); ++v) {
      mark(mesh.joints[v], mesh.weights[v]);
    }
    for (size_t v = 0; v < mesh.extra_weights.size() && v < mesh.extra_joints.size(); ++v) {
      mark(mesh.extra_joints[v], mesh.extra_weights[v]);
    }
    for (size_t b = 0; b < used.size(); ++b) {
      const int joint = mesh.bone_joints[b];
      if (used[b] && joint >= 0 && joint < count) classes[size_t(joint)].deforms = true;
    }
  }
  return classes;
}

const std::vector<bool>* ShownBones(const assets::Model& model) {
  const bool any =
      std::find(model.is_bone.begin(), model.is_bone.end(), true) != model.is_bone.end();
  return any ? &model.is_bone : nullptr;
}

bool IsShownBone(const std::vector<bool>* shown, int j) {
  return !shown || (j >= 0 && j < static_cast<int>(shown->size()) && (*shown)[size_t(j)]);
}

void BoneSegments(const assets::Model& model, const std::vector<glm::mat4>& models,
                  std::vector<BoneSegment>* out) {
  out->clear();
  const ik::Skeleton& skeleton = model.skeleton;
  const int n = std::min(skeleton.joint_count(), static_cast<int>(models.size()));
  const std::vector<bool>* bones = ShownBones(model);
  auto shown = [&](int j) { return IsShownBone(bones, j); };
  auto position = [&](int j) { return glm::vec3(models[size_t(j)][3]); };
  for (int j = 0; j < n; ++j) {
    if (!shown(j)) continue;
    bool has_child = false;
    for (int c : skeleton.children(j)) {
      if (c >= n || !shown(c)) continue;
      has_child = true;
      out->push_back({j, position(j), position(c)});
    }
    if (has_child) continue;
    // A joint with no child: a stub continuing its parent's bone at half its length.
    const int p = skeleton.parent(j);
    if (p >= 0 && shown(p)) {
      const glm::vec3 from_parent = position(j) - position(p);
      out->push_back({j, position(j), position(j) + 0.5f * from_parent});
    }
  }
}

float BoneRadius(float length, bool deforms) { return length * (deforms ? 0.1f : 0.06f); }

namespace {

// Flat shading of a face with normal `n` (unit) by a fixed key light from above and in front,
// wrapped so faces turned away stay readable.
glm::vec4 Shade(const glm::vec4& color, const glm::vec3& n) {
  static const glm::vec3 kLight = glm::normalize(glm::vec3(0.35f, 0.85f, 0.6f));
  const float wrapped = 0.5f + 0.5f * glm::dot(n, kLight);
  const float brightness = 0.35f + 0.75f * wrapped;
  return glm::vec4(glm::min(glm::vec3(color) * brightness, glm::vec3(1.0f)), color.a);
}

void AddShadedTriangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                       const glm::vec3& center, const glm::vec4& color,
                       renderer::DebugShapes* shapes) {
  glm::vec3 n = glm::cross(b - a, c - a);
  const float length = glm::length(n);
  if (!(length > 0.0f)) return;
  n /= length;
  if (glm::dot(n, a - center) < 0.0f) n = -n;  // outward, whatever the winding
  shapes->AddTriangle(a, b, c, Shade(color, n));
}

glm::vec4 ColorOf(const BoneClass& bone_class) {
  if (!bone_class.deforms) return bone_colors::kHelper;
  switch (bone_class.side) {
    case BoneSide::kLeft:
      return bone_colors::kLeft;
    case BoneSide::kRight:
      return bone_colors::kRight;
    case BoneSide::kCenter:
      break;
  }
  return bone_colors::kCenter;
}

}  // namespace

void AddSolidBones(const std::vector<BoneSegment>& segments, const std::vector<BoneClass>& classes,
                   const std::vector<glm::mat4>& models, const BoneHighlight& highlight,
                   renderer::DebugShapes* shapes, int only_joint) {
  for (const BoneSegment& bone : segments) {
    if (only_joint >= 0 && bone.joint != only_joint) continue;
    const glm::vec3 axis = bone.tail - bone.head;
    const float length = glm::length(axis);
    if (!(length > 1e-7f) || !std::isfinite(length)) continue;
    const glm::vec3 d = axis / length;
    const BoneClass bone_class =
        size_t(bone.joint) < classes.size() ? classes[size_t(bone.joint)] : BoneClass{true};
    glm::vec4 color = ColorOf(bone_class);
    if (bone.joint == highlight.chain_joints[0] || bone.joint == highlight.chain_joints[1]) {
      color = bone_colors::kActiveChain;
    }
    if (bone.joint == highlight.selected_joint) color = bone_colors::kSelected;
    // The waist's axes follow the joint's own x axis where it is not along the bone, so the
    // octahedron rolls with the joint.
    glm::vec3 side = glm::vec3(models[size_t(bone.joint)][0]);
    side -= d * glm::dot(side, d);
    if (glm::length(side) <
        1e-4f * (1.0f + glm::length(glm::vec3(models[size_t(bone.joint)][0])))) {
      side = std::abs(d.y) < 0.9f ? glm::cross(d, glm::vec3(0, 1, 0))
                                  : glm::cross(d, glm::vec3(1, 0, 0));
    }
    const float radius = BoneRadius(length, bone_class.deforms);
    const glm::vec3 u = glm::normalize(side) * radius;
    const glm::vec3 v = glm::normalize(glm::cross(d, u)) * radius;
    const glm::vec3 waist = bone.head + axis * 0.1f;
    const glm::vec3 ring[4] = {waist + u, waist + v, waist - u, waist - v};
    const glm::vec3 center = waist;
    for (int k = 0; k < 4; ++k) {
      const glm::vec3& r0 = ring[k];
      const glm::vec3& r1 = ring[(k + 1) % 4];
      AddShadedTriangle(bone.head, r0, r1, center, color, shapes);
      AddShadedTriangle(r0, bone.tail, r1, center, color, shapes);
    }
  }
}

}  // namespace app
