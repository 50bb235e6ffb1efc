// Renderer: the programs and streaming buffers that draw a frame — background, skinned models,
// ground grid, debug lines and shapes — and read skinned vertices back from the GPU. Holds no
// scene: every call gets what to draw and the View to draw it from.
//
// One frame:
//   renderer.BeginFrame(view);                      // viewport, clear, background gradient
//   gpu_model.UpdatePose(joint_models);             // palettes of this frame's pose
//   renderer.DrawModel(gpu_model, view);
//   renderer.DrawGrid(view, grid);                  // after opaque geometry: it blends
//   renderer.DrawLines(lines, view, DepthMode::kHiddenDimmed);
//   renderer.DrawShapes(handles, view, DepthMode::kOnTop);
#pragma once

#include <glm/glm.hpp>
#include <optional>
#include <string>
#include <vector>

#include "renderer/debug_geometry.h"
#include "renderer/gl_object.h"
#include "renderer/gpu_model.h"
#include "renderer/grid.h"
#include "renderer/shader.h"
#include "renderer/view.h"

namespace renderer {

// How debug geometry relates to the depth of what is already drawn.
enum class DepthMode {
  kTested,        // hidden behind surfaces like ordinary geometry
  kOnTop,         // always visible (x-ray), drawn over everything
  kHiddenDimmed,  // visible parts as given, hidden parts at a third of their opacity
  // Shapes only: solids (bones) that hide their own far faces. kSolid is depth-tested and writes
  // depth like ordinary geometry; kSolidOnTop is drawn over everything drawn before it (x-ray)
  // while still hiding itself, and hides what is drawn after it.
  kSolid,
  kSolidOnTop,
};

struct Background {
  glm::vec3 top{0.24f, 0.26f, 0.3f};
  glm::vec3 bottom{0.1f, 0.105f, 0.115f};
};

// The colours of the weight views (shaders/skinned.vert gets them as uniforms), for keys and
// legends: the influence-count view's by count (0 = unweighted, 8 = eight), and the problem view's
// by assets::WeightProblem (unweighted, not summing to 1, more than eight).
constexpr glm::vec3 kInfluenceColors[9] = {
    {1.0f, 0.0f, 1.0f},   {0.12f, 0.3f, 0.95f},  {0.05f, 0.8f, 0.9f},
    {0.15f, 0.8f, 0.2f},  {0.95f, 0.88f, 0.1f},  {1.0f, 0.55f, 0.05f},
    {0.95f, 0.3f, 0.05f}, {0.85f, 0.05f, 0.05f}, {0.55f, 0.0f, 0.2f}};
constexpr glm::vec3 kProblemColors[3] = {
    {1.0f, 0.0f, 1.0f}, {1.0f, 0.85f, 0.0f}, {1.0f, 0.1f, 0.05f}};

struct ModelStyle {
  glm::vec4 tint{1.0f};  // multiplies every material's base colour
  // Below 1 the model is ghosted: only its nearest surface, blended over what is behind it
  // (draw the grid and other opaque things first).
  float opacity = 1.0f;
  bool textures = true;    // false: base colours only
  bool wireframe = false;  // edges only, 1 px
  // Skeleton joint whose skin weights are shown as a blue-to-red heat map; -1 for none.
  int weight_joint = -1;
  // Each vertex coloured by how many joints move it with a non-zero weight: 1 blue, 2 cyan,
  // 3 green, 4 yellow, 5 orange, 6 red-orange, 7 red, 8 crimson; unweighted vertices magenta.
  // Wins over weight_joint.
  bool influences = false;
  // The weight problems the importer found (assets::Mesh::weight_flags) bright on a grey body:
  // unweighted magenta, more than 8 influences red, weights not summing to 1 yellow. Wins over
  // both views above.
  bool weight_problems = false;
};

// Skinned vertices read back from the GPU, per mesh of the model in order.
struct SkinnedMeshes {
  std::vector<std::vector<glm::vec3>> positions;  // world (model) space
  std::vector<std::vector<glm::vec3>> normals;    // unit length (zero where the skin collapses)
};

class Renderer {
 public:
  // Compiles every program. Needs a current context after LoadGl; fails (nullopt, the shader's
  // file:line message in *error) when a shader does not compile or link.
  static std::optional<Renderer> Create(std::string* error);

  // Sets the viewport to view.viewport, clears colour and depth, and paints the background.
  // Draws into whatever framebuffer is bound (the window, or an OffscreenTarget after Bind()).
  void BeginFrame(const View& view, const Background& background = {});

  // Draws every mesh with the model's current palette (GpuModel::UpdatePose). Depth-tested,
  // both faces lit.
  void DrawModel(const GpuModel& model, const View& view, const ModelStyle& style = {});

  // The ground grid on y = 0, depth-tested, blended, not writing depth.
  void DrawGrid(const View& view, const GridParams& grid);

  void DrawLines(const DebugLines& lines, const View& view, DepthMode mode = DepthMode::kTested);
  void DrawShapes(const DebugShapes& shapes, const View& view, DepthMode mode = DepthMode::kOnTop);

  // Skins every vertex of `model` with its current palette through transform feedback (the same
  // skinning.glsl as DrawModel) and reads the results back. Fails (false, reason in *error) only
  // when GL reports an error.
  bool SkinOnGpu(const GpuModel& model, SkinnedMeshes* out, std::string* error);

 private:
  Renderer() = default;  // only Create makes one: a renderer always has its programs

  struct ModelProgram {
    Program program;
    GLint view_projection, eye, key_direction, base_color, opacity, weight_view, weight_bone,
        palette_offset, extra_influences, palette, base_texture;
  };
  struct CaptureProgram {
    Program program;
    GLint palette_offset, extra_influences, palette;
  };
  struct ColorProgram {  // lines and shapes
    Program program;
    GLint view_projection, viewport, alpha_scale;
  };
  struct GridProgram {
    Program program;
    GLint view_projection, center, extent, cell, major_every, minor_color, major_color,
        x_axis_color, z_axis_color;
  };
  struct BackgroundProgram {
    Program program;
    GLint top, bottom;
  };

  void DrawColored(const ColorProgram& program, const VertexArray& vertex_array, GLenum primitive,
                   GLsizei count, const View& view, DepthMode mode);

  ModelProgram model_;
  CaptureProgram capture_;
  ColorProgram lines_;
  ColorProgram shapes_;
  GridProgram grid_;
  BackgroundProgram background_;
  Texture white_texture_;       // bound when a material has no texture
  VertexArray empty_vertices_;  // core profiles draw nothing without a vertex array bound
  VertexArray line_vertices_;
  Buffer line_buffer_;
  VertexArray shape_vertices_;
  Buffer shape_buffer_;
  Buffer capture_buffer_;
};

// Convenience for `skelview pose --skinning gpu`: uploads `model`, poses it with `joint_models`
// (one model-space matrix per joint), skins on the GPU and reads back. Needs a current context
// after LoadGl. Fails (nullopt, reason in *error) as GpuModel::Create, Renderer::Create,
// UpdatePose (too few matrices) or SkinOnGpu do.
// Morph targets blend with `morph_weights` (indexed like model.meshes), or each mesh's defaults
// when null.
std::optional<SkinnedMeshes> SkinOnGpu(const assets::Model& model,
                                       const std::vector<glm::mat4>& joint_models,
                                       std::string* error,
                                       const assets::MorphWeights* morph_weights = nullptr);

}  // namespace renderer
