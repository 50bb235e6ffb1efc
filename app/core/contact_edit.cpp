// Foot contacts edited by hand.
#include "app/core/contact_edit.h"

#include <algorithm>

namespace app {

std::vector<std::vector<glm::ivec2>> ContactFrames(const ClipContacts& contacts) {
  std::vector<std::vector<glm::ivec2>> out(contacts.contacts.size());
  for (size_t i = 0; i < contacts.contacts.size(); ++i) {
    for (const ik::FootContact& c : contacts.contacts[i]) out[i].push_back({c.first, c.last});
  }
  return out;
}

bool UseContacts(const std::vector<std::vector<glm::ivec2>>& legs, ClipContacts* contacts) {
  const FeetSamples& s = contacts->source;
  if (legs.size() != s.legs.size() || legs.size() != s.ankle.size()) return false;
  contacts->contacts.assign(legs.size(), {});
  contacts->planted_height.assign(legs.size(), 0.0f);
  for (size_t i = 0; i < legs.size(); ++i) {
    const std::vector<glm::vec3>& ankle = s.ankle[i];
    const int last_frame = static_cast<int>(ankle.size()) - 1;
    std::vector<glm::ivec2> list;
    for (glm::ivec2 c : legs[i]) {
      c.x = std::clamp(c.x, 0, std::max(last_frame, 0));
      c.y = std::clamp(c.y, 0, std::max(last_frame, 0));
      if (c.y >= c.x && last_frame >= 0) list.push_back(c);
    }
    std::sort(list.begin(), list.end(),
              [](const glm::ivec2& a, const glm::ivec2& b) { return a.x < b.x; });
    // The foot's path relative to the clip's travel (as FindClipContacts measures it).
    std::vector<glm::vec3> relative(ankle.size());
    for (size_t f = 0; f < ankle.size(); ++f) {
      relative[f] = ankle[f] + contacts->travel * s.Time(static_cast<int>(f));
    }
    double sum = 0.0;
    int count = 0;
    int previous_last = -1;
    for (const glm::ivec2& c : list) {
      if (c.x <= previous_last) continue;  // overlaps the one before
      previous_last = c.y;
      ik::FootContact contact;
      contact.first = c.x;
      contact.last = c.y;
      contact.skate = ik::ContactSkate(relative, c.x, c.y);
      double height = 0.0;
      for (int f = c.x; f <= c.y; ++f) height += double(ankle[static_cast<size_t>(f)].y);
      const int frames = c.y - c.x + 1;
      contact.height = static_cast<float>(height / frames);
      sum += height;
      count += frames;
      contacts->contacts[i].push_back(contact);
    }
    float lowest = 0.0f;
    if (!ankle.empty()) {
      lowest = ankle[0].y;
      for (const glm::vec3& p : ankle) lowest = std::min(lowest, p.y);
    }
    contacts->planted_height[i] = count > 0 ? static_cast<float>(sum / count) : lowest;
  }
  return true;
}

ClipContacts ContactsFor(const ClipContacts& found, const FootLockEdit& edit) {
  ClipContacts out = found;
  if (edit.clip >= 0 && edit.clip == found.source.clip &&
      edit.contacts.size() == found.contacts.size()) {
    UseContacts(edit.contacts, &out);
  }
  return out;
}

bool MoveContactEnd(std::vector<glm::ivec2>* list, int index, bool end, int frame, int frames) {
  if (index < 0 || index >= static_cast<int>(list->size())) return false;
  glm::ivec2& c = (*list)[static_cast<size_t>(index)];
  int lo = 0, hi = frames;
  if (end) {
    lo = c.x;
    if (index + 1 < static_cast<int>(list->size())) hi = (*list)[size_t(index) + 1].x - 1;
  } else {
    hi = c.y;
    if (index > 0) lo = (*list)[size_t(index) - 1].y + 1;
  }
  if (hi < lo) return false;
  const int to = std::clamp(frame, lo, hi);
  int& moved = end ? c.y : c.x;
  if (to == moved) return false;
  moved = to;
  return true;
}

int AddContact(std::vector<glm::ivec2>* list, int frame, int frames, int length) {
  if (frame < 0 || frame > frames) return -1;
  size_t at = 0;
  int lo = 0, hi = frames;
  for (; at < list->size(); ++at) {
    const glm::ivec2& c = (*list)[at];
    if (frame >= c.x && frame <= c.y) return -1;
    if (c.x > frame) {
      hi = c.x - 1;
      break;
    }
    lo = c.y + 1;
  }
  const int half = std::max(length, 1) / 2;
  glm::ivec2 added(std::max(lo, frame - half),
                   std::min(hi, frame - half + std::max(length, 1) - 1));
  list->insert(list->begin() + static_cast<long>(at), added);
  return static_cast<int>(at);
}

bool DeleteContact(std::vector<glm::ivec2>* list, int index) {
  if (index < 0 || index >= static_cast<int>(list->size())) return false;
  list->erase(list->begin() + index);
  return true;
}

}  // namespace app
