// Extension list from Assimp's importer registry, and .vrm (binary glTF read by our reader).
#include "assets/formats.h"

#include <algorithm>
#include <assimp/Importer.hpp>
#include <cctype>

namespace assets {

const std::vector<std::string>& SupportedExtensions() {
  static const std::vector<std::string> extensions = [] {
    std::string list;  // "*.3ds;*.obj;..."
    Assimp::Importer().GetExtensionList(list);
    std::vector<std::string> out;
    size_t start = 0;
    while (start < list.size()) {
      size_t end = list.find(';', start);
      if (end == std::string::npos) end = list.size();
      std::string item = list.substr(start, end - start);
      if (item.rfind("*.", 0) == 0) item = item.substr(2);
      std::transform(item.begin(), item.end(), item.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (!item.empty()) out.push_back(item);
      start = end + 1;
    }
    // VRM avatars are binary glTF (.glb) files that skelview's own glTF reader opens.
    out.push_back("vrm");
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }();
  return extensions;
}

bool HasSupportedExtension(const std::string& path) {
  const size_t dot = path.find_last_of('.');
  const size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return false;
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const auto& all = SupportedExtensions();
  return std::binary_search(all.begin(), all.end(), ext);
}

}  // namespace assets
