// Assimp's scene into a Model: the node tree as joints, meshes (checked as they are copied, then
// cleaned up and welded), animations; materials are in scene_materials.cpp.
#include "assets/assimp/scene_converter.h"

#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>

#include "assets/assimp/scene_morphs.h"
#include "assets/files/limits.h"
#include "assets/files/messages.h"
#include "assets/model/mesh_cleanup.h"
#include "assets/model/weight_check.h"
#include "ik/core/transform.h"

namespace assets {
namespace {

// Ticks per second assumed when a (non-glTF) file leaves it unset, as Assimp's viewer does.
constexpr double kDefaultTicksPerSecond = 25.0;

glm::mat4 ToGlm(const aiMatrix4x4& m) {
  // Assimp is row major (a1..a4 is the first row); glm is column major.
  return glm::mat4(m.a1, m.b1, m.c1, m.d1, m.a2, m.b2, m.c2, m.d2, m.a3, m.b3, m.c3, m.d3, m.a4,
                   m.b4, m.c4, m.d4);
}

bool VectorWithinLimits(const aiVector3D& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) &&
         std::abs(v.x) <= kMaxCoordinate && std::abs(v.y) <= kMaxCoordinate &&
         std::abs(v.z) <= kMaxCoordinate;
}

// The mesh's tangents as Mesh::tangents from Assimp's tangents and bitangents (the handedness is
// the side of the bitangent against cross(normal, tangent)), or false when some tangent is zero or
// non-finite. `normals`: the mesh's unit normals, one per vertex.
bool ConvertTangents(const aiMesh* source, const std::vector<glm::vec3>& normals,
                     std::vector<glm::vec4>* out) {
  out->resize(normals.size());
  for (size_t i = 0; i < normals.size(); ++i) {
    const aiVector3D& t = source->mTangents[i];
    const aiVector3D& b = source->mBitangents[i];
    const glm::vec3 tangent(t.x, t.y, t.z);
    const float length = glm::length(tangent);
    if (!std::isfinite(length) || !(length > 1e-6f)) {
      *out = std::vector<glm::vec4>();
      return false;
    }
    const float side = glm::dot(glm::cross(normals[i], tangent), glm::vec3(b.x, b.y, b.z));
    (*out)[i] = glm::vec4(tangent / length, side < 0.0f ? -1.0f : 1.0f);
  }
  return true;
}

}  // namespace

bool SceneConverter::WalkNodes(std::string* error) {
  if (!scene_->mRootNode) {
    *error = "the scene has no root node";
    return false;
  }
  struct Item {
    const aiNode* node;
    int parent;
  };
  std::vector<Item> stack;
  stack.push_back({scene_->mRootNode, -1});
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    if (nodes_.size() >= static_cast<size_t>(ik::Skeleton::kMaxJoints)) {
      *error = "the scene has more than " + std::to_string(ik::Skeleton::kMaxJoints) +
               " nodes, the most skelview supports as joints";
      return false;
    }
    const int index = static_cast<int>(nodes_.size());
    const aiNode* node = item.node;
    const std::string name = node->mName.C_Str();
    const glm::mat4 local = ToGlm(node->mTransformation);
    if (!WithinLimits(local)) {
      *error = "node " + Quoted(name) + " has a non-finite or huge transform";
      return false;
    }
    ik::JointDesc desc;
    desc.name = name;
    desc.parent = item.parent;
    if (!RestFromMatrix(local, &desc.rest)) CountApproximated();
    if (item.parent < 0) desc.rest = frame_.Apply(desc.rest);
    const glm::mat4 model =
        item.parent < 0 ? desc.rest.ToMatrix() : rest_models_[item.parent] * desc.rest.ToMatrix();
    if (!WithinLimits(model)) {
      *error = "node " + Quoted(name) + " lies at a non-finite or huge position";
      return false;
    }
    nodes_.push_back(node);
    names_.push_back(name);
    rest_models_.push_back(model);
    descs_.push_back(std::move(desc));
    if (!joint_by_name_.emplace(name, index).second) ambiguous_names_.insert(name);
    // Push children in reverse so they pop in file order (Assimp's order).
    if (node->mChildren) {
      for (unsigned c = node->mNumChildren; c-- > 0;) {
        if (node->mChildren[c]) stack.push_back({node->mChildren[c], index});
      }
    }
  }
  // Joint names must be unique; names_ keeps the file's, which bones and animations bind by.
  NameJoints(&descs_);
  return true;
}

bool SceneConverter::ConvertMesh(const aiMesh* source, int node, bool count_repairs,
                                 std::string* error) {
  const std::string name = source->mName.C_Str();
  if (!(source->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) || source->mNumVertices == 0 ||
      !source->mVertices || !source->mFaces || source->mNumFaces == 0) {
    if (count_repairs) ++skipped_meshes_;
    return true;
  }
  const size_t n = source->mNumVertices;
  if (!CountInstance(n, source->mNumFaces, error)) return false;
  Mesh mesh;
  // The object's name, which users see in their tool, rather than its geometry's (FBX: Mesh_0).
  mesh.name = name_meshes_by_node_ ? descs_[static_cast<size_t>(node)].name : name;
  mesh.node = node;
  mesh.positions.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const aiVector3D& p = source->mVertices[i];
    if (!VectorWithinLimits(p)) {
      *error = "mesh " + Quoted(name) + " has a non-finite or huge vertex coordinate (vertex " +
               std::to_string(i) + ")";
      return false;
    }
    mesh.positions[i] = glm::vec3(p.x, p.y, p.z);
  }
  mesh.indices.reserve(static_cast<size_t>(source->mNumFaces) * 3);
  for (unsigned f = 0; f < source->mNumFaces; ++f) {
    const aiFace& face = source->mFaces[f];
    if (face.mNumIndices != 3 || !face.mIndices || face.mIndices[0] >= n || face.mIndices[1] >= n ||
        face.mIndices[2] >= n) {
      if (count_repairs) ++skipped_faces_;
      continue;
    }
    mesh.indices.insert(mesh.indices.end(), face.mIndices, face.mIndices + 3);
  }
  if (mesh.indices.empty()) {
    if (count_repairs) ++skipped_meshes_;
    return true;
  }
  std::vector<uint8_t> flags(n, 0);
  // Normals: keep valid ones, rebuild the rest from the faces.
  mesh.normals.assign(n, glm::vec3(0.0f));
  if (source->mNormals) {
    for (size_t i = 0; i < n; ++i) {
      const aiVector3D& a = source->mNormals[i];
      mesh.normals[i] = glm::vec3(a.x, a.y, a.z);
    }
  }
  RepairNormals(&mesh, source->mNormals != nullptr, &flags);
  // Tangents only beside the file's own normals (glTF ignores them otherwise).
  if (source->mNormals && source->mTangents && source->mBitangents &&
      !ConvertTangents(source, mesh.normals, &mesh.tangents)) {
    warnings_.push_back("mesh " + Quoted(name) + " has zero or non-finite tangents; dropped them");
  }
  // UVs: Assimp gives OpenGL's bottom-up v; store glTF's top-down v (see Mesh::uvs).
  if (source->mTextureCoords[0] && source->mNumUVComponents[0] >= 2) {
    mesh.uvs.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const aiVector3D& t = source->mTextureCoords[0][i];
      mesh.uvs[i] = glm::vec2(t.x, 1.0f - t.y);
    }
    if (DropNonFiniteUvs(&mesh)) {
      warnings_.push_back("mesh " + Quoted(name) +
                          " has non-finite texture coordinates; dropped them");
    }
  }
  const unsigned materials = scene_->mNumMaterials;
  mesh.material =
      source->mMaterialIndex < materials ? static_cast<int>(source->mMaterialIndex) : -1;
  ConvertAnimMeshes(source, path_, &mesh, &warnings_);  // morph targets (scene_morphs.cpp)

  mesh.joints.assign(n, glm::u16vec4(0));
  mesh.weights.assign(n, glm::vec4(0.0f));
  if (source->mNumBones == 0 || !source->mBones) {
    // Rigid: the node itself is the only bone.
    mesh.bone_joints = {node};
    mesh.bone_inverse_binds = {glm::mat4(1.0f)};
    for (size_t i = 0; i < n; ++i) mesh.weights[i].x = 1.0f;
    AddMesh(std::move(mesh), &flags, {}, count_repairs, true);
    return true;
  }
  std::vector<uint8_t> influence_count(n, 0);
  if (!ConvertBones(source, count_repairs, &mesh, &influence_count, error)) return false;
  NormaliseInfluences(&mesh, influence_count, node, &flags);
  // Assimp's readers split vertices per face corner: count the file's by position.
  AddMesh(std::move(mesh), &flags, std::move(influence_count), count_repairs, true);
  return true;
}

bool SceneConverter::ConvertBones(const aiMesh* source, bool count_repairs, Mesh* mesh,
                                  std::vector<uint8_t>* counts, std::string* error) {
  const std::string& name = mesh->name;
  const size_t n = mesh->positions.size();
  if (source->mNumBones >= 65535) {
    *error = "mesh " + Quoted(name) + " has " + std::to_string(source->mNumBones) +
             " bones, more than the 65,534 supported";
    return false;
  }
  mesh->skinned = true;
  // Per vertex, the eight largest influences so far in descending order, kept straight in
  // mesh->weights / mesh->joints (then extra_weights / extra_joints, allocated when a vertex first
  // gets a fifth), and how many the vertex had in all: no per-vertex lists, which cost an
  // allocation each on large meshes.
  std::vector<uint8_t>& influence_count = *counts;
  for (unsigned b = 0; b < source->mNumBones; ++b) {
    const aiBone* bone = source->mBones[b];
    if (!bone) continue;
    const std::string bone_name = bone->mName.C_Str();
    auto found = joint_by_name_.find(bone_name);
    if (found == joint_by_name_.end()) {
      missing_bones_.insert(bone_name);
      continue;
    }
    const int joint = found->second;
    model_->is_bone[joint] = true;
    glm::mat4 inverse_bind = ToGlm(bone->mOffsetMatrix);
    if (!WithinLimits(inverse_bind)) {
      *error = "bone " + Quoted(bone_name) + " of mesh " + Quoted(name) +
               " has a non-finite or huge inverse bind matrix";
      return false;
    }
    const uint16_t slot = static_cast<uint16_t>(mesh->bone_joints.size());
    mesh->bone_joints.push_back(joint);
    mesh->bone_inverse_binds.push_back(inverse_bind);
    if (!descs_[joint].inverse_bind) descs_[joint].inverse_bind = inverse_bind;
    for (unsigned w = 0; w < bone->mNumWeights && bone->mWeights; ++w) {
      const aiVertexWeight& vw = bone->mWeights[w];
      if (vw.mVertexId >= n || !std::isfinite(vw.mWeight) || vw.mWeight < 0.0f) {
        if (count_repairs) ++bad_weights_;
        continue;
      }
      if (!(vw.mWeight > 0.0f)) continue;
      const size_t v = vw.mVertexId;
      const int count = influence_count[v];
      if (count < 255) influence_count[v] = static_cast<uint8_t>(count + 1);
      if (count >= 4 && mesh->extra_weights.empty()) {
        mesh->extra_joints.assign(n, glm::u16vec4(0));
        mesh->extra_weights.assign(n, glm::vec4(0.0f));
      }
      const bool extra = !mesh->extra_weights.empty();
      InsertInfluence(vw.mWeight, slot, std::min(count, kMaxInfluences), &mesh->weights[v],
                      &mesh->joints[v], extra ? &mesh->extra_weights[v] : nullptr,
                      extra ? &mesh->extra_joints[v] : nullptr);
    }
  }
  return true;
}

void SceneConverter::ConvertAnimations() {
  MorphAnimationSkips morph_skips;
  size_t dropped_keys = 0;
  std::set<std::string> unknown_nodes;
  for (unsigned a = 0; a < scene_->mNumAnimations; ++a) {
    const aiAnimation* source = scene_->mAnimations ? scene_->mAnimations[a] : nullptr;
    if (!source) continue;
    Clip clip;
    clip.name = source->mName.C_Str();
    double tps = source->mTicksPerSecond;
    if (!(tps > 0.0) || !std::isfinite(tps)) tps = kDefaultTicksPerSecond;
    std::set<int> seen;
    for (unsigned c = 0; c < source->mNumChannels; ++c) {
      const aiNodeAnim* channel = source->mChannels ? source->mChannels[c] : nullptr;
      if (!channel) continue;
      auto found = joint_by_name_.find(channel->mNodeName.C_Str());
      if (found == joint_by_name_.end()) {
        unknown_nodes.insert(channel->mNodeName.C_Str());
        continue;
      }
      if (!seen.insert(found->second).second) continue;  // a second channel for one joint
      JointAnimation anim;
      anim.joint = found->second;
      // Copies keys with finite, strictly increasing times and acceptable values.
      auto copy_vectors = [&](const aiVectorKey* keys, unsigned count, Track<glm::vec3>* track) {
        track->interpolation = Interpolation::kLinear;
        for (unsigned k = 0; keys && k < count; ++k) {
          const double t = keys[k].mTime / tps;
          if (!std::isfinite(t) || std::abs(t) > static_cast<double>(kMaxKeyTime) ||
              !VectorWithinLimits(keys[k].mValue) ||
              (!track->times.empty() && static_cast<float>(t) <= track->times.back())) {
            ++dropped_keys;
            continue;
          }
          track->times.push_back(static_cast<float>(t));
          track->values.emplace_back(keys[k].mValue.x, keys[k].mValue.y, keys[k].mValue.z);
        }
      };
      copy_vectors(channel->mPositionKeys, channel->mNumPositionKeys, &anim.translation);
      copy_vectors(channel->mScalingKeys, channel->mNumScalingKeys, &anim.scale);
      const bool root = descs_[static_cast<size_t>(anim.joint)].parent < 0;
      if (root) {
        for (glm::vec3& t : anim.translation.values) t = frame_.ApplyToTranslation(t);
        for (glm::vec3& s : anim.scale.values) s = frame_.ApplyToScale(s);
      }
      anim.rotation.interpolation = Interpolation::kLinear;
      for (unsigned k = 0; channel->mRotationKeys && k < channel->mNumRotationKeys; ++k) {
        const aiQuatKey& key = channel->mRotationKeys[k];
        const double t = key.mTime / tps;
        const glm::quat q(key.mValue.w, key.mValue.x, key.mValue.y, key.mValue.z);
        const float len = glm::length(q);
        if (!std::isfinite(t) || std::abs(t) > static_cast<double>(kMaxKeyTime) ||
            !std::isfinite(len) || len < 1e-6f ||
            (!anim.rotation.times.empty() && static_cast<float>(t) <= anim.rotation.times.back())) {
          ++dropped_keys;
          continue;
        }
        anim.rotation.times.push_back(static_cast<float>(t));
        anim.rotation.values.push_back(root ? glm::normalize(frame_.ApplyToRotation(q / len))
                                            : q / len);
      }
      for (const std::vector<float>* times :
           {&anim.translation.times, &anim.rotation.times, &anim.scale.times}) {
        if (!times->empty()) clip.duration = std::max(clip.duration, times->back());
      }
      if (!anim.translation.empty() || !anim.rotation.empty() || !anim.scale.empty()) {
        clip.channels.push_back(std::move(anim));
      }
    }
    ConvertMorphAnimation(source, tps, names_, model_->meshes, &clip, &morph_skips);
    const double declared = source->mDuration / tps;
    if (std::isfinite(declared) && declared > static_cast<double>(clip.duration) &&
        declared < 1e6) {
      clip.duration = static_cast<float>(declared);
    }
    model_->clips.push_back(std::move(clip));
  }
  WarnMorphAnimationSkips(morph_skips, &warnings_);
  if (dropped_keys > 0) {
    warnings_.push_back("dropped " + Plural(dropped_keys, "animation key", "animation keys") +
                        " with non-increasing times or non-finite values");
  }
  if (!unknown_nodes.empty()) {
    warnings_.push_back("animation channels for " +
                        Plural(unknown_nodes.size(), "unknown node", "unknown nodes") +
                        " were ignored (e.g. " + Quoted(*unknown_nodes.begin()) + ")");
  }
}

bool SceneConverter::Run(Model* model, std::string* error) {
  model_ = model;
  if (!WalkNodes(error)) return false;
  model->is_bone.assign(nodes_.size(), false);
  if (!ConvertSceneMeshes(error)) return false;
  ConvertMaterials();
  ConvertAnimations();
  return Finish(model, error);
}

bool SceneConverter::ConvertSceneMeshes(std::string* error) {
  // LoadProgress is measured in vertices, the bulk of the work.
  uint64_t all_vertices = 0, done_vertices = 0;
  for (const aiNode* node : nodes_) {
    for (unsigned m = 0; node->mMeshes && m < node->mNumMeshes; ++m) {
      const unsigned index = node->mMeshes[m];
      if (index < scene_->mNumMeshes && scene_->mMeshes && scene_->mMeshes[index]) {
        all_vertices += scene_->mMeshes[index]->mNumVertices;
      }
    }
  }
  // Each Assimp mesh is freed right after its last use, so that Assimp's copy and ours do not
  // both stay in memory (the peak of a large import).
  std::vector<std::pair<size_t, unsigned>> last_use(scene_->mMeshes ? scene_->mNumMeshes : 0);
  for (size_t j = 0; j < nodes_.size(); ++j) {
    for (unsigned m = 0; nodes_[j]->mMeshes && m < nodes_[j]->mNumMeshes; ++m) {
      if (nodes_[j]->mMeshes[m] < last_use.size()) last_use[nodes_[j]->mMeshes[m]] = {j, m};
    }
  }
  std::vector<char> freed(last_use.size(), 0), counted(last_use.size(), 0);
  for (size_t j = 0; j < nodes_.size(); ++j) {
    const aiNode* node = nodes_[j];
    for (unsigned m = 0; node->mMeshes && m < node->mNumMeshes; ++m) {
      const unsigned index = node->mMeshes[m];
      if (index >= scene_->mNumMeshes || !scene_->mMeshes || !scene_->mMeshes[index] ||
          freed[index]) {
        *error = "node " + Quoted(names_[j]) + " refers to a mesh that does not exist";
        return false;
      }
      if (progress_->Cancelled()) {
        *error = "cancelled";
        return false;
      }
      const bool first_use = !counted[index];
      counted[index] = 1;
      if (!ConvertMesh(scene_->mMeshes[index], static_cast<int>(j), first_use, error)) {
        return false;
      }
      done_vertices += scene_->mMeshes[index]->mNumVertices;
      if (last_use[index] == std::make_pair(j, m)) {
        delete scene_->mMeshes[index];
        scene_->mMeshes[index] = nullptr;
        freed[index] = 1;
      }
      progress_->Report(
          static_cast<float>(static_cast<double>(done_vertices) /
                             static_cast<double>(std::max<uint64_t>(all_vertices, 1))));
    }
  }
  return true;
}

bool SceneConverter::Finish(Model* model, std::string* error) {
  if (!BuildSkeleton(descs_, error)) return false;
  if (name_meshes_by_node_) {
    // A node with several materials has one mesh per material: keep their names apart.
    std::vector<std::string*> mesh_names;
    for (Mesh& mesh : model->meshes) mesh_names.push_back(&mesh.name);
    std::string example;
    MakeNamesUnique(mesh_names, &example);
  }
  if (!ambiguous_names_.empty()) {
    warnings_.push_back(Plural(ambiguous_names_.size(), "node name is", "node names are") +
                        " used by several nodes (e.g. " + Quoted(*ambiguous_names_.begin()) +
                        "); bones and animations bind to the first such node");
  }
  WarnRepairs();
  return true;
}

}  // namespace assets
