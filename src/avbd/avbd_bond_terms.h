// The AVBD baseline's per-bond laws: what one bond end adds to its body's 6x6
// Newton system (gradient, Hessian) and the augmented-Lagrangian dual update.
//
// Same bonds and the same energies as PABD (src/bonds/*_bond.h), differentiated
// with respect to a body's dx = (dc, dtheta) instead of split into weights and
// targets. A material point of the body is y = c + r with lever r = R x, so
// dy = dc - [r]x dtheta: the point Jacobian is J = [I | -[r]x]. Per kind, with
// f = dE/dC and K ~ d^2E/dC^2 for the bond's constraint C:
//
//   Spring    E = k/2 (d - l)^2, d = |y_b - y_a|, n = (y_b - y_a)/d:
//             point force -+k (d - l) n, Hessian k n n^T + k (d - l)/d (I - n n^T)
//             with the second term clamped at 0 (VBD's PSD projection).
//   Point     C = y_a - y_b; soft k/2 |C|^2, hard kappa/2 |C|^2 + lambda . C:
//             f = k C or kappa C + lambda, K = k I or kappa I (exact: C is linear in y).
//   Line      C = P (y_a - y_b), P = I - d d^T, d = R_a axis turns with body a:
//             end b: J_C = -P J; end a also through d, J_C = [P | -P[r]x + (d.u)[d]x
//             + d (u x d)^T] with u = y_a - y_b; K = kappa I (Gauss-Newton).
//   Distance  C = |y_b - y_a| - L: point force -+f n with f = kappa C + lambda,
//             Hessian kappa n n^T + max(f, 0)/d (I - n n^T).
//
// The rotation of the lever adds a geometric stiffness that AVBD lumps onto
// the diagonal (add_lever_geometric_stiffness). Unknown kinds add nothing (the
// host rejects them before the step, avbd_step.cpp).
//
// Stabilization (docs/avbd.md): hard bonds solve C*(x) = C(x) - alpha C(x^n),
// C(x^n) stored per bond at the start of the step (avbd_start_violation_kernel).
// For every kind this is the same bond with its target moved by alpha C(x^n):
// point C* = y_a - (y_b + alpha C0); line C* = P (y_a - y_b - alpha C0), the kept
// error measured across the current line (along it the bond must stay free);
// distance C* = d - (L + alpha C0). So the energies, gradients and Hessians above
// hold with y_b, or L, shifted; soft bonds and springs are never stabilized.
#pragma once

#include "avbd/block_system.h"
#include "model/body_arrays.h"
#include "model/bond_arrays.h"

namespace pabd {

/// The part of v across the unit direction d.
PABD_HD Vec3 avbd_across(Vec3 v, Vec3 d) { return v - dot(v, d) * d; }

/// World direction of line bond i (its axis turned with end a's body).
PABD_HD Vec3 avbd_line_direction(const BodyArrays& bodies, const BondArrays& bonds, int i) {
  const int a = bonds.end_body[2 * i];
  return a < 0 ? bonds.axis[i] : bodies.affine[a] * bonds.axis[i];
}

/// A point term: force g = dE/dy and PSD Hessian h on the point y = c + r.
/// add_jacobian_term with J = [I | -[r]x], written out (the hot case):
/// grad += (g, r x g), lhs += [h, -h[r]x; [r]x h, -[r]x h [r]x].
PABD_HD void add_point_term(BlockSystem& s, Vec3 r, Vec3 g, const Mat3& h) {
  const Vec3 torque = cross(r, g);
  s.grad[0] += g.x;
  s.grad[1] += g.y;
  s.grad[2] += g.z;
  s.grad[3] += torque.x;
  s.grad[4] += torque.y;
  s.grad[5] += torque.z;
  const Mat3 rx = skew_matrix(r);
  const Mat3 hr = h * rx;
  add_block(s, 0, 0, h);
  add_block(s, 0, 3, Real(-1) * hr);
  add_block(s, 3, 0, Real(-1) * transpose(hr));
  add_block(s, 3, 3, Real(-1) * (rx * hr));
  add_lever_geometric_stiffness(s, r, g);
}

/// Spring and distance: energy of the length d along n = (y_b - y_a)/d with
/// dE/dd = f and d^2E/dd^2 = k; Hessian on either point k n n^T + f/d (I - n n^T),
/// projected to PSD by clamping f/d at 0. `sign` is -1 for end a, +1 for end b.
PABD_HD void add_length_term(BlockSystem& s, Vec3 r, Vec3 ya, Vec3 yb, Real f, Real k, Real sign) {
  const Vec3 ab = yb - ya;
  const Real d = length(ab);
  if (!(d > Real(1e-12))) {  // the direction is undefined: stiffness only
    add_point_term(s, r, Vec3{}, k * identity3());
    return;
  }
  const Vec3 n = (Real(1) / d) * ab;
  const Real across = f > 0 ? f / d : Real(0);
  const Mat3 h = k * outer(n, n) + across * (identity3() - outer(n, n));
  add_point_term(s, r, (sign * f) * n, h);
}

/// What the bond kernels need for AVBD's stabilized constraint
/// C*(x) = C(x) - alpha C(x^n) of hard bonds (storage: avbd_scratch.h).
struct AvbdStabilizerView {
  const Vec3* start_violation = nullptr;  ///< per bond C(x^n) [m]; nullptr: C* = C
  Real alpha = 0;                         ///< share of the start-of-step error kept [-]
};

/// The start-of-step error that hard bond i keeps this iteration, alpha C(x^n);
/// 0 for soft bonds or without stabilization.
PABD_HD Vec3 avbd_kept_error(const BondArrays& bonds, const AvbdStabilizerView& st, int i) {
  if (st.start_violation == nullptr || !bonds.hard[i]) return Vec3{};
  return st.alpha * st.start_violation[i];
}

/// Adds bond end e (end e of bond e / 2, on a dynamic body) to that body's
/// system; hard bonds use the stabilized constraint C* of `st`.
PABD_HD void add_avbd_bond_end(BlockSystem& s, const BodyArrays& bodies, const BondArrays& bonds,
                               int e, const AvbdStabilizerView& st = {}) {
  const int i = e / 2, ea = 2 * i, eb = 2 * i + 1;
  const Vec3 kept = avbd_kept_error(bonds, st, i);
  const bool is_a = e == ea;
  const int body = bonds.end_body[e];
  const Vec3 r = bodies.affine[body] * bonds.end_local[e];
  const Vec3 ya = world_point(bodies, bonds.end_body[ea], bonds.end_local[ea]);
  const Vec3 yb = world_point(bodies, bonds.end_body[eb], bonds.end_local[eb]);
  const Real sign = is_a ? Real(-1) : Real(1);
  switch (bonds.kind[i]) {
    case BondKind::Spring: {
      const Real k = bonds.stiffness[i];
      add_length_term(s, r, ya, yb, k * (length(yb - ya) - bonds.rest_length[i]), k, sign);
      break;
    }
    case BondKind::Distance: {
      const Real kappa = bonds.penalty[i];
      const Real c = length(yb - ya) - bonds.rest_length[i] - kept.x;
      add_length_term(s, r, ya, yb, kappa * c + bonds.lambda[i].x, kappa, sign);
      break;
    }
    case BondKind::Point: {
      const bool hard = bonds.hard[i] != 0;
      const Real k = hard ? bonds.penalty[i] : bonds.stiffness[i];
      const Vec3 f = k * (ya - yb - kept) + (hard ? bonds.lambda[i] : Vec3{});
      add_point_term(s, r, (-sign) * f, k * identity3());  // dC/dy_a = I, dC/dy_b = -I
      break;
    }
    case BondKind::Line: {
      const bool hard = bonds.hard[i] != 0;
      const Real k = hard ? bonds.penalty[i] : bonds.stiffness[i];
      const Vec3 d = avbd_line_direction(bodies, bonds, i);
      const Vec3 u = ya - yb - kept;
      const Vec3 f = k * avbd_across(u, d) + (hard ? avbd_across(bonds.lambda[i], d) : Vec3{});
      const Mat3 p = identity3() - outer(d, d);
      const Mat3 ja_point = p * skew_matrix(r);  // P [r]x
      if (is_a) {
        // Through y_a and through the direction d, which turns with body a.
        const Mat3 ja = dot(d, u) * skew_matrix(d) + outer(d, cross(u, d)) - ja_point;
        add_jacobian_term(s, p, ja, k * identity3(), f);
        add_lever_geometric_stiffness(s, r, p * f);
      } else {
        add_jacobian_term(s, Real(-1) * p, ja_point, k * identity3(), f);
        add_lever_geometric_stiffness(s, r, Real(-1) * (p * f));
      }
      break;
    }
    default:  // a kind AVBD does not know: rejected on the host, adds nothing here
      break;
  }
}

/// AVBD's dual update of hard bond i after an iteration, on the stabilized
/// constraint: lambda <- kappa C* + lambda, kappa <- min(kappa + beta |C*|, kappa_max).
PABD_HD void avbd_dual_kernel(const BodyArrays& bodies, const BondArrays& bonds, int i,
                              const HardBondSettings& s, const AvbdStabilizerView& st = {}) {
  if (!bonds.hard[i] || !s.augmented) return;
  const int ea = 2 * i, eb = 2 * i + 1;
  const Vec3 ya = world_point(bodies, bonds.end_body[ea], bonds.end_local[ea]);
  const Vec3 yb = world_point(bodies, bonds.end_body[eb], bonds.end_local[eb]);
  const Vec3 kept = avbd_kept_error(bonds, st, i);
  const Real kappa = bonds.penalty[i];
  Real violation = 0;
  switch (bonds.kind[i]) {
    case BondKind::Point: {
      const Vec3 c = ya - yb - kept;
      bonds.lambda[i] = kappa * c + bonds.lambda[i];
      violation = length(c);
      break;
    }
    case BondKind::Line: {
      const Vec3 d = avbd_line_direction(bodies, bonds, i);
      const Vec3 c = avbd_across(ya - yb - kept, d);
      bonds.lambda[i] = avbd_across(kappa * c + bonds.lambda[i], d);
      violation = length(c);
      break;
    }
    case BondKind::Distance: {
      const Real c = length(yb - ya) - bonds.rest_length[i] - kept.x;
      bonds.lambda[i].x += kappa * c;
      violation = c < 0 ? -c : c;
      break;
    }
    default:  // springs are soft; unknown kinds are rejected on the host
      return;
  }
  const Real grown = kappa + s.stiffness_growth * violation;
  bonds.penalty[i] = grown < s.stiffness_max ? grown : s.stiffness_max;
}

/// C(x) of hard bond i at the current pose into out[i] (0 for soft bonds);
/// called at the start of the step, before the prediction moves the bodies.
PABD_HD void avbd_start_violation_kernel(const BodyArrays& bodies, const BondArrays& bonds, int i,
                                         Vec3* out) {
  Vec3 c{};
  if (bonds.hard[i]) {
    const int ea = 2 * i, eb = 2 * i + 1;
    const Vec3 ya = world_point(bodies, bonds.end_body[ea], bonds.end_local[ea]);
    const Vec3 yb = world_point(bodies, bonds.end_body[eb], bonds.end_local[eb]);
    switch (bonds.kind[i]) {
      case BondKind::Point:
        c = ya - yb;
        break;
      case BondKind::Line:
        c = avbd_across(ya - yb, avbd_line_direction(bodies, bonds, i));
        break;
      case BondKind::Distance:
        c.x = length(yb - ya) - bonds.rest_length[i];
        break;
      default:  // springs are soft; unknown kinds are rejected on the host
        break;
    }
  }
  out[i] = c;
}

/// AVBD's warm start of hard bond i at the start of a step:
/// kappa = max(gamma kappa_prev, kappa_start), lambda = alpha gamma lambda_prev,
/// or lambda kept whole with post-stabilization (`keep_lambda`, as AVBD's demo).
PABD_HD void avbd_warm_start_kernel(const BondArrays& bonds, int i, const HardBondSettings& s,
                                    bool keep_lambda = false) {
  if (!bonds.hard[i]) return;
  if (!s.augmented) {  // plain penalty of kappa_start, no multiplier
    bonds.penalty[i] = s.stiffness_start;
    bonds.lambda[i] = Vec3{};
    return;
  }
  const Real decayed = s.stiffness_decay * bonds.penalty[i];
  const Real kappa = decayed > s.stiffness_start ? decayed : s.stiffness_start;
  bonds.penalty[i] = kappa < s.stiffness_max ? kappa : s.stiffness_max;
  if (!keep_lambda) bonds.lambda[i] = (s.lambda_decay * s.stiffness_decay) * bonds.lambda[i];
}

}  // namespace pabd
