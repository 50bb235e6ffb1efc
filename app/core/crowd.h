// A crowd of animated characters sharing one model, for the headless `skelview bench` and the
// per-character-frame benchmarks: each character samples its clip at its own time, solves IK on
// its arms and legs, runs forward kinematics and builds its skin palettes — DESIGN.md's frame
// data flow, with every buffer allocated once.
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "assets/model/model.h"
#include "ik/core/skeleton.h"
#include "ik/two_bone/two_bone_ik.h"
#include "ik/two_bone/two_bone_ik_batch.h"

namespace app {

class Crowd {
 public:
  // `count` characters of `model` on a square grid `spacing` apart; character i plays clip
  // `clip` (-1: the rest pose) from a staggered start time. IK chains are the detected limbs
  // (ik::DetectLimbs); each frame their targets are the animated effectors lifted `lift` world
  // units, so every solve does real work.
  // With `batch`, the limbs of all characters are solved together by ik::TwoBoneIkBatch (SIMD
  // across chains) when their subtrees are disjoint, as arms and legs are; otherwise one by one.
  Crowd(const assets::Model& model, int count, int clip, float spacing, float lift = 0.02f,
        bool batch = true);

  // Advances every character by dt seconds and recomputes its pose, matrices and palettes.
  void Update(float dt_seconds);

  int size() const { return static_cast<int>(characters_.size()); }
  int chain_count() const { return static_cast<int>(chains_.size()); }
  // World-space joint matrices of a character (its grid offset applied).
  const std::vector<glm::mat4>& models(int character) const {
    return characters_[character].models;
  }
  // Skin palettes of a character, all meshes back to back (mesh m starts at palette_offset(m)).
  const std::vector<glm::mat4>& palette(int character) const {
    return characters_[character].palette;
  }
  int palette_offset(int mesh) const { return palette_offsets_[mesh]; }
  // Solves that reached their target in the last Update, over all characters.
  int reached_count() const { return reached_; }
  // True when Update solves the limbs with the batch solver.
  bool batched() const { return batched_; }

 private:
  struct Character {
    float time = 0.0f;
    glm::mat4 placement{1.0f};
    ik::Pose pose;
    std::vector<glm::mat4> models;
    std::vector<glm::mat4> palette;
  };
  struct Chain {
    ik::TwoBoneChain chain;
    ik::TwoBoneIkOptions options;
  };

  const assets::Model& model_;
  int clip_;
  float lift_;
  std::vector<Chain> chains_;
  std::vector<int> palette_offsets_;
  std::vector<Character> characters_;
  int reached_ = 0;
  bool batched_ = false;
  ik::TwoBoneIkBatch batch_;
};

}  // namespace app
