// The two-bone solver's SIMD fast path (both builds, SSE2 and AVX2 + FMA): as exact as the
// double-precision general path on every kind of frame it takes, measured in double on where the
// corrections really put the joints; which chains it takes; and its two ways of turning the start
// joint (in the knee plane without a pole, by a minimal rotation with one) agreeing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ik/core/cpu_features.h"
#include "ik/core/kinematics.h"
#include "ik/two_bone/two_bone_ik.h"
#include "ik/two_bone/two_bone_ik_fast_io.h"
#include "ik/two_bone/two_bone_ik_internal.h"
#include "tests/ik/ik_test_util.h"

namespace {

using iktest::Uniform;

constexpr int kChains = 50000;   // per build (and with and without a pole)
constexpr double kExact = 1e-6;  // of the chain length

using FastBuild = bool (*)(const ik::internal::FastInput&, ik::internal::FastOutput*);

struct Build {
  const char* name;
  FastBuild solve;
};

// The builds this CPU can run.
std::vector<Build> Builds() {
  std::vector<Build> builds{{"sse2", &ik::internal::SolveFastSse2}};
  if (ik::CpuHasAvx2Fma()) builds.push_back({"avx2", &ik::internal::SolveFastAvx2});
  return builds;
}

glm::quat Quat(const float* xyzw) { return glm::quat(xyzw[3], xyzw[0], xyzw[1], xyzw[2]); }

// A model matrix's translation, in double.
glm::dvec3 Position(const glm::mat4& m) { return glm::dvec3(glm::vec3(m[3])); }

// A chain's matrices, target and pole, and the fast build's answer for it.
struct Chain {
  glm::mat4 start{1.0f}, mid{1.0f}, end{1.0f};
  glm::vec3 target{0.0f};
  bool has_pole = false;
  glm::vec3 pole{0.0f};

  double Length() const {
    return glm::length(Position(mid) - Position(start)) +
           glm::length(Position(end) - Position(mid));
  }
  ik::TwoBoneIkOptions Options() const {
    ik::TwoBoneIkOptions options;
    if (has_pole) options.pole_model = pole;
    return options;
  }
  bool SolveFast(FastBuild solve, ik::internal::FastOutput* out) const {
    const ik::internal::FastInput in{&start[0][0],
                                     &mid[0][0],
                                     &end[0][0],
                                     &target.x,
                                     has_pole ? &pole.x : nullptr,
                                     1e-5f,
                                     ik::internal::kReachLimitFuzz};
    return solve(in, out);
  }
  // The general path's answer: a soft zone of 1e-7·L sends the solve there and changes no target
  // nearer the start than (1 - 1e-7)·L (the callers skip softened ones).
  ik::TwoBoneIkResult SolveDouble() const {
    ik::TwoBoneIkOptions options = Options();
    options.soft = 1e-7f;
    return ik::SolveTwoBoneIk(start, mid, end, target, options);
  }
};

// Where the corrections put the mid and end joints, in double: the start's turn A_k q_k A_k⁻¹ moves
// both bones, the mid's A_j q_j A_j⁻¹ the lower one (corrections normalized in double).
struct Joints {
  glm::dvec3 b, c;
};
Joints Applied(const Chain& chain, const glm::quat& start_correction,
               const glm::quat& mid_correction) {
  auto frame = [](const glm::mat4& m) {
    return glm::dmat3(glm::dvec3(glm::vec3(m[0])), glm::dvec3(glm::vec3(m[1])),
                      glm::dvec3(glm::vec3(m[2])));
  };
  auto turn = [](const glm::dmat3& f, const glm::quat& q) {
    const glm::dquat dq =
        glm::normalize(glm::dquat(static_cast<double>(q.w), static_cast<double>(q.x),
                                  static_cast<double>(q.y), static_cast<double>(q.z)));
    return f * glm::mat3_cast(dq) * glm::inverse(f);
  };
  const glm::dmat3 turn_k = turn(frame(chain.start), start_correction);
  const glm::dmat3 turn_j = turn(frame(chain.mid), mid_correction);
  const glm::dvec3 a = Position(chain.start), b = Position(chain.mid), c = Position(chain.end);
  Joints out;
  out.b = a + turn_k * (b - a);
  out.c = out.b + turn_k * (turn_j * (c - b));
  return out;
}

// Relative miss of the end from the target (reachable solves) or from the reported end.
double Miss(const Chain& chain, const Joints& joints, const glm::vec3& aim) {
  return glm::length(joints.c - glm::dvec3(aim)) / chain.Length();
}

// The chain of a random rig (float forward kinematics, mirrored 20% of the time), frames turned
// by up to `skew` off a similarity (A·(I + E), E symmetric with entries within ±skew), target
// reachable, pole optional.
Chain RandomChain(std::mt19937& rng, float skew, bool with_pole) {
  const iktest::ChainRig rig = iktest::RandomChainRig(rng);
  auto skewed = [&](glm::mat4 m) {
    glm::mat3 e(0.0f);
    for (int i = 0; i < 3; ++i) {
      for (int k = i; k < 3; ++k) e[i][k] = e[k][i] = Uniform(rng, -skew, skew);
    }
    const glm::mat3 turned = glm::mat3(m) * (glm::mat3(1.0f) + e);
    for (int i = 0; i < 3; ++i) m[i] = glm::vec4(turned[i], m[i][3]);
    return m;
  };
  Chain chain;
  chain.start = skew > 0.0f ? skewed(rig.models[1]) : rig.models[1];
  chain.mid = skew > 0.0f ? skewed(rig.models[2]) : rig.models[2];
  chain.end = rig.models[3];
  const glm::vec3 a(chain.start[3]);
  chain.target = iktest::TargetAt(
      rng, a, Uniform(rng, std::abs(rig.upper - rig.lower), rig.upper + rig.lower));
  chain.has_pole = with_pole;
  chain.pole = a + iktest::RandomUnit(rng) * Uniform(rng, 0.1f, 3.0f);
  return chain;
}

// For every build, with and without a pole: chains from `make` that the build solves as reachable
// miss their target by no more than the general path does plus kExact·L (and by no more than
// `absolute`·L, when given); at least `min_share` of the `chains` are solved by the build;
// `reached` holds only within ReachTolerance.
template <class MakeChain>
void ExpectAsExactAsTheDoublePath(MakeChain make, int chains, double min_share, double absolute) {
  for (const Build& build : Builds()) {
    for (bool with_pole : {false, true}) {
      std::mt19937 rng(with_pole ? 11 : 12);
      int solved = 0;
      double worst = 0.0, worst_gap = 0.0;
      for (int i = 0; i < chains; ++i) {
        const Chain chain = make(rng, with_pole);
        ik::internal::FastOutput out;
        if (!chain.SolveFast(build.solve, &out)) continue;
        ++solved;
        if (out.solve_case != static_cast<int>(ik::TwoBoneCase::kReachable)) continue;
        const double fast =
            Miss(chain, Applied(chain, Quat(out.start_correction), Quat(out.mid_correction)),
                 chain.target);
        const ik::TwoBoneIkResult slow = chain.SolveDouble();
        const std::string what =
            std::string(build.name) + (with_pole ? " pole" : "") + " #" + std::to_string(i);
        ASSERT_LE(fast * chain.Length(),
                  static_cast<double>(ik::ReachTolerance(static_cast<float>(chain.Length()),
                                                         glm::vec3(chain.start[3]), chain.target)))
            << what << ": reported reached";
        if (absolute > 0.0) {
          ASSERT_LE(fast, absolute) << what;
        }
        if (slow.softened) continue;
        const double gap =
            fast -
            Miss(chain, Applied(chain, slow.start_correction, slow.mid_correction), chain.target);
        ASSERT_LE(gap, kExact) << what;
        worst = std::max(worst, fast);
        worst_gap = std::max(worst_gap, gap);
      }
      EXPECT_GE(solved, static_cast<int>(min_share * chains)) << build.name;
      ::testing::Test::RecordProperty(
          std::string(build.name) + (with_pole ? "_pole" : "") + "_worst_miss",
          std::to_string(worst));
      ::testing::Test::RecordProperty(
          std::string(build.name) + (with_pole ? "_pole" : "") + "_worst_gap",
          std::to_string(worst_gap));
    }
  }
}

TEST(TwoBoneIkFastPath, EachBuildLandsWithin1e6OfTheChainOnRandomRigs) {
  ExpectAsExactAsTheDoublePath(
      [](std::mt19937& rng, bool with_pole) { return RandomChain(rng, 0.0f, with_pole); }, kChains,
      0.99, kExact);
}

// Frames that are similarities only to float precision (deep hierarchies, scaled rigs) cannot be
// solved exactly by any rotation: the bones' lengths change by up to that much. The fast path
// must not add to it.
TEST(TwoBoneIkFastPath, FramesOffASimilarityCostNoMoreThanOnTheDoublePath) {
  for (float skew : {3e-7f, 1e-6f}) {
    SCOPED_TRACE(skew);
    ExpectAsExactAsTheDoublePath(
        [skew](std::mt19937& rng, bool with_pole) { return RandomChain(rng, skew, with_pole); },
        kChains / 4, skew < 5e-7f ? 0.95 : 0.05, 0.0);
  }
}

// A chain under `depth` random joints (rotations, translations and uniform scales), its model
// matrices from float forward kinematics.
Chain DeepChain(std::mt19937& rng, int depth, bool with_pole) {
  std::vector<ik::JointDesc> joints;
  for (int i = 0; i < depth + 3; ++i) {
    ik::JointDesc joint;
    joint.name = "j" + std::to_string(i);
    joint.parent = i - 1;
    joint.rest.rotation = iktest::RandomRotation(rng);
    joint.rest.translation = iktest::RandomUnit(rng) * Uniform(rng, 0.05f, 0.5f);
    if (i < depth) joint.rest.scale = glm::vec3(Uniform(rng, 0.8f, 1.25f));
    joints.push_back(joint);
  }
  const ik::Skeleton skeleton = iktest::MustBuild(joints);
  std::vector<glm::mat4> models;
  ik::LocalToModel(skeleton, ik::Pose::Rest(skeleton), &models);
  Chain chain;
  chain.start = models[depth];
  chain.mid = models[depth + 1];
  chain.end = models[depth + 2];
  const glm::vec3 a(chain.start[3]);
  const float upper = glm::length(glm::vec3(chain.mid[3]) - a);
  const float lower = glm::length(glm::vec3(chain.end[3] - chain.mid[3]));
  chain.target = iktest::TargetAt(rng, a, Uniform(rng, std::abs(upper - lower), upper + lower));
  chain.has_pole = with_pole;
  chain.pole = a + iktest::RandomUnit(rng) * Uniform(rng, 0.1f, 1.0f);
  return chain;
}

TEST(TwoBoneIkFastPath, ChainsUnderDeepHierarchiesCostNoMoreThanOnTheDoublePath) {
  for (int depth : {10, 40}) {
    SCOPED_TRACE(depth);
    ExpectAsExactAsTheDoublePath(
        [depth](std::mt19937& rng, bool with_pole) { return DeepChain(rng, depth, with_pole); },
        2000, depth <= 10 ? 0.95 : 0.5, 0.0);
  }
}

// A rig in other units, or under a scaled root: the scale in the matrices as well as in the
// positions. The fast path takes these as it takes unit rigs.
TEST(TwoBoneIkFastPath, RigsInAnyUnitsStayOnTheFastPath) {
  for (float scale : {1e-3f, 1e3f, 1e5f}) {
    SCOPED_TRACE(scale);
    ExpectAsExactAsTheDoublePath(
        [scale](std::mt19937& rng, bool with_pole) {
          Chain chain = RandomChain(rng, 0.0f, with_pole);
          for (glm::mat4* m : {&chain.start, &chain.mid, &chain.end}) {
            for (int col = 0; col < 3; ++col) (*m)[col] *= scale;
            (*m)[3] = glm::vec4(glm::vec3((*m)[3]) * scale, 1.0f);
          }
          chain.target *= scale;
          chain.pole *= scale;
          return chain;
        },
        kChains / 10, 0.99, kExact);
  }
}

// Only the 3x3 parts and translations of the matrices count: a fourth row that is not
// (0, 0, 0, 1) changes nothing.
TEST(TwoBoneIkFastPath, TheMatricesFourthRowIsIgnored) {
  for (const Build& build : Builds()) {
    std::mt19937 rng(13);
    for (int i = 0; i < 1000; ++i) {
      const bool with_pole = i % 2 == 1;
      const Chain clean = RandomChain(rng, 0.0f, with_pole);
      Chain odd = clean;
      for (glm::mat4* m : {&odd.start, &odd.mid, &odd.end}) {
        for (int col = 0; col < 4; ++col) (*m)[col][3] = Uniform(rng, -3.0f, 3.0f);
      }
      ik::internal::FastOutput want, got;
      ASSERT_EQ(clean.SolveFast(build.solve, &want), odd.SolveFast(build.solve, &got)) << i;
      if (!clean.SolveFast(build.solve, &want)) continue;
      ASSERT_TRUE(odd.SolveFast(build.solve, &got));
      for (int k = 0; k < 4; ++k) {
        ASSERT_EQ(want.start_correction[k], got.start_correction[k]) << build.name << " #" << i;
        ASSERT_EQ(want.mid_correction[k], got.mid_correction[k]) << build.name << " #" << i;
      }
      for (int k = 0; k < 3; ++k) {
        ASSERT_EQ(want.b_final[k], got.b_final[k]) << build.name << " #" << i;
        ASSERT_EQ(want.c_final[k], got.c_final[k]) << build.name << " #" << i;
      }
    }
  }
}

// Without a pole the start joint turns in the knee plane; targets almost straight behind the
// upper bone make that turn close to 180°, which the plane's own normal keeps exact. Knees within
// epsilon·L of the start-target line, and turns within ~1e-5 rad of 180°, are the general path's
// (which turns about the bend axis).
TEST(TwoBoneIkFastPath, StartTurnsCloseTo180DegreesInTheKneePlaneAreExact) {
  std::mt19937 rng(14);
  for (const Build& build : Builds()) {
    for (double angle : {0.3, 1e-2, 1e-3, 1e-4, 0.0}) {
      for (int i = 0; i < 200; ++i) {
        Chain chain = RandomChain(rng, 0.0f, false);
        // A target beyond reach, `angle` off the direction opposite the upper bone, in a random
        // plane through that direction.
        const glm::dvec3 a = Position(chain.start);
        const glm::dvec3 back = -glm::normalize(Position(chain.mid) - a);
        const glm::dvec3 side =
            glm::normalize(glm::cross(back, glm::dvec3(iktest::RandomUnit(rng))));
        const glm::dvec3 dir = std::cos(angle) * back + std::sin(angle) * side;
        chain.target = glm::vec3(a + 1.5 * chain.Length() * dir);
        const std::string what =
            std::string(build.name) + " angle " + std::to_string(angle) + " #" + std::to_string(i);
        ik::internal::FastOutput out;
        const bool fast = chain.SolveFast(build.solve, &out);
        if (angle >= 1e-3) {
          ASSERT_TRUE(fast) << what;
        } else if (angle == 0.0) {
          ASSERT_FALSE(fast) << what;
        }
        if (!fast) continue;
        ASSERT_EQ(out.solve_case, static_cast<int>(ik::TwoBoneCase::kTooFar)) << what;
        const Joints joints = Applied(chain, Quat(out.start_correction), Quat(out.mid_correction));
        const glm::vec3 c_final(out.c_final[0], out.c_final[1], out.c_final[2]);
        ASSERT_LE(Miss(chain, joints, c_final), kExact) << what;
        // Fully extended toward the target.
        const glm::dvec3 toward = glm::normalize(glm::dvec3(chain.target) - a);
        ASSERT_NEAR(glm::dot(joints.c - a, toward) / chain.Length(), 1.0, kExact) << what;
      }
    }
  }
}

// A pole at the current knee spans the same knee plane as no pole: the two ways of turning the
// start joint (in the plane; by the minimal rotation of the bone's images) put the joints in the
// same places.
TEST(TwoBoneIkFastPath, APoleAtTheKneeGivesTheSamePoseAsNoPole) {
  for (const Build& build : Builds()) {
    std::mt19937 rng(15);
    int compared = 0;
    for (int i = 0; i < kChains; ++i) {
      Chain plane = RandomChain(rng, 0.0f, false);
      if (i % 3 == 0) plane.target = glm::vec3(plane.start[3]) * 2.0f - plane.target;
      Chain pole = plane;
      pole.has_pole = true;
      pole.pole = glm::vec3(plane.mid[3]);
      ik::internal::FastOutput plane_out, pole_out;
      if (!plane.SolveFast(build.solve, &plane_out) || !pole.SolveFast(build.solve, &pole_out)) {
        continue;
      }
      ++compared;
      const Joints by_plane =
          Applied(plane, Quat(plane_out.start_correction), Quat(plane_out.mid_correction));
      const Joints by_pole =
          Applied(pole, Quat(pole_out.start_correction), Quat(pole_out.mid_correction));
      const double length = plane.Length();
      ASSERT_LE(glm::length(by_plane.b - by_pole.b), 2.0 * kExact * length)
          << build.name << " #" << i;
      ASSERT_LE(glm::length(by_plane.c - by_pole.c), 2.0 * kExact * length)
          << build.name << " #" << i;
    }
    EXPECT_GT(compared, kChains * 99 / 100) << build.name;
  }
}

}  // namespace
