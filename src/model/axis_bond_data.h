// Per-bond data of the joint-axis bonds: the limits and drives of hinges and
// sliders (docs/joints/limits.md, docs/joints/drives.md).
//
// These bonds act on one scalar coordinate of a joint: a hinge's angle or a
// slider's travel. Inside a bond the coordinate is written in point units,
// u = r * theta for a hinge (the arc length of a reference point at lever r
// from the axis) and u = travel for a slider (r = 1), so every law works with
// the same [N/m] stiffnesses and [N] forces as the point bonds. A hinge acts
// through a couple of two bonds at opposite sides of the axis, each carrying
// `share` = 1/2 of the joint's torque; a slider through one bond (share 1).
#pragma once

#include <cstdint>

#include "pabd/math.h"

namespace pabd {

/// What a drive bond does this step.
enum class AxisDriveMode : std::uint8_t {
  Off = 0,       ///< no force
  Velocity = 1,  ///< hard: the coordinate advances by `target` * h each step, force bounded
  Position = 2,  ///< soft: spring and damper toward target + amplitude sin(2 pi f t + phase)
};

/// Model of a joint-axis bond, in joint units ([rad] or [m], [N m] or [N]).
/// Constant during a step; the World API writes it.
struct AxisBondModel {
  Vec3 pivot_a;    ///< a point on the axis, end a's body frame (hinges)
  Vec3 pivot_b;    ///< the same point, end b's body frame (hinges)
  Real lever = 1;  ///< r: distance of the reference points from the axis [m]; 1 for sliders
  Real share = 1;  ///< this bond's part of the joint's force (1/2 per bond of a hinge couple)
  Real lower = 0;  ///< limit bonds: lowest coordinate [rad] or [m]
  Real upper = 0;  ///< limit bonds: highest coordinate [rad] or [m]
  AxisDriveMode mode = AxisDriveMode::Off;  ///< drive bonds: the mode
  Real target = 0;     ///< velocity [rad/s]/[m/s]; position [rad]/[m] (the periodic offset)
  Real max_force = 0;  ///< bound on the joint's drive torque [N m] or force [N]; inf = none
  Real stiffness = 0;  ///< position: [N m/rad] or [N/m]
  Real damping = 0;    ///< position: [N m s/rad] or [N s/m]
  Real amplitude = 0;  ///< position: amplitude of the periodic part [rad] or [m]
  Real frequency = 0;  ///< position: [Hz]
  Real phase = 0;      ///< position: [rad]
};

/// State of a joint-axis bond, written once per step (axis_bond.h) and read by
/// the iterations, in point units.
struct AxisBondState {
  Real start = 0;           ///< the coordinate at the start of the step, unwrapped [rad] or [m]
  Real lower_now = 0;       ///< limit bonds: this step's lowest u [m] (limit_step_bounds)
  Real upper_now = 0;       ///< limit bonds: this step's highest u [m]
  Real inverse_mass_a = 0;  ///< 1 / the mass end a's body shows the coordinate [1/kg]
  Real inverse_mass_b = 0;  ///< the same for end b [1/kg]
  Real mass_penalty = 0;    ///< that mass over h^2, this bond's share of it [N/m]
  Real penalty = 0;         ///< velocity drives: the motor's own kappa, warm-started [N/m]
  Real target = 0;          ///< drive: this step's target u* [m]
  Real stiffness = 0;       ///< position drive: (k + d/h) share / r^2 [N/m]
  Real force_bound = 0;     ///< drive: bound on this bond's force, max_force share / r [N]
};

}  // namespace pabd
