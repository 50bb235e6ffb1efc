// The rule table of `skelview check` and its config file.
#include "app/core/rig_rules.h"

#include <nlohmann/json.hpp>

namespace app {

namespace {

// `text` in single quotes on one line: control characters become spaces.
std::string QuotedKey(std::string text) {
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  }
  return "'" + text + "'";
}

}  // namespace

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kOff:
      return "off";
    case Severity::kNote:
      return "note";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
  }
  return "off";
}

bool ParseSeverity(std::string_view text, Severity* severity) {
  for (Severity s : {Severity::kOff, Severity::kNote, Severity::kWarning, Severity::kError}) {
    if (text == SeverityName(s)) {
      *severity = s;
      return true;
    }
  }
  return false;
}

const std::vector<RuleInfo>& Rules() {
  static const std::vector<RuleInfo> kRules = {
      {"load", Severity::kError,
       "The file cannot be loaded: missing, unreadable or malformed, refused by the import "
       "checks, requires an extension skelview lacks, or crashed or exhausted the importer"},
      {"load.repaired", Severity::kNote,
       "The importer repaired something no other rule covers (its load warning is quoted)"},
      {"extension.unsupported", Severity::kWarning,
       "The glTF file uses extensions skelview does not read; it loads without what they add"},
      {"weights.not-normalized", Severity::kWarning,
       "Vertices whose skin weights do not sum to 1 (off by more than 0.001)"},
      {"weights.unweighted", Severity::kWarning,
       "Vertices of a skinned mesh that no joint moves (no influence, or all weights 0)"},
      {"weights.too-many-influences", Severity::kWarning,
       "Vertices with more than 8 joint influences (only the 8 largest are kept)"},
      {"weights.over-four-influences", Severity::kNote,
       "Vertices with more than 4 joint influences (many engines skin with 4)"},
      {"skin.joint-outside-scene", Severity::kError,
       "A skin lists joints that are not in the scene: their weights are lost"},
      {"skin.inverse-bind-mismatch", Severity::kWarning,
       "The bind pose does not match the rest pose: bones not at rest where the inverse bind "
       "matrices bound them deform the mesh at rest (by more than 1% of its size)"},
      {"bone.zero-length", Severity::kWarning,
       "A deforming joint whose only child sits on it: the bone has no direction"},
      {"bone.non-uniform-scale", Severity::kWarning,
       "A joint scaled differently along its axes, at rest or in a clip (children shear)"},
      {"bone.negative-scale", Severity::kWarning,
       "A joint whose scale mirrors it (negative determinant): normals and IK turn flip there"},
      {"rotation.non-unit", Severity::kWarning,
       "Node rotations that are not unit quaternions (or zero); the importer normalised them"},
      {"names.duplicate", Severity::kWarning,
       "Several nodes share a name: joints were renamed, and bindings by name are ambiguous"},
      {"names.not-utf8", Severity::kWarning,
       "Names that are not valid UTF-8 (they show as replacement characters)"},
      {"limbs.not-found", Severity::kNote,
       "A skinned skeleton without a detected arm or leg, or with a limb whose other side is "
       "missing"},
      {"limbs.asymmetric", Severity::kWarning,
       "Left and right limbs whose upper or lower bone lengths differ by more than 5%"},
      {"limbs.straight-at-rest", Severity::kWarning,
       "A limb straight at rest: no bend shows which way its knee or elbow folds, so IK has no "
       "hinge"},
      {"ik.unreachable-rest", Severity::kWarning,
       "The limb's two-bone IK, with the viewer's defaults, misses its own rest end position or "
       "the end moved 20% of the limb toward its start"},
      {"clip.empty", Severity::kWarning, "A clip that moves no joint and no morph weight"},
      {"clip.non-finite", Severity::kWarning,
       "Animation keys with non-finite values or times (or times out of order), dropped by the "
       "importer"},
      {"clip.huge-translation", Severity::kWarning,
       "Translation keys more than 10 model sizes from the joint's rest position (the root and "
       "hips: vertically, or 1000 sizes horizontally): a unit mismatch or garbage"},
      {"clip.root-motion", Severity::kNote,
       "A clip moves the hips more than half the model's height across the ground (root motion)"},
      {"morph.no-effect", Severity::kWarning,
       "A morph target whose deltas are all zero: it changes nothing"},
      {"mesh.far-from-skeleton", Severity::kWarning,
       "A skinned mesh at rest lies farther from its joints than its own size, or is 20x larger "
       "or smaller than they spread (a unit or placement mismatch)"},
      {"texture.missing", Severity::kWarning,
       "A texture that could not be loaded (missing, refused, unreadable or too large)"},
  };
  return kRules;
}

int FindRule(std::string_view id) {
  const std::vector<RuleInfo>& rules = Rules();
  for (size_t i = 0; i < rules.size(); ++i) {
    if (id == rules[i].id) return static_cast<int>(i);
  }
  return -1;
}

RuleConfig::RuleConfig() {
  for (const RuleInfo& rule : Rules()) severity.push_back(rule.severity);
}

Severity RuleConfig::Of(std::string_view id) const {
  const int index = FindRule(id);
  return index < 0 ? Severity::kOff : severity[static_cast<size_t>(index)];
}

bool ParseRuleConfig(const std::string& text, const std::string& source, RuleConfig* config,
                     std::string* error) {
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    *error = "--config " + source + ": not valid JSON";
    return false;
  }
  if (!doc.is_object()) {
    *error = "--config " + source + ": expected an object {\"rules\": {...}}";
    return false;
  }
  RuleConfig out = *config;
  for (const auto& [key, value] : doc.items()) {
    if (key != "rules") {
      *error = "--config " + source + ": unknown key " + QuotedKey(key) + " (expected \"rules\")";
      return false;
    }
    if (!value.is_object()) {
      *error = "--config " + source + ": \"rules\" must be an object of rule ids and severities";
      return false;
    }
    for (const auto& [id, severity] : value.items()) {
      const int index = FindRule(id);
      if (index < 0) {
        *error = "--config " + source + ": unknown rule " + QuotedKey(id) +
                 " (see skelview check " + "--list-rules)";
        return false;
      }
      Severity parsed = Severity::kOff;
      if (!severity.is_string() || !ParseSeverity(severity.get<std::string>(), &parsed)) {
        *error = "--config " + source + ": rule " + QuotedKey(id) +
                 ": expected \"off\", \"note\", \"warning\" or \"error\"";
        return false;
      }
      out.severity[static_cast<size_t>(index)] = parsed;
    }
  }
  *config = out;
  return true;
}

}  // namespace app
