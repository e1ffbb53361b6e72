// The coordinate a joint-axis bond acts on (a hinge's angle, a slider's
// travel) and the weight-and-target form of a correction to it.
//
// Hinge: the bond's ends are reference points at lever r from the axis, one
// on each body, together at creation. Their radials rho_a, rho_b (the parts of
// y - pivot across the axis n) give the angle theta = atan2(n . rho_a x rho_b,
// rho_a . rho_b), and each end moves the angle along its tangent
// t = n x rho / |rho|. Slider: the ends are the anchor on each body, the
// travel is n . (y_b - y_a), and both ends move it along n.
//
// A correction c (the coordinate, in point units u = r theta, should become
// u - c) is projected as for the other hard bonds (projected_bond.h): end b is
// pulled toward y_b - share_b c t_b and end a toward y_a + share_a c t_a, with
// weights h^2 k / share. The target moves only along the tangent, so the force
// is k c along it: a torque k c r, the same on both bodies and opposite. The
// tangent is frozen within an iteration, as the line bond freezes its line.
#pragma once

#include <cmath>

#include "bonds/bond_end_pair.h"
#include "bonds/line_bond.h"
#include "math/portable_trig.h"
#include "model/axis_bond_data.h"
#include "model/body_arrays.h"
#include "model/bond_arrays.h"

namespace pabd {

/// A coordinate and the directions in which each end moves it.
struct AxisMeasure {
  Real value = 0;  ///< hinge: angle in (-pi, pi] [rad]; slider: travel [m]
  Vec3 dir_a;      ///< end a moving by ds along dir_a lowers the coordinate by ds (point units)
  Vec3 dir_b;      ///< end b moving by ds along dir_b raises it by ds
};

/// True for the bonds of hinge and slider limits and drives.
PABD_HD bool is_axis_bond(BondKind kind) {
  return kind == BondKind::HingeLimit || kind == BondKind::SliderLimit ||
         kind == BondKind::HingeDrive || kind == BondKind::SliderDrive;
}
PABD_HD bool is_hinge_axis_bond(BondKind kind) {
  return kind == BondKind::HingeLimit || kind == BondKind::HingeDrive;
}
PABD_HD bool is_drive_bond(BondKind kind) {
  return kind == BondKind::HingeDrive || kind == BondKind::SliderDrive;
}

/// Hinge angle of end b's reference point from end a's about the unit axis n,
/// with pivots o_a, o_b on the axis (all world points).
PABD_HD AxisMeasure hinge_measure(Vec3 ya, Vec3 yb, Vec3 oa, Vec3 ob, Vec3 n) {
  const Vec3 ra = across(ya - oa, n), rb = across(yb - ob, n);
  AxisMeasure m;
  // pabd's own arctangent: a device computes the same bits (math/portable_trig.h).
  m.value = portable_atan2(dot(n, cross(ra, rb)), dot(ra, rb));
  const Real la = length(ra), lb = length(rb);
  if (la > 0) m.dir_a = (Real(1) / la) * cross(n, ra);
  if (lb > 0) m.dir_b = (Real(1) / lb) * cross(n, rb);
  return m;
}

/// Slider travel of end b from end a along the unit axis n.
PABD_HD AxisMeasure slider_measure(Vec3 ya, Vec3 yb, Vec3 n) {
  AxisMeasure m;
  m.value = dot(n, yb - ya);
  m.dir_a = n;
  m.dir_b = n;
  return m;
}

/// The angle equal to `principal` modulo 2 pi that lies within pi of `near`
/// (a joint turns less than half a turn per step).
PABD_HD Real unwrap_angle(Real principal, Real near) {
  const Real pi = Real(3.14159265358979323846), two_pi = 2 * pi;
  Real d = principal - near;
  d -= two_pi * std::floor((d + pi) / two_pi);
  return near + d;
}

/// World point of material point x: at the current iterate, or at the start of
/// the step (`start`; static bodies never move, so theirs is the current pose).
PABD_HD Vec3 pose_point(const BodyArrays& b, int body, Vec3 x, bool start) {
  if (body < 0) return x;
  if (start && !b.is_static[body]) return b.start_affine[body] * x + b.start_position[body];
  return b.affine[body] * x + b.position[body];
}

/// Bond i's coordinate and directions from its ends' world points ya, yb
/// (pose_point of end_local), at the current iterate or the step's start.
PABD_HD_ALWAYS_INLINE AxisMeasure axis_measure_from(const BodyArrays& bodies,
                                                    const BondArrays& bonds, int i, Vec3 ya,
                                                    Vec3 yb, bool start) {
  const int a = bonds.end_body[2 * i], b = bonds.end_body[2 * i + 1];
  Vec3 n = bonds.axis[i];  // the axis turns with end a's body
  if (a >= 0) n = (start && !bodies.is_static[a] ? bodies.start_affine[a] : bodies.affine[a]) * n;
  if (!is_hinge_axis_bond(bonds.kind[i])) return slider_measure(ya, yb, n);
  const AxisBondModel& p = bonds.axis_model[i];
  return hinge_measure(ya, yb, pose_point(bodies, a, p.pivot_a, start),
                       pose_point(bodies, b, p.pivot_b, start), n);
}

/// Bond i's coordinate and directions, at the current iterate or the step's start.
PABD_HD AxisMeasure axis_measure(const BodyArrays& bodies, const BondArrays& bonds, int i,
                                 bool start) {
  const int a = bonds.end_body[2 * i], b = bonds.end_body[2 * i + 1];
  const Vec3 ya = pose_point(bodies, a, bonds.end_local[2 * i], start);
  const Vec3 yb = pose_point(bodies, b, bonds.end_local[2 * i + 1], start);
  return axis_measure_from(bodies, bonds, i, ya, yb, start);
}

/// axis_measure at the current iterate, where the caller has the ends'
/// world points already (world_point gives pose_point's bits): the bond
/// kernels' weights and dual update, each once per bond and iteration.
PABD_HD AxisMeasure axis_measure_now(const BodyArrays& bodies, const BondArrays& bonds, int i,
                                     Vec3 ya, Vec3 yb) {
  return axis_measure_from(bodies, bonds, i, ya, yb, false);
}

/// The inverse of the mass one end's body shows to the coordinate [1/kg]: a
/// slider's body translates, 1/m; a hinge's turns about the axis through its
/// pivot (the hinge holds it there), r^2 / I with I = n.(tr(Pi) I3 - Pi) n +
/// m d^2 (d: its centre's distance from the axis). 0 for the world and static bodies.
PABD_HD Real axis_inverse_mass(const BodyArrays& b, int body, bool hinge, Vec3 n, Vec3 pivot,
                               Real lever) {
  if (body < 0 || b.is_static[body]) return 0;
  const Real m = b.mass[body];
  if (!hinge) return Real(1) / m;
  const Mat3& pi = b.affine_inertia[body];
  const Vec3 nb = transpose(b.affine[body]) * n;  // the axis in the body's frame
  const Vec3 d = across(b.position[body] - pivot, n);
  const Real inertia = pi.m[0][0] + pi.m[1][1] + pi.m[2][2] - dot(nb, pi * nb) + m * dot(d, d);
  return lever * lever / inertia;
}

/// Both ends' inverse masses for bond i's coordinate, at the current iterate.
PABD_HD void axis_inverse_masses(const BodyArrays& bodies, const BondArrays& bonds, int i,
                                 Real& inv_a, Real& inv_b) {
  const int a = bonds.end_body[2 * i], b = bonds.end_body[2 * i + 1];
  const bool hinge = is_hinge_axis_bond(bonds.kind[i]);
  const AxisBondModel& p = bonds.axis_model[i];
  const Vec3 n = a < 0 ? bonds.axis[i] : bodies.affine[a] * bonds.axis[i];
  inv_a = axis_inverse_mass(bodies, a, hinge, n, pose_point(bodies, a, p.pivot_a, false), p.lever);
  inv_b = axis_inverse_mass(bodies, b, hinge, n, pose_point(bodies, b, p.pivot_b, false), p.lever);
}

/// The penalty of a bond whose coordinate has inverse masses inv_a, inv_b:
/// the coordinate's mass over h^2, divided among the joint's bonds (share
/// each) [N/m]. The force that closes a gap within one step if the two bodies
/// alone took it up (as dual_step_bound in bond_kernels.h, for the coordinate).
PABD_HD Real axis_mass_penalty(Real inv_a, Real inv_b, Real share, Real h2) {
  return share / (h2 * (inv_a + inv_b));
}

/// The coordinate in point units (r theta, or the travel), a hinge's angle
/// unwrapped against the start of the step.
PABD_HD Real axis_point_coordinate(BondKind kind, const AxisMeasure& m, const AxisBondModel& p,
                                   const AxisBondState& s) {
  return is_hinge_axis_bond(kind) ? p.lever * unwrap_angle(m.value, s.start) : m.value;
}

/// Weight-and-target form of a correction c in point units: the ends are
/// pulled with weights h^2 k / share toward targets moved by share * c along
/// their directions (an end with share 0 does not move: no weight).
PABD_HD BondEndPair coordinate_weights(Real c, const AxisMeasure& m, Vec3 ya, Vec3 yb, Real k,
                                       Real share_a, Real share_b, Real h2) {
  BondEndPair out;
  if (share_a > 0) {
    out.weight_a = h2 * k / share_a;
    out.pull_a = out.weight_a * (ya + (share_a * c) * m.dir_a);
  }
  if (share_b > 0) {
    out.weight_b = h2 * k / share_b;
    out.pull_b = out.weight_b * (yb - (share_b * c) * m.dir_b);
  }
  return out;
}

}  // namespace pabd
