// The full-body part of a frame's constraints: pins, moves and how the body helps. (The body rig it
// is solved on is the character's, built once per load: app/core/character.h.)
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "ik/body/full_body.h"

namespace app {

// Pins and moves given explicitly (--pin, --move, the window's body handles), with the options of
// the solve. Two-bone requests on a hand or foot take part as well (IkChainRequest::body_helps):
// see SolveBody in app/core/body_solve.h.
struct BodyRequest {
  std::vector<ik::BodyEffector> effectors;  // model (= world) space targets
  ik::FullBodyOptions options;
};

}  // namespace app
