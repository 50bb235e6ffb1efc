// Model serialisation, the reading half: a reader that checks every count against the bytes
// left before allocating and every value before keeping it, because the bytes may come from a
// child process that a malformed file has corrupted.
#include <cmath>
#include <cstring>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

#include "assets/files/limits.h"
#include "assets/files/model_io.h"
#include "assets/files/model_io_stream.h"
#include "assets/files/text.h"
#include "assets/model/animation.h"

namespace assets {
namespace {

using model_io::kMagic;
using model_io::MeshArrays;
using model_io::MorphArrays;
using model_io::Reader;

// The stream stores floats and integers in the host's byte order, which must be little-endian
// (every platform skelview builds on); bulk arrays are then plain memcpy.
bool HostIsLittleEndian() {
  const uint32_t probe = 1;
  uint8_t first = 0;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

bool WithinCoordinateLimit(float v) { return std::isfinite(v) && std::abs(v) <= kMaxCoordinate; }

bool WithinCoordinateLimit(const glm::vec3& v) {
  return WithinCoordinateLimit(v.x) && WithinCoordinateLimit(v.y) && WithinCoordinateLimit(v.z);
}

bool WithinCoordinateLimit(const glm::mat4& m) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (!WithinCoordinateLimit(m[c][r])) return false;
  return true;
}

bool IsUnit(const glm::quat& q) {
  const float len2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  return std::isfinite(len2) && std::abs(len2 - 1.0f) <= 1e-3f;
}

bool IsUnitKey(const glm::quat& q) {
  const float len2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  return std::isfinite(len2) && std::abs(len2 - 1.0f) <= 1e-6f;
}

bool Finite(const glm::quat& q) {
  return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}

template <typename T>
bool ReadTrack(Reader* r, Track<T>* track, const std::string& what) {
  const uint8_t mode = r->U8("track interpolation");
  if (r->failed()) return false;
  if (mode > static_cast<uint8_t>(Interpolation::kCubicSpline)) {
    return r->Fail("corrupted model data: " + what + " has unknown interpolation " +
                   std::to_string(mode));
  }
  track->interpolation = static_cast<Interpolation>(mode);
  if (!r->Array(&track->times, "track times")) return false;
  for (size_t k = 0; k < track->times.size(); ++k) {
    const float t = track->times[k];
    if (!std::isfinite(t) || (k > 0 && !(t > track->times[k - 1]))) {
      return r->Fail("corrupted model data: " + what + " key times are not finite and increasing");
    }
  }
  const size_t per_key = track->interpolation == Interpolation::kCubicSpline ? 3 : 1;
  constexpr size_t kValueBytes = std::is_same_v<T, glm::quat> ? 16 : 12;
  const size_t n = r->Count(kValueBytes, "track values");
  if (r->failed()) return false;
  if (n != track->times.size() * per_key) {
    return r->Fail("corrupted model data: " + what + " has " + std::to_string(n) + " values for " +
                   std::to_string(track->times.size()) + " keys");
  }
  track->values.resize(n);
  for (size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, glm::quat>) {
      const glm::quat q = r->Quat("rotation key");
      // Values are unit (see Clip); cubic-spline tangents are any finite quaternion.
      const bool tangent = per_key == 3 && i % 3 != 1;
      // Values must be unit to float precision (PrepareClip's own test), so that preparing the
      // clip leaves them as they are and a round trip gives back the same bytes.
      if (!(tangent ? Finite(q) : IsUnitKey(q))) {
        return r->Fail("corrupted model data: " + what + " has a rotation key that is not " +
                       (tangent ? "finite" : "a unit quaternion"));
      }
      track->values[i] = q;
    } else {
      const glm::vec3 v = r->Vec3("vector key");
      if (!WithinCoordinateLimit(v)) {
        return r->Fail("corrupted model data: " + what + " has a non-finite or huge key");
      }
      track->values[i] = v;
    }
  }
  return !r->failed();
}

bool ReadSkeleton(Reader* r, Model* out) {
  // Per joint at least: name length, parent, T, R, S and inverse bind.
  constexpr size_t kJointBytes = 4 + 4 + 12 + 16 + 12 + 64;
  const size_t n = r->Count(kJointBytes, "joints");
  if (r->failed()) return false;
  if (n > static_cast<size_t>(ik::Skeleton::kMaxJoints)) {
    return r->Fail("corrupted model data: " + std::to_string(n) + " joints, more than " +
                   std::to_string(ik::Skeleton::kMaxJoints));
  }
  std::vector<ik::JointDesc> joints(n);
  for (size_t j = 0; j < n; ++j) {
    ik::JointDesc& d = joints[j];
    d.name = r->Text("joint name");
    d.parent = r->I32("joint parent");
    d.rest.translation = r->Vec3("joint translation");
    d.rest.rotation = r->Quat("joint rotation");
    d.rest.scale = r->Vec3("joint scale");
    d.inverse_bind = r->Mat4("joint inverse bind");
    if (r->failed()) return false;
    if (!WithinCoordinateLimit(d.rest.translation) || !WithinCoordinateLimit(d.rest.scale) ||
        !IsUnit(d.rest.rotation) || !WithinCoordinateLimit(*d.inverse_bind)) {
      return r->Fail("corrupted model data: joint " + std::to_string(j) +
                     " has a non-finite, huge or non-unit rest transform or inverse bind");
    }
  }
  std::string error;
  auto skeleton = ik::Skeleton::Build(std::move(joints), &error);
  if (!skeleton) return r->Fail("corrupted model data: " + error);
  out->skeleton = std::move(*skeleton);
  return true;
}

bool ReadMesh(Reader* r, int joint_count, Mesh* mesh, size_t index) {
  const std::string what = "mesh " + std::to_string(index);
  auto fail = [&](const std::string& reason) {
    return r->Fail("corrupted model data: " + what + " " + reason);
  };
  mesh->name = r->Text("mesh name");
  const uint8_t skinned = r->U8("mesh skinned flag");
  if (skinned > 1) return r->Fail("corrupted model data: " + what + " has an invalid skinned flag");
  mesh->skinned = skinned == 1;
  MeshArrays(*mesh, [&](auto& array, const char* name) { r->Array(&array, name); });
  mesh->material = r->I32("mesh material");
  mesh->node = r->I32("mesh node");
  if (r->failed()) return false;
  const size_t n = mesh->positions.size();
  if (mesh->normals.size() != n || (!mesh->tangents.empty() && mesh->tangents.size() != n) ||
      (!mesh->uvs.empty() && mesh->uvs.size() != n) || mesh->joints.size() != n ||
      mesh->weights.size() != n || mesh->extra_joints.size() != mesh->extra_weights.size() ||
      (!mesh->extra_weights.empty() && mesh->extra_weights.size() != n) ||
      (!mesh->weight_flags.empty() && mesh->weight_flags.size() != n)) {
    return fail("has per-vertex arrays of different lengths");
  }
  if (mesh->indices.size() % 3 != 0) return fail("has an index count that is not a multiple of 3");
  for (uint32_t i : mesh->indices)
    if (i >= n) return fail("has a triangle index out of range");
  for (const glm::vec3& p : mesh->positions)
    if (!WithinCoordinateLimit(p)) return fail("has a non-finite or huge position");
  for (const glm::vec3& v : mesh->normals) {
    const float len2 = v.x * v.x + v.y * v.y + v.z * v.z;
    if (!std::isfinite(len2) || std::abs(len2 - 1.0f) > 2e-3f) {
      return fail("has a normal that is not unit length");
    }
  }
  for (const glm::vec4& t : mesh->tangents) {
    const float len2 = t.x * t.x + t.y * t.y + t.z * t.z;
    if (!std::isfinite(len2) || std::abs(len2 - 1.0f) > 2e-3f || (t.w != 1.0f && t.w != -1.0f)) {
      return fail("has a tangent that is not unit length with a handedness of +1 or -1");
    }
  }
  for (const glm::vec2& uv : mesh->uvs)
    if (!std::isfinite(uv.x) || !std::isfinite(uv.y)) return fail("has a non-finite uv");
  if (mesh->bone_joints.size() != mesh->bone_inverse_binds.size()) {
    return fail("has a different number of bones and inverse binds");
  }
  if (mesh->bone_joints.size() > 65535) return fail("has more than 65,535 bones");
  for (int j : mesh->bone_joints)
    if (j < 0 || j >= joint_count) return fail("has a bone that is not a joint");
  for (const glm::mat4& m : mesh->bone_inverse_binds)
    if (!WithinCoordinateLimit(m)) return fail("has a non-finite or huge inverse bind");
  const size_t bones = mesh->bone_joints.size();
  const bool extra = !mesh->extra_weights.empty();
  for (size_t v = 0; v < n; ++v) {
    float sum = 0.0f;
    for (int k = 0; k < (extra ? kMaxInfluences : 4); ++k) {
      const float w = k < 4 ? mesh->weights[v][k] : mesh->extra_weights[v][k - 4];
      const uint16_t joint = k < 4 ? mesh->joints[v][k] : mesh->extra_joints[v][k - 4];
      if (!std::isfinite(w) || w < 0.0f || w > 1.0f + 1e-3f) return fail("has an invalid weight");
      if (w > 0.0f && joint >= bones) return fail("has a joint index out of range");
      sum += w;
    }
    if (std::abs(sum - 1.0f) > 1e-3f) return fail("has weights that do not sum to 1");
  }
  if (mesh->node < -1 || mesh->node >= joint_count) return fail("is on a node that does not exist");
  mesh->targets.resize(r->Count(16, "mesh morph targets"));
  for (MorphTarget& t : mesh->targets) {
    t.name = r->Text("morph target name");
    MorphArrays(t, [&](auto& array, const char* name) { r->Array(&array, name); });
    for (const std::vector<glm::vec3>* d : {&t.positions, &t.normals, &t.tangents}) {
      if (!d->empty() && d->size() != n) return fail("has morph deltas of the wrong count");
      for (const glm::vec3& v : *d)
        if (!WithinCoordinateLimit(v)) return fail("has a non-finite or huge morph delta");
    }
  }
  r->Array(&mesh->target_weights, "mesh morph weights");
  if (r->failed()) return false;
  if (mesh->target_weights.size() != mesh->targets.size()) return fail("has bad morph weights");
  for (float w : mesh->target_weights)
    if (!WithinCoordinateLimit(w)) return fail("has a non-finite morph weight");
  return true;
}

bool ReadMorphChannels(Reader* r, const std::vector<Mesh>& meshes, Clip* clip,
                       const std::string& what) {
  clip->morph_channels.resize(r->Count(4 + 4 + 1 + 8, "clip morph channels"));
  for (MorphAnimation& a : clip->morph_channels) {
    a.mesh = r->I32("morph channel mesh");
    a.width = r->I32("morph channel width");
    const uint8_t mode = r->U8("morph channel interpolation");
    r->Array(&a.times, "morph channel times");
    r->Array(&a.values, "morph channel values");
    if (r->failed()) return false;
    a.interpolation = static_cast<Interpolation>(std::min<uint8_t>(mode, 2));
    const size_t per_key = (mode == 2 ? 3 : 1) * static_cast<size_t>(std::max(a.width, 0));
    bool ok = mode <= 2 && a.mesh >= 0 && a.mesh < static_cast<int>(meshes.size()) && a.width > 0 &&
              static_cast<size_t>(a.width) == meshes[a.mesh].targets.size() &&
              a.values.size() == a.times.size() * per_key;
    for (size_t k = 0; ok && k < a.times.size(); ++k) {
      ok = std::isfinite(a.times[k]) && (k == 0 || a.times[k] > a.times[k - 1]);
    }
    for (size_t i = 0; ok && i < a.values.size(); ++i) ok = WithinCoordinateLimit(a.values[i]);
    if (!ok) return r->Fail("corrupted model data: " + what + " has an invalid morph channel");
  }
  return true;
}

bool ReadClip(Reader* r, int joint_count, const std::vector<Mesh>& meshes, Clip* clip,
              size_t index) {
  const std::string what = "clip " + std::to_string(index);
  clip->name = r->Text("clip name");
  clip->duration = r->F32("clip duration");
  if (r->failed()) return false;
  if (!std::isfinite(clip->duration) || clip->duration < 0.0f) {
    return r->Fail("corrupted model data: " + what + " has an invalid duration");
  }
  // joint + three tracks of (mode, time count, value count).
  constexpr size_t kChannelBytes = 4 + 3 * 9;
  const size_t channels = r->Count(kChannelBytes, "clip channels");
  if (r->failed()) return false;
  clip->channels.resize(channels);
  for (size_t c = 0; c < channels; ++c) {
    JointAnimation& a = clip->channels[c];
    a.joint = r->I32("channel joint");
    if (r->failed()) return false;
    if (a.joint < 0 || a.joint >= joint_count) {
      return r->Fail("corrupted model data: " + what + " animates a joint that does not exist");
    }
    if (!ReadTrack(r, &a.translation, what + " translation") ||
        !ReadTrack(r, &a.rotation, what + " rotation") ||
        !ReadTrack(r, &a.scale, what + " scale")) {
      return false;
    }
  }
  return ReadMorphChannels(r, meshes, clip, what);
}

}  // namespace

bool DeserializeModel(std::string_view bytes, Model* out, std::string* error) {
  size_t offset = 0;
  const ByteSource source = [&](void* data, size_t size) {
    if (size > bytes.size() - offset) return false;
    std::memcpy(data, bytes.data() + offset, size);
    offset += size;
    return true;
  };
  return DeserializeModelFrom(source, bytes.size(), out, error);
}

bool DeserializeModelFrom(const ByteSource& source, uint64_t size, Model* out, std::string* error) {
  auto fail = [&](const std::string& reason) {
    if (error) *error = reason;
    return false;
  };
  if (!HostIsLittleEndian()) return fail("model data needs a little-endian host");
  char magic[sizeof(kMagic)];
  if (size < sizeof(kMagic) + 4 || !source(magic, sizeof(magic)) ||
      std::memcmp(magic, kMagic, sizeof(kMagic)) != 0) {
    return fail("not skelview model data (bad magic)");
  }
  Reader r(&source, size - sizeof(kMagic));
  const uint32_t version = r.U32("version");
  if (version != kModelFormatVersion) {
    return fail("model data of format version " + std::to_string(version) + ", expected " +
                std::to_string(kModelFormatVersion));
  }
  Model model;
  model.source = r.String("source");
  if (!ReadSkeleton(&r, &model)) return fail(r.error());
  const int joints = model.skeleton.joint_count();

  std::vector<uint8_t> is_bone;
  if (!r.Array(&is_bone, "is_bone")) return fail(r.error());
  if (is_bone.size() != static_cast<size_t>(joints)) {
    return fail("corrupted model data: is_bone has " + std::to_string(is_bone.size()) +
                " entries for " + std::to_string(joints) + " joints");
  }
  for (uint8_t flag : is_bone) {
    if (flag > 1) return fail("corrupted model data: an is_bone flag is neither 0 nor 1");
  }
  model.is_bone.assign(is_bone.begin(), is_bone.end());

  // A mesh takes at least its name length, flag, 8 array counts, material and node.
  const size_t meshes = r.Count(4 + 1 + 8 * 4 + 8, "meshes");
  model.meshes.resize(meshes);
  for (size_t m = 0; m < meshes && !r.failed(); ++m) ReadMesh(&r, joints, &model.meshes[m], m);
  if (r.failed()) return fail(r.error());

  const size_t materials = r.Count(4 + 16 + 4, "materials");
  model.materials.resize(materials);
  for (size_t i = 0; i < materials && !r.failed(); ++i) {
    Material& m = model.materials[i];
    m.name = r.Text("material name");
    r.Bytes(&m.base_color, sizeof(m.base_color), "material colour");
    m.base_color_texture = r.I32("material texture");
    for (int k = 0; k < 4 && !r.failed(); ++k)
      if (!std::isfinite(m.base_color[k]))
        r.Fail("corrupted model data: non-finite material colour");
  }
  if (r.failed()) return fail(r.error());
  for (const Mesh& mesh : model.meshes) {
    if (mesh.material < -1 || mesh.material >= static_cast<int>(materials)) {
      return fail("corrupted model data: mesh '" + Escaped(mesh.name, kMaxShownArgumentBytes) +
                  "' uses a missing material");
    }
  }

  const size_t textures = r.Count(4 + 4 + 4 + 4, "textures");
  model.textures.resize(textures);
  for (size_t i = 0; i < textures && !r.failed(); ++i) {
    Texture& t = model.textures[i];
    t.name = r.Text("texture name");
    t.width = r.I32("texture width");
    t.height = r.I32("texture height");
    r.Array(&t.rgba, "texture pixels");
    if (!r.failed() &&
        (t.width < 0 || t.height < 0 ||
         uint64_t(uint32_t(t.width)) * uint64_t(uint32_t(t.height)) * 4 != t.rgba.size())) {
      r.Fail("corrupted model data: texture " + std::to_string(i) +
             " size does not match its pixels");
    }
  }
  if (r.failed()) return fail(r.error());
  for (const Material& m : model.materials) {
    if (m.base_color_texture < -1 || m.base_color_texture >= static_cast<int>(textures)) {
      return fail("corrupted model data: material '" + Escaped(m.name, kMaxShownArgumentBytes) +
                  "' uses a missing texture");
    }
  }

  const size_t clips = r.Count(4 + 4 + 4, "clips");
  model.clips.resize(clips);
  for (size_t c = 0; c < clips && !r.failed(); ++c)
    ReadClip(&r, joints, model.meshes, &model.clips[c], c);
  if (r.failed()) return fail(r.error());
  for (Clip& clip : model.clips) PrepareClip(&clip);

  const size_t warnings = r.Count(4, "warnings");
  model.warnings.resize(warnings);
  for (size_t i = 0; i < warnings && !r.failed(); ++i) model.warnings[i] = r.Text("warning");
  r.Bytes(&model.influences, sizeof(InfluenceStats), "influence counts");
  if (r.failed()) return fail(r.error());

  // Source files are absolute paths, each once (outputs are checked against them).
  const size_t files = r.Count(4, "source files");
  model.source_files.resize(files);
  std::set<std::string> seen;
  for (size_t i = 0; i < files && !r.failed(); ++i) {
    std::string& file = model.source_files[i];
    file = r.String("source file");
    if (r.failed()) break;
    if (file.empty() || file[0] != '/' || file.find('\0') != std::string::npos) {
      r.Fail("corrupted model data: source file " + std::to_string(i) + " is not an absolute path");
    } else if (!seen.insert(file).second) {
      r.Fail("corrupted model data: source file " + std::to_string(i) + " is listed twice");
    }
  }
  if (r.failed()) return fail(r.error());

  // The avatar's description and the skeleton's humanoid map (checked by SetHumanoid).
  AvatarMeta& avatar = model.avatar;
  for (std::string* text : {&avatar.format, &avatar.title, &avatar.author, &avatar.license}) {
    *text = r.String("avatar description");
  }
  const size_t humanoid = r.Count(8, "humanoid bones");
  std::vector<ik::HumanoidBone> bones(humanoid);
  for (size_t i = 0; i < humanoid && !r.failed(); ++i) {
    bones[i].bone = r.String("humanoid bone");
    bones[i].joint = r.I32("humanoid joint");
  }
  if (r.failed()) return fail(r.error());
  std::string humanoid_error;
  if (!model.skeleton.SetHumanoid(std::move(bones), &humanoid_error)) {
    return fail("corrupted model data: " + humanoid_error);
  }
  if (r.remaining() != 0) {
    return fail("corrupted model data: " + std::to_string(r.remaining()) +
                " unexpected bytes after the end");
  }
  *out = std::move(model);
  return true;
}

}  // namespace assets
