// PABD's step with its loops on a device (see device_step.h).
#include "device/device_step.h"

#include <limits>

#include "core/stage_clock.h"
#include "solver/step.h"
#include "solver/step_stages.h"

namespace pabd {

StepResult device_step(StepContext& ctx, DeviceBackend& device) {
  if (ctx.observer && *ctx.observer)
    throw Error("device " + device.name() +
                ": iteration observers need the CPU (WorldDef::device = Device::Cpu)");
  // A thread per block would leave the device idle: sweep by body colours.
  ctx.settings.block_order_min_bodies = std::numeric_limits<int>::max();
  const bool contacts_on_device = ctx.detector && device.detects(ctx.detect_input);
  const auto detect = [&](StepContext& c) {
    if (!contacts_on_device) {
      // The host detects: from the device's last contacts, if it holds newer.
      if (c.detector) device.bring_back_contacts(*c.detector);
      return detect_stage(c);
    }
    // The colouring over the contacts follows on the device (run_loops).
    const auto t0 = StageClock::now();
    device.detect_stage(c);
    c.timings.detect_ms = ms_since(t0);
  };
  // Island momentum, the velocities and restitution follow the iterations
  // on the device (run_loops): nothing is left for the host after them.
  return pabd_step_with(
      ctx, detect,
      [&](StepContext& c) { device.run_loops(c, iteration_colouring(c), contacts_on_device); },
      [](StepContext&) {});
}

}  // namespace pabd
