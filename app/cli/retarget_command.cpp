// `skelview retarget`: loads both models, maps the joints, transfers the clip, measures it, writes
// the target with the clip added (and the report), in that order so that a refusal writes nothing.
#include "app/cli/retarget_command.h"

#include <sys/stat.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/cli/command_support.h"
#include "app/core/bake.h"
#include "app/core/character.h"
#include "app/core/json_output.h"
#include "app/core/pose_input.h"
#include "app/core/retarget.h"
#include "assets/export/exporter.h"
#include "assets/files/file_output.h"
#include "assets/files/text.h"

namespace app {

namespace {

constexpr long kMaxMapBytes = 1 << 20;

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "builtin" is the built-in character (LoadModelOrBuiltin's "").
bool Load(const std::string& path, const RetargetArgs& args, assets::Model* model,
          std::string* error) {
  return LoadModelOrBuiltin(path == "builtin" ? "" : path, args.allow_outside_files, args.raw_units,
                            model, error);
}

bool ReadMap(const std::string& path, std::string* text, std::string* error) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
    *error = "--map " + assets::ShownPath(path) + ": not a readable file";
    return false;
  }
  if (info.st_size > kMaxMapBytes) {
    *error = "--map " + assets::ShownPath(path) + ": larger than 1 MiB";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (!in.good() && !in.eof()) {
    *error = "--map " + assets::ShownPath(path) + ": cannot be read";
    return false;
  }
  *text = buffer.str();
  return true;
}

std::string Fixed(float v, int digits) {
  char text[48];
  std::snprintf(text, sizeof(text), "%.*f", digits, double(v));
  return text;
}

Json ReportJson(const assets::Model& source, const assets::Model& target, const std::string& clip,
                const RetargetMapping& mapping, const RetargetInfo& info,
                const RetargetReport& report) {
  Json doc = Json::object();
  doc["source"] = source.source;
  doc["target"] = target.source;
  doc["clip"] = clip;
  doc["fps"] = info.fps;
  doc["frames"] = info.frames + 1;
  doc["scale"] = info.scale;
  Json pairs = Json::array();
  for (const RetargetPair& p : mapping.pairs) {
    Json e = Json::object();
    e["source"] = source.skeleton.name(p.source);
    e["target"] = target.skeleton.name(p.target);
    e["by"] = p.by;
    pairs.push_back(e);
  }
  doc["mapping"] = pairs;
  Json effectors = Json::array();
  for (const RetargetInfo::Effector& e : info.effectors) {
    Json j = Json::object();
    j["limb"] = e.limb;
    j["joint"] = target.skeleton.name(e.target);
    j["source_joint"] = source.skeleton.name(e.source);
    j["solved"] = e.solved;
    j["max_error_mm"] = e.max_error_m * 1000.0f;
    j["mean_error_mm"] = e.mean_error_m * 1000.0f;
    effectors.push_back(j);
  }
  doc["end_effectors"] = effectors;
  Json feet = Json::array();
  for (const RetargetReport::Foot& f : report.feet) {
    Json j = Json::object();
    j["source_leg"] = f.source_leg;
    j["target_leg"] = f.target_leg;
    j["height_correlation"] = f.height_correlation;
    j["source_contact_frames"] = f.source_contact_frames;
    j["contacts_kept"] = f.contacts_kept;
    j["planted_agreement"] = f.planted_agreement;
    j["source_skate_mm"] = f.source_skate_mm;
    j["result_skate_mm"] = f.result_skate_mm;
    j["sliding_added_mm"] = f.sliding_added_mm;
    feet.push_back(j);
  }
  doc["feet"] = feet;
  Json ratios = Json::array();
  for (const RetargetReport::LimbRatio& r : report.bone_length_ratios) {
    Json j = Json::object();
    j["limb"] = r.limb;
    j["ratio"] = r.ratio;
    ratios.push_back(j);
  }
  doc["bone_length_ratios"] = ratios;
  doc["warnings"] = report.warnings;
  return doc;
}

std::string Summary(const Json& doc) {
  std::string s = "retargeted '" + doc["clip"].get<std::string>() +
                  "': " + std::to_string(doc["mapping"].size()) + " joints mapped, scale " +
                  Fixed(doc["scale"].get<float>(), 3) + "\n";
  for (const Json& p : doc["mapping"]) {
    s += "  " + p["source"].get<std::string>() + " -> " + p["target"].get<std::string>() + " (" +
         p["by"].get<std::string>() + ")\n";
  }
  for (const Json& e : doc["end_effectors"]) {
    s += "  " + e["limb"].get<std::string>() + " end error: max " +
         Fixed(e["max_error_mm"].get<float>(), 1) + " mm, mean " +
         Fixed(e["mean_error_mm"].get<float>(), 1) + " mm" +
         (e["solved"].get<bool>() ? " (two-bone IK)" : "") + "\n";
  }
  for (const Json& f : doc["feet"]) {
    s += "  " + f["target_leg"].get<std::string>() + " foot: height r " +
         Fixed(f["height_correlation"].get<float>(), 3) + ", contacts kept " +
         Fixed(100.0f * f["contacts_kept"].get<float>(), 1) + "%, planted on the same frames " +
         Fixed(100.0f * f["planted_agreement"].get<float>(), 1) + "%, sliding added " +
         Fixed(f["sliding_added_mm"].get<float>(), 1) + " mm\n";
  }
  for (const Json& w : doc["warnings"]) s += "  warning: " + w.get<std::string>() + "\n";
  return s;
}

}  // namespace

int RunRetarget(const RetargetArgs& args) {
  if (args.out.empty()) return BadInput("retarget needs -o OUT.glb");
  {
    const std::string ext = std::filesystem::path(args.out).extension().string();
    if (Lower(ext) != ".glb" && Lower(ext) != ".gltf") {
      return BadInput("-o " + assets::ShownPath(args.out) + ": unsupported extension '" + ext +
                      "' (use .glb or .gltf)");
    }
  }
  for (const std::string& file : assets::ExportedFiles(args.out)) {
    if (const std::string problem = assets::OutputProblem(file); !problem.empty()) {
      return BadInput("-o " + assets::ShownPath(args.out) + ": " + problem);
    }
  }
  if (!args.report.empty()) {
    if (const std::string problem = assets::OutputProblem(args.report); !problem.empty()) {
      return BadInput("--report " + assets::ShownPath(args.report) + ": " + problem);
    }
  }
  std::vector<std::pair<std::string, std::string>> user_map;
  std::string error;
  if (!args.map.empty()) {
    std::string text;
    if (!ReadMap(args.map, &text, &error)) return BadInput(error);
    if (!ParseJointMap(text, &user_map, &error)) {
      return BadInput("--map " + assets::ShownPath(args.map) + ": " + error);
    }
  }
  assets::Model source, target;
  if (!Load(args.source, args, &source, &error)) return BadInput(error);
  if (!Load(args.target, args, &target, &error)) return BadInput("--onto: " + error);
  if (source.clips.empty()) {
    return BadInput("SOURCE " + assets::ShownPath(source.source) + ": it has no clips to retarget");
  }
  if (!ValidateAnim(args.anim, source, false, &error)) return BadInput(error);
  for (const assets::Model* input : {&source, &target}) {
    std::vector<std::string> outputs = assets::ExportedFiles(args.out);
    if (!args.report.empty()) outputs.push_back(args.report);
    if (!assets::CheckOutputsSpareInputs(*input, outputs, &error)) {
      return BadInput("-o " + assets::ShownPath(args.out) + ": " + error);
    }
  }
  const Character source_character(source);
  const Character target_character(target);
  RetargetMapping mapping;
  if (!MapJoints(source_character, target_character, &mapping, &error)) return BadInput(error);
  if (!user_map.empty() &&
      !ApplyJointMap(source.skeleton, target.skeleton, user_map, &mapping, &error)) {
    return BadInput("--map " + assets::ShownPath(args.map) + ": " + error);
  }
  BakePlan plan;
  if (!PlanBake(source_character, args.anim, &plan, &error)) return BadInput(error);
  const std::string clip_name = source.clips[size_t(args.anim)].name;
  std::string name = clip_name.empty() ? "Retargeted" : clip_name;
  while (target.FindClip(name) >= 0) name += " (retargeted)";
  assets::Clip clip;
  RetargetInfo info;
  if (!RetargetClip(source_character, args.anim, target_character, mapping, plan.fps, name, &clip,
                    &info, &error)) {
    return BadInput(error);
  }
  assets::Model result = target;
  result.clips.push_back(std::move(clip));
  const Character result_character(result);
  RetargetReport report;
  if (!MeasureRetarget(source_character, args.anim, result_character,
                       static_cast<int>(result.clips.size()) - 1, mapping, info, &report, &error)) {
    return BadInput(error);
  }
  const Json doc = ReportJson(source, target, clip_name, mapping, info, report);
  assets::ExportFailure failure = assets::ExportFailure::kNone;
  if (!assets::ExportGltf(result, args.out, &error, &failure)) {
    return failure == assets::ExportFailure::kWriteFailed ? Failure(error) : BadInput(error);
  }
  if (!args.report.empty()) {
    const std::string text = DumpJson(doc, 2) + "\n";
    if (!assets::WriteFileAtomically(args.report, text.data(), text.size(), &error)) {
      return Failure("--report " + assets::ShownPath(args.report) + ": " + error);
    }
  }
  std::string out_error;
  if (!WriteStandardOutput(Summary(doc), &out_error)) return Failure(out_error);
  return kExitOk;
}

}  // namespace app
