// Shader compilation: messages name file and line, includes, every embedded shader builds, and
// the GL loader refuses old contexts.
#include "renderer/shader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "renderer/renderer.h"
#include "renderer/shader_sources.h"
#include "tests/renderer/gl_test_context.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

class ShaderTest : public rendertest::GlTest {};

// True when a line of `log` (the first line only, with `first_line`) reports an error at `file`
// line `line` in any conforming driver's wording once rewritten: "file:line: error: ..." (Mesa,
// and our own include errors) or "file:line: error C1503: ..." (NVIDIA's, with its code).
bool HasErrorAt(const std::string& log, const std::string& file, int line,
                bool first_line = false) {
  const std::string head = file + ":" + std::to_string(line) + ": error";
  size_t start = 0;
  while (start <= log.size()) {
    size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    const std::string text = log.substr(start, end - start);
    if (text.compare(0, head.size(), head) == 0) {
      // After "error": either ":" directly, or " " + capitals + digits + ":" (a driver's code).
      size_t i = head.size();
      if (i < text.size() && text[i] == ' ') {
        size_t j = i + 1;
        while (j < text.size() && std::isupper(static_cast<unsigned char>(text[j]))) ++j;
        const size_t letters_end = j;
        while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
        if (letters_end > i + 1 && j > letters_end) i = j;
      }
      if (i < text.size() && text[i] == ':') return true;
    }
    if (first_line) return false;
    start = end + 1;
  }
  return false;
}

TEST(ShaderLog, MesaAndNvidiaWordingsBothNameFileAndLine) {
  const std::vector<std::string> files = {"shaders/broken.frag", "shaders/helpers.glsl"};
  const std::string mesa = renderer::RewriteShaderLog(
      "0:4(16): error: `undeclared_name' undeclared\n"
      "1:2(26): error: `missing_thing' undeclared\n",
      files);
  EXPECT_EQ(mesa,
            "shaders/broken.frag:4: error: `undeclared_name' undeclared\n"
            "shaders/helpers.glsl:2: error: `missing_thing' undeclared");
  const std::string nvidia = renderer::RewriteShaderLog(
      "0(4) : error C1503: undefined variable \"undeclared_name\"\n"
      "\n"
      "1(2) : error C1008: undefined variable \"missing_thing\"\n",
      files);
  EXPECT_EQ(nvidia,
            "shaders/broken.frag:4: error C1503: undefined variable \"undeclared_name\"\n"
            "shaders/helpers.glsl:2: error C1008: undefined variable \"missing_thing\"");
  for (const std::string& log : {mesa, nvidia}) {
    EXPECT_TRUE(HasErrorAt(log, "shaders/broken.frag", 4, /*first_line=*/true)) << log;
    EXPECT_TRUE(HasErrorAt(log, "shaders/helpers.glsl", 2)) << log;
    EXPECT_FALSE(HasErrorAt(log, "shaders/broken.frag", 5)) << log;
    EXPECT_FALSE(HasErrorAt(log, "shaders/helpers.glsl", 2, /*first_line=*/true)) << log;
  }
  // A string number the compiler did not get from us, and lines of other shapes, pass through.
  EXPECT_EQ(renderer::RewriteShaderLog("7(3) : warning C7050: x\nlink failed", files),
            "<source 7>:3: warning C7050: x\nlink failed");
}

constexpr char kValidFragment[] =
    "out vec4 color;\n"
    "void main() { color = vec4(1.0); }\n";

TEST_F(ShaderTest, ValidSourceCompiles) {
  std::string error;
  renderer::ShaderObject shader = renderer::CompileShader(
      renderer::ShaderStage::kFragment, kValidFragment, "shaders/ok.frag", &error);
  EXPECT_TRUE(shader) << error;
}

TEST_F(ShaderTest, CompileErrorNamesFileAndLine) {
  const char* source =
      "out vec4 color;\n"
      "void main() {\n"
      "  float x = 1.0;\n"
      "  color = vec4(undeclared_name, x, x, 1.0);\n"  // line 4
      "}\n";
  std::string error;
  renderer::ShaderObject shader = renderer::CompileShader(renderer::ShaderStage::kFragment, source,
                                                          "shaders/broken.frag", &error);
  EXPECT_FALSE(shader);
  EXPECT_TRUE(HasErrorAt(error, "shaders/broken.frag", 4, /*first_line=*/true)) << error;
  EXPECT_THAT(error, HasSubstr("undeclared_name"));
}

TEST_F(ShaderTest, ErrorLineCountsFromOneWhenTheFileHasItsOwnVersion) {
  const char* source =
      "#version 330 core\n"
      "out vec4 color;\n"
      "void main() {\n"
      "  color = vec4(1.0) +;\n"  // line 4
      "}\n";
  std::string error;
  EXPECT_FALSE(
      renderer::CompileShader(renderer::ShaderStage::kFragment, source, "own.frag", &error));
  EXPECT_TRUE(HasErrorAt(error, "own.frag", 4, /*first_line=*/true)) << error;
}

TEST_F(ShaderTest, ErrorInIncludedFileNamesTheIncludedFile) {
  const std::map<std::string, std::string> files = {
      {"helpers.glsl",
       "float Half(float x) { return x * 0.5; }\n"
       "float Broken() { return missing_thing; }\n"}};  // line 2
  auto resolve = [&](std::string_view name) -> std::optional<std::string> {
    auto it = files.find(std::string(name));
    if (it == files.end()) return std::nullopt;
    return it->second;
  };
  const char* source =
      "out vec4 color;\n"
      "#include \"helpers.glsl\"\n"
      "void main() {\n"
      "  color = vec4(Half(1.0));\n"
      "  color.x = not_declared_either;\n"  // line 5
      "}\n";
  std::string error;
  EXPECT_FALSE(renderer::CompileShader(renderer::ShaderStage::kFragment, source,
                                       "shaders/user.frag", &error, resolve));
  EXPECT_TRUE(HasErrorAt(error, "shaders/helpers.glsl", 2)) << error;
  // Lines after the include are counted in the including file again.
  EXPECT_TRUE(HasErrorAt(error, "shaders/user.frag", 5)) << error;
}

TEST_F(ShaderTest, MissingIncludeNamesTheIncludingLine) {
  const char* source =
      "out vec4 color;\n"
      "\n"
      "#include \"nowhere.glsl\"\n"
      "void main() { color = vec4(1.0); }\n";
  std::string error;
  EXPECT_FALSE(renderer::CompileShader(renderer::ShaderStage::kFragment, source,
                                       "shaders/user.frag", &error));
  EXPECT_THAT(error, StartsWith("shaders/user.frag:3: error:")) << error;
  EXPECT_THAT(error, HasSubstr("nowhere.glsl"));
}

TEST_F(ShaderTest, IncludeCycleIsReportedNotFollowedForever) {
  auto resolve = [](std::string_view) -> std::optional<std::string> {
    return std::string("#include \"self.glsl\"\n");
  };
  std::string error;
  EXPECT_FALSE(renderer::CompileShader(renderer::ShaderStage::kVertex, "#include \"self.glsl\"\n",
                                       "shaders/loop.vert", &error, resolve));
  EXPECT_THAT(error, HasSubstr("nested"));
}

TEST_F(ShaderTest, AttributeLocationMacrosAreDefined) {
  const char* source =
      "layout(location = ATTRIB_POSITION) in vec3 p;\n"
      "layout(location = ATTRIB_JOINTS) in uvec4 j;\n"
      "void main() { gl_Position = vec4(p, float(j.x)); }\n";
  std::string error;
  EXPECT_TRUE(
      renderer::CompileShader(renderer::ShaderStage::kVertex, source, "macros.vert", &error))
      << error;
}

TEST_F(ShaderTest, LinkErrorNamesTheFiles) {
  // Each stage compiles alone; only linking sees the uniform declared with two types.
  const char* vertex =
      "uniform float u_shared;\n"
      "void main() { gl_Position = vec4(u_shared); }\n";
  const char* fragment =
      "uniform vec2 u_shared;\n"
      "out vec4 color;\n"
      "void main() { color = vec4(u_shared, 0.0, 1.0); }\n";
  std::string error;
  renderer::ShaderObject v =
      renderer::CompileShader(renderer::ShaderStage::kVertex, vertex, "shaders/a.vert", &error);
  renderer::ShaderObject f =
      renderer::CompileShader(renderer::ShaderStage::kFragment, fragment, "shaders/b.frag", &error);
  ASSERT_TRUE(v && f) << error;
  std::optional<renderer::Program> program =
      renderer::Program::Link({&v, &f}, {}, "shaders/a.vert + shaders/b.frag", &error);
  EXPECT_FALSE(program);
  EXPECT_THAT(error, HasSubstr("shaders/a.vert + shaders/b.frag")) << error;
  EXPECT_THAT(error, HasSubstr("u_shared")) << error;
}

TEST_F(ShaderTest, MissingEmbeddedFileIsReported) {
  std::string error;
  EXPECT_FALSE(renderer::Program::FromFiles({"no_such.vert", "", "lit.frag", {}}, &error));
  EXPECT_THAT(error, HasSubstr("shaders/no_such.vert"));
}

TEST_F(ShaderTest, EveryEmbeddedShaderCompiles) {
  int compiled = 0;
  for (int i = 0; i < renderer::embedded::kShaderCount; ++i) {
    const std::string name = renderer::embedded::kShaders[i].name;
    const std::string extension = name.substr(name.rfind('.') + 1);
    // Include files have no main(); compiling them alone still checks their syntax.
    const renderer::ShaderStage stage = extension == "frag"   ? renderer::ShaderStage::kFragment
                                        : extension == "geom" ? renderer::ShaderStage::kGeometry
                                                              : renderer::ShaderStage::kVertex;
    std::string error;
    EXPECT_TRUE(
        renderer::CompileShader(stage, renderer::ShaderSource(name), "shaders/" + name, &error))
        << error;
    ++compiled;
  }
  // skinning.glsl, skinned.vert, skin_capture.vert, lit.frag, line.vert/.geom, shape.vert,
  // color.frag, grid.vert/.frag, background.vert/.frag.
  EXPECT_GE(compiled, 12);
  EXPECT_FALSE(renderer::ShaderSource("skinning.glsl").empty());
}

TEST_F(ShaderTest, RendererLinksEveryProgram) {
  std::string error;
  std::optional<renderer::Renderer> r = renderer::Renderer::Create(&error);
  EXPECT_TRUE(r) << error;
}

TEST_F(ShaderTest, EmbeddedShadersAreAscii) {
  // GLSL 3.30 allows only ASCII, even in comments; some drivers reject anything else.
  for (int i = 0; i < renderer::embedded::kShaderCount; ++i) {
    const char* text = renderer::embedded::kShaders[i].text;
    for (size_t k = 0; text[k]; ++k)
      ASSERT_LT(static_cast<unsigned char>(text[k]), 128u)
          << renderer::embedded::kShaders[i].name << " byte " << k;
  }
}

// A loader that pretends to be an OpenGL 2.1 driver: only glGetString exists.
const GLubyte* GLAD_API_PTR FakeGetString(GLenum name) {
  static const char kVersion[] = "2.1 Fake";
  static const char kRenderer[] = "Fake Renderer";
  static const char kEmpty[] = "";
  const char* text = name == GL_VERSION ? kVersion : name == GL_RENDERER ? kRenderer : kEmpty;
  return reinterpret_cast<const GLubyte*>(text);
}
GLADapiproc FakeLoader(const char* name) {
  if (std::strcmp(name, "glGetString") == 0) return reinterpret_cast<GLADapiproc>(FakeGetString);
  return nullptr;
}

TEST_F(ShaderTest, LoadGlRejectsContextsOlderThan33) {
  std::string error;
  EXPECT_FALSE(renderer::LoadGl(FakeLoader, &error));
  rendertest::ReloadGl();  // restore the real functions before anything else uses GL
  EXPECT_THAT(error, HasSubstr("3.3"));
  EXPECT_THAT(error, HasSubstr("2.1"));
  EXPECT_THAT(error, HasSubstr("Fake Renderer"));
}

TEST_F(ShaderTest, LoadGlRejectsMissingLoader) {
  std::string error;
  EXPECT_FALSE(renderer::LoadGl(nullptr, &error));
  EXPECT_THAT(error, Not(::testing::IsEmpty()));
  EXPECT_THAT(renderer::GlDescription(), HasSubstr("OpenGL"));
}

}  // namespace
