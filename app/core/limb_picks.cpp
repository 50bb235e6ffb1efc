// The limbs the user fixed, per model file.
#include "app/core/limb_picks.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "app/core/json_output.h"
#include "app/core/settings.h"
#include "assets/files/file_output.h"
#include "assets/files/text.h"

namespace app {

namespace {

const ik::Limb* LimbLabelled(const Character& character, const std::string& label) {
  for (const ik::Limb& limb : character.limbs()) {
    if (limb.label == label) return &limb;
  }
  return nullptr;
}

bool SameJoints(const ik::TwoBoneChain& a, const ik::TwoBoneChain& b) {
  return a.start == b.start && a.mid == b.mid && a.end == b.end;
}

constexpr int kFormat = 1;

}  // namespace

std::string LimbPickKey(const std::string& model_path) {
  if (model_path.empty()) return {};
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(model_path, ec);
  return ec ? model_path : absolute.lexically_normal().string();
}

void LoadLimbPicks(const std::string& path, LimbPickStore* store, std::string* warning) {
  *store = LimbPickStore();
  warning->clear();
  const std::string kind = "a limbs file (an object with \"models\")";
  Json json;
  std::string problem;
  if (!ReadConfigObject(path, &json, &problem, kind)) {
    *warning = assets::ShownPath(path) + ": " + problem + "; no limb fixes remembered";
    return;
  }
  if (json.is_null()) return;  // no file: nothing remembered
  const auto found = json.find("models");
  const Json* models = found != json.end() && found->is_object() ? &*found : nullptr;
  if (!models) {
    *warning = assets::ShownPath(path) + ": not " + kind + "; no limb fixes remembered";
    return;
  }
  int skipped = 0;
  for (const auto& [model, limbs] : models->items()) {
    if (!limbs.is_object()) {
      ++skipped;
      continue;
    }
    for (const auto& [label, joints] : limbs.items()) {
      const auto name = [&](const char* key, std::string* out) {
        const auto it = joints.find(key);
        if (it == joints.end() || !it->is_string()) return false;
        *out = it->get<std::string>();
        return !out->empty();
      };
      LimbJointNames names;
      if (joints.is_object() && name("start", &names.start) && name("mid", &names.mid) &&
          name("end", &names.end)) {
        store->models[model][label] = names;
      } else {
        ++skipped;
      }
    }
  }
  if (skipped > 0) {
    *warning = assets::ShownPath(path) + ": " + std::to_string(skipped) + " entr" +
               (skipped == 1 ? "y" : "ies") + " without start, mid and end joint names skipped";
  }
}

bool SaveLimbPicks(const std::string& path, const LimbPickStore& store, std::string* error) {
  if (path.empty()) return true;
  Json json;
  json["skelview_limbs"] = kFormat;
  Json& models = json["models"] = Json::object();
  for (const auto& [model, limbs] : store.models) {
    if (limbs.empty()) continue;
    Json& entry = models[model] = Json::object();
    for (const auto& [label, names] : limbs) {
      entry[label] = {{"start", names.start}, {"mid", names.mid}, {"end", names.end}};
    }
  }
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  const std::string text = DumpJson(json, 2) + "\n";
  std::string reason;
  if (!assets::WriteFileAtomically(path, text.data(), text.size(), &reason)) {
    *error = "cannot save the limb fixes: " + reason;
    return false;
  }
  return true;
}

std::vector<ik::LimbPick> PicksFor(const LimbPickStore& store, const std::string& model_path,
                                   const ik::Skeleton& skeleton,
                                   std::vector<std::string>* problems) {
  std::vector<ik::LimbPick> picks;
  const auto model = store.models.find(LimbPickKey(model_path));
  if (model == store.models.end()) return picks;
  for (const auto& [label, names] : model->second) {
    ik::LimbPick pick;
    pick.label = label;
    pick.chain = {skeleton.Find(names.start), skeleton.Find(names.mid), skeleton.Find(names.end)};
    const std::string* missing = pick.chain.start < 0 ? &names.start
                                 : pick.chain.mid < 0 ? &names.mid
                                 : pick.chain.end < 0 ? &names.end
                                                      : nullptr;
    if (missing) {
      if (problems) problems->push_back(label + ": no joint named '" + *missing + "'");
      continue;
    }
    picks.push_back(pick);
  }
  return picks;
}

void RememberPick(LimbPickStore* store, const std::string& model_path, const std::string& label,
                  const ik::Skeleton& skeleton, const ik::TwoBoneChain* chain) {
  const std::string key = LimbPickKey(model_path);
  if (key.empty()) return;
  if (!chain) {
    const auto model = store->models.find(key);
    if (model == store->models.end()) return;
    model->second.erase(label);
    if (model->second.empty()) store->models.erase(model);
    return;
  }
  store->models[key][label] = {skeleton.name(chain->start), skeleton.name(chain->mid),
                               skeleton.name(chain->end)};
}

void ChainsFollowLimb(const Character& character, const std::string& label,
                      std::vector<ChainSettings>* chains) {
  for (const ChainSettings& made : DefaultChains(character)) {
    const bool body = made.kind == ConstraintKind::kBody;
    if (!body && made.label != label) continue;
    auto same = std::find_if(chains->begin(), chains->end(),
                             [&](const ChainSettings& c) { return c.label == made.label; });
    if (same == chains->end()) {
      chains->push_back(made);
    } else {
      same->chain = made.chain;
    }
  }
}

std::vector<std::string> PicksFollowChains(const Character& character,
                                           const std::vector<ChainSettings>& chains,
                                           const std::string& model_path, LimbPickStore* store) {
  std::vector<std::string> changed;
  std::optional<Character> detected;  // the rig's limbs without picks, made when first needed
  for (const ChainSettings& chain : chains) {
    if (chain.kind != ConstraintKind::kTwoBone) continue;
    const ik::Limb* limb = LimbLabelled(character, chain.label);
    if (limb == nullptr || SameJoints(limb->chain, chain.chain)) continue;
    if (!detected) detected.emplace(character.model());
    const ik::Limb* found = LimbLabelled(*detected, chain.label);
    const bool as_detected = found != nullptr && SameJoints(found->chain, chain.chain);
    RememberPick(store, model_path, chain.label, character.skeleton(),
                 as_detected ? nullptr : &chain.chain);
    changed.push_back(chain.label);
  }
  return changed;
}

}  // namespace app
