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
PABD_HD_ALWAYS_INLINE ContactPoints contact_points(const BodyArrays& bodies, const ContactArrays& c,
                                                   int k) {
  const int a = c.end_body[2 * k], b = c.end_body[2 * k + 1];
  const Vec3* x = c.slot_local + kContactSlots * k;
  const Real radius_a = c.end_radius[2 * k], radius_b = c.end_radius[2 * k + 1];
  // A non-round end's surface anchor is its core anchor (contact_arrays.h).
  const Vec3 a_core = world_point(bodies, a, x[0]);
  const Vec3 b_core = world_point(bodies, b, x[2]);
  // Built in one aggregate: a default-constructed struct filled field by field
  // was zeroed first (rep stos), then stalled the loads that followed (perf).
  return ContactPoints{a_core,         radius_a > 0 ? world_point(bodies, a, x[1]) : a_core,
                       b_core,         radius_b > 0 ? world_point(bodies, b, x[3]) : b_core,
                       radius_a,       radius_b,
                       c.gap_offset[k]};
}

/// Contact k's normal and tangential penalties.
PABD_HD ContactPenalty contact_penalty(const ContactArrays& c, int k) {
  return {c.normal_penalty[k], c.penalty[k]};
}

/// Start of a step, after detection: contact k's end scales for the
/// iterations (ContactEndScales), from its bodies' shares and normal penalty.
PABD_HD void contact_prepare_kernel(const BodyArrays& bodies, const ContactArrays& c, int k,
                                    const HardBondSettings& hard, Real h2) {
  const BondShares sh =
      hard_bond_shares(inverse_mass(bodies, c.end_body[2 * k]),
                       inverse_mass(bodies, c.end_body[2 * k + 1]), hard.full_split);
  const ContactEndScales e = contact_end_scales(c.normal_penalty[k], sh.a, sh.b, h2);
  c.end_weight[2 * k] = e.weight_a;
  c.end_weight[2 * k + 1] = e.weight_b;
  c.end_scale[2 * k] = e.scale_a;
  c.end_scale[2 * k + 1] = e.scale_b;
}

/// Contact k's slot weights and pulls from its anchors p at the current iterate.
PABD_HD void contact_store_weights(const ContactArrays& c, int k, const ContactPoints& p) {
  const ContactEndScales ends{c.end_weight[2 * k], c.end_weight[2 * k + 1], c.end_scale[2 * k],
                              c.end_scale[2 * k + 1]};
  contact_weights(p, c.normal[k], c.friction[k], contact_penalty(c, k), c.lambda[k], ends,
                  c.slot_weight + kContactSlots * k, c.slot_pull + kContactSlots * k);
}

/// Evaluates contact k at the current iterate and stores its slots' weights
/// and pulls (after contact_prepare_kernel).
PABD_HD void contact_weights_kernel(const BodyArrays& bodies, const ContactArrays& c, int k) {
  contact_store_weights(c, k, contact_points(bodies, c, k));
}

/// After an iteration: the augmented-Lagrangian update of contact k.
PABD_HD void contact_dual_kernel(const BodyArrays& bodies, const ContactArrays& c, int k) {
  contact_dual_update(contact_points(bodies, c, k), c.normal[k], c.friction[k],
                      contact_penalty(c, k), c.lambda[k], c.sticking[k]);
}

/// contact_dual_kernel of the previous iteration then contact_weights_kernel
/// of this one, from one evaluation of the anchors: both read the same
/// iterate, so the result is bit-identical to the two kernels in turn, and
/// the contact's data is read once per iteration instead of twice.
PABD_HD void contact_dual_then_weights_kernel(const BodyArrays& bodies, const ContactArrays& c,
                                              int k) {
  const ContactPoints p = contact_points(bodies, c, k);
  contact_dual_update(p, c.normal[k], c.friction[k], contact_penalty(c, k), c.lambda[k],
                      c.sticking[k]);
  contact_store_weights(c, k, p);
}

/// Energy of contact k at the current iterate [J] (contact_energy).
PABD_HD Real contact_energy_kernel(const BodyArrays& bodies, const ContactArrays& c, int k) {
  return contact_energy(contact_points(bodies, c, k), c.normal[k], c.friction[k],
                        contact_penalty(c, k), c.lambda[k]);
}

}  // namespace pabd
