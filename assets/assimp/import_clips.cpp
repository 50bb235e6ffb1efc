// Clips after conversion: the glTF reader's exact clips in place of Assimp's, one per file
// animation in file order, every clip named and prepared for sampling.
#include "assets/assimp/import_clips.h"

#include <map>
#include <utility>

#include "assets/files/messages.h"
#include "assets/model/animation.h"

namespace assets {

// Replaces Assimp's clips with the glTF reader's exact glTF clips when Assimp's node tree is the
// scene walk the glTF reader predicted (it always is for glTF 2.0; the check guards the mapping).
void ApplyGltfClips(const gltf::Contents& contents, bool skipped_root,
                    const std::vector<std::string>& joint_names,
                    const std::vector<int>& mesh_gltf_nodes, Model* model,
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
    // A node's weights animate every mesh (primitive) it carries that has that many targets:
    // meshes read from that glTF node (also from a holder node, which is no joint), else the
    // meshes placed on its joints.
    for (const MorphAnimation& a : source.morph_channels) {
      for (size_t m = 0; m < model->meshes.size(); ++m) {
        const Mesh& mesh = model->meshes[m];
        bool from_node = false;
        if (m < mesh_gltf_nodes.size()) {
          from_node = mesh_gltf_nodes[m] == a.mesh;
        } else {
          auto range = joints_of_node.equal_range(a.mesh);
          for (auto it = range.first; it != range.second; ++it)
            from_node |= mesh.node == it->second;
        }
        if (!from_node || mesh.targets.size() != static_cast<size_t>(a.width)) continue;
        MorphAnimation copy = a;
        copy.mesh = static_cast<int>(m);
        clip.morph_channels.push_back(std::move(copy));
      }
    }
    clips.push_back(std::move(clip));
  }
  model->clips = std::move(clips);
}

void FinishClips(Model* model, std::vector<std::string>* warnings) {
  // One clip per file animation, in file order, so that clip numbers match what three.js,
  // Blender and the file itself list (--anim I); clips that move nothing stay, playing as the rest
  // pose, rather than shifting the numbers after them.
  std::vector<Clip>& clips = model->clips;
  size_t still = 0;
  for (const Clip& clip : clips) {
    still += clip.channels.empty() && clip.morph_channels.empty() ? 1 : 0;
  }
  if (still > 0) {
    warnings->push_back(Plural(still, "animation", "animations") +
                        (still == 1 ? " moves" : " move") +
                        " no joint and no morph weight, and plays as the rest pose");
  }
  for (size_t i = 0; i < clips.size(); ++i) {
    if (clips[i].name.empty()) {
      clips[i].name = clips.size() == 1 ? "Animation" : "Animation " + std::to_string(i);
    }
  }
  for (Clip& clip : clips) PrepareClip(&clip);
}
}  // namespace assets
