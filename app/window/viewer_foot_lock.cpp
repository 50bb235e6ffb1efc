// The foot lock in the window: the contacts of the clip playing (found once per clip, edited on
// the timeline's foot lanes), the Lock feet toggle that plans the lock into the edit so that the
// view plays the locked clip, the ground it stands the feet on (drawn in the view), and the
// numbers before and after — the ones `contacts --json` prints (ReportFootLock). Each change is
// one undo step (the edit holds the plan and what it was planned from) and a trace event.
#include <algorithm>
#include <cmath>
#include <utility>

#include "app/core/bake.h"
#include "app/core/contact_edit.h"
#include "app/window/viewer_loop.h"

namespace app {

namespace {

constexpr float kMillimetres = 1000.0f;
constexpr float kAddedContactSeconds = 0.3f;  // a contact added by hand

Json NumbersJson(const FeetNumbers& n) {
  return Json{{"max_skate_mm", n.max_skate_mm},
              {"mean_skate_mm", n.mean_skate_mm},
              {"penetration_mm", n.penetration_mm},
              {"float_mm", n.float_mm},
              {"knee_step_deg", n.knee_step_deg}};
}

// The widgets of the Ground section showing `ground`.
void ShowGround(const Ground& ground, FeetView* v) {
  switch (ground.kind) {
    case Ground::Kind::kRamp:
      v->kind = 1;
      v->degrees = ground.degrees;
      break;
    case Ground::Kind::kStairs:
      v->kind = 2;
      v->step = ground.step;
      v->depth = ground.depth;
      break;
    case Ground::Kind::kMesh:
      v->kind = 3;
      v->mesh_path = ground.spec;
      break;
    default:
      v->kind = 0;
      v->y = ground.y;
      break;
  }
}

}  // namespace

void Viewer::SyncFeet() {
  FeetView& v = feet_;
  const Character& character = current_->character;
  const int clip = playback_.clip;
  const assets::Clip* played = character.clip(clip);
  const float duration = played ? played->duration : -1.0f;
  bool changed = false;
  if (v.loaded != current_.get() || v.clip != clip || v.duration != duration ||
      !LegsAre(character, v.leg_joints)) {  // a limb fix changes the legs
    v.loaded = current_.get();
    v.leg_joints = LegJoints(character);
    v.clip = clip;
    v.duration = duration;
    v.ready = false;
    v.error.clear();
    v.feet.clear();
    v.leg = v.contact = -1;
    if (played) {
      BakePlan bake;  // the rate `contacts` and `export --bake --lock-feet` find contacts at
      v.ready = PlanBake(character, clip, &bake, &v.error) &&
                FindClipContacts(character, clip, bake.fps, &v.found, &v.error);
      if (v.ready) {
        for (const ik::Limb& leg : v.found.source.legs) {
          v.feet.push_back(current_->model.skeleton.name(leg.chain.end));
        }
      }
    }
    changed = true;
  }
  const std::string& wanted = edit_.foot_lock_edit.ground;
  GroundLoading& gl = ground_loading_;
  if (gl.load && !gl.chosen && gl.load->spec() != wanted) {  // the edit moved on (undo, redo)
    gl.load.reset();
    v.ground_loading.clear();
  }
  if (v.ground_spec != wanted) {
    if (IsGroundMeshSpec(wanted)) {
      // A mesh read before is taken at once; else it is read in the background, the ground in
      // effect staying meanwhile (and while a file the user chose is being read).
      const auto kept = std::find_if(gl.kept.begin(), gl.kept.end(),
                                     [&](const Ground& g) { return g.spec == wanted; });
      if (kept != gl.kept.end()) {
        v.ground = *kept;
        v.ground_spec = wanted;
        ShowGround(v.ground, &v);
        changed = true;
      } else if (!gl.load) {
        StartGroundLoad(wanted, /*chosen=*/false);
      }
    } else {
      std::string error;
      Ground ground;
      if (ParseGroundSpec(wanted, &ground, &error)) {
        v.ground = std::move(ground);
      } else {
        ShowMessage(error, MessageLevel::kWarning);
        v.ground = Ground();
      }
      v.ground_spec = wanted;
      ShowGround(v.ground, &v);
      changed = true;
    }
  }
  if (!v.ready) {
    v.locked = false;
    return;
  }
  if (!changed && v.edit_seen == edit_.foot_lock_edit && v.plan_seen == edit_.foot_lock.get()) {
    return;
  }
  v.edit_seen = edit_.foot_lock_edit;
  v.plan_seen = edit_.foot_lock.get();
  v.used = ContactsFor(v.found, edit_.foot_lock_edit);
  v.locked = edit_.foot_lock && edit_.foot_lock->clip == clip;
  if (v.locked) {
    v.report = ReportFootLock(character, v.used, v.ground, edit_.foot_lock);
  } else {
    v.report = FootLockReport();
    v.report.before = MeasureFeet(v.used.source, v.used, v.ground);
  }
  // Per contact: its times, skate (locked too) and how it stands on the ground in the source.
  const FeetSamples& s = v.used.source;
  v.contacts.assign(v.used.contacts.size(), {});
  for (size_t i = 0; i < v.used.contacts.size(); ++i) {
    for (size_t k = 0; k < v.used.contacts[i].size(); ++k) {
      const ik::FootContact& c = v.used.contacts[i][k];
      FeetView::Contact shown;
      shown.start = s.Time(c.first);
      shown.end = s.Time(c.last);
      shown.skate_mm = v.report.before.skate_mm[i][k];
      if (v.locked && k < v.report.after.skate_mm[i].size()) {
        shown.locked_skate_mm = v.report.after.skate_mm[i][k];
      }
      double sum = 0.0;
      for (int f = c.first; f <= c.last; ++f) {
        const float above =
            v.ground.HeightAbove(v.used.OnGround(s.ankle[i][static_cast<size_t>(f)], s.Time(f)));
        sum += double(above);
        const float d = (above - v.used.planted_height[i]) * kMillimetres;
        shown.sink_mm = std::max(shown.sink_mm, -d);
        shown.float_mm = std::max(shown.float_mm, d);
      }
      shown.height_mm = static_cast<float>(sum / double(c.last - c.first + 1)) * kMillimetres;
      v.contacts[i].push_back(shown);
    }
  }
  if (v.leg >= static_cast<int>(v.contacts.size()) ||
      (v.leg >= 0 && v.contact >= static_cast<int>(v.contacts[size_t(v.leg)].size()))) {
    v.leg = v.contact = -1;
  }
}

void Viewer::Replan() {
  SyncFeet();
  if (!feet_.ready) return;
  FootLockOptions options;
  options.ground = feet_.ground;
  edit_.foot_lock = PlanFootLock(current_->character, feet_.used, options);
  SyncFeet();
  // Planned on the ground in effect while the edit's own is still being read: again once it is in.
  const GroundLoading& gl = ground_loading_;
  if (gl.load && !gl.chosen && gl.load->spec() == edit_.foot_lock_edit.ground) {
    ground_loading_.replan = true;
  }
}

void Viewer::LockFeetNow(bool on) {
  SyncFeet();
  if (on && !feet_.ready) {
    ShowMessage("Lock feet: " + (feet_.error.empty() ? std::string("choose a clip to play first")
                                                     : feet_.error),
                MessageLevel::kWarning);
    return;
  }
  if (on) {
    Replan();
  } else {
    edit_.foot_lock = nullptr;
    SyncFeet();
  }
  recorder_.Changed(edit_);
  Update(0.0);
  if (!trace_.is_open()) return;
  Json event = FeetJson("foot_lock");
  event["on"] = on;
  trace_.Write(event);
}

void Viewer::SetGroundNow(const std::string& spec) {
  if (IsGroundMeshSpec(spec)) {  // read in the background; set once it is in (GroundLoaded)
    StartGroundLoad(spec, /*chosen=*/true);
    return;
  }
  Ground ground;
  std::string error;
  if (!ParseGroundSpec(spec, &ground, &error)) {
    ShowMessage(error, MessageLevel::kError);
    return;
  }
  if (ground_loading_.load && ground_loading_.chosen) {  // this ground instead of the mesh
    ground_loading_.load.reset();
    feet_.ground_loading.clear();
  }
  edit_.foot_lock_edit.ground = spec;
  if (feet_.locked) {
    Replan();
  } else {
    SyncFeet();
  }
  recorder_.Changed(edit_);
  Update(0.0);
  if (!trace_.is_open()) return;
  Json event = FeetJson("ground");
  event["on"] = feet_.locked;
  event["triangles"] = feet_.ground.triangles.size() / 3;
  trace_.Write(event);
}

void Viewer::StartGroundLoad(const std::string& spec, bool chosen) {
  GroundLoading& gl = ground_loading_;
  gl.load.reset();  // a file still being read is not wanted any more
  gl.load = std::make_unique<GroundLoad>();
  gl.chosen = chosen;
  gl.replan = false;
  ImportLimits limits;
  gl.load->Start(spec, limits);  // a worker that cannot start: a failure, in PollGround
  feet_.ground_loading = spec;
  if (chosen) feet_.mesh_path = spec;
}

void Viewer::PollGround() {
  GroundLoading& gl = ground_loading_;
  if (gl.load) {
    const GroundLoad::State state = gl.load->Poll();
    if (state != GroundLoad::State::kRunning) {
      const std::unique_ptr<GroundLoad> load = std::move(gl.load);
      feet_.ground_loading.clear();
      if (state == GroundLoad::State::kDone) {
        GroundLoaded(load->spec(), load->TakeGround(), gl.chosen);
      } else {
        GroundFailed(load->spec(), load->error(), gl.chosen);
      }
    }
  }
  // Where the Ground section's controls are, when that changes (for tests driving them).
  const glm::vec2 shown[3] = {feet_.kind_px, feet_.mesh_item_px, feet_.browse_px};
  if (!trace_.is_open() || std::equal(shown, shown + 3, gl.traced_px)) return;
  std::copy(shown, shown + 3, gl.traced_px);
  auto at = [](const glm::vec2& p) { return p.x < 0.0f ? Json(nullptr) : Json{p.x, p.y}; };
  trace_.Write(Json{{"event", "ground_ui"},
                    {"kind_px", at(shown[0])},
                    {"mesh_item_px", at(shown[1])},
                    {"browse_px", at(shown[2])}});
}

void Viewer::GroundLoaded(const std::string& spec, Ground ground, bool chosen) {
  GroundLoading& gl = ground_loading_;
  const size_t triangles = ground.triangles.size() / 3;
  // Kept for undo and redo (the newest two): a step back to this ground takes it at once.
  gl.kept.erase(std::remove_if(gl.kept.begin(), gl.kept.end(),
                               [&](const Ground& g) { return g.spec == spec; }),
                gl.kept.end());
  gl.kept.insert(gl.kept.begin(), std::move(ground));
  if (gl.kept.size() > 2) gl.kept.resize(2);
  feet_.ground_spec.clear();  // SyncFeet takes the ground from `kept`, also a file read again
  if (chosen) {  // as a ground set in the section: one undo step, the lock planned on it
    edit_.foot_lock_edit.ground = spec;
    if (feet_.locked) {
      Replan();
    } else {
      SyncFeet();
    }
    recorder_.Changed(edit_);
    Update(0.0);
    ShowMessage("ground: " + spec + " (" + std::to_string(triangles) + " triangles)",
                MessageLevel::kNote);
    if (!trace_.is_open()) return;
    Json event = FeetJson("ground");
    event["on"] = feet_.locked;
    event["triangles"] = triangles;
    trace_.Write(event);
    return;
  }
  SyncFeet();  // the edit's ground (undo, redo, a session) in effect
  // The lock was planned before its ground was in (a session opened locked): planned again, as
  // part of opening it when nothing was edited since.
  if (!std::exchange(gl.replan, false) || !edit_.foot_lock) return;
  const bool untouched =
      recorder_.undo_count() == 0 && recorder_.redo_count() == 0 && !recorder_.running();
  const bool was_saved = edit_ == saved_edit_;
  Replan();
  if (untouched) {
    recorder_.Reset(edit_);
    if (was_saved) saved_edit_ = edit_;
  } else {
    recorder_.Changed(edit_);
  }
  Update(0.0);
  if (!trace_.is_open()) return;
  Json event = FeetJson("foot_lock");
  event["on"] = feet_.locked;
  trace_.Write(event);
}

void Viewer::GroundFailed(const std::string& spec, const std::string& error, bool chosen) {
  if (trace_.is_open()) {
    trace_.Write(Json{{"event", "ground_failed"},
                      {"file", spec},
                      {"message", error},
                      {"chosen", chosen},
                      {"ground", chosen ? feet_.ground_spec : std::string("plane")}});
  }
  if (chosen) {  // the ground in effect stays
    ShowMessage("Ground: " + error + " (the ground stays " + feet_.ground_spec + ")",
                MessageLevel::kError);
    return;
  }
  // The edit's mesh could not be read (a session's file gone or broken): the authored floor, as
  // the plane kept under the mesh's name, so that it is not read again and again.
  ShowMessage("Ground: " + error + " (the plane instead)", MessageLevel::kWarning);
  Ground plane;
  plane.spec = spec;
  GroundLoaded(spec, std::move(plane), /*chosen=*/false);
}

void Viewer::DrawGroundBrowser() {
  GroundLoading& gl = ground_loading_;
  if (gl.load) frame_idle_ = false;
  std::string chosen;
  if (!gl.browser.Draw(&chosen)) return;
  if (!IsGroundMeshSpec(chosen)) {
    ShowMessage("Ground: " + chosen + ": not a .glb or .gltf file", MessageLevel::kError);
    return;
  }
  SetGroundNow(chosen);
}

void Viewer::EditContactNow(const Request& request) {
  SyncFeet();
  FeetView& v = feet_;
  const int leg = request.index;
  if (!v.ready || leg < 0 || leg >= static_cast<int>(v.used.contacts.size())) return;
  FootLockEdit& edit = edit_.foot_lock_edit;
  if (edit.clip != v.clip || edit.contacts.size() != v.used.contacts.size()) {
    edit.clip = v.clip;  // the contacts found, edited from now on
    edit.contacts = ContactFrames(v.found);
  }
  std::vector<glm::ivec2>& list = edit.contacts[size_t(leg)];
  const int frames = v.used.source.frames;
  const int frame = v.FrameOf(request.time);
  int index = request.contact;
  bool done = false;
  if (request.text == "start" || request.text == "end") {
    done = MoveContactEnd(&list, index, request.text == "end", frame, frames);
  } else if (request.text == "add") {
    const int length =
        std::max(2, static_cast<int>(std::lround(kAddedContactSeconds * v.used.source.fps)));
    index = AddContact(&list, frame, frames, length);
    done = index >= 0;
    if (!done) ShowMessage("Add contact: the foot is already planted there", MessageLevel::kNote);
  } else if (request.text == "delete") {
    done = index >= 0 && index < static_cast<int>(list.size());
  }
  if (!done) {
    SyncFeet();  // the edit may have been started from the found contacts: nothing changed
    return;
  }
  const glm::ivec2 changed = list[size_t(index)];
  if (request.text == "delete") DeleteContact(&list, index);
  if (feet_.locked) {
    Replan();
  } else {
    SyncFeet();
  }
  feet_.leg = request.text == "delete" ? -1 : leg;
  feet_.contact = request.text == "delete" ? -1 : index;
  recorder_.Changed(edit_);
  Update(0.0);
  if (!trace_.is_open()) return;
  Json event = FeetJson("contact_edited");
  event["what"] = request.text;
  event["foot"] = v.feet[size_t(leg)];
  event["leg"] = leg;
  event["index"] = index;
  event["start"] = v.used.source.Time(changed.x);
  event["end"] = v.used.source.Time(changed.y);
  if (request.text == "start" || request.text == "end") {
    event["start"] = v.used.source.Time(list[size_t(index)].x);
    event["end"] = v.used.source.Time(list[size_t(index)].y);
  }
  trace_.Write(event);
}

bool Viewer::DeleteSelectedContact() {
  if (!feet_.ready || feet_.leg < 0 || feet_.contact < 0) return false;
  Request deleted{RequestKind::kEditContact, "delete", false, feet_.leg};
  deleted.contact = feet_.contact;
  EditContactNow(deleted);
  return true;
}

Json Viewer::FeetJson(const char* event_name) const {
  const FeetView& v = feet_;
  Json out = Json::object();
  out["event"] = event_name;
  out["clip"] = v.clip;
  out["ground"] = v.ground_spec;
  out["locked"] = v.locked;
  out["before"] = NumbersJson(v.report.before);
  out["after"] = v.locked ? NumbersJson(v.report.after) : Json(nullptr);
  out["knee_jump_deg"] = v.report.knee_jump_deg;
  out["fps"] = v.used.source.fps;
  Json feet = Json::array();
  for (size_t i = 0; i < v.contacts.size() && i < v.feet.size(); ++i) {
    Json foot = Json::object();
    foot["joint"] = v.feet[i];
    Json list = Json::array();
    for (const FeetView::Contact& c : v.contacts[i]) {
      list.push_back(Json{{"start", c.start},
                          {"end", c.end},
                          {"skate_mm", c.skate_mm},
                          {"locked_skate_mm", c.locked_skate_mm},
                          {"height_mm", c.height_mm}});
    }
    foot["contacts"] = list;
    // The foot's lane on the timeline (window coordinates: time 0 at x0, the clip's end at x1).
    foot["lane"] = nullptr;
    for (const TimelineView::FootLane& lane : timeline_.foot_lanes) {
      if (lane.leg != static_cast<int>(i)) continue;
      foot["lane"] = Json{{"x0", timeline_.lanes_x0},
                          {"x1", timeline_.lanes_x1},
                          {"top", lane.top},
                          {"bottom", lane.bottom},
                          {"duration", v.duration}};
    }
    feet.push_back(foot);
  }
  out["feet"] = feet;
  return out;
}

void Viewer::DrawGround(const renderer::View& view) {
  const Ground& ground = feet_.ground;
  if (ground.IsAuthoredFloor()) return;
  ground_shapes_.Clear();
  ground_lines_.Clear();
  const glm::vec4 fill(0.50f, 0.62f, 0.80f, 0.45f), edge(0.70f, 0.80f, 0.95f, 0.9f);
  const float size = std::max(current_->extent.size, 0.5f);
  const float half = size, x0 = -half, x1 = half;
  // Under an in-place clip the ground passes back with its travel (ClipContacts::OnGround): drawn
  // from the ground's frame, world (x, z) at model (x, z) − shift.
  glm::vec3 shift(0.0f);
  if (feet_.ready && feet_.clip == playback_.clip) {
    shift = feet_.used.Travelled(playback_.time);
    shift.y = 0.0f;
  }
  const auto model = [&](const glm::vec3& p) { return p - shift; };
  if (ground.kind == Ground::Kind::kMesh) {
    const std::vector<glm::vec3>& t = ground.triangles;
    for (size_t k = 0; k + 2 < t.size() && k < 3 * 200000; k += 3) {
      ground_shapes_.AddTriangle(model(t[k]), model(t[k + 1]), model(t[k + 2]), fill);
    }
  } else if (ground.kind == Ground::Kind::kStairs && ground.depth > 0.0f) {
    // Each step's tread and riser, over the model's size either side of it.
    const float wx0 = x0 + shift.x, wx1 = x1 + shift.x;
    const int first = static_cast<int>(std::floor((shift.z - half) / ground.depth));
    const int last = static_cast<int>(std::ceil((shift.z + half) / ground.depth));
    for (int k = first; k <= last && k - first < 400; ++k) {
      const float z0 = float(k) * ground.depth, z1 = z0 + ground.depth;
      const float y = ground.HeightAt(0.0f, 0.5f * (z0 + z1));
      ground_shapes_.AddQuad(model({wx0, y, z0}), model({wx1, y, z0}), model({wx1, y, z1}),
                             model({wx0, y, z1}), fill);
      const float y_next = ground.HeightAt(0.0f, z1 + 0.5f * ground.depth);
      ground_shapes_.AddQuad(model({wx0, y, z1}), model({wx1, y, z1}), model({wx1, y_next, z1}),
                             model({wx0, y_next, z1}), fill);
      ground_lines_.AddLine(model({wx0, y, z0}), model({wx1, y, z0}), edge);
    }
  } else {
    // A plane or a ramp: one quad, with lines across every tenth of the size (fixed on the
    // ground, so that they pass back under an in-place walk).
    const float z0 = -half, z1 = half;
    auto at = [&](float x, float z) {
      return glm::vec3(x, ground.HeightAt(x + shift.x, z + shift.z), z);
    };
    ground_shapes_.AddQuad(at(x0, z0), at(x1, z0), at(x1, z1), at(x0, z1), fill);
    const float spacing = 2.0f * half / 10.0f;
    for (float z = std::ceil((z0 + shift.z) / spacing) * spacing - shift.z; z <= z1; z += spacing) {
      ground_lines_.AddLine(at(x0, z), at(x1, z), edge);
    }
    ground_lines_.AddLine(at(x0, z0), at(x0, z1), edge);
    ground_lines_.AddLine(at(x1, z0), at(x1, z1), edge);
  }
  renderer_->DrawShapes(ground_shapes_, view, renderer::DepthMode::kTested);
  if (!ground_lines_.empty()) {
    renderer_->DrawLines(ground_lines_, view, renderer::DepthMode::kHiddenDimmed);
  }
}

}  // namespace app
