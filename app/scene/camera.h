// Orbit camera of the viewer and the screen <-> world math built on it (pure math, no window):
// orbit about a target, pan, zoom, frame a bounding box, cursor rays, projecting points to pixels.
#pragma once

#include <glm/glm.hpp>
#include <string>

namespace app {

struct Ray {
  glm::vec3 origin{0.0f};
  glm::vec3 direction{0.0f, 0.0f, -1.0f};  // unit length
};

// Pixel coordinates have their origin at the window's top-left corner, x right, y down.
struct Viewport {
  int width = 1;
  int height = 1;
  float aspect() const { return height > 0 ? float(width) / float(height) : 1.0f; }
};

class OrbitCamera {
 public:
  // World up is +Y. Yaw turns about +Y, pitch tilts toward +Y; both in radians.
  glm::vec3 target{0.0f, 1.0f, 0.0f};
  float yaw = 0.5f;
  float pitch = 0.25f;
  float distance = 3.5f;
  float fov_y = glm::radians(40.0f);
  // Horizontal shift of the view centre in normalised device units (0 = centred; 0.25 puts the
  // target a quarter of the half-width right of the middle), so a side panel does not cover it.
  float lens_shift_ndc = 0.0f;
  // Vertical shift likewise (0.2 puts the target a fifth of the half-height above the middle), so
  // the timeline at the bottom does not cover it.
  float lens_shift_y_ndc = 0.0f;
  // How much of the viewport's half-width and half-height about the shifted centre the panels
  // leave free (1: all of it, as far as the shift allows); Frame fits boxes into that part.
  float free_half_width = 1.0f;
  float free_half_height = 1.0f;
  // Orthographic: parallel projection showing as much as the perspective view shows at the
  // target's distance (2·distance·tan(fov_y/2) world units tall), so zoom still works.
  bool ortho = false;

  glm::vec3 Eye() const;
  glm::vec3 Forward() const;  // unit vector from the eye toward the target
  glm::mat4 View() const;
  // Near and far planes follow the distance so models of any unit (cm or m) are not clipped.
  glm::mat4 Projection(float aspect) const;

  // Mouse-driven moves, in pixels of the given viewport.
  void Orbit(float dx_px, float dy_px);
  void Pan(float dx_px, float dy_px, const Viewport& viewport);
  // Positive steps zoom in (wheel up); each step changes the distance by ~12%.
  void Zoom(float steps);
  // Aims at the box's centre and backs off so the whole box fits the view (its free part).
  void Frame(const glm::vec3& box_min, const glm::vec3& box_max, float aspect);
};

// The part of the viewport that the panels leave uncovered, drawable pixels (top-left origin).
struct FreeArea {
  float left = 0.0f, top = 0.0f, right = 0.0f, bottom = 0.0f;
};

// Centres the camera's view in `free` (lens shifts) and sets the free half-extents that Frame
// fits boxes into, so that the model is framed where it can be seen, whatever the panels cover.
// In a direction where the free part is under kMinFreeShare of the viewport (a panel over
// nearly everything) the whole viewport is used instead.
inline constexpr float kMinFreeShare = 0.15f;
void CentreOnFreeArea(const Viewport& viewport, const FreeArea& free, OrbitCamera* camera);

// Looking along an axis, as Blender's numpad views (glTF's frame: +Y up, a character facing +Z):
// front from +Z, back from -Z, right from +X, left from -X, top from +Y, bottom from -Y.
enum class ViewPreset { kFront, kBack, kLeft, kRight, kTop, kBottom };
const char* ViewPresetName(ViewPreset preset);  // "front", "back", ...
// "front", "back", "left", "right", "top" or "bottom"; false for anything else.
bool ParseViewPreset(const std::string& text, ViewPreset* out);
// Turns the camera to look along the preset's axis (yaw and pitch only; target and distance stay).
void LookAlong(ViewPreset preset, OrbitCamera* camera);

// Follow root: moves the camera's target by the horizontal (x, z) displacement of the root from
// `previous_root` to `root` (both world space), so that a character walking away stays in view;
// the height and the camera's angles and distance stay. Non-finite positions change nothing.
void FollowRoot(const glm::vec3& previous_root, const glm::vec3& root, OrbitCamera* camera);

// The ray through pixel (x, y) (top-left origin) for the given view and projection.
Ray RayFromPixel(const glm::mat4& view, const glm::mat4& projection, const Viewport& viewport,
                 float x, float y);

// The pixel (top-left origin) where a world point appears; false when it is behind the camera.
bool ProjectToPixel(const glm::mat4& view, const glm::mat4& projection, const Viewport& viewport,
                    const glm::vec3& world, glm::vec2* pixel);

}  // namespace app
