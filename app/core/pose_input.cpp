// Loading a model for a command or the viewer, and the constraint arguments turned into requests.
#include "app/core/pose_input.h"

#include <cstdlib>

#include "app/core/args.h"
#include "app/core/body_solve.h"
#include "app/core/import_process.h"
#include "assets/builtin/builtin_character.h"
#include "assets/files/text.h"
#include "assets/importer.h"

namespace app {

bool ParseConstraints(const PoseArgs& args, const Character& character,
                      ConstraintRequests* requests, std::string* error_out) {
  std::string& error = *error_out;
  const assets::Model& model = character.model();
  const ik::Skeleton& skeleton = model.skeleton;
  std::vector<IkSpec> specs;
  for (const std::string& text : args.ik) {
    IkSpec spec;
    if (!ParseIkSpec(text, &spec, &error)) return false;
    specs.push_back(spec);
  }
  if (!ResolveIkSpecs(character, specs, &requests->ik, &error)) return false;
  std::vector<MorphSpec> morphs;
  for (const std::string& text : args.morph) {
    MorphSpec spec;
    if (!ParseMorphSpec(text, &spec, &error)) return false;
    morphs.push_back(spec);
  }
  if (!ResolveMorphSpecs(model, morphs, &requests->morph, &error)) return false;
  std::vector<AimSpec> aims;
  for (const std::string& text : args.aim) {
    AimSpec spec;
    if (!ParseAimSpec(text, &spec, &error)) return false;
    aims.push_back(spec);
  }
  std::vector<FabrikSpec> fabriks;
  for (const std::string& text : args.fabrik) {
    FabrikSpec spec;
    if (!ParseFabrikSpec(text, &spec, &error)) return false;
    fabriks.push_back(spec);
  }
  std::vector<LimitSpec> limits;
  for (const std::string& text : args.limit) {
    LimitSpec spec;
    if (!ParseLimitSpec(text, &spec, &error)) return false;
    limits.push_back(spec);
  }
  if (!ResolveConstraintSpecs(skeleton, aims, fabriks, limits, requests, &error)) {
    return false;
  }
  std::vector<PinSpec> pins;
  for (const std::string& text : args.pin) {
    PinSpec spec;
    if (!ParsePinSpec(text, &spec, &error)) return false;
    pins.push_back(spec);
  }
  std::vector<MoveSpec> moves;
  for (const std::string& text : args.move) {
    MoveSpec spec;
    if (!ParseMoveSpec(text, &spec, &error)) return false;
    moves.push_back(spec);
  }
  std::optional<BodySpec> body;
  if (!args.body.empty()) {
    body.emplace();
    if (!ParseBodySpec(args.body, &*body, &error)) return false;
  }
  return ResolveBodySpecs(character, specs, pins, moves, body, requests, &error);
}

bool LoadModelOrBuiltin(const std::string& path, bool allow_outside_files, bool raw_units,
                        assets::Model* model, std::string* error, ImportServer* server,
                        bool texture_pixels) {
  if (path.empty()) {
    *model = assets::MakeBuiltinCharacter();
    return true;
  }
  // In a worker process, so that a file crashing the importer cannot take skelview down;
  // SKELVIEW_IMPORT_INPROCESS=1 imports here instead (for debugging the importer).
  if (const char* inprocess = std::getenv("SKELVIEW_IMPORT_INPROCESS");
      inprocess && *inprocess == '1') {
    assets::LoadOptions options;
    options.allow_outside_files = allow_outside_files;
    options.raw_units = raw_units;
    options.texture_pixels = texture_pixels;
    assets::LoadResult result = assets::LoadModel(path, options);
    if (!result.ok()) {
      *error = result.error;
      return false;
    }
    *model = std::move(*result.model);
    return true;
  }
  ImportLimits limits;
  limits.server = server;
  limits.texture_pixels = texture_pixels;
  limits.allow_outside_files = allow_outside_files;
  limits.raw_units = raw_units;
  return ImportIsolated(path, model, error, limits);
}

bool ValidateAnim(int anim, const assets::Model& model, bool rest_allowed, std::string* why) {
  const int clip_count = static_cast<int>(model.clips.size());
  if ((anim >= 0 && anim < clip_count) || (rest_allowed && anim == -1)) return true;
  if (why) {
    const std::string rest = rest_allowed ? " (-1: the rest pose)" : "";
    *why = "--anim " + std::to_string(anim) + ": " + assets::ShownPath(model.source) +
           (clip_count == 0 ? " has no animation clips"
                            : " has " + std::to_string(clip_count) + " clip(s), numbered 0 to " +
                                  std::to_string(clip_count - 1)) +
           rest;
  }
  return false;
}

bool ResolveAnim(const PoseArgs& args, Character* character, int* clip, std::string* why) {
  std::vector<int> clips = {args.anim.value_or(0)};
  clips.insert(clips.end(), args.anim_together.begin(), args.anim_together.end());
  for (int c : clips) {
    if (!ValidateAnim(c, character->model(), false, why)) return false;
  }
  *clip = character->PlayTogether(clips);
  return true;
}

}  // namespace app
