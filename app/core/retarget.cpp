// Retargeting's transfer: a source clip turned into the target rig's motion, frame by frame.
#include "app/core/retarget.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "app/core/foot_lock.h"
#include "app/core/retarget_rig.h"
#include "assets/model/animation.h"
#include "ik/core/kinematics.h"
#include "ik/core/rotation.h"

namespace app {

using retargeting::Align;
using retargeting::Alignment;
using retargeting::Rest;
using retargeting::SourceOf;
using retargeting::WorldRotations;

bool RetargetClip(const Character& source, int clip_index, const Character& target,
                  const RetargetMapping& mapping, float fps, const std::string& name,
                  assets::Clip* out, RetargetInfo* info, std::string* error) {
  const assets::Clip* clip = source.clip(clip_index);
  if (clip == nullptr) {
    *error = "--anim " + std::to_string(clip_index) + ": the source has " +
             std::to_string(source.clip_count()) + " clips";
    return false;
  }
  if (!(fps > 0.0f) || !std::isfinite(fps)) {
    *error = "the frame rate must be positive";
    return false;
  }
  const ik::Skeleton& ss = source.skeleton();
  const ik::Skeleton& ts = target.skeleton();
  const ik::BodyRig* body = target.body_rig();
  const std::vector<int> source_of = SourceOf(mapping, ts.joint_count());
  const int hips = body != nullptr ? body->hips : -1;
  if (hips < 0 || source_of[size_t(hips)] < 0) {
    *error = "the mapping does not pair the target's hips";
    return false;
  }
  const int source_hips = source_of[size_t(hips)];
  const Alignment al = Align(source, target);
  const glm::quat turn = al.turn, unturn = glm::inverse(al.turn);
  const float k = al.scale;
  auto scaled = [&](const glm::vec3& p) {
    return al.target.position[size_t(hips)] +
           k * (turn * (p - al.source.position[size_t(source_hips)]));
  };

  // The end effectors: every target limb end with a source joint; feet solved when that joint
  // ends a source leg.
  struct Effector {
    const ik::Limb* limb = nullptr;
    int source = -1;
    bool solve = false;
    glm::vec3 offset{0.0f};  // rest stance difference, target minus scaled source
    ik::TwoBoneIkOptions options;
    float reach = 0.0f;  // 0.999 of the leg's length: the ankle's farthest from the hip joint
    // Unsolved ends (hands): measured from the limb's start, the source limb scaled to this one.
    int source_start = -1;
    float limb_ratio = 1.0f;
    double sum = 0.0;
    float max = 0.0f;
  };
  std::vector<Effector> effectors;
  for (int pass = 0; pass < 2; ++pass) {
    for (const ik::Limb& limb : target.limbs()) {
      if ((limb.kind == ik::LimbKind::kLeg) != (pass == 0)) continue;
      const int s = source_of[size_t(limb.chain.end)];
      if (s < 0) continue;
      Effector e;
      e.limb = &limb;
      e.source = s;
      for (const ik::Limb& sl : source.limbs()) {
        if (sl.chain.end != s) continue;
        e.solve = limb.kind == ik::LimbKind::kLeg && sl.kind == ik::LimbKind::kLeg;
        e.source_start = sl.chain.start;
        const auto& ps = al.source.position;
        const auto& pt = al.target.position;
        const float ls = glm::distance(ps[size_t(sl.chain.start)], ps[size_t(sl.chain.mid)]) +
                         glm::distance(ps[size_t(sl.chain.mid)], ps[size_t(sl.chain.end)]);
        const float lt = glm::distance(pt[size_t(limb.chain.start)], pt[size_t(limb.chain.mid)]) +
                         glm::distance(pt[size_t(limb.chain.mid)], pt[size_t(limb.chain.end)]);
        e.limb_ratio = ls > 0.0f ? lt / ls : 1.0f;
      }
      e.offset = al.target.position[size_t(limb.chain.end)] - scaled(al.source.position[size_t(s)]);
      e.options.bend_axis_local = target.BendAxis(limb.chain);
      e.options.hinge = e.options.bend_axis_local.has_value();
      e.options.end_orientation = ik::EndOrientation::kKeepModel;
      const auto& rp = al.target.position;
      e.reach = 0.999f * (glm::distance(rp[size_t(limb.chain.start)], rp[size_t(limb.chain.mid)]) +
                          glm::distance(rp[size_t(limb.chain.mid)], rp[size_t(limb.chain.end)]));
      effectors.push_back(e);
    }
  }

  // Rest poses that point bones differently (A-pose against T-pose): each paired joint with one
  // paired joint below it along its bone turns, at rest, so that its bone points as the source's
  // does; a joint with none or several (a hand, the hips, the chest) turns as its paired parent.
  std::vector<glm::quat> rest_turn(static_cast<size_t>(ts.joint_count()), glm::quat(1, 0, 0, 0));
  {
    std::vector<int> mapped_parent(static_cast<size_t>(ts.joint_count()), -1);
    std::vector<int> child(static_cast<size_t>(ts.joint_count()), -1);
    std::vector<int> children(static_cast<size_t>(ts.joint_count()), 0);
    for (int j = 0; j < ts.joint_count(); ++j) {
      int p = ts.parent(j);
      while (p >= 0 && source_of[size_t(p)] < 0) p = ts.parent(p);
      mapped_parent[size_t(j)] = p;
      if (p < 0 || source_of[size_t(j)] < 0) continue;
      if (!ss.IsAncestorOrSelf(source_of[size_t(p)], source_of[size_t(j)]) ||
          source_of[size_t(p)] == source_of[size_t(j)]) {
        continue;
      }
      ++children[size_t(p)];
      child[size_t(p)] = j;
    }
    for (int j = 0; j < ts.joint_count(); ++j) {
      const int s = source_of[size_t(j)];
      const int p = mapped_parent[size_t(j)];
      if (s < 0) continue;
      if (children[size_t(j)] == 1) {
        const int c = child[size_t(j)];
        const glm::vec3 vt = al.target.position[size_t(c)] - al.target.position[size_t(j)];
        const glm::vec3 vs = turn * (al.source.position[size_t(source_of[size_t(c)])] -
                                     al.source.position[size_t(s)]);
        rest_turn[size_t(j)] = ik::RotationBetween(vt, vs);
      } else if (p >= 0) {
        rest_turn[size_t(j)] = rest_turn[size_t(p)];
      }
    }
  }

  const int frames = std::max(1, static_cast<int>(std::ceil(clip->duration * fps - 1e-3f)));
  // Keyed joints: every paired target joint (rotations) and the hips (translation too).
  std::vector<int> keyed;
  for (int j = 0; j < ts.joint_count(); ++j) {
    if (source_of[size_t(j)] >= 0) keyed.push_back(j);
  }
  assets::Clip result;
  result.name = name;
  result.duration = clip->duration;
  std::vector<int> channel_of(static_cast<size_t>(ts.joint_count()), -1);
  for (int j : keyed) {
    channel_of[size_t(j)] = static_cast<int>(result.channels.size());
    assets::JointAnimation ch;
    ch.joint = j;
    ch.rotation.times.reserve(size_t(frames) + 1);
    ch.rotation.values.reserve(size_t(frames) + 1);
    result.channels.push_back(std::move(ch));
  }

  ik::Pose sp, tp = ik::Pose::Rest(ts);
  std::vector<glm::mat4> sm, tm;
  std::vector<glm::quat> sq, tq(static_cast<size_t>(ts.joint_count()));
  std::vector<glm::quat> source_delta(static_cast<size_t>(ss.joint_count()));
  for (int f = 0; f <= frames; ++f) {
    const float t = f >= frames ? clip->duration : float(f) / fps;
    assets::SampleClip(ss, *clip, t, &sp);
    ik::LocalToModel(ss, sp, &sm);
    WorldRotations(ss, sp, &sq);
    for (int j = 0; j < ts.joint_count(); ++j) {
      const int p = ts.parent(j);
      const glm::quat parent = p < 0 ? glm::quat(1.0f, 0.0f, 0.0f, 0.0f) : tq[size_t(p)];
      ik::Transform& local = tp.locals[size_t(j)];
      local = ts.rest_locals()[size_t(j)];
      const int s = source_of[size_t(j)];
      if (s >= 0) {
        const glm::quat delta = sq[size_t(s)] * glm::inverse(al.source.rotation[size_t(s)]);
        const glm::quat world =
            turn * delta * unturn * rest_turn[size_t(j)] * al.target.rotation[size_t(j)];
        local.rotation = glm::normalize(glm::inverse(parent) * world);
        if (!ik::IsFinite(local.rotation)) local.rotation = ts.rest_locals()[size_t(j)].rotation;
      }
      tq[size_t(j)] = parent * local.rotation;
    }
    ik::LocalToModel(ts, tp, &tm);
    // The hips travel as the source's, scaled.
    {
      const glm::vec3 goal = scaled(glm::vec3(sm[size_t(source_hips)][3]));
      const int p = ts.parent(hips);
      const glm::mat4 parent = p < 0 ? glm::mat4(1.0f) : tm[size_t(p)];
      const glm::vec3 local = glm::vec3(glm::inverse(parent) * glm::vec4(goal, 1.0f));
      if (ik::IsFinite(local)) tp.locals[size_t(hips)].translation = local;
      ik::LocalToModelFrom(ts, tp, hips, &tm);
    }
    // Where a foot's goal is beyond its leg's reach (the source stretches its leg further than
    // the target's rest proportions allow), the hips drop just enough, as the foot lock does.
    {
      float drop = 0.0f;
      for (const Effector& e : effectors) {
        if (!e.solve) continue;
        const glm::vec3 d = scaled(glm::vec3(sm[size_t(e.source)][3])) + e.offset -
                            glm::vec3(tm[size_t(e.limb->chain.start)][3]);
        const float horizontal = d.x * d.x + d.z * d.z;
        if (d.x * d.x + d.y * d.y + d.z * d.z <= e.reach * e.reach || d.y >= 0.0f) continue;
        const float dy = -d.y - std::sqrt(std::max(0.0f, e.reach * e.reach - horizontal));
        drop = std::max(drop, dy);
      }
      if (drop > 0.0f) {
        const int p = ts.parent(hips);
        const glm::mat4 parent = p < 0 ? glm::mat4(1.0f) : tm[size_t(p)];
        const glm::vec3 goal = glm::vec3(tm[size_t(hips)][3]) - glm::vec3(0.0f, drop, 0.0f);
        const glm::vec3 local = glm::vec3(glm::inverse(parent) * glm::vec4(goal, 1.0f));
        if (ik::IsFinite(local)) tp.locals[size_t(hips)].translation = local;
        ik::LocalToModelFrom(ts, tp, hips, &tm);
      }
    }
    for (Effector& e : effectors) {
      glm::vec3 goal = scaled(glm::vec3(sm[size_t(e.source)][3])) + e.offset;
      if (!e.solve && e.source_start >= 0) {
        goal = glm::vec3(tm[size_t(e.limb->chain.start)][3]) +
               e.limb_ratio * (turn * (glm::vec3(sm[size_t(e.source)][3]) -
                                       glm::vec3(sm[size_t(e.source_start)][3])));
      }
      if (e.solve) {
        ik::TwoBoneTarget target_point;
        target_point.position = goal;
        ik::SolveTwoBoneIkPose(ts, e.limb->chain, target_point, e.options, &tp, &tm);
      }
      const float err = glm::distance(glm::vec3(tm[size_t(e.limb->chain.end)][3]), goal);
      e.sum += double(err);
      e.max = std::max(e.max, err);
    }
    for (int j : keyed) {
      assets::JointAnimation& ch = result.channels[size_t(channel_of[size_t(j)])];
      glm::quat q = tp.locals[size_t(j)].rotation;
      if (!ch.rotation.values.empty() && glm::dot(ch.rotation.values.back(), q) < 0.0f) q = -q;
      ch.rotation.times.push_back(t);
      ch.rotation.values.push_back(q);
      if (j == hips) {
        ch.translation.times.push_back(t);
        ch.translation.values.push_back(tp.locals[size_t(j)].translation);
      }
    }
  }
  assets::PrepareClip(&result);
  *out = std::move(result);
  if (info != nullptr) {
    RetargetInfo i;
    i.scale = k;
    i.fps = fps;
    i.frames = frames;
    for (const Effector& e : effectors) {
      RetargetInfo::Effector r;
      r.limb = e.limb->label;
      r.source = e.source;
      r.target = e.limb->chain.end;
      r.solved = e.solve;
      r.max_error_m = e.max;
      r.mean_error_m = static_cast<float>(e.sum / double(frames + 1));
      i.effectors.push_back(r);
    }
    *info = std::move(i);
  }
  return true;
}

}  // namespace app
