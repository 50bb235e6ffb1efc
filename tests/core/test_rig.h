// Rigged glTF files for the rig checks, made here: a small humanoid (Mixamo joint names, metres,
// +Y up, facing +Z, knees and elbows slightly bent at rest, bind pose = rest pose) with one
// triangle per joint weighted fully to it. Tests change the joints, the vertices or the inverse
// binds, or edit the built glTF (animations, morph targets, images), to make one rig mistake at
// a time.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/assets/gltf_builder.h"

namespace testrig {

using json = nlohmann::json;

struct Joint {
  std::string name;
  int parent = -1;  // an earlier joint
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};
};

struct Vertex {
  glm::vec3 position{0.0f};                       // bind space (= model space at rest)
  std::vector<std::pair<int, float>> influences;  // joint index, weight
};

struct Rig {
  std::vector<Joint> joints;
  std::vector<Vertex> vertices;  // every three make a triangle
  // Per joint; BindToRest() makes them the inverses of the rest model matrices.
  std::vector<glm::mat4> inverse_binds;

  // Model-space rest matrix of joint j.
  glm::mat4 RestModel(int j) const {
    const Joint& joint = joints[static_cast<size_t>(j)];
    const glm::mat4 local = glm::translate(glm::mat4(1.0f), joint.translation) *
                            glm::mat4_cast(joint.rotation) *
                            glm::scale(glm::mat4(1.0f), joint.scale);
    return joint.parent < 0 ? local : RestModel(joint.parent) * local;
  }
  int Find(const std::string& name) const {
    for (size_t j = 0; j < joints.size(); ++j) {
      if (joints[j].name == name) return static_cast<int>(j);
    }
    return -1;
  }
  void BindToRest() {
    inverse_binds.clear();
    for (size_t j = 0; j < joints.size(); ++j) {
      inverse_binds.push_back(glm::inverse(RestModel(static_cast<int>(j))));
    }
  }
  // One small triangle at each joint's rest position, weighted 1 to it.
  void TrianglePerJoint() {
    vertices.clear();
    for (size_t j = 0; j < joints.size(); ++j) {
      const glm::vec3 p(RestModel(static_cast<int>(j))[3]);
      for (const glm::vec3& offset :
           {glm::vec3(0.0f), glm::vec3(0.03f, 0.0f, 0.0f), glm::vec3(0.0f, 0.0f, 0.03f)}) {
        vertices.push_back({p + offset, {{static_cast<int>(j), 1.0f}}});
      }
    }
  }

  // The glTF: nodes 0..J-1 are the joints (roots of the scene where parent < 0), node J holds
  // the skinned mesh (mesh 0, skin 0 listing every joint).
  testgltf::Builder Build() const {
    testgltf::Builder b;
    for (size_t j = 0; j < joints.size(); ++j) {
      const Joint& joint = joints[j];
      json node = {
          {"name", joint.name},
          {"translation", {joint.translation.x, joint.translation.y, joint.translation.z}},
          {"rotation", {joint.rotation.x, joint.rotation.y, joint.rotation.z, joint.rotation.w}},
          {"scale", {joint.scale.x, joint.scale.y, joint.scale.z}}};
      b.Node(node, joint.parent < 0);
    }
    for (size_t j = 0; j < joints.size(); ++j) {
      if (joints[j].parent >= 0) b.doc["nodes"][joints[j].parent]["children"].push_back(j);
    }
    std::vector<float> positions;
    size_t sets = 1;
    for (const Vertex& v : vertices) {
      positions.insert(positions.end(), {v.position.x, v.position.y, v.position.z});
      sets = std::max(sets, (v.influences.size() + 3) / 4);
    }
    json attributes = {{"POSITION", b.Positions(positions)}};
    for (size_t set = 0; set < sets; ++set) {
      std::vector<uint16_t> joint_values;
      std::vector<float> weight_values;
      for (const Vertex& v : vertices) {
        for (size_t k = 4 * set; k < 4 * set + 4; ++k) {
          const bool used = k < v.influences.size();
          joint_values.push_back(used ? static_cast<uint16_t>(v.influences[k].first) : 0);
          weight_values.push_back(used ? v.influences[k].second : 0.0f);
        }
      }
      attributes["JOINTS_" + std::to_string(set)] =
          b.Accessor(joint_values.data(), joint_values.size() * 2, 5123, "VEC4", vertices.size());
      attributes["WEIGHTS_" + std::to_string(set)] =
          b.Floats(weight_values, "VEC4", vertices.size());
    }
    b.doc["meshes"] = json::array(
        {json{{"name", "body"}, {"primitives", json::array({json{{"attributes", attributes}}})}}});
    std::vector<float> ibm;
    for (const glm::mat4& m : inverse_binds) {
      for (int c = 0; c < 4; ++c) {
        for (int r = 0; r < 4; ++r) ibm.push_back(m[c][r]);
      }
    }
    json skin_joints = json::array();
    for (size_t j = 0; j < joints.size(); ++j) skin_joints.push_back(j);
    b.doc["skins"] =
        json::array({json{{"joints", skin_joints},
                          {"inverseBindMatrices", b.Floats(ibm, "MAT4", inverse_binds.size())}}});
    b.Node({{"name", "body"}, {"mesh", 0}, {"skin", 0}}, true);
    return b;
  }
};

// The humanoid: hips at 1 m, legs 0.84 m, knees 3 cm forward and elbows 2 cm back at rest.
inline Rig Humanoid() {
  Rig rig;
  auto add = [&](const std::string& name, const std::string& parent, glm::vec3 t) {
    rig.joints.push_back({name, rig.Find(parent), t});
  };
  add("Hips", "", {0.0f, 1.0f, 0.0f});
  add("Spine", "Hips", {0.0f, 0.15f, 0.0f});
  add("Chest", "Spine", {0.0f, 0.2f, 0.0f});
  add("Neck", "Chest", {0.0f, 0.2f, 0.0f});
  add("Head", "Neck", {0.0f, 0.1f, 0.0f});
  for (const char* side : {"Left", "Right"}) {
    const float x = std::string(side) == "Left" ? 1.0f : -1.0f;
    const std::string s = side;
    add(s + "UpLeg", "Hips", {0.1f * x, -0.05f, 0.0f});
    add(s + "Leg", s + "UpLeg", {0.0f, -0.42f, 0.03f});
    add(s + "Foot", s + "Leg", {0.0f, -0.42f, -0.03f});
    add(s + "Shoulder", "Chest", {0.05f * x, 0.15f, 0.0f});
    add(s + "Arm", s + "Shoulder", {0.1f * x, 0.0f, 0.0f});
    add(s + "ForeArm", s + "Arm", {0.25f * x, 0.0f, -0.02f});
    add(s + "Hand", s + "ForeArm", {0.25f * x, 0.0f, 0.02f});
  }
  rig.BindToRest();
  rig.TrianglePerJoint();
  return rig;
}

// Adds an animation "name" to `b` moving glTF node `node`'s `path` ("translation", "rotation",
// "scale") through `values` (3 or 4 floats per key) at `times`.
inline void AddChannel(testgltf::Builder* b, const std::string& name, int node,
                       const std::string& path, const std::vector<float>& times,
                       const std::vector<float>& values) {
  const int input = b->Floats(times, "SCALAR", times.size());
  b->doc["accessors"][input]["min"] = {times.front()};
  b->doc["accessors"][input]["max"] = {times.back()};
  const size_t width = values.size() / times.size();
  const int output = b->Floats(values, width == 4 ? "VEC4" : "VEC3", times.size());
  json& animations = b->doc["animations"];
  json* animation = nullptr;
  for (json& a : animations) {
    if (a["name"] == name) animation = &a;
  }
  if (!animation) {
    animations.push_back(
        {{"name", name}, {"samplers", json::array()}, {"channels", json::array()}});
    animation = &animations.back();
  }
  (*animation)["samplers"].push_back({{"input", input}, {"output", output}});
  (*animation)["channels"].push_back({{"sampler", (*animation)["samplers"].size() - 1},
                                      {"target", {{"node", node}, {"path", path}}}});
}

}  // namespace testrig
