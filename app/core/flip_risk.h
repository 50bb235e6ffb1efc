// Live meters of a two-bone chain for the chains panel: how close its bend plane is to being
// undefined (the pole or knee nearly on the start→target line, where the knee can flip), how far
// the solved knee jumped since the last frame, and the soft-IK curve of reach against distance.
#pragma once

#include <glm/glm.hpp>
#include <optional>
#include <vector>

#include "app/core/chain_edit.h"
#include "app/core/evaluate.h"
#include "ik/two_bone/two_bone_ik.h"

namespace app {

// Below these angles the meter turns orange, then red, and the panel warns.
inline constexpr float kFlipCautionDegrees = 15.0f;
inline constexpr float kFlipDangerDegrees = 5.0f;

enum class FlipLevel { kSafe, kCaution, kDanger };

struct FlipRisk {
  // False when there is nothing to measure: the target on the start joint, or the reference point
  // on the start joint (a zero-length direction); angle_degrees is then 90.
  bool valid = false;
  bool from_pole = false;  // the reference is the pole; else the knee as it was before the solve
  // Angle between the reference direction (start → pole, else start → knee before) and the
  // start→target line, degrees in [0, 90]: the line has no sign, so a pole straight behind the
  // start is as ill-defined as one in front of it.
  float angle_degrees = 90.0f;
  FlipLevel level = FlipLevel::kSafe;
};

// The flip risk of a solve `result` whose request had pole `pole_model` (model space; nullopt for
// none). Pure; never NaN.
FlipRisk MeasureFlipRisk(const ik::TwoBoneIkResult& result,
                         const std::optional<glm::vec3>& pole_model);

// How far the solved knee moved from one frame to the next, per chain.
struct KneeJump {
  bool has_last = false;       // a knee was solved the frame before
  glm::vec3 last_knee{0.0f};   // model space
  float jump = 0.0f;           // |knee now − knee last frame|, model units; 0 without a last knee
  float jump_fraction = 0.0f;  // jump / limb length (ℓ_ab + ℓ_bc), 0 for a zero-length limb
};
// Above this fraction of the limb in one frame, the panel warns of a jump.
inline constexpr float kKneeJumpWarnFraction = 0.1f;

// Updates `jump` with this frame's solve (`result` null: the chain was not solved this frame,
// which forgets the last knee so that the next solve does not count a jump).
void UpdateKneeJump(const ik::TwoBoneIkResult* result, KneeJump* jump);

// Once per evaluated frame: when the edit's chain count changed, or the frame's time is not
// `continuous` with the last one's, starts *jumps afresh (one entry per chain, without a last
// knee), then updates each two-bone chain's entry from its solve; other chains' entries are reset.
// Allocates only when the chain count grows.
void UpdateKneeJumps(const EditedFrame& frame, const PoseState& state, bool continuous,
                     std::vector<KneeJump>* jumps);

// Whether the clip time went from `last` to `now` as one frame of playback takes it: the same clip
// and at most `max_step` seconds on (max_step 0: paused, the time unchanged). A scrub, a step, a
// loop's wrap or another clip is not: the knee may then land anywhere without having jumped.
bool ContinuousClipTime(const ClipTime& last, const ClipTime& now, float max_step);

// The pole of chain `chain`'s two-bone request this frame (model space), or nullopt when it has
// none or was not solved.
std::optional<glm::vec3> ChainPole(const EditedFrame& frame, int chain);

// The distance from the start joint at which soft IK puts the end for a target `distance` away
// (model units): the solver's ease, start + s·(1 − e^(−(d − start)/s)) beyond start = (1 − soft)·
// reach_max with s = soft·reach_max, then held within [reach_min, reach_max]. soft in [0, 1]
// (0: no easing).
float SoftenedReach(float distance, float reach_min, float reach_max, float soft);

}  // namespace app
