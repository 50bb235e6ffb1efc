// The timeline along the bottom of the window: play and step controls, a ruler in frames or
// seconds, the selected joint's keys and the IK weight keys in lanes (the feet's contacts below
// them: timeline_feet.cpp), the loop range, and a scrub area as wide as the view. Draws straight
// into its window's draw list: nothing is allocated.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "app/core/bake.h"
#include "app/window/panels/timeline_draw.h"

namespace app {

namespace {

using timeline::FootMouse;
using timeline::kHandleGrab;
using timeline::kSelectedKeyColor;
using timeline::Lanes;
using timeline::TimeAxis;

constexpr float kMargin = 8.0f;         // window coordinates, around the timeline
constexpr float kHeightEms = 9.5f;      // the timeline's height in font heights
constexpr float kLabelEms = 9.0f;       // the lanes' label column, at least
constexpr float kMaxLabelShare = 0.4f;  // of the canvas's width, at most
constexpr float kMinTickGapEms = 4.3f;  // between labelled ticks, in font heights (56 px at 1x)

// The canvas and lanes in the dark theme and the light one (told apart by the text's colour).
struct CanvasColors {
  ImU32 canvas, lane, tick;
};
CanvasColors Canvas() {
  const ImVec4 text = ImGui::GetStyle().Colors[ImGuiCol_Text];
  if (text.x + text.y + text.z < 1.5f) {
    return {IM_COL32(250, 250, 252, 255), IM_COL32(228, 231, 236, 255),
            IM_COL32(110, 114, 122, 255)};
  }
  return {IM_COL32(24, 26, 30, 255), IM_COL32(34, 37, 43, 255), IM_COL32(120, 125, 135, 255)};
}
const ImU32 kOutsideRangeColor = IM_COL32(0, 0, 0, 110);
const ImU32 kRangeColor = IM_COL32(255, 160, 40, 255);
const ImU32 kPlayheadColor = IM_COL32(90, 170, 255, 255);
const ImU32 kJointKeyColors[3] = {IM_COL32(235, 110, 95, 255), IM_COL32(120, 210, 120, 255),
                                  IM_COL32(110, 160, 240, 255)};
const ImU32 kWeightKeyColor = IM_COL32(240, 210, 80, 255);
const ImU32 kWeightCurveColor = IM_COL32(240, 210, 80, 120);
const ImU32 kTargetKeyColor = IM_COL32(255, 140, 60, 255);

const char* const kPropertyNames[3] = {"translation", "rotation", "scale"};

// The frame rate of the clip, cached while the clip stays the same (EstimateFrameRate reads
// every key).
float FrameRate(const assets::Clip& clip, TimelineView* view) {
  if (view->rate_clip != &clip || view->rate_channels != clip.channels.size() ||
      view->rate_duration != clip.duration) {
    view->rate_clip = &clip;
    view->rate_channels = clip.channels.size();
    view->rate_duration = clip.duration;
    view->frame_rate = EstimateFrameRate(clip);
  }
  return view->frame_rate;
}

void Diamond(ImDrawList* draw, float x, float y, float r, ImU32 color) {
  draw->AddQuadFilled(ImVec2(x, y - r), ImVec2(x + r, y), ImVec2(x, y + r), ImVec2(x - r, y),
                      color);
}

// One diamond per pixel column: a dense track costs no more than the lane is wide.
void KeyDiamonds(ImDrawList* draw, const TimeAxis& axis, const std::vector<float>& times, float y,
                 float r, ImU32 color) {
  float last_x = -1e9f;
  for (float t : times) {
    const float x = std::floor(axis.X(t));
    if (x == last_x) continue;
    last_x = x;
    Diamond(draw, x + 0.5f, y, r, color);
  }
}

// A lane's name in `width` pixels from its left; a name too long for them keeps its end (the
// joint and property, "...LeftUpLeg rotation", rather than a rig's common prefix) after "...".
void LaneLabel(ImDrawList* draw, const ImVec2& min, float width, float height, const char* text,
               ImU32 color) {
  const float room = width - 8.0f;
  const char* shown = text;
  char elided[192];
  if (ImGui::CalcTextSize(text).x > room) {
    const float dots = ImGui::CalcTextSize("...").x;
    const char* end = text + std::strlen(text);
    while (*shown && ImGui::CalcTextSize(shown, end).x + dots > room) ++shown;
    std::snprintf(elided, sizeof(elided), "...%s", shown);
    shown = elided;
  }
  const ImVec4 clip(min.x, min.y, min.x + width - 4.0f, min.y + height);
  draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(),
                ImVec2(min.x + 4.0f, min.y + 0.5f * (height - ImGui::GetFontSize())), color, shown,
                nullptr, 0.0f, &clip);
}

}  // namespace

timeline::Lanes::Lanes(const TimeAxis& axis, const ImVec2& min, float label_width,
                       float lane_height, float bottom)
    : draw_(ImGui::GetWindowDrawList()),
      axis_(axis),
      min_(min),
      label_width_(label_width),
      lane_height_(lane_height),
      bottom_(bottom),
      color_(Canvas().lane),
      y_(min.y) {}

bool timeline::Lanes::Next(const char* name, ImU32 color, bool message) {
  if (y_ + lane_height_ > bottom_ + 0.5f) return false;
  draw_->AddRectFilled(ImVec2(min_.x, y_ + 1.0f), ImVec2(axis_.x1 + 6.0f, y_ + lane_height_ - 1.0f),
                       color_);
  LaneLabel(draw_, ImVec2(min_.x, y_), message ? axis_.x1 - min_.x : label_width_, lane_height_,
            name, color);
  y_ += lane_height_;
  return true;
}

namespace {

// The width the lanes' names need: the selected joint's animated properties and the chains with
// IK weight keys, as DrawLanes names them.
float LaneNamesWidth(const TimelineInput& in, const assets::Clip& clip) {
  float widest = 0.0f;
  const assets::JointAnimation* channel = nullptr;
  for (const assets::JointAnimation& c : clip.channels) {
    if (c.joint == in.selected_joint && in.selected_joint >= 0) channel = &c;
  }
  if (channel &&
      !(channel->translation.empty() && channel->rotation.empty() && channel->scale.empty())) {
    // " translation" is the longest of the property names.
    widest = ImGui::CalcTextSize(in.model.skeleton.name(in.selected_joint).c_str()).x +
             ImGui::CalcTextSize(" translation").x;
  }
  widest = std::max(widest, timeline::FootLaneNamesWidth(in.feet));
  for (const ChainSettings& chain : in.edit.chains) {
    if (chain.weight_keys.empty() && !chain.keyed()) continue;
    widest = std::max(
        widest, ImGui::CalcTextSize("IK weight ").x + ImGui::CalcTextSize(chain.label.c_str()).x);
  }
  return widest;
}

// Ticks and labels along the ruler: frame numbers (or seconds) at a readable spacing.
void DrawRuler(ImDrawList* draw, const TimeAxis& axis, float top, float height, float frame_rate,
               bool seconds) {
  const ImU32 tick = Canvas().tick;
  const float duration = axis.duration;
  const float px_per_second = (axis.x1 - axis.x0) / std::max(duration, 1e-6f);
  static const float kFrameSteps[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000};
  static const float kSecondSteps[] = {0.05f, 0.1f, 0.25f, 0.5f, 1, 2, 5, 10, 30, 60, 120, 300};
  float step = 0.0f;  // seconds between labelled ticks
  for (int i = 0; i < 12 && step == 0.0f; ++i) {
    const float s = seconds ? kSecondSteps[i] : kFrameSteps[i] / frame_rate;
    if (s * px_per_second >= kMinTickGapEms * ImGui::GetFontSize()) step = s;
  }
  if (step == 0.0f) step = duration;
  const float bottom = top + height;
  if (!seconds && px_per_second / frame_rate >= 5.0f) {  // a small tick at every frame
    const int frames = static_cast<int>(std::floor(duration * frame_rate + 1e-3f));
    for (int f = 0; f <= frames; ++f) {
      const float x = std::floor(axis.X(float(f) / frame_rate)) + 0.5f;
      draw->AddLine(ImVec2(x, bottom - 4.0f), ImVec2(x, bottom), tick);
    }
  }
  const int count = static_cast<int>(std::floor(duration / step + 1e-3f));
  char label[32];
  for (int i = 0; i <= count; ++i) {
    const float t = float(i) * step;
    const float x = std::floor(axis.X(t)) + 0.5f;
    draw->AddLine(ImVec2(x, top + 2.0f), ImVec2(x, bottom), tick);
    if (seconds) {
      std::snprintf(label, sizeof(label), step < 1.0f ? "%.2fs" : "%.0fs", double(t));
    } else {
      std::snprintf(label, sizeof(label), "%d", static_cast<int>(std::lround(t * frame_rate)));
    }
    // The last label goes left of its tick when it would run past the track's end.
    const float width = ImGui::CalcTextSize(label).x;
    const float text_x = x + 3.0f + width > axis.x1 + 5.0f ? x - 3.0f - width : x + 3.0f;
    draw->AddText(ImVec2(text_x, top + 1.0f), tick, label);
  }
}

// The clip's channel for `joint`, or nullptr.
const assets::JointAnimation* ChannelOf(const assets::Clip& clip, int joint) {
  for (const assets::JointAnimation& channel : clip.channels) {
    if (channel.joint == joint) return &channel;
  }
  return nullptr;
}

// The lanes under the ruler: the selected joint's animated properties, then every chain with IK
// weight keys (the active one brighter, its weight drawn as a curve), the keyed targets, the
// feet's contacts.
void DrawLanes(const TimelineInput& in, const assets::Clip& clip, const TimeAxis& axis,
               const ImVec2& min, float label_width, float lane_height, float bottom,
               TimelineView* view) {
  view->key_lanes.clear();
  view->foot_lanes.clear();
  view->lanes_x0 = axis.x0;
  view->lanes_x1 = axis.x1;
  Lanes lanes(axis, min, label_width, lane_height, bottom);
  ImDrawList* draw = lanes.draw();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const float r = std::max(3.0f, lane_height * 0.3f);
  char label[160];
  const assets::JointAnimation* channel =
      in.selected_joint >= 0 ? ChannelOf(clip, in.selected_joint) : nullptr;
  if (in.selected_joint < 0) {
    lanes.Next("Select a joint (click it in the view or the Joints tree) to see its keys here.",
               dim, true);
  } else if (!channel || (channel->translation.empty() && channel->rotation.empty() &&
                          channel->scale.empty())) {
    std::snprintf(label, sizeof(label), "%s: no keys in this clip",
                  in.model.skeleton.name(in.selected_joint).c_str());
    lanes.Next(label, dim, true);
  } else {
    const std::vector<float>* tracks[3] = {&channel->translation.times, &channel->rotation.times,
                                           &channel->scale.times};
    for (int p = 0; p < 3; ++p) {
      if (tracks[p]->empty()) continue;
      std::snprintf(label, sizeof(label), "%s %s",
                    in.model.skeleton.name(in.selected_joint).c_str(), kPropertyNames[p]);
      const float lane_y = lanes.top() + 0.5f * lane_height;
      if (!lanes.Next(label, text)) return;
      KeyDiamonds(draw, axis, *tracks[p], lane_y, r, kJointKeyColors[p]);
    }
  }
  for (size_t c = 0; c < in.edit.chains.size(); ++c) {
    const ChainSettings& chain = in.edit.chains[c];
    if (chain.weight_keys.empty()) continue;
    const bool active = static_cast<int>(c) == in.active_chain;
    std::snprintf(label, sizeof(label), "IK weight %s", chain.label.c_str());
    const float lane_top = lanes.top();
    if (!lanes.Next(label, active ? text : dim)) return;
    // The weight between its keys (0 at the lane's bottom, 1 at its top), then the keys on it.
    const float y0 = lane_top + lane_height - 2.0f, span = lane_height - 4.0f;
    const glm::vec2* keys = chain.weight_keys.data();
    const size_t n = chain.weight_keys.size();
    draw->AddLine(ImVec2(axis.x0, y0 - span * keys[0].y),
                  ImVec2(axis.X(keys[0].x), y0 - span * keys[0].y), kWeightCurveColor);
    for (size_t k = 0; k + 1 < n; ++k) {
      draw->AddLine(ImVec2(axis.X(keys[k].x), y0 - span * keys[k].y),
                    ImVec2(axis.X(keys[k + 1].x), y0 - span * keys[k + 1].y), kWeightCurveColor);
    }
    draw->AddLine(ImVec2(axis.X(keys[n - 1].x), y0 - span * keys[n - 1].y),
                  ImVec2(axis.x1, y0 - span * keys[n - 1].y), kWeightCurveColor);
    float last_x = -1e9f;
    for (size_t k = 0; k < n; ++k) {
      const float x = std::floor(axis.X(keys[k].x));
      if (x == last_x) continue;
      last_x = x;
      Diamond(draw, x + 0.5f, y0 - span * keys[k].y, r, active ? kWeightKeyColor : dim);
    }
  }
  // Keyed targets: a lane per chain with its key times (target and pole keys), the selected key
  // white, a dragged one where it is being dragged to.
  for (size_t c = 0; c < in.edit.chains.size(); ++c) {
    const ChainSettings& chain = in.edit.chains[c];
    if (!chain.keyed()) continue;
    const bool active = static_cast<int>(c) == in.active_chain;
    std::snprintf(label, sizeof(label), "%s target", chain.label.c_str());
    const float lane_top = lanes.top();
    if (!lanes.Next(label, active ? text : dim)) return;
    view->key_lanes.push_back({static_cast<int>(c), lane_top, lane_top + lane_height});
    const float lane_y = lane_top + 0.5f * lane_height;
    const bool this_chain = view->key_chain == static_cast<int>(c);
    auto key = [&](float t) {
      const bool selected = this_chain && std::abs(t - view->key_time) < kSameKeySeconds;
      const bool dragged = selected && view->drag == TimelineView::Drag::kKey;
      const float x = std::floor(axis.X(dragged ? view->key_drag_to : t)) + 0.5f;
      if (selected) Diamond(draw, x, lane_y, r + 2.0f, kSelectedKeyColor);
      Diamond(draw, x, lane_y, r, active || selected ? kTargetKeyColor : dim);
    };
    for (const PointKey& k : chain.target_keys) key(k.time);
    for (const PointKey& k : chain.pole_keys) {
      if (FindKey(chain.target_keys, k.time) < 0) key(k.time);
    }
  }
  timeline::DrawFootLanes(in.feet, &lanes, view);
}

// The keyed target's key under the mouse (last frame's lanes): its chain and time, or false.
bool KeyUnderMouse(const TimelineInput& in, const TimeAxis& axis, const TimelineView& view,
                   float radius, int* chain, float* time) {
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (const TimelineView::KeyLane& lane : view.key_lanes) {
    if (mouse.y < lane.top || mouse.y >= lane.bottom ||
        lane.chain >= static_cast<int>(in.edit.chains.size())) {
      continue;
    }
    const ChainSettings& c = in.edit.chains[size_t(lane.chain)];
    float best = radius + 1.0f;
    for (const std::vector<PointKey>* keys : {&c.target_keys, &c.pole_keys}) {
      for (const PointKey& k : *keys) {
        const float d = std::abs(axis.X(k.time) - mouse.x);
        if (d < best) {
          best = d;
          *chain = lane.chain;
          *time = k.time;
        }
      }
    }
    return best <= radius;
  }
  return false;
}

// The control row: first / previous / play / next / last, loop, the time, frames or seconds, the
// loop range from the playhead.
void DrawControls(const Character& character, float frame_rate, Playback* p, TimelineView* view) {
  const float duration = character.clip(p->clip)->duration;
  if (ImGui::Button("|<")) {
    float start = 0.0f, end = 0.0f;
    PlaybackRange(*p, duration, &start, &end);
    p->time = start;
  }
  Tip("To the start of the loop range (the clip's first frame without one).");
  ImGui::SameLine();
  if (ImGui::Button("<")) StepPlayback(-1, frame_rate, p);
  Tip("Previous frame (Left arrow).");
  ImGui::SameLine();
  if (ImGui::Button(p->playing ? "Pause###play" : "Play###play")) TogglePlaying(character, p);
  Tip("Play or pause (Space).");
  ImGui::SameLine();
  if (ImGui::Button(">")) StepPlayback(1, frame_rate, p);
  Tip("Next frame (Right arrow).");
  ImGui::SameLine();
  if (ImGui::Button(">|")) {
    float start = 0.0f, end = 0.0f;
    PlaybackRange(*p, duration, &start, &end);
    p->time = end;
  }
  Tip("To the end of the loop range (the clip's last frame without one).");
  SameLineIfFits(CheckboxWidth("Loop"));
  ImGui::Checkbox("Loop", &p->loop);
  Tip("Start over at the end of the range; off, playing stops there.");
  char text[96];
  if (view->show_seconds) {
    std::snprintf(text, sizeof(text), "%.3f / %.3f s", double(p->time), double(duration));
  } else {
    std::snprintf(text, sizeof(text), "frame %ld / %ld  (%.0f fps)",
                  std::lround(p->time * frame_rate), std::lround(duration * frame_rate),
                  double(frame_rate));
  }
  SameLineIfFits(ImGui::CalcTextSize(text).x);
  ImGui::TextUnformatted(text);
  SameLineIfFits(ButtonWidth("Seconds"));
  if (ImGui::SmallButton(view->show_seconds ? "Seconds###units" : "Frames###units")) {
    view->show_seconds = !view->show_seconds;
  }
  Tip("Show the time in frames of the clip's rate or in seconds.");
  SameLineIfFits(ButtonWidth("Start here"));
  const bool has_range = p->range_end > p->range_start;
  if (ImGui::SmallButton("Start here")) {
    p->range_start = p->time;
    if (!(p->range_end > p->range_start)) p->range_end = duration;
  }
  Tip("The loop range starts at the playhead (or drag the orange brackets on the ruler).");
  SameLineIfFits(ButtonWidth("End here"));
  if (ImGui::SmallButton("End here")) {
    p->range_end = p->time;
    if (!(p->range_end > p->range_start)) p->range_start = 0.0f;
  }
  Tip("The loop range ends at the playhead.");
  SameLineIfFits(ButtonWidth("Whole clip"));
  ImGui::BeginDisabled(!has_range);
  if (ImGui::SmallButton("Whole clip")) {
    p->range_start = 0.0f;
    p->range_end = -1.0f;
  }
  Tip("Play the whole clip again (no loop range).");
  ImGui::EndDisabled();
}

// The scrub area's mouse: a press on a range bracket moves it, elsewhere it moves the playhead
// (snapped to the clip's frames unless Shift is held), pausing playback while held.
void Scrub(const TimelineInput& in, const TimeAxis& axis, float ruler_bottom, float frame_rate,
           float range_start, float range_end, float key_radius, Playback* p, TimelineView* view,
           Requests* out) {
  const ImGuiIO& io = ImGui::GetIO();
  // A right-click on a key selects it and offers to delete it or go to it.
  int chain = -1;
  float time = 0.0f;
  FootMouse feet(axis, in.feet, view);
  feet.Clicks(out);
  if (ImGui::IsItemHovered() && ImGui::IsMouseClicked(ImGuiMouseButton_Right) && !feet.OverLane() &&
      KeyUnderMouse(in, axis, *view, key_radius, &chain, &time)) {
    view->key_chain = chain;
    view->key_time = time;
    ImGui::OpenPopup("##target key");
  }
  if (ImGui::IsItemActivated() && feet.OverContact()) {
    feet.Press();
    view->was_playing = p->playing;
    p->playing = false;
  } else if (ImGui::IsItemActivated() &&
             KeyUnderMouse(in, axis, *view, key_radius, &chain, &time)) {
    // A press on a key selects it and drags it in time.
    view->drag = TimelineView::Drag::kKey;
    view->key_chain = chain;
    view->key_time = time;
    feet.Deselect();
    view->key_drag_to = time;
    view->was_playing = p->playing;
    p->playing = false;
  } else if (ImGui::IsItemActivated()) {
    if (feet.OverLane()) feet.Deselect();  // a click on an empty foot lane
    const bool has_range = p->range_end > p->range_start;
    const float mx = io.MousePos.x;
    view->drag = TimelineView::Drag::kScrub;
    if (has_range && io.MousePos.y <= ruler_bottom) {
      if (std::abs(mx - axis.X(range_start)) <= kHandleGrab) {
        view->drag = TimelineView::Drag::kRangeStart;
      } else if (std::abs(mx - axis.X(range_end)) <= kHandleGrab) {
        view->drag = TimelineView::Drag::kRangeEnd;
      }
    }
    view->was_playing = p->playing;
    p->playing = false;
  }
  if (ImGui::IsItemActive()) {
    float t = axis.Time(io.MousePos.x);
    if (!io.KeyShift) t = std::round(t * frame_rate) / frame_rate;
    t = std::clamp(t, 0.0f, axis.duration);
    const float frame = 1.0f / frame_rate;
    switch (view->drag) {
      case TimelineView::Drag::kRangeStart:
        p->range_start = std::min(t, p->range_end - frame);
        break;
      case TimelineView::Drag::kRangeEnd:
        p->range_end = std::max(t, p->range_start + frame);
        break;
      case TimelineView::Drag::kKey:
        view->key_drag_to = t;
        break;
      case TimelineView::Drag::kContactEnd:
        feet.DragEnd();
        break;
      case TimelineView::Drag::kContact:
        break;
      default:
        p->time = t;
        break;
    }
  }
  if (ImGui::IsItemDeactivated()) {
    p->playing = view->was_playing;
    if (view->drag == TimelineView::Drag::kKey &&
        std::abs(view->key_drag_to - view->key_time) >= kSameKeySeconds && out) {
      Request moved{RequestKind::kMoveKey, {}, false, view->key_chain};
      moved.time = view->key_time;
      moved.time_to = view->key_drag_to;
      out->push_back(moved);
      view->key_time = view->key_drag_to;  // the selection goes with it
    }
    feet.Release(out);
    view->drag = TimelineView::Drag::kNone;
  }
  if (ImGui::BeginPopup("##target key")) {
    if (ImGui::MenuItem("Delete key", "X") && out) {
      Request deleted{RequestKind::kDeleteKey, {}, false, view->key_chain};
      deleted.time = view->key_time;
      out->push_back(deleted);
    }
    if (ImGui::MenuItem("Go to key")) p->time = view->key_time;
    ImGui::EndPopup();
  }
  feet.Menu(p, out);
  feet.Tooltip();
}

}  // namespace

float TimelineHeight() { return ImGui::GetFontSize() * kHeightEms; }

void DrawTimeline(const TimelineInput& in, Playback* p, TimelineView* view, PanelLayout* layout,
                  Requests* out) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float height = TimelineHeight();
  const float left = layout->panel_right > 0.0f ? layout->panel_right + kMargin : kMargin;
  const float top = display.y - StatusLineHeight() - kMargin - height;
  ImGui::SetNextWindowPos(ImVec2(left, top), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(std::max(display.x - left - kMargin, 240.0f), height),
                           ImGuiCond_Always);
  ImGui::Begin(kTimelineName, nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse);
  layout->timeline_top = top;
  if (!in.character.clip(p->clip)) {
    const bool nothing_loaded = in.model.skeleton.joint_count() == 0 && in.model.meshes.empty();
    ImGui::TextDisabled(nothing_loaded ? "Nothing loaded: open a model to play its clips here."
                        : in.model.clips.empty()
                            ? "This model has no clips: the timeline plays a clip's keys."
                            : "Rest pose: choose a clip in the Animation section to play it "
                              "here.");
    ImGui::End();
    return;
  }
  const assets::Clip& clip = *in.character.clip(p->clip);
  const float frame_rate = std::max(FrameRate(clip, view), 1.0f);
  DrawControls(in.character, frame_rate, p, view);

  // The canvas: lane labels at the left, the ruler on top, the lanes below.
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 size(std::max(avail.x, 100.0f), std::max(avail.y, 2.0f * ImGui::GetFontSize()));
  ImGui::InvisibleButton("##scrub", size);
  // The label column fits the longest lane name, within a share of the track.
  const float label_width =
      std::min(std::max(ImGui::GetFontSize() * kLabelEms, LaneNamesWidth(in, clip) + 12.0f),
               size.x * kMaxLabelShare);
  TimeAxis axis;
  axis.x0 = origin.x + label_width + 6.0f;
  axis.x1 = std::max(origin.x + size.x - 6.0f, axis.x0 + 1.0f);
  axis.duration = clip.duration;
  const float ruler_height = ImGui::GetFontSize() + 6.0f;
  const float ruler_bottom = origin.y + ruler_height;
  float range_start = 0.0f, range_end = clip.duration;
  PlaybackRange(*p, clip.duration, &range_start, &range_end);
  const float lane_height = ImGui::GetFontSize() + 5.0f;
  const float key_radius = std::max(3.0f, lane_height * 0.3f) + 2.0f;
  Tip("Click or drag to move the playhead (snapped to frames; Shift: between frames). Drag the "
      "orange brackets on the ruler to set the loop range, a target's key to move it in time, a "
      "foot contact's end to change it (double-click an empty foot lane to add one).");
  Scrub(in, axis, ruler_bottom, frame_rate, range_start, range_end, key_radius, p, view, out);
  PlaybackRange(*p, clip.duration, &range_start, &range_end);

  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 max(origin.x + size.x, origin.y + size.y);
  draw->AddRectFilled(origin, max, Canvas().canvas);
  draw->PushClipRect(origin, max, true);
  DrawRuler(draw, axis, origin.y, ruler_height, frame_rate, view->show_seconds);
  DrawLanes(in, clip, axis, ImVec2(origin.x, ruler_bottom + 2.0f), label_width, lane_height, max.y,
            view);
  // Outside the loop range darker, its brackets on the ruler.
  if (p->range_end > p->range_start) {
    const float xs = axis.X(range_start), xe = axis.X(range_end);
    draw->AddRectFilled(ImVec2(axis.x0, origin.y), ImVec2(xs, max.y), kOutsideRangeColor);
    draw->AddRectFilled(ImVec2(xe, origin.y), ImVec2(axis.x1, max.y), kOutsideRangeColor);
    for (float x : {xs, xe}) {
      const float dir = x == xs ? 1.0f : -1.0f;
      draw->AddLine(ImVec2(x, origin.y), ImVec2(x, max.y), kRangeColor, 2.0f);
      draw->AddLine(ImVec2(x, origin.y + 1.0f), ImVec2(x + dir * 6.0f, origin.y + 1.0f),
                    kRangeColor, 2.0f);
      draw->AddLine(ImVec2(x, ruler_bottom), ImVec2(x + dir * 6.0f, ruler_bottom), kRangeColor,
                    2.0f);
    }
  }
  const float x = std::floor(axis.X(p->time)) + 0.5f;
  draw->AddLine(ImVec2(x, origin.y), ImVec2(x, max.y), kPlayheadColor, 2.0f);
  draw->AddTriangleFilled(ImVec2(x - 5.0f, origin.y), ImVec2(x + 5.0f, origin.y),
                          ImVec2(x, origin.y + 7.0f), kPlayheadColor);
  draw->PopClipRect();
  ImGui::End();
}

}  // namespace app
