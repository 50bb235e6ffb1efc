// Foot contacts edited by hand (the window's foot lanes): the contacts of a clip replaced by given
// intervals, with each contact's skate and height and each leg's planted height recomputed from
// the source as FindClipContacts computes them, so that the lock (PlanFootLock) plans from them;
// and the edits on one foot's list of contacts (move an end, add, delete). Frames at the
// contacts' rate (FeetSamples::fps), first..last inclusive.
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "app/core/chain_edit.h"
#include "app/core/foot_lock.h"

namespace app {

// The contacts' frames, per leg.
std::vector<std::vector<glm::ivec2>> ContactFrames(const ClipContacts& contacts);

// Replaces the contacts of *contacts by `legs` (one list per leg; each interval clamped to the
// clip's frames, the list sorted, overlapping or empty ones dropped) and recomputes what depends
// on them: each contact's skate (ik::ContactSkate, relative to the clip's travel) and mean height,
// and each leg's planted height. False (nothing changed) when the number of legs differs.
bool UseContacts(const std::vector<std::vector<glm::ivec2>>& legs, ClipContacts* contacts);

// The contacts the lock uses for `edit`: the found ones, or the edited ones when `edit` holds
// contacts for the clip they were found on (and for as many legs).
ClipContacts ContactsFor(const ClipContacts& found, const FootLockEdit& edit);

// Edits on one foot's contacts (sorted, disjoint, within frames 0..`frames`); each returns false
// and changes nothing when it cannot be done.
// Moves contact `index`'s first (end = false) or last frame to `frame`, kept within its
// neighbours and at least one frame long.
bool MoveContactEnd(std::vector<glm::ivec2>* list, int index, bool end, int frame, int frames);
// Adds a contact of `length` frames centred on `frame` (shortened to fit the gap around it);
// returns its index, or -1 when `frame` is inside a contact or outside the clip.
int AddContact(std::vector<glm::ivec2>* list, int frame, int frames, int length);
bool DeleteContact(std::vector<glm::ivec2>* list, int index);

}  // namespace app
