// The timeline's CPU cost per frame with 1,000 keys: a headless Dear ImGui frame (no backend, no
// GL) drawing only the timeline, the selected joint's translation, rotation and scale keyed 1,000
// times each over a 40 s clip and two chains with IK weight keys.
#include <benchmark/benchmark.h>
#include <imgui.h>

#include "app/window/panels/panels.h"
#include "assets/builtin/builtin_character.h"

namespace {

void BM_TimelineFrame(benchmark::State& state) {
  const int keys = static_cast<int>(state.range(0));
  ImGuiContext* context = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(1920.0f, 1080.0f);
  io.DeltaTime = 1.0f / 60.0f;
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);

  assets::Model model = assets::MakeBuiltinCharacter();
  const int hips = model.skeleton.Find("Hips");
  assets::Clip clip;
  clip.name = "long";
  clip.duration = 40.0f;
  assets::JointAnimation channel;
  channel.joint = hips;
  for (int k = 0; k < keys; ++k) {
    const float t = clip.duration * float(k) / float(keys - 1);
    channel.translation.times.push_back(t);
    channel.translation.values.push_back(glm::vec3(0.0f, 1.0f, 0.0f));
    channel.rotation.times.push_back(t);
    channel.rotation.values.push_back(glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
    channel.scale.times.push_back(t);
    channel.scale.values.push_back(glm::vec3(1.0f));
  }
  clip.channels.push_back(channel);
  model.clips = {clip};
  const app::Character character(model);
  app::EditState edit;
  edit.chains = app::DefaultChains(character);
  for (int c = 0; c < 2; ++c) {
    for (int k = 0; k < 50; ++k) {
      edit.chains[c].weight_keys.push_back({0.8f * float(k), float(k % 2)});
    }
  }
  app::Playback playback;
  playback.clip = 0;
  playback.time = 12.0f;
  app::TimelineView view;
  app::PanelLayout layout;
  layout.panel_right = 368.0f;
  for (auto _ : state) {
    ImGui::NewFrame();
    app::DrawTimeline({model, character, edit, hips, 0}, &playback, &view, &layout);
    ImGui::Render();
    benchmark::DoNotOptimize(ImGui::GetDrawData()->TotalVtxCount);
  }
  ImGui::DestroyContext(context);
}
BENCHMARK(BM_TimelineFrame)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);

}  // namespace
