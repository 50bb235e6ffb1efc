// Scratch-file loading and the Model invariants shared by the harnesses.
#include "tests/fuzz/fuzz_common.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "assets/files/text.h"
#include "assets/importer.h"
#include "assets/model/animation.h"
#include "ik/core/kinematics.h"
#include "tests/assets/gltf_builder.h"

namespace fuzz {
namespace {

namespace fs = std::filesystem;

void WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::string Real(const fs::path& path) {
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  return ec ? std::string() : real.string();
}

// <base>/skelview-fuzz-<pid>/model/: the model's folder, with the side files of fuzz_common.h;
// the files above it must never be read.
const fs::path& ModelFolder() {
  static const fs::path folder = [] {
    const char* env = std::getenv("SKELVIEW_FUZZ_DIR");
    const fs::path base =
        fs::path(env && *env ? env : "/tmp") / ("skelview-fuzz-" + std::to_string(getpid()));
    const fs::path model = base / "model";
    fs::create_directories(model / "sub");
    const std::vector<uint8_t> strip = testgltf::SkinnedStrip().data;
    const std::string bytes(strip.begin(), strip.end());
    for (const fs::path& p : {model / "side.bin", model / "sub/side.bin", base / "outside.bin"}) {
      WriteFile(p, bytes);
    }
    WriteFile(model / "side.tga", testgltf::SmallTga());
    WriteFile(base / "outside.tga", testgltf::SmallTga());
    WriteFile(model / "side.mtl", "newmtl m\nKd 1 0 0\nmap_Kd side.tga\n");
    WriteFile(base / "outside.mtl", "newmtl m\nKd 0 1 0\nmap_Kd outside.tga\n");
    std::error_code ec;
    fs::create_symlink("side.bin", model / "link_in", ec);
    fs::create_symlink("../outside.bin", model / "link_out", ec);
    fs::create_symlink("..", model / "link_dir", ec);
    mkfifo((model / "fifo").c_str(), 0600);
    return model;
  }();
  return folder;
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
      const bool extra = mesh.extra_weights.size() == n && mesh.extra_joints.size() == n;
      Require(extra || mesh.extra_weights.empty(), "extra influences one per vertex or none");
      for (int k = 0; k < (extra ? 8 : 4); ++k) {
        const float w = k < 4 ? mesh.weights[v][k] : mesh.extra_weights[v][k - 4];
        const unsigned joint = k < 4 ? mesh.joints[v][k] : mesh.extra_joints[v][k - 4];
        Require(std::isfinite(w) && w >= 0.0f, "valid weight");
        if (w > 0.0f) Require(joint < mesh.bone_joints.size(), "weighted bone exists");
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
  // Names are UTF-8 whatever the file held (the JSON writers and the UI rely on it).
  for (const std::string& name : model.skeleton.names())
    Require(assets::IsValidUtf8(name), "UTF-8 joint name");
  for (const assets::Mesh& mesh : model.meshes) {
    Require(assets::IsValidUtf8(mesh.name), "UTF-8 mesh name");
    for (const assets::MorphTarget& t : mesh.targets) {
      Require(assets::IsValidUtf8(t.name), "UTF-8 morph target name");
    }
  }
  for (const assets::Material& m : model.materials)
    Require(assets::IsValidUtf8(m.name), "UTF-8 material name");
  for (const assets::Texture& t : model.textures)
    Require(assets::IsValidUtf8(t.name), "UTF-8 texture name");
  for (const assets::Clip& c : model.clips) Require(assets::IsValidUtf8(c.name), "UTF-8 clip name");
  for (const std::string& w : model.warnings) Require(assets::IsValidUtf8(w), "UTF-8 warning");
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

void CheckSourceFiles(const assets::Model& model, const std::string& model_path,
                      const std::string& folder) {
  Require(!model.source_files.empty() && model.source_files[0] == model_path,
          "source files start with the model file");
  std::set<std::string> seen;
  for (const std::string& file : model.source_files) {
    Require(file.rfind(folder + "/", 0) == 0, "only files inside the model's folder are read");
    Require(seen.insert(file).second, "each source file once");
  }
}

void LoadBytes(const uint8_t* data, size_t size, const std::string& extension) {
  const fs::path path = ModelFolder() / ("input" + extension);
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  const assets::LoadResult result = assets::LoadModel(path.string());
  if (result.ok()) {
    CheckModel(*result.model);
    CheckSourceFiles(*result.model, Real(path), Real(ModelFolder()));
    for (const std::string& w : result.model->warnings) Require(w.size() <= 600, "short warning");
    // Joint names are unique (--ik NAME, the pose JSON), also after repairs.
    const std::vector<std::string>& names = result.model->skeleton.names();
    Require(std::set<std::string>(names.begin(), names.end()).size() == names.size(),
            "unique joint names");
  } else {
    Require(!result.error.empty() && result.error.find('\n') == std::string::npos,
            "one-line error");
    for (char c : result.error) {
      Require(static_cast<unsigned char>(c) >= 0x20 && c != 0x7F,
              "no control character in an error");
    }
    // Messages are cut to a few hundred characters (plus the path).
    Require(result.error.size() <= path.string().size() + 600, "short error");
  }
}

}  // namespace fuzz
