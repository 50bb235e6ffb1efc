// The built-in mannequin. The body is a signed distance field: one capsule or ellipsoid per body
// part, each owned by a joint, merged with a smooth minimum and polygonised by marching
// tetrahedra into one watertight mesh. Normals come from the field's gradient; weights from the
// distance to each part's surface, blended smoothly between neighbouring parts. The clips are
// authored as world-axis rotations at each joint and converted into the rolled rest frames.
#include "assets/builtin/builtin_character.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <utility>

#include "assets/builtin/isosurface.h"
#include "assets/model/animation.h"
#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"

namespace assets {
namespace {

using ik::kPi;
constexpr float kGridSpacing = 0.022f;  // metres between field samples
constexpr float kLimbBlend = 0.022f;    // smooth-union width between limb parts, metres
constexpr float kTorsoBlend = 0.06f;    // wider on the torso, so that it reads as one body
constexpr float kWeightBlend = 0.035f;  // parts this much farther than the nearest still weigh
constexpr float kFramesPerSecond = 30.0f;

float Radians(float degrees) { return degrees * kPi / 180.0f; }

enum JointId {
  kHips,
  kSpine,
  kSpine1,
  kSpine2,
  kNeck,
  kHead,
  kLeftShoulder,
  kLeftArm,
  kLeftForeArm,
  kLeftHand,
  kRightShoulder,
  kRightArm,
  kRightForeArm,
  kRightHand,
  kLeftUpLeg,
  kLeftLeg,
  kLeftFoot,
  kLeftToeBase,
  kRightUpLeg,
  kRightLeg,
  kRightFoot,
  kRightToeBase,
  kJointCount
};

constexpr std::array<const char*, kJointCount> kNames = {
    "Hips",         "Spine",     "Spine1",      "Spine2",      "Neck",          "Head",
    "LeftShoulder", "LeftArm",   "LeftForeArm", "LeftHand",    "RightShoulder", "RightArm",
    "RightForeArm", "RightHand", "LeftUpLeg",   "LeftLeg",     "LeftFoot",      "LeftToeBase",
    "RightUpLeg",   "RightLeg",  "RightFoot",   "RightToeBase"};

constexpr std::array<int, kJointCount> kParents = {
    -1,        kHips,         kSpine,    kSpine1,      kSpine2,  kNeck,
    kSpine2,   kLeftShoulder, kLeftArm,  kLeftForeArm, kSpine2,  kRightShoulder,
    kRightArm, kRightForeArm, kHips,     kLeftUpLeg,   kLeftLeg, kLeftFoot,
    kHips,     kRightUpLeg,   kRightLeg, kRightFoot};

// Roll of each joint's frame about its bone, degrees: different per joint, mirrored left/right,
// never near a multiple of 90° so that no frame lines up with the world axes.
constexpr std::array<float, kJointCount> kRollDegrees = {27, -38, 52,  -21, 33,  -47, 61, -29,
                                                         44, -56, -61, 29,  -44, 56,  37, -24,
                                                         49, -33, -37, 24,  -49, 33};

glm::vec3 Mirror(const glm::vec3& v) { return {-v.x, v.y, v.z}; }

// Rest-pose geometry in world space: where each joint is and where its bone points.
struct Layout {
  std::array<glm::vec3, kJointCount> position;
  std::array<glm::vec3, kJointCount> tip;
  glm::vec3 upper_arm_dir, forearm_dir;  // left side
  glm::vec3 heel, ball, toe_tip;         // left side
};

Layout MakeLayout() {
  Layout l;
  auto& p = l.position;
  p[kHips] = {0.0f, 0.975f, -0.010f};
  p[kSpine] = {0.0f, 1.075f, -0.012f};
  p[kSpine1] = {0.0f, 1.195f, -0.015f};
  p[kSpine2] = {0.0f, 1.315f, -0.020f};
  p[kNeck] = {0.0f, 1.470f, -0.022f};
  p[kHead] = {0.0f, 1.575f, -0.005f};
  // Arms: A-pose, 45° below horizontal and slightly back; the elbow bends 12° forward.
  l.upper_arm_dir = glm::normalize(glm::vec3(0.70f, -0.70f, -0.03f));
  const glm::vec3 forward_perp =
      glm::normalize(glm::vec3(0, 0, 1) - l.upper_arm_dir * l.upper_arm_dir.z);
  l.forearm_dir = glm::normalize(l.upper_arm_dir * std::cos(Radians(12.0f)) +
                                 forward_perp * std::sin(Radians(12.0f)));
  p[kLeftShoulder] = {0.035f, 1.445f, -0.015f};
  p[kLeftArm] = {0.175f, 1.425f, -0.025f};
  p[kLeftForeArm] = p[kLeftArm] + 0.28f * l.upper_arm_dir;
  p[kLeftHand] = p[kLeftForeArm] + 0.25f * l.forearm_dir;
  // Legs: the knee sits a little in front of the hip-ankle line (a bend of a few degrees).
  p[kLeftUpLeg] = {0.092f, 0.935f, 0.000f};
  p[kLeftLeg] = {0.098f, 0.515f, 0.018f};
  p[kLeftFoot] = {0.104f, 0.088f, -0.022f};
  p[kLeftToeBase] = {0.108f, 0.028f, 0.115f};
  l.heel = {0.104f, 0.045f, -0.060f};
  l.ball = {0.108f, 0.035f, 0.110f};
  l.toe_tip = {0.110f, 0.026f, 0.190f};
  const std::array<std::pair<JointId, JointId>, 8> mirrored = {{{kLeftShoulder, kRightShoulder},
                                                                {kLeftArm, kRightArm},
                                                                {kLeftForeArm, kRightForeArm},
                                                                {kLeftHand, kRightHand},
                                                                {kLeftUpLeg, kRightUpLeg},
                                                                {kLeftLeg, kRightLeg},
                                                                {kLeftFoot, kRightFoot},
                                                                {kLeftToeBase, kRightToeBase}}};
  for (const auto& [left, right] : mirrored) p[right] = Mirror(p[left]);
  // Bone tips: the child joint, or for end joints a point along the limb.
  for (int j = 0; j < kJointCount; ++j) l.tip[j] = p[j] + glm::vec3(0, 0.1f, 0);
  for (int j = 1; j < kJointCount; ++j) {
    const int parent = kParents[j];
    // The first child listed defines the bone (Spine2 -> Neck, Hips -> Spine).
    if (l.tip[parent] == p[parent] + glm::vec3(0, 0.1f, 0)) l.tip[parent] = p[j];
  }
  l.tip[kHead] = {0.0f, 1.75f, 0.005f};
  l.tip[kLeftHand] = p[kLeftHand] + 0.18f * l.forearm_dir;
  l.tip[kRightHand] = Mirror(l.tip[kLeftHand]);
  l.tip[kLeftToeBase] = l.toe_tip;
  l.tip[kRightToeBase] = Mirror(l.toe_tip);
  return l;
}

// World rotation of a joint's rest frame: Y along the bone, then rolled about it.
glm::mat3 BoneFrame(const glm::vec3& from, const glm::vec3& to, float roll_degrees) {
  const glm::vec3 y = glm::normalize(to - from);
  // Reference X: world X across the bone, or world Z for bones that run along X (clavicles).
  const glm::vec3 reference = std::abs(y.x) > 0.7f ? glm::vec3(0, 0, 1) : glm::vec3(1, 0, 0);
  const glm::vec3 x0 = glm::normalize(reference - y * glm::dot(reference, y));
  const glm::vec3 z0 = glm::cross(x0, y);
  const float r = Radians(roll_degrees);
  const glm::vec3 x = x0 * std::cos(r) + z0 * std::sin(r);
  return glm::mat3(x, y, glm::cross(x, y));
}

// --- the body as a signed distance field ---------------------------------------------------

struct Part {
  bool ellipsoid = false;
  glm::vec3 a{0.0f}, b{0.0f};  // capsule segment (tapered from ra to rb)
  float ra = 0.0f, rb = 0.0f;
  glm::vec3 center{0.0f};  // ellipsoid
  glm::mat3 axes{1.0f};    // ellipsoid axes as columns (world)
  glm::vec3 radii{1.0f};
  int joint = 0;
  float blend = kLimbBlend;                // smooth-union width when this part joins the body
  glm::vec3 box_min{0.0f}, box_max{0.0f};  // world bounds of the part itself

  float Distance(const glm::vec3& p) const {
    if (!ellipsoid) {
      const glm::vec3 ab = b - a;
      const float t = std::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0f, 1.0f);
      return glm::length(p - (a + t * ab)) - (ra + (rb - ra) * t);
    }
    // A close, smooth approximation of the distance to an ellipsoid (exact on its surface).
    const glm::vec3 q = glm::transpose(axes) * (p - center);
    const float k0 = glm::length(q / radii);
    const float k1 = glm::length(q / (radii * radii));
    if (k1 < 1e-9f) return -std::min(radii.x, std::min(radii.y, radii.z));
    return k0 * (k0 - 1.0f) / k1;
  }
};

Part Capsule(const glm::vec3& a, const glm::vec3& b, float ra, float rb, int joint) {
  Part part;
  part.a = a;
  part.b = b;
  part.ra = ra;
  part.rb = rb;
  part.joint = joint;
  const float r = std::max(ra, rb);
  part.box_min = glm::min(a, b) - glm::vec3(r);
  part.box_max = glm::max(a, b) + glm::vec3(r);
  return part;
}

Part Ellipsoid(const glm::vec3& center, const glm::vec3& radii, int joint,
               const glm::mat3& axes = glm::mat3(1.0f), float blend = kLimbBlend) {
  Part part;
  part.blend = blend;
  part.ellipsoid = true;
  part.center = center;
  part.radii = radii;
  part.axes = axes;
  part.joint = joint;
  // Half extent along each world axis of the rotated ellipsoid.
  glm::vec3 half(0.0f);
  for (int i = 0; i < 3; ++i) half += glm::abs(axes[i]) * radii[i];
  part.box_min = center - half;
  part.box_max = center + half;
  return part;
}

std::vector<Part> MakeParts(const Layout& l) {
  const auto& p = l.position;
  const glm::mat3 world(1.0f);
  std::vector<Part> parts = {
      Ellipsoid({0.0f, 0.950f, -0.012f}, {0.150f, 0.130f, 0.102f}, kHips, world, kTorsoBlend),
      Ellipsoid({0.0f, 1.090f, -0.003f}, {0.128f, 0.150f, 0.090f}, kSpine, world, kTorsoBlend),
      Ellipsoid({0.0f, 1.215f, 0.000f}, {0.140f, 0.140f, 0.098f}, kSpine1, world, kTorsoBlend),
      Ellipsoid({0.0f, 1.330f, -0.008f}, {0.160f, 0.140f, 0.105f}, kSpine2, world, kTorsoBlend),
      Ellipsoid({0.0f, 1.405f, -0.025f}, {0.150f, 0.060f, 0.080f}, kSpine2, world, 0.04f),
      Capsule({0.0f, 1.430f, -0.022f}, {0.0f, 1.580f, -0.005f}, 0.050f, 0.046f, kNeck),
      Ellipsoid({0.0f, 1.645f, 0.008f}, {0.088f, 0.110f, 0.102f}, kHead),
      Ellipsoid({0.0f, 1.585f, 0.035f}, {0.064f, 0.048f, 0.062f}, kHead),
      Ellipsoid({0.0f, 1.630f, 0.105f}, {0.014f, 0.022f, 0.020f}, kHead),  // nose: shows +Z
  };
  // Palm: flat across the body's side, long along the forearm.
  const glm::vec3 thickness = glm::normalize(glm::vec3(1, 0, 0) - l.forearm_dir * l.forearm_dir.x);
  const glm::mat3 hand_axes(thickness, l.forearm_dir, glm::cross(thickness, l.forearm_dir));
  for (int side = 0; side < 2; ++side) {
    auto s = [&](const glm::vec3& v) { return side == 0 ? v : Mirror(v); };
    const int o = side == 0 ? 0 : kRightShoulder - kLeftShoulder;  // arm joint offset
    const int g = side == 0 ? 0 : kRightUpLeg - kLeftUpLeg;        // leg joint offset
    const glm::vec3 arm = p[kLeftArm + o], elbow = p[kLeftForeArm + o], wrist = p[kLeftHand + o];
    glm::mat3 axes = hand_axes;
    if (side == 1) {
      for (int c = 0; c < 3; ++c) axes[c] = Mirror(axes[c]);
    }
    const glm::vec3 upper = side == 0 ? l.upper_arm_dir : Mirror(l.upper_arm_dir);
    const glm::vec3 fore = side == 0 ? l.forearm_dir : Mirror(l.forearm_dir);
    parts.push_back(Capsule(s({0.030f, 1.435f, -0.015f}), arm, 0.045f, 0.045f, kLeftShoulder + o));
    parts.push_back(Ellipsoid(arm + 0.03f * upper, {0.058f, 0.060f, 0.055f}, kLeftArm + o));
    parts.push_back(Capsule(arm, elbow, 0.048f, 0.038f, kLeftArm + o));
    parts.push_back(Capsule(elbow, wrist, 0.040f, 0.029f, kLeftForeArm + o));
    parts.push_back(
        Ellipsoid(wrist + 0.085f * fore, {0.024f, 0.092f, 0.048f}, kLeftHand + o, axes));
    const glm::vec3 hip = p[kLeftUpLeg + g], knee = p[kLeftLeg + g], ankle = p[kLeftFoot + g];
    parts.push_back(Capsule(hip, knee, 0.082f, 0.055f, kLeftUpLeg + g));
    parts.push_back(Capsule(knee, ankle, 0.052f, 0.036f, kLeftLeg + g));
    parts.push_back(Ellipsoid(knee + 0.35f * (ankle - knee) + glm::vec3(0, 0, -0.02f),
                              {0.048f, 0.100f, 0.050f}, kLeftLeg + g));
    parts.push_back(Capsule(ankle, s(l.heel), 0.036f, 0.040f, kLeftFoot + g));
    parts.push_back(Capsule(s(l.heel), s(l.ball), 0.045f, 0.035f, kLeftFoot + g));
    parts.push_back(Capsule(p[kLeftToeBase + g], s(l.toe_tip), 0.028f, 0.024f, kLeftToeBase + g));
  }
  return parts;
}

// Polynomial smooth minimum: equals min(a, b) when they differ by more than k.
float SmoothMin(float a, float b, float k) {
  const float h = std::max(k - std::abs(a - b), 0.0f) / k;
  return std::min(a, b) - h * h * k * 0.25f;
}

// A part cannot change the smooth union at points farther than its blend width (plus a grid
// cell, for the samples around the surface) from it; the field outside every part's reach is
// this "far outside" value.
constexpr float kFarOutside = kTorsoBlend + 2.0f * kGridSpacing;

float Reach(const Part& part) { return part.blend + 2.0f * kGridSpacing; }

bool NearBox(const Part& part, const glm::vec3& p, float margin) {
  return glm::all(glm::greaterThanEqual(p, part.box_min - glm::vec3(margin))) &&
         glm::all(glm::lessThanEqual(p, part.box_max + glm::vec3(margin)));
}

// The parts that can matter within `radius` of p, in body order (the smooth union is evaluated
// in that order everywhere, so a shortlist gives exactly the full field's values).
std::vector<const Part*> PartsNear(const std::vector<Part>& parts, const glm::vec3& p,
                                   float radius) {
  std::vector<const Part*> near;
  for (const Part& part : parts)
    if (NearBox(part, p, Reach(part) + radius)) near.push_back(&part);
  return near;
}

float Field(const std::vector<const Part*>& parts, const glm::vec3& p) {
  float d = kFarOutside;
  for (const Part* part : parts)
    if (NearBox(*part, p, Reach(*part))) d = SmoothMin(d, part->Distance(p), part->blend);
  return d;
}

// Central differences; not divided by the step, callers normalise or rescale.
glm::vec3 FieldGradient(const std::vector<const Part*>& parts, const glm::vec3& p) {
  const float e = 1e-3f;
  glm::vec3 g;
  for (int i = 0; i < 3; ++i) {
    glm::vec3 dp(0.0f);
    dp[i] = e;
    g[i] = Field(parts, p + dp) - Field(parts, p - dp);
  }
  return g;
}

ScalarGrid SampleField(const std::vector<Part>& parts) {
  glm::vec3 lo(1e9f), hi(-1e9f);
  for (const Part& part : parts) {
    lo = glm::min(lo, part.box_min);
    hi = glm::max(hi, part.box_max);
  }
  ScalarGrid grid;
  grid.spacing = kGridSpacing;
  // Two spare samples beyond the body on every side keep the boundary outside: a closed mesh.
  grid.origin = lo - glm::vec3(2.0f * kGridSpacing);
  grid.size = glm::ivec3(glm::ceil((hi - lo) / kGridSpacing)) + 5;
  grid.values.assign(static_cast<size_t>(grid.size.x) * grid.size.y * grid.size.z, kFarOutside);
  // Each part only touches the samples near its own box; everything else stays "far outside".
  for (const Part& part : parts) {
    const glm::ivec3 from =
        glm::max(glm::ivec3(glm::floor((part.box_min - Reach(part) - grid.origin) / kGridSpacing)),
                 glm::ivec3(0));
    const glm::ivec3 to =
        glm::min(glm::ivec3(glm::ceil((part.box_max + Reach(part) - grid.origin) / kGridSpacing)),
                 grid.size - 1);
    for (int z = from.z; z <= to.z; ++z)
      for (int y = from.y; y <= to.y; ++y)
        for (int x = from.x; x <= to.x; ++x) {
          float& v = grid.values[grid.Index(x, y, z)];
          v = SmoothMin(v, part.Distance(grid.Position(x, y, z)), part.blend);
        }
  }
  return grid;
}

// Joint-tree distances, to keep weights from leaking between parts that merely touch.
int Depth(int joint) {
  int depth = 0;
  for (int j = kParents[joint]; j >= 0; j = kParents[j]) ++depth;
  return depth;
}

// Number of bones between two joints along the tree.
int TreeDistance(int a, int b) {
  int steps = 0;
  int depth_a = Depth(a), depth_b = Depth(b);
  for (; depth_a > depth_b; --depth_a, ++steps) a = kParents[a];
  for (; depth_b > depth_a; --depth_b, ++steps) b = kParents[b];
  for (; a != b; steps += 2) {
    a = kParents[a];
    b = kParents[b];
  }
  return steps;
}

std::array<std::array<int, kJointCount>, kJointCount> TreeDistances() {
  std::array<std::array<int, kJointCount>, kJointCount> d;
  for (int a = 0; a < kJointCount; ++a)
    for (int b = 0; b < kJointCount; ++b) d[a][b] = TreeDistance(a, b);
  return d;
}

void SkinWeights(const std::vector<Part>& parts, const glm::vec3& p, glm::u16vec4* joints,
                 glm::vec4* weights) {
  static const auto tree = TreeDistances();
  std::array<float, kJointCount> distance;
  distance.fill(1e9f);
  float nearest = 1e9f;
  int nearest_joint = 0;
  for (const Part& part : parts) {
    if (!NearBox(part, p, 0.25f)) continue;
    const float d = part.Distance(p);
    distance[part.joint] = std::min(distance[part.joint], d);
    if (d < nearest) {
      nearest = d;
      nearest_joint = part.joint;
    }
  }
  std::array<std::pair<float, int>, kJointCount> w;
  for (int j = 0; j < kJointCount; ++j) {
    const float x = std::clamp((distance[j] - nearest) / kWeightBlend, 0.0f, 1.0f);
    const float falloff = 1.0f - x * x * (3.0f - 2.0f * x);  // 1 at the nearest part, 0 at blend
    w[j] = {tree[nearest_joint][j] <= 2 ? falloff : 0.0f, j};
  }
  std::stable_sort(w.begin(), w.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  float sum = 0.0f;
  for (int k = 0; k < 4; ++k) sum += w[k].first;
  for (int k = 0; k < 4; ++k) {
    (*joints)[k] = static_cast<uint16_t>(w[k].second);
    (*weights)[k] = w[k].first / sum;  // sum >= 1: the nearest joint always weighs 1
  }
}

Mesh MakeBody(const std::vector<Part>& parts, const std::vector<int>& bone_joints,
              const std::vector<glm::mat4>& inverse_binds) {
  const TriangleMesh surface = MarchingTetrahedra(SampleField(parts));
  Mesh mesh;
  mesh.name = "Body";
  mesh.skinned = true;
  mesh.material = 0;
  mesh.node = kHips;
  mesh.bone_joints = bone_joints;
  mesh.bone_inverse_binds = inverse_binds;
  mesh.indices = surface.indices;
  const size_t n = surface.positions.size();
  mesh.positions.resize(n);
  mesh.normals.resize(n);
  mesh.joints.resize(n);
  mesh.weights.resize(n);
  for (size_t i = 0; i < n; ++i) {
    // One Newton step onto the true surface removes the grid's linear-interpolation error.
    glm::vec3 p = surface.positions[i];
    const std::vector<const Part*> near = PartsNear(parts, p, kGridSpacing);
    const glm::vec3 g = FieldGradient(near, p) / 2e-3f;
    const float g2 = glm::dot(g, g);
    if (g2 > 1e-6f) {
      const glm::vec3 step = Field(near, p) * g / g2;
      if (glm::length(step) < 0.5f * kGridSpacing) p -= step;
    }
    mesh.positions[i] = p;
    const glm::vec3 normal = FieldGradient(near, p);
    const float len = glm::length(normal);
    mesh.normals[i] = len > 0.0f ? normal / len : glm::vec3(0, 1, 0);
    SkinWeights(parts, p, &mesh.joints[i], &mesh.weights[i]);
  }
  return mesh;
}

// --- animation ----------------------------------------------------------------------------

// Converts rotations authored in world axes into local rotations of the rolled rest frames.
// `world_delta[j]` turns joint j about its own position, expressed in world axes as they are when
// the parent is at rest and carried along by the parent's own motion. The local rotation is
// R_parent⁻¹ · delta · R_joint (R = rest world rotations), so a zero delta gives the rest local.
class PoseWriter {
 public:
  explicit PoseWriter(const std::array<glm::quat, kJointCount>& rest_world)
      : rest_world_(rest_world) {}

  glm::quat Local(int joint, const glm::quat& world_delta) const {
    const int parent = kParents[joint];
    const glm::quat parent_rest = parent < 0 ? glm::quat(1, 0, 0, 0) : rest_world_[parent];
    return glm::normalize(glm::inverse(parent_rest) * world_delta * rest_world_[joint]);
  }

 private:
  const std::array<glm::quat, kJointCount>& rest_world_;
};

glm::quat About(const glm::vec3& axis, float degrees) {
  return glm::angleAxis(Radians(degrees), glm::normalize(axis));
}

// Angles in the leg's side view: a direction's angle forward from straight down.
float SideAngle(const glm::vec3& v) { return std::atan2(v.z, -v.y); }

// Rotations (radians, about +X, each relative to its parent) that put the ankle at `ankle`
// with the hip at `hip`, knee forward, and the foot pitched `foot_pitch` from its rest angle.
struct LegRotations {
  float thigh, knee, foot;
};

LegRotations SolveLeg(const Layout& l, int up_leg, const glm::vec3& hip, const glm::vec3& ankle,
                      float foot_pitch) {
  const glm::vec3 rest_thigh = l.position[up_leg + 1] - l.position[up_leg];
  const glm::vec3 rest_shin = l.position[up_leg + 2] - l.position[up_leg + 1];
  const float l1 = glm::length(glm::vec2(rest_thigh.y, rest_thigh.z));
  const float l2 = glm::length(glm::vec2(rest_shin.y, rest_shin.z));
  const glm::vec3 to_ankle = ankle - hip;
  const float reach = glm::length(glm::vec2(to_ankle.y, to_ankle.z));
  const float d = std::clamp(reach, std::abs(l1 - l2) + 1e-4f, (l1 + l2) * 0.9995f);
  const float cos_hip = std::clamp((l1 * l1 + d * d - l2 * l2) / (2.0f * l1 * d), -1.0f, 1.0f);
  const float thigh_angle = SideAngle(to_ankle) + std::acos(cos_hip);  // knee in front
  const glm::vec3 knee = hip + l1 * glm::vec3(0, -std::cos(thigh_angle), std::sin(thigh_angle));
  const float shin_angle = SideAngle(ankle - knee);
  // A rotation by psi about +X turns a side angle a into a - psi.
  const float thigh = SideAngle(rest_thigh) - thigh_angle;
  const float shin = SideAngle(rest_shin) - shin_angle;
  return {thigh, shin - thigh, foot_pitch - shin};
}

struct ClipBuilder {
  Clip clip;
  std::array<int, kJointCount> channel_of_joint;

  explicit ClipBuilder(const std::string& name, float duration) {
    clip.name = name;
    clip.duration = duration;
    channel_of_joint.fill(-1);
  }
  JointAnimation& Channel(int joint) {
    if (channel_of_joint[joint] < 0) {
      channel_of_joint[joint] = static_cast<int>(clip.channels.size());
      JointAnimation a;
      a.joint = joint;
      a.rotation.interpolation = Interpolation::kLinear;
      a.translation.interpolation = Interpolation::kLinear;
      clip.channels.push_back(a);
    }
    return clip.channels[channel_of_joint[joint]];
  }
  void Rotation(int joint, float time, glm::quat q) {
    Track<glm::quat>& track = Channel(joint).rotation;
    // Keep neighbouring keys in one hemisphere so that any interpolator takes the short way.
    if (!track.values.empty() && glm::dot(track.values.back(), q) < 0.0f) q = -q;
    track.times.push_back(time);
    track.values.push_back(q);
  }
  void Translation(int joint, float time, const glm::vec3& t) {
    Track<glm::vec3>& track = Channel(joint).translation;
    track.times.push_back(time);
    track.values.push_back(t);
  }
};

// One walking cycle in place: the planted foot slides back flat on the floor at walking speed
// while the other swings forward; hips bob and turn, spine counter-turns, arms swing.
Clip MakeWalk(const Layout& l, const PoseWriter& writer) {
  const float duration = 1.0f;
  const int keys = static_cast<int>(duration * kFramesPerSecond);
  const float stride = 0.15f;  // ankle travels +-stride around its rest position
  const float stance = 0.6f;   // fraction of the cycle a foot is planted
  const float lift = 0.07f;    // ankle lift at mid-swing
  ClipBuilder b("Walk", duration);
  for (int k = 0; k <= keys; ++k) {
    const float t = static_cast<float>(k) / kFramesPerSecond;
    const float cycle = 2.0f * kPi * t / duration;
    // Heel strikes at t = 0 (left) and 0.5 (right): hips lowest there, highest at mid-stance.
    const float bob = -0.03f * (0.5f + 0.5f * std::cos(2.0f * cycle));
    const glm::quat hips_turn = About({0, 1, 0}, -5.0f * std::cos(cycle));
    const glm::vec3 hips_position = l.position[kHips] + glm::vec3(0, bob, 0);
    b.Translation(kHips, t, hips_position);
    b.Rotation(kHips, t, writer.Local(kHips, hips_turn));
    for (int side = 0; side < 2; ++side) {
      const int up_leg = side == 0 ? kLeftUpLeg : kRightUpLeg;
      const float phase = std::fmod(t / duration + (side == 0 ? 0.0f : 0.5f), 1.0f);
      glm::vec3 ankle = l.position[up_leg + 2];
      float foot_pitch = 0.0f;
      if (phase < stance) {
        ankle.z += stride * (1.0f - 2.0f * phase / stance);
      } else {
        const float u = (phase - stance) / (1.0f - stance);
        ankle.z += stride * (-1.0f + 2.0f * (0.5f - 0.5f * std::cos(kPi * u)));
        ankle.y += lift * std::sin(kPi * u);
        foot_pitch = Radians(12.0f) * std::sin(kPi * u);  // toes hang during the swing
      }
      const glm::vec3 hip = hips_position + hips_turn * (l.position[up_leg] - l.position[kHips]);
      const LegRotations leg = SolveLeg(l, up_leg, hip, ankle, foot_pitch);
      const glm::vec3 x(1, 0, 0);
      // The thigh also undoes the hips' turn so that the leg works in world axes.
      b.Rotation(up_leg, t,
                 writer.Local(up_leg, glm::inverse(hips_turn) * glm::angleAxis(leg.thigh, x)));
      b.Rotation(up_leg + 1, t, writer.Local(up_leg + 1, glm::angleAxis(leg.knee, x)));
      b.Rotation(up_leg + 2, t, writer.Local(up_leg + 2, glm::angleAxis(leg.foot, x)));
      // Arms swing against the leg on their side; elbows bend more on the forward swing.
      const int arm = side == 0 ? kLeftArm : kRightArm;
      const float swing = (side == 0 ? 1.0f : -1.0f) * std::cos(cycle);  // +1: arm back
      const glm::vec3 upper = side == 0 ? l.upper_arm_dir : Mirror(l.upper_arm_dir);
      const glm::vec3 fore = side == 0 ? l.forearm_dir : Mirror(l.forearm_dir);
      const glm::vec3 hinge = glm::cross(upper, fore);
      b.Rotation(arm, t, writer.Local(arm, About(x, 16.0f * swing)));
      b.Rotation(arm + 1, t,
                 writer.Local(arm + 1, About(hinge, 6.0f + 12.0f * std::max(0.0f, -swing))));
    }
    // Chest turns against the hips; neck and head bring the gaze back to straight ahead.
    const glm::vec3 up(0, 1, 0);
    const glm::quat lean = About({1, 0, 0}, 3.0f);
    b.Rotation(kSpine, t, writer.Local(kSpine, About(up, 3.0f * std::cos(cycle))));
    b.Rotation(kSpine1, t, writer.Local(kSpine1, lean * About(up, 3.0f * std::cos(cycle))));
    b.Rotation(kSpine2, t, writer.Local(kSpine2, About(up, 3.0f * std::cos(cycle))));
    b.Rotation(kNeck, t, writer.Local(kNeck, About(up, -2.0f * std::cos(cycle))));
    b.Rotation(kHead, t,
               writer.Local(kHead, glm::inverse(lean) * About(up, -2.0f * std::cos(cycle))));
  }
  return b.clip;
}

// Standing still: breathing, a slow look around, arms and shoulders drifting.
Clip MakeIdle(const PoseWriter& writer) {
  const float duration = 2.0f;
  const int keys = static_cast<int>(duration * kFramesPerSecond);
  ClipBuilder b("Idle", duration);
  for (int k = 0; k <= keys; ++k) {
    const float t = static_cast<float>(k) / kFramesPerSecond;
    const float breath = std::sin(2.0f * kPi * t / duration);
    const float drift = std::sin(2.0f * kPi * t / duration + 1.3f);
    const glm::vec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    b.Rotation(kSpine1, t, writer.Local(kSpine1, About(x, -1.2f * breath)));
    b.Rotation(kSpine2, t, writer.Local(kSpine2, About(x, -0.8f * breath)));
    b.Rotation(kHead, t, writer.Local(kHead, About(y, 6.0f * drift) * About(x, 1.0f * breath)));
    b.Rotation(kLeftShoulder, t, writer.Local(kLeftShoulder, About(z, 1.5f * breath)));
    b.Rotation(kRightShoulder, t, writer.Local(kRightShoulder, About(z, -1.5f * breath)));
    b.Rotation(kLeftArm, t, writer.Local(kLeftArm, About(x, 3.0f * drift)));
    b.Rotation(kRightArm, t, writer.Local(kRightArm, About(x, -2.0f * drift)));
  }
  return b.clip;
}

}  // namespace

Model MakeBuiltinCharacter() {
  const Layout layout = MakeLayout();
  std::array<glm::quat, kJointCount> rest_world;
  std::vector<ik::JointDesc> joints(kJointCount);
  for (int j = 0; j < kJointCount; ++j) {
    rest_world[j] = glm::normalize(
        glm::quat_cast(BoneFrame(layout.position[j], layout.tip[j], kRollDegrees[j])));
    ik::JointDesc& desc = joints[j];
    desc.name = kNames[j];
    desc.parent = kParents[j];
    if (desc.parent < 0) {
      desc.rest.translation = layout.position[j];
      desc.rest.rotation = rest_world[j];
    } else {
      const glm::quat parent_inverse = glm::inverse(rest_world[desc.parent]);
      desc.rest.translation = parent_inverse * (layout.position[j] - layout.position[desc.parent]);
      desc.rest.rotation = glm::normalize(parent_inverse * rest_world[j]);
    }
  }
  std::string error;
  Model model;
  model.source = "<built-in>";
  model.skeleton = *ik::Skeleton::Build(joints, &error);  // cannot fail: data above is valid
  model.is_bone.assign(kJointCount, true);

  std::vector<int> bone_joints(kJointCount);
  for (int j = 0; j < kJointCount; ++j) bone_joints[j] = j;
  model.meshes.push_back(MakeBody(MakeParts(layout), bone_joints, model.skeleton.inverse_binds()));

  Material material;
  material.name = "Mannequin";
  material.base_color = glm::vec4(0.74f, 0.67f, 0.60f, 1.0f);  // light warm grey, like a wood-free
                                                               // artist's mannequin
  model.materials.push_back(material);

  const PoseWriter writer(rest_world);
  model.clips.push_back(MakeWalk(layout, writer));
  model.clips.push_back(MakeIdle(writer));
  for (Clip& clip : model.clips) PrepareClip(&clip);
  return model;
}

}  // namespace assets
