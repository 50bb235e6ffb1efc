// IK chains panel, FABRIK chains: iteration cap, tolerance, the iterations drawn.
#include <imgui.h>

#include "app/window/panels/chain_parts.h"

namespace app {

void DrawFabrikOptions(ChainSettings* chain, Requests* out) {
  ImGui::SliderInt("Iterations", &chain->max_iterations, 1, 256);
  Tip("At most this many FABRIK passes per frame.");
  TrackLastItem(out);
  ImGui::SliderFloat("Tolerance", &chain->tolerance, 1e-5f, 1e-2f, "%.5f",
                     ImGuiSliderFlags_Logarithmic);
  Tip("Close enough: the end within this fraction of the chain's length from the target.");
  TrackLastItem(out);
  Edited(ImGui::Checkbox("Show iterations", &chain->show_iterations), out);
  Tip("Draw the chain after each FABRIK pass.");
}

}  // namespace app
