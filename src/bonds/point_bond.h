// Point-coincidence bond (the spherical joint): C = y_a - y_b = 0.
//
// Soft: Psi = k/2 |C|^2, so weight h^2 k toward the other end.
// Hard (Augmented-PABD): Psi = kappa/2 |C|^2 + lambda . C, in the
// weight-and-target form with projective-dynamics targets (projected_bond.h). After each iteration
// lambda <- min(kappa, m_eff/h^2) C + lambda (see dual_step_bound in bond_kernels.h) and kappa
// grows by beta |C|; at the start of a step both are warm-started from the previous step.
#pragma once

#include "bonds/bond_end_pair.h"
#include "bonds/projected_bond.h"
#include "model/bond_arrays.h"

namespace pabd {

/// Soft point bond (and the shape of the paper's split): each end is pulled
/// with weight h^2 k toward the other end's iteration-k position.
PABD_HD BondEndPair point_weights(Vec3 ya, Vec3 yb, Real stiffness, Real h2) {
  const Real w = h2 * stiffness;
  BondEndPair out;
  out.weight_a = out.weight_b = w;
  out.pull_a = w * yb;
  out.pull_b = w * ya;
  return out;
}

/// Hard point bond: projective-dynamics targets with mass-weighted shares
/// (projected_bond.h), C = y_a - y_b.
PABD_HD BondEndPair hard_point_weights(Vec3 ya, Vec3 yb, Real kappa, Vec3 lambda, Real share_a,
                                       Real share_b, Real h2) {
  return projected_weights((ya - yb) + (Real(1) / kappa) * lambda, ya, yb, kappa, share_a, share_b,
                           h2);
}

PABD_HD Real point_energy(Vec3 ya, Vec3 yb, Real stiffness, Vec3 lambda) {
  const Vec3 c = ya - yb;
  return Real(0.5) * stiffness * dot(c, c) + dot(lambda, c);
}

/// Dual update after an iteration (see projected_dual_update).
PABD_HD void point_dual_update(Vec3 ya, Vec3 yb, const HardBondSettings& s, Real dual_step_max,
                               Real& kappa, Vec3& lambda) {
  projected_dual_update(ya - yb, s, dual_step_max, kappa, lambda);
}

}  // namespace pabd
