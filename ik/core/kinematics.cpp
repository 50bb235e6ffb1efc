// Forward kinematics over a parents-before-children skeleton, and the skin palette.
#include "ik/core/kinematics.h"

#include <cassert>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ik {

namespace {

// *out = a * b for 4x4 matrices (out may be a or b: a is read first, b column by column). glm's
// operator* is scalar code; with SSE2 each column of the product is four broadcasts, four
// multiplies and three adds, written straight to *out so the next joint can load it without another
// copy.
inline void Multiply(const glm::mat4& a, const glm::mat4& b, glm::mat4* out) {
#if defined(__SSE2__)
  const __m128 a0 = _mm_loadu_ps(&a[0][0]), a1 = _mm_loadu_ps(&a[1][0]);
  const __m128 a2 = _mm_loadu_ps(&a[2][0]), a3 = _mm_loadu_ps(&a[3][0]);
  auto column = [&](int c) {
    const __m128 col = _mm_loadu_ps(&b[c][0]);
    const __m128 x = _mm_shuffle_ps(col, col, _MM_SHUFFLE(0, 0, 0, 0));
    const __m128 y = _mm_shuffle_ps(col, col, _MM_SHUFFLE(1, 1, 1, 1));
    const __m128 z = _mm_shuffle_ps(col, col, _MM_SHUFFLE(2, 2, 2, 2));
    const __m128 w = _mm_shuffle_ps(col, col, _MM_SHUFFLE(3, 3, 3, 3));
    // a3·w (the parent's translation, for the translation column) is added last, so that a
    // point far from the origin is rounded once per joint, not twice.
    const __m128 xyz =
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(a0, x), _mm_mul_ps(a1, y)), _mm_mul_ps(a2, z));
    _mm_storeu_ps(&(*out)[c][0], _mm_add_ps(xyz, _mm_mul_ps(a3, w)));
  };
  column(0);
  column(1);
  column(2);
  column(3);
#else
  *out = a * b;
#endif
}

}  // namespace

void MultiplyInto(const glm::mat4& a, const glm::mat4& b, glm::mat4* out) { Multiply(a, b, out); }

void LocalToModel(const Skeleton& skeleton, const Pose& pose, const glm::mat4& root,
                  std::vector<glm::mat4>* models) {
  const int n = skeleton.joint_count();
  assert(static_cast<int>(pose.locals.size()) == n);
  models->resize(n);
  const int* parents = skeleton.parents().data();
  const Transform* locals = pose.locals.data();
  glm::mat4* out = models->data();
  for (int i = 0; i < n; ++i) {
    const glm::mat4 local = locals[i].ToMatrix();
    Multiply(parents[i] < 0 ? root : out[parents[i]], local, &out[i]);
  }
}

void LocalToModel(const Skeleton& skeleton, const Pose& pose, std::vector<glm::mat4>* models) {
  const int n = skeleton.joint_count();
  assert(static_cast<int>(pose.locals.size()) == n);
  models->resize(n);
  const int* parents = skeleton.parents().data();
  const Transform* locals = pose.locals.data();
  glm::mat4* out = models->data();
  for (int i = 0; i < n; ++i) {
    const glm::mat4 local = locals[i].ToMatrix();
    if (parents[i] < 0) {
      out[i] = local;
    } else {
      Multiply(out[parents[i]], local, &out[i]);
    }
  }
}

void LocalToModelFrom(const Skeleton& skeleton, const Pose& pose, int joint,
                      std::vector<glm::mat4>* models) {
  assert(static_cast<int>(models->size()) == skeleton.joint_count() && joint >= 0 &&
         joint < skeleton.joint_count());
  auto& out = *models;
  const auto& parents = skeleton.parents();
  auto update = [&](int i) {
    const glm::mat4 local = pose.locals[i].ToMatrix();
    if (parents[i] < 0) {
      out[i] = local;
    } else {
      Multiply(out[parents[i]], local, &out[i]);
    }
  };
  if (skeleton.subtree_contiguous()) {
    const int end = skeleton.subtree_end(joint);
    for (int i = joint; i < end; ++i) update(i);
    return;
  }
  // Other orders: the subtree is contiguous in the skeleton's depth-first order (no allocation).
  const std::vector<int>& order = skeleton.depth_first();
  const int begin = skeleton.depth_first_position(joint);
  const int end = begin + skeleton.subtree_size(joint);
  for (int k = begin; k < end; ++k) update(order[k]);
}

void SkinPalette(const Skeleton& skeleton, const std::vector<glm::mat4>& models,
                 std::vector<glm::mat4>* palette) {
  const int n = skeleton.joint_count();
  assert(static_cast<int>(models.size()) == n);
  palette->resize(n);
  const auto& inverse_binds = skeleton.inverse_binds();
  SkinBones bones;
  bones.models = models.data();
  bones.model_count = models.size();
  bones.inverse_binds = inverse_binds.data();
  bones.inverse_bind_count = inverse_binds.size();
  bones.bone_count = static_cast<size_t>(n);
  SkinPalette(bones, palette->data());
}

SkinBones MakeSkinBones(const std::vector<glm::mat4>& models, const std::vector<int>& joints,
                        const std::vector<glm::mat4>& inverse_binds) {
  SkinBones bones;
  bones.models = models.data();
  bones.model_count = models.size();
  bones.joints = joints.data();
  bones.inverse_binds = inverse_binds.data();
  bones.inverse_bind_count = inverse_binds.size();
  bones.bone_count = joints.size();
  return bones;
}

void SkinPalette(const SkinBones& bones, glm::mat4* out) {
  for (size_t b = 0; b < bones.bone_count; ++b) {
    const long joint = bones.joints ? bones.joints[b] : static_cast<long>(b);
    if (joint < 0 || static_cast<size_t>(joint) >= bones.model_count) {
      out[b] = glm::mat4(1.0f);
    } else if (b < bones.inverse_bind_count) {
      Multiply(bones.models[joint], bones.inverse_binds[b], &out[b]);
    } else {
      out[b] = bones.models[joint];
    }
  }
}

}  // namespace ik
