// Point-on-line bond (the slider's building block): end b's point stays on the
// line through end a's point along direction d, which turns with body a.
// C = P (y_a - y_b) with P = I - d d^T: the part of the gap across the line.
//
// Hard: projected_bond.h with the multiplier kept across the line (P lambda).
// Soft: k/2 |C|^2, each end pulled with weight h^2 k toward the line through
// the other (the paper's split with the target projected onto the allowed set).
// The line's direction is frozen within an iteration, as projective dynamics
// freezes every projection.
#pragma once

#include "bonds/projected_bond.h"

namespace pabd {

/// The part of v across the unit direction d.
PABD_HD Vec3 across(Vec3 v, Vec3 d) { return v - dot(v, d) * d; }

PABD_HD BondEndPair line_weights(Vec3 ya, Vec3 yb, Vec3 d, Real stiffness, Real h2) {
  return projected_weights(across(ya - yb, d), ya, yb, stiffness, 1, 1, h2);
}

PABD_HD BondEndPair hard_line_weights(Vec3 ya, Vec3 yb, Vec3 d, Real kappa, Vec3 lambda,
                                      Real share_a, Real share_b, Real h2) {
  const Vec3 c = across(ya - yb, d) + (Real(1) / kappa) * across(lambda, d);
  return projected_weights(c, ya, yb, kappa, share_a, share_b, h2);
}

PABD_HD Real line_energy(Vec3 ya, Vec3 yb, Vec3 d, Real stiffness, Vec3 lambda) {
  const Vec3 c = across(ya - yb, d);
  return Real(0.5) * stiffness * dot(c, c) + dot(lambda, c);
}

PABD_HD void line_dual_update(Vec3 ya, Vec3 yb, Vec3 d, const HardBondSettings& s,
                              Real dual_step_max, Real& kappa, Vec3& lambda) {
  projected_dual_update(across(ya - yb, d), s, dual_step_max, kappa, lambda);
  lambda = across(lambda, d);  // the multiplier acts across the line only
}

}  // namespace pabd
