// Collada morph-weight keys as linear keys: the aiMeshMorphAnim channels they become play
// linearly, so STEP keys get a holding key and BEZIER / HERMITE segments are resampled. Internal
// to assets/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "assets/assimp/collada_morphs.h"

namespace assets {

// Resampled curves stay within this fraction of their segment's value range (the largest minus
// the smallest value of its four control points, which bound the curve) of the file's curve.
inline constexpr double kColladaCurveTolerance = 5e-4;
// What one key added by resampling costs in the budget: the channel's key and its entry in the
// clip track, about this many bytes plus 4 per target of the morph (the clip's dense rows).
inline constexpr uint64_t kColladaCurveKeyBytes = 160;

// `track`'s keys as keys played linearly, into *times (seconds, increasing) and *values:
// - a LINEAR key is kept;
// - a STEP key is kept, and its value again at the float just before the next key's time (none
//   when no float lies between them): sampled at any float time, the weight is the held value
//   before the next key and the next key's value at it; in between values exist only in the
//   open interval (next time - one float step, next time), which holds no float (one step is
//   about 1.2e-7 s at 1 s, 7.6e-6 s at 100 s);
// - a BEZIER or HERMITE key gets keys inside its segment, at float times bisected until the
//   lines between them stay within kColladaCurveTolerance of the segment's value range (or
//   FLT_EPSILON of its largest magnitude, when more) from the curve at every time in between,
//   plus the float rounding of the keys' values. Bisection stops
//   after 32 levels or at adjacent floats: near a point where the curve is vertical, the error
//   may be larger within (segment time) / 2^32 of it;
// - a key of another name, or a BEZIER / HERMITE key whose segment lacks a tangent point, plays
//   linearly; *untangented counts the latter.
// The tangents' meaning is in collada_weight_curves.cpp. False when more than `max_keys` keys
// would be needed (then *times and *values hold what was made so far).
bool LinearColladaWeightKeys(const ColladaWeightTrack& track, size_t max_keys,
                             std::vector<float>* times, std::vector<float>* values,
                             size_t* untangented);

// plan.weight_tracks with their keys made linear by LinearColladaWeightKeys. The added keys of
// all tracks may cost `budget_bytes` (kColladaCurveKeyBytes each plus 4 per target of their
// morph); a track that would go past it keeps the file's keys, played linearly. One warning per
// kind of problem, naming how many channels have it and one of them: interpolations skelview
// cannot play, INTERPOLATION names that are not one per key, BEZIER / HERMITE keys without
// tangent points, and curves left linear by the budget.
std::vector<ColladaWeightTrack> LinearColladaWeightTracks(const ColladaMorphPlan& plan,
                                                          uint64_t budget_bytes,
                                                          std::vector<std::string>* warnings);

}  // namespace assets
