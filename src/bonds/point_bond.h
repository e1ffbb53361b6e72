// Point-coincidence bond (the spherical joint): C = y_a - y_b = 0.
//
// Soft: Psi = k/2 |C|^2, so weight h^2 k toward the other end.
// Hard (Augmented-PABD): Psi = kappa/2 |C|^2 + lambda . C. The gradient for
// end a is kappa (y_a - (y_b - lambda/kappa)): the same weight-and-target form
// with the target shifted by -lambda/kappa (and +lambda/kappa for end b).
// After each iteration lambda <- kappa C + lambda and kappa grows by beta |C|;
// at the start of a step both are warm-started from the previous step.
#pragma once

#include "bonds/bond_arrays.h"
#include "bonds/bond_end_pair.h"

namespace pabd {

PABD_HD BondEndPair point_weights(Vec3 ya, Vec3 yb, Real stiffness, Vec3 lambda, Real h2) {
  const Real w = h2 * stiffness;
  BondEndPair out;
  out.weight_a = out.weight_b = w;
  out.pull_a = w * yb - h2 * lambda;
  out.pull_b = w * ya + h2 * lambda;
  return out;
}

PABD_HD Real point_energy(Vec3 ya, Vec3 yb, Real stiffness, Vec3 lambda) {
  const Vec3 c = ya - yb;
  return Real(0.5) * stiffness * dot(c, c) + dot(lambda, c);
}

/// Dual update after an iteration: lambda <- kappa C + lambda, kappa += beta |C|.
PABD_HD void point_dual_update(Vec3 ya, Vec3 yb, const HardBondSettings& s, Real& kappa,
                               Vec3& lambda) {
  const Vec3 c = ya - yb;
  lambda = kappa * c + lambda;
  const Real grown = kappa + s.stiffness_growth * length(c);
  kappa = grown < s.stiffness_max ? grown : s.stiffness_max;
}

}  // namespace pabd
