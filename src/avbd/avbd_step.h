// The AVBD baseline's step: another stage list over the same StepContext as
// PABD's (solver/step.h), with its own per-bond and per-body state.
#pragma once

#include "avbd/avbd_scratch.h"
#include "solver/step_context.h"

namespace pabd {

/// Whether the AVBD baseline solves bonds of this kind (springs and point,
/// line and distance bonds; not joint limits or drives).
bool avbd_supports(BondKind kind);

/// One AVBD step over the context's views (no contacts: the caller rejects
/// them). The caller counts the step (StepResult::step).
StepResult avbd_step(StepContext& ctx, AvbdScratch& avbd);

}  // namespace pabd
