// FABRIK. Positions p_0..p_n (model space) with segment lengths ℓ_i and a target t:
//  - backward pass: p_n = t, then p_i = p_{i+1} + ℓ_i · unit(p_i - p_{i+1}) down to the root;
//  - forward pass: p_0 back at the root, then p_{i+1} = p_i + ℓ_i · unit(p_{i+1} - p_i);
// repeated until |p_n - t| <= tolerance · L or the iteration cap. A target farther than L is out
// of reach: the chain is laid straight toward it at once.
// Plain FABRIK crawls next to singular configurations (the chain nearly on one line, stretched or
// folded: near full reach, near the shortest reach, or a target near the root): each pass only
// straightens or folds it a little, and thousands of iterations may be needed. Without limits,
// when a pass shrinks the error by less than half, two accelerations are tried, each undone if
// the pass after it makes things worse:
//  - a reach step (ReachStep): the chain turned rigidly about the root onto the target's line and
//    its reach set to |t - p_0| by turning all segments together (one parameter, solved by
//    Newton); for two segments, the exact triangle;
//  - extrapolation: the joints jump ahead along their last motion by ρ/(1 - ρ) (ρ: error ratio),
//    as for any linearly converging fixed-point iteration; the next pass restores the lengths.
// With them, random reachable targets take 2-4 iterations on average and a few dozen at worst,
// where plain FABRIK takes thousands. Two more cases FABRIK cannot handle alone:
//  - a chain and target on one line: every pass keeps the points on that line, so the chain never
//    bends; the inner joints are nudged off the line (toward the bend hint), before iterating and
//    whenever the passes stop moving the end short of a reachable target;
//  - coincident points (zero-length segments, the target at a joint): unit() has no direction;
//    the last direction used in the pass continues.
// Rotations (pose level): a frame pass goes root to tip. Joint i's frame is its parent's new
// frame times its own local transform; the minimal rotation c taking its child's offset (a
// constant in that frame) to the direction of p_{i+1} (taken into the frame with the inverse)
// gives local.rotation · c, which the joint's limit clamps; forward kinematics then places
// p_{i+1}. The inverse frames are carried down the chain (S⁻¹ Rᵀ A⁻¹), so only the root's parent is
// ever inverted.
// With limits, FABRIK alone settles far from targets the limits allow (its backward pass knows
// nothing of them), and CCD sweeps crawl along the limits. So the limited solve is:
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
// the best state found is the result.
#include "ik/fabrik.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "ik/constraint_util.h"
#include "ik/kinematics.h"
#include "ik/rotation.h"

namespace ik {

const char* FabrikFallbackName(FabrikFallback f) {
  switch (f) {
    case FabrikFallback::kNone:
      return "none";
    case FabrikFallback::kInvalidChain:
      return "invalid_chain";
    case FabrikFallback::kInvalidOptions:
      return "invalid_options";
    case FabrikFallback::kNonFiniteInput:
      return "non_finite_input";
    case FabrikFallback::kSingularFrame:
      return "singular_frame";
    case FabrikFallback::kZeroLengthChain:
      return "zero_length_chain";
    case FabrikFallback::kStraightChain:
      return "straight_chain";
  }
  return "none";
}

bool FabrikOptions::Validate(std::string* why) const {
  auto fail = [&](const char* reason) {
    if (why) *why = reason;
    return false;
  };
  if (!(tolerance > 0.0f && tolerance <= 0.1f)) return fail("tolerance must be in (0, 0.1]");
  if (max_iterations < 1 || max_iterations > 10000) {
    return fail("max_iterations must be in [1, 10000]");
  }
  if (!(weight >= 0.0f && weight <= 1.0f)) return fail("weight must be in [0, 1]");
  if (bend_hint_model && !IsFinite(*bend_hint_model)) return fail("bend_hint_model is not finite");
  return true;
}

namespace {

// Longer chains take the plain iterations only (the reach step works in fixed stack buffers).
constexpr int kMaxStepSegments = 256;

// With limits: the FABRIK iterations that give the refinement its start.
constexpr int kLimitedFabrikIterations = 1;
// With limits: refinements from other starts when the first ends in a local minimum.
constexpr int kRestarts = 32;
// Sweeps of cyclic coordinate descent that take a restart's pose near the target.
constexpr int kRestartSweeps = 2;

// Coordinates beyond this would overflow float when squared.
constexpr float kMaxCoordinate = 1e18f;

bool Sane(const glm::vec3& v) {
  return IsFinite(v) && std::abs(v.x) < kMaxCoordinate && std::abs(v.y) < kMaxCoordinate &&
         std::abs(v.z) < kMaxCoordinate;
}

// unit(v), or `fallback` when v has no usable direction; the direction used becomes the fallback.
inline glm::vec3 UnitOr(const glm::vec3& v, float min_len2, glm::vec3* fallback) {
  const float len2 = glm::dot(v, v);
  if (len2 > min_len2) *fallback = v / std::sqrt(len2);
  return *fallback;
}

// Chain geometry shared by both passes.
struct ChainGeometry {
  float total = 0.0f;     // L
  float longest = 0.0f;   // the longest segment
  float min_len2 = 0.0f;  // squared length below which a difference has no direction
};

ChainGeometry Measure(const float* lengths, int count) {
  ChainGeometry g;
  for (int i = 0; i + 1 < count; ++i) {
    g.total += lengths[i];
    g.longest = std::max(g.longest, lengths[i]);
  }
  g.min_len2 = 1e-20f * g.total * g.total;
  return g;
}

void BackwardPass(glm::vec3* p, const float* lengths, int count, const glm::vec3& target,
                  const ChainGeometry& g, glm::vec3* last_dir) {
  p[count - 1] = target;
  for (int i = count - 2; i >= 0; --i) {
    p[i] = p[i + 1] + lengths[i] * UnitOr(p[i] - p[i + 1], g.min_len2, last_dir);
  }
}

void ForwardPass(glm::vec3* p, const float* lengths, int count, const glm::vec3& root,
                 const ChainGeometry& g, glm::vec3* last_dir) {
  p[0] = root;
  for (int i = 0; i + 1 < count; ++i) {
    p[i + 1] = p[i] + lengths[i] * UnitOr(p[i + 1] - p[i], g.min_len2, last_dir);
  }
}

// When the chain and the target lie on one line (or always, with `force`), nudges the inner
// joints off it by 1% of L: FABRIK cannot bend a chain out of its line, and barely moves a chain
// folded back and forth along one. True when it did.
bool BendStraightChain(glm::vec3* p, int count, const glm::vec3& target, const ChainGeometry& g,
                       const std::optional<glm::vec3>& hint, bool force) {
  if (count < 3) return false;
  const glm::vec3 root = p[0];
  glm::vec3 line = target - root;
  if (!(glm::dot(line, line) > 1e-10f * g.total * g.total)) line = p[count - 1] - root;
  if (!(glm::dot(line, line) > 1e-10f * g.total * g.total)) {
    for (int i = 1; i < count && !(glm::dot(line, line) > 1e-10f * g.total * g.total); ++i) {
      line = p[i] - root;
    }
  }
  if (!(glm::dot(line, line) > 0.0f)) return false;
  line = glm::normalize(line);
  const float tolerance2 = 1e-8f * g.total * g.total;  // 1e-4·L off the line counts as on it
  auto off_line2 = [&](const glm::vec3& q) {
    const glm::vec3 v = q - root;
    const glm::vec3 perp = v - glm::dot(v, line) * line;
    return glm::dot(perp, perp);
  };
  if (!force) {
    if (off_line2(target) > tolerance2) return false;
    for (int i = 1; i < count; ++i)
      if (off_line2(p[i]) > tolerance2) return false;
  }
  glm::vec3 side(0.0f);
  if (hint) side = *hint - glm::dot(*hint, line) * line;
  if (!(glm::dot(side, side) > 1e-12f * (hint ? glm::dot(*hint, *hint) : 0.0f)) ||
      !(glm::dot(side, side) > 0.0f)) {
    side = AnyPerpendicular(line);
  }
  side = glm::normalize(side);
  for (int i = 1; i + 1 < count; ++i) p[i] += 0.01f * g.total * side;
  return true;
}

// The reach step, for when FABRIK crawls. It does so next to a singular configuration: the chain
// (nearly) on the target's line, segments pointing along it or back (fully stretched, or folded),
// where each pass straightens or folds the chain only a little. With u = unit(t - p_0),
// d = |t - p_0|, unit segment directions e_i, c_i = e_i·u and s_i = sign(c_i) (the side each
// segment is on), every segment is turned toward s_i·u by one common amount λ >= 0:
// e_i(λ) = unit(e_i + λ s_i u). The end's projection on u,
//   f(λ) = Σ ℓ_i (c_i + λ s_i) / sqrt(1 + 2 s_i c_i λ + λ²),
// runs from its current value at λ = 0 to Σ s_i ℓ_i, the singular configuration, as λ grows.
// When d lies between the two, f(λ) = d is solved by Newton's method
// (f' = Σ ℓ_i s_i (1 - c_i²) / (...)^{3/2}) kept inside a bracket, with bisection when a step
// leaves it, and the chain is rebuilt with those directions. False when d is not between them.
bool AdjustReach(glm::vec3* p, const float* lengths, int count, const glm::vec3& target,
                 const ChainGeometry& g) {
  const glm::vec3 root = p[0];
  const glm::vec3 to_target = target - root;
  const float d = glm::length(to_target);
  if (!(d > 1e-6f * g.total) || count - 1 > kMaxStepSegments) return false;
  const glm::vec3 u = to_target / d;
  glm::vec3 e[kMaxStepSegments];
  float c[kMaxStepSegments], s[kMaxStepSegments];
  float limit = 0.0f;
  for (int i = 0; i + 1 < count; ++i) {
    const glm::vec3 v = p[i + 1] - p[i];
    const float len2 = glm::dot(v, v);
    e[i] = len2 > g.min_len2 ? v / std::sqrt(len2) : u;
    c[i] = glm::dot(e[i], u);
    s[i] = c[i] >= 0.0f ? 1.0f : -1.0f;
    limit += s[i] * lengths[i];
  }
  auto f = [&](float lambda, float* derivative) {
    float value = 0.0f, slope = 0.0f;
    for (int i = 0; i + 1 < count; ++i) {
      const float q = 1.0f + 2.0f * s[i] * c[i] * lambda + lambda * lambda;
      const float inv = 1.0f / std::sqrt(q);
      value += lengths[i] * (c[i] + lambda * s[i]) * inv;
      slope += lengths[i] * s[i] * (1.0f - c[i] * c[i]) * inv * inv * inv;
    }
    *derivative = slope;
    return value - d;
  };
  float slope;
  const float at_zero = f(0.0f, &slope);
  // `sign` makes f negative below the root.
  const float sign = at_zero < 0.0f ? 1.0f : -1.0f;
  if (!(sign * (limit - d) > 0.0f)) return false;
  float lo = 0.0f, hi = 1.0f;
  while (sign * f(hi, &slope) < 0.0f) {
    lo = hi;
    hi *= 2.0f;
    if (hi > 1e7f) return false;
  }
  float lambda = 0.5f * (lo + hi);
  for (int it = 0; it < 40; ++it) {
    const float value = sign * f(lambda, &slope);
    if (value < 0.0f) {
      lo = lambda;
    } else {
      hi = lambda;
    }
    if (std::abs(value) <= 1e-7f * g.total || hi - lo <= 1e-7f * hi) break;
    float next = lambda - value / (sign * slope);
    if (!(next > lo && next < hi)) next = 0.5f * (lo + hi);
    lambda = next;
  }
  for (int i = 0; i + 1 < count; ++i) {
    p[i + 1] = p[i] + lengths[i] * glm::normalize(e[i] + lambda * s[i] * u);
  }
  return true;
}

// Two segments: the reach step is the exact triangle, with the knee on the circle of possible
// knees at the point nearest the current knee (where FABRIK converges too: its passes keep the
// plane of root, knee and target).
bool TwoSegmentStep(glm::vec3* p, const float* lengths, const glm::vec3& target,
                    const ChainGeometry& g) {
  const glm::vec3 a = p[0];
  const float l1 = lengths[0], l2 = lengths[1];
  const glm::vec3 to_target = target - a;
  float d = glm::length(to_target);
  if (!(d > 1e-6f * g.total)) return false;
  const glm::vec3 s = to_target / d;
  d = std::min(std::max(d, std::abs(l1 - l2)), l1 + l2);
  const float x = (d * d + (l1 - l2) * (l1 + l2)) / (2.0f * d);
  const float r = std::sqrt(std::max(0.0f, (l1 - x) * (l1 + x)));
  glm::vec3 side = (p[1] - a) - glm::dot(p[1] - a, s) * s;
  side = glm::dot(side, side) > g.min_len2 ? glm::normalize(side) : AnyPerpendicular(s);
  p[1] = a + x * s + r * side;
  p[2] = a + d * s;
  return true;
}

// Turns the whole chain rigidly about the root so the end lies on the target's line, then
// adjusts the reach along it; a few rounds, since the reach adjustment moves the end slightly off
// the line again. False when nothing was changed.
bool ReachStep(glm::vec3* p, const float* lengths, int count, const glm::vec3& target,
               const ChainGeometry& g, float tolerance_model) {
  if (count == 3) return TwoSegmentStep(p, lengths, target, g);
  const glm::vec3 root = p[0];
  const glm::vec3 to_target = target - root;
  const float d = glm::length(to_target);
  if (d <= 2.0f * g.longest - g.total && d > 1e-6f * g.total) {
    // Too close: the nearest the end can get is the fold, the longest segment toward the target
    // and every other one back, ending 2·ℓ_max - L from the root.
    const glm::vec3 u = to_target / d;
    bool longest_done = false;
    for (int i = 0; i + 1 < count; ++i) {
      const bool is_longest = !longest_done && lengths[i] == g.longest;
      longest_done = longest_done || is_longest;
      p[i + 1] = p[i] + (is_longest ? lengths[i] : -lengths[i]) * u;
    }
    return true;
  }
  bool stepped = false;
  for (int round = 0; round < 3; ++round) {
    RotationFallback rf;
    const glm::quat turn =
        RotationBetween(p[count - 1] - root, target - root, glm::vec3(0.0f), &rf);
    if (rf == RotationFallback::kNone) {
      for (int i = 1; i < count; ++i) p[i] = root + Rotate(turn, p[i] - root);
      stepped = true;
    }
    if (!AdjustReach(p, lengths, count, target, g)) break;
    stepped = true;
    if (glm::length(p[count - 1] - target) <= 0.25f * tolerance_model) break;
  }
  return stepped;
}

// The iteration loop, with the forward pass supplied (positions only, or frames with limits); it
// returns false to stop the iterations.
template <typename Forward>
FabrikPositionsResult Iterate(glm::vec3* p, const float* lengths, int count,
                              const glm::vec3& target, const FabrikOptions& options,
                              bool positions_only, Forward&& forward,
                              std::vector<std::vector<glm::vec3>>* iteration_positions) {
  FabrikPositionsResult r;
  const ChainGeometry g = Measure(lengths, count);
  const glm::vec3 root = p[0];
  const float distance = glm::length(target - root);
  r.tolerance_model = options.tolerance * g.total;
  r.unreachable = distance > g.total || distance < 2.0f * g.longest - g.total;
  auto record = [&]() {
    if (iteration_positions) iteration_positions->emplace_back(p, p + count);
  };
  record();
  r.error = glm::length(p[count - 1] - target);
  if (!(g.total > 1e-30f)) {
    r.fallback = FabrikFallback::kZeroLengthChain;
    r.reached = r.error <= r.tolerance_model;
    return r;
  }
  if (r.error <= r.tolerance_model) {
    r.reached = true;
    return r;
  }
  glm::vec3 last_dir = target - root;
  last_dir = glm::dot(last_dir, last_dir) > g.min_len2 ? glm::normalize(last_dir)
                                                       : AnyPerpendicular(glm::vec3(0.0f));
  if (positions_only && distance >= g.total) {
    // Out of reach: straight toward the target, no iterations needed.
    for (int i = 0; i + 1 < count; ++i) p[i + 1] = p[i] + lengths[i] * last_dir;
    record();
    r.error = glm::length(p[count - 1] - target);
    r.reached = r.error <= r.tolerance_model;
    return r;
  }
  // (Out of reach, on the line is where the chain belongs: stretched, or folded.)
  if (!r.unreachable && BendStraightChain(p, count, target, g, options.bend_hint_model, false)) {
    r.fallback = FabrikFallback::kStraightChain;
  }
  // Stop early when an iteration no longer moves the end: the best reachable point was found (or
  // the chain folded onto the target's line, which the bend below undoes).
  const float stall = 1e-3f * r.tolerance_model;
  // Reach steps are kept only when the pass after them at least halves the error; otherwise the
  // positions before the step come back and no more steps are taken (on some folded short chains
  // step and passes would take turns undoing each other).
  glm::vec3 saved[kMaxStepSegments + 1];
  // (Too-close targets take them too: the steps clamp the reach into what the chain can do.)
  bool steps = positions_only && distance < g.total && count - 1 <= kMaxStepSegments;
  int step_at = -1;  // the iteration after which the last step was taken
  float error_at_step = 0.0f;
  int bends = 0;
  // A reach step in place of the next pass's start: keeps the positions before it in `saved`.
  // True when the step itself landed within tolerance.
  auto take_step = [&](int it) {
    std::copy(p, p + count, saved);
    error_at_step = r.error;
    if (!ReachStep(p, lengths, count, target, g, r.tolerance_model)) return false;
    step_at = it;
    const float error = glm::length(p[count - 1] - target);
    if (error > r.tolerance_model) return false;
    r.error = error;
    r.reached = true;
    return true;
  };
  // When steps are off (or fail) and the passes still crawl, extrapolate: FABRIK is a fixed-point
  // iteration whose joints then move the same way each pass, by a factor ρ (the error ratio) less
  // each time, so the remaining motion is about ρ/(1 - ρ) times the last one. The joints jump that
  // far (capped) and the next pass restores the lengths. Undone like a step when it does not help.
  glm::vec3 previous[kMaxStepSegments + 1];
  bool extrapolate = positions_only && distance < g.total && count - 1 <= kMaxStepSegments;
  int extrapolated_at = -1;
  float error_at_extrapolation = 0.0f;
  float ratio_before = 0.0f;
  float max_factor = 16.0f;
  for (int it = 1; it <= options.max_iterations; ++it) {
    const glm::vec3 end_before = p[count - 1];
    const float error_before = r.error;
    if (extrapolate) std::copy(p, p + count, previous);
    BackwardPass(p, lengths, count, target, g, &last_dir);
    const bool go_on = forward(p, &last_dir);
    r.iterations = it;
    r.error = glm::length(p[count - 1] - target);
    if (step_at == it - 1) {
      // The pass after a step: undo the step if it made things worse; stop stepping unless it
      // at least halved the error.
      if (r.error > error_at_step) {
        std::copy(saved, saved + count, p);
        r.error = error_at_step;
      }
      if (r.error > 0.5f * error_at_step) steps = false;
    }
    if (extrapolated_at == it - 1) {
      // Too far a jump is undone and the next may go a quarter as far; a good one may go further.
      if (r.error > error_at_extrapolation) {
        std::copy(saved, saved + count, p);
        r.error = error_at_extrapolation;
        max_factor *= 0.25f;
        extrapolate = max_factor >= 1.0f;
      } else {
        max_factor = std::min(2.0f * max_factor, 256.0f);
      }
    }
    if (r.error <= r.tolerance_model) {
      record();
      r.reached = true;
      break;
    }
    if (!go_on) {
      record();
      break;
    }
    // Stalled: the end no longer moves, or, out of reach, the error no longer shrinks.
    const bool stalled = glm::length(p[count - 1] - end_before) < stall ||
                         (r.unreachable && error_before - r.error < stall);
    const float ratio = error_before > 0.0f ? r.error / error_before : 1.0f;
    // Crawling (the error shrank by less than half) or stuck: take a reach step before the next
    // pass, never twice in a row. Not with limits, whose forward pass would undo it.
    if (steps && it > step_at + 1 && (stalled || ratio > 0.5f)) {
      const bool done = take_step(it);
      if (step_at == it) {
        record();
        if (done) break;
        ratio_before = 0.0f;
        continue;
      }
    }
    if (extrapolate && !stalled && it > step_at + 1 && it > extrapolated_at + 1 && ratio > 0.5f &&
        ratio < 1.0f && ratio_before > 0.5f) {
      std::copy(p, p + count, saved);
      error_at_extrapolation = r.error;
      const float factor = std::min(ratio / (1.0f - ratio), max_factor);
      for (int i = 1; i < count; ++i) p[i] += factor * (p[i] - previous[i]);
      extrapolated_at = it;
      ratio_before = 0.0f;
      record();
      continue;
    }
    ratio_before = ratio;
    if (stalled) {
      // Stuck short of a reachable target: on the target's line, or (without limits) folded along
      // a line. Bend off it and go on (twice at most); otherwise this is the best there is.
      if (bends < 2 && !r.unreachable &&
          BendStraightChain(p, count, target, g, options.bend_hint_model, positions_only)) {
        ++bends;
        r.fallback = FabrikFallback::kStraightChain;
        record();
        continue;
      }
      record();
      break;
    }
    record();
  }
  return r;
}

// The chain as the frame passes see it: the joints (root .. end's parent) and the root's parent
// frame.
struct FrameChain {
  const FabrikChainJoint* joints = nullptr;
  int n = 0;                     // joints: count - 1
  glm::mat3 parent_basis{1.0f};  // the root's parent's 3x3 part, and its inverse
  glm::mat3 parent_inverse{1.0f};
  glm::vec3 root_position{0.0f};
};

// The child's parent frame after joint i turned: F · S (F = A · R', the joint's own frame), and
// its inverse S⁻¹ · F⁻¹.
inline void NextFrame(const glm::mat3& frame, const glm::mat3& frame_inverse,
                      const FabrikChainJoint& joint, glm::mat3* basis, glm::mat3* inverse) {
  const glm::vec3& s = joint.local.scale;
  *basis = frame;
  (*basis)[0] *= s.x;
  (*basis)[1] *= s.y;
  (*basis)[2] *= s.z;
  *inverse = frame_inverse;
  for (int c = 0; c < 3; ++c) (*inverse)[c] *= joint.inverse_scale;
}

// Prepares the quick inside test of `joint`'s limit.
void PrepareLimit(FabrikChainJoint* joint) {
  const JointLimit* limit = joint->limit;
  if (!limit) return;
  const bool hinge = limit->type == JointLimit::Type::kHinge;
  joint->limit_axis = glm::normalize(hinge ? limit->axis_local : limit->twist_axis_local);
  joint->cos_cone = hinge ? 1.0f : std::cos(limit->cone_angle);
  const float low = 0.5f * (hinge ? limit->min_angle : limit->twist_min);
  const float high = 0.5f * (hinge ? limit->max_angle : limit->twist_max);
  joint->low_cos = std::cos(low);
  joint->low_sin = std::sin(low);
  joint->high_cos = std::cos(high);
  joint->high_sin = std::sin(high);
}

// ClampRotation for a unit `rotation`, with a quick path for the common case of a rotation inside
// the limit: a hinge or twist angle θ = 2·atan2(s, w) (w >= 0) lies in [lo, hi] exactly when
// sin(θ/2 - lo/2) >= 0 and sin(θ/2 - hi/2) <= 0 (all half angles are within ±π/2), i.e.
// s·cos(lo/2) - w·sin(lo/2) >= 0 and s·cos(hi/2) - w·sin(hi/2) <= 0; a cone's swing is within
// it when the axis turned by Δ stays within cos(cone) of itself. No trigonometry on that path.
glm::quat ClampQuick(const FabrikChainJoint& joint, const glm::quat& rotation, bool* clamped) {
  const JointLimit& limit = *joint.limit;
  const glm::quat delta = glm::conjugate(joint.rest_rotation) * rotation;
  const glm::vec3& axis = joint.limit_axis;
  float s = delta.x * axis.x + delta.y * axis.y + delta.z * axis.z;
  float w = delta.w;
  if (w < 0.0f) {
    w = -w;
    s = -s;
  }
  const bool twist_inside = w * w + s * s > 1e-6f &&
                            s * joint.low_cos - w * joint.low_sin >= 0.0f &&
                            s * joint.high_cos - w * joint.high_sin <= 0.0f;
  if (twist_inside) {
    if (limit.type == JointLimit::Type::kHinge) {
      // Inside the range: only the part off the axis (rounding, for the refinement's turns)
      // goes.
      const float off2 =
          glm::dot(glm::vec3(delta.x, delta.y, delta.z), glm::vec3(delta.x, delta.y, delta.z)) -
          s * s;
      if (off2 < 1e-12f) {
        const float inv = 1.0f / std::sqrt(w * w + s * s);
        return internal::Normalize(joint.rest_rotation * glm::quat(w * inv, s * inv * axis.x,
                                                                   s * inv * axis.y,
                                                                   s * inv * axis.z));
      }
    } else if (glm::dot(Rotate(delta, axis), axis) >= joint.cos_cone) {
      return rotation;
    }
  }
  return ClampRotation(limit, joint.rest_rotation, rotation, clamped);
}

// Points each joint at the next position root to tip (see the top of the file): joint i's new
// rotation is base[i] times the minimal turn, in its own frame, onto p_{i+1}, clamped by its limit.
// Writes the rotations into `rotations` (which may be `base`) and the positions forward
// kinematics then gives into p. `limited` (optional) is set when a limit changed a rotation.
void FramePass(const FrameChain& chain, const glm::quat* base, glm::vec3* p, glm::quat* rotations,
               bool* limited) {
  glm::mat3 basis = chain.parent_basis;
  glm::mat3 inverse = chain.parent_inverse;
  p[0] = chain.root_position;
  for (int i = 0; i < chain.n; ++i) {
    const FabrikChainJoint& joint = chain.joints[i];
    const glm::mat3 r = RotationMatrix(base[i]);
    // The wanted direction in the joint's own frame: Rᵀ · A_parent⁻¹ · (p_{i+1} - p_i).
    const glm::vec3 wanted = glm::transpose(r) * (inverse * (p[i + 1] - p[i]));
    glm::quat rotation = internal::Normalize(base[i] * RotationBetween(joint.child_offset, wanted));
    if (joint.limit) {
      bool clamped = false;
      rotation = joint.limit->type == JointLimit::Type::kCone
                     ? ClampQuick(joint, rotation, &clamped)
                     : ClampPointing(*joint.limit, joint.rest_rotation, rotation,
                                     joint.child_offset, &clamped);
      if (limited && clamped) *limited = true;
    }
    rotations[i] = rotation;
    const glm::mat3 r_new = RotationMatrix(rotation);
    const glm::mat3 frame = basis * r_new;
    p[i + 1] = p[i] + frame * joint.child_offset;
    NextFrame(frame, glm::transpose(r_new) * inverse, joint, &basis, &inverse);
  }
}

// Forward kinematics of the chain for the given rotations: positions, and each joint's own frame
// F_i = A_i · R_i and its inverse.
void FkFrames(const FrameChain& chain, const glm::quat* rotations, glm::vec3* p, glm::mat3* frames,
              glm::mat3* inverses) {
  glm::mat3 basis = chain.parent_basis, inverse = chain.parent_inverse;
  p[0] = chain.root_position;
  for (int i = 0; i < chain.n; ++i) {
    const glm::mat3 r = RotationMatrix(rotations[i]);
    frames[i] = basis * r;
    inverses[i] = glm::transpose(r) * inverse;
    p[i + 1] = p[i] + frames[i] * chain.joints[i].child_offset;
    NextFrame(frames[i], inverses[i], chain.joints[i], &basis, &inverse);
  }
}

// The own-frame axes the refinement turns a joint about: a hinge's axis; any axis for a cone
// (its twist range bounds the turn about the bone); for a free joint the two axes across its bone,
// so it never rolls (all three when the bone has no length).
void SetTurnAxes(FabrikChainJoint* joint) {
  const glm::vec3 bone = joint->child_offset;
  if (joint->limit && joint->limit->type == JointLimit::Type::kHinge) {
    joint->axes[0] = glm::normalize(joint->limit->axis_local);
    joint->axis_count = 1;
  } else if (!joint->limit && glm::dot(bone, bone) > 1e-20f) {
    joint->axes[0] = AnyPerpendicular(bone);
    joint->axes[1] = glm::normalize(glm::cross(bone, joint->axes[0]));
    joint->axis_count = 2;
  } else {
    joint->axes[0] = glm::vec3(1.0f, 0.0f, 0.0f);
    joint->axes[1] = glm::vec3(0.0f, 1.0f, 0.0f);
    joint->axes[2] = glm::vec3(0.0f, 0.0f, 1.0f);
    joint->axis_count = 3;
  }
}

// One sweep of cyclic coordinate descent, tip to root: each joint turns, in its own frame, by the
// minimal rotation that points the end at the target, clamped by its limit (free joints drop the
// turn's part about their bone). Big moves for little work, far from the target. Expects
// positions and frames of `rotations`; leaves them updated.
void CcdSweep(const FrameChain& chain, const glm::vec3& target, glm::quat* rotations, glm::vec3* p,
              glm::mat3* frames, glm::mat3* inverses, bool* limited) {
  const int n = chain.n;
  glm::vec3 end = p[n];
  for (int i = n - 1; i >= 0; --i) {
    const FabrikChainJoint& joint = chain.joints[i];
    const glm::vec3 from = inverses[i] * (end - p[i]);
    const glm::vec3 to = inverses[i] * (target - p[i]);
    glm::quat turn = RotationBetween(from, to);
    if (!joint.limit) {
      const glm::vec3 bone = joint.child_offset;
      const float bone2 = glm::dot(bone, bone);
      if (bone2 > 0.0f) {
        const float along = (turn.x * bone.x + turn.y * bone.y + turn.z * bone.z) / bone2;
        const glm::quat twist =
            internal::Normalize(glm::quat(turn.w, along * bone.x, along * bone.y, along * bone.z));
        turn = internal::Normalize(turn * glm::conjugate(twist));
      }
    }
    glm::quat rotation = internal::Normalize(rotations[i] * turn);
    if (joint.limit) {
      bool clamped = false;
      rotation = ClampQuick(joint, rotation, &clamped);
      if (clamped) *limited = true;
    }
    // The end moves with the joint's turn: F_i' = F_i · R_i⁻¹ R_i'.
    const glm::quat delta = glm::conjugate(rotations[i]) * rotation;
    end = p[i] + frames[i] * Rotate(delta, from);
    rotations[i] = rotation;
  }
  FkFrames(chain, rotations, p, frames, inverses);
}

// A pseudo-random number in [0, 1) from *state (xorshift32).
float NextUniform(std::uint32_t* state) {
  std::uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return static_cast<float>(x >> 8) * (1.0f / 16777216.0f);
}

// A rotation of `joint` within its limit, for restarts: a hinge angle in its range, a swing
// within the cone and a twist within range; a free joint turns its input rotation by up to 1 rad
// across its bone.
glm::quat TurnWithin(const FabrikChainJoint& joint, std::uint32_t* state) {
  const float u1 = NextUniform(state), u2 = NextUniform(state), u3 = NextUniform(state);
  const JointLimit* limit = joint.limit;
  if (!limit) {
    const float phi = internal::kTwoPi * u1;
    const glm::vec3 axis = std::cos(phi) * joint.axes[0] +
                           (joint.axis_count > 1 ? std::sin(phi) * joint.axes[1] : glm::vec3(0));
    return internal::Normalize(joint.local.rotation *
                               internal::AxisAngle(glm::normalize(axis), u2));
  }
  if (limit->type == JointLimit::Type::kHinge) {
    return internal::Normalize(
        joint.rest_rotation *
        internal::AxisAngle(joint.axes[0],
                            limit->min_angle + u1 * (limit->max_angle - limit->min_angle)));
  }
  const glm::vec3 axis = glm::normalize(limit->twist_axis_local);
  const glm::vec3 side = AnyPerpendicular(axis);
  const float phi = internal::kTwoPi * u1;
  const glm::vec3 across = std::cos(phi) * side + std::sin(phi) * glm::cross(axis, side);
  const glm::quat swing = internal::AxisAngle(across, u2 * limit->cone_angle);
  const glm::quat twist =
      internal::AxisAngle(axis, limit->twist_min + u3 * (limit->twist_max - limit->twist_min));
  return internal::Normalize(joint.rest_rotation * (swing * twist));
}

// One damped least-squares step is the minimal-norm turn set that moves the end by r (see the top
// of the file). Solves (M + λ²I) y = r for a symmetric 3x3 M, in double; false when singular.
bool SolveSymmetric3(const double m[6], double lambda2, const glm::vec3& r, glm::dvec3* y) {
  // m: xx, xy, xz, yy, yz, zz.
  const double a = m[0] + lambda2, b = m[1], c = m[2], d = m[3] + lambda2, e = m[4],
               f = m[5] + lambda2;
  const double c00 = d * f - e * e, c01 = c * e - b * f, c02 = b * e - c * d;
  const double det = a * c00 + b * c01 + c * c02;
  if (!(std::abs(det) > 1e-300) || !std::isfinite(det)) return false;
  const double c11 = a * f - c * c, c12 = b * c - a * e, c22 = a * d - b * b;
  const glm::dvec3 rd(r);
  *y = glm::dvec3(c00 * rd.x + c01 * rd.y + c02 * rd.z, c01 * rd.x + c11 * rd.y + c12 * rd.z,
                  c02 * rd.x + c12 * rd.y + c22 * rd.z) /
       det;
  return std::isfinite(y->x) && std::isfinite(y->y) && std::isfinite(y->z);
}

// Buffers of the refinement: two states (current and trial) that swap.
struct RefineBuffers {
  glm::vec3* p[2];
  glm::quat* rotations[2];
  glm::mat3* frames[2];
  glm::mat3* inverses[2];
  glm::vec3* columns;          // 3 per joint
  glm::vec3* turns;            // 1 per joint
  glm::vec3* lever;            // 1 per joint: the end in the joint's own frame
  glm::vec3* blocked;          // 2 per joint: own-frame directions a limit blocks this step
  glm::vec3* blocked_columns;  // 2 per joint
  int* blocked_count;          // 1 per joint
};

// The refinement with limits (see the top of the file): Levenberg-Marquardt on the joints'
// own-frame turns, every step clamped by the limits and kept only when it brings the end nearer.
// Starts from buffers.rotations[*current] (within the limits) with its positions and frames
// filled in; leaves the best state in *current. Returns the steps taken.
int Refine(const FrameChain& chain, const glm::vec3& target, float tolerance_model, int max_steps,
           const RefineBuffers& b, int* current, bool* limited) {
  const int n = chain.n;
  int cur = *current;
  float error = glm::length(target - b.p[cur][n]);
  double mu = 1e-3;                 // λ² relative to the mean of M's diagonal
  constexpr float kMaxTurn = 0.6f;  // radians per joint and step
  constexpr int kClampPasses = 6;
  constexpr int kCrawlSteps = 5;
  constexpr float kCrawlRatio = 0.7f;
  int steps = 0;
  int failures = 0;
  float error_checkpoint = error;
  while (steps < max_steps && error > tolerance_model) {
    // Crawling (along a limit, into a local minimum): give the steps to another start.
    if (steps % kCrawlSteps == kCrawlSteps - 1) {
      if (error > kCrawlRatio * error_checkpoint) break;
      error_checkpoint = error;
    }
    ++steps;
    const glm::vec3 end = b.p[cur][n];
    const glm::vec3 r = target - end;
    double m[6] = {0, 0, 0, 0, 0, 0};
    auto add = [&m](const glm::vec3& c, double sign) {
      const glm::dvec3 cd(c);
      m[0] += sign * cd.x * cd.x;
      m[1] += sign * cd.x * cd.y;
      m[2] += sign * cd.x * cd.z;
      m[3] += sign * cd.y * cd.y;
      m[4] += sign * cd.y * cd.z;
      m[5] += sign * cd.z * cd.z;
    };
    for (int i = 0; i < n; ++i) {
      const FabrikChainJoint& joint = chain.joints[i];
      b.blocked_count[i] = 0;
      b.lever[i] = b.inverses[cur][i] * (end - b.p[cur][i]);
      for (int k = 0; k < joint.axis_count; ++k) {
        const glm::vec3 c = b.frames[cur][i] * glm::cross(joint.axes[k], b.lever[i]);
        b.columns[3 * i + k] = c;
        add(c, 1.0);
      }
    }
    const double trace = m[0] + m[3] + m[5];
    if (!(trace > 0.0)) break;
    const int next = 1 - cur;
    bool clamped_any = false;
    bool solved = false;
    for (int pass = 0; pass < kClampPasses; ++pass) {
      glm::dvec3 y;
      if (!SolveSymmetric3(m, mu * trace / 3.0, r, &y)) break;
      solved = true;
      const glm::vec3 yf(y);
      // The turns, without the directions blocked by limits, scaled down together so no joint
      // turns more than kMaxTurn.
      float largest = 0.0f;
      for (int i = 0; i < n; ++i) {
        const FabrikChainJoint& joint = chain.joints[i];
        glm::vec3 w(0.0f);
        for (int k = 0; k < joint.axis_count; ++k) {
          w += glm::dot(b.columns[3 * i + k], yf) * joint.axes[k];
        }
        for (int k = 0; k < b.blocked_count[i]; ++k) {
          w -= glm::dot(b.blocked_columns[2 * i + k], yf) * b.blocked[2 * i + k];
        }
        b.turns[i] = w;
        largest = std::max(largest, glm::length(w));
      }
      const float scale = largest > kMaxTurn ? kMaxTurn / largest : 1.0f;
      clamped_any = false;
      bool blocked_more = false;
      for (int i = 0; i < n; ++i) {
        const FabrikChainJoint& joint = chain.joints[i];
        const glm::vec3 w = scale * b.turns[i];
        const glm::vec3 half = 0.5f * w;
        const glm::quat old = b.rotations[cur][i];
        glm::quat q = internal::Normalize(old * glm::quat(1.0f, half.x, half.y, half.z));
        if (joint.limit) {
          bool clamped = false;
          q = ClampQuick(joint, q, &clamped);
          if (clamped) {
            clamped_any = true;
            // The part of the turn the limit took away is a direction this joint cannot turn
            // in now: take it out of the step (from M and from the turns) and solve again.
            glm::quat done = glm::conjugate(old) * q;
            if (done.w < 0.0f) done = -done;
            const glm::vec3 w_done = 2.0f * glm::vec3(done.x, done.y, done.z);
            glm::vec3 g = w - w_done;
            for (int k = 0; k < b.blocked_count[i]; ++k) {
              g -= glm::dot(g, b.blocked[2 * i + k]) * b.blocked[2 * i + k];
            }
            const float g_len = glm::length(g);
            if (b.blocked_count[i] < 2 && g_len > 1e-3f * glm::length(w) && g_len > 1e-7f) {
              g /= g_len;
              const glm::vec3 c = b.frames[cur][i] * glm::cross(g, b.lever[i]);
              b.blocked[2 * i + b.blocked_count[i]] = g;
              b.blocked_columns[2 * i + b.blocked_count[i]] = c;
              ++b.blocked_count[i];
              add(c, -1.0);
              blocked_more = true;
            }
          }
        }
        b.rotations[next][i] = q;
      }
      if (!blocked_more) break;
    }
    if (!solved) break;
    FkFrames(chain, b.rotations[next], b.p[next], b.frames[next], b.inverses[next]);
    const float trial_error = glm::length(target - b.p[next][n]);
    if (trial_error < error) {
      cur = next;
      if (clamped_any) *limited = true;
      mu = std::max(mu * 0.3, 1e-7);
      // Barely moving: a minimum of the error within the limits.
      if (error - trial_error < 1e-5f * tolerance_model) {
        error = trial_error;
        break;
      }
      error = trial_error;
      failures = 0;
    } else {
      mu *= 8.0;
      if (++failures > 6) break;
    }
  }
  *current = cur;
  return steps;
}

bool InputsSane(const glm::vec3* positions, const float* lengths, int count,
                const glm::vec3& target) {
  if (!Sane(target)) return false;
  for (int i = 0; i < count; ++i)
    if (!Sane(positions[i])) return false;
  for (int i = 0; i + 1 < count; ++i)
    if (!std::isfinite(lengths[i]) || !(lengths[i] >= 0.0f) || !(lengths[i] < kMaxCoordinate)) {
      return false;
    }
  return true;
}

}  // namespace

FabrikPositionsResult SolveFabrikPositions(
    glm::vec3* positions, const float* lengths, int count, const glm::vec3& target_model,
    const FabrikOptions& options, std::vector<std::vector<glm::vec3>>* iteration_positions) {
  FabrikPositionsResult r;
  if (!positions || !lengths || count < 2) {
    r.fallback = FabrikFallback::kInvalidChain;
    return r;
  }
  if (!options.Validate()) {
    r.fallback = FabrikFallback::kInvalidOptions;
    return r;
  }
  if (!InputsSane(positions, lengths, count, target_model)) {
    r.fallback = FabrikFallback::kNonFiniteInput;
    return r;
  }
  // The forward pass puts the root back where it was; the backward pass moves positions[0].
  const ChainGeometry g = Measure(lengths, count);
  const glm::vec3 root = positions[0];
  auto forward = [&](glm::vec3* p, glm::vec3* last_dir) {
    ForwardPass(p, lengths, count, root, g, last_dir);
    return true;
  };
  return Iterate(positions, lengths, count, target_model, options, true, forward,
                 iteration_positions);
}

FabrikPositionsResult SolveFabrikPositions(std::vector<glm::vec3>* positions,
                                           const glm::vec3& target_model,
                                           const FabrikOptions& options) {
  if (!positions || positions->size() < 2) {
    FabrikPositionsResult r;
    r.fallback = FabrikFallback::kInvalidChain;
    return r;
  }
  std::vector<float> lengths(positions->size() - 1);
  for (size_t i = 0; i + 1 < positions->size(); ++i) {
    lengths[i] = glm::length((*positions)[i + 1] - (*positions)[i]);
  }
  return SolveFabrikPositions(positions->data(), lengths.data(),
                              static_cast<int>(positions->size()), target_model, options);
}

std::string ValidateFabrikChain(const Skeleton& skeleton, int root, int end) {
  const int n = skeleton.joint_count();
  if (root < 0 || root >= n) return "root joint index out of range";
  if (end < 0 || end >= n) return "end joint index out of range";
  if (end == root || !skeleton.IsAncestorOrSelf(root, end)) {
    return "end joint '" + skeleton.name(end) + "' is not below root joint '" +
           skeleton.name(root) + "'";
  }
  return "";
}

std::vector<int> FabrikChainJoints(const Skeleton& skeleton, int root, int end) {
  if (!ValidateFabrikChain(skeleton, root, end).empty()) return {};
  std::vector<int> joints;
  for (int j = end; j != root; j = skeleton.parent(j)) joints.push_back(j);
  joints.push_back(root);
  std::reverse(joints.begin(), joints.end());
  return joints;
}

void SolveFabrikPose(const Skeleton& skeleton, int root, int end, const glm::vec3& target_model,
                     const FabrikOptions& options, const JointLimits* limits, Pose* pose,
                     std::vector<glm::mat4>* models, FabrikWorkspace* workspace,
                     FabrikResult* result_out) {
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
  const int joint_count = skeleton.joint_count();
  auto fail = [&](FabrikFallback why) {
    result.degenerate = true;
    result.fallback = why;
    result.iteration_positions.clear();
  };
  if (!pose || !models || !workspace || static_cast<int>(pose->locals.size()) != joint_count ||
      static_cast<int>(models->size()) != joint_count ||
      !ValidateFabrikChain(skeleton, root, end).empty()) {
    return fail(FabrikFallback::kInvalidChain);
  }
  if (!options.Validate() || (limits && !limits->Validate(skeleton))) {
    return fail(FabrikFallback::kInvalidOptions);
  }
  auto& locals = pose->locals;
  const auto& m = *models;
  std::vector<int>& joints = result.joints;
  for (int j = end; j != root; j = skeleton.parent(j)) joints.push_back(j);
  joints.push_back(root);
  std::reverse(joints.begin(), joints.end());
  const int count = static_cast<int>(joints.size());
  const int root_parent = skeleton.parent(root);

  if (!Sane(target_model) || (root_parent >= 0 && !IsFinite(m[root_parent]))) {
    return fail(FabrikFallback::kNonFiniteInput);
  }
  for (int j : joints) {
    if (!locals[j].IsFinite() || !IsFinite(m[j]) || !Sane(glm::vec3(m[j][3]))) {
      return fail(FabrikFallback::kNonFiniteInput);
    }
  }

  // The frame chain: every joint but the end, and the root's parent frame (inverted once).
  FabrikWorkspace& ws = *workspace;
  const int n = count - 1;
  ws.chain.resize(n);
  const auto& rest = skeleton.rest_locals();
  bool use_frames = false;
  for (int i = 0; i < n; ++i) {
    internal::JointFrame frame;
    if (!internal::MakeJointFrame(m[joints[i]], locals[joints[i]].scale, &frame)) {
      return fail(FabrikFallback::kSingularFrame);
    }
    FabrikChainJoint& cj = ws.chain[i];
    cj.local = locals[joints[i]];
    cj.rest_rotation = internal::Normalize(rest[joints[i]].rotation);
    cj.child_offset = cj.local.scale * locals[joints[i + 1]].translation;
    cj.inverse_scale = 1.0f / cj.local.scale;  // finite: MakeJointFrame checked the scale
    cj.limit = limits ? limits->Find(joints[i]) : nullptr;
    use_frames = use_frames || cj.limit != nullptr;
    SetTurnAxes(&cj);
    PrepareLimit(&cj);
  }
  FrameChain chain;
  chain.joints = ws.chain.data();
  chain.n = n;
  if (root_parent >= 0) {
    internal::JointFrame parent_frame;
    if (!internal::MakeJointFrame(m[root_parent], glm::vec3(1.0f), &parent_frame)) {
      return fail(FabrikFallback::kSingularFrame);
    }
    chain.parent_basis = parent_frame.basis;
    chain.parent_inverse = parent_frame.inverse;
  }
  chain.root_position = glm::vec3(m[root][3]);

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
  for (int i = 0; i < n; ++i) rotations[i] = locals[joints[i]].rotation;

  // Solve. Without limits the forward pass works on positions and one frame pass converts at the
  // end; with limits the frame pass is the forward pass, and the refinement follows.
  auto* record = options.record_iterations ? &result.iteration_positions : nullptr;
  FabrikPositionsResult solve;
  bool limited = false;  // a limit clamped a rotation somewhere in the solve
  const float* lengths = ws.lengths.data();
  if (use_frames) {
    for (int k = 0; k < 2; ++k) {
      ws.frames[k].resize(n);
      ws.inverses[k].resize(n);
    }
    ws.best.resize(n);
    ws.columns.resize(3 * static_cast<size_t>(n));
    ws.turns.resize(n);
    ws.lever.resize(n);
    ws.blocked.resize(2 * static_cast<size_t>(n));
    ws.blocked_columns.resize(2 * static_cast<size_t>(n));
    ws.blocked_count.resize(n);
    // Start within the limits.
    for (int i = 0; i < n; ++i) {
      if (!ws.chain[i].limit) continue;
      bool clamped = false;
      rotations[i] = ClampQuick(ws.chain[i], internal::Normalize(rotations[i]), &clamped);
      limited = limited || clamped;
    }
    FkFrames(chain, rotations, p, ws.frames[0].data(), ws.inverses[0].data());
    std::copy(rotations, rotations + n, ws.best.begin());
    float best_error = glm::length(p[n] - target_model);
    // A few FABRIK iterations whose forward pass is the clamped frame pass: they move the chain
    // as a whole toward the target (the refinement's steps are local), keeping the best state.
    const int fabrik_iterations = std::min(options.max_iterations, kLimitedFabrikIterations);
    auto forward = [&](glm::vec3* q, glm::vec3*) {
      FramePass(chain, rotations, q, rotations, &limited);
      const float error = glm::length(q[n] - target_model);
      if (error < best_error) {
        best_error = error;
        std::copy(rotations, rotations + n, ws.best.begin());
      }
      return true;
    };
    FabrikOptions fabrik_options = options;
    fabrik_options.max_iterations = fabrik_iterations;
    solve = Iterate(p, lengths, count, target_model, fabrik_options, false, forward, record);
    std::copy(ws.best.begin(), ws.best.end(), rotations);
    FkFrames(chain, rotations, p, ws.frames[0].data(), ws.inverses[0].data());
    RefineBuffers buffers;
    for (int k = 0; k < 2; ++k) {
      buffers.p[k] = ws.positions[k].data();
      buffers.rotations[k] = ws.rotations[k].data();
      buffers.frames[k] = ws.frames[k].data();
      buffers.inverses[k] = ws.inverses[k].data();
    }
    buffers.columns = ws.columns.data();
    buffers.turns = ws.turns.data();
    buffers.lever = ws.lever.data();
    buffers.blocked = ws.blocked.data();
    buffers.blocked_columns = ws.blocked_columns.data();
    buffers.blocked_count = ws.blocked_count.data();
    int current = 0;
    auto refine = [&]() {
      solve.iterations +=
          Refine(chain, target_model, solve.tolerance_model,
                 options.max_iterations - solve.iterations, buffers, &current, &limited);
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
                        Measure(lengths, count).total + solve.tolerance_model;
    for (int restart = 0; restart < kRestarts && !beyond && best_error > solve.tolerance_model &&
                          solve.iterations < options.max_iterations;
         ++restart) {
      glm::quat* q = buffers.rotations[current];
      for (int i = 0; i < n; ++i) q[i] = TurnWithin(ws.chain[i], &seed);
      FkFrames(chain, q, buffers.p[current], buffers.frames[current], buffers.inverses[current]);
      for (int sweep = 0; sweep < kRestartSweeps && solve.iterations < options.max_iterations;
           ++sweep, ++solve.iterations) {
        CcdSweep(chain, target_model, q, buffers.p[current], buffers.frames[current],
                 buffers.inverses[current], &limited);
      }
      refine();
    }
    std::copy(ws.best.begin(), ws.best.end(), rotations);
    if (record) {
      FkFrames(chain, rotations, p, ws.frames[0].data(), ws.inverses[0].data());
      record->emplace_back(p, p + count);
    }
  } else {
    const ChainGeometry g = Measure(lengths, count);
    const glm::vec3 root_position = chain.root_position;
    auto forward = [&](glm::vec3* q, glm::vec3* last_dir) {
      ForwardPass(q, lengths, count, root_position, g, last_dir);
      return true;
    };
    solve = Iterate(p, lengths, count, target_model, options, true, forward, record);
    // The conversion.
    FramePass(chain, rotations, p, rotations, &limited);
  }

  // Weight, write back, forward kinematics for the root's subtree. The input rotations stay in
  // ws.chain for the weight blend and for undoing a non-finite result.
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

  result.positions.resize(count);
  bool finite = true;
  for (int i = 0; i < count; ++i) {
    result.positions[i] = glm::vec3((*models)[joints[i]][3]);
    finite = finite && IsFinite(result.positions[i]);
  }
  result.error = glm::length(result.positions.back() - target_model);
  if (!finite || !std::isfinite(result.error)) {
    for (int i = 0; i < n; ++i) locals[joints[i]].rotation = ws.chain[i].local.rotation;
    LocalToModelFrom(skeleton, *pose, root, models);
    result.positions.clear();
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
