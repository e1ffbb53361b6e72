// PABD's step with its loops on a device (device_backend.h). The stages are
// those of solver/step.cpp, in the same order, split by where they run:
//
//   host     external velocity, detect (broadphase, narrowphase, contact
//            arrays, colouring)
//   device   predict, warm start, the K iterations: the same loops over the
//            same kernels (solver/step_loops.h), on copies of the arrays,
//            copied back afterwards
//   host     island momentum (serial), velocities, restitution, the
//            finiteness check
//
// With the same colouring the device computes what the CPU does, in the same
// order per index: the same bits. The block order (solver/block_order.h)
// runs a thread per block, which leaves a GPU nearly idle, so a device step
// sweeps by body colours: compare it with a CPU run whose
// block_order_min_bodies keeps the colouring too.
//
// The arrays are copied both ways every step (StageTimings::transfer_ms):
// keeping the state and the detection on the device is the next stage of
// this backend (docs/gpu.md).
#pragma once

#include "device/device_backend.h"
#include "solver/step_context.h"

namespace pabd {

/// One step with the loops on `device`; iteration observers are refused
/// (they read the host's arrays between iterations).
StepResult device_step(StepContext& ctx, DeviceBackend& device);

}  // namespace pabd
