// Parsing of the command line's value formats (--ik specs, --size, numbers), separate from CLI11 so
// each format is unit-tested. Every parser returns false with a message naming the bad argument.
#pragma once

#include <glm/glm.hpp>
#include <optional>
#include <string>
#include <vector>

namespace app {

// One `--ik END[@T]=X,Y,Z[,pole=X,Y,Z][,weight=W][,soft=S][,hinge|,nohinge][,body]` argument.
// Positions are in the scene's world space as loaded. `END@T=...` is a key: the target (and the
// pole) at clip time T seconds; repeated per key, they animate the target between the keys
// (ParseConstraints checks them together).
struct IkSpec {
  std::string end;            // end-effector joint name
  std::optional<float> time;  // @T: a key at this clip time (seconds)
  glm::vec3 target{0.0f};
  std::optional<glm::vec3> pole;
  float weight = 1.0f;  // 0..1
  float soft = 0.0f;    // 0..1, fraction of the chain length eased near full extension
  // The knee or elbow bends one way, about the bend its rest pose shows. Unset (the default, as in
  // the window): on where the rest pose shows a bend, off for a straight chain; `hinge` asks for it
  // on any chain (a straight one then reports hinge_axis_unusable), `nohinge` turns it off.
  std::optional<bool> hinge;
  // `body`: when the target is beyond the limb's reach, the body (hips, spine) moves to bring it
  // within reach (full-body IK). END must be the end of an arm or leg.
  bool body = false;
};

bool ParseIkSpec(const std::string& text, IkSpec* out, std::string* error);

// One `--pin JOINT[@T][=X,Y,Z][,weight=W]`: holds JOINT where the pose has it (or at the world
// point) while the body moves. JOINT is a hand or foot, a joint of the body (hips, spine, chest,
// neck, head) or an arm's or leg's first joint. `weight` (> 0, at most 1000) ranks pins that cannot
// all hold. `JOINT@T=X,Y,Z` is a key of the pin's point at clip time T seconds (repeated per key).
struct PinSpec {
  std::string joint;
  std::optional<float> time;        // @T: a key at this clip time (seconds)
  std::optional<glm::vec3> target;  // world space
  float weight = 1.0f;
};
bool ParsePinSpec(const std::string& text, PinSpec* out, std::string* error);

// Splits `NAME@T` into the name and the key time when what follows the last '@' reads as a number
// (a joint name may hold '@' itself: "a@b" stays a name). False with "--ik 'L@nan=...': the key
// time 'nan' is not a finite number of seconds" in *error (`option` and `text` name the argument)
// when it reads as a number that is not finite or not within +-1e9 seconds.
bool SplitKeyTime(const std::string& option, const std::string& text, std::string* name,
                  std::optional<float>* time, std::string* error);

// One `--move JOINT=X,Y,Z`: places a joint of the body at the world point, before everything else
// (the root or the hips move the whole body; pinned hands and feet re-solve).
struct MoveSpec {
  std::string joint;
  glm::vec3 target{0.0f};  // world space
};
bool ParseMoveSpec(const std::string& text, MoveSpec* out, std::string* error);

// `--body [hips=W][,tilt=W][,spine=W][,turn=DEG][,iterations=N]`: how much each part of the body
// helps in full-body IK (weights in [0, 1000], 0: that part stays), the most a body joint may turn
// (degrees, 0 to 180) and the iteration cap (1 to 100). Unset keys keep ik::FullBodyOptions'
// defaults.
struct BodySpec {
  std::optional<float> hips, tilt, spine, turn_degrees;
  std::optional<int> iterations;
};
bool ParseBodySpec(const std::string& text, BodySpec* out, std::string* error);

// One `--aim BONE=X,Y,Z[,...]` or `--aim BONE=JOINT[,...]` argument: point BONE (from its joint
// toward its child, or along axis=) at a world point or at another joint. Options: weight=W,
// spread=N (ancestors sharing the turn), falloff=F, up=X,Y,Z (a world point the bone's up side
// faces, so it does not roll), axis=X,Y,Z (the pointing axis in the bone's own frame).
struct AimSpec {
  std::string bone;
  std::optional<glm::vec3> target;  // world space
  std::string target_joint;         // when the target is a joint
  float weight = 1.0f;
  int spread = 0;
  float falloff = 0.5f;
  std::optional<glm::vec3> up;
  std::optional<glm::vec3> axis;
};
bool ParseAimSpec(const std::string& text, AimSpec* out, std::string* error);

// One `--fabrik ROOT:END=X,Y,Z[,tolerance=T][,iterations=N]` argument: the chain from ROOT down
// to END reaches for the world target. Joint names may themselves contain ':' ("mixamorig:Hips");
// `chain` keeps "ROOT:END" whole and the split is resolved against the skeleton.
struct FabrikSpec {
  std::string chain;
  glm::vec3 target{0.0f};
  float tolerance = 1e-4f;  // fraction of the chain's length
  int iterations = 64;
};
bool ParseFabrikSpec(const std::string& text, FabrikSpec* out, std::string* error);

// One `--limit JOINT=hinge,AX,AY,AZ,MIN,MAX` or `--limit JOINT=cone,ANGLE[,TWISTMIN,TWISTMAX]`:
// a joint limit relative to the rest pose, angles in degrees (the hinge axis and the cone's
// bone axis in the joint's own frame; the cone's axis is the bone's).
struct LimitSpec {
  std::string joint;
  bool hinge = true;
  glm::vec3 axis{1.0f, 0.0f, 0.0f};
  float min_degrees = -180.0f, max_degrees = 180.0f;  // hinge
  float cone_degrees = 180.0f;                        // cone
  float twist_min_degrees = -180.0f, twist_max_degrees = 180.0f;
};
bool ParseLimitSpec(const std::string& text, LimitSpec* out, std::string* error);

// "WxH" with whole numbers 1 <= W, H <= kMaxSizeArgument (a bound on what is worth trying; the
// real cap is what the OpenGL driver can render, checked once a context exists: CheckImageSize).
inline constexpr int kMaxSizeArgument = 32768;
bool ParseSize(const std::string& text, int* width, int* height, std::string* error);

// Checks a --size against the largest image the current GL context can render (max_side pixels a
// side, GlContext::MaxImageSide); false with "--size 20000x10: larger than the 16384x16384 pixels
// this OpenGL driver can render" in *error.
bool CheckImageSize(int width, int height, int max_side, std::string* error);

// SDL 2 refuses to create a window wider or taller than this ("Window is too large"), whatever the
// OpenGL driver could render.
inline constexpr int kMaxWindowSide = 16384;

// Checks the viewer's --size against kMaxWindowSide; false with "--size 20000x10: larger than the
// 16384x16384 pixels SDL opens a window at" in *error.
bool CheckWindowSize(int width, int height, std::string* error);

// A finite float, the whole string.
bool ParseFloat(const std::string& text, float* out);

// The largest coordinate (of a target, pole, pin or move, in the scene's units) the command line
// takes: models are held to the same bound (assets::kMaxCoordinate). Beyond it the solvers' float
// arithmetic loses all precision (1e30 squared overflows), so it is refused, naming the option.
inline constexpr float kMaxCoordinateArgument = 1.0e7f;

// A coordinate: ParseFloat within [-kMaxCoordinateArgument, kMaxCoordinateArgument].
bool ParseCoordinate(const std::string& text, float* out);

// The value of a numeric option (`option` names it in messages, e.g. "--frames"): a whole number
// written in decimal digits (optional sign), the whole string, within [min, max]. False with
// "--frames '0': expected a whole number from 1 to 100000" in *error.
bool ParseWholeNumber(const std::string& option, const std::string& text, long min, long max,
                      long* out, std::string* error);

// --anim: one clip number, or several joined with '+' to play together ("0+1"), each a whole
// number from 0, in the order given. False with "--anim '0+x': expected clip numbers from 0, one
// or several joined with + (e.g. 0+1)" in *error.
bool ParseAnimList(const std::string& text, std::vector<int>* clips, std::string* error);

// --time: a finite number of seconds (any sign; clamping into a clip is ClampClipTime's job).
// False with "--time 'nan': expected a finite number of seconds" in *error.
bool ParseSeconds(const std::string& option, const std::string& text, float* out,
                  std::string* error);

// `time` clamped into a clip of `duration` seconds, [0, duration]. When that changes it, *note
// receives what to tell the user ("--time -5: clamped to 0 (clip 'Walk' runs from 0 to 1.2 s)");
// otherwise *note is cleared.
float ClampClipTime(float time, float duration, const std::string& clip_name, std::string* note);

}  // namespace app
