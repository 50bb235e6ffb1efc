// Paths tests use; see test_paths.h.
#include "tests/test_paths.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace testpaths {

std::string SharedModels() {
  const char* env = std::getenv("SKELVIEW_MODELS");
  std::string dir = env && *env ? env : SKELVIEW_SHARED_MODELS;
  return std::filesystem::is_directory(dir) ? dir : std::string();
}

std::string SharedModel(const std::string& relative) {
  const std::string dir = SharedModels();
  if (dir.empty()) return {};
  const std::string path = dir + "/" + relative;
  return std::filesystem::exists(path) ? path : std::string();
}

std::string SkelviewBinary() { return BinaryDir() + "/app/skelview"; }

std::string SourceDir() { return SKELVIEW_SOURCE_DIR; }
std::string BinaryDir() { return SKELVIEW_BINARY_DIR; }
std::string ExpectedSharedModels() { return SKELVIEW_SHARED_MODELS; }

std::string TempDir() {
  static const std::string dir = [] {
    std::string d =
        (std::filesystem::temp_directory_path() / ("skelview-test-" + std::to_string(getpid())))
            .string();
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

}  // namespace testpaths
