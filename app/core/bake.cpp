// Clip baking and the export of edits.
#include "app/core/bake.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "assets/export/exporter.h"
#include "assets/files/text.h"

namespace app {

namespace {

struct RateEstimate {
  float keyed = 30.0f;  // the most common key interval's rate
  float fps = 30.0f;    // the rate used (keyed, unless the keys do not support it)
};

RateEstimate EstimateRate(const assets::Clip& clip) {
  // Histogram of key intervals rounded to 0.1 ms, and the most keys of one track.
  std::map<long, int> counts;
  size_t most_keys = 0;
  auto add = [&](const std::vector<float>& times) {
    most_keys = std::max(most_keys, times.size());
    for (size_t k = 1; k < times.size(); ++k) {
      const float dt = times[k] - times[k - 1];
      if (dt > 1e-5f) ++counts[std::lround(double(dt) * 1e4)];
    }
  };
  for (const assets::JointAnimation& c : clip.channels) {
    add(c.translation.times);
    add(c.rotation.times);
    add(c.scale.times);
  }
  for (const assets::MorphAnimation& m : clip.morph_channels) add(m.times);
  RateEstimate rate;
  if (counts.empty()) return rate;
  const auto most =
      std::max_element(counts.begin(), counts.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  const double keyed = std::clamp(std::round(1e4 / double(most->first)), 1.0, 240.0);
  rate.keyed = rate.fps = static_cast<float>(keyed);
  const double duration = double(clip.duration);
  const double trusted_frames = kFramesPerKeyTrusted * double(most_keys);
  if (duration > 0.0 && duration * keyed > trusted_frames) {
    rate.fps = static_cast<float>(std::clamp(std::floor(trusted_frames / duration), 1.0, keyed));
  }
  return rate;
}

std::string ClipLabel(const assets::Clip& clip, int index) {
  return "clip " + std::to_string(index) + " '" + assets::ShownArgument(clip.name) + "'";
}

std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.6g", value);
  return text;
}

}  // namespace

float EstimateFrameRate(const assets::Clip& clip) { return EstimateRate(clip).fps; }

bool PlanBake(const Character& character, int clip_index, BakePlan* plan, std::string* error) {
  const assets::Clip& clip = *character.clip(clip_index);
  const RateEstimate rate = EstimateRate(clip);
  const double joints = std::max(1, character.skeleton().joint_count());
  const double duration = std::max(0.0, double(clip.duration));
  // (frames + 1) poses of every joint.
  auto keys = [&](double fps) { return (std::ceil(duration * fps - 1e-4) + 1.0) * joints; };
  BakePlan out;
  out.fps = rate.fps;
  if (rate.fps < rate.keyed) {
    out.note = ClipLabel(clip, clip_index) + " is keyed " + Number(rate.keyed) +
               " times a second in places but has few keys over its " + Number(duration) +
               " s: baked at " + Number(rate.fps) + " fps";
  }
  if (keys(out.fps) > double(kMaxBakeKeys)) {
    const double fit = std::floor((double(kMaxBakeKeys) / joints - 1.0) / std::max(duration, 1e-9));
    if (fit < 1.0) {
      *error = "cannot bake " + ClipLabel(clip, clip_index) + ": it runs " + Number(duration) +
               " s, and even at 1 frame per second its " + Number(joints) + " joints need " +
               Number(keys(1.0)) + " keys, more than the " + Number(double(kMaxBakeKeys)) +
               " skelview bakes";
      return false;
    }
    out.note = ClipLabel(clip, clip_index) + ": baked at " + Number(fit) + " fps instead of " +
               Number(out.fps) + " fps, which would need " + Number(keys(out.fps)) +
               " keys (more than the " + Number(double(kMaxBakeKeys)) + " skelview bakes)";
    out.fps = static_cast<float>(fit);
  }
  out.frames = std::max(1, static_cast<int>(std::ceil(duration * double(out.fps) - 1e-4)));
  *plan = out;
  return true;
}

bool BakeClip(const Character& character, int clip_index, float fps, const EditState& edit,
              const BakeProgress& progress, assets::Clip* out) {
  const assets::Clip& source = *character.clip(clip_index);
  const int joints = character.skeleton().joint_count();
  assets::Clip baked;
  baked.name = (source.name.empty() ? "clip" : source.name) + " (IK)";
  baked.duration = source.duration;
  baked.morph_channels = source.morph_channels;  // IK moves no blend shape: kept as keyed
  baked.channels.resize(joints);
  const int frames =
      std::max(1, static_cast<int>(std::ceil(double(source.duration) * double(fps) - 1e-4)));
  const size_t keys = source.duration > 0.0f ? static_cast<size_t>(frames) + 1 : 1;
  for (int j = 0; j < joints; ++j) {
    assets::JointAnimation& channel = baked.channels[j];
    channel.joint = j;
    channel.translation.interpolation = assets::Interpolation::kLinear;
    channel.rotation.interpolation = assets::Interpolation::kLinear;
    channel.scale.interpolation = assets::Interpolation::kLinear;
    for (auto* times : {&channel.translation.times, &channel.rotation.times, &channel.scale.times})
      times->reserve(keys);
    channel.translation.values.reserve(keys);
    channel.rotation.values.reserve(keys);
    channel.scale.values.reserve(keys);
  }
  EditedFrame frame;
  PoseState state;
  // The last pose whose every transform was finite: a frame whose solve is not keeps it.
  std::vector<ik::Transform> last_good = character.skeleton().rest_locals();
  const int report_every = std::max(1, frames / 200);
  for (int f = 0; f <= frames; ++f) {
    if (progress && f % report_every == 0 && !progress(float(f) / float(frames + 1))) return false;
    const float t = f == frames ? source.duration : float(f) / fps;
    EvaluateEditedFrame(character, ClipTime{clip_index, t}, edit, &frame, &state);
    const bool finite = std::all_of(state.pose.locals.begin(), state.pose.locals.end(),
                                    [](const ik::Transform& x) { return x.IsFinite(); });
    if (finite) last_good = state.pose.locals;
    for (int j = 0; j < joints; ++j) {
      const ik::Transform& local = last_good[j];
      assets::JointAnimation& channel = baked.channels[j];
      channel.translation.times.push_back(t);
      channel.translation.values.push_back(local.translation);
      channel.rotation.times.push_back(t);
      // Keep consecutive keys in the same hemisphere so linear interpolation takes the short way.
      glm::quat q = local.rotation;
      if (!channel.rotation.values.empty() && glm::dot(channel.rotation.values.back(), q) < 0.0f) {
        q = -q;
      }
      channel.rotation.values.push_back(q);
      channel.scale.times.push_back(t);
      channel.scale.values.push_back(local.scale);
    }
    if (source.duration <= 0.0f) break;
  }
  if (progress && !progress(1.0f)) return false;
  *out = std::move(baked);
  return true;
}

assets::Clip BakeClip(const Character& character, int clip_index, float fps,
                      const EditState& edit) {
  assets::Clip baked;
  BakeClip(character, clip_index, fps, edit, BakeProgress(), &baked);
  return baked;
}

bool ExportEdited(const Character& character, const ik::Pose& solved_pose, int clip,
                  const EditState& edit, bool bake, const std::string& path, std::string* error,
                  const BakeProgress& progress, BakePlan* plan_out,
                  assets::ExportFailure* failure) {
  const assets::Model& model = character.model();
  if (failure) *failure = assets::ExportFailure::kNone;
  if (bake && character.clip(clip)) {
    // The played clip baked with the IK in its place (clips played together: after the model's
    // own), the model's other clips as they are.
    BakePlan plan;
    if (!PlanBake(character, clip, &plan, error)) {
      if (failure) *failure = assets::ExportFailure::kRefused;
      return false;
    }
    if (plan_out) *plan_out = plan;
    assets::Clip baked_clip;
    if (!BakeClip(character, clip, plan.fps, edit, progress, &baked_clip)) {
      *error = assets::ShownPath(path) + ": cancelled; nothing written";
      if (failure) *failure = assets::ExportFailure::kRefused;
      return false;
    }
    assets::Model baked = model;
    if (clip < character.file_clip_count()) {
      baked.clips[static_cast<size_t>(clip)] = std::move(baked_clip);
    } else {
      baked.clips.push_back(std::move(baked_clip));
    }
    return assets::ExportGltf(baked, path, error, failure);
  }
  return assets::ExportGltf(model, solved_pose, path, error, failure);
}

BakeExport::~BakeExport() {
  Cancel();
  if (thread_.joinable()) thread_.join();
}

void BakeExport::Start(const Character& character, const ik::Pose& solved_pose, int clip,
                       const EditState& edit, const std::string& path) {
  if (thread_.joinable()) {
    Cancel();
    thread_.join();
  }
  done_.store(false);
  cancel_.store(false);
  progress_.store(0.0f);
  path_ = path;
  ok_ = false;
  error_.clear();
  // The thread works on copies: the model (and the character over it) may be unloaded meanwhile.
  thread_ =
      std::thread([this, model = character.model(), character, solved_pose, clip, edit, path]() {
        const Character own(character, model);
        std::string error;
        const bool ok = ExportEdited(own, solved_pose, clip, edit, /*bake=*/true, path, &error,
                                     [this](float fraction) {
                                       progress_.store(fraction);
                                       return !cancel_.load();
                                     });
        ok_ = ok;
        error_ = error;
        done_.store(true);
      });
}

bool BakeExport::Finished(bool* ok, std::string* error) {
  if (!thread_.joinable() || !done_.load()) return false;
  thread_.join();
  *ok = ok_;
  *error = error_;
  return true;
}

EditState EditForRequests(const Character& character, const ConstraintRequests& requests) {
  const assets::Model& model = character.model();
  EditState edit;
  edit.limits = requests.limits;
  // The keys of a keyed request (--ik END@T=..., --pin JOINT@T=...), none for the others.
  auto keys_of = [&](bool pin, size_t index, ChainSettings* chain) {
    for (const ConstraintRequests::Keyed& keyed : requests.keyed) {
      if (keyed.pin != pin || keyed.index != static_cast<int>(index)) continue;
      chain->target_keys = keyed.target;
      chain->pole_keys = keyed.pole;
      if (!keyed.target.empty()) chain->pinned = keyed.target.front().value;
      if (!keyed.pole.empty()) chain->pole = keyed.pole.front().value;
    }
  };
  for (size_t r = 0; r < requests.ik.size(); ++r) {
    const IkChainRequest& request = requests.ik[r];
    ChainSettings chain;
    chain.label = model.skeleton.name(request.chain.end);
    chain.chain = request.chain;
    chain.mode = TargetMode::kPinned;
    chain.pinned = request.target.position;
    chain.use_pole = request.options.pole_model.has_value();
    if (chain.use_pole) chain.pole = *request.options.pole_model;
    chain.hinge = request.options.hinge;
    chain.soft = request.options.soft;
    chain.weight = request.options.weight;
    chain.end_orientation = request.options.end_orientation;
    chain.body_helps = request.body_helps;
    keys_of(false, r, &chain);
    edit.chains.push_back(chain);
  }
  // Pins and moves: a pinned hand or foot is its limb's two-bone chain on the pin (a chain's
  // target holds the body whenever the body solve runs); a joint of the body is a body handle,
  // held (a pin) or placed (a move). A pin without a point follows the animation.
  edit.body_options = requests.body.options;
  const std::vector<ik::Limb>& limbs = character.limbs();
  for (size_t e = 0; e < requests.body.effectors.size(); ++e) {
    const ik::BodyEffector& effector = requests.body.effectors[e];
    ChainSettings chain;
    std::string error;
    const bool pin = effector.kind == ik::BodyEffector::Kind::kPin;
    const bool limb_end = pin && std::any_of(limbs.begin(), limbs.end(), [&](const ik::Limb& limb) {
                            return limb.chain.end == effector.joint;
                          });
    if (limb_end) {
      if (!MakeChain(character, effector.joint, &chain, &error)) continue;
    } else {
      if (!MakeBody(character, effector.joint, &chain, &error)) continue;
      chain.body_pin = pin;
    }
    if (effector.target_model) {
      chain.mode = TargetMode::kPinned;
      chain.pinned = *effector.target_model;
    }
    keys_of(true, e, &chain);
    edit.chains.push_back(chain);
  }
  for (const FabrikRequest& request : requests.fabrik) {
    ChainSettings chain;
    std::string error;
    if (!MakeFabrik(model, request.root, request.end, &chain, &error)) continue;
    chain.mode = TargetMode::kPinned;
    chain.pinned = request.target;
    chain.tolerance = request.options.tolerance;
    chain.max_iterations = request.options.max_iterations;
    edit.chains.push_back(chain);
  }
  for (const AimRequest& request : requests.aim) {
    ChainSettings chain;
    std::string error;
    if (!MakeAim(model, request.joint, &chain, &error)) continue;
    chain.mode = TargetMode::kPinned;
    chain.pinned = request.target;
    chain.target_joint = request.target_joint;
    chain.weight = request.options.weight;
    chain.spread = request.options.spread;
    chain.spread_falloff = request.options.spread_falloff;
    chain.use_up = request.options.up_target_model.has_value();
    if (chain.use_up) chain.up = *request.options.up_target_model;
    edit.chains.push_back(chain);
  }
  return edit;
}

}  // namespace app
