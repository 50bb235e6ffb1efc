// The window's retarget mapping table, its map file beside the model, and applying it.
#include "app/core/retarget_table.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/core/bake.h"
#include "assets/files/file_output.h"
#include "assets/files/text.h"

namespace app {

namespace {

constexpr long kMaxMapBytes = 1 << 20;

}  // namespace

RetargetTable BuildRetargetTable(const ik::Skeleton& source, const RetargetMapping& mapping) {
  RetargetTable table;
  table.warnings = mapping.warnings;
  std::vector<bool> used(size_t(source.joint_count()), false);
  for (const RetargetPair& p : mapping.pairs) {
    if (p.source < 0 || p.source >= source.joint_count()) continue;
    table.rows.push_back({p.source, p.target, p.by});
    used[size_t(p.source)] = true;
  }
  for (int j = 0; j < source.joint_count(); ++j) {
    if (!used[size_t(j)]) table.rows.push_back({j, -1, ""});
  }
  return table;
}

void SetRowTarget(RetargetTable* table, int row, int target, int target_joints) {
  if (row < 0 || row >= static_cast<int>(table->rows.size())) return;
  if (target < -1 || target >= target_joints) return;
  if (target >= 0) {
    for (int i = 0; i < static_cast<int>(table->rows.size()); ++i) {
      RetargetRow& other = table->rows[size_t(i)];
      if (i != row && other.target == target) {
        other.target = -1;
        other.by = "user";
      }
    }
  }
  RetargetRow& r = table->rows[size_t(row)];
  r.target = target;
  r.by = "user";
}

RetargetMapping TableMapping(const RetargetTable& table) {
  RetargetMapping mapping;
  mapping.warnings = table.warnings;
  for (const RetargetRow& r : table.rows) {
    if (r.target >= 0) mapping.pairs.push_back({r.source, r.target, r.by});
  }
  std::stable_sort(
      mapping.pairs.begin(), mapping.pairs.end(),
      [](const RetargetPair& x, const RetargetPair& y) { return x.target < y.target; });
  return mapping;
}

int MappedRows(const RetargetTable& table) {
  return static_cast<int>(std::count_if(table.rows.begin(), table.rows.end(),
                                        [](const RetargetRow& r) { return r.target >= 0; }));
}

std::string RetargetMapPath(const std::string& model_path) {
  return model_path.empty() ? std::string() : model_path + ".retarget-map.json";
}

bool LoadRetargetMap(const std::string& path, JointMap* map, std::string* error) {
  map->clear();
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT) return true;
    *error = assets::ShownPath(path) + ": " + std::strerror(errno);
    return false;
  }
  if (!S_ISREG(info.st_mode)) {
    *error = assets::ShownPath(path) + ": not a regular file";
    return false;
  }
  if (info.st_size > kMaxMapBytes) {
    *error = assets::ShownPath(path) + ": larger than 1 MiB";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (!in || (!in.good() && !in.eof())) {
    *error = assets::ShownPath(path) + ": cannot be read";
    return false;
  }
  std::string why;
  if (!ParseJointMap(buffer.str(), map, &why)) {
    *error = assets::ShownPath(path) + ": " + why;
    return false;
  }
  return true;
}

int ApplySavedMap(const ik::Skeleton& source, const ik::Skeleton& target, const JointMap& map,
                  RetargetTable* table) {
  int applied = 0;
  for (const auto& [s_name, t_name] : map) {
    const int s = source.Find(s_name);
    const int t = t_name.empty() ? -1 : target.Find(t_name);
    if (s < 0 || (!t_name.empty() && t < 0)) continue;
    bool first = true;
    for (int i = 0; i < static_cast<int>(table->rows.size()); ++i) {
      if (table->rows[size_t(i)].source != s) continue;
      // The first row of the joint takes the entry; any other row of it is unmapped.
      SetRowTarget(table, i, first ? t : -1, target.joint_count());
      first = false;
    }
    if (!first) ++applied;
  }
  return applied;
}

JointMap UserJointMap(const ik::Skeleton& source, const ik::Skeleton& target,
                      const RetargetTable& table, const JointMap& previous) {
  JointMap map;
  for (const auto& entry : previous) {
    if (source.Find(entry.first) < 0) map.push_back(entry);
  }
  std::vector<bool> done(size_t(source.joint_count()), false);
  for (const RetargetRow& r : table.rows) {
    if (r.by != "user" || r.source < 0 || r.source >= source.joint_count()) continue;
    if (done[size_t(r.source)]) continue;
    done[size_t(r.source)] = true;
    map.emplace_back(source.name(r.source), r.target >= 0 ? target.name(r.target) : "");
  }
  return map;
}

bool SaveRetargetMap(const std::string& path, const JointMap& map, std::string* error) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::object();
  for (const auto& [s, t] : map) doc[s] = t;
  const std::string text = doc.dump(2) + "\n";
  std::string why;
  if (!assets::WriteFileAtomically(path, text.data(), text.size(), &why)) {
    *error = assets::ShownPath(path) + ": " + why;
    return false;
  }
  return true;
}

std::string ImportedClipName(const std::string& clip_name, const std::string& source_path,
                             const assets::Model& target) {
  const std::string file = source_path.empty()
                               ? std::string("the built-in character")
                               : std::filesystem::path(source_path).filename().string();
  const std::string base =
      (clip_name.empty() ? std::string("Clip") : clip_name) + " (retargeted from " + file + ")";
  std::string name = base;
  for (int n = 2; target.FindClip(name) >= 0; ++n) name = base + " " + std::to_string(n);
  return name;
}

bool RetargetWithTable(const Character& source, int clip, const Character& target,
                       const RetargetTable& table, const std::string& name, assets::Clip* out,
                       RetargetInfo* info, std::string* error) {
  if (clip < 0 || clip >= source.file_clip_count()) {
    *error = "clip " + std::to_string(clip) + ": the source has " +
             std::to_string(source.file_clip_count()) + " clips";
    return false;
  }
  BakePlan plan;
  if (!PlanBake(source, clip, &plan, error)) return false;
  return RetargetClip(source, clip, target, TableMapping(table), plan.fps, name, out, info, error);
}

int AddClip(assets::Clip clip, assets::Model* model, Character* character) {
  character->PlayTogether({});
  model->clips.push_back(std::move(clip));
  return character->file_clip_count() - 1;
}

}  // namespace app
