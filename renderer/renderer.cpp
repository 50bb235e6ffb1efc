// Drawing a frame: programs, GL state per pass, streaming debug geometry, transform-feedback
// read-back of skinned vertices.
#include "renderer/renderer.h"

#include <algorithm>
#include <cstddef>
#include <glm/gtc/type_ptr.hpp>

#include "renderer/vertex_layout.h"

namespace renderer {

namespace {

constexpr GLint kBaseTextureUnit = 0;
constexpr GLint kPaletteUnit = 1;
// Opacity of the hidden parts of DepthMode::kHiddenDimmed geometry.
constexpr float kHiddenAlpha = 0.33f;
// The slice of the depth range kSolidOnTop draws into, in front of everything else.
constexpr double kOnTopDepthRange = 1.0 / 512.0;
// Key light, fixed to the camera (up, left, in front) so a model reads well from any orbit.
constexpr glm::vec3 kKeyDirectionEye{-0.45f, 0.75f, 0.5f};

void SetMatrix(GLint location, const glm::mat4& m) {
  glUniformMatrix4fv(location, 1, GL_FALSE, glm::value_ptr(m));
}

void SetViewport(GLint location, const View& view) {
  glUniform2f(location, static_cast<float>(std::max(view.viewport.x, 1)),
              static_cast<float>(std::max(view.viewport.y, 1)));
}

// The baseline every draw call leaves behind: depth test and writes on, no blending, filled
// polygons, no culling.
void RestoreDefaultState() {
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_TRUE);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glDisable(GL_BLEND);
  glDisable(GL_CULL_FACE);
  glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  glBindVertexArray(0);
}

void EnableAlphaBlending() {
  glEnable(GL_BLEND);
  // Separate alpha so that blending into an offscreen target keeps its alpha opaque.
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
}

void FloatPointer(GLuint location, GLint size, GLsizei stride, size_t offset) {
  glEnableVertexAttribArray(location);
  glVertexAttribPointer(location, size, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offset));
}

template <typename T>
void Upload(GLuint buffer, const std::vector<T>& data) {
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  // Re-specifying the store each frame lets the driver hand out fresh memory instead of waiting.
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.size() * sizeof(T)), data.data(),
               GL_STREAM_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

}  // namespace

std::optional<Renderer> Renderer::Create(std::string* error) {
  Renderer r;
  {
    std::optional<Program> p = Program::FromFiles({"skinned.vert", "", "lit.frag", {}}, error);
    if (!p) return std::nullopt;
    ModelProgram& m = r.model_;
    m.program = std::move(*p);
    m.view_projection = m.program.Uniform("u_view_projection");
    m.eye = m.program.Uniform("u_eye_world");
    m.key_direction = m.program.Uniform("u_key_direction");
    m.base_color = m.program.Uniform("u_base_color");
    m.opacity = m.program.Uniform("u_opacity");
    m.weight_view = m.program.Uniform("u_weight_view");
    m.weight_bone = m.program.Uniform("u_weight_bone");
    m.palette_offset = m.program.Uniform("u_palette_offset");
    m.extra_influences = m.program.Uniform("u_extra_influences");
    m.palette = m.program.Uniform("u_palette");
    m.base_texture = m.program.Uniform("u_base_texture");
    m.program.Use();
    glUniform1i(m.palette, kPaletteUnit);
    glUniform1i(m.base_texture, kBaseTextureUnit);
    glUniform3fv(m.program.Uniform("u_influence_colors"), 9, &kInfluenceColors[0].x);
    glUniform3fv(m.program.Uniform("u_problem_colors"), 3, &kProblemColors[0].x);
  }
  {
    std::optional<Program> p = Program::FromFiles(
        {"skin_capture.vert", "", "", {"v_position_world", "v_normal_world"}}, error);
    if (!p) return std::nullopt;
    CaptureProgram& c = r.capture_;
    c.program = std::move(*p);
    c.palette_offset = c.program.Uniform("u_palette_offset");
    c.extra_influences = c.program.Uniform("u_extra_influences");
    c.palette = c.program.Uniform("u_palette");
    c.program.Use();
    glUniform1i(c.palette, kPaletteUnit);
  }
  auto color_program = [&](const char* vertex, const char* geometry, const char* fragment,
                           ColorProgram* out) -> bool {
    std::optional<Program> p = Program::FromFiles({vertex, geometry, fragment, {}}, error);
    if (!p) return false;
    out->program = std::move(*p);
    out->view_projection = out->program.Uniform("u_view_projection");
    out->viewport = out->program.Uniform("u_viewport");
    out->alpha_scale = out->program.Uniform("u_alpha_scale");
    return true;
  };
  if (!color_program("line.vert", "line.geom", "line.frag", &r.lines_)) return std::nullopt;
  if (!color_program("shape.vert", "", "color.frag", &r.shapes_)) return std::nullopt;
  {
    std::optional<Program> p = Program::FromFiles({"grid.vert", "", "grid.frag", {}}, error);
    if (!p) return std::nullopt;
    GridProgram& g = r.grid_;
    g.program = std::move(*p);
    g.view_projection = g.program.Uniform("u_view_projection");
    g.center = g.program.Uniform("u_center");
    g.extent = g.program.Uniform("u_extent");
    g.cell = g.program.Uniform("u_cell");
    g.major_every = g.program.Uniform("u_major_every");
    g.minor_color = g.program.Uniform("u_minor_color");
    g.major_color = g.program.Uniform("u_major_color");
    g.x_axis_color = g.program.Uniform("u_x_axis_color");
    g.z_axis_color = g.program.Uniform("u_z_axis_color");
  }
  {
    std::optional<Program> p =
        Program::FromFiles({"background.vert", "", "background.frag", {}}, error);
    if (!p) return std::nullopt;
    r.background_.program = std::move(*p);
    r.background_.top = r.background_.program.Uniform("u_top_color");
    r.background_.bottom = r.background_.program.Uniform("u_bottom_color");
  }
  glUseProgram(0);

  r.white_texture_ = MakeTexture();
  const unsigned char white[4] = {255, 255, 255, 255};
  glBindTexture(GL_TEXTURE_2D, r.white_texture_.id());
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, white);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);

  r.empty_vertices_ = MakeVertexArray();

  r.line_buffer_ = MakeBuffer();
  r.line_vertices_ = MakeVertexArray();
  glBindVertexArray(r.line_vertices_.id());
  glBindBuffer(GL_ARRAY_BUFFER, r.line_buffer_.id());
  constexpr GLsizei kLineStride = sizeof(LineVertex);
  FloatPointer(attrib::kPosition, 3, kLineStride, offsetof(LineVertex, position));
  FloatPointer(attrib::kColor, 4, kLineStride, offsetof(LineVertex, color));
  FloatPointer(attrib::kWidth, 1, kLineStride, offsetof(LineVertex, width));

  r.shape_buffer_ = MakeBuffer();
  r.shape_vertices_ = MakeVertexArray();
  glBindVertexArray(r.shape_vertices_.id());
  glBindBuffer(GL_ARRAY_BUFFER, r.shape_buffer_.id());
  constexpr GLsizei kShapeStride = sizeof(ShapeVertex);
  FloatPointer(attrib::kPosition, 3, kShapeStride, offsetof(ShapeVertex, position));
  FloatPointer(attrib::kAxis, 3, kShapeStride, offsetof(ShapeVertex, axis));
  FloatPointer(attrib::kOffset, 2, kShapeStride, offsetof(ShapeVertex, offset));
  FloatPointer(attrib::kColor, 4, kShapeStride, offsetof(ShapeVertex, color));
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);

  r.capture_buffer_ = MakeBuffer();
  RestoreDefaultState();
  return r;
}

void Renderer::BeginFrame(const View& view, const Background& background) {
  glViewport(0, 0, std::max(view.viewport.x, 1), std::max(view.viewport.y, 1));
  RestoreDefaultState();  // clearing obeys the depth and colour write masks
  glClearColor(background.bottom.r, background.bottom.g, background.bottom.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glDisable(GL_DEPTH_TEST);
  background_.program.Use();
  glUniform3fv(background_.top, 1, glm::value_ptr(background.top));
  glUniform3fv(background_.bottom, 1, glm::value_ptr(background.bottom));
  glBindVertexArray(empty_vertices_.id());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  RestoreDefaultState();
}

void Renderer::DrawModel(const GpuModel& model, const View& view, const ModelStyle& style) {
  if (model.meshes().empty()) return;
  const ModelProgram& m = model_;
  m.program.Use();
  SetMatrix(m.view_projection, view.ViewProjection());
  const glm::mat4 eye_to_world = glm::inverse(view.view);
  glUniform3fv(m.eye, 1, glm::value_ptr(glm::vec3(eye_to_world[3])));
  const glm::vec3 key = glm::normalize(glm::mat3(eye_to_world) * kKeyDirectionEye);
  glUniform3fv(m.key_direction, 1, glm::value_ptr(key));
  glUniform1f(m.opacity, style.opacity);
  // 0 material colours, 1 the joint's heat map, 2 influence counts, 3 weight problems.
  const int weight_view = style.weight_problems     ? 3
                          : style.influences        ? 2
                          : style.weight_joint >= 0 ? 1
                                                    : 0;
  glUniform1i(m.weight_view, weight_view);
  // Meshes without weight flags read the attribute's constant value: no problems.
  glVertexAttribI4ui(attrib::kWeightFlags, 0, 0, 0, 0);
  glActiveTexture(GL_TEXTURE0 + kPaletteUnit);
  glBindTexture(GL_TEXTURE_BUFFER, model.palette_texture());

  auto draw_meshes = [&] {
    for (const GpuMesh& mesh : model.meshes()) {
      if (mesh.index_count == 0) continue;
      GpuMaterial material;
      if (mesh.material >= 0) material = model.materials()[mesh.material];
      glUniform4fv(m.base_color, 1, glm::value_ptr(material.base_color * style.tint));
      glActiveTexture(GL_TEXTURE0 + kBaseTextureUnit);
      glBindTexture(GL_TEXTURE_2D, style.textures && material.texture >= 0
                                       ? model.textures()[material.texture].id()
                                       : white_texture_.id());
      glUniform1i(m.palette_offset, mesh.palette_offset);
      glUniform1i(m.extra_influences, mesh.extra_influences ? 1 : 0);
      int weight_bone = -1;
      for (size_t b = 0; b < mesh.bone_joints.size() && style.weight_joint >= 0; ++b) {
        if (mesh.bone_joints[b] == style.weight_joint) {
          weight_bone = static_cast<int>(b);
          break;
        }
      }
      glUniform1i(m.weight_bone, weight_bone);
      glBindVertexArray(mesh.vertex_array.id());
      glDrawElements(GL_TRIANGLES, mesh.index_count, GL_UNSIGNED_INT, nullptr);
    }
  };

  if (style.wireframe) glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
  if (style.opacity >= 1.0f) {
    draw_meshes();
  } else {
    // Depth first, then colour where the depth matches: only the nearest surface blends, so the
    // ghost does not show its own inside.
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    draw_meshes();
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glDepthMask(GL_FALSE);
    EnableAlphaBlending();
    draw_meshes();
  }
  glActiveTexture(GL_TEXTURE0 + kPaletteUnit);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glActiveTexture(GL_TEXTURE0 + kBaseTextureUnit);
  glBindTexture(GL_TEXTURE_2D, 0);
  RestoreDefaultState();
}

void Renderer::DrawGrid(const View& view, const GridParams& grid) {
  if (!(grid.cell > 0.0f) || !(grid.extent > 0.0f)) return;
  const GridProgram& g = grid_;
  g.program.Use();
  SetMatrix(g.view_projection, view.ViewProjection());
  glUniform3fv(g.center, 1, glm::value_ptr(grid.center));
  glUniform1f(g.extent, grid.extent);
  glUniform1f(g.cell, grid.cell);
  glUniform1f(g.major_every, static_cast<float>(std::max(grid.major_every, 1)));
  glUniform4fv(g.minor_color, 1, glm::value_ptr(grid.minor_color));
  glUniform4fv(g.major_color, 1, glm::value_ptr(grid.major_color));
  glUniform4fv(g.x_axis_color, 1, glm::value_ptr(grid.x_axis_color));
  glUniform4fv(g.z_axis_color, 1, glm::value_ptr(grid.z_axis_color));
  glDepthMask(GL_FALSE);
  EnableAlphaBlending();
  glBindVertexArray(empty_vertices_.id());
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  RestoreDefaultState();
}

void Renderer::DrawColored(const ColorProgram& program, const VertexArray& vertex_array,
                           GLenum primitive, GLsizei count, const View& view, DepthMode mode) {
  program.program.Use();
  SetMatrix(program.view_projection, view.ViewProjection());
  SetViewport(program.viewport, view);
  EnableAlphaBlending();
  // Debug geometry never hides other debug geometry, except solids, which hide themselves.
  glDepthMask(mode == DepthMode::kSolid || mode == DepthMode::kSolidOnTop ? GL_TRUE : GL_FALSE);
  glBindVertexArray(vertex_array.id());
  switch (mode) {
    case DepthMode::kSolid:
      glUniform1f(program.alpha_scale, 1.0f);
      glDrawArrays(primitive, 0, count);
      break;
    case DepthMode::kSolidOnTop:
      // The solids' depths squeezed in front of everything drawn so far: they pass over it and
      // still sort among themselves.
      glDepthRange(0.0, kOnTopDepthRange);
      glUniform1f(program.alpha_scale, 1.0f);
      glDrawArrays(primitive, 0, count);
      glDepthRange(0.0, 1.0);
      break;
    case DepthMode::kTested:
      glUniform1f(program.alpha_scale, 1.0f);
      glDrawArrays(primitive, 0, count);
      break;
    case DepthMode::kOnTop:
      glDisable(GL_DEPTH_TEST);
      glUniform1f(program.alpha_scale, 1.0f);
      glDrawArrays(primitive, 0, count);
      break;
    case DepthMode::kHiddenDimmed:
      glDepthFunc(GL_GREATER);
      glUniform1f(program.alpha_scale, kHiddenAlpha);
      glDrawArrays(primitive, 0, count);
      glDepthFunc(GL_LEQUAL);
      glUniform1f(program.alpha_scale, 1.0f);
      glDrawArrays(primitive, 0, count);
      break;
  }
  RestoreDefaultState();
}

void Renderer::DrawLines(const DebugLines& lines, const View& view, DepthMode mode) {
  if (lines.empty()) return;
  Upload(line_buffer_.id(), lines.vertices());
  DrawColored(lines_, line_vertices_, GL_LINES, static_cast<GLsizei>(lines.vertices().size()), view,
              mode);
}

void Renderer::DrawShapes(const DebugShapes& shapes, const View& view, DepthMode mode) {
  if (shapes.empty()) return;
  Upload(shape_buffer_.id(), shapes.vertices());
  DrawColored(shapes_, shape_vertices_, GL_TRIANGLES,
              static_cast<GLsizei>(shapes.vertices().size()), view, mode);
}

bool Renderer::SkinOnGpu(const GpuModel& model, SkinnedMeshes* out, std::string* error) {
  TakeGlErrors();  // only report what this call causes
  out->positions.assign(model.meshes().size(), {});
  out->normals.assign(model.meshes().size(), {});
  capture_.program.Use();
  glActiveTexture(GL_TEXTURE0 + kPaletteUnit);
  glBindTexture(GL_TEXTURE_BUFFER, model.palette_texture());
  glEnable(GL_RASTERIZER_DISCARD);
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, capture_buffer_.id());
  std::vector<glm::vec3> captured;  // position, normal, position, normal, ...
  for (size_t i = 0; i < model.meshes().size(); ++i) {
    const GpuMesh& mesh = model.meshes()[i];
    if (mesh.vertex_count == 0) continue;
    const size_t floats = static_cast<size_t>(mesh.vertex_count) * 2;
    captured.resize(floats);
    const GLsizeiptr bytes = static_cast<GLsizeiptr>(floats * sizeof(glm::vec3));
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, bytes, nullptr, GL_STREAM_READ);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, capture_buffer_.id());
    glUniform1i(capture_.palette_offset, mesh.palette_offset);
    glUniform1i(capture_.extra_influences, mesh.extra_influences ? 1 : 0);
    glBindVertexArray(mesh.vertex_array.id());
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, mesh.vertex_count);
    glEndTransformFeedback();
    // Read before unbinding: glBindBufferBase also replaces the generic binding read here.
    glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bytes, captured.data());
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, capture_buffer_.id());
    std::vector<glm::vec3>& positions = out->positions[i];
    std::vector<glm::vec3>& normals = out->normals[i];
    positions.resize(mesh.vertex_count);
    normals.resize(mesh.vertex_count);
    for (GLsizei v = 0; v < mesh.vertex_count; ++v) {
      positions[v] = captured[2 * v];
      normals[v] = captured[2 * v + 1];
    }
  }
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
  glDisable(GL_RASTERIZER_DISCARD);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glActiveTexture(GL_TEXTURE0 + kBaseTextureUnit);
  RestoreDefaultState();
  const std::string gl_errors = TakeGlErrors();
  if (!gl_errors.empty()) {
    *error = "skinning on the GPU failed: " + gl_errors;
    return false;
  }
  return true;
}

std::optional<SkinnedMeshes> SkinOnGpu(const assets::Model& model,
                                       const std::vector<glm::mat4>& joint_models,
                                       std::string* error,
                                       const assets::MorphWeights* morph_weights) {
  std::optional<Renderer> renderer = Renderer::Create(error);
  if (!renderer) return std::nullopt;
  std::optional<GpuModel> gpu = GpuModel::Create(model, error);
  if (!gpu) return std::nullopt;
  if (!gpu->UpdatePose(joint_models)) {
    *error = "pose has " + std::to_string(joint_models.size()) + " joint matrices, the model " +
             std::to_string(gpu->joint_count()) + " joints";
    return std::nullopt;
  }
  if (morph_weights) gpu->UpdateMorphWeights(*morph_weights);
  SkinnedMeshes result;
  if (!renderer->SkinOnGpu(*gpu, &result, error)) return std::nullopt;
  return result;
}

}  // namespace renderer
