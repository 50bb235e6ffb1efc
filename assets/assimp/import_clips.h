// The clips of an import once the model is built, one per file animation in file order. Internal
// to assets/.
#pragma once

#include <string>
#include <vector>

#include "assets/model/model.h"

namespace assets {

// Last steps for every import: keeps every clip where the file has it (one that moves no joint
// stays, with a warning, so later clip numbers still match the file's), names unnamed ones
// ("Animation", or "Animation N" with N the clip's index) and prepares each for sampling.
void FinishClips(Model* model, std::vector<std::string>* warnings);

}  // namespace assets
