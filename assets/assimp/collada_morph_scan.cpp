// The tag scanner of collada_morphs.cpp: finds a Collada file's morph controllers, their uses and
// its animation samplers and channels in the text, without building a document.
#include "assets/assimp/collada_morph_scan.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

namespace assets {
namespace {

using Tag = ColladaTag;
using Scan = ColladaScan;

// Steps through the tags of an XML text, skipping comments, CDATA, declarations and processing
// instructions. Next() is false at the end or on a tag it cannot follow (then failed() is true).
class TagScanner {
 public:
  explicit TagScanner(std::string_view text) : text_(text) {}

  bool Next(Tag* tag) {
    while (true) {
      const size_t open = text_.find('<', pos_);
      if (open == std::string_view::npos) return false;
      const std::string_view rest = text_.substr(open);
      const char* skip_to = rest.substr(0, 4) == "<!--"        ? "-->"
                            : rest.substr(0, 9) == "<![CDATA[" ? "]]>"
                            : rest.substr(0, 2) == "<?"        ? "?>"
                            : rest.substr(0, 2) == "<!"        ? ">"
                                                               : nullptr;
      if (skip_to) {
        const size_t close = text_.find(skip_to, open);
        if (close == std::string_view::npos) return Fail();
        pos_ = close + std::strlen(skip_to);
        continue;
      }
      return ReadTag(open, tag);
    }
  }
  bool failed() const { return failed_; }
  std::string_view text() const { return text_; }

 private:
  bool Fail() {
    failed_ = true;
    return false;
  }
  static bool Space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
  static bool NameEnd(char c) { return Space(c) || c == '/' || c == '>' || c == '='; }

  bool ReadTag(size_t open, Tag* tag) {
    *tag = Tag();
    tag->begin = open;
    size_t p = open + 1;
    if (p < text_.size() && text_[p] == '/') {
      tag->closing = true;
      ++p;
    }
    const size_t name_begin = p;
    while (p < text_.size() && !NameEnd(text_[p])) ++p;
    tag->name = text_.substr(name_begin, p - name_begin);
    while (true) {
      while (p < text_.size() && Space(text_[p])) ++p;
      if (p >= text_.size()) return Fail();
      if (text_[p] == '>') break;
      if (text_[p] == '/' && p + 1 < text_.size() && text_[p + 1] == '>') {
        tag->self_closing = true;
        ++p;
        break;
      }
      const size_t key_begin = p;
      while (p < text_.size() && !NameEnd(text_[p])) ++p;
      const std::string_view key = text_.substr(key_begin, p - key_begin);
      while (p < text_.size() && Space(text_[p])) ++p;
      if (key.empty() || p >= text_.size() || text_[p] != '=') return Fail();
      ++p;
      while (p < text_.size() && Space(text_[p])) ++p;
      if (p >= text_.size() || (text_[p] != '"' && text_[p] != '\'')) return Fail();
      const size_t close = text_.find(text_[p], p + 1);
      if (close == std::string_view::npos) return Fail();
      tag->attributes[key] = text_.substr(p + 1, close - p - 1);
      p = close + 1;
    }
    tag->end = p + 1;
    pos_ = tag->end;
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0;
  bool failed_ = false;
};

std::string_view Attribute(const Tag& tag, std::string_view key) {
  const auto found = tag.attributes.find(key);
  return found == tag.attributes.end() ? std::string_view() : found->second;
}

// A local URL "#id" as its id; empty for anything else.
std::string_view LocalId(std::string_view url) {
  return url.size() > 1 && url[0] == '#' ? url.substr(1) : std::string_view();
}

std::vector<std::string_view> Words(std::string_view text) {
  std::vector<std::string_view> words;
  size_t p = 0;
  while (p < text.size()) {
    while (p < text.size() && std::strchr(" \t\r\n", text[p])) ++p;
    const size_t begin = p;
    while (p < text.size() && !std::strchr(" \t\r\n", text[p])) ++p;
    if (p > begin) words.push_back(text.substr(begin, p - begin));
  }
  return words;
}

// Numbers of a <float_array>; false on a word that is no finite number.
bool Floats(std::string_view text, std::vector<float>* values) {
  values->clear();
  for (std::string_view word : Words(text)) {
    float v = 0.0f;
    const auto result = std::from_chars(word.data(), word.data() + word.size(), v);
    if (result.ec != std::errc() || result.ptr != word.data() + word.size() || !std::isfinite(v)) {
      return false;
    }
    values->push_back(v);
  }
  return true;
}

// Reads one <controller> (its start tag just read) into scan->morphs when it holds a <morph>.
bool ReadController(TagScanner* scanner, const Tag& start, Scan* scan) {
  ColladaMorph morph;
  morph.controller_id = std::string(Attribute(start, "id"));
  bool is_morph = false;
  std::string source_id;
  std::map<std::string, std::string_view> source_texts;  // <source> id -> its array's text
  std::map<std::string, std::string> array_ids;          // <source> id -> its array's id
  std::string target_source, weight_source;
  Tag tag;
  while (scanner->Next(&tag)) {
    if (tag.closing && tag.name == "controller") {
      if (!is_morph) return true;
      const auto targets = source_texts.find(target_source);
      if (targets != source_texts.end()) {
        for (std::string_view id : Words(targets->second)) morph.target_geometries.emplace_back(id);
      }
      morph.weight_source = weight_source;
      morph.weight_array = array_ids[weight_source];
      const auto weights = source_texts.find(weight_source);
      if (weights == source_texts.end() || !Floats(weights->second, &morph.weights)) {
        morph.weights.clear();
      }
      scan->morphs.push_back(std::move(morph));
      scan->controller_ranges.emplace_back(start.begin, tag.end);
      return true;
    }
    if (tag.closing) continue;
    if (tag.name == "skin") {
      scan->skins.emplace_back(tag, std::string(LocalId(Attribute(tag, "source"))));
    } else if (tag.name == "morph") {
      is_morph = true;
      morph.base_geometry = std::string(LocalId(Attribute(tag, "source")));
      morph.relative = Attribute(tag, "method") == "RELATIVE";
    } else if (tag.name == "source") {
      source_id = std::string(Attribute(tag, "id"));
    } else if ((tag.name == "float_array" || tag.name == "IDREF_array" ||
                tag.name == "Name_array") &&
               !tag.self_closing) {
      const std::string_view text = scanner->text();
      const size_t close = text.find('<', tag.end);
      if (close == std::string_view::npos) return false;
      source_texts[source_id] = text.substr(tag.end, close - tag.end);
      array_ids[source_id] = std::string(Attribute(tag, "id"));
    } else if (tag.name == "input") {
      const std::string_view semantic = Attribute(tag, "semantic");
      const std::string id(LocalId(Attribute(tag, "source")));
      if (semantic == "MORPH_TARGET") target_source = id;
      if (semantic == "MORPH_WEIGHT") weight_source = id;
    }
  }
  return false;
}

// An INTERPOLATION name as skelview plays it.
ColladaInterpolation InterpolationNamed(std::string_view name) {
  return name == "LINEAR"    ? ColladaInterpolation::kLinear
         : name == "STEP"    ? ColladaInterpolation::kStep
         : name == "BEZIER"  ? ColladaInterpolation::kBezier
         : name == "HERMITE" ? ColladaInterpolation::kHermite
                             : ColladaInterpolation::kOther;
}

// The INTERPOLATION names of a sampler (its source's id; empty for none) into *track.
void ReadInterpolations(const Scan& scan, const std::string& source, ColladaWeightTrack* track) {
  if (source.empty()) return;  // the spec's default: every key LINEAR
  const auto names = scan.arrays.find(source);
  const std::vector<std::string_view> words =
      names == scan.arrays.end() ? std::vector<std::string_view>() : Words(names->second);
  if (words.size() != track->times.size()) {
    track->interpolations_unread = true;
    return;
  }
  track->interpolations.reserve(words.size());
  for (std::string_view word : words) {
    track->interpolations.push_back(InterpolationNamed(word));
    if (track->interpolations.back() == ColladaInterpolation::kOther &&
        track->other_interpolation.empty()) {
      track->other_interpolation = std::string(word);
    }
  }
}

// The numbers and stride of a tangent source (its id; empty for none); stride 0 when missing or
// unreadable. Without an accessor stride, 2 when it holds two numbers per key, else 1.
void ReadTangents(const Scan& scan, const std::string& source, size_t keys,
                  std::vector<float>* points, size_t* stride) {
  *stride = 0;
  const auto text = source.empty() ? scan.arrays.end() : scan.arrays.find(source);
  if (text == scan.arrays.end() || !Floats(text->second, points)) {
    points->clear();
    return;
  }
  const auto given = scan.strides.find(source);
  *stride = given != scan.strides.end() ? given->second : points->size() == 2 * keys ? 2 : 1;
}

}  // namespace

bool ScanColladaDocument(std::string_view text, Scan* scan) {
  TagScanner scanner(text);
  Tag tag;
  std::vector<size_t> open_instances;  // indices into scan->instances awaiting their end tag
  std::string source_id, sampler_id;   // the <source> and <sampler> being read
  while (scanner.Next(&tag)) {
    if (!tag.closing && tag.name == "controller" && !tag.self_closing) {
      if (!ReadController(&scanner, tag, scan)) return false;
    } else if (!tag.closing && tag.name == "geometry") {
      const std::string id(Attribute(tag, "id"));
      const std::string_view name = Attribute(tag, "name");
      scan->geometry_names[id] = name.empty() ? id : std::string(name);
    } else if (tag.name == "instance_controller") {
      if (!tag.closing) {
        Scan::Instance instance;
        instance.start = tag;
        instance.controller = std::string(LocalId(Attribute(tag, "url")));
        scan->instances.push_back(instance);
        if (!tag.self_closing) open_instances.push_back(scan->instances.size() - 1);
      } else if (!open_instances.empty()) {
        Scan::Instance& instance = scan->instances[open_instances.back()];
        instance.end_begin = tag.begin;
        instance.end_end = tag.end;
        open_instances.pop_back();
      }
    } else if (!tag.closing && tag.name == "channel") {
      scan->channels.emplace_back(tag, std::string(Attribute(tag, "target")));
      scan->channel_samplers.emplace_back(LocalId(Attribute(tag, "source")));
    } else if (!tag.closing && tag.name == "source") {
      source_id = std::string(Attribute(tag, "id"));
    } else if (!tag.closing && tag.name == "accessor") {
      const std::string_view stride = Attribute(tag, "stride");
      size_t n = 0;
      const auto parsed = std::from_chars(stride.data(), stride.data() + stride.size(), n);
      if (parsed.ec == std::errc() && parsed.ptr == stride.data() + stride.size() && n > 0) {
        scan->strides[source_id] = n;
      }
    } else if (!tag.closing && (tag.name == "float_array" || tag.name == "Name_array") &&
               !tag.self_closing) {
      const size_t close = text.find('<', tag.end);
      if (close == std::string_view::npos) return false;
      scan->arrays[source_id] = scan->arrays[std::string(Attribute(tag, "id"))] =
          text.substr(tag.end, close - tag.end);
    } else if (!tag.closing && tag.name == "sampler") {
      sampler_id = std::string(Attribute(tag, "id"));
    } else if (!tag.closing && tag.name == "input" && !sampler_id.empty()) {
      const std::string_view semantic = Attribute(tag, "semantic");
      const std::string id(LocalId(Attribute(tag, "source")));
      ColladaSampler& sampler = scan->samplers[sampler_id];
      if (semantic == "INPUT") sampler.input = id;
      if (semantic == "OUTPUT") sampler.output = id;
      if (semantic == "INTERPOLATION") sampler.interpolation = id;
      if (semantic == "IN_TANGENT") sampler.in_tangent = id;
      if (semantic == "OUT_TANGENT") sampler.out_tangent = id;
    } else if (tag.closing && tag.name == "sampler") {
      sampler_id.clear();
    } else if (tag.closing && tag.name == "library_visual_scenes") {
      scan->visual_scenes_end = tag.begin;
    } else if (!tag.closing && tag.name == "instance_visual_scene") {
      scan->scene_instance = tag;
      scan->has_scene_instance = true;
    }
  }
  return !scanner.failed() && open_instances.empty();
}

bool ColladaWeightTarget(const std::string& target, const std::vector<ColladaMorph>& morphs,
                         size_t* morph, size_t* index) {
  const size_t slash = target.rfind('/');
  const std::string tail = slash == std::string::npos ? target : target.substr(slash + 1);
  const size_t open = tail.find('(');
  if (open == std::string::npos || tail.size() < open + 3 || tail.back() != ')') return false;
  const std::string_view digits(tail.data() + open + 1, tail.size() - open - 2);
  size_t i = 0;
  const auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), i);
  if (parsed.ec != std::errc() || parsed.ptr != digits.data() + digits.size()) return false;
  const std::string name = tail.substr(0, open);
  for (size_t m = 0; m < morphs.size(); ++m) {
    if (!name.empty() && (name == morphs[m].weight_source || name == morphs[m].weight_array) &&
        i < morphs[m].target_geometries.size()) {
      *morph = m;
      *index = i;
      return true;
    }
  }
  return false;
}

bool ReadColladaWeightKeys(const Scan& scan, const std::string& sampler,
                           ColladaWeightTrack* track) {
  const auto found = scan.samplers.find(sampler);
  if (found == scan.samplers.end()) return false;
  const ColladaSampler& inputs = found->second;
  const auto times = scan.arrays.find(inputs.input);
  const auto values = scan.arrays.find(inputs.output);
  if (times == scan.arrays.end() || values == scan.arrays.end() ||
      !Floats(times->second, &track->times) || !Floats(values->second, &track->values) ||
      track->times.empty() || track->times.size() != track->values.size()) {
    return false;
  }
  for (size_t k = 1; k < track->times.size(); ++k) {
    if (!(track->times[k] > track->times[k - 1])) return false;
  }
  ReadInterpolations(scan, inputs.interpolation, track);
  const bool curved = std::any_of(
      track->interpolations.begin(), track->interpolations.end(), [](ColladaInterpolation i) {
        return i == ColladaInterpolation::kBezier || i == ColladaInterpolation::kHermite;
      });
  if (curved) {
    const size_t keys = track->times.size();
    ReadTangents(scan, inputs.in_tangent, keys, &track->in_tangents, &track->in_stride);
    ReadTangents(scan, inputs.out_tangent, keys, &track->out_tangents, &track->out_stride);
  }
  return true;
}

}  // namespace assets
