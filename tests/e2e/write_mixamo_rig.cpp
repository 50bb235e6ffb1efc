// Writes the Mixamo-style test rig (tests/core/mixamo_gltf.h: "mixamorig:" joint names and a
// "mixamo.com" clip) as a .gltf file, for the window tests that need it on disk.
// Usage: write_mixamo_rig OUT.gltf. Exit 2 with a message when the file cannot be written.
#include <filesystem>
#include <iostream>

#include "tests/core/mixamo_gltf.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_mixamo_rig OUT.gltf\n";
    return 2;
  }
  testrig::WriteMixamoGltf(argv[1]);
  std::error_code error;
  if (!std::filesystem::is_regular_file(argv[1], error) ||
      std::filesystem::file_size(argv[1], error) == 0) {
    std::cerr << "write_mixamo_rig: " << argv[1] << ": could not write the file\n";
    return 2;
  }
  return 0;
}
