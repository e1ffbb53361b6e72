// Per-bond kernels: one call per bond, dispatching on the bond kind to the
// laws in src/bonds/*_bond.h. A new bond type is a new law header plus one case
// in each switch here; the solver (src/solver/) never changes.
#pragma once

#include "bonds/axis_bond.h"
#include "bonds/bond_shares.h"
#include "bonds/distance_bond.h"
#include "bonds/joint_load.h"
#include "bonds/line_bond.h"
#include "bonds/point_bond.h"
#include "bonds/spring_bond.h"
#include "model/body_arrays.h"
#include "model/bond_arrays.h"

namespace pabd {

/// 1/m of a bond end's body; 0 for the world and static bodies (they never move).
PABD_HD Real inverse_mass(const BodyArrays& bodies, int body) {
  return (body < 0 || bodies.is_static[body]) ? Real(0) : Real(1) / bodies.mass[body];
}

/// How hard bond i splits its correction between its ends (bond_shares.h).
PABD_HD BondShares bond_shares(const BodyArrays& bodies, const BondArrays& bonds, int i,
                               bool full_split) {
  return hard_bond_shares(inverse_mass(bodies, bonds.end_body[2 * i]),
                          inverse_mass(bodies, bonds.end_body[2 * i + 1]), full_split);
}

/// World direction of a line bond: its axis turned with end a's body.
PABD_HD Vec3 line_direction(const BodyArrays& bodies, const BondArrays& bonds, int i) {
  const int a = bonds.end_body[2 * i];
  return a < 0 ? bonds.axis[i] : bodies.affine[a] * bonds.axis[i];
}

/// Moves a line bond's end a along the line to the foot of end b. The
/// constraint C = P (y_a - y_b) does not change (the move is along d), but
/// the body solve applies end a's weight and pull at its material point, and
/// only the foot gives the right lever: dC/dA_a, with d turning with body a,
/// is P dA_a (X_a + s d_local) for the travel s = d.(y_b - y_a). With the
/// point left at the anchor, a light body_a turned freely under a heavy
/// body_b far along the rail and the pair gained energy without bound
/// (1e5 m/s within 170 steps at a mass ratio of 100).
PABD_HD void slide_line_anchor(const BodyArrays& bodies, const BondArrays& bonds, int i) {
  const int ea = 2 * i, eb = 2 * i + 1;
  const int a = bonds.end_body[ea];
  const Vec3 ya = world_point(bodies, a, bonds.end_local[ea]);
  const Vec3 yb = world_point(bodies, bonds.end_body[eb], bonds.end_local[eb]);
  const Vec3 d = line_direction(bodies, bonds, i);
  const Real dd = dot(d, d);
  if (!(dd > 0)) return;
  const Real s = dot(yb - ya, d) / dd;  // ya + s d is the foot
  bonds.end_local[ea] = bonds.end_local[ea] + s * (a < 0 ? d : bonds.axis[i]);
}

/// Evaluates bond i at the current iterate and stores its ends' weights and pulls.
PABD_HD void bond_weights_kernel(const BodyArrays& bodies, const BondArrays& bonds, int i,
                                 const HardBondSettings& hard, Real h2) {
  const int ea = 2 * i, eb = 2 * i + 1;
  const Vec3 ya = world_point(bodies, bonds.end_body[ea], bonds.end_local[ea]);
  const Vec3 yb = world_point(bodies, bonds.end_body[eb], bonds.end_local[eb]);
  BondEndPair out;
  switch (bonds.kind[i]) {
    case BondKind::Spring:
      out = spring_weights(ya, yb, bonds.stiffness[i], bonds.rest_length[i], h2);
      break;
    case BondKind::Point:
      if (bonds.hard[i]) {
        const BondShares sh = bond_shares(bodies, bonds, i, hard.full_split);
        out = hard_point_weights(ya, yb, bonds.penalty[i], bonds.lambda[i], sh.a, sh.b, h2);
      } else {
        out = point_weights(ya, yb, bonds.stiffness[i], h2);
      }
      break;
    case BondKind::Line: {
      const Vec3 d = line_direction(bodies, bonds, i);
      if (bonds.hard[i]) {
        const BondShares sh = bond_shares(bodies, bonds, i, hard.full_split);
        out = hard_line_weights(ya, yb, d, bonds.penalty[i], bonds.lambda[i], sh.a, sh.b, h2);
      } else {
        out = line_weights(ya, yb, d, bonds.stiffness[i], h2);
      }
      break;
    }
    case BondKind::Distance: {
      const BondShares sh = bond_shares(bodies, bonds, i, hard.full_split);
      out = hard_distance_weights(ya, yb, bonds.rest_length[i], bonds.penalty[i], bonds.lambda[i].x,
                                  sh.a, sh.b, h2);
      break;
    }
    case BondKind::HingeLimit:
    case BondKind::SliderLimit:
    case BondKind::HingeDrive:
    case BondKind::SliderDrive:
      out = axis_bond_weights(bodies, bonds, i, ya, yb, hard, h2);
      break;
  }
  bonds.end_weight[ea] = out.weight_a;
  bonds.end_pull[ea] = out.pull_a;
  bonds.end_weight[eb] = out.weight_b;
  bonds.end_pull[eb] = out.pull_b;
}

/// Largest multiplier step per unit violation, m_eff / h^2 with
/// m_eff = 1 / (1/m_a + 1/m_b): the force that would close the gap within one
/// step if the two bodies alone took it up. The plain AVBD update uses kappa,
/// which assumes the primal problem is solved; one Jacobi sweep is far from
/// that when masses differ, and kappa >> m_eff / h^2 then overshoots from
/// iteration to iteration until it diverges (a 19-link chain ending in a
/// 1000x heavier link blew up within 60 steps).
PABD_HD Real dual_step_bound(const BodyArrays& bodies, const BondArrays& bonds, int i, Real h2) {
  const Real inv =
      inverse_mass(bodies, bonds.end_body[2 * i]) + inverse_mass(bodies, bonds.end_body[2 * i + 1]);
  return Real(1) / (h2 * inv);
}

/// Start of a step: warm-start a hard bond's penalty and multiplier. The
/// penalty never starts below m_eff / h^2: a fixed kappa_start of 1e4 N/m is
/// nothing to a 1000 kg body (m / h^2 = 3.6e6), so its multiplier wound up over
/// many iterations and then threw the body (a 1000 kg rod hung from one joint
/// flipped over its pivot); AVBD users report the same jitter.
///
/// Point bonds start at stiffness_mass_ratio (default 1) times m_eff / h^2.
/// Below about 1e3 the step map of a 19-link chain, of equal links or ending in
/// a 1000x link, is not contractive: its multiplier loop gains energy, and with
/// Jacobi sweeps the 1000x link swung 3 m above its release height. Higher
/// ratios make Jacobi sweeps slow to move rigid assemblies (a driven rotor of
/// welded blades lagged its motor by half), so the default stays 1 and such
/// scenes raise it with colored sweeps (docs/method.md). Point-on-line
/// and distance bonds keep the plain m_eff / h^2: their projective targets hold
/// the free direction (along the rail, around the rod) at the current iterate,
/// and a stiff start makes that hold strong enough to slow the free motion (a
/// slider's along-rail travel and a motor's lift fell short by 4% and more).
/// Joint-axis bonds start from their own mass (axis_bond.h).
/// Hard point bonds also start at least at the stiffness of the mass they
/// hold to the world (joint_load.h).
PABD_HD void bond_warm_start_kernel(const BodyArrays& bodies, const BondArrays& bonds, int i,
                                    const HardBondSettings& s, Real h2) {
  if (bonds.kind[i] == BondKind::Line) slide_line_anchor(bodies, bonds, i);
  if (!bonds.hard[i]) return;
  if (!s.augmented) {  // plain penalty: the paper's Fig. 8c
    bonds.penalty[i] = s.stiffness_start;
    bonds.lambda[i] = Vec3{};
    return;
  }
  const bool point = bonds.kind[i] == BondKind::Point;
  const Real ratio = point ? s.stiffness_mass_ratio : Real(1);
  const Real mass_floor = ratio * dual_step_bound(bodies, bonds, i, h2);
  Real floor = s.stiffness_start > mass_floor ? s.stiffness_start : mass_floor;
  if (point && bonds.mass_behind) {
    const Real m_eff = h2 * dual_step_bound(bodies, bonds, i, h2);
    const Real load = joint_load_penalty(bonds.mass_behind[i], m_eff, h2);
    floor = floor > load ? floor : load;
  }
  floor = floor < s.stiffness_max ? floor : s.stiffness_max;
  const Real decayed = s.stiffness_decay * bonds.penalty[i];
  bonds.penalty[i] = decayed > floor ? decayed : floor;
  bonds.lambda[i] = (s.lambda_decay * s.stiffness_decay) * bonds.lambda[i];
}

/// After an iteration: the augmented-Lagrangian update of a hard bond.
PABD_HD void bond_dual_kernel(const BodyArrays& bodies, const BondArrays& bonds, int i,
                              const HardBondSettings& s, Real h2) {
  if (!bonds.hard[i] || !s.augmented) return;
  const int ea = 2 * i, eb = 2 * i + 1;
  const Vec3 ya = world_point(bodies, bonds.end_body[ea], bonds.end_local[ea]);
  const Vec3 yb = world_point(bodies, bonds.end_body[eb], bonds.end_local[eb]);
  switch (bonds.kind[i]) {
    case BondKind::Point:
      point_dual_update(ya, yb, s, dual_step_bound(bodies, bonds, i, h2), bonds.penalty[i],
                        bonds.lambda[i]);
      break;
    case BondKind::Line:
      line_dual_update(ya, yb, line_direction(bodies, bonds, i), s,
                       dual_step_bound(bodies, bonds, i, h2), bonds.penalty[i], bonds.lambda[i]);
      break;
    case BondKind::Distance:
      distance_dual_update(ya, yb, bonds.rest_length[i], s, dual_step_bound(bodies, bonds, i, h2),
                           bonds.penalty[i], bonds.lambda[i]);
      break;
    case BondKind::HingeLimit:
    case BondKind::SliderLimit:
    case BondKind::HingeDrive:
    case BondKind::SliderDrive:
      axis_bond_dual_update(bodies, bonds, i, ya, yb, s);
      break;
    case BondKind::Spring:
      break;
  }
}

/// Energy of bond i at the current iterate [J] (for convergence measurements).
PABD_HD Real bond_energy_kernel(const BodyArrays& bodies, const BondArrays& bonds, int i) {
  const int ea = 2 * i, eb = 2 * i + 1;
  const Vec3 ya = world_point(bodies, bonds.end_body[ea], bonds.end_local[ea]);
  const Vec3 yb = world_point(bodies, bonds.end_body[eb], bonds.end_local[eb]);
  switch (bonds.kind[i]) {
    case BondKind::Spring:
      return spring_energy(ya, yb, bonds.stiffness[i], bonds.rest_length[i]);
    case BondKind::Point:
      return bonds.hard[i] ? point_energy(ya, yb, bonds.penalty[i], bonds.lambda[i])
                           : point_energy(ya, yb, bonds.stiffness[i], Vec3{});
    case BondKind::Line: {
      const Vec3 d = line_direction(bodies, bonds, i);
      return bonds.hard[i] ? line_energy(ya, yb, d, bonds.penalty[i], bonds.lambda[i])
                           : line_energy(ya, yb, d, bonds.stiffness[i], Vec3{});
    }
    case BondKind::Distance:
      return distance_energy(ya, yb, bonds.rest_length[i], bonds.penalty[i], bonds.lambda[i].x);
    case BondKind::HingeLimit:
    case BondKind::SliderLimit:
    case BondKind::HingeDrive:
    case BondKind::SliderDrive:
      return axis_bond_energy(bodies, bonds, i);
  }
  return 0;
}

}  // namespace pabd
