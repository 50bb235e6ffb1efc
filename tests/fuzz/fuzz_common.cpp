// Scratch-file loading and the Model invariants shared by the harnesses.
#include "tests/fuzz/fuzz_common.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "assets/animation.h"
#include "assets/importer.h"
#include "ik/kinematics.h"

namespace fuzz {
namespace {

std::string ScratchDirectory() {
  static const std::string dir = [] {
    const char* env = std::getenv("SKELVIEW_FUZZ_DIR");
    std::string base = env && *env ? env : "/tmp";
    std::string d = base + "/skelview-fuzz-" + std::to_string(getpid());
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

[[noreturn]] void Broken(const char* what) {
  std::fprintf(stderr, "invariant broken: %s\n", what);
  std::abort();
}

void Require(bool ok, const char* what) {
  if (!ok) Broken(what);
}

bool Finite(const glm::vec3& v) { return std::isfinite(v.x + v.y + v.z); }

}  // namespace

void CheckModel(const assets::Model& model) {
  const int joints = model.skeleton.joint_count();
  Require(model.is_bone.size() == static_cast<size_t>(joints), "is_bone size");
  for (const assets::Mesh& mesh : model.meshes) {
    const size_t n = mesh.positions.size();
    Require(mesh.normals.size() == n && mesh.joints.size() == n && mesh.weights.size() == n,
            "per-vertex array sizes");
    Require(mesh.uvs.empty() || mesh.uvs.size() == n, "uv count");
    Require(mesh.indices.size() % 3 == 0, "whole triangles");
    for (uint32_t i : mesh.indices) Require(i < n, "index in range");
    Require(mesh.bone_joints.size() == mesh.bone_inverse_binds.size(), "one inverse bind per bone");
    for (int j : mesh.bone_joints) Require(j >= 0 && j < joints, "bone is a joint");
    for (size_t v = 0; v < n; ++v) {
      Require(Finite(mesh.positions[v]), "finite position");
      const float len = glm::length(mesh.normals[v]);
      Require(std::abs(len - 1.0f) < 1e-3f, "unit normal");
      float sum = 0.0f;
      for (int k = 0; k < 4; ++k) {
        const float w = mesh.weights[v][k];
        Require(std::isfinite(w) && w >= 0.0f, "valid weight");
        if (w > 0.0f) Require(mesh.joints[v][k] < mesh.bone_joints.size(), "weighted bone exists");
        sum += w;
      }
      Require(std::abs(sum - 1.0f) < 1e-3f, "weights sum to 1");
    }
    Require(mesh.material >= -1 && mesh.material < static_cast<int>(model.materials.size()),
            "material exists");
    Require(mesh.node >= -1 && mesh.node < joints, "node exists");
  }
  for (const assets::Material& m : model.materials) {
    Require(m.base_color_texture >= -1 &&
                m.base_color_texture < static_cast<int>(model.textures.size()),
            "texture exists");
  }
  for (const assets::Texture& t : model.textures) {
    Require(t.rgba.size() == static_cast<size_t>(t.width) * static_cast<size_t>(t.height) * 4,
            "texture size");
  }
  std::vector<glm::mat4> models;
  for (const assets::Clip& clip : model.clips) {
    Require(std::isfinite(clip.duration) && clip.duration >= 0.0f, "finite duration");
    ik::Pose pose;
    for (float f : {0.0f, 0.37f, 1.0f}) {
      assets::SampleClip(model.skeleton, clip, f * clip.duration, &pose);
      for (const ik::Transform& t : pose.locals) Require(t.IsFinite(), "finite sampled pose");
    }
  }
}

void LoadBytes(const uint8_t* data, size_t size, const std::string& extension) {
  const std::string path = ScratchDirectory() + "/input" + extension;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  const assets::LoadResult result = assets::LoadModel(path);
  if (result.ok()) {
    CheckModel(*result.model);
  } else {
    Require(!result.error.empty() && result.error.find('\n') == std::string::npos,
            "one-line error");
  }
}

}  // namespace fuzz
