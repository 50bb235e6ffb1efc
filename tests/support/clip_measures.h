// What tests measure on a clip's motion: a joint's height over the frames of a clip, and how
// closely two such curves follow each other.
#pragma once

#include <algorithm>
#include <cmath>
#include <glm/glm.hpp>
#include <vector>

#include "assets/model/animation.h"
#include "assets/model/model.h"
#include "ik/core/kinematics.h"

namespace testsupport {

// The model-space height of `joint` at frames 0..frames of clip `clip`, frame f at time f / fps
// (held at the clip's end).
inline std::vector<float> JointHeights(const assets::Model& model, int clip, int joint, float fps,
                                       int frames) {
  const assets::Clip& c = model.clips[size_t(clip)];
  ik::Pose pose;
  std::vector<glm::mat4> models;
  std::vector<float> heights;
  for (int f = 0; f <= frames; ++f) {
    assets::SampleClip(model.skeleton, c, std::min(c.duration, float(f) / fps), &pose);
    ik::LocalToModel(model.skeleton, pose, &models);
    heights.push_back(models[size_t(joint)][3].y);
  }
  return heights;
}

// Pearson's correlation of two curves of the same length (NaN when one of them is flat).
inline double Correlation(const std::vector<float>& a, const std::vector<float>& b) {
  double ma = 0.0, mb = 0.0;
  for (size_t i = 0; i < a.size(); ++i) ma += double(a[i]), mb += double(b[i]);
  ma /= double(a.size()), mb /= double(b.size());
  double ab = 0.0, aa = 0.0, bb = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double da = double(a[i]) - ma, db = double(b[i]) - mb;
    ab += da * db, aa += da * da, bb += db * db;
  }
  return ab / std::sqrt(aa * bb);
}

}  // namespace testsupport
