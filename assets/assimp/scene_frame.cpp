// FBX GlobalSettings (units and axes) to skelview's frame, the way Blender's FBX importer reads
// them; see assets/assimp/scene_frame.h.
#include "assets/assimp/scene_frame.h"

#include <assimp/scene.h>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace assets {
namespace {

// A metadata entry as a double, whatever numeric type Assimp stored it with.
bool MetadataNumber(const aiMetadata* meta, const char* key, double* out) {
  if (!meta || !meta->mKeys || !meta->mValues) return false;
  for (unsigned i = 0; i < meta->mNumProperties; ++i) {
    if (std::strcmp(meta->mKeys[i].C_Str(), key) != 0) continue;
    const aiMetadataEntry& e = meta->mValues[i];
    if (!e.mData) return false;
    double v = 0.0;
    switch (e.mType) {
      case AI_BOOL:
        v = *static_cast<const bool*>(e.mData) ? 1.0 : 0.0;
        break;
      case AI_INT32:
        v = *static_cast<const int32_t*>(e.mData);
        break;
      case AI_UINT64:
        v = static_cast<double>(*static_cast<const uint64_t*>(e.mData));
        break;
      case AI_FLOAT:
        v = static_cast<double>(*static_cast<const float*>(e.mData));
        break;
      case AI_DOUBLE:
        v = *static_cast<const double*>(e.mData);
        break;
      default:
        return false;
    }
    if (!std::isfinite(v)) return false;
    *out = v;
    return true;
  }
  return false;
}

// The signed unit axis (0, 1, 2 for x, y, z; sign ±1), or false for anything else.
bool AxisVector(const aiMetadata* meta, const char* axis_key, const char* sign_key, int axis,
                int sign, glm::vec3* out) {
  double a = axis, s = sign;
  MetadataNumber(meta, axis_key, &a);
  MetadataNumber(meta, sign_key, &s);
  if (!(a == 0.0 || a == 1.0 || a == 2.0) || !(s == 1.0 || s == -1.0)) return false;
  *out = glm::vec3(0.0f);
  (*out)[static_cast<int>(a)] = static_cast<float>(s);
  return true;
}

}  // namespace

bool FrameCorrection::IsIdentity() const {
  return scale == 1.0f && rotation == glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
}

ik::Transform FrameCorrection::Apply(const ik::Transform& t) const {
  ik::Transform out;
  out.translation = ApplyToTranslation(t.translation);
  out.rotation = glm::normalize(ApplyToRotation(t.rotation));
  out.scale = ApplyToScale(t.scale);
  return out;
}

FrameCorrection FbxFrameCorrection(const aiScene& scene) {
  FrameCorrection c;
  const aiMetadata* meta = scene.mMetaData;
  if (!meta) return c;
  // Blender: global scale = UnitScaleFactor / 100 for a scene in metres (FBX counts centimetres).
  double unit = 1.0;
  MetadataNumber(meta, "UnitScaleFactor", &unit);
  const double scale = unit / 100.0;
  if (scale >= 1e-6 && scale <= 1e6) c.scale = static_cast<float>(scale);
  // The file's up and front axes, and the third (coord) axis that must complete them to a
  // right-handed frame; Blender falls back to its own frame (Z up, front -Y) otherwise.
  glm::vec3 up, front, coord;
  const bool read = AxisVector(meta, "UpAxis", "UpAxisSign", 1, 1, &up) &&
                    AxisVector(meta, "FrontAxis", "FrontAxisSign", 2, 1, &front) &&
                    AxisVector(meta, "CoordAxis", "CoordAxisSign", 0, 1, &coord);
  if (!read || glm::cross(up, front) != coord) {
    up = glm::vec3(0.0f, 0.0f, 1.0f);
    front = glm::vec3(0.0f, -1.0f, 0.0f);
    coord = glm::vec3(1.0f, 0.0f, 0.0f);
  }
  // Rows: where the file's axes go in glTF (coord → +X, up → +Y, front → +Z); an orthonormal
  // right-handed basis, so this is a rotation. glm is column major: m[col][row].
  glm::mat3 m;
  for (int col = 0; col < 3; ++col) {
    m[col][0] = coord[col];
    m[col][1] = up[col];
    m[col][2] = front[col];
  }
  c.rotation = glm::normalize(glm::quat_cast(m));
  // quat_cast of an exact permutation can be exact already; snap tiny noise away for identity.
  if (std::abs(std::abs(c.rotation.w) - 1.0f) < 1e-7f) c.rotation = glm::quat(1.0f, 0, 0, 0);
  return c;
}

}  // namespace assets
