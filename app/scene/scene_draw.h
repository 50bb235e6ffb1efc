// Drawing one frame of the scene — background, skinned model, grid, skeleton and IK overlays —
// shared by the viewer, the F12 screenshot and `skelview render`, so all three show the same.
#pragma once

#include <vector>

#include "app/core/evaluate.h"
#include "app/scene/camera.h"
#include "assets/model.h"
#include "renderer/renderer.h"

namespace app {

// What to show; the viewer's toggles.
struct SceneOptions {
  bool mesh = true;
  bool grid = true;
  bool skeleton = false;      // bones as lines
  bool skeleton_xray = true;  // bones on top of the mesh
  bool joint_axes = false;  // each joint's local axes (red, green, blue) from the posed transforms
  bool ik_overlay = true;   // per chain: target, knee circle, knee before/after, pole
  bool reach_shell = false;  // per chain: spheres of radius |ℓ_ab−ℓ_bc| and ℓ_ab+ℓ_bc about the hip
  bool joint_limits = true;  // hinge arcs and cones of the joints that have limits
  float mesh_opacity = 1.0f;
  int selected_joint = -1;  // highlighted when >= 0
};

// How big a model is and where it stands, measured once per model (it skins the rest pose):
// the size scales overlays and the grid, the centre places the grid.
struct SceneExtent {
  float size = 1.0f;  // bounding-box diagonal of the rest pose, at least a small positive number
  glm::vec3 center{0.0f};
};
SceneExtent MeasureModel(const assets::Model& model);

// Builds the debug geometry of the overlays for the pose in `state` into `lines` (world-space
// segments; depth-tested, drawn dimmed where hidden) and `xray_lines` (always on top).
void BuildOverlays(const assets::Model& model, const ConstraintRequests& requests,
                   const PoseState& state, const SceneOptions& options, float model_size,
                   renderer::DebugLines* lines, renderer::DebugLines* xray_lines);

// Draws a complete frame into the bound framebuffer. `gpu_model` must already hold the palette
// of `state` (GpuModel::UpdatePose).
void DrawScene(renderer::Renderer& renderer, const renderer::GpuModel& gpu_model,
               const assets::Model& model, const SceneExtent& extent,
               const ConstraintRequests& requests, const PoseState& state,
               const SceneOptions& options, const renderer::View& view,
               renderer::DebugLines* scratch_lines, renderer::DebugLines* scratch_xray);

// A camera framing the model's posed bounds from a three-quarter front view.
OrbitCamera DefaultCamera(const assets::Model& model, const std::vector<glm::mat4>& models,
                          float aspect);

}  // namespace app
