// Per-chain lookups of a frame's results, and their two formats.
#include "app/core/chain_results.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace app {

EffectorInfo ChainInfo(const ik::Skeleton& skeleton, const EditState& edit,
                       const EditedFrame& frame, int chain) {
  const ChainSettings& settings = edit.chains[chain];
  if (chain < static_cast<int>(frame.chains.size())) {
    const EditedFrame::ChainNow& now = frame.chains[size_t(chain)];
    if (now.kind == settings.kind && now.chain.start == settings.chain.start &&
        now.chain.mid == settings.chain.mid && now.chain.end == settings.chain.end) {
      return now.info;
    }
  }
  return InfoFor(skeleton, settings, frame.unsolved_models);
}

glm::vec3 ChainTargetNow(const ik::Skeleton& skeleton, const EditState& edit,
                         const EditedFrame& frame, int chain) {
  return ChainTarget(edit.chains[chain], ChainInfo(skeleton, edit, frame, chain), edit.contacts,
                     frame.time_seconds);
}

ChainTone ToneOf(ChainState state) {
  switch (state) {
    case ChainState::kReached:
    case ChainState::kFree:
      return ChainTone::kGood;
    case ChainState::kStraightAtRest:
    case ChainState::kFellBack:
      return ChainTone::kWarning;
    case ChainState::kOff:
    case ChainState::kOutOfReach:
    case ChainState::kTooClose:
    case ChainState::kOffTarget:
    case ChainState::kNotSolved:
      break;
  }
  return ChainTone::kBad;
}

namespace {

ChainState TwoBoneState(const ik::TwoBoneIkResult& r, bool straight_at_rest) {
  if (r.solve_case == ik::TwoBoneCase::kDegenerate) return ChainState::kNotSolved;
  if (r.reached) {
    if (straight_at_rest) return ChainState::kStraightAtRest;
    return r.fallback != ik::TwoBoneFallback::kNone ? ChainState::kFellBack : ChainState::kReached;
  }
  if (r.solve_case == ik::TwoBoneCase::kTooFar) return ChainState::kOutOfReach;
  if (r.solve_case == ik::TwoBoneCase::kTooClose) return ChainState::kTooClose;
  return ChainState::kOffTarget;
}

ChainState FabrikState(const ik::FabrikResult& r) {
  if (r.degenerate) return ChainState::kNotSolved;
  if (r.reached) return ChainState::kReached;
  return r.unreachable ? ChainState::kOutOfReach : ChainState::kOffTarget;
}

ChainState AimState(const ik::AimResult& r) {
  if (r.degenerate) return ChainState::kNotSolved;
  return r.reached ? ChainState::kReached : ChainState::kOffTarget;
}

}  // namespace

ChainOutcome ChainOutcomeOf(const EditedFrame& frame, const PoseState& state, int chain) {
  ChainOutcome o;
  if (chain < 0 || chain >= static_cast<int>(frame.chain_requests.size())) return o;
  const RequestIndex& where = frame.chain_requests[size_t(chain)];
  o.kind = where.kind;
  if (where.index < 0) {
    // A body handle not moved follows the animation: it is where its target is.
    if (where.kind == ConstraintKind::kBody) {
      o.state = ChainState::kFree;
      o.free = o.reached = true;
      o.tone = ToneOf(o.state);
    }
    return o;
  }
  const size_t index = static_cast<size_t>(where.index);
  switch (where.kind) {
    case ConstraintKind::kTwoBone:
      if (index < state.ik.size()) {
        o.two_bone = &state.ik[index];
        o.two_bone_bend_axis = index < frame.requests.ik.size() &&
                               frame.requests.ik[index].options.bend_axis_local.has_value();
        // No bend axis to choose the knee's side by: the solver fell back to a guess.
        o.straight_at_rest =
            o.two_bone->fallback == ik::TwoBoneFallback::kColinearChain && !o.two_bone_bend_axis;
        o.reached = o.two_bone->reached;
        o.state = TwoBoneState(*o.two_bone, o.straight_at_rest);
      }
      break;
    case ConstraintKind::kFabrik:
      if (index < state.fabrik.size()) {
        o.fabrik = &state.fabrik[index];
        o.reached = o.fabrik->reached;
        o.state = FabrikState(*o.fabrik);
      }
      break;
    case ConstraintKind::kAim:
      if (index < state.aim.size()) {
        o.aim = &state.aim[index];
        o.reached = o.aim->reached;
        o.state = AimState(*o.aim);
      }
      break;
    case ConstraintKind::kBody:
      // Explicit effectors come first in the body solve, in order.
      if (state.body_ran && index < state.body.effectors.size()) {
        o.body = &state.body.effectors[index];
        o.reached = o.body->reached;
        o.state = o.reached ? ChainState::kReached : ChainState::kOffTarget;
      }
      break;
  }
  o.solved = o.two_bone || o.fabrik || o.aim || o.body;
  o.tone = ToneOf(o.state);
  return o;
}

const ik::TwoBoneIkResult* TwoBoneResultOf(const EditedFrame& frame, const PoseState& state,
                                           int chain) {
  return ChainOutcomeOf(frame, state, chain).two_bone;
}

bool ChainReached(const EditedFrame& frame, const PoseState& state, int chain) {
  return ChainOutcomeOf(frame, state, chain).reached;
}

namespace {

// Appends printf-style text to a fixed buffer, keeping it terminated.
class Line {
 public:
  Line(char* out, size_t size) : out_(out), size_(size) {
    if (size_ > 0) out_[0] = '\0';
  }
  __attribute__((format(printf, 2, 3))) void Add(const char* format, ...) {
    if (used_ + 1 >= size_) return;
    va_list args;
    va_start(args, format);
    const int n = std::vsnprintf(out_ + used_, size_ - used_, format, args);
    va_end(args);
    if (n > 0) used_ = std::min(size_ - 1, used_ + static_cast<size_t>(n));
  }
  // A solver's fallback name ("zero_length_bone") as words ("zero length bone").
  void Words(const char* name) {
    for (const char* c = name; *c; ++c) Add("%c", *c == '_' ? ' ' : *c);
  }

 private:
  char* out_;
  size_t size_;
  size_t used_ = 0;
};

}  // namespace

void ChainStatus(const ChainOutcome& o, char* out, size_t size) {
  Line line(out, size);
  if (o.state == ChainState::kFree) return line.Add("free (drag the handle to move the body)");
  const bool not_solved = o.state == ChainState::kNotSolved;
  const bool reached = o.state == ChainState::kReached;
  if (const ik::TwoBoneIkResult* r = o.two_bone) {
    // The solver's own case names, which the state refines.
    line.Add("%s %.1e", ik::CaseName(r->solve_case), double(r->error));
    if (r->fallback != ik::TwoBoneFallback::kNone) line.Add(" %s", ik::FallbackName(r->fallback));
    if (r->hinge_limited) line.Add(" hinge_limited");
    if (r->softened) line.Add(" softened");
    return;
  }
  if (const ik::FabrikResult* r = o.fabrik) {
    return line.Add(
        "%s %d it %.1e%s%s",
        not_solved ? ik::FabrikFallbackName(r->fallback) : (reached ? "reached" : "missed"),
        r->iterations, double(r->error), o.state == ChainState::kOutOfReach ? " unreachable" : "",
        r->limited ? " limited" : "");
  }
  if (const ik::AimResult* r = o.aim) {
    return line.Add("%s %.2f deg",
                    not_solved ? ik::AimFallbackName(r->fallback)
                               : (reached ? "aimed" : (r->limited ? "limited" : "missed")),
                    double(glm::degrees(r->angle_after)));
  }
  if (const ik::BodyEffectorReport* r = o.body) {
    if (reached) return line.Add("%s", r->kind == ik::BodyEffector::Kind::kPin ? "held" : "placed");
    return line.Add("missed by %.2g", double(r->error));
  }
  line.Add("off");
}

std::string ChainStatus(const EditedFrame& frame, const PoseState& state, int chain) {
  char text[192];
  ChainStatus(ChainOutcomeOf(frame, state, chain), text, sizeof(text));
  return text;
}

void ChainWords(const ChainOutcome& o, const char* units, char* out, size_t size) {
  Line line(out, size);
  const ik::TwoBoneIkResult* two = o.two_bone;
  switch (o.state) {
    case ChainState::kOff:
      return line.Add("off");
    case ChainState::kFree:
      return line.Add("free");
    case ChainState::kStraightAtRest:
      return line.Add("straight at rest: set a pole");
    case ChainState::kNotSolved:
      if (two) {
        line.Add("not solved: ");
        return line.Words(ik::FallbackName(two->fallback));
      }
      if (o.fabrik) {
        line.Add("not solved: ");
        return line.Words(ik::FabrikFallbackName(o.fabrik->fallback));
      }
      if (o.aim) {
        line.Add("not aimed: ");
        return line.Words(ik::AimFallbackName(o.aim->fallback));
      }
      return line.Add("not solved");
    case ChainState::kReached:
    case ChainState::kFellBack:
      if (o.fabrik) {
        const int n = o.fabrik->iterations;
        return line.Add("reached in %d iteration%s", n, n == 1 ? "" : "s");
      }
      if (o.aim) return line.Add("aimed");
      if (o.body) {
        return line.Add("%s", o.body->kind == ik::BodyEffector::Kind::kPin ? "held" : "placed");
      }
      line.Add("reached");
      break;
    case ChainState::kOutOfReach: {
      const float error = two ? two->error : o.fabrik ? o.fabrik->error : 0.0f;
      line.Add("out of reach by %.3g %s", double(error), units);
      break;
    }
    case ChainState::kTooClose:
      line.Add("too close by %.3g %s", double(two ? two->error : 0.0f), units);
      break;
    case ChainState::kOffTarget:
      if (two) {
        line.Add("%s%.3g %s off",
                 two->hinge_limited ? "held by the hinge, " : (two->softened ? "softened, " : ""),
                 double(two->error), units);
      } else if (const ik::FabrikResult* fab = o.fabrik) {
        return line.Add("%.3g %s off after %d iterations%s", double(fab->error), units,
                        fab->iterations, fab->limited ? " (limited)" : "");
      } else if (const ik::AimResult* aim = o.aim) {
        return line.Add("%s%.1f deg off", aim->limited ? "held by a limit, " : "",
                        double(glm::degrees(aim->angle_after)));
      } else if (o.body) {
        return line.Add("missed by %.3g %s", double(o.body->error), units);
      }
      break;
  }
  // A two-bone chain says what else its solver had to do.
  if (!two) return;
  if (o.straight_at_rest) return line.Add("; straight at rest: set a pole");
  if (two->fallback != ik::TwoBoneFallback::kNone) {
    line.Add(" (");
    line.Words(ik::FallbackName(two->fallback));
    line.Add(")");
  }
}

}  // namespace app
