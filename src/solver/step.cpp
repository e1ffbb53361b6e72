// One time step, as the paper's Algorithm 1: the stages of solver/step_stages.h
// in order. IterationOrder::Jacobi runs each iteration's bonds then bodies once
// over all of them (the paper); IterationOrder::Colored once per body colour
// (solver/colouring.h), a Gauss-Seidel sweep.
#include "solver/step.h"

#include "core/stage_clock.h"
#include "solver/step_stages.h"

namespace pabd {

StepResult pabd_step(StepContext& ctx) {
  return pabd_step_with(
      ctx, detect_stage,
      [](StepContext& c) {
        predict_stage(c);
        warm_start_stage(c);
        observe(c, -1);
        iterate_stage(c);
      },
      after_iterations_stage);
}

StepResult pabd_step_with(StepContext& ctx, const StageFunction& detect,
                          const StageFunction& middle, const StageFunction& after_iterations) {
  const auto start = StageClock::now();
  external_velocity_stage(ctx);
  detect(ctx);
  middle(ctx);
  after_iterations(ctx);
  ctx.timings.total_ms = ms_since(start);
  return finite_check_stage(ctx);
}

}  // namespace pabd
