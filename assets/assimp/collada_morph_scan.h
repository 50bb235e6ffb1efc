// The scan of a Collada file's text that finds what Assimp 5.2.5 cannot read (morph controllers,
// their uses and the animation channels of their weights) for collada_morphs.cpp. Internal to
// assets/.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "assets/assimp/collada_morphs.h"

namespace assets {

// One start or end tag of the document; the views point into the scanned text.
struct ColladaTag {
  size_t begin = 0;  // offset of '<'
  size_t end = 0;    // offset after '>'
  std::string_view name;
  bool closing = false;
  bool self_closing = false;
  std::map<std::string_view, std::string_view> attributes;
};

// The inputs of an animation <sampler>: <source> ids by semantic (empty when absent).
struct ColladaSampler {
  std::string input, output, interpolation, in_tangent, out_tangent;
};

// What the scan collects; the views point into the scanned text.
struct ColladaScan {
  std::vector<ColladaMorph> morphs;  // without base_name and target_names (the plan adds them)
  std::vector<std::pair<size_t, size_t>> controller_ranges;  // of each morph controller
  std::map<std::string, std::string> geometry_names;         // id -> name (id without one)
  // <instance_controller> tags (start, and end when not self-closing) with their url's id.
  struct Instance {
    ColladaTag start;
    size_t end_begin = 0, end_end = 0;
    std::string controller;
  };
  std::vector<Instance> instances;
  std::vector<std::pair<ColladaTag, std::string>> skins;     // <skin> start tags, their source's id
  std::vector<std::pair<ColladaTag, std::string>> channels;  // <channel> tags and their target
  std::vector<std::string> channel_samplers;                 // each channel's sampler id
  // Outside controllers: <source> id (and array id) -> the text of its <float_array> or
  // <Name_array>, and <source> id -> its accessor's stride (when it gives one).
  std::map<std::string, std::string_view> arrays;
  std::map<std::string, size_t> strides;
  std::map<std::string, ColladaSampler> samplers;     // by id
  size_t visual_scenes_end = std::string_view::npos;  // offset of </library_visual_scenes>
  ColladaTag scene_instance;                          // <instance_visual_scene>
  bool has_scene_instance = false;
};

// Scans the whole document `text` into *scan; false when it is not XML the scan can follow (a
// tag cut off or malformed, an <instance_controller> never closed).
bool ScanColladaDocument(std::string_view text, ColladaScan* scan);

// The morph and target a channel's target names: "WEIGHTS(i)" after an optional "NODE/", WEIGHTS
// a morph's MORPH_WEIGHT source or array id. False for other targets.
bool ColladaWeightTarget(const std::string& target, const std::vector<ColladaMorph>& morphs,
                         size_t* morph, size_t* index);

// Reads the keys of a weight channel's sampler (its id) into *track: times, values, and per key
// the INTERPOLATION and the IN_TANGENT / OUT_TANGENT points. False when the times or values are
// missing, differ in count, are not finite or do not increase in time; a problem with the rest
// is marked in *track (see ColladaWeightTrack) and played linearly.
bool ReadColladaWeightKeys(const ColladaScan& scan, const std::string& sampler,
                           ColladaWeightTrack* track);

}  // namespace assets
