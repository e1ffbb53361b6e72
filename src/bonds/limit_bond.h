// Limit bond: keeps a hinge's angle or a slider's travel u within
// [lower, upper] (point units, u = r theta for a hinge; axis_coordinate.h).
// docs/joints/limits.md has the maths.
//
// A one-sided constraint, active only past a bound. Hard (the joint's own
// bonds are hard): the augmented Lagrangian of an inequality, as AVBD writes
// it, with C = u - bound and the force on u equal to -clamp(kappa C + lambda)
// where the clamp lets the upper bound only push down (kappa C + lambda >= 0)
// and the lower bound only push up (<= 0). While it pushes, its energy is
// kappa/2 (C + lambda/kappa)^2 + const, so the weight-and-target form is the
// hard point bond's, along the coordinate (coordinate_weights); while it would
// pull, it does nothing (no weight). After each iteration
// lambda <- clamp(lambda + min(kappa, M/h^2) C) (M: the mass the coordinate
// sees, axis_mass_penalty) and, while it pushes,
// kappa grows by beta |C|; both are warm-started across steps like every hard
// bond (bond_kernels.h). The multiplier's sign says which bound it belongs to,
// so a released multiplier (0) takes the bound nearer to u.
// Soft (a joint with a stiffness): k/2 (u - bound)^2 past the bound.
//
// A limit that starts a step violated by more than one step of
// kLimitRecoverySpeed (a joint created outside its range, or a limit narrowed
// by hand) recovers at that speed instead of within one step: the step's bound
// is moved to u_start -+ kLimitRecoverySpeed h (limit_step_bounds). Closed in
// one step, a slider started 1.5 m outside its limits threw a body at 360 m/s
// (h = 1/240), energy from nowhere. Violations left by a converging solve
// are far below one step of that speed, so their bound stays the limit.
#pragma once

#include "bonds/axis_coordinate.h"

namespace pabd {

/// Speed at which a limit violated at a step's start is brought back, in
/// point units (r theta for a hinge) [m/s]: that of a slow hand, under the
/// speeds any shipped scene's joints reach their limits with.
constexpr Real kLimitRecoverySpeed = 1;

/// This step's bounds in point units, from the limits [lo, hi] and the
/// coordinate at the step's start u0: a bound more than kLimitRecoverySpeed h
/// beyond u0 moves to that distance from it.
PABD_HD void limit_step_bounds(Real u0, Real lo, Real hi, Real h, Real& lower_now,
                               Real& upper_now) {
  const Real reach = kLimitRecoverySpeed * h;
  lower_now = u0 < lo - reach ? u0 + reach : lo;
  upper_now = u0 > hi + reach ? u0 - reach : hi;
}

/// +1 for the upper bound, -1 for the lower: a multiplier keeps its bound,
/// a free bond takes the nearer one.
PABD_HD int limit_side(Real u, Real lower, Real upper, Real lambda) {
  if (lambda > 0) return 1;
  if (lambda < 0) return -1;
  return u > Real(0.5) * (lower + upper) ? 1 : -1;
}

/// Hard limit: weights and pulls from the coordinate u and the AL state.
PABD_HD BondEndPair hard_limit_weights(const AxisMeasure& m, Vec3 ya, Vec3 yb, Real u, Real lower,
                                       Real upper, Real kappa, Real lambda, Real share_a,
                                       Real share_b, Real h2) {
  const int side = limit_side(u, lower, upper, lambda);
  const Real c = u - (side > 0 ? upper : lower) + lambda / kappa;
  if (!(side * c > 0)) return {};  // it would pull: inactive
  return coordinate_weights(c, m, ya, yb, kappa, share_a, share_b, h2);
}

/// Soft limit: a penalty of stiffness k past either bound.
PABD_HD BondEndPair soft_limit_weights(const AxisMeasure& m, Vec3 ya, Vec3 yb, Real u, Real lower,
                                       Real upper, Real k, Real h2) {
  const Real c = u > upper ? u - upper : (u < lower ? u - lower : Real(0));
  if (c == 0) return {};
  return coordinate_weights(c, m, ya, yb, k, 1, 1, h2);
}

/// Augmented-Lagrangian update after an iteration, the multiplier clamped to push only.
PABD_HD void limit_dual_update(Real u, Real lower, Real upper, const HardBondSettings& s,
                               Real dual_step_max, Real& kappa, Real& lambda) {
  const int side = limit_side(u, lower, upper, lambda);
  const Real c = u - (side > 0 ? upper : lower);
  const bool pushing = side * (c + lambda / kappa) > 0;
  const Real next = lambda + (kappa < dual_step_max ? kappa : dual_step_max) * c;
  lambda = side > 0 ? (next > 0 ? next : Real(0)) : (next < 0 ? next : Real(0));
  if (pushing) {
    const Real grown = kappa + s.stiffness_growth * (c < 0 ? -c : c);
    kappa = grown < s.stiffness_max ? grown : s.stiffness_max;
  }
}

/// Force of the limit on u [N] (> 0 raises u) at coordinate u: soft with
/// stiffness k, or hard with penalty k and multiplier lambda.
PABD_HD Real limit_force(Real u, Real lower, Real upper, bool hard, Real k, Real lambda) {
  if (!hard) return u > upper ? -k * (u - upper) : (u < lower ? -k * (u - lower) : Real(0));
  const int side = limit_side(u, lower, upper, lambda);
  const Real f = k * (u - (side > 0 ? upper : lower)) + lambda;
  return side * f > 0 ? -f : Real(0);
}

/// Energy [J]: the AL function (max(0, side (kappa C + lambda))^2 - lambda^2) / 2 kappa
/// when hard, k/2 (violation)^2 when soft.
PABD_HD Real limit_energy(Real u, Real lower, Real upper, bool hard, Real k, Real lambda) {
  if (!hard) {
    const Real c = u > upper ? u - upper : (u < lower ? u - lower : Real(0));
    return Real(0.5) * k * c * c;
  }
  const int side = limit_side(u, lower, upper, lambda);
  const Real f = k * (u - (side > 0 ? upper : lower)) + lambda;
  const Real pushing = side * f > 0 ? f : Real(0);
  return (pushing * pushing - lambda * lambda) / (2 * k);
}

}  // namespace pabd
