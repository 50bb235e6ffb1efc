// Compiling and linking GLSL. Shader files have no #version line: the compiler prepends
// "#version 330 core" and the ATTRIB_* locations, expands `#include "file.glsl"`, and emits #line
// directives so that driver messages can be rewritten to name the file and line they came from.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "renderer/gl_object.h"

namespace renderer {

enum class ShaderStage { kVertex, kGeometry, kFragment };

// Returns the text of an included file by the name written in `#include "name"`, or nullopt when
// there is none. The default resolver looks the name up among the embedded shaders/ files.
using IncludeResolver = std::function<std::optional<std::string>(std::string_view name)>;
std::optional<std::string> EmbeddedInclude(std::string_view name);

// A driver's compile log with every location rewritten to name its file: source string F (set by
// the #line directives the compiler emits; `files[F]`, or "<source F>" when out of range) at line
// L. Mesa writes "F:L(C): error: ...", NVIDIA "F(L) : error C1503: ..."; both become
// "<file>:L: error..." with the rest of the driver's wording kept ("error: ..." or
// "error C1503: ..."). Blank lines are dropped; lines of other shapes pass through.
std::string RewriteShaderLog(std::string_view log, const std::vector<std::string>& files);

// Compiles one stage from source text. `file_name` is how messages refer to the text (e.g.
// "shaders/skinned.vert"); included files are named "shaders/<name>". On failure returns an empty
// object and sets *error to the driver's log with every location rewritten as
// "<file>:<line>: error..." (RewriteShaderLog), lines counted from 1 in that file. A missing
// include is reported the same way, at the line of the #include.
ShaderObject CompileShader(ShaderStage stage, std::string_view source, std::string_view file_name,
                           std::string* error, const IncludeResolver& resolve = EmbeddedInclude);

// Names of embedded shader files (in shaders/) making one program.
struct ProgramFiles {
  std::string vertex;    // e.g. "skinned.vert"; required
  std::string geometry;  // "" for none
  std::string fragment;  // "" for none (a transform-feedback-only program)
  // Vertex outputs captured by transform feedback, interleaved into one buffer in this order.
  std::vector<std::string> feedback_varyings;
};

// A linked program. Move-only; destroy before the context.
class Program {
 public:
  Program() = default;

  // Compiles the embedded files and links them. Fails (nullopt, message in *error) when a file is
  // not embedded, a stage does not compile (message as CompileShader's) or linking fails
  // (message names the files).
  static std::optional<Program> FromFiles(const ProgramFiles& files, std::string* error);

  // Links already compiled stages; `label` names the program in the error message.
  static std::optional<Program> Link(const std::vector<const ShaderObject*>& stages,
                                     const std::vector<std::string>& feedback_varyings,
                                     std::string_view label, std::string* error);

  GLuint id() const { return program_.id(); }
  explicit operator bool() const { return static_cast<bool>(program_); }
  void Use() const { glUseProgram(program_.id()); }
  // Location of a uniform, or -1 when the program has none of that name (or it was optimized out;
  // setting -1 is a silent no-op in GL).
  GLint Uniform(const char* name) const { return glGetUniformLocation(program_.id(), name); }

 private:
  explicit Program(ProgramObject program) : program_(std::move(program)) {}
  ProgramObject program_;
};

}  // namespace renderer
