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
// The pose level, with and without joint limits, is in fabrik_pose.cpp and fabrik_limits.cpp.
#include "ik/chains/fabrik.h"

#include <algorithm>
#include <cmath>

#include "ik/chains/fabrik_internal.h"
#include "ik/core/constraint_util.h"
#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"

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

// Coordinates beyond this would overflow float when squared.
constexpr float kMaxCoordinate = 1e18f;

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

// The accelerations of FabrikIterate (see the top of the file): reach steps and extrapolation,
// each undone when the pass after it does not help.
struct Accelerations {
  glm::vec3 saved[kMaxStepSegments + 1];     // the positions before the last step or jump
  glm::vec3 previous[kMaxStepSegments + 1];  // the positions before the last pass
  bool steps = false;                        // reach steps are on
  int step_at = -1;                          // the iteration after which the last step was taken
  float error_at_step = 0.0f;
  bool extrapolate = false;  // extrapolation is on
  int extrapolated_at = -1;
  float error_at_extrapolation = 0.0f;
  float ratio_before = 0.0f;
  float max_factor = 16.0f;

  // After iteration `it`'s pass: undoes a step or jump taken before it that made things worse.
  void JudgeLast(int it, glm::vec3* p, int count, FabrikPositionsResult* r) {
    if (step_at == it - 1) {
      // The pass after a step: undo the step if it made things worse; stop stepping unless it
      // at least halved the error.
      if (r->error > error_at_step) {
        std::copy(saved, saved + count, p);
        r->error = error_at_step;
      }
      if (r->error > 0.5f * error_at_step) steps = false;
    }
    if (extrapolated_at == it - 1) {
      // Too far a jump is undone and the next may go a quarter as far; a good one may go further.
      if (r->error > error_at_extrapolation) {
        std::copy(saved, saved + count, p);
        r->error = error_at_extrapolation;
        max_factor *= 0.25f;
        extrapolate = max_factor >= 1.0f;
      } else {
        max_factor = std::min(2.0f * max_factor, 256.0f);
      }
    }
  }
};

// The cases settled before iterating: a chain of no length, the end already on the target, or
// (positions only) a target out of reach, where the chain is laid straight toward it. True when
// `r` is final unless kNotYet. Sets *last_dir to the unit direction toward the target (from
// `*last_dir`, the offset from the root).
enum class Settled { kNotYet, kSettled, kLaidStraight };
Settled SettleBeforeIterating(glm::vec3* p, const float* lengths, int count,
                              const glm::vec3& target, const ChainGeometry& g, bool positions_only,
                              float distance, glm::vec3* last_dir, FabrikPositionsResult* r) {
  r->error = glm::length(p[count - 1] - target);
  if (!(g.total > 1e-30f)) {
    r->fallback = FabrikFallback::kZeroLengthChain;
    r->reached = r->error <= r->tolerance_model;
    return Settled::kSettled;
  }
  if (r->error <= r->tolerance_model) {
    r->reached = true;
    return Settled::kSettled;
  }
  *last_dir = glm::dot(*last_dir, *last_dir) > g.min_len2 ? glm::normalize(*last_dir)
                                                          : AnyPerpendicular(glm::vec3(0.0f));
  if (positions_only && distance >= g.total) {
    // Out of reach: straight toward the target, no iterations needed.
    for (int i = 0; i + 1 < count; ++i) p[i + 1] = p[i] + lengths[i] * *last_dir;
    r->error = glm::length(p[count - 1] - target);
    r->reached = r->error <= r->tolerance_model;
    return Settled::kLaidStraight;
  }
  return Settled::kNotYet;
}

bool InputsSane(const glm::vec3* positions, const float* lengths, int count,
                const glm::vec3& target) {
  if (!internal::FabrikSane(target)) return false;
  for (int i = 0; i < count; ++i)
    if (!internal::FabrikSane(positions[i])) return false;
  for (int i = 0; i + 1 < count; ++i)
    if (!std::isfinite(lengths[i]) || !(lengths[i] >= 0.0f) || !(lengths[i] < kMaxCoordinate)) {
      return false;
    }
  return true;
}

}  // namespace

namespace internal {

bool FabrikSane(const glm::vec3& v) {
  return IsFinite(v) && std::abs(v.x) < kMaxCoordinate && std::abs(v.y) < kMaxCoordinate &&
         std::abs(v.z) < kMaxCoordinate;
}

float FabrikChainLength(const float* lengths, int count) { return Measure(lengths, count).total; }

FabrikPositionsResult FabrikIterate(glm::vec3* p, const float* lengths, int count,
                                    const glm::vec3& target, const FabrikOptions& options,
                                    bool positions_only, FabrikForward forward,
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
  glm::vec3 last_dir = target - root;
  const Settled settled =
      SettleBeforeIterating(p, lengths, count, target, g, positions_only, distance, &last_dir, &r);
  if (settled == Settled::kLaidStraight) record();
  if (settled != Settled::kNotYet) return r;
  // (Out of reach, on the line is where the chain belongs: stretched, or folded.)
  if (!r.unreachable && BendStraightChain(p, count, target, g, options.bend_hint_model, false)) {
    r.fallback = FabrikFallback::kStraightChain;
  }
  Accelerations a;
  a.steps = positions_only && distance < g.total && count - 1 <= kMaxStepSegments;
  a.extrapolate = a.steps;
  // Stop early when an iteration no longer moves the end: the best reachable point was found (or
  // the chain folded onto the target's line, which the bend below undoes).
  const float stall = 1e-3f * r.tolerance_model;
  // Reach steps are kept only when the pass after them at least halves the error; otherwise the
  // positions before the step come back and no more steps are taken (on some folded short chains
  // step and passes would take turns undoing each other).
  // (Too-close targets take them too: the steps clamp the reach into what the chain can do.)
  int bends = 0;
  // A reach step in place of the next pass's start: keeps the positions before it in `saved`.
  // True when the step itself landed within tolerance.
  auto take_step = [&](int it) {
    std::copy(p, p + count, a.saved);
    a.error_at_step = r.error;
    if (!ReachStep(p, lengths, count, target, g, r.tolerance_model)) return false;
    a.step_at = it;
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
  for (int it = 1; it <= options.max_iterations; ++it) {
    const glm::vec3 end_before = p[count - 1];
    const float error_before = r.error;
    if (a.extrapolate) std::copy(p, p + count, a.previous);
    BackwardPass(p, lengths, count, target, g, &last_dir);
    const bool go_on = forward(p, &last_dir);
    r.iterations = it;
    r.error = glm::length(p[count - 1] - target);
    a.JudgeLast(it, p, count, &r);
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
    if (a.steps && it > a.step_at + 1 && (stalled || ratio > 0.5f)) {
      const bool done = take_step(it);
      if (a.step_at == it) {
        record();
        if (done) break;
        a.ratio_before = 0.0f;
        continue;
      }
    }
    if (a.extrapolate && !stalled && it > a.step_at + 1 && it > a.extrapolated_at + 1 &&
        ratio > 0.5f && ratio < 1.0f && a.ratio_before > 0.5f) {
      std::copy(p, p + count, a.saved);
      a.error_at_extrapolation = r.error;
      const float factor = std::min(ratio / (1.0f - ratio), a.max_factor);
      for (int i = 1; i < count; ++i) p[i] += factor * (p[i] - a.previous[i]);
      a.extrapolated_at = it;
      a.ratio_before = 0.0f;
      record();
      continue;
    }
    a.ratio_before = ratio;
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

FabrikPositionsResult FabrikIteratePositions(
    glm::vec3* p, const float* lengths, int count, const glm::vec3& target,
    const FabrikOptions& options, std::vector<std::vector<glm::vec3>>* iteration_positions) {
  const ChainGeometry g = Measure(lengths, count);
  const glm::vec3 root = p[0];
  auto forward = [&](glm::vec3* q, glm::vec3* last_dir) {
    ForwardPass(q, lengths, count, root, g, last_dir);
    return true;
  };
  return FabrikIterate(p, lengths, count, target, options, true, MakeFabrikForward(&forward),
                       iteration_positions);
}

}  // namespace internal

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
  return internal::FabrikIteratePositions(positions, lengths, count, target_model, options,
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

}  // namespace ik
