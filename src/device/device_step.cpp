// PABD's step with its loops on a device (see device_step.h).
#include "device/device_step.h"

#include <limits>

#include "core/stage_clock.h"
#include "solver/island_momentum.h"
#include "solver/step_stages.h"

namespace pabd {

StepResult device_step(StepContext& ctx, DeviceBackend& device) {
  if (ctx.observer && *ctx.observer)
    throw Error("device " + device.name() +
                ": iteration observers need the CPU (WorldDef::device = Device::Cpu)");
  const auto start = StageClock::now();
  // A thread per block would leave the device idle: sweep by body colours.
  ctx.settings.block_order_min_bodies = std::numeric_limits<int>::max();
  external_velocity_stage(ctx);
  detect_stage(ctx);
  device.run_loops(ctx, iteration_colouring(ctx));
  island_momentum_stage(ctx);
  velocities_stage(ctx);
  restitution_stage(ctx);
  ctx.timings.total_ms = ms_since(start);
  return finite_check_stage(ctx);
}

}  // namespace pabd
