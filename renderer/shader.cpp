// Shader preprocessing (prelude, includes, #line bookkeeping), compiling, linking and rewriting
// driver logs so they name shaders/<file>:<line>.
#include "renderer/shader.h"

#include <cctype>

#include "renderer/shader_sources.h"
#include "renderer/vertex_layout.h"

namespace renderer {

namespace {

constexpr int kMaxIncludeDepth = 8;

std::string Prelude() {
  struct Define {
    const char* name;
    GLuint value;
  };
  static constexpr Define kDefines[] = {
      {"ATTRIB_POSITION", attrib::kPosition},
      {"ATTRIB_NORMAL", attrib::kNormal},
      {"ATTRIB_UV", attrib::kUv},
      {"ATTRIB_JOINTS", attrib::kJoints},
      {"ATTRIB_WEIGHTS", attrib::kWeights},
      {"ATTRIB_EXTRA_JOINTS", attrib::kExtraJoints},
      {"ATTRIB_EXTRA_WEIGHTS", attrib::kExtraWeights},
      {"ATTRIB_WEIGHT_FLAGS", attrib::kWeightFlags},
      {"ATTRIB_COLOR", attrib::kColor},
      {"ATTRIB_WIDTH", attrib::kWidth},
      {"ATTRIB_AXIS", attrib::kAxis},
      {"ATTRIB_OFFSET", attrib::kOffset},
      {"MORPH_ENTRIES_PER_PASS", kMorphEntriesPerPass},
  };
  std::string text;
  for (const Define& d : kDefines)
    text += std::string("#define ") + d.name + " " + std::to_string(d.value) + "\n";
  return text;
}

// If `line` is `#include "name"` (spaces allowed around '#'), stores the name and returns true.
bool ParseInclude(std::string_view line, std::string* name) {
  size_t i = 0;
  auto skip_space = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  };
  skip_space();
  if (i >= line.size() || line[i] != '#') return false;
  ++i;
  skip_space();
  if (line.substr(i, 7) != "include") return false;
  i += 7;
  skip_space();
  if (i >= line.size() || line[i] != '"') return false;
  const size_t end = line.find('"', i + 1);
  if (end == std::string_view::npos) return false;
  *name = std::string(line.substr(i + 1, end - i - 1));
  return true;
}

// Expands includes of `source` (source string number `file_index` in `files`, its first line
// numbered `first_line`) into *out, with "#line N F" after every switch of file so driver messages
// carry the original file and line. GLSL 3.30 defines "#line N" as "the next line is line N".
bool Expand(std::string_view source, int file_index, int first_line, int depth,
            const IncludeResolver& resolve, std::vector<std::string>* files, std::string* out,
            std::string* error) {
  int line_number = first_line - 1;
  size_t pos = 0;
  while (pos < source.size()) {
    size_t end = source.find('\n', pos);
    if (end == std::string_view::npos) end = source.size();
    const std::string_view line = source.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    std::string name;
    if (!ParseInclude(line, &name)) {
      out->append(line);
      out->push_back('\n');
      continue;
    }
    const std::string where = (*files)[file_index] + ":" + std::to_string(line_number) + ": ";
    if (depth >= kMaxIncludeDepth) {
      *error = where + "error: includes nested deeper than " + std::to_string(kMaxIncludeDepth) +
               " (an include cycle?)";
      return false;
    }
    std::optional<std::string> text = resolve ? resolve(name) : std::nullopt;
    if (!text) {
      *error = where + "error: cannot include \"" + name + "\": no such shader file";
      return false;
    }
    const int included_index = static_cast<int>(files->size());
    files->push_back("shaders/" + name);
    *out += "#line 1 " + std::to_string(included_index) + "\n";
    if (!Expand(*text, included_index, 1, depth + 1, resolve, files, out, error)) return false;
    *out += "#line " + std::to_string(line_number + 1) + " " + std::to_string(file_index) + "\n";
  }
  return true;
}

// Reads a decimal number at text[*i], advancing *i.
bool ReadNumber(std::string_view text, size_t* i, int* value) {
  const size_t start = *i;
  int v = 0;
  while (*i < text.size() && std::isdigit(static_cast<unsigned char>(text[*i]))) {
    v = v * 10 + (text[*i] - '0');
    ++*i;
  }
  *value = v;
  return *i > start;
}

// Rewrites one log line. Mesa writes "F:L(C): error: ...", NVIDIA "F(L) : error ...", where F is
// the source string number set by #line. Lines of other shapes pass through.
std::string RewriteLogLine(std::string_view line, const std::vector<std::string>& files) {
  size_t i = 0;
  int file = 0, line_number = 0, column = 0;
  if (!ReadNumber(line, &i, &file)) return std::string(line);
  if (i < line.size() && line[i] == ':') {  // Mesa
    ++i;
    if (!ReadNumber(line, &i, &line_number)) return std::string(line);
    if (i < line.size() && line[i] == '(') {
      ++i;
      if (!ReadNumber(line, &i, &column) || i >= line.size() || line[i] != ')')
        return std::string(line);
      ++i;
    }
  } else if (i < line.size() && line[i] == '(') {  // NVIDIA
    ++i;
    if (!ReadNumber(line, &i, &line_number) || i >= line.size() || line[i] != ')')
      return std::string(line);
    ++i;
    while (i < line.size() && line[i] == ' ') ++i;
  } else {
    return std::string(line);
  }
  if (i >= line.size() || line[i] != ':') return std::string(line);
  ++i;
  while (i < line.size() && line[i] == ' ') ++i;
  const std::string name = file >= 0 && file < static_cast<int>(files.size())
                               ? files[file]
                               : "<source " + std::to_string(file) + ">";
  return name + ":" + std::to_string(line_number) + ": " + std::string(line.substr(i));
}

}  // namespace

std::string RewriteShaderLog(std::string_view log, const std::vector<std::string>& files) {
  std::string result;
  size_t pos = 0;
  while (pos < log.size()) {
    size_t end = log.find('\n', pos);
    if (end == std::string_view::npos) end = log.size();
    const std::string_view line = log.substr(pos, end - pos);
    pos = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    if (!result.empty()) result += '\n';
    result += RewriteLogLine(line, files);
  }
  return result;
}

namespace {

GLenum StageEnum(ShaderStage stage) {
  switch (stage) {
    case ShaderStage::kVertex:
      return GL_VERTEX_SHADER;
    case ShaderStage::kGeometry:
      return GL_GEOMETRY_SHADER;
    case ShaderStage::kFragment:
      return GL_FRAGMENT_SHADER;
  }
  return GL_VERTEX_SHADER;
}

std::string ShaderLog(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<size_t>(length > 0 ? length : 0), '\0');
  if (length > 0) glGetShaderInfoLog(shader, length, nullptr, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::string ProgramLog(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<size_t>(length > 0 ? length : 0), '\0');
  if (length > 0) glGetProgramInfoLog(program, length, nullptr, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

}  // namespace

std::optional<std::string> EmbeddedInclude(std::string_view name) {
  const std::string_view text = ShaderSource(name);
  if (text.empty()) return std::nullopt;
  return std::string(text);
}

ShaderObject CompileShader(ShaderStage stage, std::string_view source, std::string_view file_name,
                           std::string* error, const IncludeResolver& resolve) {
  std::vector<std::string> files{std::string(file_name)};
  // Source string 0 is the file itself; its text starts at line 1 after the prelude. A file that
  // brings its own #version keeps it (its line 1) and is continued from line 2.
  std::string version_line = "#version 330 core";
  std::string_view body = source;
  int first_line = 1;
  if (body.substr(0, 8) == "#version") {
    const size_t end = body.find('\n');
    version_line = std::string(body.substr(0, end));
    body = end == std::string_view::npos ? std::string_view() : body.substr(end + 1);
    first_line = 2;
  }
  std::string text =
      version_line + "\n" + Prelude() + "#line " + std::to_string(first_line) + " 0\n";
  if (!Expand(body, 0, first_line, 0, resolve, &files, &text, error)) return {};

  ShaderObject shader(glCreateShader(StageEnum(stage)));
  if (!shader) {
    *error = std::string(file_name) + ": error: glCreateShader failed";
    return {};
  }
  const char* pointer = text.c_str();
  const GLint length = static_cast<GLint>(text.size());
  glShaderSource(shader.id(), 1, &pointer, &length);
  glCompileShader(shader.id());
  GLint ok = GL_FALSE;
  glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &ok);
  if (!ok) {
    *error = RewriteShaderLog(ShaderLog(shader.id()), files);
    if (error->empty()) *error = std::string(file_name) + ": error: compilation failed (no log)";
    return {};
  }
  return shader;
}

std::optional<Program> Program::Link(const std::vector<const ShaderObject*>& stages,
                                     const std::vector<std::string>& feedback_varyings,
                                     std::string_view label, std::string* error) {
  ProgramObject program(glCreateProgram());
  if (!program) {
    *error = std::string(label) + ": error: glCreateProgram failed";
    return std::nullopt;
  }
  for (const ShaderObject* stage : stages) glAttachShader(program.id(), stage->id());
  if (!feedback_varyings.empty()) {
    std::vector<const char*> names;
    for (const std::string& v : feedback_varyings) names.push_back(v.c_str());
    glTransformFeedbackVaryings(program.id(), static_cast<GLsizei>(names.size()), names.data(),
                                GL_INTERLEAVED_ATTRIBS);
  }
  glLinkProgram(program.id());
  for (const ShaderObject* stage : stages) glDetachShader(program.id(), stage->id());
  GLint ok = GL_FALSE;
  glGetProgramiv(program.id(), GL_LINK_STATUS, &ok);
  if (!ok) {
    *error = "linking " + std::string(label) + " failed: " + ProgramLog(program.id());
    return std::nullopt;
  }
  return Program(std::move(program));
}

std::optional<Program> Program::FromFiles(const ProgramFiles& files, std::string* error) {
  struct Stage {
    ShaderStage stage;
    const std::string* name;
  };
  const Stage stages[] = {{ShaderStage::kVertex, &files.vertex},
                          {ShaderStage::kGeometry, &files.geometry},
                          {ShaderStage::kFragment, &files.fragment}};
  std::vector<ShaderObject> compiled;
  std::string label;
  for (const Stage& s : stages) {
    if (s.name->empty()) {
      if (s.stage == ShaderStage::kVertex) {
        *error = "a program needs a vertex shader";
        return std::nullopt;
      }
      continue;
    }
    const std::string path = "shaders/" + *s.name;
    const std::string_view source = ShaderSource(*s.name);
    if (source.empty()) {
      *error = path + ": error: no such embedded shader file";
      return std::nullopt;
    }
    ShaderObject shader = CompileShader(s.stage, source, path, error);
    if (!shader) return std::nullopt;
    compiled.push_back(std::move(shader));
    if (!label.empty()) label += " + ";
    label += path;
  }
  std::vector<const ShaderObject*> pointers;
  for (const ShaderObject& s : compiled) pointers.push_back(&s);
  return Link(pointers, files.feedback_varyings, label, error);
}

}  // namespace renderer
