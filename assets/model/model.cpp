// Model statistics.
#include "assets/model/model.h"

namespace assets {

size_t Model::vertex_count() const {
  size_t n = 0;
  for (const Mesh& m : meshes) n += m.positions.size();
  return n;
}

size_t Model::triangle_count() const {
  size_t n = 0;
  for (const Mesh& m : meshes) n += m.indices.size() / 3;
  return n;
}

int Model::FindClip(const std::string& name) const {
  for (size_t i = 0; i < clips.size(); ++i)
    if (clips[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace assets
