// Foot contacts of a clip, the foot lock, and its numbers.
#include "app/core/foot_lock.h"

#include <algorithm>
#include <cmath>

#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"

namespace app {

namespace {

constexpr float kMillimetres = 1000.0f;  // model units are metres
constexpr float kRadiansToDegrees = 57.2957795f;

glm::vec3 Position(const glm::mat4& m) { return glm::vec3(m[3]); }

glm::quat Rotation(const glm::mat4& m) {
  glm::mat3 r(m);
  for (int k = 0; k < 3; ++k) {
    const float length = glm::length(r[k]);
    if (length > 0.0f) r[k] /= length;
  }
  return glm::normalize(glm::quat_cast(r));
}

float Smoothstep(float x) {
  x = std::clamp(x, 0.0f, 1.0f);
  return x * x * (3.0f - 2.0f * x);
}

// The shortest rotation taking unit vector `from` onto unit vector `to`.
glm::quat Turn(const glm::vec3& from, const glm::vec3& to) {
  const float d = glm::dot(from, to);
  if (d > 0.999999f) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  glm::vec3 axis = glm::cross(from, to);
  const float length = glm::length(axis);
  if (length < 1e-6f) return glm::angleAxis(3.14159265f, glm::vec3(1.0f, 0.0f, 0.0f));
  return glm::angleAxis(std::acos(std::clamp(d, -1.0f, 1.0f)), axis / length);
}

// The lowest common ancestor of the legs' start joints' parents (the hips), or -1.
int LegsRoot(const ik::Skeleton& skeleton, const std::vector<ik::Limb>& legs) {
  int common = -1;
  bool first = true;
  for (const ik::Limb& leg : legs) {
    const int parent = skeleton.parent(leg.chain.start);
    if (first) {
      common = parent;
      first = false;
    } else {
      while (common >= 0 && !skeleton.IsAncestorOrSelf(common, parent)) {
        common = skeleton.parent(common);
      }
    }
  }
  return common;
}

// The foot's path relative to the clip's travel.
std::vector<glm::vec3> Relative(const FeetSamples& s, size_t leg, const glm::vec3& travel) {
  std::vector<glm::vec3> out(s.ankle[leg].size());
  for (size_t f = 0; f < out.size(); ++f) {
    out[f] = s.ankle[leg][f] + travel * s.Time(static_cast<int>(f));
  }
  return out;
}

// Per frame, the most (or the least) of `values` over the `w` frames either side.
std::vector<float> Spread(const std::vector<float>& values, int w, bool most) {
  std::vector<float> out(values.size());
  const long n = static_cast<long>(values.size());
  for (long f = 0; f < n; ++f) {
    float m = values[static_cast<size_t>(f)];
    for (long g = std::max(0L, f - w); g <= std::min(n - 1, f + w); ++g) {
      const float v = values[static_cast<size_t>(g)];
      m = most ? std::max(m, v) : std::min(m, v);
    }
    out[static_cast<size_t>(f)] = m;
  }
  return out;
}

// Per frame, the mean of `values` over the `w` frames either side.
std::vector<float> Ease(const std::vector<float>& values, int w) {
  std::vector<float> out(values.size());
  const long n = static_cast<long>(values.size());
  for (long f = 0; f < n; ++f) {
    double sum = 0.0;
    int count = 0;
    for (long g = std::max(0L, f - w); g <= std::min(n - 1, f + w); ++g) {
      sum += double(values[static_cast<size_t>(g)]);
      ++count;
    }
    out[static_cast<size_t>(f)] = static_cast<float>(sum / count);
  }
  return out;
}

// The knee's inner angle (degrees) of a two-bone leg of bone lengths `a` and `b` whose hip and
// ankle are `d` apart (law of cosines; 180 at full reach).
float KneeAtDistance(float a, float b, float d) {
  const float c = (a * a + b * b - d * d) / (2.0f * a * b);
  return std::acos(std::clamp(c, -1.0f, 1.0f)) * kRadiansToDegrees;
}

// The knee's pace. A lock that moves the ankle relative to the hips faster than the source does
// turns the knee faster too, most of all near full reach, where the knee angle turns fast with the
// hip-to-ankle distance: at the end of a stance the clip's travel carries the planted foot away
// behind the hips, and a foot held flat there snaps the knee straight in a frame. Per leg, in
// order of frames, where a solved leg's knee would straighten by more than the source's step or
// kKneeStep degrees (whichever is more) since the frame before:
// - a foot behind the hips peels off, as a real foot does: it turns about its toe (the ball of
//   the foot, which stays planted) and the heel rises, just enough for the knee to keep the pace;
// where it would bend by more than the source's step or kKneeStep, outside a contact (a planted
// foot stays planted):
// - the foot eases out towards where it was the frame before (its release from the lock or from
//   a heel-off, or a swing foot where the hips move), just enough for the same.
// Works on the plan's keys, after the hips' offsets are final.
void PaceKnees(const ik::Skeleton& skeleton, const std::vector<glm::mat4>& rest,
               const FeetSamples& s, const std::vector<std::vector<float>>& locked,
               const std::vector<float>& planted_height, FootLockPlan* plan) {
  constexpr float kKneeStep = 4.0f;  // degrees a frame the lock may turn a knee the source holds
  constexpr float kMaxTurn = 1.2f;   // radians the heel may rise
  constexpr int kSteps = 96;         // of the search for the turn (or the ease) that keeps the pace
  for (size_t i = 0; i < plan->legs.size(); ++i) {
    const ik::TwoBoneChain& chain = plan->legs[i];
    const glm::vec3 hip_rest = Position(rest[chain.start]);
    const glm::vec3 knee_rest = Position(rest[chain.mid]);
    const glm::vec3 ankle_rest = Position(rest[chain.end]);
    const float a = glm::distance(hip_rest, knee_rest), b = glm::distance(knee_rest, ankle_rest);
    if (!(a > 0.0f) || !(b > 0.0f)) continue;
    // The ball of the foot in the rest pose, from the ankle: its farthest child joint, or (no toe
    // joint) a point on the floor ahead of the ankle along the model's forward axis.
    glm::vec3 toe_rest(0.0f, -planted_height[i], 0.15f * (a + b));
    float farthest = 0.0f;
    for (int child : skeleton.children(chain.end)) {
      const glm::vec3 d = Position(rest[static_cast<size_t>(child)]) - ankle_rest;
      if (glm::length(d) > farthest) {
        farthest = glm::length(d);
        toe_rest = d;
      }
    }
    const glm::quat rest_rotation = Rotation(rest[chain.end]);
    std::vector<FootLockPlan::Key>& keys = plan->keys[i];
    float previous = 0.0f;  // the locked knee at the frame before
    for (size_t f = 0; f < keys.size(); ++f) {
      const float source = KneeDegrees(s.hip[i][f], s.knee[i][f], s.ankle[i][f]);
      FootLockPlan::Key& key = keys[f];
      const glm::vec3 hip = s.hip[i][f] + glm::vec3(0.0f, plan->hips_offset[f], 0.0f);
      const auto knee_at = [&](const glm::vec3& ankle) {
        return KneeAtDistance(a, b, glm::distance(hip, ankle));
      };
      float knee = key.solve ? knee_at(key.target) : source;
      if (f > 0 && key.solve) {
        const float step =
            source - KneeDegrees(s.hip[i][f - 1], s.knee[i][f - 1], s.ankle[i][f - 1]);
        const float ceiling = previous + std::max(step, kKneeStep);
        const float floor = previous + std::min(step, -kKneeStep);
        // The first of kSteps candidates along a path (u in (0, 1]) whose knee is within the
        // pace, refined between it and the one before; 0 when none.
        const auto search = [&](const auto& knee_along, float bound, bool above) {
          float before = knee;
          for (int k = 1; k <= kSteps; ++k) {
            const float u = float(k) / float(kSteps);
            const float at = knee_along(u);
            if (above ? at <= bound : at >= bound) {
              const float t =
                  at != before ? std::clamp((bound - before) / (at - before), 0.0f, 1.0f) : 1.0f;
              return u - (1.0f - t) / float(kSteps);
            }
            before = at;
          }
          return 0.0f;
        };
        const glm::quat turn_to_world = key.rotation * glm::inverse(rest_rotation);
        const glm::vec3 toe = key.target + turn_to_world * toe_rest;
        const glm::vec3 up = turn_to_world * glm::vec3(0.0f, 1.0f, 0.0f);
        glm::vec3 forward = toe - key.target;
        forward -= glm::dot(forward, up) * up;
        const glm::vec3 behind = hip - key.target;
        if (knee > ceiling && glm::length(forward) > 1e-6f &&
            behind.x * forward.x + behind.z * forward.z > 0.0f) {
          // The heel-off (only a foot behind the hips: one ahead of them is landing, heel
          // first). Turning about this axis by a positive angle raises the ankle along the
          // sole's up, and (the hips ahead) brings it nearer to the hip.
          const glm::vec3 axis = glm::normalize(glm::cross(up, glm::normalize(forward)));
          const auto turned = [&](float u) {
            return toe + glm::angleAxis(u * kMaxTurn, axis) * (key.target - toe);
          };
          const float u = search([&](float x) { return knee_at(turned(x)); }, ceiling, true);
          if (u > 0.0f) {
            key.target = turned(u);
            key.rotation = glm::normalize(glm::angleAxis(u * kMaxTurn, axis) * key.rotation);
            knee = knee_at(key.target);
          }
        } else if (knee < floor && keys[f - 1].solve && locked[i][f] < 1.0f) {
          // The ease: towards the frame before's target and rotation.
          const FootLockPlan::Key from = key, to = keys[f - 1];
          const float u = search(
              [&](float x) { return knee_at(glm::mix(from.target, to.target, x)); }, floor, false);
          if (u > 0.0f) {
            key.target = glm::mix(from.target, to.target, u);
            key.rotation = glm::normalize(glm::slerp(from.rotation, to.rotation, u));
            knee = knee_at(key.target);
          }
        }
      }
      previous = knee;
    }
    // Backward, where a step still breaks the pace: a foot coming down into a contact ahead of
    // the hips (landing heel first, it cannot peel off) on lower ground than it left, or a
    // release the ease could not pace. The foot at the frame before moves along its way towards
    // where it is at the frame after — it arrives a little earlier — just enough for the knee to
    // keep the pace, frame by frame back from the contact. Planted frames stay as they are.
    const auto knee_of = [&](size_t f, const glm::vec3& ankle) {
      const glm::vec3 hip = s.hip[i][f] + glm::vec3(0.0f, plan->hips_offset[f], 0.0f);
      return KneeAtDistance(a, b, glm::distance(hip, ankle));
    };
    const auto source_knee = [&](size_t f) {
      return KneeDegrees(s.hip[i][f], s.knee[i][f], s.ankle[i][f]);
    };
    for (size_t f = keys.size(); f-- > 1;) {
      FootLockPlan::Key& key = keys[f - 1];
      if (!key.solve || locked[i][f - 1] >= 1.0f) continue;
      const float after = keys[f].solve ? knee_of(f, keys[f].target) : source_knee(f);
      const float step = source_knee(f) - source_knee(f - 1);
      // The knee at f − 1 within [after − the most it may straighten, after + the most it may
      // bend].
      const float low = after - std::max(step, kKneeStep),
                  high = after - std::min(step, -kKneeStep);
      const auto within = [&](float knee) { return knee >= low && knee <= high; };
      if (within(knee_of(f - 1, key.target))) continue;
      const FootLockPlan::Key from = key, to = keys[f];
      for (int k = 1; k <= kSteps; ++k) {
        const float u = float(k) / float(kSteps);
        const glm::vec3 target = glm::mix(from.target, to.target, u);
        if (!within(knee_of(f - 1, target)) && k < kSteps) continue;
        key.target = target;
        key.rotation = glm::normalize(glm::slerp(from.rotation, to.rotation, u));
        break;
      }
    }
  }
}

}  // namespace

float KneeDegrees(const glm::vec3& hip, const glm::vec3& knee, const glm::vec3& ankle) {
  const glm::vec3 u = hip - knee, v = ankle - knee;
  const float lu = glm::length(u), lv = glm::length(v);
  if (!(lu > 0.0f) || !(lv > 0.0f)) return 180.0f;
  return std::acos(std::clamp(glm::dot(u, v) / (lu * lv), -1.0f, 1.0f)) * kRadiansToDegrees;
}

std::vector<ik::Limb> Legs(const Character& character) {
  std::vector<ik::Limb> legs;
  for (const ik::Limb& limb : character.limbs()) {
    if (limb.kind == ik::LimbKind::kLeg) legs.push_back(limb);
  }
  return legs;
}

std::vector<int> LegJoints(const Character& character) {
  std::vector<int> joints;
  for (const ik::Limb& leg : Legs(character)) {
    joints.insert(joints.end(), {leg.chain.start, leg.chain.mid, leg.chain.end});
  }
  return joints;
}

bool LegsAre(const Character& character, const std::vector<int>& joints) {
  size_t k = 0;
  for (const ik::Limb& limb : character.limbs()) {
    if (limb.kind != ik::LimbKind::kLeg) continue;
    for (int joint : {limb.chain.start, limb.chain.mid, limb.chain.end}) {
      if (k >= joints.size() || joints[k++] != joint) return false;
    }
  }
  return k == joints.size();
}

void SampleFeet(const Character& character, int clip, float fps, const EditState& edit,
                const std::vector<ik::Limb>& legs, FeetSamples* out) {
  const ik::Skeleton& skeleton = character.skeleton();
  FeetSamples s;
  s.clip = clip;
  s.fps = fps;
  s.duration = character.clip(clip)->duration;
  s.frames = s.duration > 0.0f
                 ? std::max(1, static_cast<int>(std::ceil(double(s.duration) * double(fps) - 1e-4)))
                 : 0;
  s.legs = legs;
  s.root_joint = LegsRoot(skeleton, legs);
  std::vector<glm::mat4> rest;
  ik::LocalToModel(skeleton, ik::Pose::Rest(skeleton), &rest);
  const size_t n = legs.size(), samples = static_cast<size_t>(s.frames) + 1;
  for (const ik::Limb& leg : legs) {
    s.leg_length.push_back(
        glm::distance(Position(rest[leg.chain.start]), Position(rest[leg.chain.mid])) +
        glm::distance(Position(rest[leg.chain.mid]), Position(rest[leg.chain.end])));
  }
  for (auto* track : {&s.hip, &s.knee, &s.ankle}) track->assign(n, {});
  s.rotation.assign(n, {});
  for (size_t i = 0; i < n; ++i) {
    for (auto* track : {&s.hip, &s.knee, &s.ankle}) (*track)[i].reserve(samples);
    s.rotation[i].reserve(samples);
  }
  EditedFrame frame;
  PoseState state;
  for (int f = 0; f <= s.frames; ++f) {
    EvaluateEditedFrame(character, ClipTime{clip, s.Time(f)}, edit, &frame, &state);
    for (size_t i = 0; i < n; ++i) {
      const ik::TwoBoneChain& c = legs[i].chain;
      s.hip[i].push_back(Position(state.models[c.start]));
      s.knee[i].push_back(Position(state.models[c.mid]));
      s.ankle[i].push_back(Position(state.models[c.end]));
      s.rotation[i].push_back(Rotation(state.models[c.end]));
    }
    s.root.push_back(s.root_joint >= 0 ? Position(state.models[s.root_joint]) : glm::vec3(0.0f));
  }
  *out = std::move(s);
}

bool FindClipContacts(const Character& character, int clip, float fps, ClipContacts* out,
                      std::string* error) {
  if (character.clip(clip) == nullptr) {
    *error = "--anim " + std::to_string(clip) + ": the model has " +
             std::to_string(character.clip_count()) + " clips";
    return false;
  }
  const std::vector<ik::Limb> legs = Legs(character);
  if (legs.empty()) {
    *error =
        "no legs detected in the model (feet need a hip-knee-foot chain found by name or by "
        "left/right symmetry; see `skelview info`)";
    return false;
  }
  ClipContacts c;
  SampleFeet(character, clip, fps, EditState(), legs, &c.source);
  const FeetSamples& s = c.source;
  float leg_length = 0.0f;
  for (float l : s.leg_length) leg_length += l / float(s.leg_length.size());
  std::vector<std::vector<float>> heights(legs.size());
  for (size_t i = 0; i < legs.size(); ++i) {
    for (const glm::vec3& p : s.ankle[i]) heights[i].push_back(p.y);
  }
  c.travel = ik::TravelVelocity(s.ankle, heights, s.root, fps, leg_length);
  c.in_place = glm::length(c.travel) > 0.0f;
  c.contacts.resize(legs.size());
  c.planted_height.assign(legs.size(), 0.0f);
  for (size_t i = 0; i < legs.size(); ++i) {
    c.contacts[i] =
        ik::FindFootContacts(Relative(s, i, c.travel), heights[i], fps, s.leg_length[i]);
    double sum = 0.0;
    int count = 0;
    for (const ik::FootContact& contact : c.contacts[i]) {
      sum += double(contact.height) * double(contact.last - contact.first + 1);
      count += contact.last - contact.first + 1;
    }
    c.planted_height[i] =
        count > 0
            ? static_cast<float>(sum / count)
            : (heights[i].empty() ? 0.0f : *std::min_element(heights[i].begin(), heights[i].end()));
  }
  *out = std::move(c);
  return true;
}

std::shared_ptr<const FootLockPlan> PlanFootLock(const Character& character,
                                                 const ClipContacts& contacts,
                                                 const FootLockOptions& options) {
  const ik::Skeleton& skeleton = character.skeleton();
  const FeetSamples& s = contacts.source;
  const Ground& ground = options.ground;
  auto plan = std::make_shared<FootLockPlan>();
  plan->clip = s.clip;
  plan->fps = s.fps;
  plan->frames = s.frames;
  plan->duration = s.duration;
  plan->hips = s.root_joint;
  const size_t n = s.legs.size(), samples = static_cast<size_t>(s.frames) + 1;
  const int blend = std::max(1, static_cast<int>(std::lround(options.blend_seconds * s.fps)));
  const bool carry = !ground.IsAuthoredFloor();
  std::vector<glm::mat4> rest;
  ik::LocalToModel(skeleton, ik::Pose::Rest(skeleton), &rest);
  // Per leg and frame: the ground offset the foot is carried by (the swing blends between the
  // offsets of the contacts around it, so that the foot clears the ground without a jump).
  std::vector<std::vector<float>> carried(n, std::vector<float>(samples, 0.0f));
  // Per leg and frame: how strongly the foot is locked (1 in a contact, fading either side).
  std::vector<std::vector<float>> locked(n, std::vector<float>(samples, 0.0f));
  plan->keys.assign(n, std::vector<FootLockPlan::Key>(samples));
  for (size_t i = 0; i < n; ++i) {
    const ik::TwoBoneChain& chain = s.legs[i].chain;
    plan->legs.push_back(chain);
    plan->bend_axes.push_back(character.BendAxis(chain));  // the rig facts' rest bend axis
    const std::vector<ik::FootContact>& list = contacts.contacts[i];
    const std::vector<glm::vec3> relative = Relative(s, i, contacts.travel);
    const glm::quat rest_rotation = Rotation(rest[chain.end]);
    // Each contact's lock: where the foot landed (relative to the travel), its flat sole, and
    // the ground offset under it.
    struct Lock {
      glm::vec3 landed;
      glm::quat flat;
      float height;
      float offset;
    };
    std::vector<Lock> locks;
    for (const ik::FootContact& c : list) {
      Lock lock;
      lock.landed = relative[static_cast<size_t>(c.first)];
      // The sole flat: the rest pose's foot (standing on the floor) turned about +Y by the
      // landing foot's heading.
      const glm::quat turn =
          s.rotation[i][static_cast<size_t>(c.first)] * glm::inverse(rest_rotation);
      const glm::vec3 forward = turn * glm::vec3(0.0f, 0.0f, 1.0f);
      const float yaw =
          std::hypot(forward.x, forward.z) > 1e-4f ? std::atan2(forward.x, forward.z) : 0.0f;
      lock.flat = glm::angleAxis(yaw, glm::vec3(0.0f, 1.0f, 0.0f)) * rest_rotation;
      lock.height = c.height;
      // `landed` is in the ground's frame (for an in-place clip the ground moves with the
      // travel): the foot stays on the ground it landed on for the whole contact.
      lock.offset = carry ? ground.HeightAt(lock.landed.x, lock.landed.z) : 0.0f;
      locks.push_back(lock);
    }
    for (size_t f = 0; f < samples; ++f) {
      const int frame = static_cast<int>(f);
      const glm::vec3 animated = s.ankle[i][f];
      // The strongest contact here (1 inside, fading over `blend` frames either side).
      float w = 0.0f;
      int which = -1;
      int previous = -1, next = -1;
      for (size_t k = 0; k < list.size(); ++k) {
        const ik::FootContact& c = list[k];
        float wk = 0.0f;
        if (frame >= c.first && frame <= c.last) {
          wk = 1.0f;
        } else if (frame < c.first) {
          wk = Smoothstep(1.0f - float(c.first - frame) / float(blend + 1));
          if (next < 0) next = static_cast<int>(k);
        } else {
          wk = Smoothstep(1.0f - float(frame - c.last) / float(blend + 1));
          previous = static_cast<int>(k);
        }
        if (wk > w) {
          w = wk;
          which = static_cast<int>(k);
        }
      }
      // The carried (swing) position and rotation.
      float offset = 0.0f;
      if (carry) {
        if (which >= 0 && w >= 1.0f) {
          offset = locks[static_cast<size_t>(which)].offset;
        } else if (previous >= 0 && next >= 0) {
          const ik::FootContact& a = list[static_cast<size_t>(previous)];
          const ik::FootContact& b = list[static_cast<size_t>(next)];
          const float u = Smoothstep(float(frame - a.last) / float(std::max(1, b.first - a.last)));
          offset = (1.0f - u) * locks[static_cast<size_t>(previous)].offset +
                   u * locks[static_cast<size_t>(next)].offset;
        } else if (previous >= 0 || next >= 0) {
          offset = locks[static_cast<size_t>(previous >= 0 ? previous : next)].offset;
        } else {
          const glm::vec3 at = contacts.OnGround(animated, s.Time(frame));
          offset = ground.HeightAt(at.x, at.z);
        }
      }
      carried[i][f] = offset;
      locked[i][f] = w;
      glm::vec3 swing = animated + glm::vec3(0.0f, offset, 0.0f);
      if (carry) {
        // The swing foot clears the ground.
        const glm::vec3 over = contacts.OnGround(swing, s.Time(frame));
        const float floor = ground.HeightAt(over.x, over.z) + contacts.planted_height[i];
        swing.y = std::max(swing.y, floor);
      }
      FootLockPlan::Key& key = plan->keys[i][f];
      key.solve = carry || w > 0.0f;
      key.target = swing;
      key.rotation = s.rotation[i][f];
      if (which >= 0 && w > 0.0f) {
        // Inside the contact: the planted foot. Either side of it: the correction the lock makes
        // at the contact's first (or last) frame, fading out, on top of the moving foot — so
        // that the knee keeps the source's motion and only the small correction blends.
        const ik::FootContact& c = list[static_cast<size_t>(which)];
        const Lock& lock = locks[static_cast<size_t>(which)];
        // Planted: above where it landed in the ground's frame, back in model space at frame g.
        auto planted_at = [&](int g, glm::quat* sole) {
          const glm::vec3& at = lock.landed;
          *sole = Turn(glm::vec3(0.0f, 1.0f, 0.0f), ground.NormalAt(at.x, at.z)) * lock.flat;
          return ground.PointAbove(at.x, at.z, lock.height) - contacts.Travelled(s.Time(g));
        };
        glm::quat sole;
        if (w >= 1.0f) {
          key.target = planted_at(frame, &sole);
          key.rotation = sole;
        } else {
          const int edge = frame < c.first ? c.first : c.last;
          const size_t e = static_cast<size_t>(edge);
          const glm::vec3 planted = planted_at(edge, &sole);
          const glm::vec3 swing_edge = s.ankle[i][e] + glm::vec3(0.0f, lock.offset, 0.0f);
          const glm::quat turn = sole * glm::inverse(s.rotation[i][e]);
          key.target = swing + w * (planted - swing_edge);
          key.rotation = glm::normalize(glm::slerp(glm::quat(1.0f, 0.0f, 0.0f, 0.0f), turn, w) *
                                        s.rotation[i][f]);
        }
      }
    }
  }
  // The hips: carried with the lower foot's ground, and lowered further where a planted foot
  // is out of the leg's reach; smoothed over the blend so that the knees do not pop.
  // The lower foot's ground changes by a step's height between two contacts on stairs: the
  // hips follow it eased over twice the blend either side (the least over that window, then the
  // mean over it: never higher than the ground needs), so that a planted leg's knee is not turned
  // faster than the source turns it while the hips rise or drop.
  std::vector<float> carried_low(samples, 0.0f);
  for (size_t f = 0; f < samples && carry && n > 0; ++f) {
    carried_low[f] = carried[0][f];
    for (size_t i = 1; i < n; ++i) carried_low[f] = std::min(carried_low[f], carried[i][f]);
  }
  carried_low = Ease(Spread(carried_low, 2 * blend, false), 2 * blend);
  std::vector<float> offset(samples, 0.0f);
  for (size_t f = 0; f < samples; ++f) {
    const float base = carried_low[f];
    float extra = 0.0f;
    for (size_t i = 0; i < n; ++i) {
      const FootLockPlan::Key& key = plan->keys[i][f];
      if (!key.solve) continue;
      const glm::vec3 hip = s.hip[i][f] + glm::vec3(0.0f, base, 0.0f);
      const glm::vec3 d = key.target - hip;
      const float across = std::hypot(d.x, d.z);
      // The hips' height at which the hip is `distance` from the target (or as near as the
      // across distance allows), relative to where they are.
      const auto drop_to = [&](float distance) {
        const float down =
            across < distance ? std::sqrt(distance * distance - across * across) : 0.0f;
        return key.target.y + down - hip.y;
      };
      const float reach = 0.998f * s.leg_length[i];
      if (glm::length(d) > reach) extra = std::min(extra, drop_to(reach));
      // A locked leg the source holds nearly straight: near full extension the knee angle turns
      // fast with the hip-to-foot distance, so a planted foot a few millimetres further than the
      // source's would snap the knee. The hips come down so that the distance, and with it the
      // knee angle, is the source's (fully from 170 degrees of knee angle, not below 150).
      const float w = locked[i][f];
      if (w <= 0.0f) continue;
      const float straight =
          Smoothstep((KneeDegrees(s.hip[i][f], s.knee[i][f], s.ankle[i][f]) - 150.0f) / 20.0f);
      const float source = std::min(glm::distance(s.hip[i][f], s.ankle[i][f]), reach);
      if (straight > 0.0f && glm::length(d) > source) {
        extra = std::min(extra, w * straight * drop_to(source));
      }
    }
    offset[f] = base + extra;
  }
  // Min over the window, then the mean over it: never higher than needed, and smooth.
  plan->hips_offset = Ease(Spread(offset, blend, false), blend);
  if (plan->hips < 0) std::fill(plan->hips_offset.begin(), plan->hips_offset.end(), 0.0f);
  // Where the hips moved, every leg is solved: a swing foot (or one fading out of its lock) stays
  // where its key puts it instead of moving with the hips, so the knee does not take the hips'
  // move in the frame its lock ends.
  for (size_t f = 0; f < samples; ++f) {
    if (plan->hips_offset[f] == 0.0f) continue;
    for (size_t i = 0; i < n; ++i) plan->keys[i][f].solve = true;
  }
  PaceKnees(skeleton, rest, s, locked, contacts.planted_height, plan.get());
  return plan;
}

void ApplyFootLock(const FootLockPlan& plan, const ik::Skeleton& skeleton, float time,
                   const glm::mat4* placement, ik::Pose* pose, std::vector<glm::mat4>* models) {
  if (plan.keys.empty() || plan.hips_offset.empty() || !std::isfinite(time)) return;
  // Frame f is at f / fps, the last one at the duration (as BakeClip samples).
  const float before_last = float(std::max(plan.frames - 1, 0)) / plan.fps;
  int f0 = 0;
  float u = 0.0f;
  if (plan.frames > 0 && time >= before_last) {
    f0 = plan.frames - 1;
    const float span = plan.duration - before_last;
    u = span > 0.0f ? std::clamp((time - before_last) / span, 0.0f, 1.0f) : 1.0f;
  } else {
    const float at = std::max(time * plan.fps, 0.0f);
    f0 = std::min(static_cast<int>(std::floor(at)), plan.frames);
    u = at - float(f0);
  }
  const int f1 = std::min(f0 + 1, plan.frames);
  const size_t a = static_cast<size_t>(f0), b = static_cast<size_t>(f1);
  const float dy = (1.0f - u) * plan.hips_offset[a] + u * plan.hips_offset[b];
  if (dy != 0.0f && plan.hips >= 0) {
    const int parent = skeleton.parent(plan.hips);
    // Model-space +Y; a root's translation is in the placement's frame, any other's in its
    // parent's (placed).
    glm::vec3 offset(0.0f, dy, 0.0f);
    if (parent >= 0) {
      const glm::vec3 placed = placement ? glm::mat3(*placement) * offset : offset;
      offset = glm::inverse(glm::mat3((*models)[parent])) * placed;
    }
    if (ik::IsFinite(offset)) {
      pose->locals[plan.hips].translation += offset;
      if (parent < 0 && placement) {
        ik::LocalToModel(skeleton, *pose, *placement, models);  // a placed root
      } else {
        ik::LocalToModelFrom(skeleton, *pose, plan.hips, models);
      }
    }
  }
  for (size_t i = 0; i < plan.legs.size(); ++i) {
    const FootLockPlan::Key& k0 = plan.keys[i][a];
    const FootLockPlan::Key& k1 = plan.keys[i][b];
    if (!k0.solve && !k1.solve) continue;
    ik::TwoBoneTarget target;
    glm::vec3 position = glm::mix(k0.target, k1.target, u);
    glm::quat rotation = glm::slerp(k0.rotation, k1.rotation, u);
    if (placement) {
      position = glm::vec3(*placement * glm::vec4(position, 1.0f));
      rotation = glm::normalize(Rotation(*placement) * rotation);
    }
    target.position = position;
    target.rotation = rotation;
    ik::TwoBoneIkOptions options;
    options.bend_axis_local = plan.bend_axes[i];
    options.end_orientation = ik::EndOrientation::kTarget;
    ik::SolveTwoBoneIkPose(skeleton, plan.legs[i], target, options, pose, models);
  }
}

FeetNumbers MeasureFeet(const FeetSamples& s, const ClipContacts& contacts, const Ground& ground) {
  FeetNumbers out;
  double sum = 0.0;
  int count = 0;
  out.skate_mm.resize(s.legs.size());
  for (size_t i = 0; i < s.legs.size() && i < contacts.contacts.size(); ++i) {
    const std::vector<glm::vec3> relative = Relative(s, i, contacts.travel);
    for (const ik::FootContact& c : contacts.contacts[i]) {
      const float skate = ik::ContactSkate(relative, c.first, c.last) * kMillimetres;
      out.skate_mm[i].push_back(skate);
      out.max_skate_mm = std::max(out.max_skate_mm, skate);
      sum += double(skate);
      ++count;
      for (int f = c.first; f <= c.last; ++f) {
        const float d =
            (ground.HeightAbove(relative[static_cast<size_t>(f)]) - contacts.planted_height[i]) *
            kMillimetres;
        out.penetration_mm = std::max(out.penetration_mm, -d);
        out.float_mm = std::max(out.float_mm, d);
      }
    }
    for (size_t f = 1; f < s.ankle[i].size(); ++f) {
      const float step =
          std::fabs(KneeDegrees(s.hip[i][f], s.knee[i][f], s.ankle[i][f]) -
                    KneeDegrees(s.hip[i][f - 1], s.knee[i][f - 1], s.ankle[i][f - 1]));
      out.knee_step_deg = std::max(out.knee_step_deg, step);
    }
  }
  out.mean_skate_mm = count > 0 ? static_cast<float>(sum / count) : 0.0f;
  return out;
}

FootLockReport ReportFootLock(const Character& character, const ClipContacts& contacts,
                              const Ground& ground,
                              const std::shared_ptr<const FootLockPlan>& plan) {
  FootLockReport report;
  const FeetSamples& before = contacts.source;
  report.before = MeasureFeet(before, contacts, ground);
  EditState edit;
  edit.foot_lock = plan;
  FeetSamples after;
  SampleFeet(character, before.clip, before.fps, edit, before.legs, &after);
  report.after = MeasureFeet(after, contacts, ground);
  for (size_t i = 0; i < before.legs.size(); ++i) {
    for (size_t f = 1; f < before.ankle[i].size() && f < after.ankle[i].size(); ++f) {
      auto step = [&](const FeetSamples& x) {
        return KneeDegrees(x.hip[i][f], x.knee[i][f], x.ankle[i][f]) -
               KneeDegrees(x.hip[i][f - 1], x.knee[i][f - 1], x.ankle[i][f - 1]);
      };
      report.knee_jump_deg = std::max(report.knee_jump_deg, std::fabs(step(after) - step(before)));
    }
  }
  return report;
}

}  // namespace app
