// What IK targets can hold on to in the scene: an adjustable ground plane (height and tilt) that
// feet are kept on, and a ladder of rungs that hands snap to. Pure geometry, world space, metres
// or whatever unit the model uses.
#pragma once

#include <glm/glm.hpp>
#include <vector>

namespace app {

// The plane through `pivot` + (0, height, 0), tilted about the world X axis by tilt_x_degrees and
// then about Z by tilt_z_degrees. The animation's own floor is y = 0 (as authored); the ground
// replaces it.
struct GroundPlane {
  bool enabled = false;
  float height = 0.0f;
  float tilt_x_degrees = 0.0f;  // positive: the ground rises toward -Z
  float tilt_z_degrees = 0.0f;  // positive: the ground rises toward +X
  glm::vec3 pivot{0.0f};        // the tilt turns about this point (e.g. below the character)

  glm::vec3 Normal() const;  // unit, pointing up
  // World y of the plane above or below (x, z). Tilts are clamped to ±60°.
  float HeightAt(float x, float z) const;
};

// Where a foot goes on the ground: the animated effector moved up or down with the ground under
// it (so a step keeps its lift and a planted foot stays planted), and never below
// `contact_height` (the effector's rest height above the authored floor, e.g. the ankle's).
glm::vec3 FootOnGround(const GroundPlane& ground, const glm::vec3& animated_effector,
                       float contact_height);

struct Segment {
  glm::vec3 a{0.0f}, b{0.0f};
};

// Horizontal bars: rung k spans base + k·spacing·up ± 0.5·width·across, for k in [0, count).
struct Ladder {
  bool enabled = false;
  glm::vec3 base{0.0f, 0.4f, 0.35f};
  glm::vec3 up{0.0f, 1.0f, 0.0f};      // unit
  glm::vec3 across{1.0f, 0.0f, 0.0f};  // unit, along the rungs
  float spacing = 0.3f;
  float width = 0.6f;
  int count = 6;

  std::vector<Segment> Rungs() const;
};

// The point of the nearest rung nearest to `p`; false when the ladder has no rungs.
bool NearestOnRungs(const Ladder& ladder, const glm::vec3& p, glm::vec3* point);

// Where a hand goes on the ladder: the rung point nearest to `wanted` among those within `reach`
// of `shoulder`, or `wanted` itself (false) when no rung is within reach.
bool HandOnRung(const Ladder& ladder, const glm::vec3& wanted, const glm::vec3& shoulder,
                float reach, glm::vec3* target);

}  // namespace app
