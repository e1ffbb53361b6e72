// Drive bond: a motor on a hinge's angle or a slider's travel u (point units,
// u = r theta for a hinge; axis_coordinate.h). docs/joints/drives.md has the
// maths.
//
// Once per step (drive_step_setup) the drive turns its joint-unit settings
// into a target u* and a stiffness for the step:
// - Velocity: u* = r (theta_n + omega h), the coordinate at the start of the
//   step advanced by one step at the target speed. A hard bond (augmented
//   Lagrangian, its multiplier warm-started like every hard bond's) whose
//   multiplier is bounded by the force bound: a motor of limited torque.
// - Position: a spring k and damper d toward theta*(t) = target +
//   amplitude sin(2 pi f t + phase), the damper acting on the speed error
//   (theta - theta_n)/h - dtheta*/dt. Both are quadratic in theta, so together
//   they are one spring of stiffness k + d/h toward
//   (k theta* + d/h (theta_n + h dtheta*/dt)) / (k + d/h): implicit damping.
// Each iteration the bond is a spring on u toward u* (coordinate_weights)
// whose force is bounded by the drive's: past the bound its target is moved
// so that the force at the iterate equals the bound, as a friction cone moves
// its target, and the energy is linear there (Huber).
//
// A motor keeps its own penalty kappa (AxisBondState::penalty), not the
// joints' one, which may start far above the bodies' mass over h^2
// (WorldDef::hard_stiffness_mass_ratio) and reaches the kappa cap: a
// moved target converges at w / (M + w) per iteration, so such a weight would
// leave a saturated motor delivering a small part of its bound, and the
// quadratic zone |kappa c| <= F would be too narrow for an iterate to land in.
// Its kappa starts at the coordinate's own mass over h^2 (axis_mass_penalty)
// and grows by beta |C| while the motor is not saturated (a hub welded to
// heavy blades needs more than its own mass), warm-started across steps with
// gamma like the joints' penalty. Saturated, the moved target's weight is at
// most that mass penalty, so each iteration takes up at least about half of
// the motion left. The multiplier steps by kappa, so it equals the force at
// the last iterate.
#pragma once

#include <cmath>

#include "bonds/axis_coordinate.h"
#include "math/portable_trig.h"

namespace pabd {

/// This step's target, stiffness and force bound, from the model and the
/// coordinate at the start of the step (s.start). `time` is the time at the
/// end of the step [s], h the step [s].
PABD_HD void drive_step_setup(const AxisBondModel& p, AxisBondState& s, Real time, Real h) {
  const Real r = p.lever;
  s.force_bound = p.max_force * p.share / r;  // an infinite bound stays infinite
  s.stiffness = 0;
  s.target = r * s.start;
  if (p.mode == AxisDriveMode::Velocity) {
    s.target = r * (s.start + p.target * h);
  } else if (p.mode == AxisDriveMode::Position) {
    const Real omega = Real(2 * 3.14159265358979323846) * p.frequency;
    const Real angle = omega * time + p.phase;
    Real sin_angle, cos_angle;  // pabd's own: the same bits on a device (math/portable_trig.h)
    portable_sin_cos(angle, sin_angle, cos_angle);
    const Real goal = p.target + p.amplitude * sin_angle;
    const Real goal_rate = p.amplitude * omega * cos_angle;
    const Real damping = p.damping / h;
    const Real k = p.stiffness + damping;
    s.target = r * (p.stiffness * goal + damping * (s.start + h * goal_rate)) / k;
    s.stiffness = k * p.share / (r * r);
  }
}

/// A spring of stiffness k on the correction c whose force k c is bounded by
/// `bound`: past it the target is moved so the force is the bound, and the
/// weight is at most `weight_max` (any weight gives the right force there).
PABD_HD BondEndPair bounded_weights(Real c, Real k, Real bound, Real weight_max,
                                    const AxisMeasure& m, Vec3 ya, Vec3 yb, Real share_a,
                                    Real share_b, Real h2) {
  if (k * (c < 0 ? -c : c) <= bound)
    return coordinate_weights(c, m, ya, yb, k, share_a, share_b, h2);
  const Real w = k < weight_max ? k : weight_max;
  return coordinate_weights((c > 0 ? bound : -bound) / w, m, ya, yb, w, share_a, share_b, h2);
}

/// Weights and pulls of a drive bond at coordinate u. Velocity: hard, with
/// the motor's penalty s.penalty and the hard shares; position: soft (shares
/// 1, 1). Saturated, the weight is at most the coordinate's mass penalty.
PABD_HD BondEndPair drive_weights(const AxisMeasure& m, Vec3 ya, Vec3 yb, Real u,
                                  const AxisBondModel& p, const AxisBondState& s, Real lambda,
                                  Real share_a, Real share_b, Real h2) {
  if (p.mode == AxisDriveMode::Velocity)
    return bounded_weights(u - s.target + lambda / s.penalty, s.penalty, s.force_bound,
                           s.mass_penalty, m, ya, yb, share_a, share_b, h2);
  if (p.mode == AxisDriveMode::Position)
    return bounded_weights(u - s.target, s.stiffness, s.force_bound, s.mass_penalty, m, ya, yb, 1,
                           1, h2);
  return {};
}

/// Start of a step, velocity drives: kappa <- max(gamma kappa, the mass penalty).
PABD_HD void drive_warm_start(AxisBondState& s, const HardBondSettings& hs) {
  const Real decayed = hs.augmented ? hs.stiffness_decay * s.penalty : Real(0);
  s.penalty = decayed > s.mass_penalty ? decayed : s.mass_penalty;
}

/// Velocity drives, after an iteration: lambda <- clamp(lambda + kappa C)
/// within the force bound; kappa grows by beta |C| unless saturated.
PABD_HD void drive_dual_update(Real u, AxisBondState& s, const HardBondSettings& hs, Real& lambda) {
  const Real c = u - s.target;
  const Real next = lambda + s.penalty * c;
  const Real bound = s.force_bound;
  lambda = next > bound ? bound : (next < -bound ? -bound : next);
  if (lambda == next) {
    const Real grown = s.penalty + hs.stiffness_growth * (c < 0 ? -c : c);
    s.penalty = grown < hs.stiffness_max ? grown : hs.stiffness_max;
  }
}

/// Force of the drive on u [N] (> 0 raises u) at coordinate u: -(kappa C +
/// lambda) for a velocity drive, the spring's for a position drive; bounded.
PABD_HD Real drive_force(Real u, const AxisBondModel& p, const AxisBondState& s, Real lambda) {
  if (p.mode == AxisDriveMode::Off) return 0;
  const Real f = p.mode == AxisDriveMode::Velocity ? -(s.penalty * (u - s.target) + lambda)
                                                   : -s.stiffness * (u - s.target);
  return f > s.force_bound ? s.force_bound : (f < -s.force_bound ? -s.force_bound : f);
}

/// Energy [J]: quadratic within the force bound, linear past it (continuous).
PABD_HD Real drive_energy(Real u, const AxisBondModel& p, const AxisBondState& s, Real lambda) {
  if (p.mode == AxisDriveMode::Off) return 0;
  const bool hard = p.mode == AxisDriveMode::Velocity;
  const Real k = hard ? s.penalty : s.stiffness;
  const Real c = u - s.target + (hard ? lambda / k : Real(0));
  const Real ac = c < 0 ? -c : c;
  const Real shift = hard ? lambda * lambda / (2 * k) : Real(0);
  if (k * ac <= s.force_bound) return Real(0.5) * k * c * c - shift;
  return s.force_bound * ac - s.force_bound * s.force_bound / (2 * k) - shift;
}

}  // namespace pabd
