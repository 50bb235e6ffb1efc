// Session files: recognised, read from disk (size, JSON, format version, model path), and the
// changes between a session's rig and the model's. Writing: session_write.cpp; attaching the
// fields to a model: session_attach.cpp.
#include "app/core/session.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "app/core/ground.h"
#include "app/core/settings.h"
#include "assets/files/file_output.h"
#include "ik/core/rotation.h"

namespace app {

namespace fs = std::filesystem;

bool IsSessionPath(const std::string& path) {
  const std::string ext = kSessionExtension;
  if (path.size() <= ext.size()) return false;
  for (size_t i = 0; i < ext.size(); ++i) {
    const char c = path[path.size() - ext.size() + i];
    if (std::tolower(static_cast<unsigned char>(c)) != ext[i]) return false;
  }
  return true;
}

bool ReadSessionFile(const std::string& path, SessionFile* out, std::string* error) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    *error = path + ": cannot open the session: " + std::strerror(errno);
    return false;
  }
  if (!S_ISREG(info.st_mode)) {
    *error = path + ": not a regular file";
    return false;
  }
  if (info.st_size > kMaxSessionBytes) {
    *error = path + ": " + std::to_string(info.st_size) + " bytes, more than a session can be (" +
             std::to_string(kMaxSessionBytes) + ")";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  std::string text;
  if (in) {
    text.resize(static_cast<size_t>(info.st_size));
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<size_t>(in.gcount()));
  }
  if (!in && !in.eof()) {
    *error = path + ": cannot read the session";
    return false;
  }
  Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) {
    *error = path + ": not a skelview session (not a JSON object)";
    return false;
  }
  const auto version = json.find("skelview_session");
  if (version == json.end()) {
    *error = path + ": not a skelview session (no skelview_session field)";
    return false;
  }
  if (!version->is_number_integer() || version->get<long long>() < 1) {
    *error = path + ": skelview_session: expected a format version, a whole number from 1";
    return false;
  }
  if (version->get<long long>() > kSessionVersion) {
    *error = path + ": session format " + std::to_string(version->get<long long>()) +
             " is newer than this skelview reads (" + std::to_string(kSessionVersion) + ")";
    return false;
  }
  SessionFile file;
  file.path = path;
  const auto model = json.find("model");
  if (model == json.end() || !(model->is_null() || model->is_string())) {
    *error = path + ": model: expected the model's path or null (the built-in character)";
    return false;
  }
  if (model->is_string()) {
    const std::string stored = model->get<std::string>();
    if (stored.empty()) {
      *error = path + ": model: the path is empty (null is the built-in character)";
      return false;
    }
    const fs::path p(stored);
    file.model_path =
        p.is_absolute() ? stored : (fs::path(path).parent_path() / p).lexically_normal().string();
  }
  if (const auto raw = json.find("raw_units"); raw != json.end()) {
    if (!raw->is_boolean()) {
      *error = path + ": raw_units: expected true or false";
      return false;
    }
    file.raw_units = raw->get<bool>();
  }
  file.json = std::move(json);
  *out = std::move(file);
  return true;
}

std::string RigChanges::Describe() const {
  if (empty()) return "the joints are the same";
  std::string text;
  auto list = [&](const char* what, const std::vector<std::string>& names) {
    if (names.empty()) return;
    text += (text.empty() ? "joints " : "; ") + std::string(what) + ": ";
    for (size_t i = 0; i < names.size(); ++i) text += (i ? ", " : "") + names[i];
  };
  list("added", added);
  list("removed", removed);
  if (!renamed.empty()) {
    text += (text.empty() ? "joints renamed: " : "; renamed: ");
    bool first = true;
    for (const auto& [from, to] : renamed) {
      text += (first ? "" : ", ") + from + " → " + to;
      first = false;
    }
  }
  return text;
}

RigChanges CompareRigs(const ik::Skeleton& before, const ik::Skeleton& after) {
  RigChanges changes;
  std::vector<int> gone, fresh;  // joints only in `before`, only in `after`
  for (int j = 0; j < before.joint_count(); ++j) {
    if (after.Find(before.name(j)) < 0) gone.push_back(j);
  }
  for (int j = 0; j < after.joint_count(); ++j) {
    if (before.Find(after.name(j)) < 0) fresh.push_back(j);
  }
  // The rig's size, for "nearly the same rest position".
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const glm::mat4& m : after.rest_models()) {
    lo = glm::min(lo, glm::vec3(m[3]));
    hi = glm::max(hi, glm::vec3(m[3]));
  }
  const float tolerance = after.empty() ? 0.0f : 0.01f * std::max(glm::length(hi - lo), 1e-6f);
  // A gone joint and a new one are a rename when their parents are the same joint (by name,
  // through the renames found so far: parents come first) and they rest within 1% of the rig's
  // size of each other; each new joint takes at most one.
  std::set<int> taken;
  for (int g : gone) {
    const int parent_before = before.parent(g);
    std::string parent_name = parent_before < 0 ? std::string() : before.name(parent_before);
    if (auto it = changes.renamed.find(parent_name); it != changes.renamed.end()) {
      parent_name = it->second;
    }
    const glm::vec3 at(before.rest_models()[size_t(g)][3]);
    int best = -1;
    float best_distance = tolerance;
    for (int f : fresh) {
      if (taken.count(f)) continue;
      const int parent_after = after.parent(f);
      const std::string fresh_parent = parent_after < 0 ? std::string() : after.name(parent_after);
      if (fresh_parent != parent_name) continue;
      const float d = glm::length(glm::vec3(after.rest_models()[size_t(f)][3]) - at);
      if (d <= best_distance) {
        best = f;
        best_distance = d;
      }
    }
    if (best >= 0) {
      taken.insert(best);
      changes.renamed[before.name(g)] = after.name(best);
    } else {
      changes.removed.push_back(before.name(g));
    }
  }
  for (int f : fresh) {
    if (!taken.count(f)) changes.added.push_back(after.name(f));
  }
  return changes;
}

}  // namespace app
