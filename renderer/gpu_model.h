// GpuModel: an assets::Model uploaded for drawing — one vertex array per mesh, the textures, the
// materials — plus the skin palettes of the current pose in one texture buffer, four RGBA32F
// texels per matrix, so rigs of any joint count skin on the GPU.
#pragma once

#include <glm/glm.hpp>
#include <optional>
#include <string>
#include <vector>

#include "assets/model/model.h"
#include "assets/model/morph.h"
#include "renderer/gl_object.h"
#include "renderer/shader.h"

namespace renderer {

struct GpuMesh {
  std::string name;
  VertexArray vertex_array;  // attributes at the attrib:: locations, index buffer bound
  Buffer vertex_buffer;
  Buffer index_buffer;
  GLsizei vertex_count = 0;
  GLsizei index_count = 0;       // a multiple of 3
  int palette_offset = 0;        // index of this mesh's first matrix in the palette buffer
  std::vector<int> bone_joints;  // as assets::Mesh::bone_joints
  std::vector<glm::mat4> bone_inverse_binds;  // as assets::Mesh::bone_inverse_binds
  int material = -1;                          // index into GpuModel::materials(), -1: default
  bool extra_influences = false;  // influences five to eight bound at attrib::kExtraJoints/Weights
  bool weight_flags = false;      // assets::Mesh::weight_flags bound at attrib::kWeightFlags
  // Morph targets (see shaders/morph_blend.frag): the unblended vertices and the deltas in a
  // texture buffer, and the blended bind-time vertices (position, normal interleaved) that
  // vertex_array reads as its positions and normals.
  // Blending runs once per change of weights, so a draw costs the same with targets as without.
  // No buffers for a mesh without targets; its vertex_array reads vertex_buffer.
  int target_count = 0;
  Buffer morph_delta_buffer;
  Texture morph_delta_texture;
  Buffer morphed_buffer;
  std::vector<glm::vec2> morph_active;  // the (index, weight) pairs morphed_buffer was blended with
  int morph_active_count = 0;           // morph_active.size()
  bool morph_blended = false;           // morphed_buffer holds a blend
};

struct GpuMaterial {
  glm::vec4 base_color{0.8f, 0.8f, 0.8f, 1.0f};
  int texture = -1;  // index into GpuModel::textures(), -1: none
};

class GpuModel {
 public:
  GpuModel() = default;

  // Uploads the meshes, textures and materials and sets the palette to the skeleton's rest pose.
  // Needs a current context after LoadGl. Fails (nullopt, reason in *error) when a mesh's morph
  // deltas exceed GL_MAX_TEXTURE_BUFFER_SIZE, a mesh's attribute arrays have different lengths,
  // an index points past its mesh's vertices, a joint index past its mesh's bones, a bone names a
  // joint the skeleton lacks, a texture's byte count does not match its size, the palette exceeds
  // GL_MAX_TEXTURE_BUFFER_SIZE, or the blend-shape program does not build. A model without
  // meshes is valid: it uploads nothing and draws nothing (draw its skeleton with DebugLines).
  // Texture coordinates: (0, 0) is the first (top) row of the image, as in glTF.
  static std::optional<GpuModel> Create(const assets::Model& model, std::string* error);

  // Computes palette[b] = joint_models[bone_joints[b]] · bone_inverse_binds[b] for every mesh and
  // uploads it. `joint_models` are model-space joint matrices (ik::LocalToModel), one per
  // skeleton joint. Returns false and keeps the previous palette when there are fewer than that.
  bool UpdatePose(const std::vector<glm::mat4>& joint_models);

  // Sets the morph-target weights the next draws blend with: weights[m] for mesh m (one per
  // target; missing, short or non-finite entries count as 0). Create sets each mesh's defaults
  // (assets::Mesh::target_weights). Meshes without targets ignore theirs. A mesh whose non-zero
  // weights changed is blended again on the GPU (a pass into a float framebuffer, read back into
  // the mesh's vertex buffer); the others cost nothing, so calling this every frame is cheap. A
  // blend leaves no program, vertex array or texture bound on unit 0 and sets the active texture
  // unit to 0; it restores the framebuffers, viewport and the enables it changes.
  void UpdateMorphWeights(const assets::MorphWeights& weights);

  int joint_count() const { return joint_count_; }
  const std::vector<GpuMesh>& meshes() const { return meshes_; }
  const std::vector<GpuMaterial>& materials() const { return materials_; }
  const std::vector<Texture>& textures() const { return textures_; }
  // GL_TEXTURE_BUFFER texture over the palette (bind it to a samplerBuffer).
  GLuint palette_texture() const { return palette_texture_.id(); }
  // The palette as last uploaded, all meshes back to back (see GpuMesh::palette_offset).
  const std::vector<glm::mat4>& palette() const { return palette_; }

 private:
  // Compiles the blend pass and makes its framebuffer, row_texels × rows texels; false with the
  // reason in *error when the driver cannot.
  bool CreateMorphBlend(int row_texels, size_t rows, std::string* error);
  // One mesh's blend of mesh.morph_active into its morphed_buffer, in as many passes as it
  // takes; the blend program in use, its framebuffer bound and texture unit 0 active.
  void BlendMorphTargets(const GpuMesh& mesh);

  int joint_count_ = 0;
  std::vector<GpuMesh> meshes_;
  std::vector<GpuMaterial> materials_;
  std::vector<Texture> textures_;
  // The blend pass (shaders/morph_blend.*) and where it draws: an RGBA32F renderbuffer of
  // morph_row_texels_ columns, two texels per vertex, rows enough for the largest mesh with
  // targets. Made only for a model with morph targets.
  Program morph_blend_;
  GLint morph_active_uniform_ = -1;
  GLint morph_count_uniform_ = -1;
  GLint morph_texels_uniform_ = -1;
  GLint morph_add_base_uniform_ = -1;
  int morph_row_texels_ = 0;
  Framebuffer morph_framebuffer_;
  Renderbuffer morph_renderbuffer_;
  VertexArray morph_vertex_array_;  // none of its attributes enabled: core profiles need one bound
  std::vector<glm::vec2> morph_active_scratch_;  // UpdateMorphWeights' list before comparing
  Buffer palette_buffer_;
  Texture palette_texture_;
  std::vector<glm::mat4> palette_;
};

}  // namespace renderer
