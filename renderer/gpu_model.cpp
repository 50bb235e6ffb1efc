// Uploading a Model and its per-frame skin palettes.
#include "renderer/gpu_model.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "ik/core/kinematics.h"
#include "renderer/vertex_layout.h"

namespace renderer {

namespace {

std::string MeshLabel(const assets::Mesh& mesh, size_t index) {
  return "mesh " + std::to_string(index) + (mesh.name.empty() ? "" : " '" + mesh.name + "'");
}

// Checks what GL would otherwise read out of bounds.
bool ValidateMesh(const assets::Mesh& mesh, size_t index, int joint_count, std::string* error) {
  const size_t n = mesh.positions.size();
  const std::string label = MeshLabel(mesh, index);
  if (mesh.normals.size() != n || mesh.joints.size() != n || mesh.weights.size() != n ||
      (!mesh.uvs.empty() && mesh.uvs.size() != n) ||
      mesh.extra_joints.size() != mesh.extra_weights.size() ||
      (!mesh.extra_joints.empty() && mesh.extra_joints.size() != n)) {
    *error = label + ": attribute arrays have different lengths";
    return false;
  }
  if (mesh.bone_joints.size() != mesh.bone_inverse_binds.size()) {
    *error = label + ": bone_joints and bone_inverse_binds differ in length";
    return false;
  }
  for (int joint : mesh.bone_joints) {
    if (joint < 0 || joint >= joint_count) {
      *error = label + ": bone refers to joint " + std::to_string(joint) + ", the skeleton has " +
               std::to_string(joint_count);
      return false;
    }
  }
  for (uint32_t i : mesh.indices) {
    if (i >= n) {
      *error =
          label + ": index " + std::to_string(i) + " past its " + std::to_string(n) + " vertices";
      return false;
    }
  }
  // Slots of weight 0 may hold any index (importers leave 0 or junk there); they add nothing.
  const size_t bones = mesh.bone_joints.size();
  const auto check = [&](const std::vector<glm::u16vec4>& joints,
                         const std::vector<glm::vec4>& weights) {
    for (size_t v = 0; v < joints.size(); ++v) {
      for (int k = 0; k < 4; ++k) {
        if (weights[v][k] != 0.0f && joints[v][k] >= bones) {
          *error = label + ": vertex " + std::to_string(v) + " uses bone " +
                   std::to_string(joints[v][k]) + " of " + std::to_string(bones);
          return false;
        }
      }
    }
    return true;
  };
  return check(mesh.joints, mesh.weights) && check(mesh.extra_joints, mesh.extra_weights);
}

// Unused slots may hold indices past the mesh's bones (validated as weight 0): a copy with them
// pointed at bone 0, so the shader never fetches outside this mesh's palette; empty when no slot
// needs it (the arrays are uploaded as they are).
std::vector<glm::u16vec4> ClampedJoints(const std::vector<glm::u16vec4>& joints, size_t bones) {
  const auto out_of_range = [bones](const glm::u16vec4& j) {
    return j[0] >= bones || j[1] >= bones || j[2] >= bones || j[3] >= bones;
  };
  std::vector<glm::u16vec4> clamped;
  if (std::any_of(joints.begin(), joints.end(), out_of_range)) {
    clamped = joints;
    for (glm::u16vec4& j : clamped)
      for (int k = 0; k < 4; ++k)
        if (j[k] >= bones) j[k] = 0;
  }
  return clamped;
}

// Blocks of one buffer laid out one after another; each array is copied straight from the Model
// into the buffer, with no staging copy of the whole mesh to raise the peak memory.
class BlockLayout {
 public:
  template <typename T>
  GLintptr Add(const std::vector<T>& data) {
    const GLintptr offset = size_;
    size_ += static_cast<GLintptr>(data.size() * sizeof(T));
    return offset;
  }
  GLsizeiptr size() const { return size_; }

 private:
  GLintptr size_ = 0;
};

template <typename T>
void UploadBlock(GLenum target, GLintptr offset, const std::vector<T>& data) {
  if (!data.empty()) {
    glBufferSubData(target, offset, static_cast<GLsizeiptr>(data.size() * sizeof(T)), data.data());
  }
}

void FloatAttribute(GLuint location, GLint size, GLintptr offset) {
  glEnableVertexAttribArray(location);
  glVertexAttribPointer(location, size, GL_FLOAT, GL_FALSE, 0,
                        reinterpret_cast<const void*>(offset));
}

// Points attributes kPosition and kNormal of the bound vertex array at `buffer`'s interleaved
// (position, normal) pairs.
void InterleavedPositionsAndNormals(GLuint buffer) {
  constexpr GLsizei kStride = 2 * sizeof(glm::vec3);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glEnableVertexAttribArray(attrib::kPosition);
  glEnableVertexAttribArray(attrib::kNormal);
  glVertexAttribPointer(attrib::kPosition, 3, GL_FLOAT, GL_FALSE, kStride, nullptr);
  glVertexAttribPointer(attrib::kNormal, 3, GL_FLOAT, GL_FALSE, kStride,
                        reinterpret_cast<const void*>(sizeof(glm::vec3)));
}

GpuMesh UploadMesh(const assets::Mesh& mesh) {
  GpuMesh gpu;
  gpu.name = mesh.name;
  gpu.vertex_count = static_cast<GLsizei>(mesh.positions.size());
  gpu.index_count = static_cast<GLsizei>(mesh.indices.size() / 3 * 3);
  gpu.bone_joints = mesh.bone_joints;
  gpu.bone_inverse_binds = mesh.bone_inverse_binds;
  gpu.material = mesh.material;

  // One buffer, one block per attribute: simpler than interleaving and just as fast here.
  BlockLayout layout;
  const GLintptr positions = layout.Add(mesh.positions);
  const GLintptr normals = layout.Add(mesh.normals);
  const GLintptr uvs = layout.Add(mesh.uvs);
  const GLintptr joints = layout.Add(mesh.joints);
  const GLintptr weights = layout.Add(mesh.weights);
  const GLintptr extra_joints = layout.Add(mesh.extra_joints);
  const GLintptr extra_weights = layout.Add(mesh.extra_weights);
  gpu.weight_flags = mesh.weight_flags.size() == mesh.positions.size() && !mesh.positions.empty();
  const GLintptr weight_flags = layout.Add(mesh.weight_flags);
  gpu.extra_influences = !mesh.extra_weights.empty();
  const size_t bones = mesh.bone_joints.size();
  const std::vector<glm::u16vec4> clamped_joints = ClampedJoints(mesh.joints, bones);
  const std::vector<glm::u16vec4> clamped_extra = ClampedJoints(mesh.extra_joints, bones);

  gpu.vertex_array = MakeVertexArray();
  gpu.vertex_buffer = MakeBuffer();
  gpu.index_buffer = MakeBuffer();
  glBindVertexArray(gpu.vertex_array.id());
  glBindBuffer(GL_ARRAY_BUFFER, gpu.vertex_buffer.id());
  glBufferData(GL_ARRAY_BUFFER, layout.size(), nullptr, GL_STATIC_DRAW);
  UploadBlock(GL_ARRAY_BUFFER, positions, mesh.positions);
  UploadBlock(GL_ARRAY_BUFFER, normals, mesh.normals);
  UploadBlock(GL_ARRAY_BUFFER, uvs, mesh.uvs);
  UploadBlock(GL_ARRAY_BUFFER, joints, clamped_joints.empty() ? mesh.joints : clamped_joints);
  UploadBlock(GL_ARRAY_BUFFER, weights, mesh.weights);
  UploadBlock(GL_ARRAY_BUFFER, extra_joints,
              clamped_extra.empty() ? mesh.extra_joints : clamped_extra);
  UploadBlock(GL_ARRAY_BUFFER, extra_weights, mesh.extra_weights);
  if (gpu.weight_flags) UploadBlock(GL_ARRAY_BUFFER, weight_flags, mesh.weight_flags);
  FloatAttribute(attrib::kPosition, 3, positions);
  FloatAttribute(attrib::kNormal, 3, normals);
  if (mesh.uvs.empty()) {
    glDisableVertexAttribArray(attrib::kUv);
    glVertexAttrib2f(attrib::kUv, 0.0f, 0.0f);
  } else {
    FloatAttribute(attrib::kUv, 2, uvs);
  }
  glEnableVertexAttribArray(attrib::kJoints);
  glVertexAttribIPointer(attrib::kJoints, 4, GL_UNSIGNED_SHORT, 0,
                         reinterpret_cast<const void*>(joints));
  FloatAttribute(attrib::kWeights, 4, weights);
  if (gpu.extra_influences) {
    glEnableVertexAttribArray(attrib::kExtraJoints);
    glVertexAttribIPointer(attrib::kExtraJoints, 4, GL_UNSIGNED_SHORT, 0,
                           reinterpret_cast<const void*>(extra_joints));
    FloatAttribute(attrib::kExtraWeights, 4, extra_weights);
  }
  if (gpu.weight_flags) {
    glEnableVertexAttribArray(attrib::kWeightFlags);
    glVertexAttribIPointer(attrib::kWeightFlags, 1, GL_UNSIGNED_BYTE, 0,
                           reinterpret_cast<const void*>(weight_flags));
  }
  if (!mesh.targets.empty()) {
    // The draws read the blended vertices (position, normal interleaved; UpdateMorphWeights
    // fills them); the blend pass reads the unblended ones from morph_delta_buffer.
    gpu.morphed_buffer = MakeBuffer();
    glBindBuffer(GL_ARRAY_BUFFER, gpu.morphed_buffer.id());
    glBufferData(GL_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(mesh.positions.size() * 2 * sizeof(glm::vec3)), nullptr,
                 GL_DYNAMIC_COPY);
    InterleavedPositionsAndNormals(gpu.morphed_buffer.id());
  }
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gpu.index_buffer.id());
  glBufferData(GL_ELEMENT_ARRAY_BUFFER,
               static_cast<GLsizeiptr>(mesh.indices.size() * sizeof(uint32_t)),
               mesh.indices.empty() ? nullptr : mesh.indices.data(), GL_STATIC_DRAW);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return gpu;
}

// Texels of a mesh's blend-pass input: two (position, normal) per vertex for the unblended
// vertices and for each target's deltas.
size_t MorphTexels(const assets::Mesh& mesh) {
  return mesh.targets.empty() ? 0 : (mesh.targets.size() + 1) * mesh.positions.size() * 2;
}

// The blend pass's input as RGBA32F texels in a texture buffer, a block of (position, normal)
// per vertex for the unblended vertices, then one per target (a missing array as zeros); nothing
// for a mesh without targets.
void UploadMorphTargets(const assets::Mesh& mesh, GpuMesh* gpu) {
  gpu->target_count = static_cast<int>(mesh.targets.size());
  if (mesh.targets.empty()) return;
  const size_t n = mesh.positions.size();
  std::vector<glm::vec4> texels(MorphTexels(mesh), glm::vec4(0.0f));
  const auto fill = [n](glm::vec4* block, const std::vector<glm::vec3>& positions,
                        const std::vector<glm::vec3>& normals) {
    if (positions.size() == n) {
      for (size_t v = 0; v < n; ++v) block[2 * v] = glm::vec4(positions[v], 0.0f);
    }
    if (normals.size() == n) {
      for (size_t v = 0; v < n; ++v) block[2 * v + 1] = glm::vec4(normals[v], 0.0f);
    }
  };
  fill(texels.data(), mesh.positions, mesh.normals);
  for (size_t t = 0; t < mesh.targets.size(); ++t)
    fill(texels.data() + (t + 1) * n * 2, mesh.targets[t].positions, mesh.targets[t].normals);
  gpu->morph_delta_buffer = MakeBuffer();
  gpu->morph_delta_texture = MakeTexture();
  glBindBuffer(GL_TEXTURE_BUFFER, gpu->morph_delta_buffer.id());
  glBufferData(GL_TEXTURE_BUFFER, static_cast<GLsizeiptr>(texels.size() * sizeof(glm::vec4)),
               texels.data(), GL_STATIC_DRAW);
  glBindTexture(GL_TEXTURE_BUFFER, gpu->morph_delta_texture.id());
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, gpu->morph_delta_buffer.id());
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

// Output texels per row of the blend pass's framebuffer: even (a vertex's two texels share a
// row), at most 4,096 and within what the driver renders to.
int MorphRowTexels() {
  GLint max_size = 0, max_viewport[2] = {0, 0};
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, max_viewport);
  return std::min({4096, static_cast<int>(max_size), static_cast<int>(max_viewport[0])}) & ~1;
}

// GL state the blend pass changes, saved before it and put back after. It starts the pass with
// depth, stencil, scissor, culling, blending, dithering and rasterizer discard off and every
// colour channel written.
class SavedBlendState {
 public:
  SavedBlendState() {
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_framebuffer_);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_framebuffer_);
    glGetIntegerv(GL_VIEWPORT, viewport_);
    glGetIntegerv(GL_PACK_ALIGNMENT, &pack_alignment_);
    glGetIntegerv(GL_BLEND_SRC_RGB, &blend_[0]);
    glGetIntegerv(GL_BLEND_DST_RGB, &blend_[1]);
    glGetIntegerv(GL_BLEND_SRC_ALPHA, &blend_[2]);
    glGetIntegerv(GL_BLEND_DST_ALPHA, &blend_[3]);
    glGetIntegerv(GL_BLEND_EQUATION_RGB, &blend_[4]);
    glGetIntegerv(GL_BLEND_EQUATION_ALPHA, &blend_[5]);
    glGetBooleanv(GL_COLOR_WRITEMASK, color_mask_);
    for (size_t i = 0; i < kCaps.size(); ++i) enabled_[i] = glIsEnabled(kCaps[i]);
    for (GLenum cap : kCaps) glDisable(cap);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
  }
  ~SavedBlendState() {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_framebuffer_));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_framebuffer_));
    glViewport(viewport_[0], viewport_[1], viewport_[2], viewport_[3]);
    glPixelStorei(GL_PACK_ALIGNMENT, pack_alignment_);
    glBlendFuncSeparate(static_cast<GLenum>(blend_[0]), static_cast<GLenum>(blend_[1]),
                        static_cast<GLenum>(blend_[2]), static_cast<GLenum>(blend_[3]));
    glBlendEquationSeparate(static_cast<GLenum>(blend_[4]), static_cast<GLenum>(blend_[5]));
    glColorMask(color_mask_[0], color_mask_[1], color_mask_[2], color_mask_[3]);
    for (size_t i = 0; i < kCaps.size(); ++i)
      if (enabled_[i]) glEnable(kCaps[i]);
  }
  SavedBlendState(const SavedBlendState&) = delete;
  SavedBlendState& operator=(const SavedBlendState&) = delete;

 private:
  static constexpr std::array<GLenum, 7> kCaps = {GL_DEPTH_TEST,        GL_STENCIL_TEST, GL_BLEND,
                                                  GL_CULL_FACE,         GL_SCISSOR_TEST, GL_DITHER,
                                                  GL_RASTERIZER_DISCARD};
  GLint draw_framebuffer_ = 0, read_framebuffer_ = 0, viewport_[4] = {}, pack_alignment_ = 4;
  GLint blend_[6] = {};
  GLboolean color_mask_[4] = {GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE};
  std::array<GLboolean, kCaps.size()> enabled_{};
};

Texture UploadTexture(const assets::Texture& texture) {
  Texture gpu = MakeTexture();
  glBindTexture(GL_TEXTURE_2D, gpu.id());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, texture.width, texture.height, 0, GL_RGBA,
               GL_UNSIGNED_BYTE, texture.rgba.data());
  glGenerateMipmap(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  glBindTexture(GL_TEXTURE_2D, 0);
  return gpu;
}

}  // namespace

std::optional<GpuModel> GpuModel::Create(const assets::Model& model, std::string* error) {
  GpuModel gpu;
  gpu.joint_count_ = model.skeleton.joint_count();

  GLint max_texels = 0;
  glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_texels);
  size_t palette_size = 0;
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    if (!ValidateMesh(model.meshes[m], m, gpu.joint_count_, error)) return std::nullopt;
    palette_size += model.meshes[m].bone_joints.size();
    if (MorphTexels(model.meshes[m]) > static_cast<size_t>(max_texels)) {
      *error = MeshLabel(model.meshes[m], m) + ": its morph targets need " +
               std::to_string(MorphTexels(model.meshes[m])) +
               " texels, more than this GPU's texture buffer holds (" + std::to_string(max_texels) +
               ")";
      return std::nullopt;
    }
  }
  if (palette_size * 4 > static_cast<size_t>(max_texels)) {
    *error = "the model's meshes have " + std::to_string(palette_size) +
             " bones in all, more than this GPU's texture buffer holds (" +
             std::to_string(max_texels / 4) + ")";
    return std::nullopt;
  }
  for (size_t t = 0; t < model.textures.size(); ++t) {
    const assets::Texture& texture = model.textures[t];
    if (texture.width <= 0 || texture.height <= 0 ||
        texture.rgba.size() != static_cast<size_t>(texture.width) * texture.height * 4) {
      *error = "texture " + std::to_string(t) + " '" + texture.name +
               "': " + std::to_string(texture.rgba.size()) + " bytes for " +
               std::to_string(texture.width) + "x" + std::to_string(texture.height) + " RGBA";
      return std::nullopt;
    }
  }

  size_t blend_rows = 0;  // rows of the blend framebuffer the largest mesh with targets needs
  const int row_texels = std::max(2, MorphRowTexels());
  for (const assets::Mesh& mesh : model.meshes) {
    if (mesh.targets.empty()) continue;
    blend_rows = std::max<size_t>(
        {blend_rows, 1, (mesh.positions.size() * 2 + size_t(row_texels) - 1) / size_t(row_texels)});
  }
  if (blend_rows > 0 && !gpu.CreateMorphBlend(row_texels, blend_rows, error)) return std::nullopt;
  int offset = 0;
  for (const assets::Mesh& mesh : model.meshes) {
    gpu.meshes_.push_back(UploadMesh(mesh));
    gpu.meshes_.back().palette_offset = offset;
    UploadMorphTargets(mesh, &gpu.meshes_.back());
    offset += static_cast<int>(mesh.bone_joints.size());
  }
  for (const assets::Texture& texture : model.textures)
    gpu.textures_.push_back(UploadTexture(texture));
  for (const assets::Material& material : model.materials) {
    GpuMaterial m;
    m.base_color = material.base_color;
    m.texture = material.base_color_texture >= 0 &&
                        material.base_color_texture < static_cast<int>(model.textures.size())
                    ? material.base_color_texture
                    : -1;
    gpu.materials_.push_back(m);
  }
  for (GpuMesh& mesh : gpu.meshes_)
    if (mesh.material >= static_cast<int>(gpu.materials_.size())) mesh.material = -1;

  gpu.palette_.assign(palette_size, glm::mat4(1.0f));
  gpu.palette_buffer_ = MakeBuffer();
  gpu.palette_texture_ = MakeTexture();
  glBindBuffer(GL_TEXTURE_BUFFER, gpu.palette_buffer_.id());
  // Never zero-sized: a texture buffer over an empty store is incomplete on some drivers.
  glBufferData(GL_TEXTURE_BUFFER,
               static_cast<GLsizeiptr>(std::max<size_t>(palette_size, 1) * sizeof(glm::mat4)),
               nullptr, GL_DYNAMIC_DRAW);
  glBindTexture(GL_TEXTURE_BUFFER, gpu.palette_texture_.id());
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, gpu.palette_buffer_.id());
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  gpu.UpdatePose(model.skeleton.rest_models());
  gpu.UpdateMorphWeights(assets::DefaultMorphWeights(model));
  return gpu;
}

bool GpuModel::CreateMorphBlend(int row_texels, size_t rows, std::string* error) {
  GLint max_rows = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_rows);
  if (rows > static_cast<size_t>(max_rows)) {
    *error = "a mesh's blend shapes need a " + std::to_string(row_texels) + " x " +
             std::to_string(rows) + " float framebuffer, more than this GPU renders to (" +
             std::to_string(max_rows) + " rows)";
    return false;
  }
  std::optional<Program> blend =
      Program::FromFiles({"morph_blend.vert", "", "morph_blend.frag", {}}, error);
  if (!blend) return false;
  morph_blend_ = std::move(*blend);
  morph_active_uniform_ = morph_blend_.Uniform("u_morph_active");
  morph_count_uniform_ = morph_blend_.Uniform("u_morph_count");
  morph_texels_uniform_ = morph_blend_.Uniform("u_morph_texels");
  morph_add_base_uniform_ = morph_blend_.Uniform("u_add_base");
  morph_blend_.Use();
  glUniform1i(morph_blend_.Uniform("u_morph_deltas"), 0);
  glUniform1i(morph_blend_.Uniform("u_row_texels"), row_texels);
  glUseProgram(0);
  morph_row_texels_ = row_texels;
  morph_vertex_array_ = MakeVertexArray();
  morph_renderbuffer_ = MakeRenderbuffer();
  glBindRenderbuffer(GL_RENDERBUFFER, morph_renderbuffer_.id());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA32F, row_texels, static_cast<GLsizei>(rows));
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  morph_framebuffer_ = MakeFramebuffer();
  GLint previous = 0;
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
  glBindFramebuffer(GL_FRAMEBUFFER, morph_framebuffer_.id());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                            morph_renderbuffer_.id());
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous));
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    *error = "the blend-shape pass's RGBA32F framebuffer is incomplete (status " +
             std::to_string(status) + ")";
    return false;
  }
  return true;
}

void GpuModel::UpdateMorphWeights(const assets::MorphWeights& weights) {
  std::optional<SavedBlendState> saved;
  std::vector<glm::vec2>& active = morph_active_scratch_;  // kept: an idle frame allocates nothing
  for (size_t m = 0; m < meshes_.size(); ++m) {
    GpuMesh& mesh = meshes_[m];
    if (mesh.target_count == 0) continue;
    active.clear();
    const size_t given = m < weights.size() ? weights[m].size() : 0;
    for (size_t t = 0; t < std::min(given, static_cast<size_t>(mesh.target_count)); ++t) {
      const float w = weights[m][t];
      if (w != 0.0f && std::isfinite(w)) active.emplace_back(static_cast<float>(t), w);
    }
    if (mesh.morph_blended && active == mesh.morph_active) continue;
    mesh.morph_active = active;
    mesh.morph_active_count = static_cast<int>(active.size());
    mesh.morph_blended = true;
    if (mesh.vertex_count == 0) continue;
    if (!saved) {
      saved.emplace();
      glBindFramebuffer(GL_FRAMEBUFFER, morph_framebuffer_.id());
      morph_blend_.Use();
      glBindVertexArray(morph_vertex_array_.id());
      glActiveTexture(GL_TEXTURE0);
    }
    BlendMorphTargets(mesh);
  }
  if (!saved) return;
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glUseProgram(0);
}

void GpuModel::BlendMorphTargets(const GpuMesh& mesh) {
  const size_t count = mesh.morph_active.size();
  const size_t passes =
      std::max<size_t>(1, (count + kMorphEntriesPerPass - 1) / kMorphEntriesPerPass);
  const GLsizei texels = 2 * mesh.vertex_count;
  const GLsizei full_rows = texels / morph_row_texels_;
  const GLsizei rest = texels - full_rows * morph_row_texels_;  // texels in a last, short row
  glViewport(0, 0, morph_row_texels_, full_rows + (rest > 0 ? 1 : 0));
  glBindTexture(GL_TEXTURE_BUFFER, mesh.morph_delta_texture.id());
  glUniform1i(morph_texels_uniform_, texels);
  // The first pass writes the unblended vertex plus its share of the targets; the later ones add
  // theirs by blending (float sums in an RGBA32F buffer).
  for (size_t p = 0; p < passes; ++p) {
    const size_t first = p * kMorphEntriesPerPass;
    const size_t entries = std::min<size_t>(kMorphEntriesPerPass, count - std::min(count, first));
    if (entries > 0) {
      // (index, weight) entries, two per vec4; an odd count leaves the last half (0, 0).
      float pairs[2 * kMorphEntriesPerPass] = {};
      for (size_t e = 0; e < entries; ++e) {
        pairs[2 * e] = mesh.morph_active[first + e].x;
        pairs[2 * e + 1] = mesh.morph_active[first + e].y;
      }
      glUniform4fv(morph_active_uniform_, static_cast<GLsizei>((entries + 1) / 2), pairs);
    }
    glUniform1i(morph_count_uniform_, static_cast<GLint>(entries));
    glUniform1i(morph_add_base_uniform_, p == 0 ? 1 : 0);
    if (p == 1) {
      glEnable(GL_BLEND);
      glBlendEquation(GL_FUNC_ADD);
      glBlendFunc(GL_ONE, GL_ONE);
    }
    glDrawArrays(GL_TRIANGLES, 0, 3);
  }
  if (passes > 1) glDisable(GL_BLEND);
  // Read back as RGB floats: texel i lands at byte 12 i, so vertex v's position at 24 v and its
  // normal at 24 v + 12, the layout of morphed_buffer.
  glBindBuffer(GL_PIXEL_PACK_BUFFER, mesh.morphed_buffer.id());
  if (full_rows > 0) glReadPixels(0, 0, morph_row_texels_, full_rows, GL_RGB, GL_FLOAT, nullptr);
  if (rest > 0) {
    const size_t offset = size_t(full_rows) * size_t(morph_row_texels_) * sizeof(glm::vec3);
    glReadPixels(0, full_rows, rest, 1, GL_RGB, GL_FLOAT, reinterpret_cast<void*>(offset));
  }
}

bool GpuModel::UpdatePose(const std::vector<glm::mat4>& joint_models) {
  if (static_cast<int>(joint_models.size()) < joint_count_) return false;
  size_t offset = 0;
  for (const GpuMesh& mesh : meshes_) {
    ik::SkinPalette(ik::MakeSkinBones(joint_models, mesh.bone_joints, mesh.bone_inverse_binds),
                    palette_.data() + offset);
    offset += mesh.bone_joints.size();
  }
  if (palette_.empty()) return true;
  glBindBuffer(GL_TEXTURE_BUFFER, palette_buffer_.id());
  // glm::mat4 is 16 column-major floats: exactly the four column texels the shader fetches.
  glBufferSubData(GL_TEXTURE_BUFFER, 0,
                  static_cast<GLsizeiptr>(palette_.size() * sizeof(glm::mat4)), palette_.data());
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  return true;
}

}  // namespace renderer
