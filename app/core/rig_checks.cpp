// Rig checks: each rule reads facts the rest of skelview already computes (the importer's load
// warnings and weight flags, CheckWeights, BuildBodyRig's limbs and bend axes, the two-bone solver,
// clip sampling, CPU skinning); the few facts nothing else needs (bind against rest, mesh against
// skeleton, translation key ranges) are small functions here.
#include "app/core/rig_checks.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <map>

#include "app/core/evaluate.h"
#include "assets/model/skinning.h"
#include "assets/model/weight_check.h"
#include "ik/body/full_body.h"
#include "ik/core/kinematics.h"
#include "ik/two_bone/two_bone_ik.h"

namespace app {

namespace {

// printf into a std::string.
__attribute__((format(printf, 1, 2))) std::string Format(const char* format, ...) {
  va_list args;
  va_start(args, format);
  char buffer[512];
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  return buffer;
}

std::string Named(const char* what, const std::string& name) {
  return std::string(what) + " '" + name + "'";
}

// A length for messages: 4 significant digits.
std::string Length(float value) { return Format("%.4g", static_cast<double>(value)); }

// Collects findings: the severity from the config, rules turned off dropped, at most
// kMaxFindingsPerRule per rule and then a count of the rest.
class FindingList {
 public:
  explicit FindingList(const RuleConfig& config) : config_(config) {}

  bool Enabled(const char* rule) const { return config_.Of(rule) != Severity::kOff; }

  void Add(const std::string& rule, std::string message, std::string location = {}) {
    const Severity severity = config_.Of(rule);
    if (severity == Severity::kOff) return;
    if (++counts_[rule] > kMaxFindingsPerRule) return;
    findings_.push_back({rule, severity, std::move(message), std::move(location)});
  }

  // The findings ordered by rule (Rules() order), then as added.
  std::vector<Finding> Take() {
    for (const auto& [rule, count] : counts_) {
      if (count <= kMaxFindingsPerRule) continue;
      findings_.push_back({rule, config_.Of(rule),
                           Format("%d more findings of this rule in this file were left out",
                                  count - kMaxFindingsPerRule),
                           ""});
    }
    std::stable_sort(findings_.begin(), findings_.end(), [](const Finding& a, const Finding& b) {
      return FindRule(a.rule) < FindRule(b.rule);
    });
    return std::move(findings_);
  }

 private:
  const RuleConfig& config_;
  std::map<std::string, int> counts_;
  std::vector<Finding> findings_;
};

// What several rules measure against: the model's size and where each mesh lies at rest.
struct ModelFacts {
  // Diagonal of the rest pose's bounds (skinned meshes and deforming joints; all joints when no
  // joint deforms), at least a tiny positive length so that relative tolerances stay defined.
  float size = 1.0f;
  float height = 1.0f;          // the same bounds' extent along +Y
  float skeleton_size = 1.0f;   // diagonal of the deforming joints' (or all joints') positions
  bool has_skin = false;        // some mesh is skinned
  std::vector<bool> bone_tree;  // per joint: a deforming joint or an ancestor of one
  std::vector<assets::Bounds> rest_mesh_bounds;  // per mesh, skinned at rest
};

glm::vec3 Position(const glm::mat4& m) { return glm::vec3(m[3]); }

ModelFacts MeasureFacts(const assets::Model& model) {
  ModelFacts facts;
  const ik::Skeleton& skeleton = model.skeleton;
  const int joints = skeleton.joint_count();
  const std::vector<glm::mat4>& rest = skeleton.rest_models();
  auto is_bone = [&](int j) {
    return j < static_cast<int>(model.is_bone.size()) && model.is_bone[static_cast<size_t>(j)];
  };
  bool any_bone = false;
  for (int j = 0; j < joints; ++j) any_bone = any_bone || is_bone(j);
  facts.bone_tree.assign(static_cast<size_t>(joints), false);
  for (int j = joints - 1; j >= 0; --j) {  // children come after their parents
    if (is_bone(j)) facts.bone_tree[static_cast<size_t>(j)] = true;
    const int parent = skeleton.parent(j);
    if (parent >= 0 && facts.bone_tree[static_cast<size_t>(j)]) {
      facts.bone_tree[static_cast<size_t>(parent)] = true;
    }
  }
  assets::Bounds skeleton_bounds;
  for (int j = 0; j < joints; ++j) {
    if (!any_bone || is_bone(j)) skeleton_bounds.Add(Position(rest[static_cast<size_t>(j)]));
  }
  assets::Bounds all = skeleton_bounds;
  std::vector<glm::vec3> skinned;
  for (const assets::Mesh& mesh : model.meshes) {
    facts.has_skin = facts.has_skin || mesh.skinned;
    assets::SkinMesh(mesh, rest, &skinned, nullptr);
    assets::Bounds bounds;
    for (const glm::vec3& p : skinned) bounds.Add(p);
    facts.rest_mesh_bounds.push_back(bounds);
    if (!bounds.empty()) {
      all.Add(bounds.min);
      all.Add(bounds.max);
    }
  }
  constexpr float kTiny = 1e-6f;
  facts.size = std::max(all.diagonal(), kTiny);
  facts.height = std::max(all.size().y, kTiny);
  facts.skeleton_size = std::max(skeleton_bounds.diagonal(), kTiny);
  return facts;
}

// --- load warnings --------------------------------------------------------------------------

bool Contains(const std::string& text, const char* part) {
  return text.find(part) != std::string::npos;
}

void CheckLoadWarnings(const assets::Model& model, FindingList* out) {
  for (const std::string& warning : model.warnings) {
    const std::string rule = RuleOfLoadWarning(warning);
    if (!rule.empty()) out->Add(rule, warning);
  }
}

// --- skin weights ---------------------------------------------------------------------------

void CheckSkinWeights(const assets::Model& model, FindingList* out) {
  const assets::WeightProblems problems = assets::CheckWeights(model);
  struct Kind {
    assets::WeightProblem problem;
    const char* rule;
    const char* what;
  };
  const Kind kinds[] = {
      {assets::WeightProblem::kNotNormalized, "weights.not-normalized",
       "have skin weights not summing to 1 (renormalised on import)"},
      {assets::WeightProblem::kUnweighted, "weights.unweighted",
       "of skinned meshes have no weight: no joint moves them"},
      {assets::WeightProblem::kTooManyInfluences, "weights.too-many-influences",
       "have more than 8 joint influences (the 8 largest were kept)"},
  };
  for (const Kind& kind : kinds) {
    const uint64_t total = problems.count(kind.problem);
    if (total == 0 || !out->Enabled(kind.rule)) continue;
    const int k = static_cast<int>(kind.problem);
    size_t meshes = 0, first = 0;
    for (size_t m = 0; m < problems.meshes.size(); ++m) {
      if (problems.meshes[m].vertices[static_cast<size_t>(k)].empty()) continue;
      if (meshes++ == 0) first = m;
    }
    const std::string& mesh_name = model.meshes[first].name;
    const uint32_t vertex = problems.meshes[first].vertices[static_cast<size_t>(k)].front();
    std::string where =
        meshes == 1 ? " in " + Named("mesh", mesh_name) : Format(" in %zu meshes", meshes);
    out->Add(
        kind.rule,
        Format("%" PRIu64 " %s %s", total, total == 1 ? "vertex" : "vertices", kind.what) + where,
        Named("mesh", mesh_name) + Format(", vertex %u", vertex));
  }
  if (model.influences.over_four > 0) {
    out->Add("weights.over-four-influences",
             Format("%" PRIu64 " vertices use more than 4 joints (up to 8 are kept)",
                    model.influences.over_four));
  }
}

// --- skins ----------------------------------------------------------------------------------

// Per mesh bone: whether some vertex gives it a weight.
std::vector<bool> UsedBones(const assets::Mesh& mesh) {
  std::vector<bool> used(mesh.bone_joints.size(), false);
  auto mark = [&](const std::vector<glm::u16vec4>& joints, const std::vector<glm::vec4>& weights) {
    const size_t n = std::min(joints.size(), weights.size());
    for (size_t v = 0; v < n; ++v) {
      for (int k = 0; k < 4; ++k) {
        if (weights[v][k] > 0.0f && joints[v][k] < used.size()) used[joints[v][k]] = true;
      }
    }
  };
  mark(mesh.joints, mesh.weights);
  mark(mesh.extra_joints, mesh.extra_weights);
  return used;
}

// Whether the rest pose is the bind pose, per skinned mesh. A used bone's rest model matrix times
// its inverse bind, M_b, is where the rest pose puts the vertices bound to it; when the rest pose
// is the bind pose every M_b is the same matrix (the identity, or one placement of the whole mesh
// such as an armature's turn), so the mesh is not deformed at rest. The reference is the M_b that
// most other bones agree with; bones whose M_b moves a corner of the mesh's bind-space bounds by
// more than 1% of its size away from the reference's are out of their bind pose.
void CheckBindPose(const assets::Model& model, const ModelFacts&, FindingList* out) {
  const std::vector<glm::mat4>& rest = model.skeleton.rest_models();
  constexpr size_t kMaxCompared = 512;  // more used bones: the first is the reference
  for (const assets::Mesh& mesh : model.meshes) {
    if (!mesh.skinned || mesh.positions.empty()) continue;
    assets::Bounds bind;
    for (const glm::vec3& p : mesh.positions) bind.Add(p);
    const float mesh_size = bind.diagonal();
    if (!(mesh_size > 0.0f)) continue;
    glm::vec3 corners[8];
    for (int c = 0; c < 8; ++c) {
      corners[c] = glm::vec3((c & 1) ? bind.max.x : bind.min.x, (c & 2) ? bind.max.y : bind.min.y,
                             (c & 4) ? bind.max.z : bind.min.z);
    }
    const std::vector<bool> used = UsedBones(mesh);
    std::vector<glm::mat4> at_rest;
    std::vector<int> joints;
    for (size_t b = 0; b < mesh.bone_joints.size() && b < mesh.bone_inverse_binds.size(); ++b) {
      const int joint = mesh.bone_joints[b];
      if (!used[b] || joint < 0 || static_cast<size_t>(joint) >= rest.size()) continue;
      at_rest.push_back(rest[static_cast<size_t>(joint)] * mesh.bone_inverse_binds[b]);
      joints.push_back(joint);
    }
    auto apart = [&](const glm::mat4& a, const glm::mat4& b) {
      float most = 0.0f;
      for (const glm::vec3& c : corners) {
        most = std::max(most, glm::length(glm::vec3(a * glm::vec4(c, 1.0f)) -
                                          glm::vec3(b * glm::vec4(c, 1.0f))));
      }
      return std::isfinite(most) ? most : INFINITY;
    };
    const float tolerance = 0.01f * mesh_size;
    size_t reference = 0;
    if (at_rest.size() <= kMaxCompared) {
      size_t best_agreeing = 0;
      for (size_t r = 0; r < at_rest.size(); ++r) {
        size_t agreeing = 0;
        for (const glm::mat4& m : at_rest) agreeing += apart(at_rest[r], m) <= tolerance ? 1 : 0;
        if (agreeing > best_agreeing) {
          best_agreeing = agreeing;
          reference = r;
        }
      }
    }
    float worst = 0.0f;
    int worst_joint = -1, moved = 0;
    for (size_t b = 0; b < at_rest.size(); ++b) {
      const float distance = apart(at_rest[b], at_rest[reference]);
      if (distance <= tolerance) continue;
      ++moved;
      if (distance > worst) {
        worst = distance;
        worst_joint = joints[b];
      }
    }
    if (moved == 0) continue;
    out->Add(
        "skin.inverse-bind-mismatch",
        Format("%d of the %zu bones of ", moved, at_rest.size()) + Named("mesh", mesh.name) +
            " are not at rest where they were bound (their inverse bind matrices do not " +
            "match the rest pose): the mesh is deformed at rest, by up to " + Length(worst) +
            Format(" (%.0f%% of its size) at ", 100.0 * static_cast<double>(worst / mesh_size)) +
            Named("joint", model.skeleton.name(worst_joint)),
        Named("mesh", mesh.name));
  }
}

// A skinned mesh against the joints that move it, both at rest: apart by more than the larger of
// the two sizes, or one 20 times the other's size.
void CheckMeshPlacement(const assets::Model& model, const ModelFacts& facts, FindingList* out) {
  const std::vector<glm::mat4>& rest = model.skeleton.rest_models();
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    const assets::Mesh& mesh = model.meshes[m];
    const assets::Bounds& mesh_bounds = facts.rest_mesh_bounds[m];
    if (!mesh.skinned || mesh_bounds.empty()) continue;
    const std::vector<bool> used = UsedBones(mesh);
    assets::Bounds joints;
    int used_joints = 0;
    for (size_t b = 0; b < mesh.bone_joints.size(); ++b) {
      const int joint = mesh.bone_joints[b];
      if (!used[b] || joint < 0 || static_cast<size_t>(joint) >= rest.size()) continue;
      joints.Add(Position(rest[static_cast<size_t>(joint)]));
      ++used_joints;
    }
    if (joints.empty()) continue;
    const float mesh_size = mesh_bounds.diagonal(), joints_size = joints.diagonal();
    glm::vec3 gap(0.0f);
    for (int a = 0; a < 3; ++a) {
      gap[a] =
          std::max({0.0f, joints.min[a] - mesh_bounds.max[a], mesh_bounds.min[a] - joints.max[a]});
    }
    const float distance = glm::length(gap);
    if (distance > std::max(mesh_size, joints_size)) {
      out->Add("mesh.far-from-skeleton",
               Named("mesh", mesh.name) + " at rest lies " + Length(distance) +
                   " away from the joints that move it (its size " + Length(mesh_size) +
                   ", theirs " + Length(joints_size) + ")",
               Named("mesh", mesh.name));
    } else if (used_joints >= 2 && joints_size > 0.0f &&
               (mesh_size > 20.0f * joints_size || joints_size > 20.0f * mesh_size)) {
      const bool larger = mesh_size > joints_size;
      out->Add("mesh.far-from-skeleton",
               Named("mesh", mesh.name) +
                   Format(" is %.0fx %s than the joints that move it",
                          static_cast<double>(larger ? mesh_size / joints_size
                                                     : joints_size / mesh_size),
                          larger ? "larger" : "smaller") +
                   " (a unit mismatch between mesh and skeleton?)",
               Named("mesh", mesh.name));
    }
  }
}

// --- bones ----------------------------------------------------------------------------------

float ScaleSpread(const glm::vec3& s) {
  const glm::vec3 a = glm::abs(s);
  const float low = std::min({a.x, a.y, a.z}), high = std::max({a.x, a.y, a.z});
  return low > 0.0f ? high / low - 1.0f : (high > 0.0f ? INFINITY : 0.0f);
}

constexpr float kScaleTolerance = 1e-3f;  // relative spread of a scale's components

void CheckBones(const assets::Model& model, const ModelFacts& facts, FindingList* out) {
  const ik::Skeleton& skeleton = model.skeleton;
  const std::vector<glm::mat4>& rest = skeleton.rest_models();
  for (int j = 0; j < skeleton.joint_count(); ++j) {
    const bool bone =
        j < static_cast<int>(model.is_bone.size()) && model.is_bone[static_cast<size_t>(j)];
    const std::vector<int>& children = skeleton.children(j);
    if (bone && children.size() == 1) {
      const int child = children[0];
      const float length = glm::length(Position(rest[static_cast<size_t>(child)]) -
                                       Position(rest[static_cast<size_t>(j)]));
      if (length <= 1e-4f * facts.skeleton_size) {
        out->Add("bone.zero-length",
                 Named("joint", skeleton.name(j)) + " and its only child " +
                     Named("joint", skeleton.name(child)) +
                     " are at the same place: the bone has no length or direction",
                 Named("joint", skeleton.name(j)));
      }
    }
    if (!facts.bone_tree[static_cast<size_t>(j)]) continue;
    const glm::vec3 s = skeleton.rest_locals()[static_cast<size_t>(j)].scale;
    if (ScaleSpread(s) > kScaleTolerance) {
      out->Add("bone.non-uniform-scale",
               Named("joint", skeleton.name(j)) + " is scaled non-uniformly at rest (" +
                   Length(s.x) + ", " + Length(s.y) + ", " + Length(s.z) + ")",
               Named("joint", skeleton.name(j)));
    }
    if (s.x * s.y * s.z < 0.0f) {
      out->Add("bone.negative-scale",
               Named("joint", skeleton.name(j)) + " is mirrored at rest (scale " + Length(s.x) +
                   ", " + Length(s.y) + ", " + Length(s.z) + ")",
               Named("joint", skeleton.name(j)));
    }
  }
  for (const assets::Clip& clip : model.clips) {
    for (const assets::JointAnimation& channel : clip.channels) {
      if (channel.joint < 0 || channel.joint >= skeleton.joint_count() ||
          !facts.bone_tree[static_cast<size_t>(channel.joint)]) {
        continue;
      }
      const std::vector<glm::vec3>& keys = channel.scale.values;
      const auto bad = std::find_if(keys.begin(), keys.end(), [](const glm::vec3& s) {
        return ScaleSpread(s) > kScaleTolerance;
      });
      if (bad == keys.end()) continue;
      out->Add("bone.non-uniform-scale",
               Named("clip", clip.name) + " scales " +
                   Named("joint", skeleton.name(channel.joint)) + " non-uniformly (e.g. " +
                   Length(bad->x) + ", " + Length(bad->y) + ", " + Length(bad->z) + ")",
               Named("clip", clip.name) + ", " + Named("joint", skeleton.name(channel.joint)));
    }
  }
}

// --- limbs and IK ---------------------------------------------------------------------------

const char* LimbPart(ik::LimbKind kind, bool upper) {
  if (kind == ik::LimbKind::kLeg) return upper ? "thigh" : "shin";
  return upper ? "upper arm" : "forearm";
}

void CheckLimbPairs(const ik::Skeleton& skeleton, const ik::BodyRig& rig, FindingList* out) {
  const std::vector<glm::mat4>& rest = skeleton.rest_models();
  auto length = [&](int a, int b) {
    return glm::length(Position(rest[static_cast<size_t>(b)]) -
                       Position(rest[static_cast<size_t>(a)]));
  };
  for (ik::LimbKind kind : {ik::LimbKind::kLeg, ik::LimbKind::kArm}) {
    const ik::Limb* left = nullptr;
    const ik::Limb* right = nullptr;
    for (const ik::BodyLimb& body_limb : rig.limbs) {
      const ik::Limb& limb = body_limb.limb;
      if (limb.kind != kind) continue;
      if (limb.side == ik::LimbSide::kLeft) left = &limb;
      if (limb.side == ik::LimbSide::kRight) right = &limb;
    }
    if ((left == nullptr) != (right == nullptr)) {
      const ik::Limb& found = left ? *left : *right;
      out->Add("limbs.not-found",
               "found " + found.label + " (" + Named("joint", skeleton.name(found.chain.end)) +
                   ") but no " + (left ? "right" : "left") + " " + ik::LimbKindName(kind) +
                   " to mirror it",
               Named("joint", skeleton.name(found.chain.end)));
      continue;
    }
    if (!left) continue;
    for (bool upper : {true, false}) {
      const float l = upper ? length(left->chain.start, left->chain.mid)
                            : length(left->chain.mid, left->chain.end);
      const float r = upper ? length(right->chain.start, right->chain.mid)
                            : length(right->chain.mid, right->chain.end);
      const float longer = std::max(l, r);
      if (!(longer > 0.0f) || std::abs(l - r) <= 0.05f * longer) continue;
      const int left_joint = upper ? left->chain.start : left->chain.mid;
      const int right_joint = upper ? right->chain.start : right->chain.mid;
      out->Add("limbs.asymmetric",
               std::string("the left and right ") + LimbPart(kind, upper) + " differ by " +
                   Format("%.0f%%", 100.0 * static_cast<double>(std::abs(l - r) / longer)) + ": " +
                   Named("joint", skeleton.name(left_joint)) + " " + Length(l) + ", " +
                   Named("joint", skeleton.name(right_joint)) + " " + Length(r),
               Named("joint", skeleton.name(left_joint)) + ", " +
                   Named("joint", skeleton.name(right_joint)));
    }
  }
}

// The limb's two-bone solve with the viewer's defaults (the hinge where the rest pose shows the
// bend, about the rest bend axis) from the rest pose, for a target at the end's rest position and
// for one moved 20% of the limb toward its start (when that stays within reach).
void CheckLimbReach(const ik::Skeleton& skeleton, const ik::BodyLimb& body_limb, FindingList* out) {
  const ik::TwoBoneChain& chain = body_limb.limb.chain;
  const std::vector<glm::mat4>& rest = skeleton.rest_models();
  const glm::vec3 start = Position(rest[static_cast<size_t>(chain.start)]);
  const glm::vec3 mid = Position(rest[static_cast<size_t>(chain.mid)]);
  const glm::vec3 end = Position(rest[static_cast<size_t>(chain.end)]);
  const float upper = glm::length(mid - start), lower = glm::length(end - mid);
  const float reach = upper + lower, span = glm::length(end - start);
  if (!(reach > 0.0f)) return;
  std::vector<std::pair<const char*, glm::vec3>> targets = {{"its rest end position", end}};
  if (span - 0.2f * reach > std::abs(upper - lower) + 0.01f * reach) {
    targets.push_back({"its end moved 20% of the limb toward its start",
                       end + (0.2f * reach / span) * (start - end)});
  }
  ik::TwoBoneIkOptions options;
  options.bend_axis_local = body_limb.bend_axis_local;
  options.hinge = body_limb.bend_axis_local.has_value();
  for (const auto& [what, position] : targets) {
    ik::Pose pose = ik::Pose::Rest(skeleton);
    std::vector<glm::mat4> models = rest;
    ik::TwoBoneTarget target;
    target.position = position;
    const ik::TwoBoneIkResult result =
        ik::SolveTwoBoneIkPose(skeleton, chain, target, options, &pose, &models);
    if (result.error <= 1e-3f * reach) continue;
    out->Add("ik.unreachable-rest",
             body_limb.limb.label + ": two-bone IK misses " + what + " by " + Length(result.error) +
                 Format(" (%.1f%% of the limb; %s, fallback %s)",
                        100.0 * static_cast<double>(result.error / reach),
                        ik::CaseName(result.solve_case), ik::FallbackName(result.fallback)),
             Named("joint", skeleton.name(chain.end)));
    return;
  }
}

void CheckLimbs(const assets::Model& model, const ModelFacts& facts, const ik::BodyRig* rig,
                FindingList* out) {
  if (!facts.has_skin) return;
  const ik::Skeleton& skeleton = model.skeleton;
  if (!rig) {
    out->Add("limbs.not-found",
             "no arm or leg found (by joint names or left/right symmetry): the viewer makes no IK "
             "handles for this rig");
    return;
  }
  CheckLimbPairs(skeleton, *rig, out);
  for (const ik::BodyLimb& body_limb : rig->limbs) {
    const ik::TwoBoneChain& chain = body_limb.limb.chain;
    if (!body_limb.bend_axis_local) {
      out->Add("limbs.straight-at-rest",
               body_limb.limb.label + " (" + Named("joint", skeleton.name(chain.start)) + ", " +
                   Named("joint", skeleton.name(chain.mid)) + ", " +
                   Named("joint", skeleton.name(chain.end)) +
                   ") is straight at rest: nothing shows which way the " +
                   (body_limb.limb.kind == ik::LimbKind::kLeg ? "knee" : "elbow") +
                   " bends, so IK may bend it either way",
               Named("joint", skeleton.name(chain.mid)));
    }
    if (out->Enabled("ik.unreachable-rest")) CheckLimbReach(skeleton, body_limb, out);
  }
}

// --- clips ----------------------------------------------------------------------------------

// The joint whose translation carries a clip's root motion: the body rig's hips, else the first
// deforming joint (parents come first), else the first joint.
int RootMotionJoint(const assets::Model& model, const ik::BodyRig* rig) {
  if (rig && rig->hips >= 0) return rig->hips;
  for (size_t j = 0; j < model.is_bone.size(); ++j) {
    if (model.is_bone[j]) return static_cast<int>(j);
  }
  return model.skeleton.empty() ? -1 : 0;
}

void CheckClips(const Character& character, const ModelFacts& facts, const ik::BodyRig* rig,
                FindingList* out) {
  const assets::Model& model = character.model();
  const ik::Skeleton& skeleton = model.skeleton;
  const int root_motion = RootMotionJoint(model, rig);
  const std::vector<glm::mat4>& rest = skeleton.rest_models();
  for (size_t c = 0; c < model.clips.size(); ++c) {
    const assets::Clip& clip = model.clips[c];
    const std::string where = Named("clip", clip.name);
    if (clip.channels.empty() && clip.morph_channels.empty()) {
      out->Add("clip.empty", where + " moves no joint and no morph weight", where);
      continue;
    }
    // Translation keys, as offsets from the rest translation turned into model space by the
    // parent's rest frame. The root-motion joint and its ancestors may travel far across the
    // ground; every other joint stays within a few sizes of the model.
    for (const assets::JointAnimation& channel : clip.channels) {
      const int joint = channel.joint;
      if (joint < 0 || joint >= skeleton.joint_count() || channel.translation.empty()) continue;
      const int parent = skeleton.parent(joint);
      const glm::mat3 frame =
          parent >= 0 ? glm::mat3(rest[static_cast<size_t>(parent)]) : glm::mat3(1.0f);
      const glm::vec3 rest_t = skeleton.rest_locals()[static_cast<size_t>(joint)].translation;
      const bool carrier = root_motion >= 0 && skeleton.IsAncestorOrSelf(joint, root_motion);
      float worst = 0.0f, worst_distance = 0.0f;
      const char* worst_way = "";
      for (const glm::vec3& key : channel.translation.values) {
        const glm::vec3 offset = frame * (key - rest_t);
        struct Way {
          float distance, limit;
          const char* name;
        };
        const Way ways[2] = {carrier ? Way{std::abs(offset.y), 10.0f * facts.size, " vertically"}
                                     : Way{glm::length(offset), 10.0f * facts.size, ""},
                             carrier ? Way{glm::length(glm::vec2(offset.x, offset.z)),
                                           1000.0f * facts.size, " across the ground"}
                                     : Way{0.0f, 1.0f, ""}};
        for (const Way& way : ways) {
          const float over = way.distance / way.limit;
          if (over > 1.0f && !(over <= worst)) {
            worst = over;
            worst_distance = way.distance;
            worst_way = way.name;
          }
        }
      }
      if (worst > 0.0f) {
        out->Add("clip.huge-translation",
                 where + " moves " + Named("joint", skeleton.name(joint)) + " " +
                     Length(worst_distance) + worst_way + " from its rest position, " +
                     Format("%.0f", static_cast<double>(worst_distance / facts.size)) +
                     " times the model's size (" + Length(facts.size) + ")",
                 where + ", " + Named("joint", skeleton.name(joint)));
      }
    }
    if (root_motion < 0 || !out->Enabled("clip.root-motion")) continue;
    glm::vec3 at[2];
    for (int i = 0; i < 2; ++i) {
      ik::Pose pose;
      SamplePose(character, ClipTime{static_cast<int>(c), i == 0 ? 0.0f : clip.duration}, &pose);
      std::vector<glm::mat4> models;
      ik::LocalToModel(skeleton, pose, &models);
      at[i] = Position(models[static_cast<size_t>(root_motion)]);
    }
    const float travel = glm::length(glm::vec2(at[1].x - at[0].x, at[1].z - at[0].z));
    if (travel > 0.5f * facts.height) {
      out->Add("clip.root-motion",
               where + " moves " + Named("joint", skeleton.name(root_motion)) + " " +
                   Length(travel) + " across the ground from start to end (root motion; the " +
                   "model is " + Length(facts.height) + " tall)",
               where);
    }
  }
}

// --- morph targets --------------------------------------------------------------------------

void CheckMorphTargets(const assets::Model& model, const ModelFacts& facts, FindingList* out) {
  const float tolerance = 1e-6f * facts.size;
  auto largest = [](const std::vector<glm::vec3>& deltas) {
    float most = 0.0f;
    for (const glm::vec3& d : deltas) most = std::max(most, glm::length(d));
    return most;
  };
  for (const assets::Mesh& mesh : model.meshes) {
    for (size_t t = 0; t < mesh.targets.size(); ++t) {
      const assets::MorphTarget& target = mesh.targets[t];
      if (largest(target.positions) > tolerance || largest(target.normals) > 1e-6f) continue;
      const std::string name =
          target.name.empty() ? Format("morph target %zu", t) : Named("morph target", target.name);
      out->Add("morph.no-effect",
               Named("mesh", mesh.name) + ": " + name +
                   " has no non-zero delta: it changes nothing at any weight",
               Named("mesh", mesh.name) + ", " + name);
    }
  }
}

}  // namespace

std::string RuleOfLoadWarning(const std::string& warning) {
  if (Contains(warning, "not valid UTF-8")) return "names.not-utf8";
  if (Contains(warning, "skelview does not read; loaded without")) return "extension.unsupported";
  if (Contains(warning, "had the same name as an earlier node") ||
      Contains(warning, "renamed to keep joint names unique") ||
      Contains(warning, "used by several nodes")) {
    return "names.duplicate";
  }
  if (Contains(warning, "rotation quaternion")) return "rotation.non-unit";
  if (Contains(warning, "with non-increasing times or non-finite values")) return "clip.non-finite";
  if (Contains(warning, "refers to no node") || Contains(warning, "refer to no node")) {
    return "skin.joint-outside-scene";
  }
  if (warning.rfind("texture ", 0) == 0 && Contains(warning, "could not be loaded")) {
    return "texture.missing";
  }
  if (Contains(warning, "joint influences: kept the 4 largest")) {
    return "weights.over-four-influences";
  }
  // Reported from the weights and clips themselves.
  if (Contains(warning, "joint influences: kept the 8 largest") ||
      Contains(warning, "weights not summing to 1") || Contains(warning, " no weight; ") ||
      Contains(warning, "no joint and no morph weight")) {
    return "";
  }
  return "load.repaired";
}

std::vector<Finding> CheckModel(const assets::Model& model, const RuleConfig& config) {
  FindingList out(config);
  const ModelFacts facts = MeasureFacts(model);
  // The rig's facts as every frame finds them (limbs, body rig), found once.
  const Character character(model);
  const ik::BodyRig* rig = facts.has_skin ? character.body_rig() : nullptr;
  CheckLoadWarnings(model, &out);
  CheckSkinWeights(model, &out);
  CheckBindPose(model, facts, &out);
  CheckMeshPlacement(model, facts, &out);
  CheckBones(model, facts, &out);
  CheckLimbs(model, facts, rig, &out);
  CheckClips(character, facts, rig, &out);
  CheckMorphTargets(model, facts, &out);
  return out.Take();
}

std::vector<Finding> LoadFailureFindings(const std::string& error, const RuleConfig& config) {
  FindingList out(config);
  out.Add("load", error);
  return out.Take();
}

}  // namespace app
