// Full-body IK: the options, the body rig (limbs, hips, spine) and the validation of a job; the
// solve itself (the body iterations and the limbs' two-bone solves) is in full_body_solve.cpp.
#include "ik/body/full_body.h"

#include <algorithm>
#include <cmath>

#include "ik/body/full_body_solve.h"
#include "ik/body/limbs.h"
#include "ik/core/constraint_util.h"
#include "ik/core/rotation.h"

namespace ik {

namespace {

using internal::BodyRole;

int LowestCommonAncestor(const Skeleton& skeleton, int a, int b) {
  if (a < 0) return b;
  if (b < 0) return a;
  while (a >= 0 && !skeleton.IsAncestorOrSelf(a, b)) a = skeleton.parent(a);
  return a;
}

bool FiniteWeight(float w) {
  return std::isfinite(w) && w >= 0.0f && w <= internal::kMaxBodyWeight;
}
}  // namespace

namespace internal {

ClassifiedJoint ClassifyBodyJoint(const Skeleton& skeleton, const BodyRig& rig, int joint) {
  ClassifiedJoint c;
  for (size_t i = 0; i < rig.limbs.size(); ++i) {
    const TwoBoneChain& chain = rig.limbs[i].limb.chain;
    if (joint == chain.end) {
      c.role = BodyRole::kLimbEnd;
      c.limb = static_cast<int>(i);
      return c;
    }
    if (joint != chain.start && skeleton.IsAncestorOrSelf(chain.start, joint)) {
      c.role = BodyRole::kInsideLimb;
      c.limb = static_cast<int>(i);
      return c;
    }
  }
  if (skeleton.IsAncestorOrSelf(rig.hips, joint)) {
    c.role = BodyRole::kBody;
  } else if (skeleton.IsAncestorOrSelf(joint, rig.hips)) {
    c.role = BodyRole::kAboveHips;
  }
  return c;
}

}  // namespace internal

const char* BodyEffectorKindName(BodyEffector::Kind kind) {
  switch (kind) {
    case BodyEffector::Kind::kPin:
      return "pin";
    case BodyEffector::Kind::kTarget:
      return "target";
    case BodyEffector::Kind::kMove:
      return "move";
  }
  return "pin";
}

bool FullBodyOptions::Validate(std::string* why) const {
  auto fail = [&](const char* reason) {
    if (why) *why = reason;
    return false;
  };
  if (!FiniteWeight(hips_translation_weight)) {
    return fail("hips_translation_weight must be in [0, 1000]");
  }
  if (!FiniteWeight(hips_rotation_weight)) return fail("hips_rotation_weight must be in [0, 1000]");
  if (!FiniteWeight(spine_weight)) return fail("spine_weight must be in [0, 1000]");
  if (!(max_body_turn >= 0.0f && max_body_turn <= kPi)) {
    return fail("max_body_turn must be in [0, pi]");
  }
  if (max_iterations < 1 || max_iterations > 100) return fail("max_iterations must be in [1, 100]");
  if (!(tolerance >= 1e-7f && tolerance <= 0.1f)) return fail("tolerance must be in [1e-7, 0.1]");
  return true;
}

bool BuildBodyRig(const Skeleton& skeleton, BodyRig* rig, std::string* why,
                  const std::vector<bool>* is_bone) {
  auto fail = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (!rig) return fail("no rig to build into");
  return BuildBodyRig(skeleton, DetectLimbs(skeleton, is_bone), rig, why);
}

bool BuildBodyRig(const Skeleton& skeleton, const std::vector<Limb>& limbs, BodyRig* rig,
                  std::string* why) {
  auto fail = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (!rig) return fail("no rig to build into");
  *rig = BodyRig();
  if (limbs.empty()) return fail("no arms or legs were found in the skeleton");
  const auto& rest = skeleton.rest_models();
  int hips = -1, arms = -1, arm_count = 0;
  float total = 0.0f;
  for (const Limb& limb : limbs) {
    BodyLimb body_limb;
    body_limb.limb = limb;
    body_limb.bend_axis_local = DetectBendAxis(skeleton, limb.chain);
    rig->limbs.push_back(body_limb);
    hips = LowestCommonAncestor(skeleton, hips, limb.chain.start);
    if (limb.kind == LimbKind::kArm) {
      arms = LowestCommonAncestor(skeleton, arms, limb.chain.start);
      ++arm_count;
    }
    total += glm::length(glm::vec3(rest[limb.chain.mid][3] - rest[limb.chain.start][3])) +
             glm::length(glm::vec3(rest[limb.chain.end][3] - rest[limb.chain.mid][3]));
  }
  // One limb, or limbs hanging off one another: the body starts above the highest start.
  for (const Limb& limb : limbs) {
    if (hips == limb.chain.start) hips = skeleton.parent(hips);
  }
  if (hips < 0) return fail("the limbs have no common joint above them to move the body with");
  int chest = hips;
  if (arm_count == 1) {
    chest = skeleton.parent(arms);
  } else if (arm_count >= 2) {
    chest = arms;
  }
  if (chest < 0 || !skeleton.IsAncestorOrSelf(hips, chest)) chest = hips;
  std::vector<int> spine;
  for (int j = chest; j != hips; j = skeleton.parent(j)) spine.push_back(j);
  // A longer spine keeps its top joints (nearest the chest) with the hips.
  if (static_cast<int>(spine.size()) > kMaxBodyJoints - 1) spine.resize(kMaxBodyJoints - 1);
  spine.push_back(hips);
  std::reverse(spine.begin(), spine.end());
  rig->joint_count = skeleton.joint_count();
  rig->hips = hips;
  rig->chest = chest;
  rig->spine = spine;
  rig->size = total / static_cast<float>(limbs.size());
  if (!(rig->size > 0.0f) || !std::isfinite(rig->size)) {
    *rig = BodyRig();
    return fail("the limbs have no length");
  }
  return true;
}

bool FullBodyIkJob::Validate(std::string* why) const {
  std::string reasons;
  auto add = [&](const std::string& reason) {
    if (!reasons.empty()) reasons += "; ";
    reasons += reason;
  };
  if (!skeleton || !rig || !pose || !models || !workspace || !result) {
    add("skeleton, rig, pose, models, workspace and result must be set");
    if (why) *why = reasons;
    return false;
  }
  const int n = skeleton->joint_count();
  bool rig_ok = rig->joint_count == n && rig->hips >= 0 && rig->hips < n && !rig->spine.empty() &&
                static_cast<int>(rig->spine.size()) <= kMaxBodyJoints && rig->size > 0.0f;
  for (int j : rig->spine) rig_ok = rig_ok && j >= 0 && j < n;
  for (const BodyLimb& l : rig->limbs) {
    rig_ok = rig_ok && l.limb.chain.Validate(*skeleton);
  }
  if (!rig_ok) add("the rig was not built for this skeleton (BuildBodyRig)");
  if (static_cast<int>(pose->locals.size()) != n || static_cast<int>(models->size()) != n) {
    add("pose and models must have one entry per joint");
  }
  std::string option_why;
  if (!options.Validate(&option_why)) add(option_why);
  if (limits && !limits->Validate(*skeleton, &option_why)) add("limits: " + option_why);
  if (effector_count < 0 || effector_count > kMaxBodyEffectors ||
      (effector_count > 0 && !effectors)) {
    add("at most " + std::to_string(kMaxBodyEffectors) + " effectors");
  } else if (rig_ok) {
    for (int i = 0; i < effector_count; ++i) {
      const BodyEffector& e = effectors[i];
      // (Named only when something is wrong: a valid job builds no strings.)
      auto bad = [&](const std::string& reason) {
        const bool known = e.kind == BodyEffector::Kind::kPin ||
                           e.kind == BodyEffector::Kind::kTarget ||
                           e.kind == BodyEffector::Kind::kMove;
        add(std::string(known ? BodyEffectorKindName(e.kind) : "effector") + " " +
            std::to_string(i) + " (joint " +
            (e.joint >= 0 && e.joint < n ? "'" + skeleton->name(e.joint) + "'"
                                         : std::to_string(e.joint)) +
            "): " + reason);
      };
      if (e.joint < 0 || e.joint >= n) {
        bad("joint out of range");
        continue;
      }
      if (e.kind != BodyEffector::Kind::kPin && e.kind != BodyEffector::Kind::kTarget &&
          e.kind != BodyEffector::Kind::kMove) {
        bad("unknown kind");
        continue;
      }
      if (e.target_model && !IsFinite(*e.target_model)) bad("target is not finite");
      if (e.kind != BodyEffector::Kind::kPin && !e.target_model) bad("needs a target");
      if (!(std::isfinite(e.weight) && e.weight > 0.0f && e.weight <= internal::kMaxBodyWeight)) {
        bad("weight must be in (0, 1000]");
      }
      if (e.end_orientation && *e.end_orientation != EndOrientation::kKeepLocal &&
          *e.end_orientation != EndOrientation::kKeepModel) {
        bad("end orientation must be keep_local or keep_model");
      }
      const internal::ClassifiedJoint c = internal::ClassifyBodyJoint(*skeleton, *rig, e.joint);
      if (c.role == BodyRole::kInsideLimb) {
        bad("the joint moves with the limb ending at '" +
            skeleton->name(rig->limbs[c.limb].limb.chain.end) + "'; use that end instead");
      } else if (e.kind == BodyEffector::Kind::kTarget && c.role != BodyRole::kLimbEnd) {
        bad("targets are for a limb's end (hand or foot)");
      } else if (e.kind == BodyEffector::Kind::kMove && c.role == BodyRole::kFixed) {
        bad("nothing in the solve moves this joint");
      }
    }
  }
  if (reasons.empty()) {
    for (int j = 0; j < n; ++j) {
      if (!pose->locals[j].IsFinite() || !IsFinite((*models)[j])) {
        add("the input pose or its matrices are not finite");
        break;
      }
    }
  }
  if (why) *why = reasons;
  return reasons.empty();
}

bool FullBodyIkJob::Run() const {
  std::string why;
  if (!Validate(&why)) {
    if (result) {
      result->valid = false;
      result->why = why;
      result->effectors.clear();
      result->moved.clear();
    }
    return false;
  }
  internal::SolveFullBody(*this);
  return true;
}

}  // namespace ik
