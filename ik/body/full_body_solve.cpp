// Full-body IK, the solve: the body's damped least-squares iterations by priority, then the
// limbs' two-bone solves. The method is described at the top of ik/body/full_body_solve.h.
#include "ik/body/full_body_solve.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ik/body/full_body.h"
#include "ik/body/full_body_step.h"
#include "ik/core/constraint_util.h"
#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"

namespace ik {
namespace internal {

namespace {

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
glm::quat RotationOf(const glm::mat3& m) { return NormalizeOrIdentity(glm::quat_cast(m)); }

// One solve of a validated job: the state the steps share (all fixed-capacity, on the stack).
class BodySolver {
 public:
  explicit BodySolver(const FullBodyIkJob& job)
      : job_(job),
        sk_(*job.skeleton),
        body_(*job.rig),
        options_(job.options),
        effectors_(job.effectors),
        effector_count_(job.effector_count),
        pose_(job.pose),
        models_(job.models),
        locals_(job.pose->locals),
        m_(*job.models),
        ws_(*job.workspace),
        out_(*job.result),
        size_(job.rig->size) {}

  void Solve() {
    Begin();
    Resolve();
    MoveAboveHips();
    MeasureLimbs();
    const bool body_rows = MarkNeeded();
    SetUpBodyJoints();
    if (body_rows) IterateBody();
    UpdateBelowHips();
    for (int l = 0; l < limb_count_; ++l) SolveLimb(l);
    // The steps and limb solves keep their last finite state (a target far beyond the model's
    // size can overflow float arithmetic); should anything still be non-finite, the input pose
    // stands, reported as not reached.
    if (!PoseFinite()) {
      std::copy(ws_.locals_in.begin(), ws_.locals_in.end(), locals_.begin());
      std::copy(ws_.models_in.begin(), ws_.models_in.end(), m_.begin());
      out_.non_finite = true;
    }
    Report();
  }

 private:
  // An effector resolved: its role, target and level.
  struct Resolved {
    ClassifiedJoint c;
    glm::vec3 target{0.0f};
    int level = 1;  // 0 moves, 1 pins, 2 targets
    bool body = true;
  };
  // What judging the last step leaves to do.
  enum class Verdict { kStep, kRetry, kStop };

  void Begin();
  void Resolve();
  void MoveAboveHips();
  void MeasureLimbs();
  bool MarkNeeded();
  void SetUpBodyJoints();
  void Reach(int i, glm::vec3* s, glm::vec3* n, float* d, float* limit) const;
  bool Measure(double merit[kLevels]) const;
  void AddRow(int joint, const glm::vec3& x, const glm::vec3& dir, double residual, int level,
              double effector_weight);
  bool Worse(const double* now, const double* before) const;
  bool HelpsLower(const double* now, const double* before) const;
  void IterateBody();
  Verdict Judge();
  bool MakeFrames();
  void BuildRows(bool active[kMaxBodyEffectors]);
  void SolveStep(bool active[kMaxBodyEffectors]);
  double ApplyStep();
  void UpdateBelowHips();
  void SolveLimb(int l);
  void Report();
  bool PoseFinite() const;
  bool JointsFinite(const std::vector<int>& joints) const;

  const FullBodyIkJob& job_;
  const Skeleton& sk_;
  const BodyRig& body_;
  const FullBodyOptions& options_;
  const BodyEffector* effectors_;
  const int effector_count_;
  Pose* pose_;
  std::vector<glm::mat4>* models_;
  std::vector<Transform>& locals_;
  std::vector<glm::mat4>& m_;
  FullBodyWorkspace& ws_;
  FullBodyResult& out_;
  const float size_;
  float tolerance_model_ = 0.0f;
  float reach_slack_ = 0.0f;

  Resolved resolved_[kMaxBodyEffectors];
  float limb_length_[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int limb_count_ = 0;

  // Body joints: their input rotations (for max_body_turn), weights and limits.
  int body_count_ = 0;
  int params_ = 0;
  double weight_sqrt_[kMaxParams];
  glm::quat body_input_[kMaxBodyJoints];
  const JointLimit* body_limit_[kMaxBodyJoints];
  int hips_parent_ = -1;

  // The iterations' state.
  Rows rows_;
  glm::mat3 frame_[kMaxBodyJoints], frame_inverse_[kMaxBodyJoints];
  glm::vec3 frame_origin_[kMaxBodyJoints];
  double delta_[kMaxParams];
  double null_lambda2_ = 0.0;
  double lambda2_max_ = 0.0;
  double lambda2_ = 0.0;
  // The step limits' scale: a step undone for going too far is tried again shorter as well as
  // more damped (the damping alone changes little while it is small against the rows).
  double trust_ = 1.0;
  double merit_before_[kLevels] = {0.0, 0.0, 0.0};
  bool have_before_ = false, restored_ = false;
  glm::vec3 saved_translation_{0.0f};
  glm::quat saved_rotation_[kMaxBodyJoints];
  double merit_slack_ = 0.0;
  // A step that breaks a pin only by the curvature of the pin's reach (the rows are linear; a
  // shoulder swung through a few centimetres moves a little farther from the pinned hand than
  // they say) while helping a target is not undone at once: one correction step on the moves and
  // pins alone follows, and the pair is judged together (a second-order correction).
  bool correcting_ = false;
  bool stalled_ = false;
};

void BodySolver::Begin() {
  const int joint_count = sk_.joint_count();
  out_.valid = true;
  out_.why.clear();
  out_.iterations = 0;
  out_.reached = false;
  out_.max_error = 0.0f;
  out_.limited = false;
  out_.non_finite = false;
  out_.tolerance_model = options_.tolerance * body_.size;
  tolerance_model_ = out_.tolerance_model;
  reach_slack_ = 0.25f * tolerance_model_;

  out_.moved.reserve(joint_count);
  out_.effectors.reserve(kMaxBodyEffectors);
  ws_.needed.reserve(joint_count);
  ws_.models_in.assign(m_.begin(), m_.end());
  ws_.locals_in.assign(locals_.begin(), locals_.end());
  ws_.flags.assign(joint_count, 0);
}

// Resolve targets, roles and the limbs each effector drives.
void BodySolver::Resolve() {
  for (int i = 0; i < effector_count_; ++i) {
    const BodyEffector& e = effectors_[i];
    Resolved& r = resolved_[i];
    r.c = ClassifyBodyJoint(sk_, body_, e.joint);
    r.target = e.target_model ? *e.target_model : Position(m_, e.joint);
    r.level = e.kind == BodyEffector::Kind::kMove ? 0 : e.kind == BodyEffector::Kind::kPin ? 1 : 2;
    r.body = e.kind != BodyEffector::Kind::kTarget || e.body_helps;
    // A move of a limb's end pins it there.
    if (r.c.role == BodyRole::kLimbEnd && r.level == 0) r.level = 1;
  }
}

// 1. Moves of the hips' ancestors translate them (the whole body comes along).
void BodySolver::MoveAboveHips() {
  for (int i = 0; i < effector_count_; ++i) {
    if (effectors_[i].kind != BodyEffector::Kind::kMove ||
        resolved_[i].c.role != BodyRole::kAboveHips) {
      continue;
    }
    PlaceJoint(sk_, effectors_[i].joint, resolved_[i].target, pose_, m_);
    ForwardSubtree(sk_, *pose_, effectors_[i].joint, models_, &ws_.flags);
  }
}

// The limbs' lengths (the reach each allows is a hair short of straight, so that the two-bone
// solve lands exactly).
void BodySolver::MeasureLimbs() {
  limb_count_ = std::min(static_cast<int>(body_.limbs.size()), 8);
  for (int l = 0; l < limb_count_; ++l) {
    const TwoBoneChain& chain = body_.limbs[l].limb.chain;
    limb_length_[l] = glm::length(Position(m_, chain.mid) - Position(m_, chain.start)) +
                      glm::length(Position(m_, chain.end) - Position(m_, chain.mid));
  }
}

// The joints the iterations need: ancestors of the body joints, of the limbs' starts and of the
// effectors' joints on the body. True when some effector gives the body rows.
bool BodySolver::MarkNeeded() {
  auto need = [&](int j) {
    for (; j >= 0 && !ws_.flags[j]; j = sk_.parent(j)) ws_.flags[j] = 1;
  };
  std::fill(ws_.flags.begin(), ws_.flags.end(), 0);
  for (int j : body_.spine) need(j);
  bool body_rows = false;
  for (int i = 0; i < effector_count_; ++i) {
    const Resolved& r = resolved_[i];
    if (r.c.role == BodyRole::kLimbEnd && r.body) {
      need(body_.limbs[r.c.limb].limb.chain.start);
      body_rows = true;
    } else if (r.c.role == BodyRole::kBody) {
      need(effectors_[i].joint);
      body_rows = true;
    }
  }
  ws_.needed.clear();
  for (int j = 0; j < sk_.joint_count(); ++j)
    if (ws_.flags[j]) ws_.needed.push_back(j);
  return body_rows;
}

void BodySolver::SetUpBodyJoints() {
  body_count_ = static_cast<int>(body_.spine.size());
  params_ = 3 + 3 * body_count_;
  for (int k = 0; k < 3; ++k) {
    weight_sqrt_[k] = std::sqrt(double(options_.hips_translation_weight));
  }
  for (int b = 0; b < body_count_; ++b) {
    const double w = double(b == 0 ? options_.hips_rotation_weight : options_.spine_weight);
    for (int k = 0; k < 3; ++k) weight_sqrt_[3 + 3 * b + k] = std::sqrt(w);
  }
  for (int b = 0; b < body_count_; ++b) {
    body_input_[b] = locals_[body_.spine[b]].rotation;
    body_limit_[b] = job_.limits ? job_.limits->Find(body_.spine[b]) : nullptr;
  }
  hips_parent_ = sk_.parent(body_.hips);
}

// The reach row of a limb effector: its limb's start s, n = unit(s - t), d = |s - t|, and the
// distance the limb reaches (a hair short of straight, so that the two-bone solve lands exactly).
void BodySolver::Reach(int i, glm::vec3* s, glm::vec3* n, float* d, float* limit) const {
  const TwoBoneChain& chain = body_.limbs[resolved_[i].c.limb].limb.chain;
  *s = Position(m_, chain.start);
  const glm::vec3 v = *s - resolved_[i].target;
  *d = glm::length(v);
  *n = *d > 0.0f ? v / *d : glm::vec3(0.0f);
  *limit = limb_length_[resolved_[i].c.limb] - reach_slack_;
}

// How far each level is from done: the weighted squared violations. True when all are within
// tolerance.
bool BodySolver::Measure(double merit[kLevels]) const {
  bool done = true;
  for (int k = 0; k < kLevels; ++k) merit[k] = 0.0;
  for (int i = 0; i < effector_count_; ++i) {
    const Resolved& r = resolved_[i];
    // What is beyond the tolerance counts: a step may use the slack within it.
    float off = 0.0f;
    if (r.c.role == BodyRole::kLimbEnd && r.body) {
      glm::vec3 s, n;
      float d, limit;
      Reach(i, &s, &n, &d, &limit);
      off = std::max(0.0f, d - limit - reach_slack_);
    } else if (r.c.role == BodyRole::kBody) {
      off = std::max(0.0f, glm::length(r.target - Position(m_, effectors_[i].joint)) -
                               0.5f * tolerance_model_);
    } else {
      continue;
    }
    done = done && off == 0.0f;
    merit[r.level] += double(effectors_[i].weight) * double(off) * double(off);
  }
  return done;
}

// The Jacobian row of the motion of point x (of joint `joint`) along `dir`, weighted.
void BodySolver::AddRow(int joint, const glm::vec3& x, const glm::vec3& dir, double residual,
                        int level, double effector_weight) {
  if (rows_.count >= kMaxRows) return;
  double* row = rows_.j[rows_.count];
  const double ew = std::sqrt(effector_weight);
  for (int k = 0; k < 3; ++k) row[k] = ew * double(size_) * double(dir[k]) * weight_sqrt_[k];
  for (int b = 0; b < body_count_; ++b) {
    const int bj = body_.spine[b];
    double* cols = row + 3 + 3 * b;
    if (bj == joint || !sk_.IsAncestorOrSelf(bj, joint)) {
      cols[0] = cols[1] = cols[2] = 0.0;
      continue;
    }
    // dir · F (e_k × u) = (Fᵀ dir) · (e_k × u) = e_k · (u × Fᵀ dir).
    const glm::vec3 u = frame_inverse_[b] * (x - frame_origin_[b]);
    const glm::vec3 g = glm::cross(u, glm::transpose(frame_[b]) * dir);
    for (int k = 0; k < 3; ++k) cols[k] = ew * double(g[k]) * weight_sqrt_[3 + 3 * b + k];
  }
  rows_.r[rows_.count] = ew * residual;
  rows_.level[rows_.count] = level;
  ++rows_.count;
}

// Lexicographically worse by more than rounding: moves, then pins, then targets.
bool BodySolver::Worse(const double* now, const double* before) const {
  for (int k = 0; k < kLevels; ++k) {
    if (now[k] > before[k] + merit_slack_) return true;
    if (now[k] < before[k] - merit_slack_) return false;
  }
  return false;
}

// Some level after the first worse one got better.
bool BodySolver::HelpsLower(const double* now, const double* before) const {
  int k = 0;
  while (k < kLevels && !(now[k] > before[k] + merit_slack_)) ++k;
  for (++k; k < kLevels; ++k) {
    if (now[k] < before[k] - merit_slack_) return true;
  }
  return false;
}

// 2. The body iterations (Levenberg-Marquardt: a step that leaves the moves, else the pins,
// else the targets worse than before is undone and the damping raised).
void BodySolver::IterateBody() {
  rows_.params = params_;
  for (int b = 0; b < body_count_; ++b) saved_rotation_[b] = locals_[body_.spine[b]].rotation;
  null_lambda2_ = 1e-6 * double(size_) * double(size_);
  lambda2_max_ = 1e6 * double(size_) * double(size_);
  lambda2_ = null_lambda2_;
  saved_translation_ = locals_[body_.hips].translation;
  merit_slack_ = double(0.01f * tolerance_model_) * double(0.01f * tolerance_model_);
  // (Each iteration evaluates its result; undone steps and corrections add evaluations.)
  for (int evaluation = 0; evaluation < 4 * options_.max_iterations + 4; ++evaluation) {
    ForwardListed(sk_, *pose_, ws_.needed, models_);
    if (!JointsFinite(ws_.needed)) {
      // The step overflowed: back to the state before it, and stop there.
      locals_[body_.hips].translation = saved_translation_;
      for (int b = 0; b < body_count_; ++b) locals_[body_.spine[b]].rotation = saved_rotation_[b];
      ForwardListed(sk_, *pose_, ws_.needed, models_);
      out_.non_finite = true;
      break;
    }
    const Verdict verdict = Judge();
    if (verdict == Verdict::kStop) break;
    if (verdict == Verdict::kRetry) continue;
    if (!MakeFrames()) break;
    bool active[kMaxBodyEffectors] = {};
    BuildRows(active);
    SolveStep(active);
    stalled_ = ApplyStep() < 1e-7;
  }
}

// Judges the pose the last step left: keeps it, undoes it (kRetry, or kStop when no shorter step
// is left to try), or stops when done.
BodySolver::Verdict BodySolver::Judge() {
  double merit[kLevels];
  const bool done = Measure(merit);
  if (!restored_ && have_before_ && Worse(merit, merit_before_)) {
    if (!correcting_ && HelpsLower(merit, merit_before_) && !stalled_) {
      correcting_ = true;
      return Verdict::kStep;
    }
    // Undo the step (and its correction) and try a shorter one.
    locals_[body_.hips].translation = saved_translation_;
    for (int b = 0; b < body_count_; ++b) locals_[body_.spine[b]].rotation = saved_rotation_[b];
    lambda2_ *= 10.0;
    trust_ *= 0.25;
    restored_ = true;
    correcting_ = false;
    if (stalled_ || lambda2_ > lambda2_max_ || trust_ < 1e-6) {
      ForwardListed(sk_, *pose_, ws_.needed, models_);
      return Verdict::kStop;
    }
    return Verdict::kRetry;
  }
  if (!restored_) {
    lambda2_ = std::max(lambda2_ * 0.5, null_lambda2_);
    trust_ = std::min(1.0, trust_ * 2.0);
  }
  restored_ = false;
  correcting_ = false;
  std::copy(merit, merit + kLevels, merit_before_);
  have_before_ = true;
  // Done, out of iterations, or nothing moves any more: the best the pins, limits and weights
  // allow.
  if (done || stalled_ || out_.iterations >= options_.max_iterations) return Verdict::kStop;
  return Verdict::kStep;
}

// The body joints' frames for the rows. False when one is degenerate.
bool BodySolver::MakeFrames() {
  bool frames_ok = true;
  for (int b = 0; b < body_count_; ++b) {
    internal::JointFrame f;
    frames_ok = frames_ok &&
                internal::MakeJointFrame(m_[body_.spine[b]], locals_[body_.spine[b]].scale, &f);
    frame_[b] = f.basis;
    frame_inverse_[b] = f.inverse;
    frame_origin_[b] = f.origin;
  }
  return frames_ok;
}

// The rows of this iteration; `active` marks the limb effectors that have a reach row.
void BodySolver::BuildRows(bool active[kMaxBodyEffectors]) {
  rows_.count = 0;
  for (int i = 0; i < effector_count_; ++i) {
    const Resolved& r = resolved_[i];
    const double w = double(effectors_[i].weight);
    if (correcting_ && r.level == 2) continue;
    if (r.c.role == BodyRole::kLimbEnd && r.body) {
      glm::vec3 s, n;
      float d, limit;
      Reach(i, &s, &n, &d, &limit);
      // At or over its reach: a row that brings it back, or (at the edge) keeps the limb's
      // start from going farther. Slack pins join below if the step would break them.
      active[i] = d > limit - reach_slack_ && d > 0.0f;
      if (active[i]) {
        AddRow(body_.limbs[r.c.limb].limb.chain.start, s, n, double(std::min(0.0f, limit - d)),
               r.level, w);
      }
    } else if (r.c.role == BodyRole::kBody) {
      const glm::vec3 x = Position(m_, effectors_[i].joint);
      const glm::vec3 e = r.target - x;
      for (int k = 0; k < 3; ++k) {
        glm::vec3 axis(0.0f);
        axis[k] = 1.0f;
        AddRow(effectors_[i].joint, x, axis, double(e[k]), r.level, w);
      }
    }
  }
}

// Solves the step into delta_; a slack limb pin the step would break joins the rows, and the
// step is solved again.
void BodySolver::SolveStep(bool active[kMaxBodyEffectors]) {
  for (int pass = 0; pass < 3; ++pass) {
    PrioritizedStep(rows_, null_lambda2_, lambda2_, weight_sqrt_, body_count_, trust_, delta_);
    bool added = false;
    for (int i = 0; i < effector_count_; ++i) {
      const Resolved& r = resolved_[i];
      if (active[i] || r.c.role != BodyRole::kLimbEnd || !r.body || r.level != 1) continue;
      glm::vec3 s, n;
      float d, limit;
      Reach(i, &s, &n, &d, &limit);
      // (It may use half its slack this step: the rest of the way is curved.)
      const int before = rows_.count;
      AddRow(body_.limbs[r.c.limb].limb.chain.start, s, n, 0.5 * double(limit - d), r.level,
             double(effectors_[i].weight));
      if (rows_.count == before) continue;
      double moved = 0.0;  // the predicted change of d, weighted: row · Δ̃
      for (int a = 0; a < params_; ++a) moved += rows_.j[before][a] * delta_[a];
      const double ew = std::sqrt(double(effectors_[i].weight));
      if (double(d) + moved / ew > double(limit)) {
        active[i] = true;
        added = true;
      } else {
        rows_.count = before;
      }
    }
    if (!added) break;
  }
}

// θ = W^1/2 θ̃; applies the hips' translation (model space → its parent's frame) and the body
// joints' turns, each clamped by its limit and by max_body_turn. Returns how much changed (body
// sizes or radians, the largest).
double BodySolver::ApplyStep() {
  for (int a = 0; a < params_; ++a) delta_[a] *= weight_sqrt_[a];
  ++out_.iterations;
  if (!correcting_) {
    // The state to come back to if this step (and its correction) does not help.
    saved_translation_ = locals_[body_.hips].translation;
    for (int b = 0; b < body_count_; ++b) saved_rotation_[b] = locals_[body_.spine[b]].rotation;
  }
  glm::vec3 h{float(delta_[0]), float(delta_[1]), float(delta_[2])};
  h *= size_;
  if (hips_parent_ >= 0) {
    internal::JointFrame f;
    if (internal::MakeJointFrame(m_[hips_parent_], glm::vec3(1.0f), &f)) {
      h = f.inverse * h;
    } else {
      h = glm::vec3(0.0f);
    }
  }
  locals_[body_.hips].translation += h;
  double change = glm::length(glm::dvec3(h)) / double(size_);
  for (int b = 0; b < body_count_; ++b) {
    const double* w = delta_ + 3 + 3 * b;
    if (w[0] == 0.0 && w[1] == 0.0 && w[2] == 0.0) continue;  // (a part that does not help)
    const glm::vec3 half(float(0.5 * w[0]), float(0.5 * w[1]), float(0.5 * w[2]));
    Transform& local = locals_[body_.spine[b]];
    const glm::quat before = local.rotation;
    glm::quat q = NormalizeOrIdentity(before * glm::quat(1.0f, half.x, half.y, half.z));
    if (body_limit_[b]) {
      bool clamped = false;
      q = ClampRotation(*body_limit_[b], sk_.rest_locals()[body_.spine[b]].rotation, q, &clamped);
      out_.limited = out_.limited || clamped;
    }
    const glm::quat from_input = glm::conjugate(body_input_[b]) * q;
    const float turn = RotationAngle(from_input);
    if (turn > options_.max_body_turn) {
      q = NormalizeOrIdentity(body_input_[b] *
                              ScaleRotation(from_input, options_.max_body_turn / turn));
      if (body_limit_[b]) {
        q = ClampRotation(*body_limit_[b], sk_.rest_locals()[body_.spine[b]].rotation, q);
      }
      out_.limited = true;
    }
    local.rotation = q;
    change = std::max(change, double(AngleBetweenRotations(before, q)));
  }
  return change;
}

// Every matrix below the hips, when the body moved (moves above the hips updated theirs).
void BodySolver::UpdateBelowHips() {
  bool body_moved = locals_[body_.hips].translation != ws_.locals_in[body_.hips].translation;
  for (int b = 0; b < body_count_; ++b) {
    body_moved = body_moved || locals_[body_.spine[b]].rotation != body_input_[b];
  }
  if (body_moved) ForwardSubtree(sk_, *pose_, body_.hips, models_, &ws_.flags);
}

// 3. Limb `l`, when something is on its end: the highest priority effector (moves and pins
// before targets; the first of equals).
void BodySolver::SolveLimb(int l) {
  int chosen = -1;
  for (int i = 0; i < effector_count_; ++i) {
    if (resolved_[i].c.role != BodyRole::kLimbEnd || resolved_[i].c.limb != l) continue;
    if (chosen < 0 || resolved_[i].level < resolved_[chosen].level) chosen = i;
  }
  if (chosen < 0) return;
  const BodyLimb& limb = body_.limbs[l];
  const TwoBoneChain& chain = limb.limb.chain;
  // Nothing moved it and it is where it should be (a pin where the pose has it, say).
  if (m_[chain.end] == ws_.models_in[chain.end] &&
      glm::length(Position(m_, chain.end) - resolved_[chosen].target) <= 1e-3f * tolerance_model_) {
    return;
  }
  TwoBoneIkOptions two;
  two.bend_axis_local = limb.bend_axis_local;
  two.hinge = options_.hinge && limb.bend_axis_local.has_value();
  const EndOrientation orientation = effectors_[chosen].end_orientation.value_or(
      resolved_[chosen].level <= 1 ? EndOrientation::kKeepModel : EndOrientation::kKeepLocal);
  TwoBoneTarget target;
  target.position = resolved_[chosen].target;
  const glm::quat start_rotation = locals_[chain.start].rotation;
  const glm::quat mid_rotation = locals_[chain.mid].rotation;
  const glm::quat end_rotation = locals_[chain.end].rotation;
  const TwoBoneIkResult solved = SolveTwoBoneIkPose(sk_, chain, target, two, pose_, models_);
  if (two.hinge && !solved.reached) {
    // The hinge is exact only while both bones stay square to its axis, which a clip's elbow
    // or knee need not be: when it falls short, the plain solve (which keeps the bend on the
    // side it is on) may reach; the nearer of the two is kept.
    two.hinge = false;
    locals_[chain.start].rotation = start_rotation;
    locals_[chain.mid].rotation = mid_rotation;
    ForwardSubtree(sk_, *pose_, chain.start, models_, &ws_.flags);
    const TwoBoneIkResult plain = SolveTwoBoneIkPose(sk_, chain, target, two, pose_, models_);
    if (!(plain.error < solved.error)) {
      two.hinge = true;
      locals_[chain.start].rotation = start_rotation;
      locals_[chain.mid].rotation = mid_rotation;
      ForwardSubtree(sk_, *pose_, chain.start, models_, &ws_.flags);
      SolveTwoBoneIkPose(sk_, chain, target, two, pose_, models_);
    }
  }
  if (orientation == EndOrientation::kKeepModel) {
    // The end keeps the model-space orientation the input pose gave it: local' = P'⁻¹ P local.
    const int parent = sk_.parent(chain.end);
    internal::JointFrame now, before;
    if (internal::MakeJointFrame(m_[parent], glm::vec3(1.0f), &now) &&
        internal::MakeJointFrame(ws_.models_in[parent], glm::vec3(1.0f), &before)) {
      const glm::mat3 turn = now.inverse * before.basis;
      const glm::quat q = RotationOf(turn) * ws_.locals_in[chain.end].rotation;
      locals_[chain.end].rotation = NormalizeOrIdentity(q);
      ForwardSubtree(sk_, *pose_, chain.end, models_, &ws_.flags);
    }
  }
  if (!locals_[chain.start].IsFinite() || !locals_[chain.mid].IsFinite() ||
      !locals_[chain.end].IsFinite() || !IsFinite(m_[chain.end])) {
    // The limb as it was before its solve.
    locals_[chain.start].rotation = start_rotation;
    locals_[chain.mid].rotation = mid_rotation;
    locals_[chain.end].rotation = end_rotation;
    ForwardSubtree(sk_, *pose_, chain.start, models_, &ws_.flags);
    out_.non_finite = true;
  }
}

bool BodySolver::JointsFinite(const std::vector<int>& joints) const {
  for (int j : joints) {
    if (!locals_[j].IsFinite() || !IsFinite(m_[j])) return false;
  }
  return true;
}

bool BodySolver::PoseFinite() const {
  for (size_t j = 0; j < locals_.size(); ++j) {
    if (!locals_[j].IsFinite() || !IsFinite(m_[j])) return false;
  }
  return true;
}

// The effectors' reports and the joints that moved.
void BodySolver::Report() {
  out_.effectors.resize(effector_count_);
  out_.reached = true;
  for (int i = 0; i < effector_count_; ++i) {
    BodyEffectorReport& report = out_.effectors[i];
    report.joint = effectors_[i].joint;
    report.kind = effectors_[i].kind;
    report.target_model = resolved_[i].target;
    report.position_model = Position(m_, effectors_[i].joint);
    // In double: the distance to a target near the float range must not overflow to infinity.
    report.error = static_cast<float>(
        std::min(glm::length(glm::dvec3(report.position_model) - glm::dvec3(report.target_model)),
                 double(std::numeric_limits<float>::max())));
    report.reached = report.error <= tolerance_model_;
    out_.reached = out_.reached && report.reached;
    out_.max_error = std::max(out_.max_error, report.error);
  }
  out_.hips_offset_model = Position(m_, body_.hips) - Position(ws_.models_in, body_.hips);
  out_.moved.clear();
  for (int j = 0; j < sk_.joint_count(); ++j) {
    const Transform& a = ws_.locals_in[j];
    const Transform& b = locals_[j];
    if (a.translation == b.translation && a.rotation == b.rotation) continue;
    BodyJointChange change;
    change.joint = j;
    change.translation_model = Position(m_, j) - Position(ws_.models_in, j);
    change.turn =
        AngleBetweenRotations(NormalizeOrIdentity(a.rotation), NormalizeOrIdentity(b.rotation));
    out_.moved.push_back(change);
  }
}

}  // namespace

void SolveFullBody(const FullBodyIkJob& job) {
  BodySolver solver(job);
  solver.Solve();
}

}  // namespace internal
}  // namespace ik
