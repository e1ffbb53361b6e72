// PABD's step as its list of stages (solver/step_stages.h).
#pragma once

#include "solver/step_context.h"

namespace pabd {

/// One PABD step over the context's views; returns ok or the first non-finite
/// body. The caller counts the step (StepResult::step).
StepResult pabd_step(StepContext& ctx);

}  // namespace pabd
