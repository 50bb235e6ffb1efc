// The --trace events, built from plain view state.
#include "app/core/trace_events.h"

#include "app/core/chain_results.h"

namespace app {

namespace {

Json AnimJson(const Playback& playback) {
  return {{"index", playback.clip}, {"time", Rounded(playback.time)}};
}

Json PixelJson(const glm::vec2& px) { return {Rounded(px.x), Rounded(px.y)}; }

}  // namespace

Json ReadyEvent(const glm::ivec2& window_size, const assets::Model& model, const EditState& edit,
                const EditedFrame& frame, const std::vector<glm::vec2>& handles_px,
                const std::optional<ModelOnScreen>& model_px, const Playback& playback) {
  Json event;
  event["event"] = "ready";
  event["window"] = {window_size.x, window_size.y};
  event["model"] = model.source;
  Json chains = Json::array();
  const ik::Skeleton& skeleton = model.skeleton;
  for (int i = 0; i < static_cast<int>(edit.chains.size()); ++i) {
    const glm::vec2 px = i < static_cast<int>(handles_px.size()) ? handles_px[i] : glm::vec2(-1);
    chains.push_back({{"end", skeleton.name(edit.chains[i].chain.end)},
                      {"label", edit.chains[i].label},
                      {"handle_px", PixelJson(px)},
                      {"target", ToJson(ChainTargetNow(skeleton, edit, frame, i))}});
  }
  event["chains"] = std::move(chains);
  if (model_px) {
    event["model_px"] = {{"center", PixelJson(model_px->center)},
                         {"box",
                          {Rounded(model_px->box_min.x), Rounded(model_px->box_min.y),
                           Rounded(model_px->box_max.x), Rounded(model_px->box_max.y)}}};
  }
  if (playback.clip >= 0) event["anim"] = AnimJson(playback);
  return event;
}

Json DragEndEvent(const assets::Model& model, const EditState& edit, const EditedFrame& frame,
                  const PoseState& state, const DragEnd& drag, const Playback& playback) {
  const int chain = drag.chain;
  const ChainSettings& settings = edit.chains[chain];
  const ik::Skeleton& skeleton = model.skeleton;
  Json event;
  event["event"] = "drag_end";
  event["end"] = skeleton.name(settings.chain.end);
  event["label"] = settings.label;
  event["part"] = drag.part;
  event["target"] = ToJson(ChainTargetNow(skeleton, edit, frame, chain));
  event["effector"] = ToJson(glm::vec3(state.models[settings.chain.end][3]));
  event["kind"] = ConstraintKindName(settings.kind);
  event["reached"] = ChainReached(frame, state, chain);
  event["status"] = ChainStatus(frame, state, chain);
  if (const ik::TwoBoneIkResult* result = TwoBoneResultOf(frame, state, chain)) {
    event["case"] = ik::CaseName(result->solve_case);
    event["error"] = Rounded(result->error);
    event["mid_before"] = ToJson(result->b_before);
    event["mid_after"] = ToJson(result->b_final);
  }
  event["frames"] = drag.drag_frames.count;
  event["frame_ms"] = Rounded(float(drag.drag_frames.mean()));
  event["idle_frame_ms"] = Rounded(float(drag.idle_frame_ms));
  event["options"] = {{"hinge", settings.hinge},
                      {"soft", Rounded(settings.soft)},
                      {"weight", Rounded(settings.weight)},
                      {"mode", TargetModeName(settings.mode)}};
  if (settings.use_pole) event["options"]["pole"] = ToJson(settings.PoleAt(frame.time_seconds));
  event["handle_px"] = PixelJson(drag.handle_px);
  if (playback.clip >= 0) event["anim"] = AnimJson(playback);
  if (state.body_ran) event["body"] = BodyJson(model, frame.requests, state);
  return event;
}

Json KeyEvent(const char* name, const assets::Model& model, const EditState& edit,
              const EditedFrame& frame, int chain, float time, std::optional<float> from) {
  const ChainSettings& settings = edit.chains[size_t(chain)];
  Json event;
  event["event"] = name;
  event["chain"] = chain;
  event["label"] = settings.label;
  event["end"] = model.skeleton.name(settings.chain.end);
  event["time"] = Rounded(time);
  if (from) event["from"] = Rounded(*from);
  Json times = Json::array();
  for (float t : ChainKeyTimes(settings)) times.push_back(Rounded(t));
  event["keys"] = std::move(times);
  event["target"] = ToJson(ChainTargetNow(model.skeleton, edit, frame, chain));
  return event;
}

Json TargetsEvent(const char* name, const assets::Model& model, const EditState& edit,
                  const EditedFrame& frame) {
  Json event;
  event["event"] = name;
  Json chains = Json::array();
  for (int i = 0; i < static_cast<int>(edit.chains.size()); ++i) {
    chains.push_back({{"end", model.skeleton.name(edit.chains[i].chain.end)},
                      {"target", ToJson(ChainTargetNow(model.skeleton, edit, frame, i))}});
  }
  event["chains"] = std::move(chains);
  // The blend-shape weights set by hand (mesh and target by index and name), in (mesh, target)
  // order.
  Json morphs = Json::array();
  for (const auto& [key, weight] : edit.morph_weights) {
    const auto [m, t] = key;
    const bool known = m >= 0 && m < static_cast<int>(model.meshes.size()) && t >= 0 &&
                       t < static_cast<int>(model.meshes[m].targets.size());
    morphs.push_back({{"mesh", m},
                      {"mesh_name", known ? model.meshes[m].name : std::string()},
                      {"target", t},
                      {"target_name", known ? model.meshes[m].targets[t].name : std::string()},
                      {"weight", weight}});
  }
  event["morphs"] = std::move(morphs);
  return event;
}

Json LoadStartedEvent(const std::string& path) {
  Json event;
  event["event"] = "load_started";
  event["path"] = path;
  return event;
}

Json LoadDoneEvent(const assets::Model& model, size_t chain_count) {
  Json event;
  event["event"] = "load_done";
  event["model"] = model.source;
  event["joints"] = model.skeleton.joint_count();
  event["chains"] = chain_count;
  return event;
}

Json LoadFailedEvent(const std::string& path, const std::string& error,
                     const std::string& model_source) {
  Json event;
  event["event"] = "load_failed";
  event["path"] = path;
  event["error"] = error;
  event["model"] = model_source;  // the model that stays
  return event;
}

Json ExportEvent(const std::string& path, bool bake, bool ok, const std::string& error) {
  Json event;
  event["event"] = "export";
  event["path"] = path;
  event["bake"] = bake;
  event["ok"] = ok;
  if (!ok) event["error"] = error;
  return event;
}

Json ScreenshotEvent(const std::string& path) {
  Json event;
  event["event"] = "screenshot";
  event["path"] = path;
  return event;
}

Json SelectEvent(const ik::Skeleton& skeleton, int joint) {
  Json event;
  event["event"] = "select";
  event["joint"] =
      joint >= 0 && joint < skeleton.joint_count() ? Json(skeleton.name(joint)) : Json(nullptr);
  return event;
}

Json CameraEvent(const char* by, float yaw_degrees, float pitch_degrees, float distance,
                 const glm::vec3& target, bool ortho) {
  Json event;
  event["event"] = "camera";
  event["by"] = by;
  event["yaw"] = Rounded(yaw_degrees);
  event["pitch"] = Rounded(pitch_degrees);
  event["distance"] = Rounded(distance);
  event["target"] = {Rounded(target.x), Rounded(target.y), Rounded(target.z)};
  event["ortho"] = ortho;
  return event;
}

Json ExitEvent(long frames, const FrameTimes& idle, const FrameTimes& drag,
               const IdleAllocations& allocations) {
  Json event;
  event["event"] = "exit";
  event["frames"] = frames;
  event["idle_frame_ms"] = Rounded(float(idle.mean()));
  event["drag_frame_ms"] = Rounded(float(drag.mean()));
  event["idle_allocations"] = {
      {"frames", allocations.frames}, {"total", allocations.total}, {"max", allocations.max}};
  return event;
}

}  // namespace app
