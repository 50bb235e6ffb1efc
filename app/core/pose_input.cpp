// Loading a model for a command or the viewer, and the constraint arguments turned into requests.
#include "app/core/pose_input.h"

#include <cstdio>
#include <cstdlib>

#include "app/core/args.h"
#include "app/core/body_solve.h"
#include "app/core/import_process.h"
#include "assets/builtin/builtin_character.h"
#include "assets/files/text.h"
#include "assets/importer.h"

namespace app {

namespace {

// Whether two keys of one target give the same options (everything but the time and points).
bool SameOptions(const IkSpec& a, const IkSpec& b) {
  return a.pole.has_value() == b.pole.has_value() && a.weight == b.weight && a.soft == b.soft &&
         a.hinge == b.hinge && a.body == b.body;
}

// Gathers `END@T=...` arguments (`texts`, parsed into `specs`) into one spec per END with its
// keys; unkeyed arguments stay as they are. `name` picks a spec's joint name, `same` compares
// options, `point` and `pole` read a spec's values. Fails naming the argument on a duplicate time,
// keys whose options differ, or END given both keyed and not.
template <typename Spec, typename Name, typename Same, typename Point, typename Pole>
bool GroupKeys(const char* option, const std::vector<std::string>& texts,
               const std::vector<Spec>& specs, Name name, Same same, Point point, Pole pole,
               std::vector<Spec>* out, std::vector<std::vector<PointKey>>* target_keys,
               std::vector<std::vector<PointKey>>* pole_keys, std::string* error) {
  // *out, *target_keys and *pole_keys start empty (the caller's).
  std::vector<int> keyed_from;  // per out entry: the argument that began it, or -1
  for (size_t i = 0; i < specs.size(); ++i) {
    const Spec& spec = specs[i];
    auto fail = [&](const std::string& why) {
      *error = std::string(option) + " '" + assets::ShownArgument(texts[i]) + "': " + why;
      return false;
    };
    size_t g = 0;
    while (g < out->size() && name((*out)[g]) != name(spec)) ++g;
    const bool found = g < out->size();
    if (found && (keyed_from[g] >= 0) != spec.time.has_value()) {
      return fail(assets::ShownArgument(name(spec)) +
                  " is given both with key times (@T) and without");
    }
    if (!found || !spec.time) {  // a new target (an unkeyed one given twice: ResolveBodySpecs')
      out->push_back(spec);
      target_keys->emplace_back();
      pole_keys->emplace_back();
      keyed_from.push_back(spec.time ? static_cast<int>(i) : -1);
      g = out->size() - 1;
    } else if (!same((*out)[g], spec)) {
      return fail("a key's options must be those of the first key of " +
                  assets::ShownArgument(name(spec)) + " ('" +
                  assets::ShownArgument(texts[size_t(keyed_from[g])]) + "')");
    } else if (FindKey((*target_keys)[g], *spec.time) >= 0) {
      char seconds[32];
      std::snprintf(seconds, sizeof(seconds), "%g", double(*spec.time));
      return fail(assets::ShownArgument(name(spec)) + " has two keys at " + seconds + " s");
    }
    if (!spec.time) continue;
    SetKey(&(*target_keys)[g], *spec.time, point(spec));
    if (const std::optional<glm::vec3> p = pole(spec)) SetKey(&(*pole_keys)[g], *spec.time, *p);
  }
  // Each keyed target starts from its earliest key.
  for (size_t g = 0; g < out->size(); ++g) {
    if (keyed_from[g] < 0) continue;
    const PointKey& earliest = (*target_keys)[g].front();
    for (size_t i = 0; i < specs.size(); ++i) {
      if (name(specs[i]) == name((*out)[g]) && specs[i].time && *specs[i].time == earliest.time) {
        (*out)[g] = specs[i];
      }
    }
  }
  return true;
}

}  // namespace

bool ParseConstraints(const PoseArgs& args, const Character& character,
                      ConstraintRequests* requests, std::string* error_out) {
  std::string& error = *error_out;
  const assets::Model& model = character.model();
  const ik::Skeleton& skeleton = model.skeleton;
  std::vector<IkSpec> given;
  for (const std::string& text : args.ik) {
    IkSpec spec;
    if (!ParseIkSpec(text, &spec, &error)) return false;
    given.push_back(spec);
  }
  // Keys of one END (END@T=...) become one request whose target the keys animate.
  std::vector<IkSpec> specs;
  std::vector<std::vector<PointKey>> ik_keys, ik_pole_keys;
  if (!GroupKeys(
          "--ik", args.ik, given, [](const IkSpec& s) { return s.end; }, SameOptions,
          [](const IkSpec& s) { return s.target; }, [](const IkSpec& s) { return s.pole; }, &specs,
          &ik_keys, &ik_pole_keys, &error)) {
    return false;
  }
  if (!ResolveIkSpecs(character, specs, &requests->ik, &error)) return false;
  requests->keyed.clear();
  for (size_t i = 0; i < specs.size(); ++i) {
    if (ik_keys[i].empty()) continue;
    requests->keyed.push_back({false, static_cast<int>(i), ik_keys[i], ik_pole_keys[i]});
  }
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
  std::vector<PinSpec> given_pins;
  for (const std::string& text : args.pin) {
    PinSpec spec;
    if (!ParsePinSpec(text, &spec, &error)) return false;
    given_pins.push_back(spec);
  }
  std::vector<PinSpec> pins;
  std::vector<std::vector<PointKey>> pin_keys, no_pole_keys;
  if (!GroupKeys(
          "--pin", args.pin, given_pins, [](const PinSpec& s) { return s.joint; },
          [](const PinSpec& a, const PinSpec& b) { return a.weight == b.weight; },
          [](const PinSpec& s) { return s.target.value_or(glm::vec3(0.0f)); },
          [](const PinSpec&) { return std::optional<glm::vec3>(); }, &pins, &pin_keys,
          &no_pole_keys, &error)) {
    return false;
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
  if (!ResolveBodySpecs(character, specs, pins, moves, body, requests, &error)) return false;
  // Pins follow the moves among the body's effectors (ResolveBodySpecs).
  for (size_t i = 0; i < pins.size(); ++i) {
    if (pin_keys[i].empty()) continue;
    requests->keyed.push_back({true, static_cast<int>(moves.size() + i), pin_keys[i], {}});
  }
  return true;
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
