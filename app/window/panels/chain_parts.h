// The parts of the IK chains panel, by constraint kind and by task. Private to app/window/panels.
#pragma once

#include <string>

#include "app/window/panels/panel_util.h"

namespace app {

// The model's length units: "m" for glTF and the built-in character, else "units".
const char* LengthUnits(const assets::Model& model);
// `value` with three significant digits and the units: "0.65 m".
std::string Length(float value, const char* units);

// Two-bone chains: pole, hinge and soft (before the weight); the end orientation and the
// solver's result (after it).
void DrawTwoBoneOptions(const ik::TwoBoneIkResult* result, float model_size, ChainSettings* chain,
                        Requests* out);
void DrawTwoBoneEnd(const ik::TwoBoneIkResult* result, ChainSettings* chain, Requests* out);
// Two-bone chain `chain`'s live meters: the flip-risk bar (angle of the pole, else the knee, to
// the start→target line), the knee's jump since the last frame with a warning when either is
// risky, and while soft IK is on the soft curve (an item "##soft curve": softened reach against
// target distance, the identity line, the soft start and the current target as a dot).
void DrawTwoBoneMeters(const FrameInput& in, int chain, const ChainSettings& settings);

// Body handles: hold (pin) or free, the body solve's result, and the body options of the edit
// (how much hips and spine help).
void DrawBodyOptions(const PoseState& state, ChainSettings* chain, ik::FullBodyOptions* options,
                     Requests* out);

// Aims: the joint aimed at, spread over ancestors, falloff, up reference.
void DrawAimOptions(const ik::Skeleton& skeleton, float model_size, ChainSettings* chain,
                    Requests* out);

// FABRIK chains: iteration cap, tolerance, showing the iterations.
void DrawFabrikOptions(ChainSettings* chain, Requests* out);

// Below the list: reset all targets, reset the pose; add a two-bone chain, an aim or a FABRIK
// chain at the selected joint (the new chain becomes active, its target on its effector).
void DrawChainListButtons(const FrameInput& in, EditState* edit, Selection* selection,
                          Requests* out);
// Removes chain `chain` (after the list is drawn) and forgets the active and hovered chains.
void RemoveChain(int chain, EditState* edit, Selection* selection, Requests* out);

}  // namespace app
