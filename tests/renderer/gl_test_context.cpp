// The shared test GL context and image helpers.
#include "tests/renderer/gl_test_context.h"

#include <SDL.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <glm/gtc/matrix_transform.hpp>

#include "assets/files/image_file.h"

namespace rendertest {

namespace {

struct Context {
  SDL_Window* window = nullptr;
  SDL_GLContext gl = nullptr;
  std::string error;
  bool tried = false;
};

Context& TheContext() {
  static Context context;
  return context;
}

// Destroys the context after the last test; every GL object a test made is gone by then.
class GlEnvironment : public ::testing::Environment {
 public:
  void TearDown() override {
    Context& c = TheContext();
    if (c.gl) SDL_GL_DeleteContext(c.gl);
    if (c.window) SDL_DestroyWindow(c.window);
    if (c.tried) SDL_Quit();
    c = Context();
  }
};

[[maybe_unused]] ::testing::Environment* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new GlEnvironment);

GLADloadfunc SdlLoader() { return reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress); }

}  // namespace

bool EnsureGlContext(std::string* error) {
  Context& c = TheContext();
  if (!c.tried) {
    c.tried = true;
    setenv("SDL_VIDEODRIVER", "offscreen", /*overwrite=*/0);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
      c.error = std::string("SDL_Init: ") + SDL_GetError();
    } else {
      SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
      SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
      SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
      SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
      c.window =
          SDL_CreateWindow("renderer tests", 0, 0, 64, 64, SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
      if (!c.window) c.error = std::string("SDL_CreateWindow: ") + SDL_GetError();
      if (c.window) c.gl = SDL_GL_CreateContext(c.window);
      if (c.window && !c.gl) c.error = std::string("SDL_GL_CreateContext: ") + SDL_GetError();
      if (c.gl && !renderer::LoadGl(SdlLoader(), &c.error)) {
        SDL_GL_DeleteContext(c.gl);
        c.gl = nullptr;
      }
    }
  }
  if (!c.gl) *error = "no OpenGL 3.3 core context: " + c.error;
  return c.gl != nullptr;
}

void ReloadGl() {
  std::string error;
  ASSERT_TRUE(renderer::LoadGl(SdlLoader(), &error)) << error;
}

void GlTest::SetUp() {
  std::string error;
  ASSERT_TRUE(EnsureGlContext(&error)) << error;
  renderer::TakeGlErrors();
}

void GlTest::TearDown() {
  if (TheContext().gl) {
    EXPECT_EQ(renderer::TakeGlErrors(), "") << "GL errors left by the test";
  }
}

int ColorDistance(const glm::ivec4& a, const glm::ivec4& b) {
  return std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b)});
}

float Luma(const glm::ivec4& p) {
  return 0.2126f * static_cast<float>(p.r) + 0.7152f * static_cast<float>(p.g) +
         0.0722f * static_cast<float>(p.b);
}

glm::vec2 ProjectToPixel(const renderer::View& view, const glm::vec3& world, bool* in_front) {
  const glm::vec4 clip = view.ViewProjection() * glm::vec4(world, 1.0f);
  *in_front = clip.w > 0.0f;
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  return {(ndc.x * 0.5f + 0.5f) * static_cast<float>(view.viewport.x),
          (0.5f - ndc.y * 0.5f) * static_cast<float>(view.viewport.y)};
}

void SaveForInspection(const Image& image, const std::string& name) {
  const std::string dir = "/tmp/skelview-renderer-tests";
  std::filesystem::create_directories(dir);
  std::string error;
  EXPECT_TRUE(
      assets::WritePng(dir + "/" + name + ".png", image.width, image.height, image.rgba, &error))
      << error;
}

renderer::View LookAt(const glm::vec3& eye, const glm::vec3& target, int size) {
  renderer::View view;
  view.view = glm::lookAt(eye, target, glm::vec3(0, 1, 0));
  view.projection = glm::perspective(glm::radians(40.0f), 1.0f, 0.05f, 100.0f);
  view.viewport = {size, size};
  return view;
}

}  // namespace rendertest
