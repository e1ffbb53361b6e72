// Per-body kernels of the step (the paper's Algorithm 1), one call per body.
#pragma once

#include "math/affine_system.h"
#include "math/polar.h"
#include "math/so3.h"
#include "model/body_arrays.h"
#include "model/bond_arrays.h"
#include "model/contact_arrays.h"

namespace pabd {

/// Inputs shared by every body in a step.
struct StepConstants {
  Real h = 0;                  ///< time step [s]
  Vec3 gravity;                ///< [m/s^2]
  bool exact_rotation = true;  ///< exp/log maps (true) or the paper's first order (false)
  bool rigid_local = true;     ///< LocalStep::Rigid (true) or LocalStep::Paper (false)
  /// Largest turn of a body in one step [rad] (WorldDef::max_rotation_per_step).
  Real max_rotation = Real(3.141592653589793);
};

/// Prediction: v* = v + h g, c* = c + h v*, Q* = exp(h w) Q; the iterate starts
/// at the inertial target s = q*.
PABD_HD void predict_kernel(const BodyArrays& b, int i, const StepConstants& k) {
  const Quat q0 = b.orientation[i];
  // Every body's start and target are written, a static body's too (nothing
  // reads those), so that a device need not upload them (view_mirror.h).
  b.start_position[i] = b.position[i];
  b.start_orientation[i] = q0;
  b.start_affine[i] = b.affine[i];
  if (b.is_static[i]) {
    // A static body does not move in the step, whatever it held as a dynamic one.
    b.target_position[i] = b.position[i];
    b.target_affine[i] = b.affine[i];
    b.motion[i] = BodyMotion{};
    return;
  }

  const Vec3 v = b.velocity[i] + k.h * k.gravity;
  const Vec3 c = b.position[i] + k.h * v;
  const Vec3 w = b.angular_velocity[i];
  Quat q;
  if (k.exact_rotation) {
    q = normalized(quat_exp(k.h * w) * q0);
  } else {
    const Quat dq = Quat{0, w.x, w.y, w.z} * q0;
    const Real s = Real(0.5) * k.h;
    q = normalized(Quat{q0.w + s * dq.w, q0.x + s * dq.x, q0.y + s * dq.y, q0.z + s * dq.z});
  }
  const Mat3 a = to_matrix(q);
  b.target_position[i] = c;
  b.target_affine[i] = a;
  set_iterate_pose(b, i, c, q, a);
}

/// The body's 12x12 system with its inertial term and its bond ends.
PABD_HD_ALWAYS_INLINE AffineSystem body_bond_system(const BodyArrays& b, const BondArrays& bonds,
                                                    int i, const StepConstants& k) {
  AffineSystem sys =
      inertial_system(b.mass[i], b.affine_inertia[i], b.target_position[i], b.target_affine[i]);
  for (int e_at = b.end_begin[i]; e_at < b.end_begin[i + 1]; ++e_at) {
    const int e = b.end_index[e_at];
    add_bond_end(sys, bonds.end_weight[e], bonds.end_local[e], bonds.end_pull[e], !k.rigid_local);
  }
  return sys;
}

/// The local step: body i's new pose from its gathered system.
///
/// Rigid (default): the exact minimiser of the system's quadratic model over
/// rigid poses, R = closest rotation to B, c = (r_c - R b) / a (see
/// affine_system.h). It moves the body as a rigid body would: a bond far from
/// the centre of mass cannot be absorbed by stretching A and thrown away by the
/// projection, and torques act through the true inertia tr(Pi) I - Pi.
/// Paper: q = H^-1 rhs, then the rotation closest to A in Frobenius norm.
PABD_HD_ALWAYS_INLINE void body_local_step(const BodyArrays& b, int i, const AffineSystem& sys,
                                           const StepConstants& k) {
  if (k.rigid_local) {
    const Quat q = rotation_closest_to(reduced_affine_rhs(sys), b.orientation[i]);
    const Mat3 r = to_matrix(q);
    set_iterate_pose(b, i, translation_for(sys, r), q, r);
  } else {
    Vec3 c;
    Mat3 a;
    solve_affine_system(sys, c, a);
    const Quat q = rotation_closest_to(a, b.orientation[i]);
    set_iterate_pose(b, i, c, q, to_matrix(q));
  }
}

/// Global step (gather bond ends into the 12x12 system) then local step
/// (body_local_step). Reads only this body's data and the bond ends' weights
/// and pulls, so it may update the body in place. The body's bond ends are
/// gathered first, then its contact pairs' ends (if any).
PABD_HD void global_local_kernel(const BodyArrays& b, const BondArrays& bonds,
                                 const ContactEnds& contacts, int i, const StepConstants& k) {
  if (b.is_static[i]) return;
  AffineSystem sys = body_bond_system(b, bonds, i, k);
  if (contacts.begin) {
    for (int e_at = contacts.begin[i]; e_at < contacts.begin[i + 1]; ++e_at) {
      const int e = contacts.index[e_at];
      // Skipped, not added as zeros: most speculative contacts do not push.
      if (contacts.weight[e] == 0) continue;
      add_bond_end_sums(sys, contacts.sums[e],
                        k.rigid_local ? nullptr : contacts.second_moment + e);
    }
  }
  body_local_step(b, i, sys, k);
}

/// The same without contacts.
PABD_HD void global_local_kernel(const BodyArrays& b, const BondArrays& bonds, int i,
                                 const StepConstants& k) {
  global_local_kernel(b, bonds, ContactEnds{}, i, k);
}

/// Velocity recovery: v = (c^{n+1} - c^n) / h; w from the rotation between the
/// start and end of the step (exact logarithm, or the paper's (dA A^-1 - its
/// transpose) / 2h).
PABD_HD void velocity_kernel(const BodyArrays& b, int i, const StepConstants& k) {
  if (b.is_static[i]) return;
  const Real inv_h = Real(1) / k.h;
  b.velocity[i] = inv_h * (b.position[i] - b.start_position[i]);
  const Quat q0 = b.start_orientation[i];
  Quat q1 = same_hemisphere(b.orientation[i], q0);
  // The step's turn, capped at max_rotation (see StepConstants).
  const Vec3 turn = quat_log(q1 * conjugate(q0));
  const Real angle = length(turn);
  if (angle > k.max_rotation) {
    q1 = normalized(quat_exp((k.max_rotation / angle) * turn) * q0);
    b.affine[i] = to_matrix(q1);
  }
  b.orientation[i] = q1;
  if (k.exact_rotation) {
    b.angular_velocity[i] = inv_h * quat_log(q1 * conjugate(q0));
  } else {
    // A^n is a rotation, so (A^n)^-1 = (A^n)^T.
    const Mat3 w = inv_h * ((b.affine[i] - b.start_affine[i]) * transpose(b.start_affine[i]));
    b.angular_velocity[i] = {Real(0.5) * (w.m[2][1] - w.m[1][2]),
                             Real(0.5) * (w.m[0][2] - w.m[2][0]),
                             Real(0.5) * (w.m[1][0] - w.m[0][1])};
  }
}

/// Inertial part of the variational energy, 1/(2h^2) |q - s|_M^2 [J].
PABD_HD Real inertial_energy_kernel(const BodyArrays& b, int i, Real h) {
  if (b.is_static[i]) return 0;
  const Vec3 dc = b.position[i] - b.target_position[i];
  const Mat3 da = b.affine[i] - b.target_affine[i];
  const Mat3& pi = b.affine_inertia[i];
  Real e = b.mass[i] * dot(dc, dc);
  for (int r = 0; r < 3; ++r) {
    const Vec3 ar = row(da, r);
    e += dot(ar, pi * ar);
  }
  return e / (Real(2) * h * h);
}

/// Kinetic energy of body i [J]: m v^2 / 2 plus the affine part's, with
/// A' = [w]x A and its rows weighted by the second moments Pi as in the
/// inertial energy above (for a rigid A this is w.I w / 2).
PABD_HD Real kinetic_energy_kernel(const BodyArrays& b, int i) {
  if (b.is_static[i]) return 0;
  const Vec3 v = b.velocity[i];
  const Vec3 w = b.angular_velocity[i];
  const Mat3& a = b.affine[i];
  Mat3 rate;  // [w]x A, column by column
  for (int c = 0; c < 3; ++c) {
    const Vec3 col = cross(w, Vec3{a.m[0][c], a.m[1][c], a.m[2][c]});
    rate.m[0][c] = col.x;
    rate.m[1][c] = col.y;
    rate.m[2][c] = col.z;
  }
  const Mat3& pi = b.affine_inertia[i];
  Real e = b.mass[i] * dot(v, v);
  for (int r = 0; r < 3; ++r) {
    const Vec3 ar = row(rate, r);
    e += dot(ar, pi * ar);
  }
  return e / 2;
}

/// True when every number of body i's state is finite.
PABD_HD bool body_state_finite(const BodyArrays& b, int i) {
  const Vec3 vs[3] = {b.position[i], b.velocity[i], b.angular_velocity[i]};
  bool ok = true;
  for (const Vec3& v : vs)
    ok = ok && std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
  const Quat q = b.orientation[i];
  return ok && std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}

}  // namespace pabd
