// Model: everything skelview knows about a loaded file, as plain data — the skeleton, skinned
// meshes, materials, textures and animation clips. Immutable once loaded: what the program adds
// lives beside it (the rig's facts and clips played together in app::Character, the user's edits
// in app::EditState); an export that changes something writes a copy.
#pragma once

#include <array>
#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "ik/core/skeleton.h"

namespace assets {

// Skin influences kept per vertex; past that the largest are kept and renormalised.
inline constexpr int kMaxInfluences = 8;

// A morph target (blend shape): per-vertex offsets added to the mesh's bind-time vertices, scaled
// by the target's weight, before skinning: p = position + Σ_t w_t · positions_t (normals alike,
// renormalised after skinning; tangents' xyz alike, renormalised, w kept).
struct MorphTarget {
  std::string name;                  // glTF mesh.extras.targetNames, else empty
  std::vector<glm::vec3> positions;  // POSITION deltas, one per vertex (mesh space)
  std::vector<glm::vec3> normals;    // NORMAL deltas, one per vertex, or empty when none
  // TANGENT deltas (of the tangent's xyz), one per vertex, or empty when none; only meaningful,
  // and only kept by the importers, when the mesh has tangents.
  std::vector<glm::vec3> tangents;
};

// Bits of Mesh::weight_flags. An unweighted vertex is not also flagged kWeightNotNormalized.
inline constexpr uint8_t kWeightUnweighted =
    1;  // no influence, or all weights 0: bound to its node
inline constexpr uint8_t kWeightNotNormalized = 2;  // weights summed more than 1e-3 away from 1
inline constexpr uint8_t kWeightTooMany = 4;        // more than kMaxInfluences: the largest kept

// A triangle mesh skinned to the model's skeleton. Every mesh is drawn through skinning: a mesh
// that is not skinned in the file has one bone (the node that carries it, identity inverse bind)
// and every vertex weighted 1 to it, so it follows its node rigidly.
struct Mesh {
  std::string name;
  bool skinned = false;              // false: rigidly attached to bones[0] as described above
  std::vector<glm::vec3> positions;  // bind-time mesh space
  std::vector<glm::vec3> normals;    // unit length
  // Tangents as glTF's TANGENT: xyz a unit tangent (mesh space, along increasing u), w = +1 or -1
  // the handedness (bitangent = cross(normal, xyz) · w). Empty when the file has none (nothing
  // draws with them; they are kept so that an export writes them back); otherwise one per vertex.
  std::vector<glm::vec4> tangents;
  // Texture coordinates, empty when the file has none. glTF convention: (0, 0) is the first texel
  // of Texture::rgba (the image's top-left corner) and v grows downwards, so a renderer uploads
  // rgba rows in order and samples at (u, v) unchanged.
  std::vector<glm::vec2> uvs;
  // Per vertex, the (up to) four largest influences in descending order: indices into
  // `bone_joints` and their weights, unused slots 0. Weights here and in extra_weights sum to 1.
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;
  // Influences five to eight, in the same form (descending, continuing after weights[3]). Empty
  // when no vertex of the mesh has more than four, so such meshes carry and skin nothing more;
  // otherwise one per vertex.
  std::vector<glm::u16vec4> extra_joints;
  std::vector<glm::vec4> extra_weights;
  // Per vertex, the skin-weight problems the importer found in the file before repairing them
  // (kWeight* bits below, OR-ed), or empty when it found none (the built-in character, clean
  // files). See assets/model/weight_check.h for counts and vertex lists.
  std::vector<uint8_t> weight_flags;
  std::vector<uint32_t> indices;  // triangles
  // Mesh bone b is skeleton joint bone_joints[b] with inverse bind matrix bone_inverse_binds[b]
  // (S⁻¹: mesh space -> joint space at bind time). Skinned position:
  //   Σ_k weights[k] · (𝕋[bone_joints[joints[k]]] · bone_inverse_binds[joints[k]]) · position
  // summed over both influence sets.
  std::vector<int> bone_joints;
  std::vector<glm::mat4> bone_inverse_binds;
  int material = -1;  // index into Model::materials, -1 for the default material
  // Skeleton joint of the node that carries this mesh in the file (for an unskinned mesh the same
  // as bone_joints[0]); -1 when unknown. A skinned mesh ignores this node's transform (glTF rule);
  // the exporter uses it to put the mesh back where it was.
  int node = -1;
  // Morph targets and the weights they take when no clip or user sets them (the node's `weights`,
  // else the mesh's; 0 when the file has neither): one weight per target. Both empty for a mesh
  // without targets, which blends nothing.
  std::vector<MorphTarget> targets;
  std::vector<float> target_weights;
};

struct Texture {
  std::string name;
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4 bytes, first row at the top
};

struct Material {
  std::string name;
  glm::vec4 base_color{0.8f, 0.8f, 0.8f, 1.0f};
  int base_color_texture = -1;  // index into Model::textures, -1 for none
};

enum class Interpolation { kStep, kLinear, kCubicSpline };

// Keyframes of one joint property. For kCubicSpline, values hold three entries per key
// (in-tangent, value, out-tangent) as in glTF.
template <typename T>
struct Track {
  Interpolation interpolation = Interpolation::kLinear;
  std::vector<float> times;  // seconds, increasing
  std::vector<T> values;
  bool empty() const { return times.empty(); }
};

// Keyframes of a mesh's morph-target weights: `width` weights per key value, keys as in Track
// (kCubicSpline: in-tangent, value, out-tangent per key, each `width` wide), back to back.
struct MorphAnimation {
  int mesh = -1;  // index into Model::meshes
  int width = 0;  // the mesh's target count
  Interpolation interpolation = Interpolation::kLinear;
  std::vector<float> times;   // seconds, increasing
  std::vector<float> values;  // times.size() · width (× 3 for kCubicSpline)
  bool empty() const { return times.empty(); }
};

struct JointAnimation {
  int joint = -1;  // skeleton joint index
  Track<glm::vec3> translation;
  Track<glm::quat> rotation;
  Track<glm::vec3> scale;
};

// How SampleClip can sample a clip with less work, derived from its tracks by PrepareClip
// (assets/model/animation.h): tracks with identical key times share one key search per call, and
// joints whose translation, rotation and scale are all animated skip the copy of their rest values.
// SampleClip checks that it still fits the clip (channel count, each channel's joint, each
// track's key count) and ignores it otherwise; after changing key *times* in place without
// changing their number, call PrepareClip again.
struct ClipSampling {
  struct TimeGroup {
    int channel = 0;   // the track whose times represent the group...
    int property = 0;  // ...0 translation, 1 rotation, 2 scale
  };
  std::vector<TimeGroup> groups;
  std::vector<int> channel_joints;               // per channel, its joint when prepared
  std::vector<std::array<int, 3>> track_groups;  // per channel: group of T, R, S; -1 empty
  std::vector<uint8_t> fully_animated;           // per joint: 1 when T, R and S are animated
  bool empty() const { return channel_joints.empty() && groups.empty(); }
};

struct Clip {
  std::string name;
  float duration = 0.0f;  // seconds; times run from 0 to duration
  // Rotation key values are unit quaternions (cubic-spline tangents need not be); the importer
  // and PrepareClip guarantee it for clips they produce.
  std::vector<JointAnimation> channels;
  std::vector<MorphAnimation> morph_channels;  // at most one per mesh
  ClipSampling sampling;  // derived from channels by PrepareClip; empty until then
};

// Skin influences as the importer found them, counted in the file's vertices (a glTF accessor's
// vertices; for formats whose meshes Assimp splits per face corner, distinct source vertices).
// Up to kMaxInfluences per vertex are kept; past that the largest are kept and renormalised.
struct InfluenceStats {
  uint64_t over_four = 0;   // vertices with more than four influences (all of them, up to eight)
  uint64_t over_eight = 0;  // vertices with more than eight: the eight largest kept
  uint64_t dropped = 0;     // influences dropped past the eighth, summed over those vertices
};

// What an avatar file says about itself (VRM's meta), for the user: who made it and under which
// licence it may be used. All empty for other files.
struct AvatarMeta {
  std::string format;   // "VRM 0.x" or "VRM 1.0"; empty: not an avatar file
  std::string title;    // VRM 0.x meta.title, VRM 1.0 meta.name
  std::string author;   // VRM 0.x meta.author, VRM 1.0 meta.authors (joined with ", ")
  std::string license;  // VRM 0.x meta.licenseName (with otherLicenseUrl), 1.0 meta.licenseUrl
  bool empty() const { return format.empty(); }
};

struct Model {
  std::string source;  // file path, or "<built-in>"
  ik::Skeleton skeleton;
  // Per joint: true when some skin deforms vertices with it (a bone), false for plain nodes
  // (scene root, mesh holders, helpers) that are part of the hierarchy.
  std::vector<bool> is_bone;
  std::vector<Mesh> meshes;
  std::vector<Material> materials;
  std::vector<Texture> textures;
  std::vector<Clip> clips;
  std::vector<std::string> warnings;  // what was repaired while loading, shown to the user
  InfluenceStats influences;
  // Every file the import read, the model file first, each as an absolute path with symlinks
  // resolved (buffers, images, .mtl and texture files of other formats after it). Outputs are
  // checked against it so that an export or render never overwrites what the model is made of.
  // Empty for the built-in character.
  std::vector<std::string> source_files;
  // The avatar's description, for VRM files (the humanoid bone map is skeleton.humanoid()).
  AvatarMeta avatar;

  size_t vertex_count() const;
  size_t triangle_count() const;
  // Index of the first clip with this exact name, or -1.
  int FindClip(const std::string& name) const;
};

}  // namespace assets
