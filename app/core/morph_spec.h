// --morph MESH:TARGET=W: a morph-target weight set by hand, parsed, resolved against a model's
// meshes and targets (by name or index), and applied over the clip's or default weights.
#pragma once

#include <string>
#include <vector>

#include "assets/model/model.h"
#include "assets/model/morph.h"

namespace app {

// One `--morph MESH:TARGET=W` argument as written: MESH and TARGET are names or indices; the
// split is at the last '=' and the last ':' before it, so names may contain ':'.
struct MorphSpec {
  std::string text;  // the argument as given, for messages
  std::string mesh;
  std::string target;
  float weight = 0.0f;
};

// Parses one --morph value. False with "--morph 'X': expected MESH:TARGET=W with W a finite
// number" in *error.
bool ParseMorphSpec(const std::string& text, MorphSpec* out, std::string* error);

// A spec resolved: mesh index into Model::meshes, target index into that mesh's targets.
struct MorphOverride {
  int mesh = -1;
  int target = -1;
  float weight = 0.0f;
};

// Resolves specs against `model`. MESH names every mesh of that exact name (a glTF mesh's
// primitives share theirs only when it has one), else, when it is a whole number, the mesh of
// that index; TARGET likewise within each such mesh. False with one line naming the argument and
// the reason (no such mesh; the mesh has no such target, with the targets it has) in *error.
bool ResolveMorphSpecs(const assets::Model& model, const std::vector<MorphSpec>& specs,
                       std::vector<MorphOverride>* out, std::string* error);

// Sets each override's weight in *weights (indexed like Model::meshes; entries out of range
// are ignored).
void ApplyMorphOverrides(const std::vector<MorphOverride>& overrides,
                         assets::MorphWeights* weights);

}  // namespace app
