// FABRIK at the pose level (the positions are solved in fabrik.cpp). Rotations: a frame pass goes
// root to tip. Joint i's frame is its parent's new frame times its own local transform; the minimal
// rotation c taking its child's offset (a constant in that frame) to the direction of p_{i+1}
// (taken into the frame with the inverse) gives local.rotation · c, which the joint's limit clamps;
// forward kinematics then places p_{i+1}. The inverse frames are carried down the chain (S⁻¹ Rᵀ
// A⁻¹), so only the root's parent is ever inverted. With limits, FABRIK alone settles far from
// targets the limits allow (its backward pass knows nothing of them), and CCD sweeps crawl along
// the limits. So the limited solve is:
//  1. the input rotations clamped into the limits;
//  2. a few FABRIK iterations whose forward pass is the frame pass, each joint clamped: they move
//     the chain as a whole toward the target; the best state is kept;
//  3. a refinement: Levenberg-Marquardt on small turns ω_i of each joint in its own frame
//     (R_i ← R_i · exp(ω_i); hinges about their axis, cones about any axis, free joints about
//     the two axes across their bone, so they never roll). With F_i = A_i R_i the joint's frame
//     and u_i = F_i⁻¹ (e - p_i) the end in it, turning about axis a moves the end by
//     F_i (a × u_i): these are the Jacobian's columns c_k (exact for any invertible frame). The
//     least-norm step that moves the end by r = t - e is ω = Σ a_k (c_k · y) with
//     (Σ c_k c_kᵀ + λ² I) y = r, a 3x3 system whatever the chain's length, so a step costs one
//     pass over the chain. Each turn is clamped by its limit; where a clamp takes part of a turn
//     away, that direction (ω minus what the clamp left) is blocked for this step — its column
//     taken out of the 3x3 sum and out of the turns — and the step solved again, so the other
//     joints make up for it instead of the step being wasted (a few rounds at most). A step is
//     kept only when the end comes nearer (then λ shrinks; otherwise it grows and the step is
//     tried again); no joint turns more than 0.6 rad per step.
//  4. The error within the limits has local minima. When the refinement stops short (stuck, or
//     crawling: the error not down by 30% in five steps), it starts again from other poses
//     within the limits, a fixed pseudo-random sequence (so the result depends on the input
//     only), each brought near by two CCD sweeps, until the target is reached or the iteration
//     cap is spent. Targets beyond the chain's length skip this.
// Every state is within the limits, the positions are always where the rotations put them, and
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "ik/chains/fabrik.h"
#include "ik/chains/fabrik_internal.h"
#include "ik/core/constraint_util.h"
#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"

namespace ik {

namespace {

using internal::FabrikSane;
using internal::FrameChain;
using internal::RefineBuffers;

// With limits: the FABRIK iterations that give the refinement its start.
constexpr int kLimitedFabrikIterations = 1;
// With limits: refinements from other starts when the first ends in a local minimum.
constexpr int kRestarts = 32;
// Sweeps of cyclic coordinate descent that take a restart's pose near the target.
constexpr int kRestartSweeps = 2;

// The result before the solve: degenerate, nothing reached, no positions.
void ResetResult(const glm::vec3& target_model, FabrikResult* result_out) {
  FabrikResult& result = *result_out;
  result.degenerate = true;
  result.fallback = FabrikFallback::kNone;
  result.iterations = 0;
  result.error = 0.0f;
  result.tolerance_model = 0.0f;
  result.reached = false;
  result.unreachable = false;
  result.limited = false;
  result.target_model = IsFinite(target_model) ? target_model : glm::vec3(0.0f);
  result.joints.clear();
  result.positions_before.clear();
  result.positions.clear();
  result.iteration_positions.clear();
}

// Checks the inputs and lists the chain's joints root to end into `joints`; kNone when they are
// usable.
FabrikFallback CheckInputs(const Skeleton& skeleton, int root, int end,
                           const glm::vec3& target_model, const FabrikOptions& options,
                           const JointLimits* limits, const Pose* pose,
                           const std::vector<glm::mat4>* models, const FabrikWorkspace* workspace,
                           std::vector<int>* joints) {
  const int joint_count = skeleton.joint_count();
  if (!pose || !models || !workspace || static_cast<int>(pose->locals.size()) != joint_count ||
      static_cast<int>(models->size()) != joint_count ||
      !ValidateFabrikChain(skeleton, root, end).empty()) {
    return FabrikFallback::kInvalidChain;
  }
  if (!options.Validate() || (limits && !limits->Validate(skeleton))) {
    return FabrikFallback::kInvalidOptions;
  }
  const auto& locals = pose->locals;
  const auto& m = *models;
  for (int j = end; j != root; j = skeleton.parent(j)) joints->push_back(j);
  joints->push_back(root);
  std::reverse(joints->begin(), joints->end());
  const int root_parent = skeleton.parent(root);
  if (!FabrikSane(target_model) || (root_parent >= 0 && !IsFinite(m[root_parent]))) {
    return FabrikFallback::kNonFiniteInput;
  }
  for (int j : *joints) {
    if (!locals[j].IsFinite() || !IsFinite(m[j]) || !FabrikSane(glm::vec3(m[j][3]))) {
      return FabrikFallback::kNonFiniteInput;
    }
  }
  return FabrikFallback::kNone;
}

// The frame chain: every joint but the end, and the root's parent frame (inverted once).
// `use_frames` is set when some joint has a limit. kSingularFrame when a frame cannot be inverted.
FabrikFallback MakeFrameChain(const Skeleton& skeleton, const std::vector<int>& joints,
                              const JointLimits* limits, const Pose& pose,
                              const std::vector<glm::mat4>& m, FabrikWorkspace* ws,
                              FrameChain* chain, bool* use_frames) {
  const auto& locals = pose.locals;
  const int n = static_cast<int>(joints.size()) - 1;
  ws->chain.resize(n);
  const auto& rest = skeleton.rest_locals();
  *use_frames = false;
  for (int i = 0; i < n; ++i) {
    internal::JointFrame frame;
    if (!internal::MakeJointFrame(m[joints[i]], locals[joints[i]].scale, &frame)) {
      return FabrikFallback::kSingularFrame;
    }
    FabrikChainJoint& cj = ws->chain[i];
    cj.local = locals[joints[i]];
    cj.rest_rotation = NormalizeOrIdentity(rest[joints[i]].rotation);
    cj.child_offset = cj.local.scale * locals[joints[i + 1]].translation;
    cj.inverse_scale = 1.0f / cj.local.scale;  // finite: MakeJointFrame checked the scale
    cj.limit = limits ? limits->Find(joints[i]) : nullptr;
    *use_frames = *use_frames || cj.limit != nullptr;
    internal::SetTurnAxes(&cj);
    internal::PrepareLimit(&cj);
  }
  chain->joints = ws->chain.data();
  chain->n = n;
  const int root_parent = skeleton.parent(joints[0]);
  if (root_parent >= 0) {
    internal::JointFrame parent_frame;
    if (!internal::MakeJointFrame(m[root_parent], glm::vec3(1.0f), &parent_frame)) {
      return FabrikFallback::kSingularFrame;
    }
    chain->parent_basis = parent_frame.basis;
    chain->parent_inverse = parent_frame.inverse;
  }
  chain->root_position = glm::vec3(m[joints[0]][3]);
  return FabrikFallback::kNone;
}

// Sizes the limited solve's buffers for n joints and points `buffers` at them.
void PrepareLimitBuffers(int n, FabrikWorkspace* ws, RefineBuffers* buffers) {
  for (int k = 0; k < 2; ++k) {
    ws->frames[k].resize(n);
    ws->inverses[k].resize(n);
  }
  ws->best.resize(n);
  ws->columns.resize(3 * static_cast<size_t>(n));
  ws->turns.resize(n);
  ws->lever.resize(n);
  ws->blocked.resize(2 * static_cast<size_t>(n));
  ws->blocked_columns.resize(2 * static_cast<size_t>(n));
  ws->blocked_count.resize(n);
  for (int k = 0; k < 2; ++k) {
    buffers->p[k] = ws->positions[k].data();
    buffers->rotations[k] = ws->rotations[k].data();
    buffers->frames[k] = ws->frames[k].data();
    buffers->inverses[k] = ws->inverses[k].data();
  }
  buffers->columns = ws->columns.data();
  buffers->turns = ws->turns.data();
  buffers->lever = ws->lever.data();
  buffers->blocked = ws->blocked.data();
  buffers->blocked_columns = ws->blocked_columns.data();
  buffers->blocked_count = ws->blocked_count.data();
}

// The limited solve (see the top of the file) from ws->positions[0] / ws->rotations[0]; leaves
// the best rotations found in ws->rotations[0]. `limited` is set when a limit clamped a rotation.
FabrikPositionsResult SolveLimited(const FrameChain& chain, const glm::vec3& target_model,
                                   const FabrikOptions& options, FabrikWorkspace* workspace,
                                   std::vector<std::vector<glm::vec3>>* record, bool* limited) {
  FabrikWorkspace& ws = *workspace;
  const int n = chain.n, count = n + 1;
  glm::vec3* p = ws.positions[0].data();
  glm::quat* rotations = ws.rotations[0].data();
  const float* lengths = ws.lengths.data();
  RefineBuffers buffers;
  PrepareLimitBuffers(n, &ws, &buffers);
  // Start within the limits.
  for (int i = 0; i < n; ++i) {
    if (!ws.chain[i].limit) continue;
    bool clamped = false;
    rotations[i] = internal::ClampQuick(ws.chain[i], NormalizeOrIdentity(rotations[i]), &clamped);
    *limited = *limited || clamped;
  }
  internal::FkFrames(chain, rotations, p, ws.frames[0].data(), ws.inverses[0].data());
  std::copy(rotations, rotations + n, ws.best.begin());
  float best_error = glm::length(p[n] - target_model);
  // A few FABRIK iterations whose forward pass is the clamped frame pass: they move the chain
  // as a whole toward the target (the refinement's steps are local), keeping the best state.
  auto forward = [&](glm::vec3* q, glm::vec3*) {
    internal::FramePass(chain, rotations, q, rotations, limited);
    const float error = glm::length(q[n] - target_model);
    if (error < best_error) {
      best_error = error;
      std::copy(rotations, rotations + n, ws.best.begin());
    }
    return true;
  };
  FabrikOptions fabrik_options = options;
  fabrik_options.max_iterations = std::min(options.max_iterations, kLimitedFabrikIterations);
  FabrikPositionsResult solve =
      internal::FabrikIterate(p, lengths, count, target_model, fabrik_options, false,
                              internal::MakeFabrikForward(&forward), record);
  std::copy(ws.best.begin(), ws.best.end(), rotations);
  internal::FkFrames(chain, rotations, p, ws.frames[0].data(), ws.inverses[0].data());
  int current = 0;
  auto refine = [&]() {
    solve.iterations +=
        internal::Refine(chain, target_model, solve.tolerance_model,
                         options.max_iterations - solve.iterations, buffers, &current, limited);
    const float error = glm::length(target_model - buffers.p[current][n]);
    if (error < best_error) {
      best_error = error;
      std::copy(buffers.rotations[current], buffers.rotations[current] + n, ws.best.begin());
    }
  };
  if (solve.iterations < options.max_iterations && best_error > solve.tolerance_model) refine();
  // Stuck in a local minimum of the error within the limits: start again from poses within
  // them (a fixed sequence, so the result depends on the input alone).
  std::uint32_t seed = 0x9e3779b9u;
  const bool beyond = glm::length(target_model - chain.root_position) >
                      internal::FabrikChainLength(lengths, count) + solve.tolerance_model;
  for (int restart = 0; restart < kRestarts && !beyond && best_error > solve.tolerance_model &&
                        solve.iterations < options.max_iterations;
       ++restart) {
    glm::quat* q = buffers.rotations[current];
    for (int i = 0; i < n; ++i) q[i] = internal::TurnWithin(ws.chain[i], &seed);
    internal::FkFrames(chain, q, buffers.p[current], buffers.frames[current],
                       buffers.inverses[current]);
    for (int sweep = 0; sweep < kRestartSweeps && solve.iterations < options.max_iterations;
         ++sweep, ++solve.iterations) {
      internal::CcdSweep(chain, target_model, q, buffers.p[current], buffers.frames[current],
                         buffers.inverses[current], limited);
    }
    refine();
  }
  std::copy(ws.best.begin(), ws.best.end(), rotations);
  if (record) {
    internal::FkFrames(chain, rotations, p, ws.frames[0].data(), ws.inverses[0].data());
    record->emplace_back(p, p + count);
  }
  return solve;
}

// Weight, write back, forward kinematics for the root's subtree. The input rotations stay in
// ws.chain for the weight blend and for undoing a non-finite result. False (the input pose back)
// when the result is not finite.
bool WriteBack(const Skeleton& skeleton, const std::vector<int>& joints, const glm::quat* rotations,
               const FabrikOptions& options, const glm::vec3& target_model,
               const FabrikWorkspace& ws, Pose* pose, std::vector<glm::mat4>* models,
               FabrikResult* result) {
  auto& locals = pose->locals;
  const auto& rest = skeleton.rest_locals();
  const int count = static_cast<int>(joints.size()), n = count - 1;
  const int root = joints[0];
  for (int i = 0; i < n; ++i) {
    const glm::quat original = ws.chain[i].local.rotation;
    glm::quat q = rotations[i];
    if (options.weight <= 0.0f) {
      q = original;  // exactly the input
    } else if (options.weight < 1.0f) {
      q = Nlerp(original, q, options.weight);
      if (ws.chain[i].limit) q = ClampRotation(*ws.chain[i].limit, rest[joints[i]].rotation, q);
    }
    locals[joints[i]].rotation = q;
  }
  LocalToModelFrom(skeleton, *pose, root, models);

  result->positions.resize(count);
  bool finite = true;
  for (int i = 0; i < count; ++i) {
    result->positions[i] = glm::vec3((*models)[joints[i]][3]);
    finite = finite && IsFinite(result->positions[i]);
  }
  result->error = glm::length(result->positions.back() - target_model);
  if (!finite || !std::isfinite(result->error)) {
    for (int i = 0; i < n; ++i) locals[joints[i]].rotation = ws.chain[i].local.rotation;
    LocalToModelFrom(skeleton, *pose, root, models);
    result->positions.clear();
    return false;
  }
  return true;
}

}  // namespace

void SolveFabrikPose(const Skeleton& skeleton, int root, int end, const glm::vec3& target_model,
                     const FabrikOptions& options, const JointLimits* limits, Pose* pose,
                     std::vector<glm::mat4>* models, FabrikWorkspace* workspace,
                     FabrikResult* result_out) {
  FabrikResult& result = *result_out;
  ResetResult(target_model, &result);
  auto fail = [&](FabrikFallback why) {
    result.degenerate = true;
    result.fallback = why;
    result.iteration_positions.clear();
  };
  const FabrikFallback bad = CheckInputs(skeleton, root, end, target_model, options, limits, pose,
                                         models, workspace, &result.joints);
  if (bad != FabrikFallback::kNone) return fail(bad);
  const std::vector<int>& joints = result.joints;
  const int count = static_cast<int>(joints.size());
  const int n = count - 1;
  FabrikWorkspace& ws = *workspace;
  FrameChain chain;
  bool use_frames = false;
  const FabrikFallback singular =
      MakeFrameChain(skeleton, joints, limits, *pose, *models, &ws, &chain, &use_frames);
  if (singular != FabrikFallback::kNone) return fail(singular);

  const auto& m = *models;
  result.positions_before.resize(count);
  for (int i = 0; i < count; ++i) result.positions_before[i] = glm::vec3(m[joints[i]][3]);
  ws.lengths.resize(n);
  for (int i = 0; i < n; ++i) {
    ws.lengths[i] = glm::length(result.positions_before[i + 1] - result.positions_before[i]);
  }
  for (int k = 0; k < 2; ++k) {
    ws.positions[k].resize(count);
    ws.rotations[k].resize(n);
  }
  glm::vec3* p = ws.positions[0].data();
  std::copy(result.positions_before.begin(), result.positions_before.end(), p);
  glm::quat* rotations = ws.rotations[0].data();
  for (int i = 0; i < n; ++i) rotations[i] = pose->locals[joints[i]].rotation;

  // Solve. Without limits the forward pass works on positions and one frame pass converts at the
  // end; with limits the frame pass is the forward pass, and the refinement follows.
  auto* record = options.record_iterations ? &result.iteration_positions : nullptr;
  FabrikPositionsResult solve;
  bool limited = false;  // a limit clamped a rotation somewhere in the solve
  if (use_frames) {
    solve = SolveLimited(chain, target_model, options, &ws, record, &limited);
  } else {
    solve = internal::FabrikIteratePositions(p, ws.lengths.data(), count, target_model, options,
                                             record);
    // The conversion.
    internal::FramePass(chain, rotations, p, rotations, &limited);
  }

  if (!WriteBack(skeleton, joints, rotations, options, target_model, ws, pose, models, &result)) {
    return fail(FabrikFallback::kNonFiniteInput);
  }
  result.degenerate = false;
  result.fallback = solve.fallback;
  result.iterations = solve.iterations;
  result.tolerance_model = solve.tolerance_model;
  result.reached = result.error <= result.tolerance_model;
  result.unreachable = solve.unreachable;
  result.limited = limited;
}

FabrikResult SolveFabrikPose(const Skeleton& skeleton, int root, int end,
                             const glm::vec3& target_model, const FabrikOptions& options,
                             const JointLimits* limits, Pose* pose,
                             std::vector<glm::mat4>* models) {
  FabrikWorkspace workspace;
  FabrikResult result;
  SolveFabrikPose(skeleton, root, end, target_model, options, limits, pose, models, &workspace,
                  &result);
  return result;
}

}  // namespace ik
