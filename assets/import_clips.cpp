// Clips after conversion: the glTF reader's exact clips in place of Assimp's, split clips merged,
// empty ones dropped and every clip named and prepared for sampling.
#include "assets/internal/import_clips.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "assets/animation.h"
#include "assets/internal/messages.h"

namespace assets {

// Several unnamed clips of one length that move disjoint joint sets are one animation that an
// exporter split per joint (RiggedFigure has 19 of them); riggers want to play them together.
void MergeSplitClips(Model* model, std::vector<std::string>* warnings) {
  auto& clips = model->clips;
  if (clips.size() < 2) return;
  float longest = 0.0f;
  std::set<int> joints;
  size_t channel_count = 0;
  for (const Clip& clip : clips) {
    if (!clip.name.empty() || clip.channels.empty()) return;
    longest = std::max(longest, clip.duration);
    for (const JointAnimation& a : clip.channels) {
      joints.insert(a.joint);
      ++channel_count;
    }
  }
  if (joints.size() != channel_count) return;  // some joint is animated by two clips
  for (const Clip& clip : clips) {
    if (std::abs(clip.duration - longest) > std::max(1e-3f, 0.01f * longest)) return;
  }
  Clip merged;
  merged.duration = longest;
  for (Clip& clip : clips) {
    for (JointAnimation& a : clip.channels) merged.channels.push_back(std::move(a));
  }
  warnings->push_back("merged " + std::to_string(clips.size()) +
                      " unnamed animations that each move different joints into one clip");
  clips.clear();
  clips.push_back(std::move(merged));
}

// Replaces Assimp's clips with the glTF reader's exact glTF clips when Assimp's node tree is the
// scene walk the glTF reader predicted (it always is for glTF 2.0; the check guards the mapping).
void ApplyGltfClips(const gltf::Contents& contents, bool skipped_root,
                    const std::vector<std::string>& joint_names, Model* model,
                    std::vector<std::string>* warnings) {
  std::vector<int> order = contents.preorder_nodes;
  if (skipped_root && !order.empty() && order[0] < 0) order.erase(order.begin());
  bool aligned = order.size() == joint_names.size();
  for (size_t i = 0; aligned && i < order.size(); ++i) {
    const std::string expected = order[i] < 0
                                     ? std::string(gltf::kSyntheticRootName)
                                     : (static_cast<size_t>(order[i]) < contents.node_names.size()
                                            ? contents.node_names[static_cast<size_t>(order[i])]
                                            : std::string());
    aligned = expected == joint_names[i];
  }
  if (!aligned) {
    if (!contents.clips.empty()) {
      warnings->push_back(
          "could not match the glTF nodes to Assimp's; animations use Assimp's data, with step "
          "and cubic-spline interpolation played as linear");
    }
    return;
  }
  std::multimap<int, int> joints_of_node;
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] >= 0) joints_of_node.emplace(order[i], static_cast<int>(i));
  }
  std::vector<Clip> clips;
  for (const Clip& source : contents.clips) {
    Clip clip;
    clip.name = source.name;
    clip.duration = source.duration;
    for (const JointAnimation& a : source.channels) {
      auto range = joints_of_node.equal_range(a.joint);
      for (auto it = range.first; it != range.second; ++it) {
        JointAnimation copy = a;
        copy.joint = it->second;
        clip.channels.push_back(std::move(copy));
      }
    }
    clips.push_back(std::move(clip));
  }
  model->clips = std::move(clips);
}

void FinishClips(Model* model, std::vector<std::string>* warnings) {
  MergeSplitClips(model, warnings);
  std::vector<Clip>& clips = model->clips;
  const size_t clips_before = clips.size();
  clips.erase(
      std::remove_if(clips.begin(), clips.end(), [](const Clip& c) { return c.channels.empty(); }),
      clips.end());
  if (clips.size() != clips_before) {
    warnings->push_back(Plural(clips_before - clips.size(), "animation", "animations") +
                        " that move no joint (e.g. morph weights only) were left out");
  }
  for (size_t i = 0; i < clips.size(); ++i) {
    if (clips[i].name.empty()) {
      clips[i].name = clips.size() == 1 ? "Animation" : "Animation " + std::to_string(i);
    }
  }
  for (Clip& clip : clips) PrepareClip(&clip);
}
}  // namespace assets
