// Keyframe interpolation. Tracks are validated by the importer, but the sampler still refuses
// malformed ones (falls back to the rest value) so that code building clips by hand cannot crash
// it.
#include "assets/animation.h"

#include <algorithm>
#include <cmath>

namespace assets {
namespace {

// Position of `time` between keys: the key index k with times[k] <= time < times[k+1] and the
// fraction u in [0, 1] along that interval of length dt. Times outside the keys clamp to an end.
struct KeySpan {
  size_t k = 0;
  float u = 0.0f;
  float dt = 0.0f;
  bool single = true;  // true: use key k alone
};

KeySpan FindSpan(const std::vector<float>& times, float time) {
  KeySpan span;
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

glm::quat Normalized(const glm::quat& q, const glm::quat& fallback) {
  const float len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (!(len > 1e-12f) || !std::isfinite(len)) return fallback;
  return q / len;
}

}  // namespace

float WrapTime(float time_seconds, float duration_seconds, bool loop) {
  if (!std::isfinite(time_seconds) || !std::isfinite(duration_seconds) ||
      !(duration_seconds > 0.0f)) {
    return 0.0f;
  }
  if (!loop) return std::clamp(time_seconds, 0.0f, duration_seconds);
  const double d = duration_seconds;
  double t = std::fmod(static_cast<double>(time_seconds), d);
  if (t < 0.0) t += d;
  // Rounding can land exactly on d (e.g. a tiny negative time); keep the result inside [0, d).
  float result = static_cast<float>(t);
  if (result >= duration_seconds) result = 0.0f;
  return result;
}

glm::quat SlerpShortest(const glm::quat& a, const glm::quat& b_in, float t) {
  glm::quat b = b_in;
  float cos_theta = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  if (cos_theta < 0.0f) {  // q and -q are the same rotation; go the short way
    b = -b;
    cos_theta = -cos_theta;
  }
  glm::quat result;
  if (cos_theta > 0.9995f) {
    // Nearly parallel: sin(theta) is tiny, so normalised lerp is both accurate and stable.
    result = a * (1.0f - t) + b * t;
  } else {
    const float theta = std::acos(std::min(cos_theta, 1.0f));
    const float sin_theta = std::sin(theta);
    const float wa = std::sin((1.0f - t) * theta) / sin_theta;
    const float wb = std::sin(t * theta) / sin_theta;
    result = a * wa + b * wb;
  }
  return Normalized(result, a);
}

glm::vec3 SampleTrack(const Track<glm::vec3>& track, float time_seconds,
                      const glm::vec3& fallback) {
  if (!Consistent(track)) return fallback;
  const KeySpan s = FindSpan(track.times, time_seconds);
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
  return fallback;
}

glm::quat SampleTrack(const Track<glm::quat>& track, float time_seconds,
                      const glm::quat& fallback) {
  if (!Consistent(track)) return fallback;
  const KeySpan s = FindSpan(track.times, time_seconds);
  const auto& v = track.values;
  switch (track.interpolation) {
    case Interpolation::kStep:
      return Normalized(v[s.k], fallback);
    case Interpolation::kLinear:
      if (s.single) return Normalized(v[s.k], fallback);
      return SlerpShortest(Normalized(v[s.k], fallback), Normalized(v[s.k + 1], fallback), s.u);
    case Interpolation::kCubicSpline: {
      if (s.single) return Normalized(v[s.k * 3 + 1], fallback);
      const glm::quat q = Hermite(v[s.k * 3 + 1], v[s.k * 3 + 2], v[(s.k + 1) * 3 + 1],
                                  v[(s.k + 1) * 3], s.u, s.dt);
      return Normalized(q, Normalized(v[s.k * 3 + 1], fallback));
    }
  }
  return fallback;
}

void SampleClip(const ik::Skeleton& skeleton, const Clip& clip, float time_seconds,
                ik::Pose* pose) {
  pose->locals = skeleton.rest_locals();
  float t = std::isfinite(time_seconds) ? time_seconds : 0.0f;
  if (std::isfinite(clip.duration) && clip.duration > 0.0f) {
    t = std::clamp(t, 0.0f, clip.duration);
  } else {
    t = 0.0f;
  }
  const int n = skeleton.joint_count();
  for (const JointAnimation& channel : clip.channels) {
    if (channel.joint < 0 || channel.joint >= n) continue;
    ik::Transform& local = pose->locals[channel.joint];
    local.translation = SampleTrack(channel.translation, t, local.translation);
    local.rotation = SampleTrack(channel.rotation, t, local.rotation);
    local.scale = SampleTrack(channel.scale, t, local.scale);
  }
}

void SampleClip(const Model& model, const Clip& clip, float time_seconds, ik::Pose* pose) {
  SampleClip(model.skeleton, clip, time_seconds, pose);
}

}  // namespace assets
