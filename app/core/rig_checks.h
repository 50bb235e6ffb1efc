// The rig checks of `skelview check`: what riggers get wrong, found in a loaded Model from the
// facts skelview computes anyway — the importer's repairs and load warnings, skin-weight problems
// (assets/model/weight_check.h), the body rig with its limbs and bend axes (ik/body/full_body.h),
// the two-bone solver, clips and morph targets. Rules and severities: app/core/rig_rules.h.
#pragma once

#include <string>
#include <vector>

#include "app/core/rig_rules.h"
#include "assets/model/model.h"

namespace app {

// At most this many findings of one rule per file; past it, one more finding says how many were
// left out.
inline constexpr int kMaxFindingsPerRule = 10;

// The findings of a loaded model, for every rule the config does not turn off, each with the
// severity the config gives its rule; ordered by rule (as Rules() lists them), then as found.
// Deterministic: the same model gives the same findings. Never fails.
std::vector<Finding> CheckModel(const assets::Model& model, const RuleConfig& config);

// The finding of a file that did not load: one `load` finding with the importer's message (which
// names the file), or none when the config turns `load` off.
std::vector<Finding> LoadFailureFindings(const std::string& error, const RuleConfig& config);

// The rule that reports a load warning of the importer: "names.duplicate" for a renamed node,
// "rotation.non-unit", "clip.non-finite", "skin.joint-outside-scene", "texture.missing",
// "names.not-utf8", "extension.unsupported"; "" for warnings a structured check reports (weights,
// clips that move nothing); "load.repaired" for every other repair.
std::string RuleOfLoadWarning(const std::string& warning);

}  // namespace app
