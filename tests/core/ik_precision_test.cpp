// The two-bone solve through app/evaluate lands on reachable targets to 1e-6 of the chain whatever
// the rig's units and placement: the built-in character as it is, in centimetres (×100), and
// ×100 a thousand units from the origin; a quadruped authored in centimetres; the shared real rigs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "app/core/evaluate.h"
#include "assets/builtin/builtin_character.h"
#include "assets/importer.h"
#include "ik/body/limbs.h"
#include "tests/support/builtin.h"
#include "tests/test_paths.h"

namespace {

constexpr float kExact = 1e-6f;  // of the chain length

// The model with every translation (rest and animated) times `scale` and the roots moved by
// `offset`: the same rig authored in other units, somewhere else.
assets::Model ScaledAndMoved(const assets::Model& in, float scale, const glm::vec3& offset) {
  const ik::Skeleton& s = in.skeleton;
  std::vector<ik::JointDesc> joints;
  for (int j = 0; j < s.joint_count(); ++j) {
    ik::JointDesc d;
    d.name = s.name(j);
    d.parent = s.parent(j);
    d.rest = s.rest_locals()[j];
    d.rest.translation = d.rest.translation * scale + (d.parent < 0 ? offset : glm::vec3(0.0f));
    joints.push_back(d);
  }
  std::string error;
  auto built = ik::Skeleton::Build(std::move(joints), &error);
  if (!built) ADD_FAILURE() << error;
  assets::Model out;
  out.skeleton = built ? *built : ik::Skeleton();
  out.is_bone = in.is_bone;
  out.clips = in.clips;
  for (assets::Clip& clip : out.clips) {
    for (assets::JointAnimation& channel : clip.channels) {
      const bool root = s.parent(channel.joint) < 0;
      for (glm::vec3& v : channel.translation.values)
        v = v * scale + (root ? offset : glm::vec3(0));
    }
  }
  return out;
}

// A four-legged rig authored in centimetres, standing 40-60 units from the origin like the one in
// the issue: a root turned -90° about X (a Z-up file), hips 27 cm up and 43 cm forward, legs of
// two bones of about 19 and 18 cm bent at the knee, each joint rolled about its bone.
assets::Model CentimetreQuadruped() {
  auto rotation = [](float degrees, glm::vec3 axis) {
    return glm::angleAxis(glm::radians(degrees), glm::normalize(axis));
  };
  std::vector<ik::JointDesc> joints;
  auto add = [&](const std::string& name, int parent, glm::vec3 t, glm::quat r) {
    ik::JointDesc d;
    d.name = name;
    d.parent = parent;
    d.rest.translation = t;
    d.rest.rotation = r;
    joints.push_back(d);
    return static_cast<int>(joints.size()) - 1;
  };
  const int root = add("root", -1, glm::vec3(0.0f), rotation(-90.0f, {1, 0, 0}));
  const int hips = add("hips", root, {0.0f, 42.9f, 26.7f}, rotation(97.0f, {0.2f, -1.0f, 0.1f}));
  const int chest = add("chest", hips, {34.5f, 0.0f, 0.0f}, rotation(-3.0f, {0, 0, 1}));
  for (int side = 0; side < 2; ++side) {
    const float z = side == 0 ? -7.0f : 7.0f;
    const std::string s = side == 0 ? "Left" : "Right";
    for (int pair = 0; pair < 2; ++pair) {
      const int parent = pair == 0 ? hips : chest;
      const std::string leg = s + (pair == 0 ? "Hind" : "Fore");
      const int upper = add(leg + "Upper", parent, {4.8f, 5.2f, z},
                            rotation(152.0f + 3.0f * float(side), {0.05f, 0.1f, 1.0f}));
      const int lower =
          add(leg + "Lower", upper, {18.94f, 0.0f, 0.0f}, rotation(-43.0f, {0.01f, 0.02f, 1.0f}));
      const int foot =
          add(leg + "Foot", lower, {17.94f, 0.0f, 0.0f}, rotation(55.0f, {0.03f, 0.0f, 1.0f}));
      add(leg + "Toe", foot, {15.8f, 0.0f, 0.0f}, rotation(66.0f, {0, 0, 1}));
    }
  }
  std::string error;
  auto built = ik::Skeleton::Build(std::move(joints), &error);
  if (!built) ADD_FAILURE() << error;
  assets::Model model;
  model.skeleton = built ? *built : ik::Skeleton();
  model.is_bone.assign(model.skeleton.joint_count(), true);
  return model;
}

// The spacing of float coordinates at `p`: no float point is nearer to an arbitrary point than half
// of it per coordinate, so a rig far from the origin, relative to its size, cannot do better.
float FloatSpacing(const glm::vec3& p) {
  auto ulp = [](float x) {
    const float a = std::abs(x);
    return std::nextafter(a, INFINITY) - a;
  };
  return glm::length(glm::vec3(ulp(p.x), ulp(p.y), ulp(p.z)));
}

struct Precision {
  float worst = 0.0f;          // the largest miss, relative to the chain
  float worst_allowed = 0.0f;  // the largest miss relative to what is allowed (<= 1 passes)
  int unreached = 0;
  int solves = 0;
};

// Random reachable targets (2% inside the reach limits) for each (chain, pose), solved through
// app::EvaluatePose; the miss measured on the world matrices it returns. `chains` as {start, mid,
// end} triples by name, or every detected limb when empty.
Precision Measure(const assets::Model& model, const std::vector<app::ClipTime>& times,
                  bool allow_float_spacing, uint32_t seed,
                  const std::vector<ik::TwoBoneChain>& chains = {}) {
  std::vector<ik::TwoBoneChain> use = chains;
  if (use.empty()) {
    for (const ik::Limb& limb : ik::DetectLimbs(model.skeleton, &model.is_bone)) {
      use.push_back(limb.chain);
    }
  }
  EXPECT_FALSE(use.empty());
  std::mt19937 rng(seed);
  auto uniform = [&](float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(rng);
  };
  Precision out;
  const app::Character character(model);
  app::PoseState state;
  app::ConstraintRequests requests;
  for (const app::ClipTime& time : times) {
    requests.ik.clear();
    app::EvaluatePose(character, time, requests, &state);
    const std::vector<glm::mat4> unsolved = state.models;
    for (const ik::TwoBoneChain& chain : use) {
      const glm::vec3 a(unsolved[chain.start][3]), b(unsolved[chain.mid][3]),
          c(unsolved[chain.end][3]);
      const float upper = glm::length(b - a), lower = glm::length(c - b);
      const float length = upper + lower, hole = std::abs(upper - lower);
      for (int i = 0; i < 150; ++i) {
        glm::vec3 dir;
        do {
          dir = glm::vec3(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
        } while (glm::dot(dir, dir) > 1.0f || glm::dot(dir, dir) < 0.01f);
        const float d = hole + (length - hole) * uniform(0.02f, 0.98f);
        app::IkChainRequest request;
        request.chain = chain;
        request.target.position = a + glm::normalize(dir) * d;
        requests.ik = {request};
        app::EvaluatePose(character, time, requests, &state);
        const glm::vec3 end(state.models[chain.end][3]);
        const float miss = glm::length(end - request.target.position);
        const float allowed =
            kExact * length + (allow_float_spacing ? FloatSpacing(request.target.position) : 0.0f);
        out.worst = std::max(out.worst, miss / length);
        out.worst_allowed = std::max(out.worst_allowed, miss / allowed);
        out.unreached += state.ik[0].reached ? 0 : 1;
        ++out.solves;
      }
    }
  }
  return out;
}

void ExpectExact(const Precision& p, const std::string& what) {
  EXPECT_GT(p.solves, 0) << what;
  EXPECT_LE(p.worst_allowed, 1.0f) << what << ": worst miss " << p.worst << " of the chain";
  EXPECT_EQ(p.unreached, 0) << what << ": reachable targets reported unreached";
  std::printf("%s: worst miss %.2e of the chain, %.2f of the allowance, over %d solves\n",
              what.c_str(), static_cast<double>(p.worst), static_cast<double>(p.worst_allowed),
              p.solves);
}

using testsupport::Builtin;

std::vector<app::ClipTime> RestAndWalk(const assets::Model& model) {
  const int walk = model.FindClip("Walk");
  return {app::ClipTime{}, app::ClipTime{walk, 0.25f}, app::ClipTime{walk, 0.7f}};
}

TEST(IkPrecision, BuiltinCharacterIsExactToAMillionthOfTheChain) {
  ExpectExact(Measure(Builtin(), RestAndWalk(Builtin()), false, 1), "built-in character");
}

TEST(IkPrecision, BuiltinCharacterInCentimetresIsExactToAMillionthOfTheChain) {
  const assets::Model model = ScaledAndMoved(Builtin(), 100.0f, glm::vec3(0.0f));
  ExpectExact(Measure(model, RestAndWalk(model), false, 2), "built-in character x100");
}

// A thousand units out, float coordinates are 6e-5 apart (1.2e-4 beyond 1024): the end can be no
// nearer its target than that, so the allowance adds the float spacing at the target.
TEST(IkPrecision, BuiltinCharacterInCentimetresAThousandUnitsAwayIsExactToFloatSpacing) {
  const assets::Model model = ScaledAndMoved(Builtin(), 100.0f, glm::vec3(1000.0f, 0.0f, 1000.0f));
  ExpectExact(Measure(model, RestAndWalk(model), true, 3), "built-in character x100 at 1000");
}

TEST(IkPrecision, BuiltinCharacterAThousandUnitsAwayIsExactToFloatSpacing) {
  const assets::Model model = ScaledAndMoved(Builtin(), 1.0f, glm::vec3(1000.0f, 0.0f, -1000.0f));
  ExpectExact(Measure(model, RestAndWalk(model), true, 4), "built-in character at 1000");
}

TEST(IkPrecision, QuadrupedInCentimetresIsExactToAMillionthOfTheChain) {
  const assets::Model model = CentimetreQuadruped();
  const ik::Skeleton& s = model.skeleton;
  std::vector<ik::TwoBoneChain> legs;
  for (const char* leg : {"LeftHind", "RightHind", "LeftFore", "RightFore"}) {
    const std::string name(leg);
    legs.push_back({s.Find(name + "Upper"), s.Find(name + "Lower"), s.Find(name + "Foot")});
    ASSERT_TRUE(legs.back().Validate(s)) << name;
  }
  // The hind legs hang 40-60 units from the origin, as in the issue.
  const float hip_distance = glm::length(glm::vec3(s.rest_models()[legs[0].start][3]));
  EXPECT_GT(hip_distance, 40.0f);
  EXPECT_LT(hip_distance, 60.0f);
  ExpectExact(Measure(model, {app::ClipTime{}}, false, 5, legs), "quadruped in centimetres");
  const assets::Model far = ScaledAndMoved(model, 1.0f, glm::vec3(-700.0f, 20.0f, 900.0f));
  ExpectExact(Measure(far, {app::ClipTime{}}, true, 6, legs), "quadruped in centimetres, moved");
}

void ExpectRealRigExact(const std::string& relative, uint32_t seed) {
  const std::string path = testpaths::SharedModel(relative);
  SKIP_IF_NO_MODEL(path, relative);
  assets::LoadResult loaded = assets::LoadModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  ExpectExact(Measure(*loaded.model, {app::ClipTime{}}, false, seed), relative);
  const assets::Model far =
      ScaledAndMoved(*loaded.model, 100.0f, glm::vec3(1000.0f, 0.0f, 1000.0f));
  ExpectExact(Measure(far, {app::ClipTime{}}, true, seed + 1), relative + " x100 at 1000");
}

TEST(IkPrecision, CesiumManIsExact) {
  ExpectRealRigExact("khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf", 10);
}

TEST(IkPrecision, RiggedFigureIsExact) {
  ExpectRealRigExact("khronos-glTF-Sample-Models/RiggedFigure/glTF/RiggedFigure.gltf", 20);
}

TEST(IkPrecision, BcnEpilepticIsExact) {
  ExpectRealRigExact("assimp/BCN_Epileptic/BCN_Epileptic.X", 30);
}

}  // namespace
