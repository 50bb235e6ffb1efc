// Model serialisation, the writing half: the Model written field by field into a flat
// little-endian stream (model_io_stream.h), counted without writing for SerializedModelSize.
#include <string>
#include <type_traits>
#include <vector>

#include "assets/files/model_io.h"
#include "assets/files/model_io_stream.h"

namespace assets {
namespace {

using model_io::kMagic;
using model_io::MeshArrays;
using model_io::MorphArrays;
using model_io::Writer;

template <typename T>
void WriteTrack(Writer* w, const Track<T>& track) {
  w->U8(static_cast<uint8_t>(track.interpolation));
  w->Array(track.times);
  w->U32(static_cast<uint32_t>(track.values.size()));
  for (const T& v : track.values) {
    if constexpr (std::is_same_v<T, glm::quat>) {
      w->Quat(v);
    } else {
      w->Vec3(v);
    }
  }
}

void WriteModel(Writer* writer, const Model& model) {
  Writer& w = *writer;
  w.Bytes(kMagic, sizeof(kMagic));
  w.U32(kModelFormatVersion);
  w.String(model.source);

  const ik::Skeleton& s = model.skeleton;
  w.U32(static_cast<uint32_t>(s.joint_count()));
  for (int j = 0; j < s.joint_count(); ++j) {
    const ik::Transform& rest = s.rest_locals()[j];
    w.String(s.name(j));
    w.I32(s.parent(j));
    w.Vec3(rest.translation);
    w.Quat(rest.rotation);
    w.Vec3(rest.scale);
    w.Mat4(s.inverse_binds()[j]);
  }
  std::vector<uint8_t> is_bone(model.is_bone.begin(), model.is_bone.end());
  w.Array(is_bone);

  w.U32(static_cast<uint32_t>(model.meshes.size()));
  for (const Mesh& m : model.meshes) {
    w.String(m.name);
    w.U8(m.skinned ? 1 : 0);
    MeshArrays(m, [&](const auto& array, const char*) { w.Array(array); });
    w.I32(m.material);
    w.I32(m.node);
    w.U32(static_cast<uint32_t>(m.targets.size()));
    for (const MorphTarget& t : m.targets) {
      w.String(t.name);
      MorphArrays(t, [&](const auto& array, const char*) { w.Array(array); });
    }
    w.Array(m.target_weights);
  }
  w.U32(static_cast<uint32_t>(model.materials.size()));
  for (const Material& m : model.materials) {
    w.String(m.name);
    w.Bytes(&m.base_color, sizeof(m.base_color));
    w.I32(m.base_color_texture);
  }
  w.U32(static_cast<uint32_t>(model.textures.size()));
  for (const Texture& t : model.textures) {
    w.String(t.name);
    w.I32(t.width);
    w.I32(t.height);
    w.Array(t.rgba);
  }
  w.U32(static_cast<uint32_t>(model.clips.size()));
  for (const Clip& c : model.clips) {
    w.String(c.name);
    w.F32(c.duration);
    w.U32(static_cast<uint32_t>(c.channels.size()));
    for (const JointAnimation& a : c.channels) {
      w.I32(a.joint);
      WriteTrack(&w, a.translation);
      WriteTrack(&w, a.rotation);
      WriteTrack(&w, a.scale);
    }
    w.U32(static_cast<uint32_t>(c.morph_channels.size()));
    for (const MorphAnimation& a : c.morph_channels) {
      w.I32(a.mesh);
      w.I32(a.width);
      w.U8(static_cast<uint8_t>(a.interpolation));
      w.Array(a.times);
      w.Array(a.values);
    }
  }
  w.U32(static_cast<uint32_t>(model.warnings.size()));
  for (const std::string& warning : model.warnings) w.String(warning);
  w.Bytes(&model.influences, sizeof(InfluenceStats));
  w.U32(static_cast<uint32_t>(model.source_files.size()));
  for (const std::string& file : model.source_files) w.String(file);
  const AvatarMeta& avatar = model.avatar;
  for (const std::string* text : {&avatar.format, &avatar.title, &avatar.author, &avatar.license}) {
    w.String(*text);
  }
  w.U32(static_cast<uint32_t>(s.humanoid().size()));
  for (const ik::HumanoidBone& b : s.humanoid()) {
    w.String(b.bone);
    w.I32(b.joint);
  }
}

}  // namespace

uint64_t SerializedModelSize(const Model& model) {
  Writer counter(nullptr);
  WriteModel(&counter, model);
  return counter.written();
}

bool SerializeModelTo(const Model& model, const ByteSink& sink) {
  Writer w(&sink);
  WriteModel(&w, model);
  return w.Flush();
}

std::string SerializeModel(const Model& model) {
  std::string out;
  out.reserve(SerializedModelSize(model));
  SerializeModelTo(model, [&out](const void* data, size_t size) {
    out.append(static_cast<const char*>(data), size);
    return true;
  });
  return out;
}

}  // namespace assets
