// Keyed targets in the window: I (or the timeline's Key button) keys the active chain's target at
// the playhead, the timeline moves and deletes keys, and auto-key keys a target when its drag
// ends. Each edit is one undo step and a trace event.
#include "app/core/chain_results.h"
#include "app/window/viewer_loop.h"

namespace app {

namespace {

bool ValidChain(const EditState& edit, int chain) {
  return chain >= 0 && chain < static_cast<int>(edit.chains.size());
}

}  // namespace

void Viewer::SetKeyNow(int chain) {
  if (chain < 0) chain = selection_.active_chain;
  if (!ValidChain(edit_, chain)) {
    ShowMessage("Key: select a target first (click its handle)", MessageLevel::kWarning);
    return;
  }
  if (playback_.clip < 0) {
    ShowMessage("Key: keys are set on a clip's timeline; choose a clip in the Animation section",
                MessageLevel::kWarning);
    return;
  }
  const float time = playback_.time;
  KeyChainTarget(&edit_.chains[size_t(chain)], time);
  recorder_.Changed(edit_);
  timeline_.key_chain = chain;
  timeline_.key_time = time;
  Update(0.0);
  WriteKeyTrace("key_set", chain, time);
}

void Viewer::MoveKeyNow(int chain, float from, float to) {
  if (!ValidChain(edit_, chain) || !MoveChainKey(&edit_.chains[size_t(chain)], from, to)) return;
  recorder_.Changed(edit_);
  Update(0.0);
  WriteKeyTrace("key_moved", chain, to, from);
}

void Viewer::DeleteKeyNow(int chain, float time) {
  if (!ValidChain(edit_, chain) || !DeleteChainKey(&edit_.chains[size_t(chain)], time)) return;
  recorder_.Changed(edit_);
  if (timeline_.key_chain == chain) timeline_.key_chain = -1;
  Update(0.0);
  WriteKeyTrace("key_deleted", chain, time);
}

void Viewer::DeleteSelectedKey() {
  if (DeleteSelectedContact()) return;  // a foot contact selected on the timeline
  if (timeline_.key_chain >= 0) DeleteKeyNow(timeline_.key_chain, timeline_.key_time);
}

void Viewer::KeyAfterDrag(int chain) {
  if (!ValidChain(edit_, chain) || playback_.clip < 0) return;
  ChainSettings& settings = edit_.chains[size_t(chain)];
  if (!settings.keyed() && !selection_.auto_key) return;
  // A keyed target was keyed where the drag left it (SetChainTarget); auto-key keys one that had
  // none (and the pole with it, as I does).
  if (!settings.keyed()) KeyChainTarget(&settings, playback_.time);
  timeline_.key_chain = chain;
  timeline_.key_time = playback_.time;
  Update(0.0);
  WriteKeyTrace("key_set", chain, playback_.time);
}

void Viewer::WriteKeyTrace(const char* name, int chain, float time, std::optional<float> from) {
  if (!trace_.is_open() || !ValidChain(edit_, chain)) return;
  Json event = KeyEvent(name, current_->model, edit_, frame_, chain, time, from);
  const glm::vec2 px = ToWindow(ChainTargetNow(current_->model.skeleton, edit_, frame_, chain));
  event["handle_px"] = {px.x, px.y};  // where the target's handle is now, window coordinates
  trace_.Write(event);
}

}  // namespace app
