// A crowd of animated characters sharing one model, for the headless `skelview bench` and the
// crowd benchmark: each member is one frame of the frame pipeline (evaluate.h) at its own clip
// time and place — sample, its arms and legs reaching for targets just above their animated
// positions, forward kinematics — then its skin palettes, with every buffer allocated once.
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "app/core/chain_edit.h"
#include "app/core/character.h"
#include "ik/two_bone/two_bone_ik_batch.h"

namespace app {

class Crowd {
 public:
  // `count` members of `character` (which must outlive the crowd) on a square grid `spacing`
  // apart; member i plays clip `clip` (-1: the rest pose) from a staggered start time. The chains
  // are the detected limbs, following the animation `lift` world units higher, so that every
  // solve does real work, with the hinge off.
  // With `batch`, the limbs of all members are solved together by ik::TwoBoneIkBatch (SIMD
  // across chains) when their subtrees are disjoint, as arms and legs are: the pipeline's halves
  // around its two-bone stage (BeginFrame, FinishFrame); otherwise each member is one
  // EvaluateFrame.
  Crowd(const Character& character, int count, int clip, float spacing, float lift = 0.02f,
        bool batch = true);

  // Advances every member by dt seconds and recomputes its pose, matrices and palettes.
  void Update(float dt_seconds);

  int size() const { return static_cast<int>(members_.size()); }
  int chain_count() const { return static_cast<int>(edit_.chains.size()); }
  // World-space joint matrices of a member (its grid offset applied).
  const std::vector<glm::mat4>& models(int member) const {
    return members_[size_t(member)].state.models;
  }
  // Skin palettes of a member, all meshes back to back (mesh m starts at palette_offset(m)).
  const std::vector<glm::mat4>& palette(int member) const {
    return members_[size_t(member)].palette;
  }
  int palette_offset(int mesh) const { return palette_offsets_[size_t(mesh)]; }
  // Solves that reached their target in the last Update, over all members.
  int reached_count() const { return reached_; }
  // True when Update solves the limbs with the batch solver.
  bool batched() const { return batched_; }

 private:
  struct Member {
    float time = 0.0f;
    glm::mat4 placement{1.0f};
    PoseState state;
    std::vector<glm::mat4> palette;
  };
  FrameSource SourceOf(const Member& member) const;
  void BuildPalette(Member* member) const;

  const Character& character_;
  int clip_;
  EditState edit_;  // the limbs, following the animation lifted
  // The requests built for one member at a time: every member has the same chains, only their
  // targets differ, and each member's are used up (handed to the solver) before the next's are
  // built; FinishFrame needs none of them (the edit has no FABRIK chain, aim or morph weight).
  EditedFrame frame_;
  std::vector<int> palette_offsets_;
  std::vector<Member> members_;
  int reached_ = 0;
  bool batched_ = false;
  ik::TwoBoneIkBatch batch_;
};

}  // namespace app
