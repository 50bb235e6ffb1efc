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
  return ChainTarget(edit.chains[chain], ChainInfo(skeleton, edit, frame, chain), edit.contacts);
}

namespace {

// A chain straight at rest: the solver had no bend axis to choose the knee's side by.
bool StraightAtRest(const ChainOutcome& o) {
  return o.two_bone && o.two_bone->fallback == ik::TwoBoneFallback::kColinearChain &&
         !o.two_bone_bend_axis;
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
      o.free = o.reached = true;
      o.tone = ChainTone::kGood;
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
        o.reached = o.two_bone->reached;
      }
      break;
    case ConstraintKind::kFabrik:
      if (index < state.fabrik.size()) {
        o.fabrik = &state.fabrik[index];
        o.reached = o.fabrik->reached;
      }
      break;
    case ConstraintKind::kAim:
      if (index < state.aim.size()) {
        o.aim = &state.aim[index];
        o.reached = o.aim->reached;
      }
      break;
    case ConstraintKind::kBody:
      // Explicit effectors come first in the body solve, in order.
      if (state.body_ran && index < state.body.effectors.size()) {
        o.body = &state.body.effectors[index];
        o.reached = o.body->reached;
      }
      break;
  }
  o.solved = o.two_bone || o.fabrik || o.aim || o.body;
  o.tone = o.reached ? ChainTone::kGood : ChainTone::kBad;
  // A two-bone solve that took a fallback but still solved is a warning when it reached.
  if (o.two_bone && o.reached && o.two_bone->fallback != ik::TwoBoneFallback::kNone &&
      o.two_bone->solve_case != ik::TwoBoneCase::kDegenerate) {
    o.tone = ChainTone::kWarning;
  }
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
  if (o.free) return line.Add("free (drag the handle to move the body)");
  if (const ik::TwoBoneIkResult* r = o.two_bone) {
    line.Add("%s %.1e", ik::CaseName(r->solve_case), double(r->error));
    if (r->fallback != ik::TwoBoneFallback::kNone) line.Add(" %s", ik::FallbackName(r->fallback));
    if (r->hinge_limited) line.Add(" hinge_limited");
    if (r->softened) line.Add(" softened");
    return;
  }
  if (const ik::FabrikResult* r = o.fabrik) {
    return line.Add(
        "%s %d it %.1e%s%s",
        r->degenerate ? ik::FabrikFallbackName(r->fallback) : (r->reached ? "reached" : "missed"),
        r->iterations, double(r->error), r->unreachable && !r->degenerate ? " unreachable" : "",
        r->limited ? " limited" : "");
  }
  if (const ik::AimResult* r = o.aim) {
    return line.Add("%s %.2f deg",
                    r->degenerate ? ik::AimFallbackName(r->fallback)
                                  : (r->reached ? "aimed" : (r->limited ? "limited" : "missed")),
                    double(glm::degrees(r->angle_after)));
  }
  if (const ik::BodyEffectorReport* r = o.body) {
    if (r->reached)
      return line.Add("%s", r->kind == ik::BodyEffector::Kind::kPin ? "held" : "placed");
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
  if (o.free) return line.Add("free");
  if (const ik::TwoBoneIkResult* r = o.two_bone) {
    if (r->solve_case == ik::TwoBoneCase::kDegenerate) {
      line.Add("not solved: ");
      return line.Words(ik::FallbackName(r->fallback));
    }
    const bool straight = StraightAtRest(o);
    if (r->reached) {
      if (straight) return line.Add("straight at rest: set a pole");
      line.Add("reached");
    } else if (r->solve_case == ik::TwoBoneCase::kTooFar) {
      line.Add("out of reach by %.3g %s", double(r->error), units);
    } else if (r->solve_case == ik::TwoBoneCase::kTooClose) {
      line.Add("too close by %.3g %s", double(r->error), units);
    } else {
      line.Add("%s%.3g %s off",
               r->hinge_limited ? "held by the hinge, " : (r->softened ? "softened, " : ""),
               double(r->error), units);
    }
    if (straight) return line.Add("; straight at rest: set a pole");
    if (r->fallback != ik::TwoBoneFallback::kNone) {
      line.Add(" (");
      line.Words(ik::FallbackName(r->fallback));
      line.Add(")");
    }
    return;
  }
  if (const ik::FabrikResult* r = o.fabrik) {
    if (r->degenerate) {
      line.Add("not solved: ");
      return line.Words(ik::FabrikFallbackName(r->fallback));
    }
    if (r->reached) {
      return line.Add("reached in %d iteration%s", r->iterations, r->iterations == 1 ? "" : "s");
    }
    if (r->unreachable) return line.Add("out of reach by %.3g %s", double(r->error), units);
    return line.Add("%.3g %s off after %d iterations%s", double(r->error), units, r->iterations,
                    r->limited ? " (limited)" : "");
  }
  if (const ik::AimResult* r = o.aim) {
    if (r->degenerate) {
      line.Add("not aimed: ");
      return line.Words(ik::AimFallbackName(r->fallback));
    }
    if (r->reached) return line.Add("aimed");
    return line.Add("%s%.1f deg off", r->limited ? "held by a limit, " : "",
                    double(glm::degrees(r->angle_after)));
  }
  if (const ik::BodyEffectorReport* r = o.body) {
    if (r->reached)
      return line.Add("%s", r->kind == ik::BodyEffector::Kind::kPin ? "held" : "placed");
    return line.Add("missed by %.3g %s", double(r->error), units);
  }
  line.Add("off");
}

}  // namespace app
