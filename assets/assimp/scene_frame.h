// The change of frame from a file's own units and axes to skelview's (glTF's: metres, +Y up,
// facing +Z), as Blender's importer places the model. Internal to assets/.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ik/core/transform.h"

struct aiScene;

namespace assets {

// A uniform scale and a rotation applied on top of the scene's root: world = scale · rotation ·
// (the file's world).
struct FrameCorrection {
  float scale = 1.0f;
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};

  bool IsIdentity() const;
  // correction · t (t a local of a root joint, or a key of its track).
  ik::Transform Apply(const ik::Transform& t) const;
  glm::vec3 ApplyToTranslation(const glm::vec3& t) const { return scale * (rotation * t); }
  glm::quat ApplyToRotation(const glm::quat& q) const { return rotation * q; }
  glm::vec3 ApplyToScale(const glm::vec3& s) const { return scale * s; }
};

// From the FBX GlobalSettings Assimp's FBX reader stores in the scene's metadata (UnitScaleFactor
// in centimetres per file unit, UpAxis/UpAxisSign, FrontAxis/FrontAxisSign, CoordAxis/
// CoordAxisSign), mapped as Blender 3.4's FBX importer maps them and then from Blender's frame
// (+Z up, facing -Y) to glTF's: scale = UnitScaleFactor / 100; the file's up axis becomes +Y, its
// front axis +Z. An axis set that is not right-handed falls back to Blender's default (Z up,
// front -Y), as Blender does. A missing or non-finite value keeps its FBX default (1 cm, Y up,
// front +Z, coord +X); a scale outside [1e-6, 1e6] is ignored (the rotation still applies).
// Identity when the scene has no metadata.
FrameCorrection FbxFrameCorrection(const aiScene& scene);

}  // namespace assets
