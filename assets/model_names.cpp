// Names made valid UTF-8 at the end of an import.
#include "assets/model_names.h"

#include <cstdio>
#include <set>

#include "assets/files/messages.h"
#include "assets/files/text.h"

namespace assets {

namespace {

// Repairs the names `names` point at. Repaired names that collide with another name of the list
// get ".001", ".002"... (the first free one); names that were valid are never changed, even when
// they repeat. Returns how many names changed; the first is described in *example.
size_t RepairNames(const std::vector<std::string*>& names, std::string* example) {
  std::vector<std::string*> repaired;
  std::set<std::string> taken;
  for (std::string* name : names) {
    if (IsValidUtf8(*name)) {
      taken.insert(*name);
      continue;
    }
    if (example->empty()) *example = Escaped(*name, kMaxQuotedBytes);
    *name = ValidUtf8(*name);
    repaired.push_back(name);
  }
  for (std::string* name : repaired) {
    if (taken.insert(*name).second) continue;
    for (int k = 1;; ++k) {
      char suffix[16];
      std::snprintf(suffix, sizeof(suffix), ".%03d", k);
      if (taken.insert(*name + suffix).second) {
        *name += suffix;
        break;
      }
    }
  }
  if (!repaired.empty() && example->find(" is now ") == std::string::npos) {
    *example = "'" + *example + "' is now " + Quoted(*repaired.front());
  }
  return repaired.size();
}

}  // namespace

void MakeNamesValidUtf8(Model* model, std::vector<std::string>* warnings) {
  size_t changed = 0;
  std::string example;
  // Joints: the skeleton is rebuilt with the repaired names (everything else is kept as is).
  {
    std::vector<std::string> joint_names = model->skeleton.names();
    std::vector<std::string*> pointers;
    for (std::string& name : joint_names) pointers.push_back(&name);
    const size_t joints_changed = RepairNames(pointers, &example);
    if (joints_changed > 0) {
      const ik::Skeleton& old = model->skeleton;
      std::vector<ik::JointDesc> descs(static_cast<size_t>(old.joint_count()));
      for (int j = 0; j < old.joint_count(); ++j) {
        ik::JointDesc& d = descs[static_cast<size_t>(j)];
        d.name = std::move(joint_names[static_cast<size_t>(j)]);
        d.parent = old.parent(j);
        d.rest = old.rest_locals()[static_cast<size_t>(j)];
        d.inverse_bind = old.inverse_binds()[static_cast<size_t>(j)];
      }
      std::string error;
      if (std::optional<ik::Skeleton> rebuilt = ik::Skeleton::Build(std::move(descs), &error)) {
        model->skeleton = std::move(*rebuilt);
        changed += joints_changed;
      }
    }
  }
  std::vector<std::string*> meshes, clips, others;
  for (Mesh& mesh : model->meshes) {
    meshes.push_back(&mesh.name);
    std::vector<std::string*> targets;
    for (MorphTarget& target : mesh.targets) targets.push_back(&target.name);
    changed += RepairNames(targets, &example);
  }
  for (Clip& clip : model->clips) clips.push_back(&clip.name);
  for (Material& material : model->materials) others.push_back(&material.name);
  for (Texture& texture : model->textures) others.push_back(&texture.name);
  changed += RepairNames(meshes, &example);
  changed += RepairNames(clips, &example);
  // Materials and textures are not looked up by name: repaired, but repeats are left alone.
  for (std::string* name : others) {
    if (IsValidUtf8(*name)) continue;
    if (example.empty())
      example = "'" + Escaped(*name, kMaxQuotedBytes) + "' is now " + Quoted(ValidUtf8(*name));
    *name = ValidUtf8(*name);
    ++changed;
  }
  for (std::string& warning : *warnings) warning = ValidUtf8(warning);
  if (changed > 0) {
    warnings->push_back(Plural(changed, "name was", "names were") +
                        " not valid UTF-8; each byte that was not is shown as U+FFFD (e.g. " +
                        example + ")");
  }
}

}  // namespace assets
