// File ▸ Import clip from… on the open model: a browser picks the source model, which is imported
// in the background (ImportProcess, as File ▸ Open); its joints are mapped onto the open model's
// (app/core/retarget.h) with the edits saved beside the model applied, and the mapping dialog
// shows them; Apply retargets the chosen clip and adds it to the open model's clips, as Animation
// ▸ Generate range of motion adds its clip, and plays it. The open model is never replaced;
// refusals are messages. Trace events: retarget_mapping (the dialog shown), retarget_done.
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app/core/retarget.h"
#include "app/core/retarget_table.h"
#include "app/window/viewer_loop.h"

namespace app {

namespace {

std::string Fixed(float v, int digits) {
  char text[48];
  std::snprintf(text, sizeof(text), "%.*f", digits, double(v));
  return text;
}

}  // namespace

void Viewer::CarryOutImportClip(RequestKind kind) {
  ClipImport& ci = clip_import_;
  switch (kind) {
    case RequestKind::kImportClip:
      ci.browser.Open(OpenFolder(), "Import clip from");
      break;
    case RequestKind::kApplyRetarget:
      ApplyImportClip();
      break;
    case RequestKind::kCancelRetarget:
      ci.dialog.open = false;
      ci.source_character = Character();
      ci.source.reset();
      break;
    default:
      break;
  }
}

void Viewer::PollImportClip() {
  ClipImport& ci = clip_import_;
  if (!ci.loading) return;
  const ImportProcess::State state = ci.loading->Poll(0);
  if (state == ImportProcess::State::kRunning) return;
  const std::string path = ci.loading->path();
  if (state != ImportProcess::State::kDone) {
    ShowMessage("import clip: " + ci.loading->error(), MessageLevel::kError);
    ci.loading.reset();
    return;
  }
  auto source = std::make_unique<assets::Model>(ci.loading->TakeModel());
  ci.loading.reset();
  const std::string file = std::filesystem::path(path).filename().string();
  if (source->clips.empty()) {
    ShowMessage("import clip: " + path + " has no clips", MessageLevel::kError);
    return;
  }
  Character source_character(*source);
  RetargetMapping mapping;
  std::string error;
  if (!MapJoints(source_character, current_->character, &mapping, &error)) {
    ShowMessage("import clip from " + file + ": " + error, MessageLevel::kError);
    return;
  }
  RetargetDialog& d = ci.dialog;
  d = RetargetDialog();
  d.table = BuildRetargetTable(source->skeleton, mapping);
  d.source_path = path;
  d.target_name = current_path_.empty() ? std::string("the built-in character")
                                        : std::filesystem::path(current_path_).filename().string();
  d.map_path = RetargetMapPath(current_path_);
  ci.saved.clear();
  ci.saved_exists = false;
  if (!d.map_path.empty()) {
    std::error_code ec;
    ci.saved_exists = std::filesystem::exists(d.map_path, ec);
    if (!LoadRetargetMap(d.map_path, &ci.saved, &error)) {
      ShowMessage("import clip: the saved mapping is not used: " + error, MessageLevel::kWarning);
      ci.saved.clear();
    } else {
      d.reused_edits =
          ApplySavedMap(source->skeleton, current_->model.skeleton, ci.saved, &d.table);
    }
  }
  for (const assets::Clip& clip : source->clips) {
    d.clips.push_back(clip.name.empty() ? std::string("(unnamed)") : clip.name);
  }
  d.open = true;
  ci.source = std::move(source);  // the Model stays where it is: source_character sees it
  ci.source_character = std::move(source_character);
  ci.target_id = current_->character.id();
  ci.traced = false;
  for (const std::string& warning : d.table.warnings) {
    ShowMessage("import clip from " + file + ": " + warning, MessageLevel::kWarning);
  }
}

void Viewer::DrawImportClip() {
  ClipImport& ci = clip_import_;
  std::string chosen;
  if (ci.browser.Draw(&chosen)) {
    ci.dialog.open = false;
    ci.loading = std::make_unique<ImportProcess>();
    ImportLimits limits;
    limits.allow_outside_files = args_.pose.allow_outside_files;
    limits.raw_units = load_raw_units_;
    limits.texture_pixels = false;  // only the skeleton and clips are used
    if (!ci.loading->Start(chosen, limits)) PollImportClip();
  }
  if (ci.loading) frame_idle_ = false;
  if (!ci.dialog.open || !ci.source) return;
  if (ci.target_id != current_->character.id()) {  // another model was opened meanwhile
    ci.dialog.open = false;
    ci.source_character = Character();
    ci.source.reset();
    ShowMessage("import clip: cancelled, another model was opened", MessageLevel::kWarning);
    return;
  }
  DrawRetargetDialog(ci.source->skeleton, current_->model.skeleton, &ci.dialog, &requests_);
  if (!ci.traced) frame_idle_ = false;  // the dialog settles, then the trace says where it is
  if (!ci.traced && ci.dialog.settled_frames >= 2) {
    ci.traced = true;  // the dialog as the user sees it, its buttons where they are
    Json unmapped = Json::array();
    for (const std::string& w : ci.dialog.table.warnings) unmapped.push_back(w);
    trace_.Write(Json{{"event", "retarget_mapping"},
                      {"source", ci.dialog.source_path},
                      {"pairs", MappedRows(ci.dialog.table)},
                      {"unmapped_limbs", unmapped},
                      {"reused_edits", ci.dialog.reused_edits},
                      {"clips", ci.dialog.clips.size()},
                      {"apply", {ci.dialog.apply_px.x, ci.dialog.apply_px.y}},
                      {"cancel", {ci.dialog.cancel_px.x, ci.dialog.cancel_px.y}}});
  }
}

void Viewer::ApplyImportClip() {
  ClipImport& ci = clip_import_;
  RetargetDialog& d = ci.dialog;
  if (!d.open || !ci.source || ci.target_id != current_->character.id()) return;
  LoadedModel& m = *current_;
  const assets::Model& source = *ci.source;
  if (d.clip < 0 || size_t(d.clip) >= source.clips.size()) return;
  const std::string name =
      ImportedClipName(source.clips[size_t(d.clip)].name, d.source_path, m.model);
  assets::Clip clip;
  RetargetInfo info;
  std::string error;
  if (!RetargetWithTable(ci.source_character, d.clip, m.character, d.table, name, &clip, &info,
                         &error)) {
    ShowMessage("import clip: " + error, MessageLevel::kError);
    return;  // the dialog stays open for another mapping
  }
  // The user's edits beside the model, for the next import onto it.
  const JointMap map = UserJointMap(source.skeleton, m.model.skeleton, d.table, ci.saved);
  if (!d.map_path.empty() && (!map.empty() || ci.saved_exists)) {
    if (SaveRetargetMap(d.map_path, map, &error)) {
      ShowMessage(
          "saved the joint mapping (" + std::to_string(map.size()) + " edits) to " + d.map_path,
          MessageLevel::kNote);
    } else {
      ShowMessage("import clip: the mapping was not saved: " + error, MessageLevel::kWarning);
    }
  }
  // The clip joins the model's clips, as Generate range of motion's does: clips played together
  // stop first (their combination's index is the new clip's).
  playback_.together.clear();
  if (playback_.clip >= m.character.file_clip_count()) playback_.clip = -1;
  const int index = AddClip(std::move(clip), &m.model, &m.character);
  playback_.clip = index;
  playback_.time = 0.0f;
  playback_.range_start = 0.0f;
  playback_.range_end = -1.0f;
  playback_.playing = true;
  const RetargetMapping mapping = TableMapping(d.table);
  std::string summary = "imported \"" + name + "\": " + std::to_string(mapping.pairs.size()) +
                        " joints mapped, " + std::to_string(info.frames + 1) + " frames at " +
                        Fixed(info.fps, 0) + " fps, hips' travel scaled by " + Fixed(info.scale, 3);
  RetargetReport report;
  if (MeasureRetarget(ci.source_character, d.clip, m.character, index, mapping, info, &report,
                      &error)) {
    for (const RetargetReport::Foot& f : report.feet) {
      summary += "; " + f.target_leg + " foot height r " + Fixed(f.height_correlation, 2) +
                 ", planted on the same frames " + Fixed(100.0f * f.planted_agreement, 0) + "%";
    }
  }
  ShowMessage(summary, MessageLevel::kNote);
  for (const std::string& warning : report.warnings) {
    if (std::find(d.table.warnings.begin(), d.table.warnings.end(), warning) !=
        d.table.warnings.end()) {
      continue;  // shown when the dialog opened
    }
    ShowMessage("import clip: " + warning, MessageLevel::kWarning);
  }
  trace_.Write(Json{{"event", "retarget_done"},
                    {"clip", index},
                    {"name", name},
                    {"frames", info.frames + 1},
                    {"pairs", mapping.pairs.size()}});
  d.open = false;
  ci.source_character = Character();
  ci.source.reset();
  Update(0.0);
}

}  // namespace app
