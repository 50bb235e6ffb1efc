// Model serialisation: a compact binary image of a whole Model, so that an import run in a child
// process can hand its result to the viewer through a pipe. Not a file format for users.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "assets/model/model.h"

namespace assets {

// Every field of `model` as bytes: the magic "SKVMODEL", a format version, then the source,
// skeleton (names, parents, rest transforms, inverse binds), is_bone, meshes (with their weight
// flags), materials, textures, clips, warnings, influence counts, source files, the avatar
// description and the skeleton's humanoid map. Little-endian;
// floats bit-exact, so DeserializeModel gives back an equal Model. Size is about the size of the
// model's arrays plus a few bytes per name.
std::string SerializeModel(const Model& model);

// Rebuilds a Model from SerializeModel's bytes into *out. Everything is validated before it is
// used: every count is bounded by the bytes that remain (so a corrupted count cannot make it
// allocate more than a small multiple of bytes.size()), joint, bone, material, texture and vertex
// indices must be in range, array sizes must agree (normals, tangents, uvs, joints and weights per
// vertex, three indices per triangle, one inverse bind per bone, key values per key time), floats
// must be finite (coordinates and matrices within kMaxCoordinate, rotations, normals and tangents
// unit length, tangents' handedness ±1, each vertex's weights summing to 1, key times increasing),
// source files must be absolute paths listed once each, and the skeleton must pass
// ik::Skeleton::Build. Returns false with a one-line reason in *error (e.g. "truncated model data:
// mesh 0 positions need 1200 bytes, 40 remain"), leaving *out unspecified, for a truncated or
// corrupted buffer or one of another format version. Never throws, never crashes.
bool DeserializeModel(std::string_view bytes, Model* out, std::string* error);

// The same two for a pipe, without the whole byte image in memory on either side. A sink takes the
// bytes in pieces as they are produced (false: stop, the stream failed); a source must fill
// exactly the bytes asked for or return false (the stream ended or failed).
using ByteSink = std::function<bool(const void* data, size_t size)>;
using ByteSource = std::function<bool(void* data, size_t size)>;

// Bytes SerializeModel(model) would return, counted without writing them.
uint64_t SerializedModelSize(const Model& model);

// Writes SerializeModel(model)'s bytes to `sink`: arrays go straight from the Model, small fields
// through a 64 KiB buffer. False when the sink failed.
bool SerializeModelTo(const Model& model, const ByteSink& sink);

// DeserializeModel reading `size` bytes from `source` (which must hold exactly those): the same
// checks, with counts bounded by `size`, so `size` bounds what is allocated — a caller reading
// from another process takes it from that process and limits it first.
bool DeserializeModelFrom(const ByteSource& source, uint64_t size, Model* out, std::string* error);

// Version written by SerializeModel; DeserializeModel accepts exactly this one.
inline constexpr uint32_t kModelFormatVersion = 7;

}  // namespace assets
