// FABRIK with joint limits: the frame chain (the frame pass, forward kinematics of frames, CCD
// sweeps, poses within the limits) and the Levenberg-Marquardt refinement; see the top of
// ik/chains/fabrik_pose.cpp.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "ik/chains/fabrik_internal.h"
#include "ik/core/constraint_util.h"
#include "ik/core/rotation.h"
#include "ik/limits/joint_limits.h"

namespace ik {
namespace internal {

namespace {

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

// A pseudo-random number in [0, 1) from *state (xorshift32).
float NextUniform(std::uint32_t* state) {
  std::uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return static_cast<float>(x >> 8) * (1.0f / 16777216.0f);
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

// m += sign · c cᵀ, for the symmetric 3x3 m stored as xx, xy, xz, yy, yz, zz.
void AddOuter(const glm::vec3& c, double sign, double m[6]) {
  const glm::dvec3 cd(c);
  m[0] += sign * cd.x * cd.x;
  m[1] += sign * cd.x * cd.y;
  m[2] += sign * cd.x * cd.z;
  m[3] += sign * cd.y * cd.y;
  m[4] += sign * cd.y * cd.z;
  m[5] += sign * cd.z * cd.z;
}

// The Jacobian's columns of state `cur` with the end at `end` (b.columns, b.lever; no direction
// blocked yet), and their sum of outer products added into m.
void AddColumns(const FrameChain& chain, const RefineBuffers& b, int cur, const glm::vec3& end,
                double m[6]) {
  for (int i = 0; i < chain.n; ++i) {
    const FabrikChainJoint& joint = chain.joints[i];
    b.blocked_count[i] = 0;
    b.lever[i] = b.inverses[cur][i] * (end - b.p[cur][i]);
    for (int k = 0; k < joint.axis_count; ++k) {
      const glm::vec3 c = b.frames[cur][i] * glm::cross(joint.axes[k], b.lever[i]);
      b.columns[3 * i + k] = c;
      AddOuter(c, 1.0, m);
    }
  }
}

}  // namespace

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
        return NormalizeOrIdentity(joint.rest_rotation * glm::quat(w * inv, s * inv * axis.x,
                                                                   s * inv * axis.y,
                                                                   s * inv * axis.z));
      }
    } else if (glm::dot(Rotate(delta, axis), axis) >= joint.cos_cone) {
      return rotation;
    }
  }
  return ClampRotation(limit, joint.rest_rotation, rotation, clamped);
}

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
    glm::quat rotation = NormalizeOrIdentity(base[i] * RotationBetween(joint.child_offset, wanted));
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
            NormalizeOrIdentity(glm::quat(turn.w, along * bone.x, along * bone.y, along * bone.z));
        turn = NormalizeOrIdentity(turn * glm::conjugate(twist));
      }
    }
    glm::quat rotation = NormalizeOrIdentity(rotations[i] * turn);
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

glm::quat TurnWithin(const FabrikChainJoint& joint, std::uint32_t* state) {
  const float u1 = NextUniform(state), u2 = NextUniform(state), u3 = NextUniform(state);
  const JointLimit* limit = joint.limit;
  if (!limit) {
    const float phi = kTwoPi * u1;
    const glm::vec3 axis = std::cos(phi) * joint.axes[0] +
                           (joint.axis_count > 1 ? std::sin(phi) * joint.axes[1] : glm::vec3(0));
    return NormalizeOrIdentity(joint.local.rotation * AxisAngle(glm::normalize(axis), u2));
  }
  if (limit->type == JointLimit::Type::kHinge) {
    return NormalizeOrIdentity(
        joint.rest_rotation *
        AxisAngle(joint.axes[0], limit->min_angle + u1 * (limit->max_angle - limit->min_angle)));
  }
  const glm::vec3 axis = glm::normalize(limit->twist_axis_local);
  const glm::vec3 side = AnyPerpendicular(axis);
  const float phi = kTwoPi * u1;
  const glm::vec3 across = std::cos(phi) * side + std::sin(phi) * glm::cross(axis, side);
  const glm::quat swing = AxisAngle(across, u2 * limit->cone_angle);
  const glm::quat twist =
      AxisAngle(axis, limit->twist_min + u3 * (limit->twist_max - limit->twist_min));
  return NormalizeOrIdentity(joint.rest_rotation * (swing * twist));
}

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
    AddColumns(chain, b, cur, end, m);
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
        glm::quat q = NormalizeOrIdentity(old * glm::quat(1.0f, half.x, half.y, half.z));
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
              AddOuter(c, -1.0, m);
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

}  // namespace internal
}  // namespace ik
