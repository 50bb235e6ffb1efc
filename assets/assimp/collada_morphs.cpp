// Collada morph controllers read around Assimp 5.2.5: found by collada_morph_scan.cpp, left out
// of the text Assimp reads, and their targets read from a second text that shows each target
// geometry on its own node (so that Assimp builds its vertices in the base's order).
#include "assets/assimp/collada_morphs.h"

#include <assimp/mesh.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <string_view>
#include <utility>

#include "assets/assimp/collada_morph_scan.h"
#include "assets/assimp/collada_weight_curves.h"
#include "assets/files/messages.h"

namespace assets {
namespace {

constexpr char kTargetsScene[] = "skelview-morph-targets";

// An edit of the document: bytes [begin, end) become `text`.
struct Edit {
  size_t begin;
  size_t end;
  std::string text;
};

std::vector<uint8_t> Apply(std::string_view text, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(),
            [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  std::vector<uint8_t> out;
  out.reserve(text.size());
  size_t at = 0;
  for (const Edit& e : edits) {
    if (e.begin < at) continue;  // overlaps an earlier edit (inside a removed controller)
    out.insert(out.end(), text.begin() + static_cast<std::ptrdiff_t>(at),
               text.begin() + static_cast<std::ptrdiff_t>(e.begin));
    out.insert(out.end(), e.text.begin(), e.text.end());
    at = e.end;
  }
  out.insert(out.end(), text.begin() + static_cast<std::ptrdiff_t>(at), text.end());
  return out;
}

std::string XmlEscaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '"') {
      out += "&quot;";
    } else if (c == '<') {
      out += "&lt;";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string ColladaTargetNodeName(size_t m, size_t t) {
  return "skelview-morph-" + std::to_string(m) + "-target-" + std::to_string(t);
}

bool IsColladaFile(const std::string& path, const std::vector<uint8_t>& head) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".dae") return true;
  if (!ext.empty() && ext != ".xml") return false;
  std::string text(head.begin(),
                   head.begin() + static_cast<std::ptrdiff_t>(std::min<size_t>(head.size(), 8192)));
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text.find("<collada") != std::string::npos;
}

bool PlanColladaMorphs(const std::vector<uint8_t>& bytes, ColladaMorphPlan* plan) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  // Cheap test first: most files have no morph controller.
  if (text.find("<morph") == std::string_view::npos) return false;
  ColladaScan scan;
  if (!ScanColladaDocument(text, &scan) || scan.morphs.empty()) return false;
  for (ColladaMorph& morph : scan.morphs) {
    const auto base = scan.geometry_names.find(morph.base_geometry);
    morph.base_name = base == scan.geometry_names.end() ? morph.base_geometry : base->second;
    for (const std::string& id : morph.target_geometries) {
      const auto found = scan.geometry_names.find(id);
      morph.target_names.push_back(found == scan.geometry_names.end() ? id : found->second);
    }
  }
  std::map<std::string, std::string> base_of;  // morph controller id -> base geometry id
  for (const ColladaMorph& morph : scan.morphs) base_of[morph.controller_id] = morph.base_geometry;

  std::vector<Edit> edits;
  for (const auto& range : scan.controller_ranges) {
    edits.push_back({range.first, range.second, std::string()});
  }
  for (const ColladaScan::Instance& instance : scan.instances) {
    const auto base = base_of.find(instance.controller);
    if (base == base_of.end()) continue;
    // An <instance_geometry> may hold the same <bind_material>; a <skeleton> inside is ignored.
    const std::string open = "<instance_geometry url=\"#" + XmlEscaped(base->second) + "\"";
    edits.push_back({instance.start.begin, instance.start.end,
                     open + (instance.start.self_closing ? "/>" : ">")});
    if (!instance.start.self_closing) {
      edits.push_back({instance.end_begin, instance.end_end, "</instance_geometry>"});
    }
  }
  for (const auto& skin : scan.skins) {
    const auto base = base_of.find(skin.second);
    if (base == base_of.end()) continue;
    std::string open = "<skin source=\"#" + XmlEscaped(base->second) + "\"";
    open += skin.first.self_closing ? "/>" : ">";
    edits.push_back({skin.first.begin, skin.first.end, open});
  }
  for (size_t c = 0; c < scan.channels.size(); ++c) {
    const std::string& target = scan.channels[c].second;
    ColladaWeightTrack track;
    if (ColladaWeightTarget(target, scan.morphs, &track.morph, &track.target)) {
      track.channel = target;
      if (ReadColladaWeightKeys(scan, scan.channel_samplers[c], &track)) {
        plan->weight_tracks.push_back(std::move(track));
      } else {
        ++plan->unread_weight_channels;
      }
    } else if (target.find("morph-weights") == std::string::npos) {
      continue;  // Assimp reads other channels; only these would reach its morph-weight code
    } else {
      ++plan->unread_weight_channels;
    }
    edits.push_back({scan.channels[c].first.begin, scan.channels[c].first.end, std::string()});
  }
  plan->morphs = std::move(scan.morphs);
  plan->loadable = Apply(text, edits);
  plan->targets_scene.clear();
  if (scan.visual_scenes_end != std::string_view::npos && scan.has_scene_instance) {
    std::string nodes = std::string("<visual_scene id=\"") + kTargetsScene + "\">";
    for (size_t m = 0; m < plan->morphs.size(); ++m) {
      const ColladaMorph& morph = plan->morphs[m];
      for (size_t t = 0; t < morph.target_geometries.size(); ++t) {
        const std::string name = ColladaTargetNodeName(m, t);
        nodes += "<node id=\"" + name + "\" name=\"" + name + "\"><instance_geometry url=\"#" +
                 XmlEscaped(morph.target_geometries[t]) + "\"/></node>";
      }
    }
    nodes += "</visual_scene>";
    edits.push_back({scan.visual_scenes_end, scan.visual_scenes_end, nodes});
    const ColladaTag& instance = scan.scene_instance;
    edits.push_back({instance.begin, instance.end,
                     std::string("<instance_visual_scene url=\"#") + kTargetsScene + "\"" +
                         (instance.self_closing ? "/>" : ">")});
    plan->targets_scene = Apply(text, edits);
  }
  return true;
}

namespace {

// Every node under `node` by name (the first of a name wins).
void NodesByName(const aiNode* node, std::map<std::string, const aiNode*>* out) {
  if (!node) return;
  out->emplace(node->mName.C_Str(), node);
  for (unsigned c = 0; node->mChildren && c < node->mNumChildren; ++c) {
    NodesByName(node->mChildren[c], out);
  }
}

// An anim mesh of `target`'s vertices (plus `base`'s for offsets) and normals (shapes only).
aiAnimMesh* MakeAnimMesh(const aiMesh& base, const aiMesh& target, bool relative,
                         const std::string& name, float weight) {
  aiAnimMesh* anim = new aiAnimMesh();
  anim->mName = name;
  anim->mWeight = weight;
  anim->mNumVertices = base.mNumVertices;
  anim->mVertices = new aiVector3D[base.mNumVertices];
  for (unsigned v = 0; v < base.mNumVertices; ++v) {
    anim->mVertices[v] = relative ? base.mVertices[v] + target.mVertices[v] : target.mVertices[v];
  }
  if (!relative && target.mNormals && base.mNormals) {
    anim->mNormals = new aiVector3D[base.mNumVertices];
    std::copy(target.mNormals, target.mNormals + base.mNumVertices, anim->mNormals);
  }
  return anim;
}

// Appends `added` to mesh->mAnimMeshes (which aiMesh's destructor frees).
void AppendAnimMeshes(aiMesh* mesh, const std::vector<aiAnimMesh*>& added) {
  if (added.empty()) return;
  const unsigned old_count = mesh->mAnimMeshes ? mesh->mNumAnimMeshes : 0;
  aiAnimMesh** all = new aiAnimMesh*[old_count + added.size()];
  for (unsigned a = 0; a < old_count; ++a) all[a] = mesh->mAnimMeshes[a];
  std::copy(added.begin(), added.end(), all + old_count);
  delete[] mesh->mAnimMeshes;
  mesh->mAnimMeshes = all;
  mesh->mNumAnimMeshes = static_cast<unsigned>(old_count + added.size());
}

}  // namespace

namespace {

// Where each morph's target t landed: (mesh, morph) -> anim mesh index per target, -1 if not.
using TargetSlots = std::map<std::pair<const aiMesh*, size_t>, std::vector<int>>;

// Meshes of `node` and its descendants with slots, by node: the channel names.
void CollectShowingNodes(const aiNode* node, const aiScene& scene, const TargetSlots& slots,
                         std::vector<std::pair<std::string, const aiMesh*>>* out) {
  if (!node) return;
  for (unsigned i = 0; node->mMeshes && i < node->mNumMeshes; ++i) {
    if (node->mMeshes[i] >= scene.mNumMeshes) continue;
    const aiMesh* mesh = scene.mMeshes[node->mMeshes[i]];
    const auto has = [&](const auto& slot) { return slot.first.first == mesh; };
    if (std::any_of(slots.begin(), slots.end(), has)) {
      out->emplace_back(node->mName.C_Str(), mesh);
      break;  // the node's first mesh with targets sets the channel's target numbers
    }
  }
  for (unsigned c = 0; node->mChildren && c < node->mNumChildren; ++c) {
    CollectShowingNodes(node->mChildren[c], scene, slots, out);
  }
}

// One channel for the node showing `mesh`: keys at every track time, each holding the tracks
// keyed then (ConvertMorphAnimation interpolates the others).
aiMeshMorphAnim* MakeWeightChannel(const std::string& node, const aiMesh* mesh,
                                   const std::vector<ColladaWeightTrack>& tracks,
                                   const TargetSlots& slots, double ticks_per_second) {
  std::map<float, std::vector<std::pair<unsigned, double>>> keys;  // time -> (target, weight)
  for (const ColladaWeightTrack& track : tracks) {
    const auto slot = slots.find({mesh, track.morph});
    if (slot == slots.end() || slot->second[track.target] < 0) continue;
    for (size_t k = 0; k < track.times.size(); ++k) {
      keys[track.times[k]].emplace_back(static_cast<unsigned>(slot->second[track.target]),
                                        track.values[k]);
    }
  }
  if (keys.empty()) return nullptr;
  aiMeshMorphAnim* channel = new aiMeshMorphAnim();
  channel->mName = node;
  channel->mNumKeys = static_cast<unsigned>(keys.size());
  channel->mKeys = new aiMeshMorphKey[keys.size()];
  unsigned k = 0;
  for (const auto& entry : keys) {
    aiMeshMorphKey& key = channel->mKeys[k++];
    key.mTime = static_cast<double>(entry.first) * ticks_per_second;
    key.mNumValuesAndWeights = static_cast<unsigned>(entry.second.size());
    key.mValues = new unsigned[entry.second.size()];
    key.mWeights = new double[entry.second.size()];
    for (size_t i = 0; i < entry.second.size(); ++i) {
      key.mValues[i] = entry.second[i].first;
      key.mWeights[i] = entry.second[i].second;
    }
  }
  return channel;
}

// Puts the weight tracks (their keys linear) into the scene as morph channels (see
// AttachColladaMorphs).
void AddWeightChannels(const std::vector<ColladaWeightTrack>& tracks, const TargetSlots& slots,
                       aiScene* scene) {
  std::vector<std::pair<std::string, const aiMesh*>> nodes;
  CollectShowingNodes(scene->mRootNode, *scene, slots, &nodes);
  const bool reuse = scene->mNumAnimations == 1 && scene->mAnimations && scene->mAnimations[0] &&
                     scene->mAnimations[0]->mTicksPerSecond > 0.0;
  const double tps = reuse ? scene->mAnimations[0]->mTicksPerSecond : 1.0;
  std::vector<aiMeshMorphAnim*> channels;
  double duration = 0.0;
  for (const auto& node : nodes) {
    aiMeshMorphAnim* channel = MakeWeightChannel(node.first, node.second, tracks, slots, tps);
    if (!channel) continue;
    duration = std::max(duration, channel->mKeys[channel->mNumKeys - 1].mTime);
    channels.push_back(channel);
  }
  if (channels.empty()) return;
  aiAnimation* animation = reuse ? scene->mAnimations[0] : new aiAnimation();
  if (!reuse) {
    animation->mName = "Morph weights";
    animation->mTicksPerSecond = tps;
    aiAnimation** all = new aiAnimation*[scene->mNumAnimations + 1];
    for (unsigned a = 0; a < scene->mNumAnimations; ++a) all[a] = scene->mAnimations[a];
    all[scene->mNumAnimations] = animation;
    delete[] scene->mAnimations;
    scene->mAnimations = all;
    ++scene->mNumAnimations;
  }
  animation->mDuration = std::max(animation->mDuration, duration);
  const unsigned old_count = animation->mMorphMeshChannels ? animation->mNumMorphMeshChannels : 0;
  aiMeshMorphAnim** all = new aiMeshMorphAnim*[old_count + channels.size()];
  for (unsigned c = 0; c < old_count; ++c) all[c] = animation->mMorphMeshChannels[c];
  std::copy(channels.begin(), channels.end(), all + old_count);
  delete[] animation->mMorphMeshChannels;
  animation->mMorphMeshChannels = all;
  animation->mNumMorphMeshChannels = static_cast<unsigned>(old_count + channels.size());
}

}  // namespace

void AttachColladaMorphs(const ColladaMorphPlan& plan, const aiScene* targets,
                         uint64_t budget_bytes, aiScene* scene,
                         std::vector<std::string>* warnings) {
  size_t lost_targets = 0, over_budget = 0;
  uint64_t bytes = 0;
  std::string lost_example;
  TargetSlots slots;
  std::map<std::string, const aiNode*> target_nodes;
  if (targets) NodesByName(targets->mRootNode, &target_nodes);
  std::map<aiMesh*, std::vector<aiAnimMesh*>> added;  // appended at the end, once per mesh
  for (size_t m = 0; m < plan.morphs.size(); ++m) {
    const ColladaMorph& morph = plan.morphs[m];
    const size_t count = morph.target_geometries.size();
    const bool weighted = morph.weights.size() == count;
    if (!weighted && count > 0) {
      warnings->push_back("morph controller " + Quoted(morph.controller_id) +
                          ": its MORPH_WEIGHT values are missing or not " + std::to_string(count) +
                          " finite numbers; its targets start at 0");
    }
    std::vector<aiMesh*> bases;
    for (unsigned i = 0; scene && scene->mMeshes && i < scene->mNumMeshes; ++i) {
      aiMesh* mesh = scene->mMeshes[i];
      if (mesh && morph.base_name == mesh->mName.C_Str()) bases.push_back(mesh);
    }
    for (aiMesh* base : bases) slots[{base, m}].assign(count, -1);
    for (size_t t = 0; t < count; ++t) {
      const auto found = target_nodes.find(ColladaTargetNodeName(m, t));
      const aiNode* node = found == target_nodes.end() ? nullptr : found->second;
      std::vector<const aiMesh*> shapes;
      for (unsigned i = 0; node && node->mMeshes && i < node->mNumMeshes; ++i) {
        if (node->mMeshes[i] < targets->mNumMeshes && targets->mMeshes[node->mMeshes[i]]) {
          shapes.push_back(targets->mMeshes[node->mMeshes[i]]);
        }
      }
      // One target mesh per base mesh: every base of its vertex count when the target is one
      // mesh, else pairwise in order.
      size_t attached = 0;
      for (size_t b = 0; b < bases.size(); ++b) {
        const aiMesh* shape = shapes.size() == 1              ? shapes[0]
                              : shapes.size() == bases.size() ? shapes[b]
                                                              : nullptr;
        if (!shape || !shape->mVertices || shape->mNumVertices != bases[b]->mNumVertices ||
            shape->mNumFaces != bases[b]->mNumFaces) {
          continue;
        }
        // Positions and normals here, their deltas in the Model.
        bytes += uint64_t{shape->mNumVertices} * 4 * sizeof(aiVector3D);
        if (bytes > budget_bytes) {
          ++over_budget;
          continue;
        }
        const float weight = weighted ? morph.weights[t] : 0.0f;
        std::vector<aiAnimMesh*>& list = added[bases[b]];
        slots[{bases[b], m}][t] =
            static_cast<int>((bases[b]->mAnimMeshes ? bases[b]->mNumAnimMeshes : 0) + list.size());
        list.push_back(
            MakeAnimMesh(*bases[b], *shape, morph.relative, morph.target_names[t], weight));
        ++attached;
      }
      if (attached == 0 && over_budget == 0) {
        ++lost_targets;
        if (lost_example.empty()) lost_example = morph.target_names[t];
      }
    }
  }
  for (auto& entry : added) AppendAnimMeshes(entry.first, entry.second);
  if (over_budget > 0) {
    warnings->push_back("left out " +
                        Plural(over_budget, "Collada morph target", "Collada morph targets") +
                        ": all targets would take more than " + std::to_string(budget_bytes >> 20) +
                        " MiB (the file repeats targets)");
  }
  if (lost_targets > 0) {
    warnings->push_back(Plural(lost_targets, "Collada morph target", "Collada morph targets") +
                        " (e.g. " + Quoted(lost_example) +
                        ") could not be matched to their base mesh (missing, or another vertex "
                        "or face count); left out");
  }
  if (scene && !plan.weight_tracks.empty()) {
    AddWeightChannels(LinearColladaWeightTracks(plan, budget_bytes, warnings), slots, scene);
  }
  if (plan.unread_weight_channels > 0) {
    warnings->push_back(Plural(plan.unread_weight_channels,
                               "Collada morph-weight animation channel",
                               "Collada morph-weight animation channels") +
                        " could not be read (a target that names no morph's weights, or keys "
                        "missing, of unequal counts, non-finite or out of order); left out");
  }
}

}  // namespace assets
