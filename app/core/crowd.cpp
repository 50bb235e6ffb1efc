// Crowd update: the frame pipeline per member, then the palettes.
#include "app/core/crowd.h"

#include <cmath>

#include "assets/model/animation.h"
#include "ik/core/kinematics.h"

namespace app {

Crowd::Crowd(const Character& character, int count, int clip, float spacing, float lift, bool batch)
    : character_(character), clip_(character.clip(clip) ? clip : -1) {
  const assets::Model& model = character.model();
  const ik::Skeleton& skeleton = character.skeleton();
  for (const ik::Limb& limb : character.limbs()) {
    ChainSettings chain;
    chain.label = limb.label;
    chain.chain = limb.chain;
    chain.offset = glm::vec3(0.0f, lift, 0.0f);
    edit_.chains.push_back(chain);
  }
  // Solving all limbs at once is only the same as solving them in turn when no chain moves
  // another: their start joints' subtrees must be disjoint.
  const std::vector<ChainSettings>& chains = edit_.chains;
  batched_ = batch && !chains.empty();
  for (size_t a = 0; a < chains.size() && batched_; ++a) {
    for (size_t b = 0; b < chains.size(); ++b) {
      if (a != b && skeleton.IsAncestorOrSelf(chains[a].chain.start, chains[b].chain.start)) {
        batched_ = false;
      }
    }
  }
  if (batched_) batch_.Resize(count * chain_count());
  frame_.keep_unsolved = false;  // nothing reads a member's un-solved pose
  int total_bones = 0;
  for (const assets::Mesh& mesh : model.meshes) {
    palette_offsets_.push_back(total_bones);
    total_bones += static_cast<int>(mesh.bone_joints.size());
  }
  const int side = std::max(1, static_cast<int>(std::ceil(std::sqrt(double(count)))));
  const assets::Clip* played = character.clip(clip_);
  const float duration = played ? played->duration : 0.0f;
  members_.resize(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    Member& m = members_[size_t(i)];
    m.time = duration > 0.0f ? std::fmod(0.137f * float(i), duration) : 0.0f;
    m.placement[3] = glm::vec4(spacing * float(i % side - side / 2), 0.0f,
                               spacing * float(i / side - side / 2), 1.0f);
    m.palette.resize(static_cast<size_t>(total_bones));
  }
}

FrameSource Crowd::SourceOf(const Member& member) const {
  FrameSource source;
  source.clip_time = ClipTime{clip_, member.time};
  source.edit = &edit_;
  source.placement = &member.placement;
  return source;
}

void Crowd::BuildPalette(Member* member) const {
  const assets::Model& model = character_.model();
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    const assets::Mesh& mesh = model.meshes[m];
    ik::SkinPalette(
        ik::MakeSkinBones(member->state.models, mesh.bone_joints, mesh.bone_inverse_binds),
        member->palette.data() + palette_offsets_[m]);
  }
}

void Crowd::Update(float dt_seconds) {
  const ik::Skeleton& skeleton = character_.skeleton();
  const assets::Clip* clip = character_.clip(clip_);
  reached_ = 0;
  for (Member& m : members_) {
    if (clip) m.time = assets::WrapTime(m.time + dt_seconds, clip->duration, /*loop=*/true);
  }
  if (!batched_) {
    for (Member& m : members_) {
      EvaluateFrame(character_, SourceOf(m), &frame_, &m.state);
      for (const ik::TwoBoneIkResult& r : m.state.ik) reached_ += r.reached ? 1 : 0;
      BuildPalette(&m);
    }
    return;
  }
  // The pipeline up to the two-bone chains for every member, their limbs handed to the batch.
  const int chains = chain_count();
  ik::TwoBoneIkOptions options;  // chain 0's (the same for every chain but the bend axis)
  bool have_options = false;
  for (size_t i = 0; i < members_.size(); ++i) {
    Member& m = members_[i];
    const ConstraintRequests& requests = BeginFrame(character_, SourceOf(m), &frame_, &m.state);
    const std::vector<glm::mat4>& models = m.state.models;
    for (int k = 0; k < chains && k < static_cast<int>(requests.ik.size()); ++k) {
      const IkChainRequest& request = requests.ik[size_t(k)];
      const ik::TwoBoneChain& chain = request.chain;
      batch_.SetChain(static_cast<int>(i) * chains + k, models[size_t(chain.start)],
                      models[size_t(chain.mid)], models[size_t(chain.end)],
                      request.target.position);
      if (!have_options) {
        options = request.options;
        have_options = true;
      }
    }
  }
  // Every limb of every member in one SIMD solve; the corrections go into the poses
  // (local.rotation · correction, as the pose-level solver applies them), then the rest of the
  // pipeline.
  batch_.Solve(options);
  for (size_t i = 0; i < members_.size(); ++i) {
    Member& m = members_[i];
    const ConstraintRequests& requests = frame_.requests;  // chains as every member's
    m.state.ik.clear();  // the batch reports corrections and `reached` only
    for (int k = 0; k < chains && k < static_cast<int>(requests.ik.size()); ++k) {
      const int index = static_cast<int>(i) * chains + k;
      // Request k is chain k of the edit (every chain is an enabled, valid two-bone chain).
      const ik::TwoBoneChain& chain = edit_.chains[size_t(k)].chain;
      glm::quat& start = m.state.pose.locals[size_t(chain.start)].rotation;
      glm::quat& mid = m.state.pose.locals[size_t(chain.mid)].rotation;
      start = glm::normalize(start * batch_.start_correction(index));
      mid = glm::normalize(mid * batch_.mid_correction(index));
      ik::LocalToModelFrom(skeleton, m.state.pose, chain.start, &m.state.models);
      reached_ += batch_.reached(index) ? 1 : 0;
    }
    FinishFrame(character_, SourceOf(m), requests, &frame_, &m.state);
    BuildPalette(&m);
  }
}

}  // namespace app
