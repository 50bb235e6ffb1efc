// Building the synthetic test rigs and the reference skinning.
#include "tests/renderer/test_rigs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <limits>
#include <random>
#include <string>

#include "ik/core/kinematics.h"

namespace rendertest {

namespace {

ik::Skeleton BuildOrDie(std::vector<ik::JointDesc> joints) {
  std::string error;
  std::optional<ik::Skeleton> skeleton = ik::Skeleton::Build(std::move(joints), &error);
  if (!skeleton) {
    ADD_FAILURE_AT(__FILE__, __LINE__) << error;
    return {};
  }
  return *skeleton;
}

// Appends a box of half size h centred at c to `mesh`, all its vertices weighted as given.
void AppendBox(const glm::vec3& c, float h, const glm::u16vec4& joints, const glm::vec4& weights,
               assets::Mesh* mesh) {
  static const glm::vec3 kNormals[6] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                        {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
  for (const glm::vec3& n : kNormals) {
    // Two unit vectors spanning the face, ordered so the face winds counter-clockwise outward.
    const glm::vec3 u = std::fabs(n.x) > 0.5f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
    const glm::vec3 v = glm::cross(n, u);
    const uint32_t base = static_cast<uint32_t>(mesh->positions.size());
    const glm::vec2 corners[4] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (const glm::vec2& k : corners) {
      mesh->positions.push_back(c + h * (n + k.x * u + k.y * v));
      mesh->normals.push_back(n);
      mesh->uvs.push_back(0.5f * (k + 1.0f));
      mesh->joints.push_back(joints);
      mesh->weights.push_back(weights);
    }
    for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) mesh->indices.push_back(base + i);
  }
}

}  // namespace

assets::Model MakeTube() {
  assets::Model model;
  model.source = "<test tube>";
  constexpr int kJoints = 4;
  constexpr float kHeight = 1.6f, kRadius = 0.15f;
  const float spacing = kHeight / (kJoints - 1);
  std::vector<ik::JointDesc> joints;
  for (int j = 0; j < kJoints; ++j) {
    ik::JointDesc d;
    d.name = "tube" + std::to_string(j);
    d.parent = j - 1;
    d.rest.translation = j == 0 ? glm::vec3(0.0f) : glm::vec3(0, spacing, 0);
    joints.push_back(d);
  }
  model.skeleton = BuildOrDie(joints);
  model.is_bone.assign(kJoints, true);

  assets::Mesh mesh;
  mesh.name = "tube";
  mesh.skinned = true;
  for (int j = 0; j < kJoints; ++j) {
    mesh.bone_joints.push_back(j);
    mesh.bone_inverse_binds.push_back(model.skeleton.inverse_binds()[j]);
  }
  auto weights_at = [&](float y, glm::u16vec4* j, glm::vec4* w) {
    const float t = std::clamp(y / spacing, 0.0f, static_cast<float>(kJoints - 1) - 1e-4f);
    const int lower = static_cast<int>(t);
    *j = glm::u16vec4(lower, lower + 1, 0, 0);
    *w = glm::vec4(1.0f - (t - lower), t - lower, 0, 0);
  };
  constexpr int kAround = 32, kRings = 24;
  for (int r = 0; r <= kRings; ++r) {
    const float y = kHeight * static_cast<float>(r) / kRings;
    for (int a = 0; a <= kAround; ++a) {
      const float angle = glm::two_pi<float>() * static_cast<float>(a) / kAround;
      const glm::vec3 n(std::cos(angle), 0.0f, -std::sin(angle));
      mesh.positions.push_back(glm::vec3(0, y, 0) + kRadius * n);
      mesh.normals.push_back(n);
      mesh.uvs.push_back({static_cast<float>(a) / kAround, static_cast<float>(r) / kRings});
      glm::u16vec4 j;
      glm::vec4 w;
      weights_at(y, &j, &w);
      mesh.joints.push_back(j);
      mesh.weights.push_back(w);
    }
  }
  for (int r = 0; r < kRings; ++r) {
    for (int a = 0; a < kAround; ++a) {
      const uint32_t i0 = r * (kAround + 1) + a, i1 = i0 + 1, i2 = i0 + kAround + 1, i3 = i2 + 1;
      for (uint32_t i : {i0, i1, i3, i0, i3, i2}) mesh.indices.push_back(i);
    }
  }
  // Caps: fans around a centre vertex.
  for (int cap = 0; cap < 2; ++cap) {
    const float y = cap ? kHeight : 0.0f;
    const glm::vec3 n(0, cap ? 1.0f : -1.0f, 0);
    glm::u16vec4 j;
    glm::vec4 w;
    weights_at(y, &j, &w);
    const uint32_t center = static_cast<uint32_t>(mesh.positions.size());
    mesh.positions.push_back({0, y, 0});
    mesh.normals.push_back(n);
    mesh.uvs.push_back({0.5f, 0.5f});
    mesh.joints.push_back(j);
    mesh.weights.push_back(w);
    for (int a = 0; a <= kAround; ++a) {
      const float angle = glm::two_pi<float>() * static_cast<float>(a) / kAround;
      mesh.positions.push_back(glm::vec3(0, y, 0) +
                               kRadius * glm::vec3(std::cos(angle), 0, -std::sin(angle)));
      mesh.normals.push_back(n);
      mesh.uvs.push_back({0.5f, 0.5f});
      mesh.joints.push_back(j);
      mesh.weights.push_back(w);
    }
    for (int a = 0; a < kAround; ++a) {
      const uint32_t p = center + 1 + a, q = p + 1;
      if (cap)
        for (uint32_t i : {center, p, q}) mesh.indices.push_back(i);
      else
        for (uint32_t i : {center, q, p}) mesh.indices.push_back(i);
    }
  }
  model.meshes.push_back(std::move(mesh));
  model.materials.push_back({"grey", glm::vec4(0.75f, 0.75f, 0.75f, 1.0f), -1});
  model.meshes[0].material = 0;
  return model;
}

assets::Model MakeWideRig(int chains, int chain_length) {
  assets::Model model;
  model.source = "<test wide rig>";
  std::vector<ik::JointDesc> joints;
  ik::JointDesc root;
  root.name = "root";
  root.rest.translation = {0.0f, 0.1f, 0.0f};
  joints.push_back(root);
  std::mt19937 random(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (int c = 0; c < chains; ++c) {
    const float angle = glm::two_pi<float>() * static_cast<float>(c) / chains;
    for (int k = 0; k < chain_length; ++k) {
      ik::JointDesc d;
      d.name = "chain" + std::to_string(c) + "_" + std::to_string(k);
      d.parent = k == 0 ? 0 : static_cast<int>(joints.size()) - 1;
      // First joint out along the fan direction, then up with a slight outward lean.
      d.rest.translation = k == 0 ? 0.2f * glm::vec3(std::cos(angle), 0, std::sin(angle))
                                  : glm::vec3(0.02f, 0.09f, 0.0f);
      d.rest.rotation = k == 0 ? glm::angleAxis(-angle, glm::vec3(0, 1, 0)) : glm::quat();
      joints.push_back(d);
    }
  }
  model.skeleton = BuildOrDie(joints);
  model.is_bone.assign(model.skeleton.joint_count(), true);

  // Mesh space differs from model space by a bind transform B: inverse bind = S⁻¹ · B.
  const glm::mat4 mesh_bind = glm::translate(glm::mat4(1.0f), glm::vec3(0.3f, -0.2f, 0.1f)) *
                              glm::rotate(glm::mat4(1.0f), 0.4f, glm::vec3(0, 0, 1));
  const glm::mat4 mesh_from_model = glm::inverse(mesh_bind);
  for (int half = 0; half < 2; ++half) {
    assets::Mesh mesh;
    mesh.name = half ? "odd chains" : "even chains";
    mesh.skinned = true;
    // Bone list: the root last, chain joints in reverse, so bone indices never equal joints.
    std::vector<int> bone_of_joint(model.skeleton.joint_count(), -1);
    for (int j = model.skeleton.joint_count() - 1; j >= 1; --j) {
      if (((j - 1) / chain_length) % 2 != half) continue;
      bone_of_joint[j] = static_cast<int>(mesh.bone_joints.size());
      mesh.bone_joints.push_back(j);
    }
    bone_of_joint[0] = static_cast<int>(mesh.bone_joints.size());
    mesh.bone_joints.push_back(0);
    for (int j : mesh.bone_joints)
      mesh.bone_inverse_binds.push_back(model.skeleton.inverse_binds()[j] * mesh_bind);

    for (int j = 1; j < model.skeleton.joint_count(); ++j) {
      if (bone_of_joint[j] < 0) continue;
      const int parent = model.skeleton.parent(j);
      const int grandparent = parent > 0 ? model.skeleton.parent(parent) : 0;
      glm::vec4 w(0.4f + unit(random), 0.3f * unit(random), 0.2f * unit(random),
                  0.1f * unit(random));
      w /= w.x + w.y + w.z + w.w;
      const glm::u16vec4 bones(bone_of_joint[j], bone_of_joint[parent], bone_of_joint[grandparent],
                               bone_of_joint[0]);
      const glm::vec3 center_model(model.skeleton.rest_models()[j][3]);
      AppendBox(glm::vec3(mesh_from_model * glm::vec4(center_model, 1.0f)), 0.025f, bones, w,
                &mesh);
    }
    mesh.material = 0;
    model.meshes.push_back(std::move(mesh));
  }
  model.materials.push_back({"orange", glm::vec4(0.9f, 0.55f, 0.3f, 1.0f), -1});
  return model;
}

ik::Pose RandomPose(const ik::Skeleton& skeleton, unsigned seed, float max_angle,
                    float scale_range) {
  ik::Pose pose = ik::Pose::Rest(skeleton);
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> signed_unit(-1.0f, 1.0f);
  for (ik::Transform& local : pose.locals) {
    glm::vec3 axis(signed_unit(random), signed_unit(random), signed_unit(random));
    if (glm::length(axis) < 1e-3f) axis = {0, 0, 1};
    local.rotation =
        glm::angleAxis(max_angle * signed_unit(random), glm::normalize(axis)) * local.rotation;
    local.scale = glm::vec3(1.0f + scale_range * signed_unit(random),
                            1.0f + scale_range * signed_unit(random),
                            1.0f + scale_range * signed_unit(random));
    local.translation +=
        0.01f * glm::vec3(signed_unit(random), signed_unit(random), signed_unit(random));
  }
  return pose;
}

std::vector<glm::mat4> JointModels(const ik::Skeleton& skeleton, const ik::Pose& pose) {
  std::vector<glm::mat4> models;
  ik::LocalToModel(skeleton, pose, &models);
  return models;
}

namespace {

glm::dmat4 BlendedMatrix(const assets::Mesh& mesh, const std::vector<glm::mat4>& joint_models,
                         size_t v) {
  glm::dmat4 blended(0.0);
  const int influences = mesh.extra_weights.empty() ? 4 : 8;
  for (int k = 0; k < influences; ++k) {
    const double w = static_cast<double>(k < 4 ? mesh.weights[v][k] : mesh.extra_weights[v][k - 4]);
    if (w == 0.0) continue;
    const int bone = k < 4 ? mesh.joints[v][k] : mesh.extra_joints[v][k - 4];
    blended += w * (glm::dmat4(joint_models[mesh.bone_joints[bone]]) *
                    glm::dmat4(mesh.bone_inverse_binds[bone]));
  }
  return blended;
}

}  // namespace

std::vector<glm::vec3> ReferenceSkin(const assets::Mesh& mesh,
                                     const std::vector<glm::mat4>& joint_models) {
  std::vector<glm::vec3> out(mesh.positions.size());
  for (size_t v = 0; v < out.size(); ++v)
    out[v] = glm::vec3(BlendedMatrix(mesh, joint_models, v) *
                       glm::dvec4(glm::dvec3(mesh.positions[v]), 1.0));
  return out;
}

std::vector<glm::vec3> ReferenceSkinNormals(const assets::Mesh& mesh,
                                            const std::vector<glm::mat4>& joint_models) {
  std::vector<glm::vec3> out(mesh.normals.size());
  for (size_t v = 0; v < out.size(); ++v) {
    const glm::dmat3 normal_matrix =
        glm::transpose(glm::inverse(glm::dmat3(BlendedMatrix(mesh, joint_models, v))));
    out[v] = glm::vec3(glm::normalize(normal_matrix * glm::dvec3(mesh.normals[v])));
  }
  return out;
}

float BoundsSize(const std::vector<std::vector<glm::vec3>>& positions) {
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (const auto& mesh : positions)
    for (const glm::vec3& p : mesh) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  return hi.x >= lo.x ? glm::length(hi - lo) : 0.0f;
}

}  // namespace rendertest
