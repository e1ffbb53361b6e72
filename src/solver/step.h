// PABD's step as its list of stages (solver/step_stages.h).
#pragma once

#include <functional>

#include "solver/step_context.h"

namespace pabd {

/// One PABD step over the context's views; returns ok or the first non-finite
/// body. The caller counts the step (StepResult::step).
StepResult pabd_step(StepContext& ctx);

using StageFunction = std::function<void(StepContext&)>;

/// The same stage list with its detection done by `detect`, its middle
/// (predict, warm start, the iterations) by `middle` and what follows the
/// iterations (island momentum, velocities, restitution) by
/// `after_iterations`: a device's (device/device_step.h). The other stages
/// (external velocity, the finiteness check) run here, on the host.
StepResult pabd_step_with(StepContext& ctx, const StageFunction& detect,
                          const StageFunction& middle, const StageFunction& after_iterations);

}  // namespace pabd
