// PABD's step with its loops on a device (see device_step.h).
#include "device/device_step.h"

#include <limits>

#include "solver/step.h"
#include "solver/step_stages.h"

namespace pabd {

StepResult device_step(StepContext& ctx, DeviceBackend& device) {
  if (ctx.observer && *ctx.observer)
    throw Error("device " + device.name() +
                ": iteration observers need the CPU (WorldDef::device = Device::Cpu)");
  // A thread per block would leave the device idle: sweep by body colours.
  ctx.settings.block_order_min_bodies = std::numeric_limits<int>::max();
  return pabd_step_with(ctx,
                        [&device](StepContext& c) { device.run_loops(c, iteration_colouring(c)); });
}

}  // namespace pabd
