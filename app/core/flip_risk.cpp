// Flip-risk meter, knee jump and soft-IK curve of a two-bone chain (see flip_risk.h).
#include "app/core/flip_risk.h"

#include <algorithm>
#include <cmath>

#include "app/core/chain_results.h"

namespace app {

FlipRisk MeasureFlipRisk(const ik::TwoBoneIkResult& result,
                         const std::optional<glm::vec3>& pole_model) {
  FlipRisk risk;
  risk.from_pole = pole_model.has_value();
  const glm::vec3 line = result.target - result.a;
  const glm::vec3 reference = (pole_model ? *pole_model : result.b_before) - result.a;
  const float line_length = glm::length(line), reference_length = glm::length(reference);
  // Relative to the limb's size, so that a tiny model is measured like a large one.
  const float scale = std::max({line_length, reference_length, 1e-30f});
  if (!(line_length > 1e-6f * scale) || !(reference_length > 1e-6f * scale) ||
      !std::isfinite(line_length) || !std::isfinite(reference_length)) {
    return risk;
  }
  // The sine from the cross product keeps precision near 0°, where acos of a dot would not.
  const glm::vec3 u = line / line_length, v = reference / reference_length;
  const float sine = glm::length(glm::cross(u, v));
  const float cosine = std::abs(glm::dot(u, v));
  risk.angle_degrees = glm::degrees(std::atan2(sine, cosine));
  risk.valid = std::isfinite(risk.angle_degrees);
  if (!risk.valid) {
    risk.angle_degrees = 90.0f;
    return risk;
  }
  risk.level = risk.angle_degrees < kFlipDangerDegrees    ? FlipLevel::kDanger
               : risk.angle_degrees < kFlipCautionDegrees ? FlipLevel::kCaution
                                                          : FlipLevel::kSafe;
  return risk;
}

void UpdateKneeJump(const ik::TwoBoneIkResult* result, KneeJump* jump) {
  if (!result || result->fallback != ik::TwoBoneFallback::kNone ||
      !std::isfinite(result->b_final.x + result->b_final.y + result->b_final.z)) {
    *jump = KneeJump();
    return;
  }
  const float limb =
      glm::length(result->b_final - result->a) + glm::length(result->c_final - result->b_final);
  jump->jump = jump->has_last ? glm::length(result->b_final - jump->last_knee) : 0.0f;
  jump->jump_fraction = limb > 0.0f && std::isfinite(limb) ? jump->jump / limb : 0.0f;
  jump->last_knee = result->b_final;
  jump->has_last = true;
}

void UpdateKneeJumps(const EditedFrame& frame, const PoseState& state, bool continuous,
                     std::vector<KneeJump>* jumps) {
  const size_t chains = frame.chain_requests.size();
  // A chain added or removed shifts the indices: start every chain afresh rather than compare
  // one chain's knee with another's.
  if (jumps->size() != chains || !continuous) jumps->assign(chains, KneeJump());
  for (size_t i = 0; i < chains; ++i) {
    UpdateKneeJump(TwoBoneResultOf(frame, state, static_cast<int>(i)), &(*jumps)[i]);
  }
}

bool ContinuousClipTime(const ClipTime& last, const ClipTime& now, float max_step) {
  // A little slack for the float rounding of time + step (and of a wrap's arithmetic).
  const float slack = 1e-5f * (1.0f + std::abs(last.time));
  return last.clip == now.clip && std::abs(now.time - last.time) <= std::abs(max_step) + slack;
}

std::optional<glm::vec3> ChainPole(const EditedFrame& frame, int chain) {
  if (chain < 0 || chain >= static_cast<int>(frame.chain_requests.size())) return std::nullopt;
  const RequestIndex& where = frame.chain_requests[static_cast<size_t>(chain)];
  if (where.kind != ConstraintKind::kTwoBone || where.index < 0 ||
      where.index >= static_cast<int>(frame.requests.ik.size())) {
    return std::nullopt;
  }
  return frame.requests.ik[static_cast<size_t>(where.index)].options.pole_model;
}

float SoftenedReach(float distance, float reach_min, float reach_max, float soft) {
  // The same ease as the solver (ik/two_bone/two_bone_ik_positions.cpp, EffectiveDistance), in
  // double.
  double d = static_cast<double>(distance);
  const double hi = static_cast<double>(reach_max);
  const double s = static_cast<double>(std::clamp(soft, 0.0f, 1.0f)) * hi;
  const double start = hi - s;
  if (s > 0.0 && d > start) d = start + s * (1.0 - std::exp(-(d - start) / s));
  return static_cast<float>(std::min(std::max(d, static_cast<double>(reach_min)), hi));
}

}  // namespace app
