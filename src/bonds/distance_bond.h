// Distance bond (a rigid rod between two points): C = |y_b - y_a| - L = 0.
//
// Hard only (a soft distance bond is a spring): projected_bond.h with the
// violation as a vector along the rod, c = -(C + lambda/kappa) n with
// n = (y_b - y_a) / |y_b - y_a|, and a scalar multiplier kept in lambda.x.
// When the two points meet the direction is undefined: no pull that iteration.
#pragma once

#include "bonds/projected_bond.h"

namespace pabd {

PABD_HD BondEndPair hard_distance_weights(Vec3 ya, Vec3 yb, Real rest, Real kappa, Real lambda,
                                          Real share_a, Real share_b, Real h2) {
  const Vec3 ab = yb - ya;
  const Real d = length(ab);
  if (!(d > Real(1e-12))) return projected_weights(Vec3{}, ya, yb, kappa, share_a, share_b, h2);
  const Vec3 c = (-(d - rest + lambda / kappa) / d) * ab;
  return projected_weights(c, ya, yb, kappa, share_a, share_b, h2);
}

PABD_HD Real distance_energy(Vec3 ya, Vec3 yb, Real rest, Real kappa, Real lambda) {
  const Real c = length(yb - ya) - rest;
  return Real(0.5) * kappa * c * c + lambda * c;
}

/// lambda <- min(kappa, step_max) C + lambda, kappa += beta |C| (capped).
PABD_HD void distance_dual_update(Vec3 ya, Vec3 yb, Real rest, const HardBondSettings& s,
                                  Real dual_step_max, Real& kappa, Vec3& lambda) {
  const Real c = length(yb - ya) - rest;
  lambda.x += (kappa < dual_step_max ? kappa : dual_step_max) * c;
  const Real grown = kappa + s.stiffness_growth * (c < 0 ? -c : c);
  kappa = grown < s.stiffness_max ? grown : s.stiffness_max;
}

}  // namespace pabd
