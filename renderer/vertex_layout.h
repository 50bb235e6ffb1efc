// Vertex attribute locations and the other numbers C++ and GLSL share, declared once: the C++
// side uses these and every shader sees them as macros (shader.cpp prepends the #defines).
#pragma once

#include <glad/gl.h>

namespace renderer::attrib {

// Meshes (skinned.vert, skin_capture.vert).
constexpr GLuint kPosition = 0;  // vec3
constexpr GLuint kNormal = 1;    // vec3
constexpr GLuint kUv = 2;        // vec2
constexpr GLuint kJoints = 3;    // uvec4 (unsigned short in the buffer, integer attribute)
constexpr GLuint kWeights = 4;   // vec4
// Influences five to eight (assets::Mesh::extra_joints/extra_weights), read only when the mesh
// has them (u_extra_influences).
constexpr GLuint kExtraJoints = 9;    // uvec4, as kJoints
constexpr GLuint kExtraWeights = 10;  // vec4
// assets::Mesh::weight_flags (one unsigned byte per vertex, integer attribute), bound only when
// the mesh has them; otherwise the draw sets the attribute's constant value to 0.
constexpr GLuint kWeightFlags = 11;  // uint
// Debug geometry (line.vert, shape.vert); kPosition is shared.
constexpr GLuint kColor = 5;   // vec4
constexpr GLuint kWidth = 6;   // float, pixels
constexpr GLuint kAxis = 7;    // vec3, world-space direction that orients screen-space offsets
constexpr GLuint kOffset = 8;  // vec2, pixels

}  // namespace renderer::attrib

namespace renderer {

// Active morph targets one blend pass adds (shaders/morph_blend.frag's uniform array, 256 of the
// 1,024 fragment uniform components GL 3.3 guarantees); more take several passes.
constexpr GLuint kMorphEntriesPerPass = 128;

}  // namespace renderer
