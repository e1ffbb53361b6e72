// Per-contact kernels of the solver: one call per contact, over the step's
// ContactArrays (collision/contact_arrays.h), with the law of contact_bond.h.
// They mirror the per-bond kernels (bond_kernels.h): weights and pulls from
// iterate k, the augmented-Lagrangian update from iterate k+1, the energy.
#pragma once

#include "body/body_arrays.h"
#include "bonds/bond_kernels.h"
#include "bonds/contact_bond.h"
#include "collision/contact_arrays.h"

namespace pabd {

/// Contact k's anchors at the current iterate.
PABD_HD ContactPoints contact_points(const BodyArrays& bodies, const ContactArrays& c, int k) {
  const int a = c.end_body[2 * k], b = c.end_body[2 * k + 1];
  const Vec3* x = c.slot_local + kContactSlots * k;
  ContactPoints p;
  p.radius_a = c.end_radius[2 * k];
  p.radius_b = c.end_radius[2 * k + 1];
  // A non-round end's surface anchor is its core anchor (contact_arrays.h).
  p.a_core = world_point(bodies, a, x[0]);
  p.a_surface = p.radius_a > 0 ? world_point(bodies, a, x[1]) : p.a_core;
  p.b_core = world_point(bodies, b, x[2]);
  p.b_surface = p.radius_b > 0 ? world_point(bodies, b, x[3]) : p.b_core;
  p.gap_offset = c.gap_offset[k];
  return p;
}

/// Contact k's normal and tangential penalties.
PABD_HD ContactPenalty contact_penalty(const ContactArrays& c, int k) {
  return {c.normal_penalty[k], c.penalty[k]};
}

/// Evaluates contact k at the current iterate and stores its slots' weights and pulls.
PABD_HD void contact_weights_kernel(const BodyArrays& bodies, const ContactArrays& c, int k,
                                    const HardBondSettings& hard, Real h2) {
  const BondShares sh =
      hard_bond_shares(inverse_mass(bodies, c.end_body[2 * k]),
                       inverse_mass(bodies, c.end_body[2 * k + 1]), hard.full_split);
  const ContactSlotWeights out =
      contact_weights(contact_points(bodies, c, k), c.normal[k], c.friction[k],
                      contact_penalty(c, k), c.lambda[k], sh.a, sh.b, h2);
  for (int j = 0; j < kContactSlots; ++j) {
    c.slot_weight[kContactSlots * k + j] = out.weight[j];
    c.slot_pull[kContactSlots * k + j] = out.pull[j];
  }
}

/// After an iteration: the augmented-Lagrangian update of contact k.
PABD_HD void contact_dual_kernel(const BodyArrays& bodies, const ContactArrays& c, int k) {
  contact_dual_update(contact_points(bodies, c, k), c.normal[k], c.friction[k],
                      contact_penalty(c, k), c.lambda[k], c.sticking[k]);
}

/// Energy of contact k at the current iterate [J] (contact_energy).
PABD_HD Real contact_energy_kernel(const BodyArrays& bodies, const ContactArrays& c, int k) {
  return contact_energy(contact_points(bodies, c, k), c.normal[k], c.friction[k],
                        contact_penalty(c, k), c.lambda[k]);
}

}  // namespace pabd
