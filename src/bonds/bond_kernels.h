// Per-bond kernels: one call per bond, dispatching on the bond kind to the
// laws in src/bonds/*_bond.h. A new bond type is a new law header plus one case
// in each switch here; the solver (src/solver/) never changes.
#pragma once

#include "body/body_arrays.h"
#include "bonds/bond_arrays.h"
#include "bonds/distance_bond.h"
#include "bonds/line_bond.h"
#include "bonds/point_bond.h"
#include "bonds/spring_bond.h"

namespace pabd {

/// 1/m of a bond end's body; 0 for the world and static bodies (they never move).
PABD_HD Real inverse_mass(const BodyArrays& bodies, int body) {
  return (body < 0 || bodies.is_static[body]) ? Real(0) : Real(1) / bodies.mass[body];
}

/// End a's share of the two ends' inverse mass (1 against the world).
PABD_HD Real share_of_a(const BodyArrays& bodies, const BondArrays& bonds, int i) {
  const Real inv_a = inverse_mass(bodies, bonds.end_body[2 * i]);
  const Real inv_b = inverse_mass(bodies, bonds.end_body[2 * i + 1]);
  return inv_a / (inv_a + inv_b);
}

/// World direction of a line bond: its axis turned with end a's body.
PABD_HD Vec3 line_direction(const BodyArrays& bodies, const BondArrays& bonds, int i) {
  const int a = bonds.end_body[2 * i];
  return a < 0 ? bonds.axis[i] : bodies.affine[a] * bonds.axis[i];
}

/// Evaluates bond i at the current iterate and stores its ends' weights and pulls.
PABD_HD void bond_weights_kernel(const BodyArrays& bodies, const BondArrays& bonds, int i,
                                 Real h2) {
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
        const Real share_a = share_of_a(bodies, bonds, i);
        out = hard_point_weights(ya, yb, bonds.penalty[i], bonds.lambda[i], share_a,
                                 Real(1) - share_a, h2);
      } else {
        out = point_weights(ya, yb, bonds.stiffness[i], h2);
      }
      break;
    case BondKind::Line: {
      const Vec3 d = line_direction(bodies, bonds, i);
      if (bonds.hard[i]) {
        const Real share_a = share_of_a(bodies, bonds, i);
        out = hard_line_weights(ya, yb, d, bonds.penalty[i], bonds.lambda[i], share_a,
                                Real(1) - share_a, h2);
      } else {
        out = line_weights(ya, yb, d, bonds.stiffness[i], h2);
      }
      break;
    }
    case BondKind::Distance: {
      const Real share_a = share_of_a(bodies, bonds, i);
      out = hard_distance_weights(ya, yb, bonds.rest_length[i], bonds.penalty[i], bonds.lambda[i].x,
                                  share_a, Real(1) - share_a, h2);
      break;
    }
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
/// penalty never starts below m_eff / h^2 (dual_step_bound): a fixed
/// kappa_start of 1e4 N/m is nothing to a 1000 kg body (m / h^2 = 3.6e6), so
/// its multiplier winds up over many iterations and then throws the body
/// (a 1000 kg rod hung from one joint flipped over its pivot). AVBD users
/// report the same jitter; scaling the start penalty with the mass fixes it.
PABD_HD void bond_warm_start_kernel(const BodyArrays& bodies, const BondArrays& bonds, int i,
                                    const HardBondSettings& s, Real h2) {
  if (!bonds.hard[i]) return;
  if (!s.augmented) {  // plain penalty: the paper's Fig. 8c
    bonds.penalty[i] = s.stiffness_start;
    bonds.lambda[i] = Vec3{};
    return;
  }
  const Real mass_floor = dual_step_bound(bodies, bonds, i, h2);
  const Real floor = s.stiffness_start > mass_floor ? s.stiffness_start : mass_floor;
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
  }
  return 0;
}

}  // namespace pabd
