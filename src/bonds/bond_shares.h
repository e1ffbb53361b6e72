// How a hard bond splits its correction between its two ends.
//
// A hard bond pulls end e toward its projected point y_e -/+ share_e C' with
// weight h^2 kappa / share_e (projected_bond.h), so at the fixed point each
// end feels the same force kappa C' whatever the shares: the shares only
// change how the iteration gets there.
//
// - An end on the world or a static body never moves: share 0, and the other
//   end closes the whole gap (share 1).
// - Gauss-Seidel sweeps (IterationOrder::Colored): the two ends are never
//   updated at once, and each sees the other's latest position, so each
//   closes the whole gap (share 1 each): AVBD's split, exact for the end
//   being solved.
// - Jacobi: both ends move at once. Closing the whole gap from both sides
//   makes two equal bodies swap places (the double correction), so each end
//   takes max(its inverse-mass share, 1/2). Equal bodies meet in the middle;
//   a light body on a heavy one closes the whole gap itself, as with plain
//   mass shares. The floor of 1/2 is for the heavy end: a plain mass share of
//   m/M gives it the weight h^2 kappa M/m, which freezes it at its own
//   iterate, so the constraint reaches it only through lambda at a
//   1 + kappa h^2/m times larger mass. In the 19-link chain ending in a
//   1000x link (the paper's Fig. 8) that made the multiplier loop gain
//   energy: the last link fell through the chain and bounced (docs/method.md).
#pragma once

#include "pabd/config.h"

namespace pabd {

/// Each end's share of a hard bond's correction (see above).
struct BondShares {
  Real a = 0;  ///< end a's share
  Real b = 0;  ///< end b's share
};

/// Shares from the ends' inverse masses (0 for the world and static bodies).
PABD_HD BondShares hard_bond_shares(Real inv_a, Real inv_b, bool full_split) {
  if (inv_a == 0 && inv_b == 0) return {};  // no moving end (a removed joint's bonds)
  if (inv_a == 0) return {0, 1};
  if (inv_b == 0) return {1, 0};
  if (full_split) return {1, 1};
  const Real mass_share_a = inv_a / (inv_a + inv_b);
  const Real mass_share_b = Real(1) - mass_share_a;
  const Real half = Real(0.5);
  return {mass_share_a > half ? mass_share_a : half, mass_share_b > half ? mass_share_b : half};
}

}  // namespace pabd
