// Collada morph controllers, which Assimp 5.2.5 cannot read (its parser keeps the '#' of
// <morph source> and never reads <targets>, so a file holding one fails to load): found in the
// file's text, taken out of what Assimp reads, and their targets put back as aiAnimMeshes.
// Internal to assets/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct aiScene;

namespace assets {

// One <controller><morph> of a Collada file, as its text gives it.
struct ColladaMorph {
  std::string controller_id;
  std::string base_geometry;  // the <morph source> geometry's id
  std::string base_name;      // its name attribute, or its id without one: Assimp's mesh name
  bool relative = false;  // method="RELATIVE": targets are offsets; NORMALIZED (default): shapes
  std::vector<std::string> target_geometries;  // MORPH_TARGET ids, in file order
  std::vector<std::string> target_names;       // their geometries' names (ids without one)
  std::vector<float> weights;                  // MORPH_WEIGHT values; empty when unreadable
  std::string weight_source;                   // the MORPH_WEIGHT <source>'s id
  std::string weight_array;                    // the id of the <float_array> inside it
};

// How a key's segment (from it to the next key) plays: the sampler's INTERPOLATION name. kOther
// stands for the names skelview cannot play (CARDINAL, BSPLINE, TCB...): played linearly.
enum class ColladaInterpolation : uint8_t { kLinear, kStep, kBezier, kHermite, kOther };

// An animation channel of one morph weight: target `target` of plan.morphs[morph], keys at
// `times` (seconds, increasing) with `values`, each key's segment played as `interpolations`
// says (collada_weight_curves.h turns them into linear keys).
struct ColladaWeightTrack {
  size_t morph = 0;
  size_t target = 0;
  std::string channel;  // the <channel>'s target attribute, for warnings
  std::vector<float> times;
  std::vector<float> values;
  // One per key; empty when all are LINEAR: the sampler has no INTERPOLATION input, or one whose
  // names are missing or not one per key (then `interpolations_unread`).
  std::vector<ColladaInterpolation> interpolations;
  bool interpolations_unread = false;
  std::string other_interpolation;  // the first name read as kOther
  // The IN_TANGENT and OUT_TANGENT points of BEZIER and HERMITE keys: key k's point is
  // (tangents[k * stride], tangents[k * stride + 1]) when it exists (time in seconds, value).
  // Stride 0 when the input is missing or its numbers are unreadable (not all finite); else its
  // accessor's stride, or without one 2 for two numbers per key and 1 otherwise (1: one number
  // per key, COLLADA 1.4.0's 1D tangents, which are not read).
  std::vector<float> in_tangents, out_tangents;
  size_t in_stride = 0, out_stride = 0;
};

// What PlanColladaMorphs found and the two texts Assimp reads instead of the file.
struct ColladaMorphPlan {
  std::vector<ColladaMorph> morphs;
  // The file without its morph controllers, each use of one (<instance_controller>, a <skin>'s
  // source) pointing at the controller's base geometry instead, and without the animation
  // channels that target morph weights.
  std::vector<uint8_t> loadable;
  // `loadable` showing, instead of the file's scene, one node per target geometry (named
  // ColladaTargetNodeName(m, t)); empty when the file has no <library_visual_scenes> to add it to.
  std::vector<uint8_t> targets_scene;
  // The file's channels animating a morph weight ("WEIGHTS(i)" or "NODE/WEIGHTS(i)", WEIGHTS
  // the MORPH_WEIGHT source's or array's id), left out of `loadable`.
  std::vector<ColladaWeightTrack> weight_tracks;
  size_t unread_weight_channels = 0;  // such channels whose keys could not be read (left out)
};

// Whether Assimp reads `path` as Collada, so that PlanColladaMorphs applies: a .dae file, or an
// .xml file or one without an extension whose first bytes (`head`) hold "<COLLADA" (Assimp
// picks its reader by extension first). An .obj whose comments hold "<controller>" is not.
bool IsColladaFile(const std::string& path, const std::vector<uint8_t>& head);

// Finds the morph controllers of a Collada document (`bytes`, the whole file). False, with *plan
// untouched, when it has none (or is not XML the scan can follow): the file is read as it is.
bool PlanColladaMorphs(const std::vector<uint8_t>& bytes, ColladaMorphPlan* plan);

// Name of the targets_scene node showing target `t` of plan.morphs[m].
std::string ColladaTargetNodeName(size_t m, size_t t);

// Adds each morph's targets, read by Assimp from plan.targets_scene into `targets` (null when
// that read failed), to the meshes of `scene` Assimp made from the morph's base geometry, as
// aiAnimMeshes with absolute positions (a RELATIVE target's offsets added to the base, its normals
// left out), the target geometry's name and the MORPH_WEIGHT value as weight. What cannot be
// matched (no such mesh, another vertex count, no weights) is left out with a warning naming it.
// The weight tracks become aiMeshMorphAnim channels (named after each node showing a base mesh,
// keys in the animation's ticks) of the scene's one animation, or of a new one named "Morph
// weights" when the scene has none or several; left-out weight channels are named in a warning.
// Their STEP, BEZIER and HERMITE keys become linear keys that reproduce them, within a budget of
// `budget_bytes` of their own (LinearColladaWeightTracks, with its warnings).
// Targets past `budget_bytes` (their anim meshes and deltas, about 48 bytes per vertex in all)
// are left out with a warning: a file may name one large geometry as a target many times.
void AttachColladaMorphs(const ColladaMorphPlan& plan, const aiScene* targets,
                         uint64_t budget_bytes, aiScene* scene, std::vector<std::string>* warnings);

}  // namespace assets
