// Per-bond kernels of the joint-axis bonds (hinge and slider limits and
// drives), called from bond_kernels.h's switches and, once per step, from the
// step (axis_bond_step_kernel). They dispatch to the two laws, limit_bond.h and
// drive_bond.h, over the coordinate of axis_coordinate.h.
//
// The mass that matters here is the one the coordinate sees (a hinge's
// bodies turning about the axis, I / r^2; axis_inverse_mass): it splits a hard
// bond's correction between the ends (bond_shares.h), bounds the limits'
// multiplier step, and is where the motors' penalty starts (drive_bond.h).
#pragma once

#include "bonds/bond_shares.h"
#include "bonds/drive_bond.h"
#include "bonds/limit_bond.h"

namespace pabd {

/// Start of a step, after the prediction: the coordinate at the start pose
/// (unwrapped against the last step's) and, for drives, this step's target.
/// `time` is the time at the end of the step [s]. Other bond kinds: nothing.
PABD_HD void axis_bond_step_kernel(const BodyArrays& bodies, const BondArrays& bonds, int i,
                                   const HardBondSettings& hs, Real time, Real h) {
  const BondKind kind = bonds.kind[i];
  if (!is_axis_bond(kind)) return;
  AxisBondState& s = bonds.axis_state[i];
  const AxisMeasure m = axis_measure(bodies, bonds, i, true);
  s.start = is_hinge_axis_bond(kind) ? unwrap_angle(m.value, s.start) : m.value;
  // The masses the coordinate sees, frozen for the step.
  axis_inverse_masses(bodies, bonds, i, s.inverse_mass_a, s.inverse_mass_b);
  const Real inv = s.inverse_mass_a + s.inverse_mass_b;
  s.mass_penalty = inv > 0 ? axis_mass_penalty(s.inverse_mass_a, s.inverse_mass_b,
                                               bonds.axis_model[i].share, h * h)
                           : Real(0);
  if (!is_drive_bond(kind)) {
    const AxisBondModel& p = bonds.axis_model[i];
    const Real u0 = is_hinge_axis_bond(kind) ? p.lever * s.start : s.start;
    limit_step_bounds(u0, p.lever * p.lower, p.lever * p.upper, h, s.lower_now, s.upper_now);
    return;
  }
  drive_step_setup(bonds.axis_model[i], s, time, h);
  drive_warm_start(s, hs);
}

/// Weights and pulls of joint-axis bond i at the current iterate.
PABD_HD BondEndPair axis_bond_weights(const BodyArrays& bodies, const BondArrays& bonds, int i,
                                      Vec3 ya, Vec3 yb, const HardBondSettings& hs, Real h2) {
  const AxisBondModel& p = bonds.axis_model[i];
  const AxisBondState& s = bonds.axis_state[i];
  if (!(s.mass_penalty > 0)) return {};  // a removed joint: no moving end
  const BondShares sh = hard_bond_shares(s.inverse_mass_a, s.inverse_mass_b, hs.full_split);
  const AxisMeasure m = axis_measure_now(bodies, bonds, i, ya, yb);
  const Real u = axis_point_coordinate(bonds.kind[i], m, p, s);
  if (is_drive_bond(bonds.kind[i]))
    return drive_weights(m, ya, yb, u, p, s, bonds.lambda[i].x, sh.a, sh.b, h2);
  const Real lo = s.lower_now, hi = s.upper_now;
  if (bonds.hard[i])
    return hard_limit_weights(m, ya, yb, u, lo, hi, bonds.penalty[i], bonds.lambda[i].x, sh.a, sh.b,
                              h2);
  return soft_limit_weights(m, ya, yb, u, lo, hi, bonds.stiffness[i], h2);
}

/// After an iteration: the augmented-Lagrangian update of a hard joint-axis
/// bond (limits, velocity drives) whose ends are at ya, yb; the multiplier
/// is kept in lambda.x.
PABD_HD void axis_bond_dual_update(const BodyArrays& bodies, const BondArrays& bonds, int i,
                                   Vec3 ya, Vec3 yb, const HardBondSettings& hs) {
  const AxisBondModel& p = bonds.axis_model[i];
  AxisBondState& s = bonds.axis_state[i];
  if (!(s.mass_penalty > 0)) return;
  const Real u =
      axis_point_coordinate(bonds.kind[i], axis_measure_now(bodies, bonds, i, ya, yb), p, s);
  if (is_drive_bond(bonds.kind[i])) {
    if (p.mode == AxisDriveMode::Velocity) drive_dual_update(u, s, hs, bonds.lambda[i].x);
    return;
  }
  limit_dual_update(u, s.lower_now, s.upper_now, hs, s.mass_penalty, bonds.penalty[i],
                    bonds.lambda[i].x);
}

/// Force on the coordinate [N] (> 0 raises it) of joint-axis bond i at the
/// current state: for a limit, -clamp(kappa C + lambda) (the penalty does most
/// of the work when kappa is large); for a velocity drive under the augmented
/// Lagrangian its multiplier, updated with the drive's own penalty and so the
/// force at the last iterate; otherwise the force at the current coordinate.
PABD_HD Real axis_bond_force(const BodyArrays& bodies, const BondArrays& bonds, int i,
                             bool augmented) {
  const AxisBondModel& p = bonds.axis_model[i];
  const AxisBondState& s = bonds.axis_state[i];
  if (!(s.mass_penalty > 0)) return 0;  // no step yet, or no moving end
  const Real u = axis_point_coordinate(bonds.kind[i], axis_measure(bodies, bonds, i, false), p, s);
  const Real lambda = bonds.lambda[i].x;
  if (is_drive_bond(bonds.kind[i])) {
    if (p.mode == AxisDriveMode::Velocity && augmented) return -lambda;
    return drive_force(u, p, s, lambda);
  }
  return limit_force(u, s.lower_now, s.upper_now, bonds.hard[i] != 0,
                     bonds.hard[i] ? bonds.penalty[i] : bonds.stiffness[i], lambda);
}

/// Energy of joint-axis bond i at the current iterate [J].
PABD_HD Real axis_bond_energy(const BodyArrays& bodies, const BondArrays& bonds, int i) {
  const AxisBondModel& p = bonds.axis_model[i];
  const AxisBondState& s = bonds.axis_state[i];
  if (!(s.mass_penalty > 0)) return 0;
  const Real u = axis_point_coordinate(bonds.kind[i], axis_measure(bodies, bonds, i, false), p, s);
  if (is_drive_bond(bonds.kind[i])) return drive_energy(u, p, s, bonds.lambda[i].x);
  const bool hard = bonds.hard[i] != 0;
  return limit_energy(u, s.lower_now, s.upper_now, hard,
                      hard ? bonds.penalty[i] : bonds.stiffness[i], bonds.lambda[i].x);
}

}  // namespace pabd
