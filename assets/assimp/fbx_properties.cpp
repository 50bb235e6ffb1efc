// Reads FBX Model transform properties straight from the file (binary records by offset, or
// ASCII text) and restores on Assimp's nodes what its converter dropped; see
// assets/assimp/fbx_properties.h.
#include "assets/assimp/fbx_properties.h"

#include <assimp/scene.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <unordered_map>

namespace assets {
namespace {

constexpr char kBinaryMagic[] = "Kaydara FBX Binary  ";  // then 0x00 0x1a 0x00, u32 version
constexpr size_t kBinaryHeader = 27;
// Property lists of the records read (Model and P) are small; anything larger is not one of them.
constexpr uint64_t kMaxPropertyList = 1 << 16;
// Records visited at most, so that a hostile file cannot make the walk long.
constexpr size_t kMaxRecords = 4'000'000;

// A binary record's header.
struct Record {
  uint64_t end = 0;         // absolute offset after the record
  uint64_t properties = 0;  // absolute offset of its property list
  uint64_t property_bytes = 0;
  uint64_t children = 0;  // absolute offset of its nested records
  std::string name;
};

class BinaryReader {
 public:
  BinaryReader(const InputFile& file, bool wide) : file_(file), wide_(wide) {}

  // The record at `offset` within a parent ending at `limit`; false at the null record that
  // closes a list (or the file's end) with *error empty, or on a malformed record with *error set.
  bool ReadRecord(uint64_t offset, uint64_t limit, Record* record, std::string* error) {
    if (++visited_ > kMaxRecords) {
      *error = "too many records";
      return false;
    }
    const size_t header = wide_ ? 25 : 13;
    if (offset + header > limit) return false;
    uint8_t bytes[25];
    if (!file_.ReadAt(offset, bytes, header)) {
      *error = "cannot read a record";
      return false;
    }
    uint64_t end, count, list;
    if (wide_) {
      std::memcpy(&end, bytes, 8);
      std::memcpy(&count, bytes + 8, 8);
      std::memcpy(&list, bytes + 16, 8);
    } else {
      uint32_t v[3];
      std::memcpy(v, bytes, 12);
      end = v[0];
      count = v[1];
      list = v[2];
    }
    const uint8_t name_length = bytes[header - 1];
    if (end == 0) return false;  // the null record
    const uint64_t names_at = offset + header;
    if (end <= offset || end > limit || list > end || names_at + name_length + list > end) {
      *error = "a record ends outside its parent";
      return false;
    }
    record->name.assign(name_length, '\0');
    if (name_length > 0 && !file_.ReadAt(names_at, &record->name[0], name_length)) {
      *error = "cannot read a record";
      return false;
    }
    record->end = end;
    record->properties = names_at + name_length;
    record->property_bytes = list;
    record->children = record->properties + list;
    return true;
  }

  // The record's properties as strings (S, R) and doubles (D, F, I, L, Y, C); arrays are skipped.
  bool ReadProperties(const Record& record, std::vector<std::string>* strings,
                      std::vector<double>* numbers, std::string* error) {
    if (record.property_bytes > kMaxPropertyList) return true;  // not a record we read
    std::vector<uint8_t> data(static_cast<size_t>(record.property_bytes));
    if (!data.empty() && !file_.ReadAt(record.properties, data.data(), data.size())) {
      *error = "cannot read a record's properties";
      return false;
    }
    size_t at = 0;
    auto take = [&](void* out, size_t n) {
      if (data.size() - at < n) return false;
      std::memcpy(out, data.data() + at, n);
      at += n;
      return true;
    };
    while (at < data.size()) {
      const char type = static_cast<char>(data[at++]);
      bool ok = true;
      switch (type) {
        case 'S':
        case 'R': {
          uint32_t n = 0;
          ok = take(&n, 4) && data.size() - at >= n;
          if (ok) {
            strings->emplace_back(reinterpret_cast<const char*>(data.data() + at), n);
            at += n;
          }
          break;
        }
        case 'D': {
          double v;
          ok = take(&v, 8);
          if (ok) numbers->push_back(v);
          break;
        }
        case 'F': {
          float v;
          ok = take(&v, 4);
          if (ok) numbers->push_back(static_cast<double>(v));
          break;
        }
        case 'I': {
          int32_t v;
          ok = take(&v, 4);
          if (ok) numbers->push_back(v);
          break;
        }
        case 'L': {
          int64_t v;
          ok = take(&v, 8);
          if (ok) numbers->push_back(static_cast<double>(v));
          break;
        }
        case 'Y': {
          int16_t v;
          ok = take(&v, 2);
          if (ok) numbers->push_back(v);
          break;
        }
        case 'C': {
          uint8_t v;
          ok = take(&v, 1);
          if (ok) numbers->push_back(v);
          break;
        }
        case 'f':
        case 'd':
        case 'l':
        case 'i':
        case 'b': {
          uint32_t head[3];  // length, encoding, compressed length
          ok = take(head, 12) && data.size() - at >= head[2];
          if (ok) at += head[2];
          break;
        }
        default:
          ok = false;
      }
      if (!ok) {
        *error = "a record's properties are malformed";
        return false;
      }
    }
    return true;
  }

 private:
  const InputFile& file_;
  bool wide_;
  size_t visited_ = 0;
};

// The Model's name from its name property: binary "Name\0\1Model", ASCII "Model::Name".
std::string ModelName(const std::string& raw) {
  const size_t separator = raw.find(std::string("\0\1", 2));
  if (separator != std::string::npos) return raw.substr(0, separator);
  if (raw.rfind("Model::", 0) == 0) return raw.substr(7);
  return raw;
}

// Records one P property of a Model: name first, the last three numbers its value.
void NoteProperty(const std::string& name, const std::vector<double>& numbers,
                  FbxModelTransform* model) {
  if (numbers.size() < 3) return;
  const glm::dvec3 v(numbers[numbers.size() - 3], numbers[numbers.size() - 2],
                     numbers[numbers.size() - 1]);
  if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) return;
  if (name == "Lcl Translation") {
    model->has_translation = true;
    model->translation = v;
  } else if (name == "Lcl Scaling") {
    model->has_scaling = true;
    model->scaling = v;
  } else if (name == "ScalingPivot") {
    model->has_scaling_pivot = v != glm::dvec3(0.0);
  }
}

bool ReadBinary(const InputFile& file, uint32_t version, std::vector<FbxModelTransform>* models,
                std::string* reason) {
  BinaryReader reader(file, version >= 7500);
  const uint64_t size = file.size();
  Record top;
  for (uint64_t at = kBinaryHeader; reader.ReadRecord(at, size, &top, reason); at = top.end) {
    if (top.name != "Objects") continue;
    Record object;
    for (uint64_t o = top.children; reader.ReadRecord(o, top.end, &object, reason);
         o = object.end) {
      if (object.name != "Model") continue;
      std::vector<std::string> strings;
      std::vector<double> numbers;
      if (!reader.ReadProperties(object, &strings, &numbers, reason)) return false;
      if (strings.empty()) continue;
      FbxModelTransform model;
      model.name = ModelName(strings[0]);
      Record table;
      for (uint64_t t = object.children; reader.ReadRecord(t, object.end, &table, reason);
           t = table.end) {
        if (table.name != "Properties70") continue;
        Record p;
        for (uint64_t q = table.children; reader.ReadRecord(q, table.end, &p, reason); q = p.end) {
          if (p.name != "P") continue;
          strings.clear();
          numbers.clear();
          if (!reader.ReadProperties(p, &strings, &numbers, reason)) return false;
          if (!strings.empty()) NoteProperty(strings[0], numbers, &model);
        }
      }
      if (!reason->empty()) return false;
      models->push_back(std::move(model));
    }
    if (!reason->empty()) return false;
  }
  return reason->empty();
}

// One line of ASCII FBX split into its quoted strings and numbers, braces outside quotes counted,
// a ';' comment cut.
void SplitLine(const std::string& line, std::string* key, std::vector<std::string>* strings,
               std::vector<double>* numbers, int* opens, int* closes) {
  *opens = *closes = 0;
  size_t i = 0;
  const size_t colon = line.find(':');
  const size_t quote = line.find('"');
  if (colon != std::string::npos && (quote == std::string::npos || colon < quote)) {
    size_t b = line.find_first_not_of(" \t");
    *key = line.substr(b, colon - b);
    i = colon + 1;
  }
  while (i < line.size()) {
    const char c = line[i];
    if (c == ';') break;
    if (c == '"') {
      const size_t end = line.find('"', i + 1);
      if (end == std::string::npos) break;
      strings->push_back(line.substr(i + 1, end - i - 1));
      i = end + 1;
    } else if (c == '{') {
      ++*opens;
      ++i;
    } else if (c == '}') {
      ++*closes;
      ++i;
    } else if (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) {
      const char* start = line.c_str() + i;
      char* stop = nullptr;
      const double v = std::strtod(start, &stop);
      if (stop == start) {
        ++i;
      } else {
        numbers->push_back(v);
        i += static_cast<size_t>(stop - start);
      }
    } else {
      ++i;
    }
  }
}

bool ReadAscii(const InputFile& file, std::vector<FbxModelTransform>* models, std::string* reason) {
  std::string text(static_cast<size_t>(file.size()), '\0');
  if (!text.empty() && !file.ReadAt(0, &text[0], text.size())) {
    *reason = "cannot read the file";
    return false;
  }
  // The section path by depth: Objects (1) > Model (2) > Properties70 (3) > P lines.
  std::vector<std::string> path;
  FbxModelTransform* model = nullptr;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    std::string key;
    std::vector<std::string> strings;
    std::vector<double> numbers;
    int opens = 0, closes = 0;
    SplitLine(line, &key, &strings, &numbers, &opens, &closes);
    if (path.size() == 3 && path[0] == "Objects" && path[1] == "Model" &&
        path[2] == "Properties70" && key == "P" && model && !strings.empty()) {
      NoteProperty(strings[0], numbers, model);
    }
    for (int k = 0; k < opens; ++k) {
      path.push_back(key);
      if (path.size() == 2 && path[0] == "Objects" && key == "Model" && !strings.empty()) {
        models->emplace_back();
        models->back().name = ModelName(strings[0]);
        model = &models->back();
      }
      key.clear();
    }
    for (int k = 0; k < closes && !path.empty(); ++k) {
      if (path.size() == 2) model = nullptr;
      path.pop_back();
    }
  }
  return true;
}

// Node names (Assimp's) to their nodes; a name used twice maps to null.
void CollectNodes(aiNode* node, std::unordered_map<std::string, aiNode*>* nodes) {
  std::vector<aiNode*> stack = {node};
  while (!stack.empty()) {
    aiNode* n = stack.back();
    stack.pop_back();
    if (!n) continue;
    auto inserted = nodes->emplace(n->mName.C_Str(), n);
    if (!inserted.second) inserted.first->second = nullptr;
    for (unsigned c = 0; n->mChildren && c < n->mNumChildren; ++c) stack.push_back(n->mChildren[c]);
  }
}

// Whether Assimp's FBX converter left this vector out (its test: squared length of the vector,
// or of its difference from one for a scaling, in float, not above float epsilon).
bool DroppedByAssimp(const glm::dvec3& v) {
  const glm::vec3 f(v);
  const float square = glm::dot(f, f);
  return square <= std::numeric_limits<float>::epsilon() && v != glm::dvec3(0.0);
}

}  // namespace

bool ReadFbxModelTransforms(const InputFile& file, std::vector<FbxModelTransform>* models,
                            std::string* reason) {
  models->clear();
  reason->clear();
  char head[kBinaryHeader];
  if (file.size() >= kBinaryHeader && file.ReadAt(0, head, kBinaryHeader) &&
      std::memcmp(head, kBinaryMagic, sizeof(kBinaryMagic) - 1) == 0) {
    uint32_t version = 0;
    std::memcpy(&version, head + 23, 4);
    return ReadBinary(file, version, models, reason);
  }
  return ReadAscii(file, models, reason);
}

size_t RestoreDroppedFbxTransforms(const std::vector<FbxModelTransform>& models, aiScene* scene) {
  if (!scene || !scene->mRootNode) return 0;
  std::map<std::string, int> uses;
  for (const FbxModelTransform& m : models) ++uses[m.name];
  std::unordered_map<std::string, aiNode*> nodes;
  CollectNodes(scene->mRootNode, &nodes);
  size_t restored = 0;
  for (const FbxModelTransform& m : models) {
    auto found = nodes.find(m.name);
    if (uses[m.name] != 1 || found == nodes.end() || !found->second) continue;
    aiMatrix4x4& matrix = found->second->mTransformation;
    bool changed = false;
    if (m.has_translation && DroppedByAssimp(m.translation)) {
      // T is the leftmost factor: adding it moves the node by exactly t in its parent's space.
      matrix.a4 += static_cast<float>(m.translation.x);
      matrix.b4 += static_cast<float>(m.translation.y);
      matrix.c4 += static_cast<float>(m.translation.z);
      changed = true;
    }
    if (m.has_scaling && !m.has_scaling_pivot && DroppedByAssimp(m.scaling - glm::dvec3(1.0))) {
      // S is the rightmost factor when there is no scaling pivot: scale the matrix's columns.
      const float s[3] = {static_cast<float>(m.scaling.x), static_cast<float>(m.scaling.y),
                          static_cast<float>(m.scaling.z)};
      for (int row = 0; row < 3; ++row) {
        matrix[row][0] *= s[0];
        matrix[row][1] *= s[1];
        matrix[row][2] *= s[2];
      }
      changed = true;
    }
    if (changed) ++restored;
  }
  return restored;
}

}  // namespace assets
