// Collada morph-weight curves played through linear keys (collada_weight_curves.h): STEP keys
// held until the next key, BEZIER and HERMITE segments sampled at float times bisected until the
// lines between the samples stay close to the curve.
#include "assets/assimp/collada_weight_curves.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "assets/files/messages.h"

namespace assets {
namespace {

// The tangents. For a 1D output such as a morph weight, COLLADA 1.4.1 (its release notes' "curve
// interpolation" section) makes each IN_TANGENT and OUT_TANGENT a 2D point (time, value), so the
// accessor's stride is 2:
// - BEZIER: the segment from key i to key i+1 is the cubic Bezier curve through the control
//   points P0 = (INPUT[i], OUTPUT[i]), C0 = OUT_TANGENT[i], C1 = IN_TANGENT[i+1] and
//   P1 = (INPUT[i+1], OUTPUT[i+1]): C0 and C1 are absolute points, not offsets from the keys.
//   Blender's Collada exporter writes its F-curve handles that way (time in seconds, value) and
//   its importer reads them back so; FCollada's Max and Maya exporters, where OpenCOLLADA's come
//   from, also store absolute points (one third of the way to the neighbouring keys in time). The
//   weight at time t is the curve's value at the parameter s where the curve's time is t.
// - HERMITE: H(s) = P0 (2s³ - 3s² + 1) + T0 (s³ - 2s² + s) + T1 (s³ - s²) + P1 (-2s³ + 3s²), with
//   T0 = OUT_TANGENT[i] and T1 = IN_TANGENT[i+1] read as the derivatives dH/ds at the keys:
//   (time, value) vectors relative to the keys. That is the Bezier curve with C0 = P0 + T0 / 3
//   and C1 = P1 - T1 / 3, which is how it is played.
// COLLADA 1.4.0 exporters wrote one number per key (1D tangents, read differently by different
// tools): such keys play linearly, with a warning.
// A control point's time outside the segment is moved to the segment's nearer end. With both
// inner control times within the segment, the curve's time never decreases along s (the
// derivative's Bernstein form stays non-negative), so the curve is a function of time.

constexpr int kMaxDepth = 32;  // bisection levels of a segment's time

struct Point {
  double time, value;
};

// One BEZIER or HERMITE segment as a cubic Bezier curve whose time never decreases.
struct Segment {
  Point p[4];
  double low = 0.0, high = 0.0;  // the smallest and largest control value: they bound the curve

  Point At(double s) const {
    const double r = 1.0 - s;
    const double b[4] = {r * r * r, 3.0 * s * r * r, 3.0 * s * s * r, s * s * s};
    Point out{0.0, 0.0};
    for (int i = 0; i < 4; ++i) {
      out.time += b[i] * p[i].time;
      out.value += b[i] * p[i].value;
    }
    return out;
  }
  Point Derivative(double s) const {
    const double r = 1.0 - s;
    const double b[3] = {3.0 * r * r, 6.0 * s * r, 3.0 * s * s};
    Point out{0.0, 0.0};
    for (int i = 0; i < 3; ++i) {
      out.time += b[i] * (p[i + 1].time - p[i].time);
      out.value += b[i] * (p[i + 1].value - p[i].value);
    }
    return out;
  }
  // The parameter in [lo, hi] where the curve's time is `time` (At(lo).time <= time <=
  // At(hi).time): Newton steps, and a bisection step whenever one would leave the bracket (the
  // time may stand still at a point, where Newton steps fail).
  double Solve(double time, double lo, double hi) const {
    double s = 0.5 * (lo + hi);
    for (int i = 0; i < 100; ++i) {
      const double error = At(s).time - time;
      if (error == 0.0) break;
      (error < 0.0 ? lo : hi) = s;
      const double speed = Derivative(s).time;
      double next = speed > 0.0 ? s - error / speed : lo;
      if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
      if (next == s || !(next > lo && next < hi)) break;  // the bracket holds no other double
      s = next;
    }
    return s;
  }
  // The value at parameter s as a key's float: within the control values, which are floats.
  float ValueAt(double s) const {
    const double v = std::clamp(At(s).value, low, high);
    return static_cast<float>(
        std::clamp(v, -static_cast<double>(FLT_MAX), static_cast<double>(FLT_MAX)));
  }
};

// Point k of a tangent array (see ColladaWeightTrack); false when it has none.
bool TangentPoint(const std::vector<float>& points, size_t stride, size_t k, Point* out) {
  if (stride < 2 || k >= points.size() / stride) return false;  // so k * stride + 1 < size
  *out = {points[k * stride], points[k * stride + 1]};
  return true;
}

// The curve from key k to key k + 1 of a BEZIER or HERMITE key; false without tangent points.
bool MakeSegment(const ColladaWeightTrack& track, size_t k, bool hermite, Segment* segment) {
  Point c0, c1;
  if (!TangentPoint(track.out_tangents, track.out_stride, k, &c0) ||
      !TangentPoint(track.in_tangents, track.in_stride, k + 1, &c1)) {
    return false;
  }
  const Point p0{track.times[k], track.values[k]}, p1{track.times[k + 1], track.values[k + 1]};
  if (hermite) {
    c0 = {p0.time + c0.time / 3.0, p0.value + c0.value / 3.0};
    c1 = {p1.time - c1.time / 3.0, p1.value - c1.value / 3.0};
  }
  c0.time = std::clamp(c0.time, p0.time, p1.time);
  c1.time = std::clamp(c1.time, p0.time, p1.time);
  *segment = Segment{{p0, c0, c1, p1}};
  segment->low = std::min({p0.value, c0.value, c1.value, p1.value});
  segment->high = std::max({p0.value, c0.value, c1.value, p1.value});
  return true;
}

// Adds keys inside one segment, in time order, until the lines between them are close enough.
class Resampler {
 public:
  Resampler(const Segment& segment, size_t max_keys, std::vector<float>* times,
            std::vector<float>* values)
      : segment_(segment), max_keys_(max_keys), times_(times), values_(values) {
    // Finer than the floats the values are kept in would not change the keys.
    const double magnitude = std::max(std::abs(segment.low), std::abs(segment.high));
    tolerance_ = std::max(kColladaCurveTolerance * (segment.high - segment.low),
                          static_cast<double>(FLT_EPSILON) * magnitude);
  }

  // Keys strictly between the float times ta and tb (at parameters sa and sb); false when they
  // would pass max_keys.
  bool Fill(float ta, double sa, float tb, double sb, int depth) {
    if (depth >= kMaxDepth || Flat(sa, sb)) return true;
    const float tm = static_cast<float>(0.5 * (static_cast<double>(ta) + static_cast<double>(tb)));
    if (!(tm > ta && tm < tb)) return true;  // adjacent floats: no time lies between
    const double sm = segment_.Solve(tm, sa, sb);
    if (!Fill(ta, sa, tm, sm, depth + 1)) return false;
    if (times_->size() >= max_keys_) return false;
    times_->push_back(tm);
    values_->push_back(segment_.ValueAt(sm));
    return Fill(tm, sm, tb, sb, depth + 1);
  }

 private:
  // Whether the curve between parameters sa and sb stays within tolerance_ of the line between
  // its ends at every time. That piece is itself a cubic Bezier curve Q0..Q3 (Q1 and Q2 from
  // the derivative at the ends); each of its points is Σ b_i Q_i with Bernstein weights b_i,
  // and the line is affine in time, so the point's distance in value from the line at its own
  // time is b1 d1 + b2 d2, d_i being Q_i's: at most 3u(1-u) max|d_i| <= 0.75 max|d_i|.
  bool Flat(double sa, double sb) const {
    const Point q0 = segment_.At(sa), q3 = segment_.At(sb);
    const Point d0 = segment_.Derivative(sa), d3 = segment_.Derivative(sb);
    const double span = q3.time - q0.time;
    if (!(span > 0.0)) return true;
    const double slope = (q3.value - q0.value) / span, third = (sb - sa) / 3.0;
    const auto off_line = [&](double time, double value) {
      return std::abs(value - q0.value - (time - q0.time) * slope);
    };
    const double d1 = off_line(q0.time + third * d0.time, q0.value + third * d0.value);
    const double d2 = off_line(q3.time - third * d3.time, q3.value - third * d3.value);
    return 0.75 * std::max(d1, d2) <= tolerance_;
  }

  const Segment& segment_;
  size_t max_keys_;
  std::vector<float>* times_;
  std::vector<float>* values_;
  double tolerance_ = 0.0;
};

// How many channels have one kind of problem, and the first one's description for the warning.
struct Problem {
  size_t channels = 0;
  std::string example;
  void Note(const std::string& text) {
    if (channels++ == 0) example = text;
  }
};

// "1 Collada morph-weight channel (e.g. 'x') has", "2 ... channels (e.g. 'x') have".
std::string Channels(const Problem& problem, const char* verb_one, const char* verb_many) {
  return Plural(problem.channels, "Collada morph-weight channel", "Collada morph-weight channels") +
         " (e.g. " + problem.example + ") " + (problem.channels == 1 ? verb_one : verb_many);
}

}  // namespace

bool LinearColladaWeightKeys(const ColladaWeightTrack& track, size_t max_keys,
                             std::vector<float>* times, std::vector<float>* values,
                             size_t* untangented) {
  times->clear();
  values->clear();
  const size_t n = std::min(track.times.size(), track.values.size());
  const auto add = [&](float time, float value) {
    if (times->size() >= max_keys) return false;
    times->push_back(time);
    values->push_back(value);
    return true;
  };
  for (size_t k = 0; k < n; ++k) {
    if (!add(track.times[k], track.values[k])) return false;
    if (k + 1 == n) break;
    const ColladaInterpolation kind =
        k < track.interpolations.size() ? track.interpolations[k] : ColladaInterpolation::kLinear;
    if (kind == ColladaInterpolation::kStep) {
      const float before =
          std::nextafter(track.times[k + 1], -std::numeric_limits<float>::infinity());
      if (before > track.times[k] && track.values[k] != track.values[k + 1] &&
          !add(before, track.values[k])) {
        return false;
      }
    } else if (kind == ColladaInterpolation::kBezier || kind == ColladaInterpolation::kHermite) {
      Segment segment;
      if (!MakeSegment(track, k, kind == ColladaInterpolation::kHermite, &segment)) {
        ++*untangented;
        continue;
      }
      Resampler resampler(segment, max_keys, times, values);
      if (!resampler.Fill(track.times[k], 0.0, track.times[k + 1], 1.0, 0)) return false;
    }
  }
  return true;
}

std::vector<ColladaWeightTrack> LinearColladaWeightTracks(const ColladaMorphPlan& plan,
                                                          uint64_t budget_bytes,
                                                          std::vector<std::string>* warnings) {
  Problem other, unread, untangented, over_budget;
  uint64_t spent = 0;
  std::vector<ColladaWeightTrack> out;
  out.reserve(plan.weight_tracks.size());
  for (const ColladaWeightTrack& track : plan.weight_tracks) {
    ColladaWeightTrack linear;
    linear.morph = track.morph;
    linear.target = track.target;
    linear.channel = track.channel;
    const uint64_t width =
        track.morph < plan.morphs.size() ? plan.morphs[track.morph].target_geometries.size() : 0;
    const uint64_t key_bytes = kColladaCurveKeyBytes + 4 * width;
    const uint64_t affordable = spent < budget_bytes ? (budget_bytes - spent) / key_bytes : 0;
    const size_t file_keys = track.times.size();
    const size_t max_keys =
        file_keys + static_cast<size_t>(std::min<uint64_t>(
                        affordable, std::numeric_limits<size_t>::max() - file_keys));
    size_t segments = 0;
    if (LinearColladaWeightKeys(track, max_keys, &linear.times, &linear.values, &segments)) {
      spent += (linear.times.size() - file_keys) * key_bytes;
      if (segments > 0) untangented.Note(Quoted(track.channel));
    } else {
      linear.times = track.times;
      linear.values = track.values;
      over_budget.Note(Quoted(track.channel));
    }
    if (!track.other_interpolation.empty()) {
      other.Note(Quoted(track.other_interpolation) + " in " + Quoted(track.channel));
    }
    if (track.interpolations_unread) unread.Note(Quoted(track.channel));
    out.push_back(std::move(linear));
  }
  if (other.channels > 0) {
    warnings->push_back(Plural(other.channels, "Collada morph-weight channel uses",
                               "Collada morph-weight channels use") +
                        " an interpolation skelview cannot play (e.g. " + other.example +
                        "); those keys play "
                        "linearly");
  }
  if (unread.channels > 0) {
    warnings->push_back(Channels(unread, "has", "have") +
                        " INTERPOLATION names missing or not one per key; played linearly");
  }
  if (untangented.channels > 0) {
    warnings->push_back(Channels(untangented, "has", "have") +
                        " BEZIER or HERMITE keys without IN_TANGENT / OUT_TANGENT points "
                        "(missing, not finite numbers, too few, or one number per key); those "
                        "keys play linearly");
  }
  if (over_budget.channels > 0) {
    warnings->push_back(Channels(over_budget, "plays", "play") +
                        " the file's keys linearly: resampling the curves would take more than " +
                        std::to_string(budget_bytes >> 20) + " MiB");
  }
  return out;
}

}  // namespace assets
