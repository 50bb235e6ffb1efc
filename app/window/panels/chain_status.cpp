// The IK chains panel's status of a chain in plain words, with lengths in the model's units.
#include <cstdio>

#include "app/core/chain_results.h"
#include "app/window/panels/chain_parts.h"

namespace app {

namespace {

// A solver's fallback name ("zero_length_bone") as words ("zero length bone").
std::string Words(const char* name) {
  std::string words = name;
  for (char& c : words) c = c == '_' ? ' ' : c;
  return words;
}

}  // namespace

const char* LengthUnits(const assets::Model& model) {
  // glTF is in metres by definition (the built-in character too); other formats keep the file's
  // own units, which Assimp does not report.
  const std::string& source = model.source;
  const auto ends_with = [&](const char* ext) {
    const std::string e = ext;
    if (source.size() < e.size()) return false;
    for (size_t i = 0; i < e.size(); ++i) {
      const char c = source[source.size() - e.size() + i];
      if ((c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c) != e[i]) return false;
    }
    return true;
  };
  // glTF and VRM (glTF with the avatar extensions) are in metres.
  return source == "<built-in>" || ends_with(".glb") || ends_with(".gltf") || ends_with(".vrm")
             ? "m"
             : "units";
}

std::string Length(float value, const char* units) {
  char text[48];
  std::snprintf(text, sizeof(text), "%.3g %s", double(value), units);
  return text;
}

std::string PlainChainStatus(const FrameInput& in, int chain) {
  const EditedFrame& frame = in.frame;
  const PoseState& state = in.state;
  if (chain < 0 || chain >= static_cast<int>(frame.chain_requests.size())) return "off";
  const RequestIndex& where = frame.chain_requests[chain];
  if (where.index < 0) {
    return where.kind == ConstraintKind::kBody ? "free" : "off";
  }
  const char* units = LengthUnits(in.model);
  char text[160];
  switch (where.kind) {
    case ConstraintKind::kTwoBone: {
      if (where.index >= static_cast<int>(state.ik.size())) return "off";
      const ik::TwoBoneIkResult& r = state.ik[where.index];
      if (r.fallback != ik::TwoBoneFallback::kNone)
        return "not solved: " + Words(ik::FallbackName(r.fallback));
      if (r.reached) return "reached";
      if (r.solve_case == ik::TwoBoneCase::kTooFar)
        return "out of reach by " + Length(r.error, units);
      if (r.solve_case == ik::TwoBoneCase::kTooClose)
        return "too close by " + Length(r.error, units);
      return std::string(r.hinge_limited ? "held by the hinge, "
                         : r.softened    ? "softened, "
                                         : "") +
             Length(r.error, units) + " off";
    }
    case ConstraintKind::kFabrik: {
      if (where.index >= static_cast<int>(state.fabrik.size())) return "off";
      const ik::FabrikResult& r = state.fabrik[where.index];
      if (r.degenerate) return "not solved: " + Words(ik::FabrikFallbackName(r.fallback));
      if (r.reached) {
        std::snprintf(text, sizeof(text), "reached in %d iteration%s", r.iterations,
                      r.iterations == 1 ? "" : "s");
        return text;
      }
      if (r.unreachable) return "out of reach by " + Length(r.error, units);
      std::snprintf(text, sizeof(text), "%s off after %d iterations%s",
                    Length(r.error, units).c_str(), r.iterations, r.limited ? " (limited)" : "");
      return text;
    }
    case ConstraintKind::kAim: {
      if (where.index >= static_cast<int>(state.aim.size())) return "off";
      const ik::AimResult& r = state.aim[where.index];
      if (r.degenerate) return "not aimed: " + Words(ik::AimFallbackName(r.fallback));
      if (r.reached) return "aimed";
      std::snprintf(text, sizeof(text), "%s%.1f deg off", r.limited ? "held by a limit, " : "",
                    double(glm::degrees(r.angle_after)));
      return text;
    }
    case ConstraintKind::kBody: {
      if (!state.body_ran || where.index >= static_cast<int>(state.body.effectors.size())) {
        return "off";
      }
      const ik::BodyEffectorReport& r = state.body.effectors[where.index];
      if (r.reached) return r.kind == ik::BodyEffector::Kind::kPin ? "held" : "placed";
      return "missed by " + Length(r.error, units);
    }
  }
  return "off";
}

}  // namespace app
