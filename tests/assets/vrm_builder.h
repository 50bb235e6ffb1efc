// Builds small VRM avatars for tests: a blocky humanoid (one box per bone, each skinned rigidly to
// its bone) as binary glTF with the VRM 0.x (`extensions.VRM`) or VRM 1.0 (`extensions.VRMC_vrm`)
// extension: the avatar's meta and its humanoid bone map.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tests/assets/gltf_builder.h"

namespace testgltf {

enum class VrmVersion { k0, k1 };

struct VrmOptions {
  VrmVersion version = VrmVersion::k1;
  // Meta: VRM 0.x title/author/licenseName, VRM 1.0 name/authors/licenseUrl (authors split at
  // ", " into the array).
  std::string title = "Test Avatar";
  std::string author = "skelview tests";
  std::string license = "CC_BY";  // 0.x licenseName; 1.0 wants a URL, e.g. "https://..."
  // Node names that make name-based limb detection wrong: the avatar's left limbs are named
  // Right*, its right limbs Left*, its upper arms "Thigh", its lower arms "Shin", its hands
  // "Foot", and its legs the arm words (and the other way round).
  bool lying_names = false;
  // Humanoid bones left out of the map (by VRM name).
  std::vector<std::string> unmapped;
};

// The avatar's bones: VRM name, parent (index in this list, -1 for the root), offset from the
// parent in metres for an avatar facing +Z (its left at +X), box half-size.
struct VrmBone {
  const char* role;
  int parent;
  std::array<float, 3> offset;
  std::array<float, 3> half;
};

inline const std::vector<VrmBone>& VrmBones() {
  static const std::vector<VrmBone> bones = {
      {"hips", -1, {0, 0.95f, 0}, {0.14f, 0.07f, 0.09f}},                   // 0
      {"spine", 0, {0, 0.1f, 0}, {0.13f, 0.07f, 0.08f}},                    // 1
      {"chest", 1, {0, 0.18f, 0}, {0.15f, 0.1f, 0.09f}},                    // 2
      {"neck", 2, {0, 0.2f, 0}, {0.04f, 0.04f, 0.04f}},                     // 3
      {"head", 3, {0, 0.08f, 0}, {0.09f, 0.11f, 0.1f}},                     // 4
      {"leftUpperLeg", 0, {0.09f, -0.05f, 0}, {0.06f, 0.2f, 0.06f}},        // 5
      {"leftLowerLeg", 5, {0, -0.42f, 0.01f}, {0.05f, 0.2f, 0.05f}},        // 6
      {"leftFoot", 6, {0, -0.41f, -0.02f}, {0.045f, 0.03f, 0.1f}},          // 7
      {"rightUpperLeg", 0, {-0.09f, -0.05f, 0}, {0.06f, 0.2f, 0.06f}},      // 8
      {"rightLowerLeg", 8, {0, -0.42f, 0.01f}, {0.05f, 0.2f, 0.05f}},       // 9
      {"rightFoot", 9, {0, -0.41f, -0.02f}, {0.045f, 0.03f, 0.1f}},         // 10
      {"leftShoulder", 2, {0.05f, 0.15f, 0}, {0.04f, 0.03f, 0.03f}},        // 11
      {"leftUpperArm", 11, {0.1f, 0, 0}, {0.13f, 0.04f, 0.04f}},            // 12
      {"leftLowerArm", 12, {0.27f, 0, -0.01f}, {0.12f, 0.035f, 0.035f}},    // 13
      {"leftHand", 13, {0.25f, 0, 0}, {0.07f, 0.02f, 0.04f}},               // 14
      {"rightShoulder", 2, {-0.05f, 0.15f, 0}, {0.04f, 0.03f, 0.03f}},      // 15
      {"rightUpperArm", 15, {-0.1f, 0, 0}, {0.13f, 0.04f, 0.04f}},          // 16
      {"rightLowerArm", 16, {-0.27f, 0, -0.01f}, {0.12f, 0.035f, 0.035f}},  // 17
      {"rightHand", 17, {-0.25f, 0, 0}, {0.07f, 0.02f, 0.04f}},             // 18
  };
  return bones;
}

// The node name of each bone: its VRM name with a rig prefix ("J_Bip_leftUpperLeg"), or with
// lying_names the misleading names described at VrmOptions.
inline std::string VrmNodeName(size_t bone, bool lying_names) {
  const std::string role = VrmBones()[bone].role;
  if (!lying_names) return "J_Bip_" + role;
  static const std::map<std::string, std::string> lies = {
      {"leftUpperLeg", "RightUpperArm"}, {"leftLowerLeg", "RightLowerArm"},
      {"leftFoot", "RightHand"},         {"rightUpperLeg", "LeftUpperArm"},
      {"rightLowerLeg", "LeftLowerArm"}, {"rightFoot", "LeftHand"},
      {"leftShoulder", "RightHip"},      {"leftUpperArm", "RightThigh"},
      {"leftLowerArm", "RightShin"},     {"leftHand", "RightFoot"},
      {"rightShoulder", "LeftHip"},      {"rightUpperArm", "LeftThigh"},
      {"rightLowerArm", "LeftShin"},     {"rightHand", "LeftFoot"}};
  const auto lie = lies.find(role);
  return lie == lies.end() ? "Bone_" + role : lie->second;
}

// The avatar as a Builder: nodes 0..18 are the bones of VrmBones() in order, node 19 the mesh.
// VRM 0.x avatars face -Z (as UniVRM writes them), VRM 1.0 avatars +Z.
inline Builder VrmAvatar(const VrmOptions& options = {}) {
  Builder b;
  const std::vector<VrmBone>& bones = VrmBones();
  const float turn = options.version == VrmVersion::k0 ? -1.0f : 1.0f;  // 180° about Y
  std::vector<std::array<float, 3>> world(bones.size());
  std::vector<float> positions, normals, weights;
  std::vector<uint16_t> joints, indices;
  for (size_t i = 0; i < bones.size(); ++i) {
    const VrmBone& bone = bones[i];
    const std::array<float, 3> offset = {turn * bone.offset[0], bone.offset[1],
                                         turn * bone.offset[2]};
    for (int k = 0; k < 3; ++k) {
      world[i][k] =
          (bone.parent < 0 ? 0.0f : world[static_cast<size_t>(bone.parent)][k]) + offset[k];
    }
    // The box hangs from the joint towards its child (the first bone whose parent it is), or
    // sits on it for end bones.
    std::array<float, 3> centre = world[i];
    for (size_t c = i + 1; c < bones.size(); ++c) {
      if (bones[c].parent != static_cast<int>(i)) continue;
      for (int k = 0; k < 3; ++k) {
        const float child_offset = (k == 1 ? 1.0f : turn) * bones[c].offset[k];
        centre[k] = world[i][k] + 0.5f * child_offset;
      }
      break;
    }
    // Eight corners, each face its own four vertices (flat normals).
    static const int kFaces[6][4][3] = {{{1, -1, -1}, {1, 1, -1}, {1, 1, 1}, {1, -1, 1}},
                                        {{-1, -1, 1}, {-1, 1, 1}, {-1, 1, -1}, {-1, -1, -1}},
                                        {{-1, 1, -1}, {-1, 1, 1}, {1, 1, 1}, {1, 1, -1}},
                                        {{-1, -1, 1}, {-1, -1, -1}, {1, -1, -1}, {1, -1, 1}},
                                        {{-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}},
                                        {{1, -1, -1}, {-1, -1, -1}, {-1, 1, -1}, {1, 1, -1}}};
    static const float kNormals[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                         {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    for (int f = 0; f < 6; ++f) {
      const uint16_t first = static_cast<uint16_t>(positions.size() / 3);
      for (int v = 0; v < 4; ++v) {
        for (int k = 0; k < 3; ++k) {
          positions.push_back(centre[static_cast<size_t>(k)] +
                              static_cast<float>(kFaces[f][v][k]) *
                                  bone.half[static_cast<size_t>(k)]);
          normals.push_back(kNormals[f][k]);
        }
        joints.insert(joints.end(), {static_cast<uint16_t>(i), 0, 0, 0});
        weights.insert(weights.end(), {1.0f, 0.0f, 0.0f, 0.0f});
      }
      indices.insert(indices.end(),
                     {first, static_cast<uint16_t>(first + 1), static_cast<uint16_t>(first + 2),
                      first, static_cast<uint16_t>(first + 2), static_cast<uint16_t>(first + 3)});
    }
  }
  const int position_accessor = b.Positions(positions);
  const int normal_accessor = b.Floats(normals, "VEC3", normals.size() / 3);
  const int joint_accessor =
      b.Accessor(joints.data(), joints.size() * 2, 5123, "VEC4", joints.size() / 4);
  const int weight_accessor = b.Floats(weights, "VEC4", weights.size() / 4);
  const int index_accessor =
      b.Accessor(indices.data(), indices.size() * 2, 5123, "SCALAR", indices.size());
  std::vector<float> inverse_binds;
  for (size_t i = 0; i < bones.size(); ++i) {
    inverse_binds.insert(inverse_binds.end(), {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0});
    inverse_binds.insert(inverse_binds.end(), {-world[i][0], -world[i][1], -world[i][2], 1});
  }
  const int inverse_bind_accessor = b.Floats(inverse_binds, "MAT4", bones.size());
  for (size_t i = 0; i < bones.size(); ++i) {
    const VrmBone& bone = bones[i];
    json node = {{"name", VrmNodeName(i, options.lying_names)},
                 {"translation", {turn * bone.offset[0], bone.offset[1], turn * bone.offset[2]}}};
    json children = json::array();
    for (size_t c = 0; c < bones.size(); ++c) {
      if (bones[c].parent == static_cast<int>(i)) children.push_back(c);
    }
    if (!children.empty()) node["children"] = children;
    b.Node(node, bone.parent < 0);
  }
  b.doc["meshes"] =
      json::array({json{{"name", "Body"},
                        {"primitives", json::array({json{{"attributes",
                                                          {{"POSITION", position_accessor},
                                                           {"NORMAL", normal_accessor},
                                                           {"JOINTS_0", joint_accessor},
                                                           {"WEIGHTS_0", weight_accessor}}},
                                                         {"indices", index_accessor},
                                                         {"material", 0}}})}}});
  b.doc["materials"] = json::array({json{
      {"name", "Skin"}, {"pbrMetallicRoughness", {{"baseColorFactor", {0.85, 0.75, 0.65, 1.0}}}}}});
  json joint_list = json::array();
  for (size_t i = 0; i < bones.size(); ++i) joint_list.push_back(i);
  b.doc["skins"] =
      json::array({json{{"joints", joint_list}, {"inverseBindMatrices", inverse_bind_accessor}}});
  b.Node({{"name", "Body"}, {"mesh", 0}, {"skin", 0}}, true);

  auto mapped = [&](const std::string& role) {
    for (const std::string& u : options.unmapped)
      if (u == role) return false;
    return true;
  };
  if (options.version == VrmVersion::k0) {
    json human_bones = json::array();
    for (size_t i = 0; i < bones.size(); ++i) {
      if (!mapped(bones[i].role)) continue;
      human_bones.push_back({{"bone", bones[i].role}, {"node", i}, {"useDefaultValues", true}});
    }
    b.doc["extensionsUsed"] = json::array({"VRM"});
    b.doc["extensions"]["VRM"] = {
        {"exporterVersion", "skelview-tests"},
        {"specVersion", "0.0"},
        {"meta",
         {{"title", options.title},
          {"version", "1"},
          {"author", options.author},
          {"contactInformation", ""},
          {"reference", ""},
          {"allowedUserName", "Everyone"},
          {"violentUssageName", "Disallow"},
          {"sexualUssageName", "Disallow"},
          {"commercialUssageName", "Allow"},
          {"licenseName", options.license},
          {"otherLicenseUrl", ""}}},
        {"humanoid", {{"humanBones", human_bones}, {"armStretch", 0.05}, {"legStretch", 0.05}}}};
  } else {
    json human_bones = json::object();
    for (size_t i = 0; i < bones.size(); ++i) {
      if (mapped(bones[i].role)) human_bones[bones[i].role] = {{"node", i}};
    }
    json authors = json::array();
    for (size_t start = 0; start <= options.author.size();) {
      size_t end = options.author.find(", ", start);
      if (end == std::string::npos) end = options.author.size();
      authors.push_back(options.author.substr(start, end - start));
      start = end + 2;
    }
    b.doc["extensionsUsed"] = json::array({"VRMC_vrm"});
    b.doc["extensions"]["VRMC_vrm"] = {{"specVersion", "1.0"},
                                       {"meta",
                                        {{"name", options.title},
                                         {"version", "1"},
                                         {"authors", authors},
                                         {"licenseUrl", options.license},
                                         {"avatarPermission", "everyone"},
                                         {"commercialUsage", "personalNonProfit"}}},
                                       {"humanoid", {{"humanBones", human_bones}}}};
  }
  return b;
}

}  // namespace testgltf
