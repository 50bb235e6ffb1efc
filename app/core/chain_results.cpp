// Per-chain lookups of a frame's results.
#include "app/core/chain_results.h"

#include <cstdio>

namespace app {

EffectorInfo ChainInfo(const ik::Skeleton& skeleton, const EditState& edit,
                       const EditedFrame& frame, int chain) {
  return InfoFor(skeleton, edit.chains[chain], frame.unsolved_models);
}

glm::vec3 ChainTargetNow(const ik::Skeleton& skeleton, const EditState& edit,
                         const EditedFrame& frame, int chain) {
  return ChainTarget(edit.chains[chain], ChainInfo(skeleton, edit, frame, chain), edit.contacts);
}

const ik::TwoBoneIkResult* TwoBoneResultOf(const EditedFrame& frame, const PoseState& state,
                                           int chain) {
  if (chain < 0 || chain >= static_cast<int>(frame.chain_requests.size())) return nullptr;
  const RequestIndex& where = frame.chain_requests[chain];
  if (where.kind != ConstraintKind::kTwoBone || where.index < 0 ||
      where.index >= static_cast<int>(state.ik.size())) {
    return nullptr;
  }
  return &state.ik[where.index];
}

bool ChainReached(const EditedFrame& frame, const PoseState& state, int chain) {
  if (chain < 0 || chain >= static_cast<int>(frame.chain_requests.size())) return false;
  const RequestIndex& where = frame.chain_requests[chain];
  // A body handle not moved follows the animation: it is where its target is.
  if (where.kind == ConstraintKind::kBody && where.index < 0) return true;
  if (where.index < 0) return false;
  switch (where.kind) {
    case ConstraintKind::kTwoBone:
      return where.index < static_cast<int>(state.ik.size()) && state.ik[where.index].reached;
    case ConstraintKind::kFabrik:
      return where.index < static_cast<int>(state.fabrik.size()) &&
             state.fabrik[where.index].reached;
    case ConstraintKind::kAim:
      return where.index < static_cast<int>(state.aim.size()) && state.aim[where.index].reached;
    case ConstraintKind::kBody:
      // Explicit effectors come first in the body solve, in order.
      return state.body_ran && where.index < static_cast<int>(state.body.effectors.size()) &&
             state.body.effectors[where.index].reached;
  }
  return false;
}

std::string ChainStatus(const EditedFrame& frame, const PoseState& state, int chain) {
  if (chain < 0 || chain >= static_cast<int>(frame.chain_requests.size())) return "off";
  const RequestIndex& where = frame.chain_requests[chain];
  if (where.index < 0) {
    return where.kind == ConstraintKind::kBody ? "free (drag the handle to move the body)" : "off";
  }
  char text[160];
  switch (where.kind) {
    case ConstraintKind::kTwoBone: {
      if (where.index >= static_cast<int>(state.ik.size())) return "off";
      const ik::TwoBoneIkResult& r = state.ik[where.index];
      std::snprintf(text, sizeof(text), "%s %.1e", ik::CaseName(r.solve_case), double(r.error));
      break;
    }
    case ConstraintKind::kFabrik: {
      if (where.index >= static_cast<int>(state.fabrik.size())) return "off";
      const ik::FabrikResult& r = state.fabrik[where.index];
      std::snprintf(
          text, sizeof(text), "%s %d it %.1e",
          r.degenerate ? ik::FabrikFallbackName(r.fallback) : (r.reached ? "reached" : "missed"),
          r.iterations, double(r.error));
      break;
    }
    case ConstraintKind::kAim: {
      if (where.index >= static_cast<int>(state.aim.size())) return "off";
      const ik::AimResult& r = state.aim[where.index];
      std::snprintf(text, sizeof(text), "%s %.2f deg",
                    r.degenerate ? ik::AimFallbackName(r.fallback)
                                 : (r.reached ? "aimed" : (r.limited ? "limited" : "missed")),
                    double(glm::degrees(r.angle_after)));
      break;
    }
    case ConstraintKind::kBody: {
      if (!state.body_ran || where.index >= static_cast<int>(state.body.effectors.size())) {
        return "off";
      }
      const ik::BodyEffectorReport& r = state.body.effectors[where.index];
      if (r.reached) {
        std::snprintf(text, sizeof(text), "%s",
                      r.kind == ik::BodyEffector::Kind::kPin ? "held" : "placed");
      } else {
        std::snprintf(text, sizeof(text), "missed by %.2g", double(r.error));
      }
      break;
    }
  }
  return text;
}

}  // namespace app
