// The restitution stage on a device (contacts/contact_restitution.h), after
// the velocities stage there: one loop tells whether any contact bounces (a
// flag, read back), and only then the Jacobi rounds of solver/step_loops.h
// run, over scratch the device keeps. The host's contacts are not needed:
// without it, a scene with restitution brought every step's contacts back.
#pragma once

#include "contacts/contact_restitution.h"
#include "device/device_stage_backend.h"
#include "solver/step_loops.h"

namespace pabd {

/// The device's scratch for the stage, kept from step to step.
struct DeviceRestitutionArrays {
  DeviceArray<int> any;  ///< one flag: some contact bounces
  DeviceArray<Real> impulse, delta;
  DeviceArray<int> share;
};

/// The restitution stage over `dev`'s device views, on `be`'s loops.
template <typename Loops>
void device_restitution(const DeviceStageBackend<Loops>& be, DeviceRestitutionArrays& a,
                        const StepContext& dev) {
  if (!restitution_stage_applies(dev)) return;
  const ContactArrays contact = dev.contact;
  const Loops& loops = *be.device_loops;
  const Real threshold = restitution_threshold(dev);
  int* any = be.room(a.any, 1);
  loops.each(1, [=] PABD_LAMBDA(int) { any[0] = 0; });
  // Every bouncing contact writes the same 1: no order to keep.
  loops.each(contact.count, [=] PABD_LAMBDA(int k) {
    if (restitution_active(contact, k, threshold)) any[0] = 1;
  });
  if (be.loops().read(any) == 0) return;  // most steps: none bounces
  const std::size_t nk = static_cast<std::size_t>(contact.count);
  const std::size_t nb = static_cast<std::size_t>(dev.bodies.count);
  const RestitutionScratch s{be.room(a.impulse, nk), be.room(a.delta, nk), be.room(a.share, nb)};
  restitution_loops(dev, threshold, s, loops);
}

}  // namespace pabd
