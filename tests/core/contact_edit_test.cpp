// Foot contacts edited by hand: the edits on a foot's list, and the lock planned from given
// contacts on the built-in walk.
#include "app/core/contact_edit.h"

#include <gtest/gtest.h>

#include <string>

#include "app/core/bake.h"
#include "assets/builtin/builtin_character.h"

namespace {

using Intervals = std::vector<glm::ivec2>;

TEST(ContactEdit, MovingAnEndStaysWithinTheNeighboursAndKeepsAFrame) {
  Intervals list = {{0, 5}, {10, 15}, {20, 25}};
  EXPECT_TRUE(app::MoveContactEnd(&list, 1, /*end=*/true, 17, 30));
  EXPECT_EQ(list[1], glm::ivec2(10, 17));
  EXPECT_TRUE(app::MoveContactEnd(&list, 1, true, 40, 30));  // stops before the next one
  EXPECT_EQ(list[1], glm::ivec2(10, 19));
  EXPECT_TRUE(app::MoveContactEnd(&list, 1, false, 2, 30));  // stops after the previous one
  EXPECT_EQ(list[1], glm::ivec2(6, 19));
  EXPECT_TRUE(app::MoveContactEnd(&list, 1, false, 25, 30));  // not past its own end
  EXPECT_EQ(list[1], glm::ivec2(19, 19));
  EXPECT_FALSE(app::MoveContactEnd(&list, 1, false, 25, 30));  // nothing moved
  EXPECT_FALSE(app::MoveContactEnd(&list, 3, false, 1, 30));   // no such contact
  EXPECT_TRUE(app::MoveContactEnd(&list, 2, true, 99, 30));    // the clip's last frame
  EXPECT_EQ(list[2], glm::ivec2(20, 30));
}

TEST(ContactEdit, AddingFillsTheGapAroundTheFrameAndNeverInsideAContact) {
  Intervals list = {{0, 5}, {20, 25}};
  EXPECT_EQ(app::AddContact(&list, 3, 30, 6), -1);   // inside the first
  EXPECT_EQ(app::AddContact(&list, 31, 30, 6), -1);  // outside the clip
  EXPECT_EQ(app::AddContact(&list, 12, 30, 6), 1);
  EXPECT_EQ(list[1], glm::ivec2(9, 14));
  EXPECT_EQ(app::AddContact(&list, 17, 30, 8), 2);  // shortened to the gap 15..19
  EXPECT_EQ(list[2], glm::ivec2(15, 19));
  EXPECT_EQ(app::AddContact(&list, 29, 30, 8), 4);
  EXPECT_EQ(list[4], glm::ivec2(26, 30));
  ASSERT_EQ(list.size(), 5u);
  EXPECT_TRUE(app::DeleteContact(&list, 1));
  EXPECT_EQ(list.size(), 4u);
  EXPECT_EQ(list[1], glm::ivec2(15, 19));
  EXPECT_FALSE(app::DeleteContact(&list, 4));
}

struct Walk {
  assets::Model model = assets::MakeBuiltinCharacter();
  app::Character character{model};
  app::ClipContacts found;
  Walk() {
    app::BakePlan bake;
    std::string error;
    EXPECT_TRUE(app::PlanBake(character, 0, &bake, &error)) << error;
    EXPECT_TRUE(app::FindClipContacts(character, 0, bake.fps, &found, &error)) << error;
  }
};

TEST(ContactEdit, GivenTheFoundContactsEverythingIsAsFound) {
  Walk w;
  app::ClipContacts used = w.found;
  ASSERT_TRUE(app::UseContacts(app::ContactFrames(w.found), &used));
  ASSERT_EQ(used.contacts.size(), w.found.contacts.size());
  for (size_t i = 0; i < used.contacts.size(); ++i) {
    ASSERT_EQ(used.contacts[i].size(), w.found.contacts[i].size());
    EXPECT_NEAR(used.planted_height[i], w.found.planted_height[i], 1e-5f);
    for (size_t k = 0; k < used.contacts[i].size(); ++k) {
      EXPECT_EQ(used.contacts[i][k].first, w.found.contacts[i][k].first);
      EXPECT_NEAR(used.contacts[i][k].height, w.found.contacts[i][k].height, 1e-5f);
      EXPECT_NEAR(used.contacts[i][k].skate, w.found.contacts[i][k].skate, 1e-6f);
    }
  }
  EXPECT_FALSE(app::UseContacts({{}}, &used));  // one leg given for two
}

TEST(ContactEdit, TheLockPlansFromTheEditedContacts) {
  Walk w;
  ASSERT_EQ(w.found.contacts.size(), 2u);
  ASSERT_FALSE(w.found.contacts[0].empty());
  app::FootLockEdit edit;
  edit.clip = 0;
  edit.contacts = app::ContactFrames(w.found);
  // The left foot's first contact made longer into its lift-off, the right foot's contacts gone.
  const glm::ivec2 first = edit.contacts[0][0];
  const int frames = w.found.source.frames;
  ASSERT_TRUE(app::MoveContactEnd(&edit.contacts[0], 0, true, first.y + 4, frames));
  edit.contacts[1].clear();
  const app::ClipContacts used = app::ContactsFor(w.found, edit);
  ASSERT_EQ(used.contacts[0][0].last, first.y + 4);
  EXPECT_TRUE(used.contacts[1].empty());
  // Lifting off, the foot moves: the longer contact skates more in the source.
  EXPECT_GT(used.contacts[0][0].skate, w.found.contacts[0][0].skate);

  app::FootLockOptions options;
  const auto plan = app::PlanFootLock(w.character, used, options);
  ASSERT_TRUE(plan);
  // The left foot is locked through the lengthened contact, where it landed; the right one is
  // nowhere held: it is solved only where the hips moved, and then to where the source has it.
  // In the frames the edit added the source lifts the foot off, so the leg reaches and the heel
  // peels off about the toe (PaceKnees): the ankle rolls a few millimetres, the source's is gone.
  const app::FeetSamples& s = used.source;
  for (int f = first.x; f <= first.y + 4; ++f) {
    const app::FootLockPlan::Key& key = plan->keys[0][size_t(f)];
    EXPECT_TRUE(key.solve) << f;
    // Where it landed, carried back with the in-place clip's travel.
    const glm::vec3& landed = s.ankle[0][size_t(first.x)];
    const glm::vec2 expected =
        glm::vec2(landed.x, landed.z) +
        glm::vec2(used.travel.x, used.travel.z) * (s.Time(first.x) - s.Time(f));
    const float off = glm::distance(glm::vec2(key.target.x, key.target.z), expected);
    EXPECT_LT(off, f <= first.y ? 1e-4f : 3e-3f) << f;
    if (f > first.y + 1) {
      const glm::vec3& source = s.ankle[0][size_t(f)];
      EXPECT_GT(glm::distance(glm::vec2(source.x, source.z), expected), 2.0f * off) << f;
    }
  }
  for (size_t f = 0; f < plan->keys[1].size(); ++f) {
    const app::FootLockPlan::Key& key = plan->keys[1][f];
    if (plan->hips_offset[f] == 0.0f) {
      EXPECT_FALSE(key.solve) << f;
    }
    EXPECT_LT(glm::distance(key.target, s.ankle[1][f]), 1e-5f) << f;
  }
  const app::FootLockReport report = app::ReportFootLock(w.character, used, {}, plan);
  ASSERT_EQ(report.after.skate_mm[0].size(), used.contacts[0].size());
  EXPECT_GT(report.before.skate_mm[0][0], 5.0f);
  EXPECT_LT(report.after.skate_mm[0][0], 3.0f);  // the ankle's roll over the toe at the end

  // Edits for another clip, or for another number of legs, leave the found contacts in use.
  app::FootLockEdit other = edit;
  other.clip = 1;
  EXPECT_EQ(app::ContactsFor(w.found, other).contacts[1].size(), w.found.contacts[1].size());
  other.clip = 0;
  other.contacts.pop_back();
  EXPECT_EQ(app::ContactsFor(w.found, other).contacts[1].size(), w.found.contacts[1].size());
}

TEST(ContactEdit, EditStatesDifferByTheirFootLockEdit) {
  app::EditState a, b;
  EXPECT_EQ(a, b);
  b.foot_lock_edit.ground = "ramp,degrees=10";
  EXPECT_NE(a, b);
  b = a;
  b.foot_lock_edit.clip = 0;
  b.foot_lock_edit.contacts = {{{1, 4}}};
  EXPECT_NE(a, b);
}

}  // namespace
