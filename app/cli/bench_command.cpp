// `skelview bench`: a crowd of animated characters with IK, updated and drawn offscreen, timed.
#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>
#include <vector>

#include "app/cli/command_support.h"
#include "app/core/crowd.h"
#include "app/scene/camera.h"
#include "app/scene/gl_context.h"
#include "app/scene/scene_draw.h"
#include "assets/files/file_output.h"
#include "assets/files/image_file.h"
#include "assets/files/text.h"
#include "assets/model/skinning.h"
#include "renderer/offscreen.h"
#include "renderer/renderer.h"

namespace app {

namespace {

struct Stats {
  double median = 0.0, mean = 0.0, min = 0.0, max = 0.0;
};

Stats Summarize(std::vector<double> samples) {
  Stats s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.median = samples[samples.size() / 2];
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / double(samples.size());
  s.min = samples.front();
  s.max = samples.back();
  return s;
}

}  // namespace

int RunBench(const BenchArgs& args) {
  if (args.characters < 1 || args.characters > 100000) {
    return BadInput("--characters " + std::to_string(args.characters) +
                    ": expected a number from 1 to 100000");
  }
  if (args.frames < 1 || args.frames > 100000) {
    return BadInput("--frames " + std::to_string(args.frames) + ": expected 1 to 100000");
  }
  int width = 0, height = 0;
  std::string error;
  if (!ParseSize(args.size, &width, &height, &error)) return BadInput(error);
  if (const std::string problem = assets::ImageExtensionProblem(args.out_path);
      !args.out_path.empty() && !problem.empty()) {
    return BadInput("-o " + assets::ShownPath(args.out_path) + ": " + problem);
  }
  if (const std::string problem = assets::OutputProblem(args.out_path);
      !args.out_path.empty() && !problem.empty()) {
    return BadInput("-o " + assets::ShownPath(args.out_path) + ": " + problem);
  }
  assets::Model model;
  if (!LoadModelOrBuiltin(args.model_path, args.allow_outside_files, args.raw_units, &model,
                          &error)) {
    return BadInput(error);
  }
  if (!args.out_path.empty() && !assets::CheckOutputsSpareInputs(model, {args.out_path}, &error)) {
    return BadInput("-o " + assets::ShownPath(args.out_path) + ": " + error);
  }
  if (!ValidateAnim(args.clip, model, true, &error)) return BadInput(error);
  const Character character(model);
  const SceneExtent extent = MeasureModel(model, &character.limbs());
  const float spacing = std::max(extent.size * 0.6f, 1e-3f);
  Crowd crowd(character, args.characters, args.clip, spacing);

  std::unique_ptr<GlContext> gl;
  std::optional<renderer::Renderer> renderer;
  std::optional<renderer::GpuModel> gpu;
  std::optional<renderer::OffscreenTarget> target;
  renderer::View view;
  if (args.draw) {
    gl = GlContext::Create(GlContext::Kind::kHeadless, "skelview", 64, 64, &error);
    if (!gl) return Failure("bench: " + error);
    if (!CheckImageSize(width, height, gl->MaxImageSide(), &error)) return BadInput(error);
    renderer = renderer::Renderer::Create(&error);
    if (!renderer) return Failure("bench: " + error);
    gpu = renderer::GpuModel::Create(model, &error);
    if (!gpu) return BadInput(model.source + ": " + error);
    target = renderer::OffscreenTarget::Create(width, height, &error, /*samples=*/0);
    if (!target) return Failure("bench: " + error);
    crowd.Update(0.0f);
    assets::Bounds bounds;
    for (int c = 0; c < crowd.size(); ++c) {
      const assets::Bounds b = assets::ModelBounds(model, crowd.models(c));
      if (!b.empty()) {
        bounds.Add(b.min);
        bounds.Add(b.max);
      }
    }
    OrbitCamera camera;
    camera.yaw = 0.6f;
    camera.pitch = 0.45f;
    if (!bounds.empty()) camera.Frame(bounds.min, bounds.max, float(width) / float(height));
    view.view = camera.View();
    view.projection = camera.Projection(float(width) / float(height));
    view.viewport = {width, height};
  }

  using Clock = std::chrono::steady_clock;
  std::vector<double> update_ms, draw_ms;
  long reached = 0, solves = 0;
  for (int f = 0; f < args.frames; ++f) {
    const auto start = Clock::now();
    crowd.Update(1.0f / 60.0f);
    update_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    reached += crowd.reached_count();
    solves += long(crowd.size()) * crowd.chain_count();
    if (!args.draw) continue;
    const auto draw_start = Clock::now();
    target->Bind();
    renderer->BeginFrame(view);
    for (int c = 0; c < crowd.size(); ++c) {
      gpu->UpdatePose(crowd.models(c));
      renderer->DrawModel(*gpu, view);
    }
    renderer::GridParams grid = renderer::GridForModelSize(extent.size * 4.0f);
    renderer->DrawGrid(view, grid);
    renderer::Finish();
    draw_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - draw_start).count());
  }
  if (args.draw && !args.out_path.empty()) {
    if (!assets::WriteImage(args.out_path, width, height, target->ReadPixels(), &error)) {
      return Failure(error);
    }
  }
  const Stats update = Summarize(update_ms), draw = Summarize(draw_ms);
  std::string text;
  Appendf(&text, "model:      %s (%d joints, %zu vertices)\n",
          assets::Escaped(model.source).c_str(), model.skeleton.joint_count(),
          model.vertex_count());
  Appendf(&text, "characters: %d, %d IK chains each, %d frames\n", crowd.size(),
          crowd.chain_count(), args.frames);
  Appendf(&text,
          "update:     median %.3f ms, mean %.3f ms, min %.3f ms per frame "
          "(%.3f us per character; sample + IK + FK + palette, one thread)\n",
          update.median, update.mean, update.min, 1000.0 * update.median / crowd.size());
  if (args.draw) {
    Appendf(&text, "draw:       median %.2f ms, mean %.2f ms per frame at %dx%d (%s)\n",
            draw.median, draw.mean, width, height, renderer::GlDescription().c_str());
  }
  Appendf(&text, "ik:         %ld of %ld solves reached their target\n", reached, solves);
  return Print(text);
}

}  // namespace app
