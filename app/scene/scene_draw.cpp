// Overlay geometry, the ground and the ladder, and the frame's draw order.
#include "app/scene/scene_draw.h"

#include <algorithm>

#include "assets/skinning.h"
#include "renderer/grid.h"

namespace app {

namespace rc = renderer::colors;

SceneExtent MeasureModel(const assets::Model& model) {
  const assets::Bounds bounds = assets::RestBounds(model);
  SceneExtent extent;
  const float size = bounds.diagonal();
  extent.size = size > 1e-6f ? size : 1.0f;
  extent.center = bounds.empty() ? glm::vec3(0.0f) : bounds.center();
  return extent;
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
    const glm::vec4 color(0.55f, 0.8f, 1.0f, 0.9f);
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
      xray_lines->AddLine(shape.twist_arc_model[k], shape.twist_arc_model[k + 1],
                          glm::vec4(1.0f, 0.7f, 0.9f, 0.8f));
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
      xray_lines->AddLine(r.positions[k], r.positions[k + 1], rc::kCyan);
    }
    for (const glm::vec3& p : r.positions) xray_lines->AddCross(p, joint_size * 2.0f, rc::kCyan);
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
                        rc::kMagenta);
    xray_lines->AddCross(r.target_model, joint_size * 3.0f, r.reached ? rc::kGreen : rc::kRed);
  }
}

// One two-bone chain: its reach shells (depth-tested) and, with the IK overlay, the knee circle,
// the knee before and after, the solved limb, the target and the pole (on top).
void AddTwoBoneOverlay(const IkChainRequest& request, const ik::TwoBoneIkResult& r,
                       const SceneOptions& options, float joint_size, renderer::DebugLines* lines,
                       renderer::DebugLines* xray_lines) {
  if (options.reach_shell) {
    lines->width = 1.0f;
    const glm::vec4 shell(0.6f, 0.7f, 1.0f, 0.35f);
    if (r.reach_min > 1e-6f) lines->AddSphere(r.a, r.reach_min, shell, 48);
    lines->AddSphere(r.a, r.reach_max, shell, 64);
  }
  if (!options.ik_overlay) return;
  xray_lines->width = 2.0f;
  // The knee circle: where the sphere about the hip meets the sphere about the target.
  if (r.circle.radius > 1e-6f) {
    xray_lines->AddCircle(r.circle.center, r.circle.normal, r.circle.radius,
                          glm::vec4(rc::kYellow.r, rc::kYellow.g, rc::kYellow.b, 0.85f));
    xray_lines->AddLine(r.circle.center, r.b_final, glm::vec4(1.0f, 0.9f, 0.4f, 0.5f));
  }
  // Knee before (grey) and after (yellow); the solved limb in orange.
  xray_lines->AddCross(r.b_before, joint_size * 2.0f, glm::vec4(0.7f, 0.7f, 0.7f, 0.9f));
  xray_lines->AddCross(r.b_final, joint_size * 2.5f, rc::kYellow);
  xray_lines->width = 3.0f;
  xray_lines->AddLine(r.a, r.b_final, rc::kOrange);
  xray_lines->AddLine(r.b_final, r.c_final, rc::kOrange);
  // Target: green when reached, red when not; a thin line shows the miss.
  const glm::vec4 target_color = r.reached ? rc::kGreen : rc::kRed;
  xray_lines->AddCross(request.target.position, joint_size * 4.0f, target_color);
  if (!r.reached) {
    xray_lines->width = 1.5f;
    xray_lines->AddLine(r.c_final, request.target.position, target_color);
  }
  if (request.options.pole_model) {
    xray_lines->width = 2.0f;
    xray_lines->AddCross(*request.options.pole_model, joint_size * 3.0f, rc::kMagenta);
    xray_lines->AddLine(r.b_final, *request.options.pole_model, glm::vec4(0.9f, 0.3f, 0.85f, 0.5f));
  }
}

}  // namespace

void BuildOverlays(const assets::Model& model, const ConstraintRequests& constraints,
                   const PoseState& state, const SceneOptions& options, float model_size,
                   renderer::DebugLines* lines, renderer::DebugLines* xray_lines) {
  const ik::Skeleton& skeleton = model.skeleton;
  const float joint_size = model_size * 0.012f;
  const bool any_bone =
      std::find(model.is_bone.begin(), model.is_bone.end(), true) != model.is_bone.end();
  const std::vector<bool>* bones = any_bone ? &model.is_bone : nullptr;
  // A model without meshes is shown as its skeleton whatever the toggle says.
  const bool skeleton_visible = options.skeleton || model.meshes.empty();
  if (skeleton_visible) {
    renderer::DebugLines* target = options.skeleton_xray ? xray_lines : lines;
    target->width = 2.0f;
    target->AddSkeleton(skeleton, state.models, glm::vec4(0.95f, 0.75f, 0.3f, 0.9f), joint_size,
                        bones);
  }
  if (options.selected_joint >= 0 && options.selected_joint < skeleton.joint_count()) {
    xray_lines->width = 3.0f;
    const int j = options.selected_joint;
    xray_lines->AddCross(glm::vec3(state.models[j][3]), joint_size * 3.0f, rc::kCyan);
    if (skeleton.parent(j) >= 0) {
      xray_lines->AddLine(glm::vec3(state.models[skeleton.parent(j)][3]),
                          glm::vec3(state.models[j][3]), rc::kCyan);
    }
  }
  if (options.joint_axes) {
    xray_lines->width = 2.0f;
    for (int i = 0; i < skeleton.joint_count(); ++i) {
      if (bones && !(*bones)[i]) continue;
      xray_lines->AddAxes(state.models[i], model_size * 0.04f);
    }
  }
  if (options.joint_limits) {
    AddLimitShapes(skeleton, constraints.limits, state, model_size, xray_lines);
  }
  if (options.ik_overlay) {
    AddFabrikAndAimOverlays(constraints, state, model_size, joint_size, xray_lines);
  }
  if (!options.ik_overlay && !options.reach_shell) return;
  for (size_t i = 0; i < constraints.ik.size() && i < state.ik.size(); ++i) {
    if (state.ik[i].solve_case == ik::TwoBoneCase::kDegenerate) continue;
    AddTwoBoneOverlay(constraints.ik[i], state.ik[i], options, joint_size, lines, xray_lines);
  }
}

void DrawScene(renderer::Renderer& renderer, const renderer::GpuModel& gpu_model,
               const assets::Model& model, const SceneExtent& extent,
               const ConstraintRequests& requests, const PoseState& state,
               const SceneOptions& options, const renderer::View& view,
               renderer::DebugLines* scratch_lines, renderer::DebugLines* scratch_xray) {
  const float model_size = extent.size;
  renderer.BeginFrame(view);
  renderer::ModelStyle style;
  style.weight_joint = options.weight_joint;
  style.influences = options.influences, style.weight_problems = options.weight_problems;
  if (options.mesh && options.mesh_opacity >= 1.0f) renderer.DrawModel(gpu_model, view, style);
  if (options.grid) {
    renderer::GridParams grid = renderer::GridForModelSize(model_size);
    grid.center = extent.center;
    renderer.DrawGrid(view, grid);
  }
  if (options.mesh && options.mesh_opacity < 1.0f) {
    style.opacity = std::max(options.mesh_opacity, 0.05f);
    renderer.DrawModel(gpu_model, view, style);
  }
  scratch_lines->Clear();
  scratch_xray->Clear();
  BuildOverlays(model, requests, state, options, model_size, scratch_lines, scratch_xray);
  if (!scratch_lines->empty()) {
    renderer.DrawLines(*scratch_lines, view, renderer::DepthMode::kHiddenDimmed);
  }
  if (!scratch_xray->empty()) renderer.DrawLines(*scratch_xray, view, renderer::DepthMode::kOnTop);
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
