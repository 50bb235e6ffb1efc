// Test helpers comparing two Models: skeletons joint by joint, and skinned surfaces vertex by
// vertex (matched on bind position, so vertex order may differ).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "assets/model/animation.h"
#include "assets/model/model.h"
#include "assets/model/skinning.h"
#include "ik/core/kinematics.h"

namespace testcompare {

inline void ExpectSameSkeleton(const ik::Skeleton& a, const ik::Skeleton& b, float tolerance) {
  ASSERT_EQ(a.joint_count(), b.joint_count());
  EXPECT_EQ(a.names(), b.names());
  EXPECT_EQ(a.parents(), b.parents());
  for (int j = 0; j < a.joint_count(); ++j) {
    const glm::mat4 ma = a.rest_locals()[j].ToMatrix(), mb = b.rest_locals()[j].ToMatrix();
    float worst = 0.0f;
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) worst = std::max(worst, std::abs(ma[c][r] - mb[c][r]));
    EXPECT_LE(worst, tolerance) << a.name(j);
  }
}

// World positions of every skinned vertex keyed by its bind position.
using SurfaceMap = std::multimap<std::tuple<float, float, float>, glm::vec3>;

inline SurfaceMap Surface(const assets::Model& model, const ik::Pose& pose) {
  std::vector<glm::mat4> models;
  ik::LocalToModel(model.skeleton, pose, &models);
  SurfaceMap out;
  std::vector<glm::vec3> skinned;
  for (const assets::Mesh& mesh : model.meshes) {
    assets::SkinMesh(mesh, models, &skinned, nullptr);
    for (size_t i = 0; i < skinned.size(); ++i) {
      const glm::vec3& p = mesh.positions[i];
      out.emplace(std::make_tuple(p.x, p.y, p.z), skinned[i]);
    }
  }
  return out;
}

// Worst distance from a vertex of `from` to the nearest same-bind vertex of `to`.
inline float WorstMiss(const SurfaceMap& from, const SurfaceMap& to) {
  float worst = 0.0f;
  for (const auto& [key, p] : from) {
    float best = INFINITY;
    auto range = to.equal_range(key);
    for (auto it = range.first; it != range.second; ++it)
      best = std::min(best, glm::length(it->second - p));
    worst = std::max(worst, best);
  }
  return worst;
}

// Both models skinned with their own clip `clip` at `time` (rest pose when clip < 0).
inline void ExpectSameSkinnedSurface(const assets::Model& a, const assets::Model& b, int clip,
                                     float time, float relative_tolerance) {
  ik::Pose pa = ik::Pose::Rest(a.skeleton), pb = ik::Pose::Rest(b.skeleton);
  if (clip >= 0) {
    ASSERT_LT(static_cast<size_t>(clip), a.clips.size());
    ASSERT_LT(static_cast<size_t>(clip), b.clips.size());
    assets::SampleClip(a, a.clips[clip], time, &pa);
    assets::SampleClip(b, b.clips[clip], time, &pb);
  }
  const SurfaceMap sa = Surface(a, pa), sb = Surface(b, pb);
  ASSERT_EQ(sa.size(), sb.size());
  const float tolerance = relative_tolerance * assets::RestBounds(a).diagonal();
  EXPECT_LE(WorstMiss(sa, sb), tolerance) << "clip " << clip << " t=" << time;
  EXPECT_LE(WorstMiss(sb, sa), tolerance) << "clip " << clip << " t=" << time;
}

}  // namespace testcompare
