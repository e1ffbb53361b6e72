// The AVBD baseline's per-body kernel (Giles et al. 2025, "Augmented Vertex
// Block Descent"): one Newton step of body i on the step's variational energy
// with every other body held fixed (a block of Gauss-Seidel; the caller runs
// the bodies of one colour at a time, so neighbours never move concurrently).
//
// The inertial term is PABD's, so both solvers minimise the same energy:
// E_I = 1/(2h^2) (m |c - s_c|^2 + tr((R - S) Pi (R - S)^T)). About the current
// iterate, R(theta) = exp([theta]x) R, its gradient is
//   dE_I/dc = m (c - s_c) / h^2,   dE_I/dtheta = vee(W - W^T) / h^2,  W = R Pi S^T
// (vee(X)_x = X_zy, ...), exact at any distance from the target. Its Hessian
// at R = S is the world-frame inertia tensor I_w = R (tr(Pi) I - Pi) R^T; AVBD's
// lhs uses m/h^2 and I_w/h^2 (positive definite everywhere), NOT the body-frame
// inertia of AVBD's 3D demo.
//
// Also here: AVBD's adaptive initial guess (from VBD), which starts the
// iterations where the body is likely to end: a body whose last step did not
// accelerate along gravity (held up) starts without the h^2 g drop.
#pragma once

#include "avbd/avbd_bond_terms.h"
#include "avbd/block_system.h"
#include "math/so3.h"
#include "model/body_arrays.h"
#include "model/bond_arrays.h"

namespace pabd {

/// Adds the inertial term of body i (gradient and M/h^2) to its system.
PABD_HD void add_inertial_term(BlockSystem& s, const BodyArrays& b, int i, Real inv_h2) {
  const Real m = b.mass[i];
  const Vec3 gc = (m * inv_h2) * (b.position[i] - b.target_position[i]);
  const Mat3& r = b.affine[i];
  const Mat3& pi = b.affine_inertia[i];
  const Mat3 w = r * pi * transpose(b.target_affine[i]);
  const Vec3 gt{w.m[2][1] - w.m[1][2], w.m[0][2] - w.m[2][0], w.m[1][0] - w.m[0][1]};
  const Mat3 inertia = r * (trace(pi) * identity3() - pi) * transpose(r);
  s.grad[0] += gc.x;
  s.grad[1] += gc.y;
  s.grad[2] += gc.z;
  s.grad[3] += inv_h2 * gt.x;
  s.grad[4] += inv_h2 * gt.y;
  s.grad[5] += inv_h2 * gt.z;
  add_block(s, 0, 0, (m * inv_h2) * identity3());
  add_block(s, 3, 3, inv_h2 * inertia);
}

/// One AVBD block update of dynamic body i: gather the inertial term and its
/// bond ends (CSR, in bond order; hard bonds stabilized by `st`), solve the 6x6
/// system, move the body. Reads the current pose of its neighbours (other
/// colours) and the bonds' kappa and lambda; writes only body i.
PABD_HD void avbd_body_kernel(const BodyArrays& b, const BondArrays& bonds, int i, Real h,
                              const AvbdStabilizerView& st = {}) {
  if (b.is_static[i]) return;
  BlockSystem s;
  add_inertial_term(s, b, i, Real(1) / (h * h));
  for (int e_at = b.end_begin[i]; e_at < b.end_begin[i + 1]; ++e_at)
    add_avbd_bond_end(s, b, bonds, b.end_index[e_at], st);
  Real rhs[6], dx[6];
  for (int k = 0; k < 6; ++k) rhs[k] = -s.grad[k];
  // lhs >= M/h^2 > 0, so only non-finite input fails; pass it on to the
  // step's non-finite check instead of hiding it.
  if (!solve_ldlt6(s.lhs, rhs, dx))
    for (Real& v : dx) v = Real(NAN);
  b.position[i] = b.position[i] + Vec3{dx[0], dx[1], dx[2]};
  const Quat q = normalized(quat_exp(Vec3{dx[3], dx[4], dx[5]}) * b.orientation[i]);
  b.orientation[i] = q;
  b.affine[i] = to_matrix(q);
}

/// AVBD's adaptive initial guess for body i, after predict_kernel has put it at
/// the inertial target c + h v + h^2 g: its centre starts instead at
/// c^0 = c + h v + h^2 a g/|g|, a = clamp((v^n - v^(n-1)) / h . g/|g|, 0, |g|),
/// the last step's acceleration along gravity (a body held up starts where it
/// is, a falling one at the target); the turn stays at the target's. Without
/// history (`has_history` false: the first AVBD step, or the body count
/// changed) the body stays at the target, as PABD starts. Then records v^n in
/// last_start_velocity[i] for the next step. Writes only body i.
PABD_HD void avbd_initial_guess_kernel(const BodyArrays& b, Vec3* last_start_velocity, int i,
                                       Real h, Vec3 gravity, bool has_history) {
  if (b.is_static[i]) return;
  const Vec3 v = b.velocity[i];  // v^n: predict_kernel leaves it in place
  const Real g = length(gravity);
  if (has_history && g > 0) {
    const Vec3 down = (Real(1) / g) * gravity;
    const Real along = dot(v - last_start_velocity[i], down) / h;
    const Real a = along > 0 ? (along < g ? along : g) : Real(0);  // NaN: 0, as AVBD's demo
    b.position[i] = b.start_position[i] + h * v + (h * h * a) * down;
  }
  last_start_velocity[i] = v;
}

}  // namespace pabd
