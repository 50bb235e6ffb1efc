// Keyframe interpolation. Tracks are validated by the importer, but the sampler still refuses
// malformed ones (falls back to the rest value) so that code building clips by hand cannot crash
// it. SampleClip is on the per-character-frame path of every crowd, so a prepared clip shares key
// searches between tracks with the same key times and slerp avoids trigonometry for close keys.
#include "assets/model/animation.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace assets {
namespace {

// Position of `time` between keys: the key index k with times[k] <= time < times[k+1] and the
// fraction u in [0, 1] along that interval of length dt. Times outside the keys clamp to an end.
// Plain data (no member initialisers), so that SampleClip's per-call array of spans costs nothing
// to create.
struct KeySpan {
  size_t k;
  float u;
  float dt;
  bool single;  // true: use key k alone
};

KeySpan FindSpan(const std::vector<float>& times, float time) {
  KeySpan span{0, 0.0f, 0.0f, true};
  const size_t n = times.size();
  if (n <= 1 || !(time > times.front())) return span;  // also catches NaN
  if (time >= times.back()) {
    span.k = n - 1;
    return span;
  }
  // First key strictly after `time`; at least index 1 here.
  const size_t next =
      static_cast<size_t>(std::upper_bound(times.begin(), times.end(), time) - times.begin());
  span.k = next - 1;
  span.dt = times[next] - times[span.k];
  if (!(span.dt > 0.0f)) return span;  // coincident keys: take the earlier one
  span.u = std::clamp((time - times[span.k]) / span.dt, 0.0f, 1.0f);
  span.single = false;
  return span;
}

template <typename T>
bool Consistent(const Track<T>& track) {
  if (track.times.empty()) return false;
  const size_t per_key = track.interpolation == Interpolation::kCubicSpline ? 3 : 1;
  return track.values.size() == track.times.size() * per_key;
}

// Hermite basis on the unit interval; tangents are scaled by the key interval as glTF specifies.
template <typename T>
T Hermite(const T& p0, const T& m0, const T& p1, const T& m1, float u, float dt) {
  const float u2 = u * u, u3 = u2 * u;
  const float h00 = 2.0f * u3 - 3.0f * u2 + 1.0f;
  const float h10 = u3 - 2.0f * u2 + u;
  const float h01 = -2.0f * u3 + 3.0f * u2;
  const float h11 = u3 - u2;
  return h00 * p0 + (h10 * dt) * m0 + h01 * p1 + (h11 * dt) * m1;
}

float Dot(const glm::quat& a, const glm::quat& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

glm::quat Normalized(const glm::quat& q, const glm::quat& fallback) {
  const float len = std::sqrt(Dot(q, q));
  if (!(len > 1e-12f) || !std::isfinite(len)) return fallback;
  return q / len;
}

// A key as a unit quaternion. Prepared clips already hold unit keys, so the square root and
// division are skipped when the length is 1 to float precision (a difference below 1e-6).
glm::quat UnitKey(const glm::quat& q, const glm::quat& fallback) {
  const float len2 = Dot(q, q);
  if (std::abs(len2 - 1.0f) <= 1e-6f) return q;
  return Normalized(q, fallback);
}

// Slerp weights sin((1-t)θ)/sin θ and sin(tθ)/sin θ without trigonometry, from the hypergeometric
// identity sin(sθ)/sin θ = s · 2F1(1+s, 1-s; 3/2; sin²(θ/2)). Successive series coefficients
// differ by the factor u · ((n+1)² - s²) / ((n+1)(n+3/2)) with u = sin²(θ/2) = (1 - cos θ)/2,
// which is below u, so N terms leave an error below u^N. The term count is picked from u to keep
// that under 1e-7: keyframes a frame apart are nearly parallel and need only two or three.
constexpr float kSeriesMinCos = 0.9f;  // θ <= 25.8°: rotations up to 51.6° apart
constexpr int kSeriesMaxTerms = 7;     // 0.05^7 ≈ 8e-10 at the largest u
constexpr float kSeriesInverse[kSeriesMaxTerms] = {
    1.0f / (1.0f * 1.5f), 1.0f / (2.0f * 2.5f), 1.0f / (3.0f * 3.5f), 1.0f / (4.0f * 4.5f),
    1.0f / (5.0f * 5.5f), 1.0f / (6.0f * 6.5f), 1.0f / (7.0f * 7.5f)};

int SeriesTerms(float u) {
  if (u < 2e-4f) return 2;    // u² < 4e-8
  if (u < 4e-3f) return 3;    // u³ < 6.4e-8
  if (u < 1.5e-2f) return 4;  // u⁴ < 5.1e-8
  return kSeriesMaxTerms;
}

void SeriesWeights(float t, float u, float* wa, float* wb) {
  const float s = 1.0f - t;
  const float s2 = s * s, t2 = t * t;
  float fa = 1.0f, fb = 1.0f;  // Horner from the innermost term outwards
  for (int n = SeriesTerms(u) - 1; n >= 0; --n) {
    const float m2 = static_cast<float>((n + 1) * (n + 1));
    const float k = u * kSeriesInverse[n];
    fa = 1.0f + k * (m2 - s2) * fa;
    fb = 1.0f + k * (m2 - t2) * fb;
  }
  *wa = s * fa;
  *wb = t * fb;
}

// Slerp of unit quaternions a and b (already in one hemisphere, cos_theta = a·b >= 0).
glm::quat SlerpUnit(const glm::quat& a, const glm::quat& b, float cos_theta, float t) {
  float wa, wb;
  if (cos_theta >= kSeriesMinCos) {
    SeriesWeights(t, 0.5f * (1.0f - cos_theta), &wa, &wb);
  } else {
    const float theta = std::acos(std::min(cos_theta, 1.0f));
    const float inverse_sin = 1.0f / std::sin(theta);
    wa = std::sin((1.0f - t) * theta) * inverse_sin;
    wb = std::sin(t * theta) * inverse_sin;
  }
  glm::quat r(wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z);
  // Unit inputs give |r| = 1 up to rounding: one Newton step for 1/sqrt(|r|²) about 1 restores it
  // (error below 4e-9 in that range) without a square root.
  const float len2 = Dot(r, r);
  if (std::abs(len2 - 1.0f) <= 1e-4f) return r * (1.5f - 0.5f * len2);
  return Normalized(r, a);
}

glm::vec3 SampleVector(const Track<glm::vec3>& track, const KeySpan& s) {
  const auto& v = track.values;
  switch (track.interpolation) {
    case Interpolation::kStep:
      return v[s.k];
    case Interpolation::kLinear:
      if (s.single) return v[s.k];
      return v[s.k] * (1.0f - s.u) + v[s.k + 1] * s.u;
    case Interpolation::kCubicSpline:
      if (s.single) return v[s.k * 3 + 1];
      // Layout per key: in-tangent, value, out-tangent.
      return Hermite(v[s.k * 3 + 1], v[s.k * 3 + 2], v[(s.k + 1) * 3 + 1], v[(s.k + 1) * 3], s.u,
                     s.dt);
  }
  return v[0];
}

glm::quat SampleRotation(const Track<glm::quat>& track, const KeySpan& s,
                         const glm::quat& fallback) {
  const auto& v = track.values;
  switch (track.interpolation) {
    case Interpolation::kStep:
      return UnitKey(v[s.k], fallback);
    case Interpolation::kLinear: {
      const glm::quat a = UnitKey(v[s.k], fallback);
      if (s.single) return a;
      glm::quat b = UnitKey(v[s.k + 1], fallback);
      float cos_theta = Dot(a, b);
      if (cos_theta < 0.0f) {  // q and -q are the same rotation; go the short way
        b = -b;
        cos_theta = -cos_theta;
      }
      return SlerpUnit(a, b, cos_theta, s.u);
    }
    case Interpolation::kCubicSpline: {
      if (s.single) return UnitKey(v[s.k * 3 + 1], fallback);
      const glm::quat q = Hermite(v[s.k * 3 + 1], v[s.k * 3 + 2], v[(s.k + 1) * 3 + 1],
                                  v[(s.k + 1) * 3], s.u, s.dt);
      return Normalized(q, UnitKey(v[s.k * 3 + 1], fallback));
    }
  }
  return fallback;
}

// True when `plan` was made for `clip` as it is now: same channels on the same joints, and the
// same tracks empty or not. Key counts are checked per track as the plan is used.
bool PlanFits(const ClipSampling& plan, const Clip& clip) {
  const size_t n = clip.channels.size();
  if (plan.channel_joints.size() != n || plan.track_groups.size() != n) return false;
  for (size_t c = 0; c < n; ++c) {
    const JointAnimation& a = clip.channels[c];
    const std::array<int, 3>& g = plan.track_groups[c];
    if (plan.channel_joints[c] != a.joint || (g[0] == -1) != a.translation.empty() ||
        (g[1] == -1) != a.rotation.empty() || (g[2] == -1) != a.scale.empty()) {
      return false;
    }
  }
  for (const ClipSampling::TimeGroup& group : plan.groups) {
    if (group.channel < 0 || static_cast<size_t>(group.channel) >= n || group.property < 0 ||
        group.property > 2) {
      return false;
    }
  }
  return true;
}

const std::vector<float>& TrackTimes(const JointAnimation& a, int property) {
  return property == 0 ? a.translation.times : property == 1 ? a.rotation.times : a.scale.times;
}

// Groups sampled once per call from a stack buffer; a clip with more distinct key-time arrays
// searches the rest per track.
constexpr int kMaxSharedGroups = 64;
// Marks a non-empty track that has no shared group.
constexpr int kOwnSearch = -2;

}  // namespace

float WrapTime(float time_seconds, float duration_seconds, bool loop) {
  if (!std::isfinite(time_seconds) || !std::isfinite(duration_seconds) ||
      !(duration_seconds > 0.0f)) {
    return 0.0f;
  }
  if (!loop) return std::clamp(time_seconds, 0.0f, duration_seconds);
  const double d = static_cast<double>(duration_seconds);
  double t = std::fmod(static_cast<double>(time_seconds), d);
  if (t < 0.0) t += d;
  // Rounding can land exactly on d (e.g. a tiny negative time); keep the result inside [0, d).
  float result = static_cast<float>(t);
  if (result >= duration_seconds) result = 0.0f;
  return result;
}

glm::quat SlerpShortest(const glm::quat& a_in, const glm::quat& b_in, float t) {
  const glm::quat a = UnitKey(a_in, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  glm::quat b = UnitKey(b_in, a);
  float cos_theta = Dot(a, b);
  if (cos_theta < 0.0f) {
    b = -b;
    cos_theta = -cos_theta;
  }
  return SlerpUnit(a, b, cos_theta, t);
}

glm::vec3 SampleTrack(const Track<glm::vec3>& track, float time_seconds,
                      const glm::vec3& fallback) {
  if (!Consistent(track)) return fallback;
  return SampleVector(track, FindSpan(track.times, time_seconds));
}

glm::quat SampleTrack(const Track<glm::quat>& track, float time_seconds,
                      const glm::quat& fallback) {
  if (!Consistent(track)) return fallback;
  return SampleRotation(track, FindSpan(track.times, time_seconds), fallback);
}

void PrepareClip(Clip* clip) {
  for (JointAnimation& a : clip->channels) {
    const bool cubic = a.rotation.interpolation == Interpolation::kCubicSpline;
    for (size_t i = 0; i < a.rotation.values.size(); ++i) {
      if (cubic && i % 3 != 1) continue;  // tangents keep their length
      // Keys unit to float precision stay bit for bit, so preparing twice changes nothing.
      glm::quat& q = a.rotation.values[i];
      const float len2 = Dot(q, q);
      if (std::abs(len2 - 1.0f) <= 1e-6f) continue;
      const float len = std::sqrt(len2);
      if (len > 1e-12f && std::isfinite(len)) q = q / len;
    }
  }
  ClipSampling plan;
  // Distinct key-time arrays by content, compared through pointers into the clip (no copies).
  auto less = [](const std::vector<float>* x, const std::vector<float>* y) { return *x < *y; };
  std::map<const std::vector<float>*, int, decltype(less)> group_of(less);
  int max_joint = -1;
  std::vector<uint8_t> mask;  // per joint: bit p set when property p is animated
  for (size_t c = 0; c < clip->channels.size(); ++c) {
    const JointAnimation& a = clip->channels[c];
    plan.channel_joints.push_back(a.joint);
    std::array<int, 3> groups{};
    for (int p = 0; p < 3; ++p) {
      const std::vector<float>& times = TrackTimes(a, p);
      if (times.empty()) {
        groups[p] = -1;
        continue;
      }
      auto found = group_of.find(&times);
      if (found == group_of.end()) {
        if (plan.groups.size() >= static_cast<size_t>(kMaxSharedGroups)) {
          groups[p] = kOwnSearch;
          continue;
        }
        plan.groups.push_back({static_cast<int>(c), p});
        found = group_of.emplace(&times, static_cast<int>(plan.groups.size()) - 1).first;
      }
      groups[p] = found->second;
    }
    plan.track_groups.push_back(groups);
    if (a.joint >= 0 && a.joint < ik::Skeleton::kMaxJoints) {
      if (a.joint > max_joint) {
        max_joint = a.joint;
        mask.resize(static_cast<size_t>(max_joint) + 1, 0);
      }
      for (int p = 0; p < 3; ++p)
        if (groups[p] != -1) mask[static_cast<size_t>(a.joint)] |= static_cast<uint8_t>(1 << p);
    }
  }
  plan.fully_animated.resize(mask.size());
  for (size_t j = 0; j < mask.size(); ++j) plan.fully_animated[j] = mask[j] == 7 ? 1 : 0;
  clip->sampling = std::move(plan);
}

void SampleClip(const ik::Skeleton& skeleton, const Clip& clip, float time_seconds,
                ik::Pose* pose) {
  const int n = skeleton.joint_count();
  const std::vector<ik::Transform>& rest = skeleton.rest_locals();
  float t = std::isfinite(time_seconds) ? time_seconds : 0.0f;
  if (std::isfinite(clip.duration) && clip.duration > 0.0f) {
    t = std::clamp(t, 0.0f, clip.duration);
  } else {
    t = 0.0f;
  }
  const ClipSampling& plan = clip.sampling;
  if (plan.empty() || !PlanFits(plan, clip)) {
    // Unprepared clip: rest pose, then every track with its own key search.
    pose->locals = rest;
    for (const JointAnimation& channel : clip.channels) {
      if (channel.joint < 0 || channel.joint >= n) continue;
      ik::Transform& local = pose->locals[channel.joint];
      local.translation = SampleTrack(channel.translation, t, local.translation);
      local.rotation = SampleTrack(channel.rotation, t, local.rotation);
      local.scale = SampleTrack(channel.scale, t, local.scale);
    }
    return;
  }
  pose->locals.resize(static_cast<size_t>(n));
  ik::Transform* locals = pose->locals.data();
  // Fully animated joints get all three properties below (a malformed track writes the rest
  // value), so only the others need their rest values first.
  const size_t flagged = plan.fully_animated.size();
  for (int j = 0; j < n; ++j) {
    if (static_cast<size_t>(j) >= flagged || !plan.fully_animated[static_cast<size_t>(j)]) {
      locals[j] = rest[j];
    }
  }
  KeySpan spans[kMaxSharedGroups];  // uninitialised: only the first `groups` are used
  size_t group_sizes[kMaxSharedGroups];
  const size_t groups = std::min(plan.groups.size(), static_cast<size_t>(kMaxSharedGroups));
  for (size_t g = 0; g < groups; ++g) {
    const ClipSampling::TimeGroup& group = plan.groups[g];
    const std::vector<float>& times =
        TrackTimes(clip.channels[static_cast<size_t>(group.channel)], group.property);
    spans[g] = FindSpan(times, t);
    group_sizes[g] = times.size();
  }
  // The shared span when the track's key count matches its group's, else its own search.
  auto span_of = [&](int group, const std::vector<float>& times) {
    if (group >= 0 && static_cast<size_t>(group) < groups && group_sizes[group] == times.size()) {
      return spans[group];
    }
    return FindSpan(times, t);
  };
  for (size_t c = 0; c < clip.channels.size(); ++c) {
    const JointAnimation& channel = clip.channels[c];
    if (channel.joint < 0 || channel.joint >= n) continue;
    const std::array<int, 3>& g = plan.track_groups[c];
    ik::Transform& local = locals[channel.joint];
    const ik::Transform& rest_local = rest[static_cast<size_t>(channel.joint)];
    if (g[0] != -1) {
      local.translation =
          Consistent(channel.translation)
              ? SampleVector(channel.translation, span_of(g[0], channel.translation.times))
              : rest_local.translation;
    }
    if (g[1] != -1) {
      local.rotation = Consistent(channel.rotation)
                           ? SampleRotation(channel.rotation, span_of(g[1], channel.rotation.times),
                                            rest_local.rotation)
                           : rest_local.rotation;
    }
    if (g[2] != -1) {
      local.scale = Consistent(channel.scale)
                        ? SampleVector(channel.scale, span_of(g[2], channel.scale.times))
                        : rest_local.scale;
    }
  }
}

void SampleClip(const Model& model, const Clip& clip, float time_seconds, ik::Pose* pose) {
  SampleClip(model.skeleton, clip, time_seconds, pose);
}

Clip CombineClips(const Model& model, const std::vector<int>& clip_indices) {
  Clip combined;
  std::map<int, size_t> channel_of_joint;
  // The name stays short however many clips are given ("Walk+Idle+... (4000 clips)").
  constexpr size_t kMaxNameBytes = 120;
  size_t named = 0, count = 0;
  for (int index : clip_indices) {
    if (index < 0 || index >= static_cast<int>(model.clips.size())) continue;
    const Clip& clip = model.clips[static_cast<size_t>(index)];
    ++count;
    if (named + 1 == count) {
      const std::string part = (combined.name.empty() ? "" : "+") + clip.name;
      if (combined.name.size() + part.size() <= kMaxNameBytes) {
        combined.name += part;
        named = count;
      }
    }
    combined.duration = std::max(combined.duration, clip.duration);
    for (const JointAnimation& a : clip.channels) {
      auto found = channel_of_joint.find(a.joint);
      if (found == channel_of_joint.end()) {
        channel_of_joint.emplace(a.joint, combined.channels.size());
        combined.channels.push_back(a);
        continue;
      }
      JointAnimation& into = combined.channels[found->second];
      if (!a.translation.empty()) into.translation = a.translation;
      if (!a.rotation.empty()) into.rotation = a.rotation;
      if (!a.scale.empty()) into.scale = a.scale;
    }
    for (const MorphAnimation& a : clip.morph_channels) {
      auto same_mesh = [&a](const MorphAnimation& b) { return b.mesh == a.mesh; };
      auto found =
          std::find_if(combined.morph_channels.begin(), combined.morph_channels.end(), same_mesh);
      if (found == combined.morph_channels.end()) {
        combined.morph_channels.push_back(a);
      } else {
        *found = a;  // a later clip wins, as for joints
      }
    }
  }
  PrepareClip(&combined);
  if (named < count) combined.name += "+... (" + std::to_string(count) + " clips)";
  return combined;
}

}  // namespace assets
