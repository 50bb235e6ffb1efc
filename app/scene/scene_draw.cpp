// Overlay geometry, the ground and the ladder, and the frame's draw order.
#include "app/scene/scene_draw.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "assets/model/skinning.h"
#include "renderer/grid.h"

namespace app {

namespace rc = renderer::colors;
namespace oc = overlay_colors;

void SceneOverlays::Clear() {
  lines.Clear();
  xray_lines.Clear();
  bones.Clear();
  marks.Clear();
  segments.clear();
}

SceneExtent MeasureModel(const assets::Model& model, const std::vector<ik::Limb>* limbs) {
  const assets::Bounds bounds = assets::RestBounds(model);
  SceneExtent extent;
  const float size = bounds.diagonal();
  extent.size = size > 1e-6f ? size : 1.0f;
  extent.center = bounds.empty() ? glm::vec3(0.0f) : bounds.center();
  extent.ground_lift = GroundLift(bounds);
  extent.bones = ClassifyBones(model, limbs);
  return extent;
}

float GroundLift(const assets::Bounds& rest_bounds) {
  if (rest_bounds.empty() || !std::isfinite(rest_bounds.min.y)) return 0.0f;
  return -rest_bounds.min.y;
}

glm::mat4 LiftedView(const glm::mat4& view, float lift) {
  return view * glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, lift, 0.0f));
}

namespace {

// Hinge arcs and cones at the joints that have limits.
void AddLimitShapes(const ik::Skeleton& skeleton, const ik::JointLimits& limits,
                    const PoseState& state, float model_size, renderer::DebugLines* xray_lines) {
  xray_lines->width = 2.0f;
  for (const auto& [joint, limit] : limits.entries()) {
    const ik::LimitShape shape =
        ik::MakeLimitShape(skeleton, state.pose, state.models, joint, limit, model_size * 0.05f);
    if (shape.outline_model.empty()) continue;
    const glm::vec4 color = oc::kLimit;
    for (size_t k = 0; k + 1 < shape.outline_model.size(); ++k) {
      xray_lines->AddLine(shape.outline_model[k], shape.outline_model[k + 1], color);
    }
    if (shape.outline_closed) {
      xray_lines->AddLine(shape.outline_model.back(), shape.outline_model.front(), color);
      // A few spokes from the apex make the cone read as a cone.
      for (size_t k = 0; k < shape.outline_model.size(); k += shape.outline_model.size() / 4 + 1) {
        xray_lines->AddLine(shape.origin_model, shape.outline_model[k],
                            glm::vec4(0.55f, 0.8f, 1.0f, 0.45f));
      }
    } else {
      xray_lines->AddLine(shape.origin_model, shape.outline_model.front(), color);
      xray_lines->AddLine(shape.origin_model, shape.outline_model.back(), color);
    }
    for (size_t k = 0; k + 1 < shape.twist_arc_model.size(); ++k) {
      xray_lines->AddLine(shape.twist_arc_model[k], shape.twist_arc_model[k + 1], oc::kTwistLimit);
    }
    xray_lines->AddLine(shape.origin_model,
                        shape.origin_model + shape.bone_model * model_size * 0.05f, rc::kWhite);
  }
}

// FABRIK: the solved joint positions, and each iteration when asked for. Aims: the bone's
// direction and the line to what it points at.
void AddFabrikAndAimOverlays(const ConstraintRequests& constraints, const PoseState& state,
                             float model_size, float joint_size, renderer::DebugLines* xray_lines) {
  for (size_t i = 0; i < constraints.fabrik.size() && i < state.fabrik.size(); ++i) {
    const ik::FabrikResult& r = state.fabrik[i];
    if (r.degenerate) continue;
    const size_t steps = r.iteration_positions.size();
    for (size_t it = 0; it < steps; ++it) {
      const float t = steps > 1 ? float(it) / float(steps - 1) : 1.0f;
      const glm::vec4 color(0.4f + 0.5f * t, 0.5f, 1.0f - 0.6f * t, 0.25f + 0.5f * t);
      xray_lines->width = 1.5f;
      const auto& p = r.iteration_positions[it];
      for (size_t k = 0; k + 1 < p.size(); ++k) xray_lines->AddLine(p[k], p[k + 1], color);
    }
    xray_lines->width = 3.0f;
    for (size_t k = 0; k + 1 < r.positions.size(); ++k) {
      xray_lines->AddLine(r.positions[k], r.positions[k + 1], oc::kFabrik);
    }
    for (const glm::vec3& p : r.positions) xray_lines->AddCross(p, joint_size * 2.0f, oc::kFabrik);
    const glm::vec4 target_color = r.reached ? rc::kGreen : rc::kRed;
    xray_lines->AddCross(constraints.fabrik[i].target, joint_size * 4.0f, target_color);
  }
  for (size_t i = 0; i < constraints.aim.size() && i < state.aim.size(); ++i) {
    const ik::AimResult& r = state.aim[i];
    if (r.degenerate) continue;
    xray_lines->width = 1.5f;
    xray_lines->AddLine(r.origin_model, r.target_model, glm::vec4(0.9f, 0.5f, 1.0f, 0.7f));
    xray_lines->width = 3.0f;
    xray_lines->AddLine(r.origin_model, r.origin_model + r.axis_after_model * model_size * 0.08f,
                        oc::kAim);
    xray_lines->AddCross(r.target_model, joint_size * 3.0f, r.reached ? rc::kGreen : rc::kRed);
  }
}

// A pixel-sized mark: a dark rim under a filled disc, readable over lines and the mesh.
void AddDiscMark(const glm::vec3& at, float radius_px, const glm::vec4& color,
                 renderer::DebugShapes* marks) {
  marks->AddDisc(at, radius_px + 1.5f, glm::vec4(0.05f, 0.05f, 0.05f, 0.9f), 16);
  marks->AddDisc(at, radius_px, color, 16);
}
void AddSquareMark(const glm::vec3& at, float half_px, const glm::vec4& color,
                   renderer::DebugShapes* marks) {
  marks->AddSquare(at, half_px + 1.5f, glm::vec4(0.05f, 0.05f, 0.05f, 0.9f));
  marks->AddSquare(at, half_px, color);
}
void AddDiamondMark(const glm::vec3& at, float half_px, const glm::vec4& color,
                    renderer::DebugShapes* marks) {
  const glm::vec3 screen(0.0f);
  for (const auto& [h, c] :
       {std::pair<float, glm::vec4>{half_px + 2.0f, {0.05f, 0.05f, 0.05f, 0.9f}},
        std::pair<float, glm::vec4>{half_px, color}}) {
    marks->AddScreenTriangle(at, screen, {-h, 0.0f}, {h, 0.0f}, {0.0f, h}, c);
    marks->AddScreenTriangle(at, screen, {h, 0.0f}, {-h, 0.0f}, {0.0f, -h}, c);
  }
}

// One two-bone chain: the solved limb and the target for every chain; with `explain` (the active
// chain, or every chain when asked) its reach shells (depth-tested), the knee circle, the knee
// before and after and the pole.
void AddTwoBoneOverlay(const IkChainRequest& request, const ik::TwoBoneIkResult& r,
                       const SceneOptions& options, bool explain, float joint_size,
                       SceneOverlays* out) {
  renderer::DebugLines* xray_lines = &out->xray_lines;
  if (options.reach_shell && explain) {
    out->lines.width = 1.0f;
    if (r.reach_min > 1e-6f) out->lines.AddSphere(r.a, r.reach_min, oc::kReachShell, 48);
    out->lines.AddSphere(r.a, r.reach_max, oc::kReachShell, 64);
  }
  if (!options.ik_overlay) return;
  xray_lines->width = 3.0f;
  xray_lines->AddLine(r.a, r.b_final, oc::kSolvedLimb);
  xray_lines->AddLine(r.b_final, r.c_final, oc::kSolvedLimb);
  // Target: green when reached, red when not; a thin line shows the miss.
  const glm::vec4 target_color = r.reached ? oc::kTargetReached : oc::kTargetMissed;
  xray_lines->width = 2.5f;
  xray_lines->AddCross(request.target.position, joint_size * 4.0f, target_color);
  if (!r.reached) {
    xray_lines->width = 1.5f;
    xray_lines->AddLine(r.c_final, request.target.position, target_color);
  }
  // The pole: a handle (dragged in the window) on every chain that has one.
  if (request.options.pole_model)
    AddDiamondMark(*request.options.pole_model, 6.0f, oc::kPole, &out->marks);
  if (!explain) return;
  xray_lines->width = 2.0f;
  // The knee circle: where the sphere about the hip meets the sphere about the target.
  if (r.circle.radius > 1e-6f) {
    xray_lines->AddCircle(r.circle.center, r.circle.normal, r.circle.radius, oc::kKneeCircle);
    xray_lines->AddLine(r.circle.center, r.b_final, glm::vec4(1.0f, 0.9f, 0.4f, 0.5f));
  }
  if (request.options.pole_model) {
    xray_lines->AddLine(r.b_final, *request.options.pole_model,
                        glm::vec4(oc::kPole.r, oc::kPole.g, oc::kPole.b, 0.5f));
  }
  // Knee before (a grey square) under the knee after (a yellow disc): where they coincide, the
  // disc sits inside the larger square and both stay visible.
  AddSquareMark(r.b_before, 6.0f, oc::kKneeBefore, &out->marks);
  AddDiscMark(r.b_final, 4.0f, oc::kKneeAfter, &out->marks);
}

}  // namespace

namespace {

// The axes of every bone (or the selected joint only), each as long as a good part of its bone.
void AddJointAxes(const assets::Model& model, const PoseState& state, const SceneOptions& options,
                  float model_size, SceneOverlays* out) {
  const ik::Skeleton& skeleton = model.skeleton;
  const float shortest = model_size * 0.03f, longest = model_size * 0.1f;
  out->xray_lines.width = 2.5f;
  auto add = [&](int j, float length) {
    out->xray_lines.AddAxes(state.models[size_t(j)], glm::clamp(length, shortest, longest));
  };
  // The length of a joint's first bone from the segments (drawn or not, they were built).
  auto bone_length = [&](int j) {
    for (const BoneSegment& bone : out->segments) {
      if (bone.joint == j) return glm::length(bone.tail - bone.head) * 0.6f;
    }
    return shortest;
  };
  if (options.axes_selected_only) {
    const int j = options.selected_joint;
    if (j >= 0 && j < skeleton.joint_count()) add(j, 2.0f * bone_length(j));
    return;
  }
  // Every drawn bone's joint once: BoneSegments lists each joint's bones together.
  int last = -1;
  for (const BoneSegment& bone : out->segments) {
    if (bone.joint == last) continue;
    last = bone.joint;
    add(bone.joint, glm::length(bone.tail - bone.head) * 0.6f);
  }
}

}  // namespace

void BuildOverlays(const assets::Model& model, const ConstraintRequests& constraints,
                   const PoseState& state, const SceneOptions& options, const SceneExtent& extent,
                   SceneOverlays* out) {
  out->Clear();
  const ik::Skeleton& skeleton = model.skeleton;
  const float model_size = extent.size;
  const float joint_size = model_size * 0.012f;
  BoneSegments(model, state.models, &out->segments);
  BoneHighlight highlight;
  highlight.selected_joint = options.selected_joint;
  const int active = options.active_chain;
  if (active >= 0 && size_t(active) < constraints.ik.size()) {
    highlight.chain_joints[0] = constraints.ik[size_t(active)].chain.start;
    highlight.chain_joints[1] = constraints.ik[size_t(active)].chain.mid;
  }
  // A model without meshes is shown as its skeleton whatever the toggle says; with bones off the
  // selected joint's bones are still drawn, so the selection shows.
  if (options.skeleton || model.meshes.empty()) {
    AddSolidBones(out->segments, extent.bones, state.models, highlight, &out->bones);
  } else if (options.selected_joint >= 0 && options.selected_joint < skeleton.joint_count()) {
    AddSolidBones(out->segments, extent.bones, state.models, highlight, &out->bones,
                  options.selected_joint);
  }
  if (options.joint_axes) AddJointAxes(model, state, options, model_size, out);
  if (options.joint_limits) {
    AddLimitShapes(skeleton, constraints.limits, state, model_size, &out->xray_lines);
  }
  if (options.ik_overlay) {
    AddFabrikAndAimOverlays(constraints, state, model_size, joint_size, &out->xray_lines);
  }
  if (!options.ik_overlay && !options.reach_shell) return;
  for (size_t i = 0; i < constraints.ik.size() && i < state.ik.size(); ++i) {
    if (state.ik[i].solve_case == ik::TwoBoneCase::kDegenerate) continue;
    const bool explain = options.all_chains || static_cast<int>(i) == active;
    AddTwoBoneOverlay(constraints.ik[i], state.ik[i], options, explain, joint_size, out);
  }
}

void DrawScene(renderer::Renderer& renderer, const renderer::GpuModel& gpu_model,
               const assets::Model& model, const SceneExtent& extent,
               const ConstraintRequests& requests, const PoseState& state,
               const SceneOptions& options, const renderer::View& view, SceneOverlays* scratch,
               const AnimationOverlays* animation) {
  const float model_size = extent.size;
  renderer.BeginFrame(view);
  renderer::ModelStyle style;
  style.weight_joint = options.weight_joint;
  style.influences = options.influences, style.weight_problems = options.weight_problems;
  if (options.mesh && options.mesh_opacity >= 1.0f) renderer.DrawModel(gpu_model, view, style);
  if (options.grid) {
    renderer::GridParams grid = renderer::GridForModelSize(model_size);
    grid.center = extent.center;
    renderer::View ground_view = view;  // the grid stays on y = 0 when the model is raised
    ground_view.view = LiftedView(view.view, -options.ground_lift);
    renderer.DrawGrid(ground_view, grid);
  }
  BuildOverlays(model, requests, state, options, extent, scratch);
  const bool xray = options.skeleton_xray || model.meshes.empty();
  if (!xray) renderer.DrawShapes(scratch->bones, view, renderer::DepthMode::kSolid);
  if (options.mesh && options.mesh_opacity < 1.0f) {
    style.opacity = std::max(options.mesh_opacity, 0.05f);
    renderer.DrawModel(gpu_model, view, style);
  }
  // Ghosts and trail under the current skeleton and the IK marks.
  if (animation) {
    DrawAnimationOverlays(renderer, model, *animation, model_size, view, xray,
                          &scratch->ghost_lines, &scratch->trail_lines);
  }
  if (xray) renderer.DrawShapes(scratch->bones, view, renderer::DepthMode::kSolidOnTop);
  renderer.DrawLines(scratch->lines, view, renderer::DepthMode::kHiddenDimmed);
  renderer.DrawLines(scratch->xray_lines, view, renderer::DepthMode::kOnTop);
  renderer.DrawShapes(scratch->marks, view, renderer::DepthMode::kOnTop);
}

void BuildContactGeometry(const SceneContacts& contacts, float model_size,
                          renderer::DebugLines* lines, renderer::DebugShapes* shapes) {
  lines->Clear();
  shapes->Clear();
  if (contacts.ground.enabled) {
    const float half = model_size * 0.6f;
    const glm::vec3 c = contacts.ground.pivot;
    glm::vec3 corners[4];
    const float dx[4] = {-1, 1, 1, -1}, dz[4] = {-1, -1, 1, 1};
    for (int k = 0; k < 4; ++k) {
      const float x = c.x + dx[k] * half, z = c.z + dz[k] * half;
      corners[k] = glm::vec3(x, contacts.ground.HeightAt(x, z), z);
    }
    shapes->AddQuad(corners[0], corners[1], corners[2], corners[3],
                    glm::vec4(0.35f, 0.6f, 0.45f, 0.35f));
    lines->width = 2.0f;
    for (int k = 0; k < 4; ++k) {
      lines->AddLine(corners[k], corners[(k + 1) % 4], glm::vec4(0.5f, 0.85f, 0.6f, 0.9f));
    }
  }
  if (contacts.ladder.enabled) {
    lines->width = 6.0f;
    const std::vector<Segment> rungs = contacts.ladder.Rungs();
    for (const Segment& r : rungs) lines->AddLine(r.a, r.b, glm::vec4(0.75f, 0.5f, 0.3f, 1.0f));
    if (!rungs.empty()) {
      lines->width = 4.0f;
      lines->AddLine(rungs.front().a, rungs.back().a, glm::vec4(0.6f, 0.4f, 0.25f, 1.0f));
      lines->AddLine(rungs.front().b, rungs.back().b, glm::vec4(0.6f, 0.4f, 0.25f, 1.0f));
    }
  }
}

void DrawContacts(renderer::Renderer& renderer, const SceneContacts& contacts, float model_size,
                  const renderer::View& view, renderer::DebugLines* scratch_lines,
                  renderer::DebugShapes* scratch_shapes) {
  BuildContactGeometry(contacts, model_size, scratch_lines, scratch_shapes);
  if (!scratch_shapes->empty()) {
    renderer.DrawShapes(*scratch_shapes, view, renderer::DepthMode::kTested);
  }
  if (!scratch_lines->empty()) {
    renderer.DrawLines(*scratch_lines, view, renderer::DepthMode::kHiddenDimmed);
  }
}

void ApplyDisplaySpec(const DisplaySpec& display, const ik::Skeleton& skeleton,
                      SceneOptions* options) {
  options->mesh = display.mesh;
  options->grid = display.grid;
  options->skeleton = display.bones;
  options->joint_axes = display.axes;
  options->ik_overlay = display.knees;
  options->reach_shell = display.shells;
  options->joint_limits = display.limits;
  options->weight_joint = display.weights.empty() ? -1 : skeleton.Find(display.weights);
  options->influences = display.influences;
  options->legend = display.legend;
  options->onion_count = display.onion;
  if (display.onion > 0) options->onion_step = display.onion_step;  // else the spacing stays
  options->trail_joint = display.trail.empty() ? -1 : skeleton.Find(display.trail);
}

DisplaySpec DisplaySpecOf(const SceneOptions& options, const ik::Skeleton& skeleton) {
  DisplaySpec display;
  display.mesh = options.mesh;
  display.grid = options.grid;
  display.bones = options.skeleton;
  display.axes = options.joint_axes;
  display.knees = options.ik_overlay;
  display.shells = options.reach_shell;
  display.limits = options.joint_limits;
  if (options.weight_joint >= 0 && options.weight_joint < skeleton.joint_count()) {
    display.weights = skeleton.name(options.weight_joint);
  }
  display.influences = options.influences;
  display.legend = options.legend;
  display.onion = options.onion_count;
  display.onion_step = options.onion_count > 0 ? std::max(options.onion_step, 1) : 1;
  if (options.trail_joint >= 0 && options.trail_joint < skeleton.joint_count()) {
    display.trail = skeleton.name(options.trail_joint);
  }
  return display;
}

OrbitCamera DefaultCamera(const assets::Model& model, const std::vector<glm::mat4>& models,
                          float aspect) {
  OrbitCamera camera;
  camera.yaw = 0.45f;
  camera.pitch = 0.12f;
  const assets::Bounds bounds = assets::ModelBounds(model, models);
  if (!bounds.empty()) camera.Frame(bounds.min, bounds.max, aspect);
  return camera;
}

}  // namespace app
