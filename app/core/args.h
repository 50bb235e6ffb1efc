// Parsing of the command line's value formats (--ik specs, --size), separate from CLI11 so each
// format is unit-tested. Every parser returns false with a message naming the bad argument.
#pragma once

#include <glm/glm.hpp>
#include <optional>
#include <string>

namespace app {

// One `--ik END=X,Y,Z[,pole=X,Y,Z][,weight=W][,soft=S][,hinge]` argument. Positions are in the
// scene's world space as loaded.
struct IkSpec {
  std::string end;  // end-effector joint name
  glm::vec3 target{0.0f};
  std::optional<glm::vec3> pole;
  float weight = 1.0f;  // 0..1
  float soft = 0.0f;    // 0..1, fraction of the chain length eased near full extension
  bool hinge = false;
};

bool ParseIkSpec(const std::string& text, IkSpec* out, std::string* error);

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

// "WxH" with 1 <= W, H <= 16384.
bool ParseSize(const std::string& text, int* width, int* height, std::string* error);

// A finite float, the whole string.
bool ParseFloat(const std::string& text, float* out);

}  // namespace app
