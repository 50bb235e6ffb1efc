// The built-in character: a skinned humanoid mannequin made entirely by our code, shown when
// skelview starts without a model and used by tests that must not depend on external files.
#pragma once

#include "assets/model/model.h"

namespace assets {

// Builds the character (deterministic: the same Model every call, in a few tens of ms).
//  - Skeleton: 22 joints named in the Mixamo convention without prefix — Hips (root), Spine,
//    Spine1, Spine2, Neck, Head, and per side LeftShoulder, LeftArm, LeftForeArm, LeftHand,
//    LeftUpLeg, LeftLeg, LeftFoot, LeftToeBase (and Right...). Metres, Y up, facing +Z (its left
//    side at +X), feet on y = 0, 1.75 m tall, relaxed A-pose (arms ~45° down), knees and elbows
//    bent a few degrees forward so IK has a bend direction. Every joint's rest frame has its Y
//    axis along the bone and is rolled about it by a joint-specific angle, so no frame is aligned
//    with the world axes; inverse binds are the inverse rest model matrices.
//  - One closed, smooth-shaded mesh "Body" (a signed distance field of capsules and ellipsoids
//    joined by a smooth union, polygonised), up to 4 smoothly blended influences per vertex.
//  - Material "Mannequin" with a neutral base colour, no texture.
//  - Clips "Walk" (1 s loop, in place, feet flat on the floor while planted) and "Idle" (2 s
//    loop, breathing and sway), keyed at 30 fps with linear interpolation; their last key equals
//    the first.
Model MakeBuiltinCharacter();

}  // namespace assets
