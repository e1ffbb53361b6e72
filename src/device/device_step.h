// PABD's step with its loops on a device (device_backend.h). The stages
// are those of solver/step.cpp, in the same order, split by where they run:
//
//   host     external velocity
//   device   detect: broadphase, narrowphase, contact arrays, matching,
//            pairs, adjacency, load (device_contacts.h); the pairs' graph
//            stays there
//   device   the colouring over bonds and contacts (parallel rounds; the
//            colours' sizes come back)
//   device   predict, warm start, the K iterations: the same loops over the
//            same kernels (solver/step_loops.h); the bodies and bonds are
//            copies, copied back afterwards, the contacts stay
//   device   island momentum (solver/island_kernels.h, over the islands'
//            lists the host builds from the bonds), velocities, restitution
//            (device_restitution.h)
//   host     the finiteness check; after the step, the divergence guard
//            (its carried speeds found on the device: carry_contact_speeds)
//
// A scene with a shape whose geometry only the host has (hulls, compounds,
// height fields, meshes) detects on the host instead, and its contacts
// travel with the bodies. Either way the World's ContactDetector gets the
// device's contacts when a host reader asks (contact_handover.h).
//
// With the same colouring the device computes what the CPU does, in the same
// order per index: the same bits. The block order (solver/block_order.h)
// runs a thread per block, which leaves a GPU nearly idle, so a device step
// sweeps by body colours: compare it with a CPU run whose
// block_order_min_bodies keeps the colouring too.
//
// The bodies' and bonds' arrays are copied every step, each only the way
// it must go (view_mirror.h; StageTimings::transfer_ms, uploaded_mb,
// downloaded_mb): keeping them on the device is the next stage of this
// backend (docs/gpu.md).
#pragma once

#include "device/device_backend.h"
#include "solver/step_context.h"

namespace pabd {

/// One step with the loops on `device`; iteration observers are refused
/// (they read the host's arrays between iterations).
StepResult device_step(StepContext& ctx, DeviceBackend& device);

}  // namespace pabd
