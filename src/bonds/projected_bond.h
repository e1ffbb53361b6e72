// The projective-dynamics form shared by every hard (augmented-Lagrangian)
// bond: point coincidence, point on a line, distance.
//
// A hard bond's energy kappa/2 |C|^2 + lambda . C equals kappa/2 |C'|^2 + const
// with C' = C + lambda/kappa, and kappa/2 |C'|^2 is exactly the weighted
// squared distance to the set {C = -lambda/kappa} with weights
// kappa_a = kappa / share_a and kappa_b = kappa / share_b (share_a + share_b = 1,
// each end's share of the inverse mass; 1 against the world). Its projection
// moves end a by -share_a C' and end b by +share_b C' (C' written as a world
// vector "a minus b"). Pulling each end toward its projected point, instead of
// toward the other end's old position, removes the Jacobi double correction:
// two equal bodies meet in the middle instead of swapping places, which made
// stiff penalties between moving bodies oscillate and blow up. The force is
// unchanged: kappa_a (p_a - y_a) = -(kappa C + lambda).
#pragma once

#include "bonds/bond_end_pair.h"
#include "model/bond_arrays.h"

namespace pabd {

/// Weights and pulls toward the projected points p_a = y_a - share_a c,
/// p_b = y_b + share_b c, for a violation vector c (lambda/kappa folded in).
PABD_HD BondEndPair projected_weights(Vec3 c, Vec3 ya, Vec3 yb, Real kappa, Real share_a,
                                      Real share_b, Real h2) {
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

/// Augmented-Lagrangian update after an iteration, for a violation c:
/// lambda <- min(kappa, step_max) c + lambda, kappa += beta |c| (capped).
PABD_HD void projected_dual_update(Vec3 c, const HardBondSettings& s, Real step_max, Real& kappa,
                                   Vec3& lambda) {
  lambda = (kappa < step_max ? kappa : step_max) * c + lambda;
  const Real grown = kappa + s.stiffness_growth * length(c);
  kappa = grown < s.stiffness_max ? grown : s.stiffness_max;
}

}  // namespace pabd
