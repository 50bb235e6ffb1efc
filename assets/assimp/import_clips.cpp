// Clips after conversion: one per file animation in file order, every clip named and prepared for
// sampling.
#include "assets/assimp/import_clips.h"

#include <utility>

#include "assets/files/messages.h"
#include "assets/model/animation.h"

namespace assets {

void FinishClips(Model* model, std::vector<std::string>* warnings) {
  // One clip per file animation, in file order, so that clip numbers match what three.js,
  // Blender and the file itself list (--anim I); clips that move nothing stay, playing as the rest
  // pose, rather than shifting the numbers after them.
  std::vector<Clip>& clips = model->clips;
  size_t still = 0;
  for (const Clip& clip : clips) {
    still += clip.channels.empty() && clip.morph_channels.empty() ? 1 : 0;
  }
  if (still > 0) {
    warnings->push_back(Plural(still, "animation", "animations") +
                        (still == 1 ? " moves" : " move") +
                        " no joint and no morph weight, and plays as the rest pose");
  }
  for (size_t i = 0; i < clips.size(); ++i) {
    if (clips[i].name.empty()) {
      clips[i].name = clips.size() == 1 ? "Animation" : "Animation " + std::to_string(i);
    }
  }
  for (Clip& clip : clips) PrepareClip(&clip);
}
}  // namespace assets
