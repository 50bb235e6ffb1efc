// `skelview render`: one model, or every model of a folder in one process, drawn offscreen to PNG.
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/command_support.h"
#include "app/core/bake.h"
#include "app/core/check_inputs.h"
#include "app/core/display_spec.h"
#include "app/core/ghost_poses.h"
#include "app/scene/gl_context.h"
#include "app/scene/legend.h"
#include "app/scene/scene_draw.h"
#include "assets/files/file_output.h"
#include "assets/files/image_file.h"
#include "assets/files/text.h"
#include "renderer/offscreen.h"
#include "renderer/renderer.h"

namespace app {

namespace {

// What every image of one `render` command shares, parsed once.
struct RenderPlan {
  int width = 1280, height = 720;
  DisplaySpec display;
  ViewPreset preset = ViewPreset::kFront;
  RenderLook look;
};

// The scene options of `prepared` for the plan's --show list, after checking that `out_path` is
// not one of the model's files; an exit code (kExitOk to go on).
int PrepareSceneOptions(const PreparedPose& prepared, const RenderPlan& plan,
                        const std::string& out_path, SceneOptions* options) {
  const assets::Model& model = prepared.model;
  const ConstraintRequests& requests = prepared.requests;
  const DisplaySpec& display = plan.display;
  std::string error;
  if (const std::string problem = assets::OutputProblem(out_path); !problem.empty()) {
    return BadInput("-o " + assets::ShownPath(out_path) + ": " + problem);
  }
  if (!assets::CheckOutputsSpareInputs(model, {out_path}, &error)) {
    return BadInput("-o " + assets::ShownPath(out_path) + ": " + error);
  }
  options->ik_overlay = !requests.ik.empty() || !requests.aim.empty() || !requests.fabrik.empty();
  options->all_chains = true;  // no chain is active on the command line: each explains itself
  if (!plan.look.show.empty()) {
    ApplyDisplaySpec(display, model.skeleton, options);
    if (!display.weights.empty() && options->weight_joint < 0) {
      return BadInput("--show weights=" + display.weights + ": the model has no joint named '" +
                      display.weights + "'");
    }
    if (!display.trail.empty() && options->trail_joint < 0) {
      return BadInput("--show trail=" + display.trail + ": the model has no joint named '" +
                      display.trail + "'");
    }
  }
  return kExitOk;
}

// Draws `prepared` into `target` (plan.width x plan.height) and writes it to `out_path`; an exit
// code.
int DrawAndWrite(renderer::Renderer* renderer, renderer::OffscreenTarget* target,
                 const PreparedPose& prepared, const RenderPlan& plan, SceneOptions options,
                 const std::string& out_path) {
  const assets::Model& model = prepared.model;
  const ConstraintRequests& requests = prepared.requests;
  const PoseState& state = prepared.state;
  const RenderLook& look = plan.look;
  const int width = plan.width, height = plan.height;
  std::string error;
  auto gpu_model = renderer::GpuModel::Create(model, &error);
  if (!gpu_model) return BadInput(model.source + ": " + error);
  gpu_model->UpdatePose(state.models);
  gpu_model->UpdateMorphWeights(state.morph_weights);
  target->Bind();
  const float aspect = float(width) / float(height);
  OrbitCamera camera = DefaultCamera(model, state.models, aspect);
  camera.ortho = look.ortho;
  if (!look.view.empty()) {
    LookAlong(plan.preset, &camera);
    const assets::Bounds bounds = assets::ModelBounds(model, state.models, &state.morph_weights);
    if (!bounds.empty()) camera.Frame(bounds.min, bounds.max, aspect);
  }
  const SceneExtent extent = MeasureModel(model, &prepared.character.limbs());
  options.ground_lift = look.on_ground ? extent.ground_lift : 0.0f;
  camera.target.y += options.ground_lift;  // the model framed where it stands
  renderer::View view;
  view.view = LiftedView(camera.View(), options.ground_lift);
  view.projection = camera.Projection(aspect);
  view.viewport = {width, height};
  // Onion skins and trail, the clip played as the viewer plays it by default (looping), the
  // constraints pinned where the command line put them.
  GhostCache ghosts;
  Playback playback;
  playback.clip = prepared.clip_time.clip;
  playback.time = prepared.clip_time.time;
  ghosts.Update(prepared.character, playback, EditForRequests(prepared.character, requests),
                options.onion_count, options.onion_step, options.trail_joint);
  AnimationOverlays animation;
  animation.ghosts = &ghosts.ghosts();
  animation.trail = &ghosts.trail();
  animation.time = playback.time;
  if (options.trail_joint >= 0) {
    animation.trail_now = glm::vec3(state.models[static_cast<size_t>(options.trail_joint)][3]);
    animation.mark_now = true;
  }
  SceneOverlays overlays;
  DrawScene(*renderer, *gpu_model, model, extent, requests, state, options, view, &overlays,
            &animation);
  if (options.legend) {
    LegendEntry entries[kMaxLegendEntries];
    const int count = LegendEntries(model, extent, requests, state, options, entries);
    renderer::View pixels;
    BuildLegendImage(entries, count, width, height, &overlays.marks, &pixels);
    renderer->DrawShapes(overlays.marks, pixels, renderer::DepthMode::kOnTop);
  }
  const std::vector<uint8_t> pixels = target->ReadPixels();
  if (!assets::WriteImage(out_path, width, height, pixels, &error)) return Failure(error);
  return kExitOk;
}

// The headless GL objects of a render: a context, the renderer and one offscreen target.
struct RenderGl {
  std::unique_ptr<GlContext> gl;
  std::optional<renderer::Renderer> renderer;
  std::optional<renderer::OffscreenTarget> target;
};

// Creates them for the plan's size; an exit code.
int CreateRenderGl(const RenderPlan& plan, RenderGl* out) {
  std::string error;
  out->gl = GlContext::Create(GlContext::Kind::kHeadless, "skelview", 64, 64, &error);
  if (!out->gl) return Failure("render: " + error);
  if (!CheckImageSize(plan.width, plan.height, out->gl->MaxImageSide(), &error)) {
    return BadInput(error);
  }
  out->renderer = renderer::Renderer::Create(&error);
  if (!out->renderer) return Failure("render: " + error);
  out->target = renderer::OffscreenTarget::Create(plan.width, plan.height, &error);
  if (!out->target) return Failure("render: " + error);
  return kExitOk;
}

constexpr char kNamePattern[] = "{name}";

// The {name} of each input of a batch render: its path below the folder given (the file name
// for a file given), without its extension, '/' turned into '_'; inputs whose names would
// collide keep their extension ("CesiumMan.gltf", "CesiumMan.glb").
std::vector<std::string> BatchNames(const std::string& given,
                                    const std::vector<std::string>& inputs) {
  std::error_code error;
  const bool folder = std::filesystem::is_directory(given, error);
  auto name = [&](const std::string& input, bool keep_extension) {
    std::filesystem::path relative = folder ? std::filesystem::path(input).lexically_relative(given)
                                            : std::filesystem::path(input).filename();
    if (!keep_extension) relative.replace_extension();
    std::string text = relative.generic_string();
    for (char& c : text) {
      if (c == '/') c = '_';
    }
    return text;
  };
  std::map<std::string, int> uses;
  for (const std::string& input : inputs) ++uses[name(input, false)];
  std::vector<std::string> names;
  for (const std::string& input : inputs) {
    const std::string plain = name(input, false);
    names.push_back(uses[plain] > 1 ? name(input, true) : plain);
  }
  return names;
}

// `render MODEL|DIR -o OUT` with {name} in OUT: every model file of DIR (or MODEL itself) drawn
// in this one process, each imported by a worker forked by one import server. A file that fails
// is named on stderr and the others are still drawn; the exit code is 2 when any file was bad
// input, else 1 when any image could not be written.
int RunRenderBatch(const PoseArgs& args, const std::string& out_pattern, const RenderPlan& plan) {
  const std::vector<std::string> inputs = CollectInputs({args.model_path});
  if (inputs.empty())
    return BadInput(assets::ShownPath(args.model_path) + ": no model files in it");
  const std::vector<std::string> names = BatchNames(args.model_path, inputs);
  std::vector<std::string> outputs;
  std::map<std::string, std::string> output_of;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string out = out_pattern;
    for (size_t at; (at = out.find(kNamePattern)) != std::string::npos;) {
      out.replace(at, sizeof(kNamePattern) - 1, names[i]);
    }
    if (const auto [it, fresh] = output_of.emplace(out, inputs[i]); !fresh) {
      return BadInput("-o " + assets::ShownPath(out_pattern) + ": " +
                      assets::ShownPath(it->second) + " and " + assets::ShownPath(inputs[i]) +
                      " would both be drawn to " + assets::ShownPath(out));
    }
    outputs.push_back(out);
  }
  RenderGl gl;
  if (const int code = CreateRenderGl(plan, &gl); code != kExitOk) return code;
  ImportServer server;
  std::string server_error;
  server.Start("", &server_error);  // without it, each file gets a new worker process
  bool bad_input = false, write_failed = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    PoseArgs file_args = args;
    file_args.model_path = inputs[i];
    PreparedPose prepared;
    SceneOptions options;
    int code = PreparePose(file_args, &prepared, server.running() ? &server : nullptr);
    if (code == kExitOk) code = PrepareSceneOptions(prepared, plan, outputs[i], &options);
    if (code == kExitOk) {
      code = DrawAndWrite(&*gl.renderer, &*gl.target, prepared, plan, options, outputs[i]);
    }
    bad_input = bad_input || code == kExitBadInput;
    write_failed = write_failed || code == kExitFailure;
  }
  return bad_input ? kExitBadInput : write_failed ? kExitFailure : kExitOk;
}

}  // namespace

int RunRender(const PoseArgs& args, const std::string& out_path, const std::string& size,
              const RenderLook& look) {
  RenderPlan plan;
  plan.look = look;
  std::string error;
  if (!size.empty() && !ParseSize(size, &plan.width, &plan.height, &error)) {
    return BadInput(error);
  }
  if (!look.show.empty() && !ParseShowList(look.show, &plan.display, &error)) {
    return BadInput(error);
  }
  if (!look.view.empty() && !ParseViewPreset(look.view, &plan.preset)) {
    return BadInput("--view '" + assets::ShownArgument(look.view) +
                    "': expected front, back, left, right, top or bottom");
  }
  if (out_path.empty()) return BadInput("render needs -o OUT.png");
  if (const std::string problem = assets::ImageExtensionProblem(out_path); !problem.empty()) {
    return BadInput("-o " + assets::ShownPath(out_path) + ": " + problem);
  }
  const bool batch = out_path.find(kNamePattern) != std::string::npos;
  std::error_code fs_error;
  if (!batch && !args.model_path.empty() &&
      std::filesystem::is_directory(args.model_path, fs_error)) {
    return BadInput("-o " + assets::ShownPath(out_path) + ": drawing every model of the folder " +
                    assets::ShownPath(args.model_path) +
                    " needs {name} in the output path (e.g. -o thumbs/{name}.png)");
  }
  if (batch) {
    if (args.model_path.empty()) {
      return BadInput("-o " + assets::ShownPath(out_path) +
                      ": {name} needs a MODEL file or folder");
    }
    return RunRenderBatch(args, out_path, plan);
  }
  PreparedPose prepared;
  if (int code = PreparePose(args, &prepared); code != kExitOk) return code;
  SceneOptions options;
  if (int code = PrepareSceneOptions(prepared, plan, out_path, &options); code != kExitOk) {
    return code;
  }
  RenderGl gl;
  if (const int code = CreateRenderGl(plan, &gl); code != kExitOk) return code;
  return DrawAndWrite(&*gl.renderer, &*gl.target, prepared, plan, options, out_path);
}

}  // namespace app
