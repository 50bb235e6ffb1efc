// Edits and small rigs that several test suites set up the same way.
#pragma once

#include <gtest/gtest.h>

#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "app/core/chain_edit.h"
#include "app/core/character.h"
#include "assets/model/model.h"
#include "ik/core/skeleton.h"
#include "ik/limits/joint_limits.h"

namespace testsupport {

// An edit on the built-in character (or a rig with its joint names) that runs every stage of the
// frame pipeline: the default chains with the left foot lifted (chain 0) and the hips handle
// dragged (chain 4: the body), an aim of the head and a FABRIK chain from the spine to the neck
// (appended after the default chains), a hinge limit on the left knee (which its chain takes as its
// hinge) and a cone on Spine1.
inline app::EditState EveryStageEdit(const app::Character& character) {
  const assets::Model& model = character.model();
  const ik::Skeleton& skeleton = character.skeleton();
  app::EditState edit;
  edit.chains = app::DefaultChains(character);
  edit.chains[0].offset = glm::vec3(0.0f, 0.05f, 0.02f);
  edit.chains[4].offset = glm::vec3(0.0f, -0.04f, 0.0f);
  app::ChainSettings aim, fabrik;
  std::string error;
  EXPECT_TRUE(app::MakeAim(model, skeleton.Find("Head"), &aim, &error)) << error;
  EXPECT_TRUE(
      app::MakeFabrik(model, skeleton.Find("Spine"), skeleton.Find("Neck"), &fabrik, &error))
      << error;
  aim.offset = glm::vec3(0.2f, 0.0f, 0.3f);
  fabrik.offset = glm::vec3(0.02f, 0.0f, 0.02f);
  edit.chains.push_back(aim);
  edit.chains.push_back(fabrik);
  const ik::TwoBoneChain& leg = edit.chains[0].chain;
  edit.limits.Set(leg.mid,
                  *ik::HingeLimitFromTwoBone(skeleton, leg, app::ChainOptions(edit.chains[0])));
  edit.limits.Set(skeleton.Find("Spine1"),
                  ik::JointLimit::Cone(glm::vec3(0.0f, 1.0f, 0.0f), 0.5f, -0.3f, 0.3f));
  return edit;
}

// Hips and one leg whose hip, knee and ankle lie on a vertical line at rest: the two-bone solve
// has no bend to choose the knee's side by.
inline assets::Model StraightLegModel() {
  std::vector<ik::JointDesc> joints(4);
  const char* names[] = {"Hips", "LeftUpLeg", "LeftLeg", "LeftFoot"};
  const glm::vec3 offsets[] = {
      {0.0f, 1.0f, 0.0f}, {0.1f, -0.05f, 0.0f}, {0.0f, -0.45f, 0.0f}, {0.0f, -0.42f, 0.0f}};
  for (int j = 0; j < 4; ++j) {
    joints[j].name = names[j];
    joints[j].parent = j - 1;
    joints[j].rest.translation = offsets[j];
  }
  std::string error;
  assets::Model model;
  model.source = "straight.gltf";
  model.skeleton = *ik::Skeleton::Build(joints, &error);
  return model;
}

}  // namespace testsupport
