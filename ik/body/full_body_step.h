// Internal: the prioritized damped least-squares step of the full-body solve (its rows and the
// step), used by ik/body/full_body_solve.cpp.
#pragma once

#include "ik/body/full_body.h"

namespace ik {
namespace internal {

constexpr int kMaxParams = 3 + 3 * kMaxBodyJoints;  // the hips' translation, 3 per body joint
constexpr int kMaxRows = 3 * kMaxBodyEffectors;
constexpr int kLevels = 3;  // moves, pins, targets

// The rows of one iteration: weighted Jacobian rows (in θ̃), residuals and levels.
struct Rows {
  int count = 0;
  int params = 0;
  double j[kMaxRows][kMaxParams];
  double r[kMaxRows];
  int level[kMaxRows];
};

// The prioritized damped least-squares step (see the top of ik/body/full_body_solve.h) into
// delta (θ̃). The step takes the Levenberg-Marquardt damping `lambda2`; the projector N keeps the
// small `null_lambda2` (large damping there would let a level undo the ones before it). Each
// level's part is scaled down to the step limits on its own, so that a level whose rows are nearly
// singular does not slow the levels before it.
void PrioritizedStep(const Rows& rows, double null_lambda2, double lambda2,
                     const double* weight_sqrt, int body_count, double trust, double* delta);

}  // namespace internal
}  // namespace ik
