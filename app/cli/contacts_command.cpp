// `skelview contacts`: the contacts of a clip's feet and how much each slides, before and after the
// foot lock (app/core/foot_lock.h), as text or JSON.
#include <optional>
#include <string>

#include "app/cli/command_support.h"
#include "app/core/bake.h"
#include "app/core/json_output.h"
#include "assets/files/text.h"

namespace app {

namespace {

Json NumbersJson(const FeetNumbers& n) {
  Json j = Json::object();
  j["max_skate_mm"] = n.max_skate_mm;
  j["mean_skate_mm"] = n.mean_skate_mm;
  j["penetration_mm"] = n.penetration_mm;
  j["float_mm"] = n.float_mm;
  j["knee_step_deg"] = n.knee_step_deg;
  return j;
}

}  // namespace

int RunContacts(const PoseArgs& args, const std::optional<std::string>& ground_spec, bool json) {
  Ground ground;
  std::string error;
  if (ground_spec && !ParseGroundSpec(*ground_spec, &ground, &error)) return BadInput(error);
  PoseArgs pose_args = args;
  if (!pose_args.anim) pose_args.anim = 0;
  PreparedPose prepared;
  if (int code = PreparePose(pose_args, &prepared); code != kExitOk) return code;
  const Character& character = prepared.character;
  const assets::Model& model = prepared.model;
  const int clip = prepared.clip_time.clip;
  const std::string& clip_name = character.clip(clip)->name;
  BakePlan bake;
  if (!PlanBake(character, clip, &bake, &error)) return BadInput(error);
  ClipContacts contacts;
  std::shared_ptr<const FootLockPlan> plan;
  FootLockReport report;
  if (!LockFeet(character, clip, bake.fps, ground, &contacts, &plan, &report, &error)) {
    return BadInput(error);
  }
  const FeetSamples& s = contacts.source;
  // Each contact's mean height above the ground in the source.
  auto height_mm = [&](size_t leg, const ik::FootContact& c) {
    double sum = 0.0;
    for (int f = c.first; f <= c.last; ++f)
      sum += double(ground.HeightAbove(s.ankle[leg][static_cast<size_t>(f)]));
    return static_cast<float>(sum / double(c.last - c.first + 1)) * 1000.0f;
  };
  if (json) {
    Json doc = Json::object();
    Json feet = Json::array();
    for (size_t i = 0; i < s.legs.size(); ++i) {
      Json foot = Json::object();
      foot["joint"] = model.skeleton.name(s.legs[i].chain.end);
      Json list = Json::array();
      for (size_t k = 0; k < contacts.contacts[i].size(); ++k) {
        const ik::FootContact& c = contacts.contacts[i][k];
        Json entry = Json::object();
        entry["start"] = s.Time(c.first);
        entry["end"] = s.Time(c.last);
        entry["skate_mm"] = report.before.skate_mm[i][k];
        entry["height_mm"] = height_mm(i, c);
        entry["locked_skate_mm"] = report.after.skate_mm[i][k];
        list.push_back(entry);
      }
      foot["contacts"] = list;
      foot["leg"] = s.legs[i].label;
      feet.push_back(foot);
    }
    doc["feet"] = feet;
    doc["max_skate_mm"] = report.before.max_skate_mm;
    doc["clip"] = clip_name;
    doc["fps"] = s.fps;
    doc["in_place"] = contacts.in_place;
    doc["travel"] = Json::array({contacts.travel.x, contacts.travel.y, contacts.travel.z});
    doc["ground"] = ground.spec;
    doc["before"] = NumbersJson(report.before);
    doc["after"] = NumbersJson(report.after);
    doc["knee_jump_deg"] = report.knee_jump_deg;
    return Print(DumpJson(doc, 2) + "\n");
  }
  std::string out;
  char fps[32];
  std::snprintf(fps, sizeof(fps), "%g", double(s.fps));
  char speed[64];
  std::snprintf(speed, sizeof(speed), "%.3g", double(glm::length(contacts.travel)));
  out += "clip " + std::to_string(clip) + " '" + assets::ShownArgument(clip_name) + "' at " + fps +
         " fps, " +
         (contacts.in_place ? "in place (travel " + std::string(speed) + " units/s)"
                            : std::string("in the world")) +
         ", ground " + assets::ShownArgument(ground.spec) + "\n";
  for (size_t i = 0; i < s.legs.size(); ++i) {
    out += assets::ShownArgument(model.skeleton.name(s.legs[i].chain.end)) + ": " +
           std::to_string(contacts.contacts[i].size()) + " contacts\n";
    for (size_t k = 0; k < contacts.contacts[i].size(); ++k) {
      const ik::FootContact& c = contacts.contacts[i][k];
      Appendf(&out, "  %.3f-%.3f s  skate %.1f mm (locked %.1f mm)  height %.1f mm\n",
              double(s.Time(c.first)), double(s.Time(c.last)), double(report.before.skate_mm[i][k]),
              double(report.after.skate_mm[i][k]), double(height_mm(i, c)));
    }
  }
  out += "locked: " + NumbersLine(report) + "\n";
  return Print(out);
}

}  // namespace app
