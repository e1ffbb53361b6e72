// Point-coincidence bond (the spherical joint): C = y_a - y_b = 0.
//
// Soft: Psi = k/2 |C|^2, so weight h^2 k toward the other end.
// Hard (Augmented-PABD): Psi = kappa/2 |C|^2 + lambda . C, in the
// weight-and-target form with projective-dynamics targets (see
// hard_point_weights). After each iteration lambda <- min(kappa, m_eff/h^2) C +
// lambda (see dual_step_bound in bond_kernels.h) and
// kappa grows by beta |C|; at the start of a step both are warm-started from
// the previous step.
#pragma once

#include "bonds/bond_arrays.h"
#include "bonds/bond_end_pair.h"

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

/// Hard point bond: projective-dynamics targets with mass-weighted shares.
///
/// With C' = C + lambda/kappa, kappa/2 |C|^2 + lambda . C = kappa/2 |C'|^2 + const,
/// and kappa/2 |C'|^2 is exactly the weighted squared distance to the set
/// {y_a - y_b = -lambda/kappa} with weights kappa_a = kappa / share_a,
/// kappa_b = kappa / share_b (share_a + share_b = 1). Its projection is
/// p_a = y_a - share_a C', p_b = y_b + share_b C'. Pulling each end toward its
/// projected point (not toward the other end) removes the Jacobi double
/// correction: two equal bodies meet in the middle instead of swapping
/// places, which makes stiff AL penalties between moving bodies oscillate and
/// blow up. The force is unchanged: kappa_a (p_a - y_a) = -(kappa C + lambda).
/// share_e is the end's share of the inverse mass (1 against the world).
PABD_HD BondEndPair hard_point_weights(Vec3 ya, Vec3 yb, Real kappa, Vec3 lambda, Real share_a,
                                       Real share_b, Real h2) {
  const Vec3 c = (ya - yb) + (Real(1) / kappa) * lambda;
  BondEndPair out;
  if (share_a > 0) {
    out.weight_a = h2 * kappa / share_a;
    out.pull_a = out.weight_a * (ya - share_a * c);
  }
  if (share_b > 0) {
    out.weight_b = h2 * kappa / share_b;
    out.pull_b = out.weight_b * (yb + share_b * c);
  }
  return out;
}

PABD_HD Real point_energy(Vec3 ya, Vec3 yb, Real stiffness, Vec3 lambda) {
  const Vec3 c = ya - yb;
  return Real(0.5) * stiffness * dot(c, c) + dot(lambda, c);
}

/// Dual update after an iteration: lambda <- min(kappa, dual_step_max) C + lambda,
/// kappa += beta |C| (capped).
PABD_HD void point_dual_update(Vec3 ya, Vec3 yb, const HardBondSettings& s, Real dual_step_max,
                               Real& kappa, Vec3& lambda) {
  const Vec3 c = ya - yb;
  lambda = (kappa < dual_step_max ? kappa : dual_step_max) * c + lambda;
  const Real grown = kappa + s.stiffness_growth * length(c);
  kappa = grown < s.stiffness_max ? grown : s.stiffness_max;
}

}  // namespace pabd
