// Retargeting: a clip made for one rig played on another. The joints are paired role by role —
// hips, spine, chest, neck, head, shoulders, the arms and legs (ik::DetectLimbs: the humanoid map,
// joint names, else topology and mirror symmetry), toes, and fingers where both rigs name them
// (thumb, index, middle, ring, pinky/little, by their place along the finger) — and each pair
// says how it was found.
// Each frame copies every paired joint's rotation relative to its rest as a world-space delta
// (q_target = align · q_source · q_source_rest⁻¹ · align⁻¹ · q_target_rest, then taken back into
// the parent's frame), so that rest poses that differ (A- and T-pose, bone rolls, axis
// conventions) cancel; the hips travel as the source's, scaled by the ratio of leg lengths; and
// the two-bone solver puts each foot where the source's is, scaled, so that contacts stay
// contacts. Only rotations change (and the hips' translation): the target's bones never stretch.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "app/core/character.h"
#include "assets/model/model.h"

namespace app {

// One joint pair: `by` says how it was found: "user" (--map), "humanoid" (both rigs' humanoid
// maps), "name" (both joints' names), "structure" (topology and symmetry on one side at least).
struct RetargetPair {
  int source = -1;
  int target = -1;
  std::string by;
};

struct RetargetMapping {
  std::vector<RetargetPair> pairs;    // in target joint order
  std::vector<std::string> warnings;  // limbs one rig has and the other lacks
};

// Pairs the joints of `source` with those of `target`. False, with one line naming what could not
// be mapped, when the rigs differ in kind: either has no legs, or one stands on four limbs (its
// arms reach the ground at rest) and the other on two.
bool MapJoints(const Character& source, const Character& target, RetargetMapping* mapping,
               std::string* error);

// A user's map: {"source joint": "target joint", ...}. False with the reason when the text is not
// such a JSON object.
bool ParseJointMap(const std::string& text, std::vector<std::pair<std::string, std::string>>* map,
                   std::string* error);
// Applies a user's map: each entry replaces the pair of its target joint (by "user"); an entry
// whose target is "" unmaps its source joint. False, with the name, when a joint is not in its
// skeleton.
bool ApplyJointMap(const ik::Skeleton& source, const ik::Skeleton& target,
                   const std::vector<std::pair<std::string, std::string>>& map,
                   RetargetMapping* mapping, std::string* error);

// What the transfer did beside the clip.
struct RetargetInfo {
  float scale = 1.0f;  // target leg length / source leg length (the hips' travel scale)
  float fps = 30.0f;
  int frames = 0;  // the clip has frames + 1 keys, the last at the duration
  // Per end effector (feet, then hands, as the target's limbs): the distance of the target's end
  // joint from its scaled source position, metres (the model's unit). A foot's scaled source
  // position: the hips' rest place plus the source ankle's offset from the source hips' rest
  // place, turned and scaled by `scale`, plus the rest stance difference (so that the rest ankle
  // maps onto the rest ankle). A hand's (not solved): the target arm's start plus the source's
  // start-to-hand vector, turned and scaled by the ratio of the arms' lengths.
  struct Effector {
    std::string limb;  // the target limb's label ("LeftLeg")
    int source = -1, target = -1;
    bool solved = false;  // put there by the two-bone solver (feet)
    float max_error_m = 0.0f;
    float mean_error_m = 0.0f;
  };
  std::vector<Effector> effectors;
};

// Plays clip `clip` of `source` on `target` and returns it as a clip of target's skeleton named
// `name`, sampled at `fps` from 0 to the source clip's duration. False with one line when the clip
// index is out of range or the mapping does not pair the hips.
bool RetargetClip(const Character& source, int clip, const Character& target,
                  const RetargetMapping& mapping, float fps, const std::string& name,
                  assets::Clip* out, RetargetInfo* info, std::string* error);

// How well it went: measured on the result (`result`, the target with the retargeted clip at
// `result_clip`) against the source clip, both sampled by the frame pipeline.
struct RetargetReport {
  struct Foot {
    std::string source_leg, target_leg;
    float height_correlation = 0.0f;  // Pearson r of the two ankles' heights over the frames
    int source_contact_frames = 0;
    float contacts_kept = 0.0f;      // of the source's contact frames, the fraction planted here
    float planted_agreement = 0.0f;  // frames planted in both or in neither, of all frames
    float source_skate_mm = 0.0f;    // largest slide of a contact, scaled to the target's size
    float result_skate_mm = 0.0f;
    float sliding_added_mm = 0.0f;  // result - scaled source (negative: less sliding)
  };
  std::vector<Foot> feet;
  struct LimbRatio {
    std::string limb;
    float ratio = 1.0f;  // target limb length (upper + lower bone) / source's
  };
  std::vector<LimbRatio> bone_length_ratios;
  std::vector<std::string> warnings;  // the mapping's, and joints whose rest differs by > 45°
};
bool MeasureRetarget(const Character& source, int clip, const Character& result, int result_clip,
                     const RetargetMapping& mapping, const RetargetInfo& info,
                     RetargetReport* report, std::string* error);

}  // namespace app
