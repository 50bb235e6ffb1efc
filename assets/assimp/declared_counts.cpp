// Counts a model file declares (OFF, PLY, Collada, MD5), checked against the file's size before
// Assimp reads it: Assimp 5.2.5's readers trust them.
#include "assets/assimp/declared_counts.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "assets/files/limits.h"
#include "assets/files/messages.h"

namespace assets {
namespace {

std::string LowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// Leading decimal digits of `token` as a number (0 when there are none, as Assimp's strtoul10),
// saturating far above any real count.
uint64_t LeadingNumber(std::string_view token) {
  uint64_t v = 0;
  for (char c : token) {
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    v = v > UINT64_MAX / 16 ? UINT64_MAX / 16 : v * 10 + static_cast<uint64_t>(c - '0');
  }
  return v;
}

std::vector<std::string_view> Tokens(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// OFF: an optional keyword (OFF, COFF, NOFF, STOFF...), then vertex, face and edge counts; '#'
// starts a comment. Like Assimp, a count is the leading digits of its token, a file without the
// keyword has its counts first, and digits glued to the keyword ("OFF999") are the first count.
bool OffCountsFit(std::string_view head, uint64_t size, std::string* reason) {
  std::vector<uint64_t> counts;
  size_t i = 0;
  bool first_token = true;
  while (i < head.size() && counts.size() < 2) {
    const char c = head[i];
    if (c == '#') {
      while (i < head.size() && head[i] != '\n') ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < head.size() && !std::isspace(static_cast<unsigned char>(head[i])) &&
           head[i] != '#') {
      ++i;
    }
    std::string_view token = head.substr(start, i - start);
    if (first_token) {
      first_token = false;
      const size_t keyword = token.find("OFF");
      if (keyword != std::string_view::npos) {
        token.remove_prefix(keyword + 3);
        if (token.empty()) continue;
      }
    }
    if (!std::isdigit(static_cast<unsigned char>(token[0]))) break;  // Assimp will complain
    counts.push_back(LeadingNumber(token));
  }
  // A vertex takes at least "0 0 0\n", a face at least "0\n".
  const char* const what[2] = {"vertices", "faces"};
  const uint64_t min_bytes[2] = {6, 2};
  for (size_t k = 0; k < counts.size(); ++k) {
    if (counts[k] > size / min_bytes[k]) {
      *reason = "its header claims " + std::to_string(counts[k]) + " " + what[k] +
                ", more than its " + std::to_string(size) + " bytes can hold (corrupt file)";
      return false;
    }
  }
  return true;
}

// PLY: "element <name> <count>" lines up to end_header; every element takes at least a byte.
bool PlyCountsFit(std::string_view head, uint64_t size, std::string* reason) {
  size_t line_start = 0;
  while (line_start < head.size()) {
    size_t line_end = head.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = head.size();
    const std::string_view line = head.substr(line_start, line_end - line_start);
    if (line.substr(0, 10) == "end_header") break;
    if (line.substr(0, 8) == "element ") {
      const size_t last_space = line.find_last_of(' ');
      std::string_view number = line.substr(last_space + 1);
      if (!number.empty() && number.back() == '\r') number.remove_suffix(1);
      const bool digits = !number.empty() && std::all_of(number.begin(), number.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
      });
      const uint64_t count = LeadingNumber(number);
      if (digits && count > size) {
        *reason = "its header claims " + std::to_string(count) + " " +
                  Quoted(line.substr(8, last_space - 8)) + " elements, more than its " +
                  std::to_string(size) + " bytes can hold (corrupt file)";
        return false;
      }
    }
    line_start = line_end + 1;
  }
  return true;
}

// Collada, as Assimp 5.2.5 reads it: a count="N" attribute reserves N elements, and the index
// lists (<p>, <h>, <vcount>, <v>) are read number by number until their end, so a character that
// is not a digit or a space makes the reader add zeros without end. Both are checked on the whole
// file first, and the <vcount> weights together must fit in it too.
bool ColladaFits(std::string_view text, uint64_t size, std::string* reason) {
  for (size_t at = text.find("count=\""); at != std::string_view::npos;
       at = text.find("count=\"", at + 7)) {
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) {
      continue;  // "vcount=..." or another attribute ending in "count"
    }
    const uint64_t count = LeadingNumber(text.substr(at + 7));
    if (count > size) {
      *reason = "it claims " + std::to_string(count) + " elements (count=\"...\"), more than its " +
                std::to_string(size) + " bytes can hold (corrupt file)";
      return false;
    }
  }
  for (const char* tag : {"<p>", "<h>", "<vcount>", "<v>"}) {
    const std::string_view open(tag);
    for (size_t at = text.find(open); at != std::string_view::npos; at = text.find(open, at + 1)) {
      const size_t begin = at + open.size();
      const size_t end = std::min(text.find('<', begin), text.size());
      const std::string_view content = text.substr(begin, end - begin);
      const auto bad = std::find_if(content.begin(), content.end(), [](char c) {
        return !std::isdigit(static_cast<unsigned char>(c)) && c != ' ' && c != '\t' && c != '\r' &&
               c != '\n';
      });
      if (bad != content.end()) {
        *reason = "its " + std::string(tag) +
                  " element holds something other than numbers (corrupt file)";
        return false;
      }
      if (open == "<vcount>") {
        uint64_t total = 0;
        for (std::string_view number : Tokens(content)) {
          total = std::min<uint64_t>(total + LeadingNumber(number), UINT64_MAX / 16);
        }
        if (total > size) {
          *reason = "its <vcount> claims " + std::to_string(total) + " entries, more than its " +
                    std::to_string(size) + " bytes can hold (corrupt file)";
          return false;
        }
      }
    }
  }
  return true;
}

// MD5 meshes, as Assimp 5.2.5 reads them: "numtris" sizes a mesh's triangle list and each "tri"
// line fills one, and triangle corners, vertex weight ranges and weight joints index their lists
// unchecked. A mesh must list each of its triangles, and every index must be in range.
bool Md5MeshFits(std::string_view text, std::string* reason) {
  struct Mesh {
    uint64_t verts = 0, tris = 0, weights = 0;
    std::vector<uint64_t> tri_indices;
    uint64_t max_corner = 0, max_weight_end = 0, max_bone = 0, max_vert = 0, max_weight = 0;
    bool any_tri = false, any_vert = false, any_weight = false;
  };
  uint64_t joints = 0;
  std::string block;
  Mesh mesh;
  size_t mesh_index = 0;
  auto fail = [&](const std::string& what) {
    *reason = "mesh " + std::to_string(mesh_index) + " " + what + " (corrupt file)";
    return false;
  };
  size_t line_start = 0;
  while (line_start <= text.size()) {
    size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    const std::vector<std::string_view> t = Tokens(text.substr(line_start, line_end - line_start));
    line_start = line_end + 1;
    if (t.empty() || t[0].substr(0, 2) == "//") continue;
    if (block.empty()) {
      if (t.size() >= 2 && t.back() == "{") block = std::string(t[0]);
      if (block == "mesh") mesh = Mesh();
      continue;
    }
    if (t[0] == "}") {
      if (block == "mesh") {
        std::sort(mesh.tri_indices.begin(), mesh.tri_indices.end());
        mesh.tri_indices.erase(std::unique(mesh.tri_indices.begin(), mesh.tri_indices.end()),
                               mesh.tri_indices.end());
        if (mesh.tri_indices.size() != mesh.tris ||
            (!mesh.tri_indices.empty() && mesh.tri_indices.back() >= mesh.tris)) {
          return fail("declares " + std::to_string(mesh.tris) + " triangles but lists " +
                      std::to_string(mesh.tri_indices.size()));
        }
        if (mesh.any_tri && mesh.max_corner >= mesh.verts) {
          return fail("has a triangle using vertex " + std::to_string(mesh.max_corner) + " of " +
                      std::to_string(mesh.verts));
        }
        if (mesh.any_vert && mesh.max_vert >= mesh.verts) {
          return fail("lists vertex " + std::to_string(mesh.max_vert) + " of " +
                      std::to_string(mesh.verts));
        }
        if (mesh.any_vert && mesh.max_weight_end > mesh.weights) {
          return fail("has a vertex using weights past its " + std::to_string(mesh.weights));
        }
        if (mesh.any_weight && mesh.max_weight >= mesh.weights) {
          return fail("lists weight " + std::to_string(mesh.max_weight) + " of " +
                      std::to_string(mesh.weights));
        }
        // Weights that are not listed are joint 0's.
        if ((mesh.any_weight && mesh.max_bone >= joints) || (mesh.weights > 0 && joints == 0)) {
          return fail("has a weight on joint " + std::to_string(mesh.max_bone) + " of " +
                      std::to_string(joints));
        }
        ++mesh_index;
      }
      block.clear();
      continue;
    }
    if (block == "joints") {
      ++joints;
    } else if (block == "mesh") {
      auto number = [&](size_t k) { return k < t.size() ? LeadingNumber(t[k]) : 0; };
      if (t[0] == "numverts") {
        mesh.verts = number(1);
      } else if (t[0] == "numtris") {
        mesh.tris = number(1);
      } else if (t[0] == "numweights") {
        mesh.weights = number(1);
      } else if (t[0] == "tri") {
        if (mesh.tri_indices.size() > text.size()) return fail("lists too many triangles");
        mesh.tri_indices.push_back(number(1));
        for (size_t k = 2; k < 5; ++k) mesh.max_corner = std::max(mesh.max_corner, number(k));
        mesh.any_tri = true;
      } else if (t[0] == "vert") {
        mesh.max_vert = std::max(mesh.max_vert, number(1));
        // "vert i ( u v ) first count": the two numbers after the closing parenthesis.
        size_t close = 0;
        while (close < t.size() && t[close].find(')') == std::string_view::npos) ++close;
        const uint64_t end = number(close + 1) + std::min<uint64_t>(number(close + 2), 1u << 30);
        mesh.max_weight_end = std::max(mesh.max_weight_end, end);
        mesh.any_vert = true;
      } else if (t[0] == "weight") {
        mesh.max_weight = std::max(mesh.max_weight, number(1));
        mesh.max_bone = std::max(mesh.max_bone, number(2));
        mesh.any_weight = true;
      }
    }
  }
  return true;
}

}  // namespace

bool DeclaredCountsFit(const std::string& path, const std::vector<uint8_t>& bytes,
                       uint64_t file_size, std::string* reason) {
  const std::string ext = LowerExtension(path);
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (ext == ".off") return OffCountsFit(text.substr(0, kHeaderBytes), file_size, reason);
  if (ext == ".ply") return PlyCountsFit(text.substr(0, kHeaderBytes), file_size, reason);
  if (ext == ".dae") return ColladaFits(text, file_size, reason);
  if (ext == ".md5mesh") return Md5MeshFits(text, reason);
  return true;
}

// Extensions whose checks (DeclaredCountsFit) need the whole file.
bool NeedsWholeFile(const std::string& path) {
  const std::string ext = LowerExtension(path);
  return ext == ".dae" || ext == ".md5mesh";
}

}  // namespace assets
