// Forwarding header: ik/fabrik.cpp and ik/joint_limits.cpp still include this path; the helpers
// live in ik/internal/constraint_util.h and ik/rotation.h. Delete once both include those.
#pragma once

#include "ik/internal/constraint_util.h"
