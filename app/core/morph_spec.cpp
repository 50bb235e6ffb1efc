// --morph parsing and resolution against a model's meshes and morph targets.
#include "app/core/morph_spec.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "assets/files/text.h"

namespace app {
namespace {

// A whole number of decimal digits within [0, count), or -1.
int IndexOf(const std::string& text, size_t count) {
  if (text.empty() || text.size() > 9 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return -1;
  }
  const long value = std::strtol(text.c_str(), nullptr, 10);
  return value < static_cast<long>(count) ? static_cast<int>(value) : -1;
}

std::string Quote(const std::string& s) { return "'" + assets::ShownArgument(s) + "'"; }

// "Smile, Blink" (targets without a name by index), at most a few shown.
std::string TargetList(const assets::Mesh& mesh) {
  std::string list;
  for (size_t t = 0; t < mesh.targets.size(); ++t) {
    if (t == 8) return list + ", ... (" + std::to_string(mesh.targets.size()) + " in all)";
    list += (t > 0 ? ", " : "") + (mesh.targets[t].name.empty()
                                       ? std::to_string(t)
                                       : assets::ShownArgument(mesh.targets[t].name));
  }
  return list;
}

}  // namespace

bool ParseMorphSpec(const std::string& text, MorphSpec* out, std::string* error) {
  const size_t equals = text.rfind('=');
  const size_t colon = equals == std::string::npos ? std::string::npos : text.rfind(':', equals);
  bool ok =
      colon != std::string::npos && colon > 0 && equals > colon + 1 && equals + 1 < text.size();
  if (ok) {
    const std::string number = text.substr(equals + 1);
    char* end = nullptr;
    errno = 0;
    const double w = std::strtod(number.c_str(), &end);
    ok = end == number.c_str() + number.size() && errno == 0 && std::isfinite(w) &&
         std::abs(w) <= 1e6;
    if (ok) {
      out->text = text;
      out->mesh = text.substr(0, colon);
      out->target = text.substr(colon + 1, equals - colon - 1);
      out->weight = static_cast<float>(w);
    }
  }
  if (!ok) {
    *error = "--morph " + Quote(text) + ": expected MESH:TARGET=W with W a finite number";
  }
  return ok;
}

bool ResolveMorphSpecs(const assets::Model& model, const std::vector<MorphSpec>& specs,
                       std::vector<MorphOverride>* out, std::string* error) {
  out->clear();
  for (const MorphSpec& spec : specs) {
    const std::string arg = "--morph " + Quote(spec.text);
    std::vector<int> meshes;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
      if (model.meshes[m].name == spec.mesh) meshes.push_back(static_cast<int>(m));
    }
    if (meshes.empty()) {
      const int index = IndexOf(spec.mesh, model.meshes.size());
      if (index < 0) {
        *error = arg + ": the model has no mesh named or numbered " + Quote(spec.mesh);
        return false;
      }
      meshes.push_back(index);
    }
    for (int m : meshes) {
      const assets::Mesh& mesh = model.meshes[static_cast<size_t>(m)];
      if (mesh.targets.empty()) {
        *error = arg + ": mesh " + Quote(mesh.name) + " has no morph targets";
        return false;
      }
      int target = -1;
      for (size_t t = 0; t < mesh.targets.size() && target < 0; ++t) {
        if (mesh.targets[t].name == spec.target) target = static_cast<int>(t);
      }
      if (target < 0) target = IndexOf(spec.target, mesh.targets.size());
      if (target < 0) {
        *error = arg + ": mesh " + Quote(mesh.name) + " has no morph target " + Quote(spec.target) +
                 " (it has " + TargetList(mesh) + ")";
        return false;
      }
      out->push_back({m, target, spec.weight});
    }
  }
  return true;
}

void ApplyMorphOverrides(const std::vector<MorphOverride>& overrides,
                         assets::MorphWeights* weights) {
  for (const MorphOverride& o : overrides) {
    if (o.mesh < 0 || static_cast<size_t>(o.mesh) >= weights->size()) continue;
    std::vector<float>& w = (*weights)[static_cast<size_t>(o.mesh)];
    if (o.target >= 0 && static_cast<size_t>(o.target) < w.size()) {
      w[static_cast<size_t>(o.target)] = o.weight;
    }
  }
}

}  // namespace app
