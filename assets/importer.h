// Import: reads any file Assimp understands (glTF first) into a Model, validating everything it
// copies so that no later stage can crash or produce NaN on a bad file.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "assets/files/limits.h"
#include "assets/model/model.h"

namespace assets {

struct LoadResult {
  std::optional<Model> model;  // set on success
  // On failure: one line naming the file and the reason, e.g.
  // "models/bad.glb: truncated .glb: its header declares 9000 bytes but the file has 4000".
  std::string error;
  // On success: what was repaired while loading (also in model->warnings), one line each.
  std::vector<std::string> warnings;

  bool ok() const { return model.has_value(); }
};

// What a load may report and how it may be stopped; both callbacks are optional and are called on
// the loading thread.
struct LoadOptions {
  // Called with the fraction done, 0..1, never decreasing, at least once at the start and with
  // exactly 1 on success. Calls are throttled to about one per percent.
  std::function<void(float fraction)> progress;
  // Polled between stages, inside the glTF reader and while converting (every few thousand
  // vertices); true stops the load, which then fails with "<path>: cancelled". Assimp's own parsing
  // of the file cannot be interrupted: a cancel during it takes effect when it returns.
  std::function<bool()> cancelled;
  // A model is untrusted input: its external references (glTF buffer and image URIs, .mtl and
  // texture paths of other formats) are read only when, percent-decoded and with symlinks
  // resolved, they name a regular file inside the model's folder. True lifts the folder rule
  // (the command line's --allow-outside-files); non-regular files are refused either way.
  bool allow_outside_files = false;
  // Keep the file's own units and axes (the command line's --raw-units). By default an FBX file
  // is moved into skelview's frame (metres, +Y up, facing +Z) from its GlobalSettings
  // (UnitScaleFactor, UpAxis, FrontAxis, CoordAxis), landing where Blender's FBX importer puts it
  // (see the frame of glTF below); Collada's <unit> and <up_axis> are applied by Assimp. With
  // raw_units the FBX is left as Assimp reads it and Collada's <up_axis> is ignored (Assimp
  // 5.2.5 always applies <unit meter>).
  bool raw_units = false;
  // False: texture images are read and their headers checked against the limits as usual (a
  // missing, refused, unreadable or too large texture is the same warning) but not decoded, and
  // materials get no texture (for `skelview check`, which needs no pixels; a corrupt image body
  // then goes unnoticed).
  bool texture_pixels = true;
};

// The limits on what a file may make skelview allocate: assets/files/limits.h.

// Loads a rigged (or static) model. glTF 2.0 files (.gltf, .glb; plain, quantized, meshopt- or
// Draco-compressed) are read entirely by skelview's own bounds-checked reader
// (assets/gltf/gltf_reader.h), which sidesteps Assimp 5.2.5's glTF defects and its memory use;
// other formats and glTF 1.0 go through Assimp. Identical vertices are merged (normals within 1e-5
// count as identical). On success the Model holds:
//  - skeleton: every node of the scene's hierarchy from the root (glTF: the nodes of the file's
//    `scene`, else its first, each root a root; a node two parents list appears under each, its
//    name made unique), parents before children, rest locals from the node transforms (glTF: its
//    translation, rotation and scale as given, or its decomposed matrix; world space = all of
//    them applied, the root's included);
//    is_bone marks joints some skin deforms with; inverse binds come from the first skin using
//    the joint, else the inverse of the rest model matrix;
//  - meshes: triangles only (points and lines are dropped), one Mesh per node that references a
//    mesh (per primitive for glTF; an unnamed glTF mesh takes its node's name, as three.js and
//    Blender show it), positions in the mesh's bind space, unit normals (generated when missing
//    or invalid),
//    uvs in glTF convention (see Mesh::uvs), up to 8 influences per vertex summing to 1 (more are
//    cut to the 8 largest and renormalised, with a warning; Model::influences counts them);
//    unskinned meshes are bound rigidly to their node; vertices of a skinned mesh without any
//    weight follow the mesh's node;
//  - materials with base colour and textures decoded to RGBA8 (file textures relative to the
//    model, embedded ones too; an unreadable, refused or too large texture is a warning, not a
//    failure);
//  - source_files: the files read (see Model::source_files).
//  - clips: per-joint tracks in seconds (ticks per second from the file, 25 when a non-glTF
//    file gives none), glTF step/linear/cubic-spline interpolation kept exactly, rotation key
//    values unit length; one clip per animation of the file, in file order (unnamed ones
//    "Animation N"); every clip is prepared for sampling (PrepareClip).
// Files: the model file and everything it refers to must be regular files (a FIFO, device or
// directory is refused before it is opened, and files are opened non-blocking); references
// (percent-decoded) must stay inside the model's folder unless options.allow_outside_files —
// a refused buffer fails the load ("cannot read buffer file 'URI': outside the model's folder;
// --allow-outside-files reads it"), a refused texture or side file of another format is a
// warning naming it. Every read of Assimp's goes through the same rules. Messages quote names,
// URIs and Assimp's own errors cut to a few hundred characters.
// Fails, with LoadResult::error, for a missing, unreadable or empty file, a file that is not a
// model Assimp reads, a truncated or malformed glTF, an empty scene (no meshes and no nodes),
// non-finite or huge (> kMaxCoordinate) coordinates or transforms, anything over the limits
// above, a refused model file or buffer, and when options.cancelled() returns true. Never throws.
LoadResult LoadModel(const std::string& path, const LoadOptions& options);
LoadResult LoadModel(const std::string& path);  // no progress, not cancellable

}  // namespace assets
