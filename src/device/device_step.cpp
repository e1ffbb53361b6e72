// PABD's step with its loops on a device (see device_step.h).
#include "device/device_step.h"

#include <limits>

#include "core/stage_clock.h"
#include "solver/island_momentum.h"
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
  // The velocities and restitution follow the loops there unless a host
  // stage must come between them (island momentum).
  const bool velocities_on_device = !island_momentum_applies(ctx);
  // The pairs' graph comes back for island momentum, and for the guard's
  // carried speeds unless the device carries them (carry_contact_speeds).
  const bool graph_to_host = !velocities_on_device;
  const auto detect = [&](StepContext& c) {
    if (!contacts_on_device) {
      // The host detects: from the device's last contacts, if it holds newer.
      if (c.detector) device.bring_back_contacts(*c.detector);
      return detect_stage(c);
    }
    // The colouring over the contacts follows on the device (run_loops).
    const auto t0 = StageClock::now();
    device.detect_stage(c, graph_to_host);
    c.timings.detect_ms = ms_since(t0);
  };
  return pabd_step_with(
      ctx, detect,
      [&](StepContext& c) {
        device.run_loops(c, iteration_colouring(c), contacts_on_device, velocities_on_device);
        // Restitution on the host reads the contacts there (contact_restitution.h).
        if (contacts_on_device && c.any_restitution && !velocities_on_device) {
          const auto t0 = StageClock::now();
          device.bring_back_contacts(*c.detector);
          c.contact = c.detector->arrays();
          c.contact_ends = c.detector->ends();
          c.timings.transfer_ms += ms_since(t0);
        }
      },
      [&](StepContext& c) {
        if (!velocities_on_device) velocities_and_restitution_stage(c);
      });
}

}  // namespace pabd
