// An independent glTF 2.0 reader for tests: parses the JSON and buffers itself and skins per the
// glTF specification, without Assimp or any assets/ code, so importer results can be checked.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <string>
#include <vector>

namespace gltfref {

// One vertex instance of a mesh node: its bind-space position (the raw POSITION value) and its
// world position after skinning (or after the node's world transform when unskinned).
struct VertexInstance {
  glm::vec3 bind;  // POSITION with the morph targets blended in at their weights
  glm::vec3 world;
  glm::vec2 uv{0.0f};  // TEXCOORD_0 as stored in the file, (0, 0) when absent
};

struct Scene {
  std::vector<VertexInstance> vertices;
  std::vector<glm::vec3> joint_world_positions;  // every node reachable from the scene
};

// Evaluates the default scene of a .gltf/.glb: when `animate` is true, every animation's channels
// (step and linear samplers) are applied at `time_seconds` first. Returns false with *error set
// when the file cannot be read.
bool Evaluate(const std::string& path, bool animate, float time_seconds, Scene* scene,
              std::string* error);

// Writes a .gltf whose single buffer is embedded as a base64 data URI.
std::string Base64(const std::vector<uint8_t>& data);

}  // namespace gltfref
