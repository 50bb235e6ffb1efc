// The OpenGL entry point of the renderer: loading the 3.3 core functions through glad and checking
// that the current context is good enough. Every other renderer file assumes LoadGl succeeded.
#pragma once

#include <glad/gl.h>

#include <string>

namespace renderer {

// Loads the GL 3.3 core functions for the context that is current on this thread, using the
// window system's lookup (e.g. SDL_GL_GetProcAddress). Returns false with a one-line reason in
// *error when the lookup fails or the context is older than OpenGL 3.3. Call again after making
// a different context current.
bool LoadGl(GLADloadfunc get_proc, std::string* error);

// "OpenGL <version> (<renderer>)" of the current context, printed by `skelview bench` beside its
// draw times.
std::string GlDescription();

// Pops every pending GL error and returns them as text ("GL_INVALID_OPERATION, ..."), or "" when
// there were none. Renderer::SkinOnGpu reports what its read-back caused with it; the GL tests
// check after each test that none is left.
std::string TakeGlErrors();

// Waits until every GL command issued so far has completed (for timing draws).
void Finish();

}  // namespace renderer
