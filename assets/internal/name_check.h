// Names a file gives that are not valid UTF-8, recorded as a load warning so that `skelview check`
// (names.not-utf8) sees them whatever later replaces their bytes. Internal to assets/.
#pragma once

#include <string>
#include <vector>

#include "assets/model.h"

namespace assets {

// Adds one warning when any joint, mesh, morph target, material, texture or clip name of `model`
// is not valid UTF-8: "N names are not valid UTF-8 (e.g. joint 'caf\xE9')", the bad bytes shown
// as \xNN so that the warning itself is UTF-8. Adds nothing when every name is valid.
void WarnNamesNotUtf8(const Model& model, std::vector<std::string>* warnings);

}  // namespace assets
