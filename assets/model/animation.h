// Clip sampling: turns keyframe tracks into a pose at a given time, with glTF's three
// interpolation modes (step, linear with shortest-path slerp, cubic Hermite spline).
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <vector>

#include "assets/model/model.h"
#include "ik/core/skeleton.h"

namespace assets {

// Maps a playback time (seconds) into a clip of `duration_seconds`.
// loop = true: wraps into [0, duration), negative times counting back from the end (-0.25 in a
// 1 s clip is 0.75). loop = false: clamps to [0, duration].
// Returns 0 for a non-finite time or a duration that is not finite and positive.
float WrapTime(float time_seconds, float duration_seconds, bool loop);

// Value of a track at `time_seconds`, clamped to the track's first and last keys. Returns
// `fallback` for an empty track or one whose values do not match its times (one value per key,
// three — in-tangent, value, out-tangent — for kCubicSpline). Rotations come back unit length;
// linear rotation interpolation takes the shortest path.
glm::vec3 SampleTrack(const Track<glm::vec3>& track, float time_seconds, const glm::vec3& fallback);
glm::quat SampleTrack(const Track<glm::quat>& track, float time_seconds, const glm::quat& fallback);

// Sets `pose` to the skeleton's rest pose, then overrides every joint property the clip animates
// with its value at `time_seconds`, clamped to [0, clip.duration]. Joints and properties the clip
// does not animate keep their rest values (so does a property whose track is malformed); channels
// naming a joint outside the skeleton are ignored. The pose is resized to the skeleton. Looping is
// the caller's job (see WrapTime). Works on any clip; a prepared one (PrepareClip) is sampled
// faster: one key search per distinct key-time array, no rest copy for fully animated joints.
// Results equal SampleTrack's per track to within 1e-6.
void SampleClip(const ik::Skeleton& skeleton, const Clip& clip, float time_seconds, ik::Pose* pose);
void SampleClip(const Model& model, const Clip& clip, float time_seconds, ik::Pose* pose);

// Makes `clip` ready for fast sampling: normalises its rotation key values (cubic-spline
// tangents are left alone; a zero or non-finite key is left for the sampler to refuse) and fills
// clip->sampling. Call it after building or editing a clip; LoadModel, DeserializeModel and
// MakeBuiltinCharacter return prepared clips.
void PrepareClip(Clip* clip);

// Several clips of `model` played together as one prepared clip: for each joint property, the
// track of the last clip in `clip_indices` that animates it (so a later clip wins where two move
// the same joint property), the others at rest; its duration is the longest one's (a shorter
// clip holds its last key after it ends) and its name the clips' names joined with "+" (at most
// 120 bytes of them, then "+... (N clips)"). Indices
// outside model.clips are ignored; an empty list gives an empty clip.
Clip CombineClips(const Model& model, const std::vector<int>& clip_indices);

// Spherical linear interpolation from a to b along the shorter arc; unit result. For unit inputs
// it matches the textbook sin-weighted formula to within 1e-6, without trigonometry when the
// keys are less than about 50 degrees apart (a series in the half-angle instead).
glm::quat SlerpShortest(const glm::quat& a, const glm::quat& b, float t);

}  // namespace assets
