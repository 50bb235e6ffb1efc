// Retargeting's measures: how closely the retargeted clip follows its source (the report).
#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "app/core/foot_lock.h"
#include "app/core/retarget.h"
#include "app/core/retarget_rig.h"
#include "assets/model/animation.h"
#include "ik/core/kinematics.h"

namespace app {

using retargeting::Align;
using retargeting::Alignment;
using retargeting::SourceOf;

namespace {

float Pearson(const std::vector<float>& a, const std::vector<float>& b) {
  const size_t n = std::min(a.size(), b.size());
  if (n < 2) return 0.0f;
  double ma = 0, mb = 0;
  for (size_t i = 0; i < n; ++i) ma += double(a[i]), mb += double(b[i]);
  ma /= double(n), mb /= double(n);
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < n; ++i) {
    const double da = double(a[i]) - ma, db = double(b[i]) - mb;
    sab += da * db, saa += da * da, sbb += db * db;
  }
  if (saa <= 0.0 || sbb <= 0.0) return 0.0f;
  return static_cast<float>(sab / std::sqrt(saa * sbb));
}

std::vector<bool> PlantedFrames(const std::vector<ik::FootContact>& contacts, int frames) {
  std::vector<bool> planted(static_cast<size_t>(frames), false);
  for (const ik::FootContact& c : contacts) {
    for (int f = std::max(0, c.first); f <= c.last && f < frames; ++f) planted[size_t(f)] = true;
  }
  return planted;
}

}  // namespace

bool MeasureRetarget(const Character& source, int clip, const Character& result, int result_clip,
                     const RetargetMapping& mapping, const RetargetInfo& info,
                     RetargetReport* report, std::string* error) {
  ClipContacts sc, rc;
  if (!FindClipContacts(source, clip, info.fps, &sc, error)) return false;
  if (!FindClipContacts(result, result_clip, info.fps, &rc, error)) return false;
  const std::vector<int> source_of = SourceOf(mapping, result.skeleton().joint_count());
  RetargetReport r;
  const float k = info.scale;
  const int frames = std::min(sc.source.frames, rc.source.frames) + 1;
  for (size_t i = 0; i < rc.source.legs.size(); ++i) {
    const ik::Limb& leg = rc.source.legs[i];
    const int s_end = source_of[size_t(leg.chain.end)];
    for (size_t m = 0; m < sc.source.legs.size(); ++m) {
      if (sc.source.legs[m].chain.end != s_end) continue;
      RetargetReport::Foot foot;
      foot.source_leg = sc.source.legs[m].label;
      foot.target_leg = leg.label;
      std::vector<float> hs, hr;
      for (int f = 0; f < frames; ++f) {
        hs.push_back(sc.source.ankle[m][size_t(f)].y);
        hr.push_back(rc.source.ankle[i][size_t(f)].y);
      }
      foot.height_correlation = Pearson(hs, hr);
      const std::vector<bool> ps = PlantedFrames(sc.contacts[m], frames);
      const std::vector<bool> pr = PlantedFrames(rc.contacts[i], frames);
      int kept = 0, same = 0;
      for (int f = 0; f < frames; ++f) {
        foot.source_contact_frames += ps[size_t(f)] ? 1 : 0;
        kept += ps[size_t(f)] && pr[size_t(f)] ? 1 : 0;
        same += ps[size_t(f)] == pr[size_t(f)] ? 1 : 0;
      }
      foot.contacts_kept =
          foot.source_contact_frames > 0 ? float(kept) / float(foot.source_contact_frames) : 1.0f;
      foot.planted_agreement = float(same) / float(frames);
      for (const ik::FootContact& c : sc.contacts[m]) {
        foot.source_skate_mm = std::max(foot.source_skate_mm, c.skate * k * 1000.0f);
      }
      for (const ik::FootContact& c : rc.contacts[i]) {
        foot.result_skate_mm = std::max(foot.result_skate_mm, c.skate * 1000.0f);
      }
      foot.sliding_added_mm = foot.result_skate_mm - foot.source_skate_mm;
      r.feet.push_back(foot);
    }
  }
  // Bone-length ratios and rest differences, limb by limb.
  const Alignment al = Align(source, result);
  r.warnings = mapping.warnings;
  for (const ik::Limb& limb : result.limbs()) {
    const int s_end = source_of[size_t(limb.chain.end)];
    const ik::Limb* sl = nullptr;
    for (const ik::Limb& l : source.limbs()) {
      if (l.chain.end == s_end) sl = &l;
    }
    if (sl == nullptr) continue;
    const auto& pt = al.target.position;
    const auto& ps = al.source.position;
    const int tj[3] = {limb.chain.start, limb.chain.mid, limb.chain.end};
    const int sj[3] = {sl->chain.start, sl->chain.mid, sl->chain.end};
    const float lt = glm::distance(pt[size_t(tj[0])], pt[size_t(tj[1])]) +
                     glm::distance(pt[size_t(tj[1])], pt[size_t(tj[2])]);
    const float ls = glm::distance(ps[size_t(sj[0])], ps[size_t(sj[1])]) +
                     glm::distance(ps[size_t(sj[1])], ps[size_t(sj[2])]);
    r.bone_length_ratios.push_back({limb.label, ls > 0.0f ? lt / ls : 0.0f});
    for (int b = 0; b < 2; ++b) {
      const glm::vec3 dt = pt[size_t(tj[b + 1])] - pt[size_t(tj[b])];
      const glm::vec3 ds = al.turn * (ps[size_t(sj[b + 1])] - ps[size_t(sj[b])]);
      const float lens = glm::length(dt) * glm::length(ds);
      if (!(lens > 0.0f)) continue;
      const float deg = glm::degrees(std::acos(std::clamp(glm::dot(dt, ds) / lens, -1.0f, 1.0f)));
      if (deg > 45.0f) {
        char text[64];
        std::snprintf(text, sizeof(text), "%.0f", double(deg));
        r.warnings.push_back(result.skeleton().name(tj[b]) + ": its rest differs from " +
                             source.skeleton().name(sj[b]) + "'s by " + text + " degrees");
      }
    }
  }
  *report = std::move(r);
  return true;
}

}  // namespace app
