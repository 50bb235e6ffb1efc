// The export's animations: each clip as one glTF animation, every track with its own keys and
// interpolation; key times shared between tracks (and clips) are written once.
#include <map>
#include <type_traits>
#include <utility>

#include "assets/export/export_plan.h"

namespace assets {
namespace {

using gltf_out::Json;

const char* InterpolationName(Interpolation interpolation) {
  switch (interpolation) {
    case Interpolation::kStep:
      return "STEP";
    case Interpolation::kCubicSpline:
      return "CUBICSPLINE";
    default:
      return "LINEAR";
  }
}

// The keys glTF can hold: increasing times, and one value per key (three for a cubic spline).
template <typename T>
bool Writable(const Track<T>& track) {
  const size_t per_key = track.interpolation == Interpolation::kCubicSpline ? 3 : 1;
  return !track.times.empty() && track.values.size() == track.times.size() * per_key;
}

bool Writable(const MorphAnimation& a, const Model& model) {
  if (a.mesh < 0 || static_cast<size_t>(a.mesh) >= model.meshes.size() || a.times.empty()) {
    return false;
  }
  // glTF writes one weight per target of the mesh at every key.
  const size_t width = model.meshes[static_cast<size_t>(a.mesh)].targets.size();
  const size_t per_key = a.interpolation == Interpolation::kCubicSpline ? 3 : 1;
  return width > 0 && static_cast<size_t>(a.width) == width &&
         a.values.size() == a.times.size() * per_key * width;
}

class ClipWriter {
 public:
  ClipWriter(gltf_out::Writer* writer) : writer_(writer) {}

  template <typename T>
  void Track(const assets::Track<T>& track, int node, const char* path) {
    constexpr bool kRotation = std::is_same_v<T, glm::quat>;
    constexpr int kComponents = kRotation ? 4 : 3;
    std::vector<float> values;
    values.reserve(track.values.size() * kComponents);
    for (const T& v : track.values) {
      if constexpr (kRotation) {
        values.insert(values.end(), {v.x, v.y, v.z, v.w});
      } else {
        values.insert(values.end(), {v.x, v.y, v.z});
      }
    }
    Add(track.times, values, kComponents, track.interpolation, node, path);
  }

  void Weights(const MorphAnimation& a, int node) {
    Add(a.times, a.values, 1, a.interpolation, node, "weights");
  }

  // The animation, or null when the clip wrote no channel.
  Json Finish(const std::string& name) {
    if (channels_.empty()) return nullptr;
    Json animation = {
        {"name", name}, {"samplers", std::move(samplers_)}, {"channels", std::move(channels_)}};
    samplers_ = Json::array();
    channels_ = Json::array();
    return animation;
  }

 private:
  void Add(const std::vector<float>& times, const std::vector<float>& values, int components,
           Interpolation interpolation, int node, const char* path) {
    // glTF requires min and max on a sampler's input.
    const int64_t input = writer_->AddSharedFloats(times.data(), times.size(), 1);
    const int64_t output = writer_->AddFloats(values.data(), values.size() / size_t(components),
                                              components, gltf_out::ViewUse::kOther, false);
    samplers_.push_back({{"input", input},
                         {"output", output},
                         {"interpolation", InterpolationName(interpolation)}});
    channels_.push_back(
        {{"sampler", samplers_.size() - 1}, {"target", {{"node", node}, {"path", path}}}});
  }

  gltf_out::Writer* writer_;
  Json samplers_ = Json::array();
  Json channels_ = Json::array();
};

}  // namespace

void WriteClips(const Model& model, const ExportPlan& plan, gltf_out::Writer* writer) {
  const int joints = model.skeleton.joint_count();
  ClipWriter clip_writer(writer);
  Json animations = Json::array();
  for (const Clip& clip : model.clips) {
    // Where a clip animates one joint property twice, the sampler uses the last well-formed
    // track (assets/model/animation.h); glTF allows one channel per node and property.
    std::map<std::pair<int, int>, size_t> last;  // (joint, property) -> channel
    for (size_t c = 0; c < clip.channels.size(); ++c) {
      const JointAnimation& a = clip.channels[c];
      if (a.joint < 0 || a.joint >= joints) continue;
      if (Writable(a.translation)) last[{a.joint, 0}] = c;
      if (Writable(a.rotation)) last[{a.joint, 1}] = c;
      if (Writable(a.scale)) last[{a.joint, 2}] = c;
    }
    auto chosen = [&](const JointAnimation& a, int property, size_t c) {
      auto found = last.find({a.joint, property});
      return found != last.end() && found->second == c;
    };
    for (size_t c = 0; c < clip.channels.size(); ++c) {
      const JointAnimation& a = clip.channels[c];
      if (chosen(a, 0, c)) clip_writer.Track(a.translation, a.joint, "translation");
      if (chosen(a, 1, c)) clip_writer.Track(a.rotation, a.joint, "rotation");
      if (chosen(a, 2, c)) clip_writer.Track(a.scale, a.joint, "scale");
    }
    std::map<int, size_t> last_weights;  // mesh -> morph channel
    for (size_t c = 0; c < clip.morph_channels.size(); ++c) {
      const MorphAnimation& a = clip.morph_channels[c];
      if (Writable(a, model) && plan.placements[static_cast<size_t>(a.mesh)].written) {
        last_weights[a.mesh] = c;
      }
    }
    for (size_t c = 0; c < clip.morph_channels.size(); ++c) {
      const MorphAnimation& a = clip.morph_channels[c];
      auto found = last_weights.find(a.mesh);
      if (found == last_weights.end() || found->second != c) continue;
      clip_writer.Weights(a, plan.placements[static_cast<size_t>(a.mesh)].node);
    }
    Json animation = clip_writer.Finish(clip.name);
    if (!animation.is_null()) animations.push_back(std::move(animation));
  }
  if (!animations.empty()) writer->root["animations"] = std::move(animations);
}

}  // namespace assets
