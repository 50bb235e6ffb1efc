// app/scene: what is drawn and how the view is controlled (camera, gizmo, picking); GL, no ImGui.
// Drawing one frame of the scene — background, skinned model, grid, skeleton and IK overlays, the
// ground and ladder — shared by the viewer, F12 screenshots and `skelview render`.
#pragma once

#include <vector>

#include "app/core/chain_edit.h"
#include "app/core/display_spec.h"
#include "app/core/evaluate.h"
#include "app/scene/anim_overlays.h"
#include "app/scene/bones.h"
#include "app/scene/camera.h"
#include "assets/model/model.h"
#include "assets/model/skinning.h"
#include "renderer/renderer.h"

namespace app {

// What to show; the viewer's toggles.
struct SceneOptions {
  bool mesh = true;
  bool grid = true;
  bool skeleton = false;      // solid bones
  bool skeleton_xray = true;  // bones on top of the mesh
  bool joint_axes = false;  // each joint's local axes (red, green, blue) from the posed transforms
  bool ik_overlay = true;   // per chain: target, knee circle, knee before/after, pole
  bool reach_shell = false;  // per chain: spheres of radius |ℓ_ab−ℓ_bc| and ℓ_ab+ℓ_bc about the hip
  bool joint_limits = true;  // hinge arcs and cones of the joints that have limits
  float mesh_opacity = 1.0f;
  int selected_joint = -1;  // highlighted when >= 0
  int weight_joint = -1;    // >= 0: the mesh shows this joint's skin weights (blue 0 → red 1)
  bool influences = false;  // the mesh coloured by how many joints move each vertex
  bool weight_problems = false;     // the mesh grey with its weight-problem vertices bright
  bool legend = false;              // a key to the marks drawn
  int onion_count = 0;              // ghosts of the pose on each side of the current time (0: none)
  int onion_step = 1;               // frames between ghosts
  int trail_joint = -1;             // >= 0: this joint's motion over the clip
  int active_chain = -1;            // the two-bone chain whose shells and knee circle are drawn
  bool all_chains = false;          // shells and knee circles of every chain
  bool axes_selected_only = false;  // joint axes of the selected joint only
  // World units the model is raised by (place on ground): the view passed to DrawScene already
  // carries it (LiftedView); the grid stays at world y = 0.
  float ground_lift = 0.0f;
};

// How big a model is, where it stands and what its bones are, measured once per model (it skins
// the rest pose): the size scales overlays and the grid, the centre places the grid.
struct SceneExtent {
  float size = 1.0f;  // bounding-box diagonal of the rest pose, at least a small positive number
  glm::vec3 center{0.0f};
  float ground_lift = 0.0f;      // GroundLift of the rest bounds
  std::vector<BoneClass> bones;  // per joint (ClassifyBones)
};
// `limbs` as ClassifyBones takes them.
SceneExtent MeasureModel(const assets::Model& model, const std::vector<ik::Limb>* limbs = nullptr);

// Place on ground: how far to raise the model (world units along +Y, negative lowers it) so that
// the lowest point of its rest pose `rest_bounds` stands on y = 0; 0 for empty bounds.
float GroundLift(const assets::Bounds& rest_bounds);
// A view matrix (world → camera) with the model raised by `lift`: model space → camera.
glm::mat4 LiftedView(const glm::mat4& view, float lift);

// A display as --show and settings.json name it, onto scene options (all but `handles`, which
// only the viewer draws): `weights` by name, weight_joint -1 when the skeleton has no such joint.
void ApplyDisplaySpec(const DisplaySpec& display, const ik::Skeleton& skeleton,
                      SceneOptions* options);
// The scene options as those names (`handles` left at its default).
DisplaySpec DisplaySpecOf(const SceneOptions& options, const ik::Skeleton& skeleton);

// The colours of the IK overlays' marks (linear RGBA), also shown by the legend.
namespace overlay_colors {
constexpr glm::vec4 kKneeCircle{0.98f, 0.85f, 0.2f, 0.85f};
constexpr glm::vec4 kKneeAfter{0.98f, 0.85f, 0.2f, 1.0f};
constexpr glm::vec4 kKneeBefore{0.7f, 0.7f, 0.7f, 1.0f};
constexpr glm::vec4 kSolvedLimb{1.0f, 0.55f, 0.1f, 1.0f};
constexpr glm::vec4 kTargetReached{0.3f, 0.82f, 0.25f, 1.0f};
constexpr glm::vec4 kTargetMissed{0.92f, 0.22f, 0.2f, 1.0f};
constexpr glm::vec4 kPole{0.9f, 0.3f, 0.85f, 1.0f};
constexpr glm::vec4 kReachShell{0.6f, 0.7f, 1.0f, 0.35f};
constexpr glm::vec4 kLimit{0.55f, 0.8f, 1.0f, 0.9f};
constexpr glm::vec4 kTwistLimit{1.0f, 0.7f, 0.9f, 0.8f};
constexpr glm::vec4 kFabrik{0.2f, 0.85f, 0.9f, 1.0f};
constexpr glm::vec4 kAim{0.9f, 0.3f, 0.85f, 1.0f};
}  // namespace overlay_colors

// The overlays' debug geometry of one frame, kept between frames so that building it again
// reuses the memory.
struct SceneOverlays {
  renderer::DebugLines lines;       // depth-tested, drawn dimmed where hidden (reach shells)
  renderer::DebugLines xray_lines;  // always on top
  renderer::DebugShapes bones;      // solid bones: over the mesh in x-ray, else depth-tested
  renderer::DebugShapes marks;      // pixel-sized marks on top of everything (knees, pole)
  renderer::DebugLines ghost_lines, trail_lines;  // DrawAnimationOverlays' scratch
  std::vector<BoneSegment> segments;
  void Clear();
};

// Builds the overlays for the pose in `state` into *out (cleared first).
void BuildOverlays(const assets::Model& model, const ConstraintRequests& requests,
                   const PoseState& state, const SceneOptions& options, const SceneExtent& extent,
                   SceneOverlays* out);

// Draws a complete frame into the bound framebuffer. `gpu_model` must already hold the palette
// of `state` (GpuModel::UpdatePose). `animation`: onion skins and trail, drawn under the overlays
// (optional).
void DrawScene(renderer::Renderer& renderer, const renderer::GpuModel& gpu_model,
               const assets::Model& model, const SceneExtent& extent,
               const ConstraintRequests& requests, const PoseState& state,
               const SceneOptions& options, const renderer::View& view, SceneOverlays* scratch,
               const AnimationOverlays* animation = nullptr);

// The ground plane and the ladder that targets hold on to: a translucent quad with its outline,
// 0.6 × model_size on each side of the ground's pivot, following its tilt; the rungs and their
// rails. `lines` and `shapes` are cleared first.
void BuildContactGeometry(const SceneContacts& contacts, float model_size,
                          renderer::DebugLines* lines, renderer::DebugShapes* shapes);
// Builds them and draws them into the bound framebuffer: the ground depth-tested, the lines dimmed
// where hidden.
void DrawContacts(renderer::Renderer& renderer, const SceneContacts& contacts, float model_size,
                  const renderer::View& view, renderer::DebugLines* scratch_lines,
                  renderer::DebugShapes* scratch_shapes);

// A camera framing the model's posed bounds from a three-quarter front view.
OrbitCamera DefaultCamera(const assets::Model& model, const std::vector<glm::mat4>& models,
                          float aspect);

}  // namespace app
