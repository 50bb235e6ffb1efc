// Full-body IK. The unknowns of the body are few: the hips' model-space translation h and small
// turns ω_b of each body joint b (hips, spine, chest) in its own frame (R_b ← R_b · exp(ω_b)).
// The limbs are not unknowns: once the body is placed, the two-bone solver puts each limb's end
// exactly on its pin or target whenever that lies within the limb's length L of the limb's start
// s. So a limb's end pin or target asks one thing of the body: |t - s| <= L, and only when it is
// broken does it give a row of the system (its one-dimensional residual, along n = (s - t)/|s - t|:
// move s toward t by |t - s| - L). A pin or move on a joint of the body itself asks x = t (three
// rows). Point x's motion is linear in the unknowns: ∂x/∂h = I, and turning body joint b (a strict
// ancestor of x) about own-frame axis a moves x by F_b (a × F_b⁻¹ (x - p_b)) (F_b its frame), exact
// for any invertible frame.
// Each iteration solves these rows in priority order, as a damped least-squares problem in the
// weighted unknowns θ̃ = W^-1/2 θ (W: the part weights; the translation in units of the body's
// size so that all columns are lengths):
//   Δ̃ = 0, N = I; for each level k (moves, pins, targets): A = J̃_k N, e = r_k - J̃_k Δ̃,
//   Δ̃ += Aᵀ (A Aᵀ + λ² I)⁻¹ e, N -= Aᵀ (A Aᵀ + λ0² I)⁻¹ A,
// so pins are met with what the moves leave free and targets with what both leave free (λ0 is
// small and fixed: a large one would let a level undo the ones before it). Rows that contradict
// each other (both feet pinned farther apart than the legs reach) get the least-squares
// compromise. A limb pin that is slack now but that the step would break becomes a row too
// (asking for at most half its slack), and the step is solved again. Each level's part of the
// step is scaled so that no body joint turns more than 0.35 rad and the hips move at most half
// the body's size; then each body joint is clamped by its joint limit and by max_body_turn from
// its input rotation.
// The iterations are Levenberg-Marquardt's: a step whose result is worse — lexicographically:
// the moves' squared misses beyond tolerance, then the pins', then the targets' — is undone and
// tried again with λ ten times larger and the step limits four times smaller; a kept step halves
// λ and doubles the limits back. A step that helps a target but breaks a pin only through the
// curvature the linear rows miss (a shoulder swung a few centimetres moves a little farther from
// a pinned hand than they say) is followed by one correction step on the moves and pins alone,
// and the two are judged together (a second-order correction). The iterations stop when every
// pin, move and target is within tolerance, when a step no longer moves anything (a compromise,
// or the limits), or at max_iterations.
// Then the limbs with a pin, target or move on their end are solved with the two-bone solver
// (the hinge keeps knees and elbows bending their rest way; where it cannot land the end exactly,
// the plain solve, which keeps the bend on its side, is used when it comes nearer); pinned ends
// keep the model-space orientation of the input pose. Limbs nothing moved are left alone.
// Every solve starts from the pose it is given and keeps nothing, so solving the freshly sampled
// pose each frame cannot drift.
#include "ik/full_body.h"

#include <algorithm>
#include <cmath>

#include "ik/constraint_util.h"
#include "ik/kinematics.h"
#include "ik/rotation.h"

namespace ik {

namespace {

constexpr int kMaxParams = 3 + 3 * kMaxBodyJoints;
constexpr int kMaxRows = 3 * kMaxBodyEffectors;
constexpr int kLevels = 3;                   // moves, pins, targets
constexpr double kMaxStepTurn = 0.35;        // radians per body joint and iteration
constexpr double kMaxStepTranslation = 0.5;  // body sizes per iteration
constexpr float kMaxWeight = 1000.0f;

// What an effector's joint is to the body.
enum class Role {
  kLimbEnd,     // a limb's end: solved by the two-bone solver; the body keeps it within reach
  kBody,        // moved by the hips' translation and the body joints' turns
  kAboveHips,   // an ancestor of the hips: only a move (translating it) changes it
  kFixed,       // elsewhere: nothing in the solve moves it
  kInsideLimb,  // a limb joint other than its start and end (knee, toe, finger): not allowed
};

struct Classified {
  Role role = Role::kFixed;
  int limb = -1;  // kLimbEnd, kInsideLimb: which limb
};

Classified Classify(const Skeleton& skeleton, const BodyRig& rig, int joint) {
  Classified c;
  for (size_t i = 0; i < rig.limbs.size(); ++i) {
    const TwoBoneChain& chain = rig.limbs[i].limb.chain;
    if (joint == chain.end) {
      c.role = Role::kLimbEnd;
      c.limb = static_cast<int>(i);
      return c;
    }
    if (joint != chain.start && skeleton.IsAncestorOrSelf(chain.start, joint)) {
      c.role = Role::kInsideLimb;
      c.limb = static_cast<int>(i);
      return c;
    }
  }
  if (skeleton.IsAncestorOrSelf(rig.hips, joint)) {
    c.role = Role::kBody;
  } else if (skeleton.IsAncestorOrSelf(joint, rig.hips)) {
    c.role = Role::kAboveHips;
  }
  return c;
}

int LowestCommonAncestor(const Skeleton& skeleton, int a, int b) {
  if (a < 0) return b;
  if (b < 0) return a;
  while (a >= 0 && !skeleton.IsAncestorOrSelf(a, b)) a = skeleton.parent(a);
  return a;
}

bool FiniteWeight(float w) { return std::isfinite(w) && w >= 0.0f && w <= kMaxWeight; }

// --- Small dense linear algebra (double, fixed capacity, row-major) ---

// Solves G X = B in place for symmetric positive definite G (m x m, leading dimension kMaxRows)
// and `columns` right-hand sides stored as rows of B (each of length m): Cholesky. False when G is
// not positive definite.
bool CholeskySolve(double (*g)[kMaxRows], int m, double (*b)[kMaxRows], int columns) {
  for (int j = 0; j < m; ++j) {
    double d = g[j][j];
    for (int k = 0; k < j; ++k) d -= g[j][k] * g[j][k];
    if (!(d > 0.0) || !std::isfinite(d)) return false;
    d = std::sqrt(d);
    g[j][j] = d;
    for (int i = j + 1; i < m; ++i) {
      double s = g[i][j];
      for (int k = 0; k < j; ++k) s -= g[i][k] * g[j][k];
      g[i][j] = s / d;
    }
  }
  for (int c = 0; c < columns; ++c) {
    double* x = b[c];
    for (int i = 0; i < m; ++i) {
      double s = x[i];
      for (int k = 0; k < i; ++k) s -= g[i][k] * x[k];
      x[i] = s / g[i][i];
    }
    for (int i = m - 1; i >= 0; --i) {
      double s = x[i];
      for (int k = i + 1; k < m; ++k) s -= g[k][i] * x[k];
      x[i] = s / g[i][i];
    }
  }
  return true;
}

// The rows of one iteration: weighted Jacobian rows (in θ̃), residuals and levels.
struct Rows {
  int count = 0;
  int params = 0;
  double j[kMaxRows][kMaxParams];
  double r[kMaxRows];
  int level[kMaxRows];
};

// How far one level's part of a step may go: no body joint turns more than kMaxStepTurn, the hips
// move at most kMaxStepTranslation body sizes. `weight_sqrt` takes θ̃ to θ.
double StepScale(const double* step, const double* weight_sqrt, int body_count, double trust) {
  double translation = 0.0, turn = 0.0;
  for (int k = 0; k < 3; ++k) translation += step[k] * weight_sqrt[k] * step[k] * weight_sqrt[k];
  for (int b = 0; b < body_count; ++b) {
    double t = 0.0;
    for (int k = 3 + 3 * b; k < 6 + 3 * b; ++k)
      t += step[k] * weight_sqrt[k] * step[k] * weight_sqrt[k];
    turn = std::max(turn, t);
  }
  translation = std::sqrt(translation);
  turn = std::sqrt(turn);
  double scale = 1.0;
  if (turn > trust * kMaxStepTurn) scale = trust * kMaxStepTurn / turn;
  if (translation > trust * kMaxStepTranslation) {
    scale = std::min(scale, trust * kMaxStepTranslation / translation);
  }
  return scale;
}

// The prioritized damped least-squares step (see the top of the file) into delta (θ̃). The step
// takes the Levenberg-Marquardt damping `lambda2`; the projector N keeps the small `null_lambda2`
// (large damping there would let a level undo the ones before it). Each level's part is scaled
// down to the step limits on its own, so that a level whose rows are nearly singular does not
// slow the levels before it.
void PrioritizedStep(const Rows& rows, double null_lambda2, double lambda2,
                     const double* weight_sqrt, int body_count, double trust, double* delta) {
  const int p = rows.params;
  double n[kMaxParams][kMaxParams];
  for (int a = 0; a < p; ++a) {
    delta[a] = 0.0;
    for (int b = 0; b < p; ++b) n[a][b] = a == b ? 1.0 : 0.0;
  }
  double a_rows[kMaxRows][kMaxParams];
  double g[kMaxRows][kMaxRows];
  double rhs[kMaxParams][kMaxRows];  // the columns of A, for G⁻¹ A
  double e[1][kMaxRows];
  int level_rows[kLevels] = {0, 0, 0};
  for (int i = 0; i < rows.count; ++i) ++level_rows[rows.level[i]];
  bool n_is_identity = true;
  for (int level = 0; level < kLevels; ++level) {
    int idx[kMaxRows];
    int m = 0;
    for (int i = 0; i < rows.count; ++i)
      if (rows.level[i] == level) idx[m++] = i;
    if (m == 0) continue;
    // A = J̃ N, e = r - J̃ Δ̃.
    for (int i = 0; i < m; ++i) {
      const double* jr = rows.j[idx[i]];
      double ei = rows.r[idx[i]];
      for (int b = 0; b < p; ++b) {
        double s = jr[b];
        if (!n_is_identity) {
          s = 0.0;
          for (int a = 0; a < p; ++a) s += jr[a] * n[a][b];
        }
        a_rows[i][b] = s;
        ei -= jr[b] * delta[b];
      }
      e[0][i] = ei;
    }
    auto gram = [&](double damping) {
      for (int i = 0; i < m; ++i) {
        for (int k = 0; k <= i; ++k) {
          double s = 0.0;
          for (int b = 0; b < p; ++b) s += a_rows[i][b] * a_rows[k][b];
          g[i][k] = s;
          g[k][i] = s;
        }
        g[i][i] += damping;
      }
    };
    // The step: Δ̃ += Aᵀ (A Aᵀ + λ² I)⁻¹ e, scaled to the limits.
    gram(lambda2);
    if (!CholeskySolve(g, m, e, 1)) continue;
    double part[kMaxParams];
    for (int b = 0; b < p; ++b) {
      double s = 0.0;
      for (int i = 0; i < m; ++i) s += a_rows[i][b] * e[0][i];
      part[b] = s;
    }
    const double scale = StepScale(part, weight_sqrt, body_count, trust);
    for (int b = 0; b < p; ++b) delta[b] += scale * part[b];
    // What is left to the next levels: N -= Aᵀ (A Aᵀ + λ0² I)⁻¹ A.
    bool later_rows = false;
    for (int k = level + 1; k < kLevels; ++k) later_rows = later_rows || level_rows[k] > 0;
    if (!later_rows) break;
    n_is_identity = false;
    gram(null_lambda2);
    for (int b = 0; b < p; ++b)
      for (int i = 0; i < m; ++i) rhs[b][i] = a_rows[i][b];
    if (!CholeskySolve(g, m, rhs, p)) continue;
    for (int a = 0; a < p; ++a) {
      for (int b = 0; b < p; ++b) {
        double s = 0.0;
        for (int i = 0; i < m; ++i) s += a_rows[i][a] * rhs[b][i];
        n[a][b] -= s;
      }
    }
  }
}

// Forward kinematics of the listed joints (ancestor-closed, parents first).
void ForwardListed(const Skeleton& skeleton, const Pose& pose, const std::vector<int>& joints,
                   std::vector<glm::mat4>* models) {
  auto& out = *models;
  for (int j : joints) {
    const int parent = skeleton.parent(j);
    const glm::mat4 local = pose.locals[j].ToMatrix();
    if (parent < 0) {
      out[j] = local;
    } else {
      MultiplyInto(out[parent], local, &out[j]);
    }
  }
}

// Forward kinematics of `joint`'s subtree, without allocating (flags: one per joint, scratch).
void ForwardSubtree(const Skeleton& skeleton, const Pose& pose, int joint,
                    std::vector<glm::mat4>* models, std::vector<char>* flags) {
  if (skeleton.subtree_contiguous()) {
    LocalToModelFrom(skeleton, pose, joint, models);
    return;
  }
  auto& in = *flags;
  std::fill(in.begin(), in.end(), 0);
  in[joint] = 1;
  auto& out = *models;
  for (int i = joint; i < skeleton.joint_count(); ++i) {
    const int parent = skeleton.parent(i);
    if (i != joint && !(parent >= 0 && in[parent])) continue;
    in[i] = 1;
    const glm::mat4 local = pose.locals[i].ToMatrix();
    if (parent < 0) {
      out[i] = local;
    } else {
      MultiplyInto(out[parent], local, &out[i]);
    }
  }
}

glm::vec3 Position(const std::vector<glm::mat4>& models, int joint) {
  return glm::vec3(models[joint][3]);
}

// Translates `joint` (its local translation) so that it lands at `target_model`.
void PlaceJoint(const Skeleton& skeleton, int joint, const glm::vec3& target_model, Pose* pose,
                const std::vector<glm::mat4>& models) {
  const glm::vec3 delta = target_model - Position(models, joint);
  const int parent = skeleton.parent(joint);
  glm::vec3 local_delta = delta;
  if (parent >= 0) {
    internal::JointFrame frame;
    if (!internal::MakeJointFrame(models[parent], glm::vec3(1.0f), &frame)) return;
    local_delta = frame.inverse * delta;
  }
  pose->locals[joint].translation += local_delta;
}

// The rotation of a (possibly scaled, mirrored) frame's 3x3 part whose columns are orthonormal to
// rounding, as a unit quaternion.
glm::quat RotationOf(const glm::mat3& m) { return internal::Normalize(glm::quat_cast(m)); }

}  // namespace

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
  if (!(max_body_turn >= 0.0f && max_body_turn <= internal::kPi)) {
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
  *rig = BodyRig();
  const std::vector<Limb> limbs = DetectLimbs(skeleton, is_bone);
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
    rig_ok = rig_ok && ValidateChain(*skeleton, l.limb.chain).empty();
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
      if (!(std::isfinite(e.weight) && e.weight > 0.0f && e.weight <= kMaxWeight)) {
        bad("weight must be in (0, 1000]");
      }
      if (e.end_orientation && *e.end_orientation != EndOrientation::kKeepLocal &&
          *e.end_orientation != EndOrientation::kKeepModel) {
        bad("end orientation must be keep_local or keep_model");
      }
      const Classified c = Classify(*skeleton, *rig, e.joint);
      if (c.role == Role::kInsideLimb) {
        bad("the joint moves with the limb ending at '" +
            skeleton->name(rig->limbs[c.limb].limb.chain.end) + "'; use that end instead");
      } else if (e.kind == BodyEffector::Kind::kTarget && c.role != Role::kLimbEnd) {
        bad("targets are for a limb's end (hand or foot)");
      } else if (e.kind == BodyEffector::Kind::kMove && c.role == Role::kFixed) {
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
  const Skeleton& sk = *skeleton;
  const BodyRig& body = *rig;
  const int joint_count = sk.joint_count();
  auto& locals = pose->locals;
  std::vector<glm::mat4>& m = *models;
  FullBodyWorkspace& ws = *workspace;
  FullBodyResult& out = *result;
  out.valid = true;
  out.why.clear();
  out.iterations = 0;
  out.reached = false;
  out.max_error = 0.0f;
  out.limited = false;
  out.tolerance_model = options.tolerance * body.size;
  const float tolerance_model = out.tolerance_model;
  const float size = body.size;

  out.moved.reserve(joint_count);
  out.effectors.reserve(kMaxBodyEffectors);
  ws.needed.reserve(joint_count);
  ws.models_in.assign(m.begin(), m.end());
  ws.locals_in.assign(locals.begin(), locals.end());
  ws.flags.assign(joint_count, 0);

  // Resolve targets, roles and the limbs each effector drives.
  struct Resolved {
    Classified c;
    glm::vec3 target{0.0f};
    int level = 1;  // 0 moves, 1 pins, 2 targets
    bool body = true;
  };
  Resolved resolved[kMaxBodyEffectors];
  for (int i = 0; i < effector_count; ++i) {
    const BodyEffector& e = effectors[i];
    Resolved& r = resolved[i];
    r.c = Classify(sk, body, e.joint);
    r.target = e.target_model ? *e.target_model : Position(m, e.joint);
    r.level = e.kind == BodyEffector::Kind::kMove ? 0 : e.kind == BodyEffector::Kind::kPin ? 1 : 2;
    r.body = e.kind != BodyEffector::Kind::kTarget || e.body_helps;
    // A move of a limb's end pins it there.
    if (r.c.role == Role::kLimbEnd && r.level == 0) r.level = 1;
  }

  // 1. Moves of the hips' ancestors translate them (the whole body comes along).
  for (int i = 0; i < effector_count; ++i) {
    if (effectors[i].kind != BodyEffector::Kind::kMove || resolved[i].c.role != Role::kAboveHips) {
      continue;
    }
    PlaceJoint(sk, effectors[i].joint, resolved[i].target, pose, m);
    ForwardSubtree(sk, *pose, effectors[i].joint, models, &ws.flags);
  }

  // The limbs' lengths and the reach each allows (a hair short of straight, so that the
  // two-bone solve lands exactly).
  float limb_length[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  const int limb_count = std::min(static_cast<int>(body.limbs.size()), 8);
  for (int l = 0; l < limb_count; ++l) {
    const TwoBoneChain& chain = body.limbs[l].limb.chain;
    limb_length[l] = glm::length(Position(m, chain.mid) - Position(m, chain.start)) +
                     glm::length(Position(m, chain.end) - Position(m, chain.mid));
  }

  // The joints the iterations need: ancestors of the body joints, of the limbs' starts and of the
  // effectors' joints on the body.
  auto need = [&](int j) {
    for (; j >= 0 && !ws.flags[j]; j = sk.parent(j)) ws.flags[j] = 1;
  };
  std::fill(ws.flags.begin(), ws.flags.end(), 0);
  for (int j : body.spine) need(j);
  bool body_rows = false;
  for (int i = 0; i < effector_count; ++i) {
    const Resolved& r = resolved[i];
    if (r.c.role == Role::kLimbEnd && r.body) {
      need(body.limbs[r.c.limb].limb.chain.start);
      body_rows = true;
    } else if (r.c.role == Role::kBody) {
      need(effectors[i].joint);
      body_rows = true;
    }
  }
  ws.needed.clear();
  for (int j = 0; j < joint_count; ++j)
    if (ws.flags[j]) ws.needed.push_back(j);

  // Body joints: their input rotations (for max_body_turn), weights and limits.
  const int body_count = static_cast<int>(body.spine.size());
  const int params = 3 + 3 * body_count;
  double weight_sqrt[kMaxParams];
  for (int k = 0; k < 3; ++k) weight_sqrt[k] = std::sqrt(double(options.hips_translation_weight));
  for (int b = 0; b < body_count; ++b) {
    const double w = b == 0 ? options.hips_rotation_weight : options.spine_weight;
    for (int k = 0; k < 3; ++k) weight_sqrt[3 + 3 * b + k] = std::sqrt(w);
  }
  glm::quat body_input[kMaxBodyJoints];
  const JointLimit* body_limit[kMaxBodyJoints];
  for (int b = 0; b < body_count; ++b) {
    body_input[b] = locals[body.spine[b]].rotation;
    body_limit[b] = limits ? limits->Find(body.spine[b]) : nullptr;
  }
  const int hips_parent = sk.parent(body.hips);
  const float reach_slack = 0.25f * tolerance_model;

  // 2. The body iterations (Levenberg-Marquardt: a step that leaves the moves, else the pins,
  // else the targets worse than before is undone and the damping raised).
  Rows rows;
  rows.params = params;
  glm::mat3 frame[kMaxBodyJoints], frame_inverse[kMaxBodyJoints];
  glm::vec3 frame_origin[kMaxBodyJoints];
  double delta[kMaxParams];
  // The reach row of a limb effector: its limb's start s, n = unit(s - t), d = |s - t|, and the
  // distance the limb reaches (a hair short of straight, so that the two-bone solve lands
  // exactly).
  auto reach = [&](int i, glm::vec3* s, glm::vec3* n, float* d, float* limit) {
    const TwoBoneChain& chain = body.limbs[resolved[i].c.limb].limb.chain;
    *s = Position(m, chain.start);
    const glm::vec3 v = *s - resolved[i].target;
    *d = glm::length(v);
    *n = *d > 0.0f ? v / *d : glm::vec3(0.0f);
    *limit = limb_length[resolved[i].c.limb] - reach_slack;
  };
  // How far each level is from done: the weighted squared violations. True when all are within
  // tolerance.
  auto measure = [&](double merit[kLevels]) {
    bool done = true;
    for (int k = 0; k < kLevels; ++k) merit[k] = 0.0;
    for (int i = 0; i < effector_count; ++i) {
      const Resolved& r = resolved[i];
      // What is beyond the tolerance counts: a step may use the slack within it.
      float off = 0.0f;
      if (r.c.role == Role::kLimbEnd && r.body) {
        glm::vec3 s, n;
        float d, limit;
        reach(i, &s, &n, &d, &limit);
        off = std::max(0.0f, d - limit - reach_slack);
      } else if (r.c.role == Role::kBody) {
        off = std::max(
            0.0f, glm::length(r.target - Position(m, effectors[i].joint)) - 0.5f * tolerance_model);
      } else {
        continue;
      }
      done = done && off == 0.0f;
      merit[r.level] += double(effectors[i].weight) * double(off) * double(off);
    }
    return done;
  };
  // The Jacobian row of the motion of point x (of joint `joint`) along `dir`, weighted.
  auto add_row = [&](int joint, const glm::vec3& x, const glm::vec3& dir, double residual,
                     int level, double effector_weight) {
    if (rows.count >= kMaxRows) return;
    double* row = rows.j[rows.count];
    const double ew = std::sqrt(effector_weight);
    for (int k = 0; k < 3; ++k) row[k] = ew * double(size) * double(dir[k]) * weight_sqrt[k];
    for (int b = 0; b < body_count; ++b) {
      const int bj = body.spine[b];
      double* cols = row + 3 + 3 * b;
      if (bj == joint || !sk.IsAncestorOrSelf(bj, joint)) {
        cols[0] = cols[1] = cols[2] = 0.0;
        continue;
      }
      // dir · F (e_k × u) = (Fᵀ dir) · (e_k × u) = e_k · (u × Fᵀ dir).
      const glm::vec3 u = frame_inverse[b] * (x - frame_origin[b]);
      const glm::vec3 g = glm::cross(u, glm::transpose(frame[b]) * dir);
      for (int k = 0; k < 3; ++k) cols[k] = ew * double(g[k]) * weight_sqrt[3 + 3 * b + k];
    }
    rows.r[rows.count] = ew * residual;
    rows.level[rows.count] = level;
    ++rows.count;
  };
  const double null_lambda2 = 1e-6 * double(size) * double(size);
  const double lambda2_max = 1e6 * double(size) * double(size);
  double lambda2 = null_lambda2;
  // The step limits' scale: a step undone for going too far is tried again shorter as well as
  // more damped (the damping alone changes little while it is small against the rows).
  double trust = 1.0;
  double merit_before[kLevels] = {0.0, 0.0, 0.0};
  bool have_before = false, restored = false;
  glm::vec3 saved_translation = locals[body.hips].translation;
  glm::quat saved_rotation[kMaxBodyJoints];
  // Lexicographically worse by more than rounding: moves, then pins, then targets.
  const double merit_slack = double(0.01f * tolerance_model) * double(0.01f * tolerance_model);
  auto worse = [&](const double* now, const double* before) {
    for (int k = 0; k < kLevels; ++k) {
      if (now[k] > before[k] + merit_slack) return true;
      if (now[k] < before[k] - merit_slack) return false;
    }
    return false;
  };
  // Some level after the first worse one got better.
  auto helps_lower = [&](const double* now, const double* before) {
    int k = 0;
    while (k < kLevels && !(now[k] > before[k] + merit_slack)) ++k;
    for (++k; k < kLevels; ++k) {
      if (now[k] < before[k] - merit_slack) return true;
    }
    return false;
  };
  // A step that breaks a pin only by the curvature of the pin's reach (the rows are linear; a
  // shoulder swung through a few centimetres moves a little farther from the pinned hand than
  // they say) while helping a target is not undone at once: one correction step on the moves and
  // pins alone follows, and the pair is judged together (a second-order correction).
  bool correcting = false;
  bool stalled = false;
  // (Each iteration evaluates its result; undone steps and corrections add evaluations.)
  for (int evaluation = 0; body_rows && evaluation < 4 * options.max_iterations + 4; ++evaluation) {
    ForwardListed(sk, *pose, ws.needed, models);
    double merit[kLevels];
    const bool done = measure(merit);
    if (!restored && have_before && worse(merit, merit_before)) {
      if (!correcting && helps_lower(merit, merit_before) && !stalled) {
        correcting = true;
      } else {
        // Undo the step (and its correction) and try a shorter one.
        locals[body.hips].translation = saved_translation;
        for (int b = 0; b < body_count; ++b) locals[body.spine[b]].rotation = saved_rotation[b];
        lambda2 *= 10.0;
        trust *= 0.25;
        restored = true;
        correcting = false;
        if (stalled || lambda2 > lambda2_max || trust < 1e-6) {
          ForwardListed(sk, *pose, ws.needed, models);
          break;
        }
        continue;
      }
    } else {
      if (!restored) {
        lambda2 = std::max(lambda2 * 0.5, null_lambda2);
        trust = std::min(1.0, trust * 2.0);
      }
      restored = false;
      correcting = false;
      std::copy(merit, merit + kLevels, merit_before);
      have_before = true;
      // Done, out of iterations, or nothing moves any more: the best the pins, limits and
      // weights allow.
      if (done || stalled || out.iterations >= options.max_iterations) break;
    }

    bool frames_ok = true;
    for (int b = 0; b < body_count; ++b) {
      internal::JointFrame f;
      frames_ok =
          frames_ok && internal::MakeJointFrame(m[body.spine[b]], locals[body.spine[b]].scale, &f);
      frame[b] = f.basis;
      frame_inverse[b] = f.inverse;
      frame_origin[b] = f.origin;
    }
    if (!frames_ok) break;
    rows.count = 0;
    bool active[kMaxBodyEffectors] = {};
    for (int i = 0; i < effector_count; ++i) {
      const Resolved& r = resolved[i];
      const double w = effectors[i].weight;
      if (correcting && r.level == 2) continue;
      if (r.c.role == Role::kLimbEnd && r.body) {
        glm::vec3 s, n;
        float d, limit;
        reach(i, &s, &n, &d, &limit);
        // At or over its reach: a row that brings it back, or (at the edge) keeps the limb's
        // start from going farther. Slack pins join below if the step would break them.
        active[i] = d > limit - reach_slack && d > 0.0f;
        if (active[i]) {
          add_row(body.limbs[r.c.limb].limb.chain.start, s, n, double(std::min(0.0f, limit - d)),
                  r.level, w);
        }
      } else if (r.c.role == Role::kBody) {
        const glm::vec3 x = Position(m, effectors[i].joint);
        const glm::vec3 e = r.target - x;
        for (int k = 0; k < 3; ++k) {
          glm::vec3 axis(0.0f);
          axis[k] = 1.0f;
          add_row(effectors[i].joint, x, axis, double(e[k]), r.level, w);
        }
      }
    }
    // Solve; a slack limb pin the step would break joins the rows, and the step is solved again.
    for (int pass = 0; pass < 3; ++pass) {
      PrioritizedStep(rows, null_lambda2, lambda2, weight_sqrt, body_count, trust, delta);
      bool added = false;
      for (int i = 0; i < effector_count; ++i) {
        const Resolved& r = resolved[i];
        if (active[i] || r.c.role != Role::kLimbEnd || !r.body || r.level != 1) continue;
        glm::vec3 s, n;
        float d, limit;
        reach(i, &s, &n, &d, &limit);
        // (It may use half its slack this step: the rest of the way is curved.)
        const int before = rows.count;
        add_row(body.limbs[r.c.limb].limb.chain.start, s, n, 0.5 * double(limit - d), r.level,
                effectors[i].weight);
        if (rows.count == before) continue;
        double moved = 0.0;  // the predicted change of d, weighted: row · Δ̃
        for (int a = 0; a < params; ++a) moved += rows.j[before][a] * delta[a];
        const double ew = std::sqrt(double(effectors[i].weight));
        if (double(d) + moved / ew > double(limit)) {
          active[i] = true;
          added = true;
        } else {
          rows.count = before;
        }
      }
      if (!added) break;
    }
    // θ = W^1/2 θ̃; apply: the hips' translation (model space → its parent's frame), the body
    // joints' turns, each clamped by its limit and by max_body_turn.
    for (int a = 0; a < params; ++a) delta[a] *= weight_sqrt[a];
    ++out.iterations;
    if (!correcting) {
      // The state to come back to if this step (and its correction) does not help.
      saved_translation = locals[body.hips].translation;
      for (int b = 0; b < body_count; ++b) saved_rotation[b] = locals[body.spine[b]].rotation;
    }
    glm::vec3 h{float(delta[0]), float(delta[1]), float(delta[2])};
    h *= size;
    if (hips_parent >= 0) {
      internal::JointFrame f;
      if (internal::MakeJointFrame(m[hips_parent], glm::vec3(1.0f), &f)) {
        h = f.inverse * h;
      } else {
        h = glm::vec3(0.0f);
      }
    }
    locals[body.hips].translation += h;
    double change = glm::length(glm::dvec3(h)) / double(size);
    for (int b = 0; b < body_count; ++b) {
      const double* w = delta + 3 + 3 * b;
      if (w[0] == 0.0 && w[1] == 0.0 && w[2] == 0.0) continue;  // (a part that does not help)
      const glm::vec3 half(float(0.5 * w[0]), float(0.5 * w[1]), float(0.5 * w[2]));
      Transform& local = locals[body.spine[b]];
      const glm::quat before = local.rotation;
      glm::quat q = internal::Normalize(before * glm::quat(1.0f, half.x, half.y, half.z));
      if (body_limit[b]) {
        bool clamped = false;
        q = ClampRotation(*body_limit[b], sk.rest_locals()[body.spine[b]].rotation, q, &clamped);
        out.limited = out.limited || clamped;
      }
      const glm::quat from_input = glm::conjugate(body_input[b]) * q;
      const float turn = internal::RotationAngle(from_input);
      if (turn > options.max_body_turn) {
        q = internal::Normalize(body_input[b] *
                                internal::ScaleRotation(from_input, options.max_body_turn / turn));
        if (body_limit[b]) {
          q = ClampRotation(*body_limit[b], sk.rest_locals()[body.spine[b]].rotation, q);
        }
        out.limited = true;
      }
      local.rotation = q;
      change = std::max(change, double(internal::AngleBetweenRotations(before, q)));
    }
    stalled = change < 1e-7;
  }

  // Every matrix below the hips, when the body moved (moves above the hips updated theirs).
  bool body_moved = locals[body.hips].translation != ws.locals_in[body.hips].translation;
  for (int b = 0; b < body_count; ++b) {
    body_moved = body_moved || locals[body.spine[b]].rotation != body_input[b];
  }
  if (body_moved) ForwardSubtree(sk, *pose, body.hips, models, &ws.flags);

  // 3. The limbs with something on their end: the highest priority effector (moves and pins
  // before targets; the first of equals).
  for (int l = 0; l < limb_count; ++l) {
    int chosen = -1;
    for (int i = 0; i < effector_count; ++i) {
      if (resolved[i].c.role != Role::kLimbEnd || resolved[i].c.limb != l) continue;
      if (chosen < 0 || resolved[i].level < resolved[chosen].level) chosen = i;
    }
    if (chosen < 0) continue;
    const BodyLimb& limb = body.limbs[l];
    const TwoBoneChain& chain = limb.limb.chain;
    // Nothing moved it and it is where it should be (a pin where the pose has it, say).
    if (m[chain.end] == ws.models_in[chain.end] &&
        glm::length(Position(m, chain.end) - resolved[chosen].target) <= 1e-3f * tolerance_model) {
      continue;
    }
    TwoBoneIkOptions two;
    two.bend_axis_local = limb.bend_axis_local;
    two.hinge = options.hinge && limb.bend_axis_local.has_value();
    const EndOrientation orientation = effectors[chosen].end_orientation.value_or(
        resolved[chosen].level <= 1 ? EndOrientation::kKeepModel : EndOrientation::kKeepLocal);
    TwoBoneTarget target;
    target.position = resolved[chosen].target;
    const glm::quat start_rotation = locals[chain.start].rotation;
    const glm::quat mid_rotation = locals[chain.mid].rotation;
    const TwoBoneIkResult solved = SolveTwoBoneIkPose(sk, chain, target, two, pose, models);
    if (two.hinge && !solved.reached) {
      // The hinge is exact only while both bones stay square to its axis, which a clip's elbow
      // or knee need not be: when it falls short, the plain solve (which keeps the bend on the
      // side it is on) may reach; the nearer of the two is kept.
      two.hinge = false;
      locals[chain.start].rotation = start_rotation;
      locals[chain.mid].rotation = mid_rotation;
      ForwardSubtree(sk, *pose, chain.start, models, &ws.flags);
      const TwoBoneIkResult plain = SolveTwoBoneIkPose(sk, chain, target, two, pose, models);
      if (!(plain.error < solved.error)) {
        two.hinge = true;
        locals[chain.start].rotation = start_rotation;
        locals[chain.mid].rotation = mid_rotation;
        ForwardSubtree(sk, *pose, chain.start, models, &ws.flags);
        SolveTwoBoneIkPose(sk, chain, target, two, pose, models);
      }
    }
    if (orientation == EndOrientation::kKeepModel) {
      // The end keeps the model-space orientation the input pose gave it: local' = P'⁻¹ P local.
      const int parent = sk.parent(chain.end);
      internal::JointFrame now, before;
      if (internal::MakeJointFrame(m[parent], glm::vec3(1.0f), &now) &&
          internal::MakeJointFrame(ws.models_in[parent], glm::vec3(1.0f), &before)) {
        const glm::mat3 turn = now.inverse * before.basis;
        const glm::quat q = RotationOf(turn) * ws.locals_in[chain.end].rotation;
        locals[chain.end].rotation = internal::Normalize(q);
        ForwardSubtree(sk, *pose, chain.end, models, &ws.flags);
      }
    }
  }

  // Report.
  out.effectors.resize(effector_count);
  out.reached = true;
  for (int i = 0; i < effector_count; ++i) {
    BodyEffectorReport& report = out.effectors[i];
    report.joint = effectors[i].joint;
    report.kind = effectors[i].kind;
    report.target_model = resolved[i].target;
    report.position_model = Position(m, effectors[i].joint);
    report.error = glm::length(report.position_model - report.target_model);
    report.reached = report.error <= tolerance_model;
    out.reached = out.reached && report.reached;
    out.max_error = std::max(out.max_error, report.error);
  }
  out.hips_offset_model = Position(m, body.hips) - Position(ws.models_in, body.hips);
  out.moved.clear();
  for (int j = 0; j < joint_count; ++j) {
    const Transform& a = ws.locals_in[j];
    const Transform& b = locals[j];
    if (a.translation == b.translation && a.rotation == b.rotation) continue;
    BodyJointChange change;
    change.joint = j;
    change.translation_model = Position(m, j) - Position(ws.models_in, j);
    change.turn = internal::AngleBetweenRotations(internal::Normalize(a.rotation),
                                                  internal::Normalize(b.rotation));
    out.moved.push_back(change);
  }
  return true;
}

}  // namespace ik
