// Checks of the counts a model file declares, run before Assimp reads it (Assimp 5.2.5's readers
// for OFF, PLY, Collada and MD5 trust them). Internal to assets/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace assets {

// Bytes of a non-glTF file read before Assimp: enough for the header checks.
inline constexpr size_t kHeaderBytes = 8192;

// Formats whose readers in Assimp 5.2.5 trust counts or indices in the file (OFF, PLY, Collada,
// MD5): checked before Assimp reads the file, so that a few hundred bytes cannot make it reserve
// gigabytes, loop without end or read out of bounds. `bytes` holds the start of the file (all of
// it for .dae and .md5mesh, see NeedsWholeFile), `file_size` its whole size. False with the
// reason in *reason when a count cannot fit; true for every other format.
bool DeclaredCountsFit(const std::string& path, const std::vector<uint8_t>& bytes,
                       uint64_t file_size, std::string* reason);

// Whether DeclaredCountsFit needs the whole file for `path`'s extension (.dae, .md5mesh).
bool NeedsWholeFile(const std::string& path);

}  // namespace assets
