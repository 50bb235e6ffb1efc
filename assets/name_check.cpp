// Names that are not valid UTF-8, counted over everything a model names.
#include "assets/internal/name_check.h"

#include "assets/internal/messages.h"
#include "assets/text_encoding.h"

namespace assets {

void WarnNamesNotUtf8(const Model& model, std::vector<std::string>* warnings) {
  size_t count = 0;
  std::string example;
  auto check = [&](const char* what, const std::string& name) {
    if (IsValidUtf8(name)) return;
    if (count++ == 0) example = std::string(what) + " " + Quoted(EscapeInvalidUtf8(name));
  };
  for (const std::string& name : model.skeleton.names()) check("joint", name);
  for (const Mesh& mesh : model.meshes) {
    check("mesh", mesh.name);
    for (const MorphTarget& target : mesh.targets) check("morph target", target.name);
  }
  for (const Material& material : model.materials) check("material", material.name);
  for (const Texture& texture : model.textures) check("texture", texture.name);
  for (const Clip& clip : model.clips) check("clip", clip.name);
  if (count == 0) return;
  warnings->push_back(Plural(count, "name is", "names are") + " not valid UTF-8 (e.g. " + example +
                      ")");
}

}  // namespace assets
