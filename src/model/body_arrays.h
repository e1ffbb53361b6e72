// Struct-of-arrays views of the body data, as the kernels see them.
//
// Three groups, by how hot they are:
// - model (constant during a step): mass, affine inertia, static flag;
// - state (what a step advances): c, A (kept equal to R(orientation)), velocities;
// - step scratch: the start-of-step pose and the inertial target s.
// The World owns the storage (std::vector); kernels get these raw pointers, so
// the same kernel runs on host arrays or on device copies.
#pragma once

#include <cstdint>

#include "pabd/math.h"

namespace pabd {

/// How far a body moved since the start of the step, in one 32-byte record
/// that a contact's idle test reads of each of its two bodies (contacts/
/// contact_kernels.h, pair_motion): a pile's body tests about 26 listed pair
/// ends per iteration, each against its neighbour's motion, which as separate
/// arrays (is_static, position, start_position, turn_norm) took four cache
/// lines per neighbour, and most were misses once the pile outgrew the cache.
struct alignas(32) BodyMotion {
  /// c - c^n at the current iterate; zero for a static body [m].
  Vec3 translation;
  /// A bound on |A - A^n|_F, the Frobenius norm of the turn since the start
  /// of the step, which bounds how far it moved a material point at distance
  /// r from the centre, by r |A - A^n|_F (contact_kernels.h uses it to skip
  /// contacts that cannot touch yet); zero for a static body.
  Real turn = 0;
};

struct BodyArrays {
  int count = 0;  ///< number of bodies (static ones included)

  // Model.
  const Real* mass = nullptr;               ///< [kg]; 0 for static bodies
  const Mat3* affine_inertia = nullptr;     ///< Pi, body frame [kg m^2]
  const std::uint8_t* is_static = nullptr;  ///< 1 = never moves
  const Real* linear_damping = nullptr;     ///< [1/s]
  const Real* angular_damping = nullptr;    ///< [1/s]

  // Inputs of the next step, cleared after it (external_velocity.h).
  const Vec3* applied_force = nullptr;   ///< on the centre, world frame [N]
  const Vec3* applied_torque = nullptr;  ///< about the centre, world frame [N m]

  // State: the current iterate during a step, the end-of-step state after it.
  Vec3* position = nullptr;          ///< c [m]
  Mat3* affine = nullptr;            ///< A (a proper rotation after each local step)
  Quat* orientation = nullptr;       ///< quaternion of A
  Vec3* velocity = nullptr;          ///< [m/s]
  Vec3* angular_velocity = nullptr;  ///< world frame [rad/s]

  // Step scratch.
  Vec3* start_position = nullptr;        ///< c^n
  Quat* start_orientation = nullptr;     ///< Q^n
  Mat3* start_affine = nullptr;          ///< A^n
  Vec3* target_position = nullptr;       ///< s_c, the inertial target
  Mat3* target_affine = nullptr;         ///< s_A
  Vec3* iterate_position = nullptr;      ///< acceleration: c^k, the iterate before the last solve
  Quat* iterate_orientation = nullptr;   ///< acceleration: Q^k
  Vec3* previous_position = nullptr;     ///< acceleration: c^(k-1)
  Quat* previous_orientation = nullptr;  ///< acceleration: Q^(k-1)
  /// Per body, at the current iterate: its motion since the start of the
  /// step (BodyMotion), written with the pose by set_iterate_pose, and zero
  /// for a static body (predict_kernel).
  BodyMotion* motion = nullptr;

  // Body-to-bond-end adjacency (CSR): the ends touching body i are
  // end_index[end_begin[i] .. end_begin[i+1]); end e belongs to bond e / 2.
  const int* end_begin = nullptr;
  const int* end_index = nullptr;
};

/// World position of material point x of body `body` (or x itself for the world, body < 0).
PABD_HD_ALWAYS_INLINE Vec3 world_point(const BodyArrays& bodies, int body, Vec3 x) {
  return body < 0 ? x : bodies.affine[body] * x + bodies.position[body];
}

/// An upper bound on |A - A^n|_F from the quaternions q and q^n, which are
/// fewer numbers to read than the matrices. For a turn by theta,
/// |A - A^n|_F = 2 sqrt(2) sin(theta / 2) <= 2 sqrt(2) |q - q^n|
/// (= 4 sqrt(2) sin(theta / 4), with q in q^n's hemisphere; q and -q are the
/// same turn, so the smaller of |q - q^n| and |q + q^n|).
PABD_HD Real turn_norm_bound(Quat q, Quat q0) {
  const Real dw = q.w - q0.w, dx = q.x - q0.x, dy = q.y - q0.y, dz = q.z - q0.z;
  const Real sw = q.w + q0.w, sx = q.x + q0.x, sy = q.y + q0.y, sz = q.z + q0.z;
  const Real minus = dw * dw + dx * dx + dy * dy + dz * dz;
  const Real plus = sw * sw + sx * sx + sy * sy + sz * sz;
  return Real(2.8284271247461903) * std::sqrt(minus < plus ? minus : plus);
}

/// Sets body i's iterate to c, q (a unit quaternion) and a = R(q), with the
/// motion that goes with them: every stage that moves a body during the
/// iterations (the prediction, the local step, the acceleration) writes its
/// pose here, so the motion always matches the pose the contacts read.
PABD_HD_ALWAYS_INLINE void set_iterate_pose(const BodyArrays& b, int i, Vec3 c, Quat q,
                                            const Mat3& a) {
  b.position[i] = c;
  b.orientation[i] = q;
  b.affine[i] = a;
  b.motion[i] = BodyMotion{c - b.start_position[i], turn_norm_bound(q, b.start_orientation[i])};
}

}  // namespace pabd
