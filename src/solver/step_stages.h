// The stages of a step (the paper's Algorithm 1), each a function of the
// StepContext (solver/step_context.h). solver/step.cpp lists PABD's;
// avbd/avbd_step.cpp lists the AVBD baseline's from the shared ones here and
// its own.
//
//   detect       this step's contacts with their warm-started multipliers
//                (contacts/contact_detect.h); with colored sweeps and
//                contacts, the colouring over bonds and contacts
//   predict      per body: inertial target s and first iterate q^0 = s
//   warm start   per bond: augmented-Lagrangian penalty and multiplier; joint
//                limits' and drives' start coordinate and drive target; per
//                contact: its ends' weights and correction scales
//   iterate      K times: per bond and contact pair the ends' weights and
//                pulls; per body the 12x12 global solve and closest rotation;
//                the optional acceleration; the dual updates
//   velocities   per body: v and w from the start and end poses
//   restitution  only when a contact bounces: Jacobi rounds of per-contact
//                impulses and per-body gathers (contacts/contact_restitution.h)
//
// Each stage is parallel loops over kernels that write only their own index
// (a bond its two ends, a body itself): no atomics, and the same result for
// any thread count. The one exception, colored sweeps run as a dataflow
// (solver/colour_flow.h), orders the same kernels by per-body counters to
// the same result.
#pragma once

#include "solver/step_context.h"

namespace pabd {

/// Applied forces, torques and damping as velocity changes (external_velocity.h);
/// runs first, when any body has them.
void external_velocity_stage(StepContext& ctx);
void detect_stage(StepContext& ctx);
/// With colored sweeps and contacts, the colouring over bonds and contacts
/// (ctx.contact_graph; a block order reads the contacts, so host memory);
/// the second half of the detect stage, which a device step runs after its
/// own detection (device/device_step.h).
void contact_colouring_stage(StepContext& ctx);
/// A detection's stage times into the step's.
void add_detect_timings(const ContactDetectTimings& d, StageTimings& t);
void predict_stage(StepContext& ctx);
void warm_start_stage(StepContext& ctx);
void iterate_stage(StepContext& ctx);
/// What the iterations sweep by: the colouring (null: Jacobi), whether it
/// covers contacts, and the contact ends the bodies gather. Colors the bonds
/// first where their colouring is out of date (host memory).
struct IterationColouring {
  const Colouring* colouring = nullptr;
  bool with_contacts = false;
  ContactEnds ends;
};
IterationColouring iteration_colouring(StepContext& ctx);
void velocities_stage(StepContext& ctx);
void restitution_stage(StepContext& ctx);
/// Island momentum (solver/island_momentum.h), then velocities and
/// restitution: what pabd_step_with's `after_iterations` runs on the host.
void after_iterations_stage(StepContext& ctx);
/// The step's outcome: ok, or the first body whose state is not finite.
StepResult finite_check_stage(const StepContext& ctx);

}  // namespace pabd
