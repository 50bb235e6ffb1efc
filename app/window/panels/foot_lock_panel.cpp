// Foot lock and Ground: the Lock feet toggle with the numbers before and after, the contact
// selected on the timeline's foot lanes, and the ground the lock stands the feet on.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app/window/panels/panel_util.h"

namespace app {

namespace {

const char* const kGroundKinds[] = {"Plane", "Ramp", "Stairs", "Mesh file"};

// The --ground SPEC of the Ground section's widgets ("" for a mesh without a path).
std::string GroundSpec(const FeetView& v) {
  char text[96];
  switch (v.kind) {
    case 1:
      std::snprintf(text, sizeof(text), "ramp,degrees=%g", double(v.degrees));
      return text;
    case 2:
      std::snprintf(text, sizeof(text), "stairs,step=%g,depth=%g", double(v.step), double(v.depth));
      return text;
    case 3:
      return v.mesh_path;
    default:
      if (v.y == 0.0f) return "plane";
      std::snprintf(text, sizeof(text), "plane,y=%g", double(v.y));
      return text;
  }
}

void NumbersRow(const char* what, float before, float after, bool locked, const char* unit) {
  if (locked) {
    ImGui::Text("%-12s %7.1f -> %.1f %s", what, double(before), double(after), unit);
  } else {
    ImGui::Text("%-12s %7.1f %s", what, double(before), unit);
  }
}

// The centre of the last item, when it is on screen (else -1).
glm::vec2 ItemCentre() {
  if (!ImGui::IsItemVisible()) return glm::vec2(-1.0f);
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  return glm::vec2(0.5f * (lo.x + hi.x), 0.5f * (lo.y + hi.y));
}

void DrawGround(FeetView* v, Requests* out) {
  v->kind_px = v->mesh_item_px = v->browse_px = glm::vec2(-1.0f);
  const bool open = ImGui::CollapsingHeader("Ground", ImGuiTreeNodeFlags_DefaultOpen);
  Tip("The ground the foot lock stands planted feet on (as `--ground SPEC` on the command line); "
      "drawn in the view unless it is the authored floor.");
  if (!open) return;
  bool changed = false;
  const bool combo = ImGui::BeginCombo("Ground##kind", kGroundKinds[v->kind]);
  v->kind_px = ItemCentre();
  Tip("Plane: level at a height. Ramp: y = z tan(degrees), rising along +Z. Stairs: steps of a "
      "height every depth along +Z. Mesh file: the triangles of a .glb or .gltf.");
  if (combo) {
    for (int k = 0; k < 4; ++k) {
      if (ImGui::Selectable(kGroundKinds[k], v->kind == k)) {
        v->kind = k;
        changed = true;
      }
      if (k == 3) v->mesh_item_px = ItemCentre();
    }
    ImGui::EndCombo();
  }
  switch (v->kind) {
    case 1:
      ImGui::SliderFloat("Slope", &v->degrees, -45.0f, 45.0f, "%.1f deg");
      changed |= ImGui::IsItemDeactivatedAfterEdit();
      Tip("The ramp's slope, degrees (positive: rising toward +Z).");
      break;
    case 2:
      ImGui::DragFloat("Step", &v->step, 0.005f, -2.0f, 2.0f, "%.3f");
      changed |= ImGui::IsItemDeactivatedAfterEdit();
      Tip("Each step's height, world units.");
      ImGui::DragFloat("Depth", &v->depth, 0.005f, 0.05f, 10.0f, "%.3f");
      changed |= ImGui::IsItemDeactivatedAfterEdit();
      Tip("Each step's depth along +Z, world units.");
      break;
    case 3: {
      char path[512];
      std::snprintf(path, sizeof(path), "%s", v->mesh_path.c_str());
      const char* browse = "Browse...";
      const float browse_width =
          ImGui::CalcTextSize(browse).x + 2.0f * ImGui::GetStyle().FramePadding.x;
      ImGui::SetNextItemWidth(
          std::max(ImGui::CalcItemWidth() - browse_width - ImGui::GetStyle().ItemInnerSpacing.x,
                   4.0f * ImGui::GetFontSize()));
      if (ImGui::InputText("##ground_file", path, sizeof(path),
                           ImGuiInputTextFlags_EnterReturnsTrue)) {
        changed = true;
      }
      v->mesh_path = path;
      Tip("A .glb or .gltf whose triangles are the ground (its rest pose, world units); Enter "
          "loads it (in the background: the ground in effect stays until it is in).");
      ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
      if (ImGui::Button(browse)) Ask(out, RequestKind::kBrowseGround);
      v->browse_px = ItemCentre();
      Tip("Choose the ground mesh in a file browser (.glb and .gltf files).");
      ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
      ImGui::TextUnformatted("File");
      if (v->mesh_path.empty()) changed = false;
      break;
    }
    default:
      ImGui::DragFloat("Height##ground", &v->y, 0.005f, -100.0f, 100.0f, "%.3f");
      changed |= ImGui::IsItemDeactivatedAfterEdit();
      Tip("The plane's height, world units (0: the clip's own floor).");
      break;
  }
  if (changed && v->kind != 3) {
    const std::string spec = GroundSpec(*v);
    if (spec != v->ground_spec) Ask(out, RequestKind::kSetGround, spec);
  } else if (changed) {
    Ask(out, RequestKind::kSetGround, v->mesh_path);
  }
  ImGui::TextDisabled("ground: %s", v->ground_spec.c_str());
  if (!v->ground_loading.empty()) {  // the button first: a long name wraps after it
    if (ImGui::SmallButton("Cancel##ground")) Ask(out, RequestKind::kCancelGround);
    Tip("Stop reading the mesh; the ground stays as it is.");
    ImGui::SameLine();
    ImGui::TextDisabled("loading %s ...",
                        std::filesystem::path(v->ground_loading).filename().string().c_str());
    Tip(v->ground_loading.c_str());
  }
}

}  // namespace

void DrawFootLockPanel(FeetView* feet, Requests* out) {
  FeetView& v = *feet;
  const bool open = ImGui::CollapsingHeader("Foot lock", ImGuiTreeNodeFlags_DefaultOpen);
  Tip("Find the clip's foot contacts and hold each planted foot where it landed, sole on the "
      "ground, with the two-bone solver (as `export --bake --lock-feet`).");
  if (open) {
    if (!v.ready) {
      ImGui::TextDisabled("%s",
                          v.error.empty() ? "Play a clip to lock its feet." : v.error.c_str());
    } else {
      bool locked = v.locked;
      if (ImGui::Checkbox("Lock feet", &locked)) {
        Request lock;
        lock.kind = RequestKind::kLockFeet;
        lock.option = locked;
        out->push_back(lock);
      }
      Tip("Lock the planted feet of this clip (Animation > Lock feet); off: the clip as authored. "
          "The timeline's foot lanes show the contacts: drag a bar's end, double-click an empty "
          "lane to add one, select one and press X or Delete to remove it.");
      const FeetNumbers& b = v.report.before;
      const FeetNumbers& a = v.report.after;
      ImGui::TextDisabled(v.locked ? "source -> locked" : "source (lock to compare)");
      NumbersRow("skate max", b.max_skate_mm, a.max_skate_mm, v.locked, "mm");
      NumbersRow("skate mean", b.mean_skate_mm, a.mean_skate_mm, v.locked, "mm");
      NumbersRow("penetration", b.penetration_mm, a.penetration_mm, v.locked, "mm");
      NumbersRow("float", b.float_mm, a.float_mm, v.locked, "mm");
      NumbersRow("knee step", b.knee_step_deg, a.knee_step_deg, v.locked, "deg/frame");
      if (v.locked) ImGui::Text("knee jump    %7.1f deg/frame", double(v.report.knee_jump_deg));
      Tip("The largest change the lock made to a knee angle's step between frames.");
      if (v.leg >= 0 && v.leg < static_cast<int>(v.contacts.size()) && v.contact >= 0 &&
          v.contact < static_cast<int>(v.contacts[size_t(v.leg)].size())) {
        const FeetView::Contact& c = v.contacts[size_t(v.leg)][size_t(v.contact)];
        ImGui::Separator();
        ImGui::Text("%s contact %d: %.3f-%.3f s", v.feet[size_t(v.leg)].c_str(), v.contact + 1,
                    double(c.start), double(c.end));
        if (c.locked_skate_mm >= 0.0f) {
          ImGui::Text("skate %.1f mm (locked %.1f mm)", double(c.skate_mm),
                      double(c.locked_skate_mm));
        } else {
          ImGui::Text("skate %.1f mm", double(c.skate_mm));
        }
        ImGui::Text("height %.1f mm, sinks %.1f mm, floats %.1f mm", double(c.height_mm),
                    double(c.sink_mm), double(c.float_mm));
        if (ImGui::SmallButton("Delete contact")) {
          Request deleted{RequestKind::kEditContact, "delete", false, v.leg};
          deleted.contact = v.contact;
          out->push_back(deleted);
        }
      }
    }
  }
  DrawGround(feet, out);
}

}  // namespace app
