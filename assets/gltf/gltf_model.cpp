// The Model of a glTF 2.0 file from what the glTF reader decoded: the scene's nodes as joints,
// every node's mesh placed on it (skinned by its skin, or bound rigidly), the materials meshes use
// with their textures, and the clips mapped from nodes onto joints and meshes.
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "assets/files/limits.h"
#include "assets/files/messages.h"
#include "assets/gltf/gltf_reader.h"
#include "assets/gltf/model_builder.h"
#include "assets/model/mesh_cleanup.h"

namespace assets::gltf {
namespace {

// What the reader dropped from a primitive's tangents and morph targets, one warning each.
void WarnAboutTangentsAndTargets(const Primitive& p, const std::string& name,
                                 std::vector<std::string>* warnings) {
  const std::string mesh = "mesh " + Quoted(name);
  if (p.bad_tangents) {
    warnings->push_back(mesh +
                        " has tangents of the wrong count or type, zero or non-finite; dropped "
                        "them");
  }
  if (p.dropped_targets > 0) {
    warnings->push_back(mesh + ": " + std::to_string(p.dropped_targets) +
                        " morph targets have deltas of the wrong count or non-finite values; "
                        "they move nothing");
  }
  if (p.dropped_target_tangents > 0) {
    warnings->push_back(mesh + ": " + std::to_string(p.dropped_target_tangents) +
                        " morph targets have tangent deltas of the wrong count or non-finite "
                        "values; dropped those deltas");
  }
  if (p.bad_weights) {
    warnings->push_back(mesh + ": its morph weights are not one finite number per target; used 0");
  }
}

class Builder : public ModelBuilder {
 public:
  Builder(const std::string& path, Contents* contents, LoadProgress* progress, ModelFiles* files)
      : ModelBuilder(path, /*weld=*/true, progress, files), c_(*contents) {}

  bool Run(Model* model, std::string* error) {
    model_ = model;
    if (!BuildJoints(error)) return false;
    model->is_bone.assign(descs_.size(), false);
    if (!PlaceMeshes(error)) return false;
    ConvertMaterials();
    MapClips();
    if (!BuildSkeleton(descs_, error)) return false;
    TakeAvatar();
    WarnRepairs();
    return true;
  }

 private:
  bool BuildJoints(std::string* error);
  bool PlaceMeshes(std::string* error);
  // The name of mesh `m` shown by glTF node `g`: the mesh's own, else its node's (as three.js and
  // Blender name it), else "meshes[m]"; "-<primitive>" added when it has several primitives.
  std::string MeshName(int m, int g, size_t primitive) const;
  bool ConvertPrimitive(Primitive* primitive, const std::string& name, bool last_use,
                        bool count_repairs, int joint, const Skin* skin, std::string* error);
  // Binds `skin`'s joints to mesh->bone_joints: (*slot_of)[k] is skin joint k's bone slot, or -1
  // for a joint outside the scene (its weights are dropped).
  bool BindSkin(const Skin& skin, const std::string& mesh_name, Mesh* mesh,
                std::vector<int>* slot_of, std::string* error);
  void ConvertMaterials();
  void MapClips();
  // A VRM avatar's meta, and its humanoid map onto the joints.
  void TakeAvatar();

  Contents& c_;
  std::vector<ik::JointDesc> descs_;
  std::vector<int> joint_of_node_;  // glTF node -> joint (its first occurrence), or -1
  std::vector<int> mesh_nodes_;     // per Model mesh, the glTF node it was read from
};

bool Builder::BuildJoints(std::string* error) {
  const size_t joints = c_.preorder_nodes.size();
  descs_.resize(joints);
  std::vector<glm::mat4> rest_models(joints);
  joint_of_node_.assign(c_.nodes.size(), -1);
  for (size_t j = 0; j < joints; ++j) {
    const size_t g = static_cast<size_t>(c_.preorder_nodes[j]);
    const int parent = c_.preorder_parents[j];
    const Node& node = c_.nodes[g];
    const glm::mat4 local = node.rest.ToMatrix();
    if (node.huge || !WithinLimits(local)) {
      *error = "node " + Quoted(node.name) + " has a non-finite or huge transform";
      return false;
    }
    if (node.approximated) CountApproximated();
    rest_models[j] = parent < 0 ? local : rest_models[static_cast<size_t>(parent)] * local;
    if (!WithinLimits(rest_models[j])) {
      *error = "node " + Quoted(node.name) + " lies at a non-finite or huge position";
      return false;
    }
    ik::JointDesc& desc = descs_[j];
    desc.name = node.name;
    desc.parent = parent;
    desc.rest = node.rest;
    if (joint_of_node_[g] < 0) joint_of_node_[g] = static_cast<int>(j);
  }
  NameJoints(&descs_);
  return true;
}

std::string Builder::MeshName(int m, int g, size_t primitive) const {
  std::string name = c_.mesh_names[static_cast<size_t>(m)];
  if (name.empty()) {
    const Node& node = c_.nodes[static_cast<size_t>(g)];
    name = node.named ? node.name : "meshes[" + std::to_string(m) + "]";
  }
  if (c_.meshes[static_cast<size_t>(m)].size() > 1) name += "-" + std::to_string(primitive);
  return name;
}

bool Builder::PlaceMeshes(std::string* error) {
  const size_t node_count = c_.nodes.size();
  // Mesh instances: (glTF node, joint the mesh is placed on) for the tree's nodes, then the
  // skinned meshes of holder nodes left out of the tree (placed on their skin's first joint).
  std::vector<std::pair<int, int>> instances;
  for (size_t j = 0; j < c_.preorder_nodes.size(); ++j) {
    instances.emplace_back(c_.preorder_nodes[j], static_cast<int>(j));
  }
  for (int g : c_.mesh_holders) {
    if (g < 0 || static_cast<size_t>(g) >= node_count) continue;
    const int s = c_.nodes[static_cast<size_t>(g)].skin;
    int joint = 0;
    if (s >= 0 && static_cast<size_t>(s) < c_.skins.size() &&
        !c_.skins[static_cast<size_t>(s)].joints.empty()) {
      const int first = c_.skins[static_cast<size_t>(s)].joints[0];
      if (first >= 0 && static_cast<size_t>(first) < node_count &&
          joint_of_node_[static_cast<size_t>(first)] >= 0) {
        joint = joint_of_node_[static_cast<size_t>(first)];
      }
    }
    instances.emplace_back(g, joint);
  }
  // Instances per glTF mesh, so that the last one can take the decoded arrays instead of copying.
  std::vector<size_t> remaining(c_.meshes.size(), 0);
  uint64_t all_vertices = 0, done_vertices = 0;
  for (const auto& [g, unused_joint] : instances) {
    const int m = c_.nodes[static_cast<size_t>(g)].mesh;
    if (m < 0 || static_cast<size_t>(m) >= c_.meshes.size()) continue;
    ++remaining[static_cast<size_t>(m)];
    for (const Primitive& p : c_.meshes[static_cast<size_t>(m)]) all_vertices += p.positions.size();
  }
  std::vector<char> counted(c_.meshes.size(), 0);
  for (const auto& [g, j] : instances) {
    const Node& node = c_.nodes[static_cast<size_t>(g)];
    const int m = node.mesh;
    if (m < 0 || static_cast<size_t>(m) >= c_.meshes.size()) continue;
    const Skin* skin = node.skin >= 0 && static_cast<size_t>(node.skin) < c_.skins.size()
                           ? &c_.skins[static_cast<size_t>(node.skin)]
                           : nullptr;
    const bool last_use = --remaining[static_cast<size_t>(m)] == 0;
    const bool first_use = !counted[static_cast<size_t>(m)];
    counted[static_cast<size_t>(m)] = 1;
    std::vector<Primitive>& primitives = c_.meshes[static_cast<size_t>(m)];
    for (size_t p = 0; p < primitives.size(); ++p) {
      if (progress_->Cancelled()) {
        *error = "cancelled";
        return false;
      }
      Primitive& primitive = primitives[p];
      const size_t vertices = primitive.positions.size();
      const size_t before = model_->meshes.size();
      if (!ConvertPrimitive(&primitive, MeshName(m, g, p), last_use, first_use, j, skin, error)) {
        return false;
      }
      mesh_nodes_.resize(model_->meshes.size(), g);
      // The node's own weights override its mesh's (glTF).
      if (model_->meshes.size() > before && !node.weights.empty() &&
          node.weights.size() == model_->meshes.back().targets.size()) {
        model_->meshes.back().target_weights = node.weights;
      }
      done_vertices += vertices;
      progress_->Report(
          static_cast<float>(static_cast<double>(done_vertices) /
                             static_cast<double>(std::max<uint64_t>(all_vertices, 1))));
    }
  }
  // Skins' joints that no mesh instance used still bind those joints.
  for (size_t g = 0; g < node_count; ++g) {
    const Node& node = c_.nodes[g];
    if (node.skin < 0 || static_cast<size_t>(node.skin) >= c_.skins.size() ||
        joint_of_node_[g] < 0 || node.mesh < 0) {
      continue;
    }
    for (int joint_node : c_.skins[static_cast<size_t>(node.skin)].joints) {
      if (joint_node >= 0 && static_cast<size_t>(joint_node) < node_count &&
          joint_of_node_[static_cast<size_t>(joint_node)] >= 0) {
        model_->is_bone[static_cast<size_t>(joint_of_node_[static_cast<size_t>(joint_node)])] =
            true;
      }
    }
  }
  return true;
}

bool Builder::ConvertPrimitive(Primitive* p, const std::string& name, bool last_use,
                               bool count_repairs, int joint, const Skin* skin,
                               std::string* error) {
  if (!p->triangles) {
    if (count_repairs) ++skipped_meshes_;
    return true;
  }
  const size_t n = p->positions.size();
  auto take = [last_use](auto& from, auto* to) {
    if (last_use) {
      *to = std::move(from);
    } else {
      *to = from;
    }
  };
  Mesh mesh;
  mesh.name = name;
  mesh.node = joint;
  for (size_t i = 0; i < n; ++i) {
    const glm::vec3& v = p->positions[i];
    if (!(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) &&
          std::abs(v.x) <= kMaxCoordinate && std::abs(v.y) <= kMaxCoordinate &&
          std::abs(v.z) <= kMaxCoordinate)) {
      *error = "mesh " + Quoted(name) + " has a non-finite or huge vertex coordinate (vertex " +
               std::to_string(i) + ")";
      return false;
    }
  }
  take(p->positions, &mesh.positions);
  take(p->indices, &mesh.indices);
  if (count_repairs) skipped_faces_ += p->dropped_triangles;
  std::vector<uint8_t> flags(n, 0);
  // Normals: keep valid ones (normalised), rebuild the rest from the faces.
  const bool had_normals = !p->normals.empty();
  take(p->normals, &mesh.normals);
  if (mesh.normals.size() != n) mesh.normals.assign(n, glm::vec3(0.0f));
  RepairNormals(&mesh, had_normals, &flags);
  take(p->tangents, &mesh.tangents);  // checked by the reader
  take(p->uvs, &mesh.uvs);
  if (DropNonFiniteUvs(&mesh)) {
    warnings_.push_back("mesh " + Quoted(name) +
                        " has non-finite texture coordinates; dropped them");
  }
  mesh.material = p->material;  // a glTF index for now; ConvertMaterials remaps it
  take(p->targets, &mesh.targets);
  mesh.target_weights = p->target_weights;
  if (count_repairs) WarnAboutTangentsAndTargets(*p, name, &warnings_);

  if (!skin || p->joints.empty()) {
    // Rigid: the node itself is the only bone.
    mesh.bone_joints = {joint};
    mesh.bone_inverse_binds = {glm::mat4(1.0f)};
    mesh.joints.assign(n, glm::u16vec4(0));
    mesh.weights.assign(n, glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
    AddMesh(std::move(mesh), &flags, {}, count_repairs, false);
    return true;
  }
  mesh.skinned = true;
  std::vector<int> slot_of;
  if (!BindSkin(*skin, name, &mesh, &slot_of, error)) return false;
  if (count_repairs) bad_weights_ += p->invalid_influences;
  // The reader's influences (skin joint indices, descending) become bone slots in place: an
  // influence on a joint outside the skin or the scene is dropped and the rest move up.
  take(p->joints, &mesh.joints);
  take(p->weights, &mesh.weights);
  take(p->extra_joints, &mesh.extra_joints);
  take(p->extra_weights, &mesh.extra_weights);
  std::vector<uint8_t> counts;
  take(p->influence_counts, &counts);
  const bool extra = !mesh.extra_weights.empty();
  const size_t skin_joints = slot_of.size();
  size_t bad = 0;
  for (size_t v = 0; v < n; ++v) {
    const int count = counts[v];
    const int limit = std::min(count, extra ? kMaxInfluences : 4);
    // Through pointers: glm's operator[] with a run-time index is a switch.
    uint16_t* const joints = &mesh.joints[v].x;
    float* const weights = &mesh.weights[v].x;
    int kept = 0;
    if (!extra) {  // the common case, without the second set
      for (int k = 0; k < limit; ++k) {
        const size_t skin_joint = joints[k];
        const int slot = skin_joint < skin_joints ? slot_of[skin_joint] : -2;
        if (slot < 0) {
          bad += slot == -2 ? 1 : 0;
          continue;
        }
        joints[kept] = static_cast<uint16_t>(slot);
        weights[kept] = weights[k];
        ++kept;
      }
      for (int k = kept; k < limit; ++k) {
        joints[k] = 0;
        weights[k] = 0.0f;
      }
    } else {
      uint16_t* const extra_joints = &mesh.extra_joints[v].x;
      float* const extra_weights = &mesh.extra_weights[v].x;
      auto joint_at = [&](int k) -> uint16_t& { return k < 4 ? joints[k] : extra_joints[k - 4]; };
      auto weight_at = [&](int k) -> float& { return k < 4 ? weights[k] : extra_weights[k - 4]; };
      for (int k = 0; k < limit; ++k) {
        const size_t skin_joint = joint_at(k);
        const int slot = skin_joint < skin_joints ? slot_of[skin_joint] : -2;
        if (slot < 0) {
          bad += slot == -2 ? 1 : 0;
          continue;
        }
        joint_at(kept) = static_cast<uint16_t>(slot);
        weight_at(kept) = weight_at(k);
        ++kept;
      }
      for (int k = kept; k < limit; ++k) {
        joint_at(k) = 0;
        weight_at(k) = 0.0f;
      }
    }
    // More than eight keeps its count (for the warning); otherwise what survived.
    counts[v] = static_cast<uint8_t>(count > kMaxInfluences ? count : kept);
  }
  if (count_repairs) bad_weights_ += bad;
  NormaliseInfluences(&mesh, counts, joint, &flags);
  // The file's vertices are the accessor's: counted one by one (duplicates once).
  AddMesh(std::move(mesh), &flags, std::move(counts), count_repairs, false);
  return true;
}

bool Builder::BindSkin(const Skin& skin, const std::string& mesh_name, Mesh* mesh,
                       std::vector<int>* slot_of, std::string* error) {
  slot_of->assign(skin.joints.size(), -1);
  for (size_t k = 0; k < skin.joints.size(); ++k) {
    const int g = skin.joints[k];
    const int joint = g >= 0 && static_cast<size_t>(g) < joint_of_node_.size()
                          ? joint_of_node_[static_cast<size_t>(g)]
                          : -1;
    if (joint < 0) {
      missing_bones_.insert(g >= 0 && static_cast<size_t>(g) < c_.nodes.size()
                                ? c_.nodes[static_cast<size_t>(g)].name
                                : std::to_string(g));
      continue;
    }
    const glm::mat4& inverse_bind = skin.inverse_binds[k];
    if (!WithinLimits(inverse_bind)) {
      *error = "bone " + Quoted(descs_[static_cast<size_t>(joint)].name) + " of mesh " +
               Quoted(mesh_name) + " has a non-finite or huge inverse bind matrix";
      return false;
    }
    model_->is_bone[static_cast<size_t>(joint)] = true;
    if (!descs_[static_cast<size_t>(joint)].inverse_bind) {
      descs_[static_cast<size_t>(joint)].inverse_bind = inverse_bind;
    }
    (*slot_of)[k] = static_cast<int>(mesh->bone_joints.size());
    mesh->bone_joints.push_back(joint);
    mesh->bone_inverse_binds.push_back(inverse_bind);
  }
  return true;
}

void Builder::ConvertMaterials() {
  // Meshes hold glTF material indices (-1: none). Only used materials are kept, in file order,
  // with glTF's default (white) for primitives without one; images decoded once each.
  const std::vector<MaterialSource>& sources = c_.materials;
  std::vector<int> new_index(sources.size() + 1, -1);  // last: the default material
  auto slot_of = [&](const Mesh& mesh) {
    return mesh.material >= 0 && static_cast<size_t>(mesh.material) < sources.size()
               ? static_cast<size_t>(mesh.material)
               : sources.size();
  };
  for (const Mesh& mesh : model_->meshes) new_index[slot_of(mesh)] = 0;
  std::vector<int> texture_of_image(c_.images.size(), -2);  // -2: not tried yet
  for (size_t i = 0; i < new_index.size(); ++i) {
    if (new_index[i] < 0) continue;
    new_index[i] = static_cast<int>(model_->materials.size());
    Material material;
    if (i == sources.size()) {
      material.name = "DefaultMaterial";
      material.base_color = glm::vec4(1.0f);
      model_->materials.push_back(material);
      continue;
    }
    const MaterialSource& source = sources[i];
    material.name = source.name;
    material.base_color = source.base_color;
    if (source.image >= 0 && static_cast<size_t>(source.image) < c_.images.size()) {
      int& texture = texture_of_image[static_cast<size_t>(source.image)];
      if (texture == -2) {
        const ImageSource& image = c_.images[static_cast<size_t>(source.image)];
        Texture decoded;
        decoded.name = image.name;
        std::string reason = image.error;
        const bool ok =
            reason.empty() &&
            (image.file.empty()
                 ? DecodeTexture(image.bytes.data(), image.bytes.size(), &decoded, &reason)
                 : LoadTextureFile(image.name, &decoded, &reason));  // the uri, decoded there
        if (ok) {
          texture = KeepTexture(std::move(decoded));
        } else {
          texture = -1;
          WarnTexture(image.name, material.name, reason);
        }
      }
      material.base_color_texture = texture;
    }
    model_->materials.push_back(material);
  }
  for (Mesh& mesh : model_->meshes) mesh.material = new_index[slot_of(mesh)];
}

void Builder::MapClips() {
  std::multimap<int, int> joints_of_node;
  for (size_t j = 0; j < c_.preorder_nodes.size(); ++j) {
    joints_of_node.emplace(c_.preorder_nodes[j], static_cast<int>(j));
  }
  for (Clip& source : c_.clips) {
    Clip clip;
    clip.name = std::move(source.name);
    clip.duration = source.duration;
    // A node shown twice in the tree moves both its joints; a node outside the scene, none.
    for (JointAnimation& a : source.channels) {
      auto range = joints_of_node.equal_range(a.joint);
      for (auto it = range.first; it != range.second; ++it) {
        JointAnimation copy = a;
        copy.joint = it->second;
        clip.channels.push_back(std::move(copy));
      }
    }
    // A node's weights animate every mesh (primitive) read from that node (a holder node too,
    // which is no joint) that has that many targets.
    for (const MorphAnimation& a : source.morph_channels) {
      for (size_t m = 0; m < model_->meshes.size(); ++m) {
        if (mesh_nodes_[m] != a.mesh ||
            model_->meshes[m].targets.size() != static_cast<size_t>(a.width)) {
          continue;
        }
        MorphAnimation copy = a;
        copy.mesh = static_cast<int>(m);
        clip.morph_channels.push_back(std::move(copy));
      }
    }
    model_->clips.push_back(std::move(clip));
  }
}

void Builder::TakeAvatar() {
  if (!c_.has_avatar) return;
  model_->avatar = c_.avatar.meta;
  std::vector<ik::HumanoidBone> bones;
  std::string outside;
  size_t left_out = 0;
  for (const vrm::HumanBone& b : c_.avatar.bones) {
    const size_t g = static_cast<size_t>(b.node);
    if (b.node < 0 || g >= joint_of_node_.size() || joint_of_node_[g] < 0) {
      if (left_out++ == 0) outside = Quoted(b.bone);
      continue;
    }
    bones.push_back({b.bone, joint_of_node_[g]});
  }
  if (left_out > 0) {
    warnings_.push_back(Plural(left_out, "humanoid bone", "humanoid bones") + " of the " +
                        c_.avatar.meta.format + " avatar on no node of the scene left out (e.g. " +
                        outside + ")");
  }
  std::string problem;
  if (!model_->skeleton.SetHumanoid(std::move(bones), &problem)) {
    warnings_.push_back("the " + c_.avatar.meta.format +
                        " humanoid bone map is not used: " + problem);
  }
}

}  // namespace

bool BuildModel(const std::string& path, Contents* contents, bool texture_pixels,
                LoadProgress* progress, ModelFiles* files, Model* model,
                std::vector<std::string>* warnings, std::string* error) {
  Builder builder(path, contents, progress, files);
  if (!texture_pixels) builder.SkipTexturePixels();
  if (!builder.Run(model, error)) return false;
  for (std::string& w : builder.warnings()) warnings->push_back(std::move(w));
  return true;
}

}  // namespace assets::gltf
