// Convergence acceleration of PABD's iterations: Chebyshev semi-iteration
// (Wang 2015, "A Chebyshev semi-iterative approach for accelerating projective
// and position-based dynamics") and relaxation, as one per-body kernel run
// after each iteration's solve, before the multiplier update:
//
//   q^{k+1} = omega_{k+1} (gamma (q^ - q^k) + q^k - q^{k-1}) + q^{k-1}
//
// with q^ the iteration's plain result. omega_1 = 1, omega_2 = 2 / (2 - rho^2),
// omega_{k+1} = 4 / (4 - rho^2 omega_k) for a spectral radius estimate rho;
// rho = 0 leaves omega = 1 and plain relaxation by gamma (gamma < 1 damps,
// gamma > 1 over-relaxes). The centre of mass is extrapolated as a vector; the
// orientation as a quaternion (all three in one hemisphere), renormalised, so
// the pose stays rigid.
//
// Chebyshev's extrapolation is for the bodies where the plain iteration is
// slow and the iteration is the fixed linear one the semi-iteration assumes
// (accelerates_body): bodies on a hard point bond that carries load beyond
// its own two bodies (joint_load.h), whose penalty then dominates their mass
// (a light chain holding a heavy body), and on no contact pushing, joint
// limit engaged or drive acting this iteration. Those switch between laws (a
// contact lets go, a limit engages, a motor saturates); extrapolated across
// such a switch a body overshoots: with every body extrapolated a 10-box stack
// flew apart, a position drive settled off its target and a hinge stopped
// short of its limit. And where the plain iteration already converges within
// the step (a single hinged bar, a spring net) extrapolation only adds error:
// a kicked hinge's anchor opened by 1.5 mm instead of 6e-7 m. The others take
// omega = 1 (relaxation by gamma still applies); their iterate history still
// advances, so they are extrapolated again once the switch lets go.
#pragma once

#include "bonds/joint_load.h"
#include "math/so3.h"
#include "model/body_arrays.h"
#include "model/bond_arrays.h"
#include "model/contact_arrays.h"

namespace pabd {

/// omega for iteration k (0-based) from the previous iteration's omega.
PABD_HD Real chebyshev_omega(int k, Real rho, Real previous_omega) {
  if (k == 0 || rho == 0) return 1;
  if (k == 1) return Real(2) / (Real(2) - rho * rho);
  return Real(4) / (Real(4) - rho * rho * previous_omega);
}

/// One coordinate of the accelerated iterate.
PABD_HD Real accelerated(Real hat, Real k, Real km1, Real omega, Real gamma) {
  return omega * (gamma * (hat - k) + k - km1) + km1;
}

/// True when body i is extrapolated this iteration: a hard point bond on it
/// carries load beyond its own bodies, and no contact pushes it and no joint
/// limit or drive bond acts on it (see the top of this file).
PABD_HD bool accelerates_body(const BodyArrays& b, const BondArrays& bonds,
                              const ContactEnds& contacts, int i) {
  if (contacts.begin)
    for (int at = contacts.begin[i]; at < contacts.begin[i + 1]; ++at)
      if (contacts.weight[contacts.index[at]] != 0) return false;
  bool loaded = false;
  for (int at = b.end_begin[i]; at < b.end_begin[i + 1]; ++at) {
    const int e = b.end_index[at], bond = e / 2;
    const BondKind kind = bonds.kind[bond];
    const bool switching = kind == BondKind::HingeLimit || kind == BondKind::SliderLimit ||
                           kind == BondKind::HingeDrive || kind == BondKind::SliderDrive;
    if (switching && bonds.end_weight[e] != 0) return false;
    if (kind == BondKind::Point && bonds.hard[bond] && bonds.mass_behind) {
      Real inv = 0;
      for (int side = 0; side < 2; ++side) {
        const int x = bonds.end_body[2 * bond + side];
        if (x >= 0 && !b.is_static[x]) inv += Real(1) / b.mass[x];
      }
      loaded = loaded || (inv > 0 && joint_carries_load(bonds.mass_behind[bond], Real(1) / inv));
    }
  }
  return loaded;
}

/// Start of the iterations: q^k = q^(k-1) = q^0.
PABD_HD void acceleration_start_kernel(const BodyArrays& b, int i) {
  b.iterate_position[i] = b.previous_position[i] = b.position[i];
  b.iterate_orientation[i] = b.previous_orientation[i] = b.orientation[i];
}

/// After an iteration's solve: the accelerated iterate replaces q^.
PABD_HD void acceleration_kernel(const BodyArrays& b, int i, Real omega, Real gamma) {
  if (b.is_static[i]) return;
  const Vec3 c_hat = b.position[i];
  const Vec3 c_k = b.iterate_position[i];
  const Vec3 c_km1 = b.previous_position[i];
  const Vec3 c = {accelerated(c_hat.x, c_k.x, c_km1.x, omega, gamma),
                  accelerated(c_hat.y, c_k.y, c_km1.y, omega, gamma),
                  accelerated(c_hat.z, c_k.z, c_km1.z, omega, gamma)};

  const Quat q_k = b.iterate_orientation[i];
  const Quat q_hat = same_hemisphere(b.orientation[i], q_k);
  const Quat q_km1 = same_hemisphere(b.previous_orientation[i], q_k);
  const Quat q = normalized(Quat{accelerated(q_hat.w, q_k.w, q_km1.w, omega, gamma),
                                 accelerated(q_hat.x, q_k.x, q_km1.x, omega, gamma),
                                 accelerated(q_hat.y, q_k.y, q_km1.y, omega, gamma),
                                 accelerated(q_hat.z, q_k.z, q_km1.z, omega, gamma)});

  b.previous_position[i] = c_k;
  b.previous_orientation[i] = q_k;
  b.iterate_position[i] = c;
  b.iterate_orientation[i] = q;
  set_iterate_pose(b, i, c, q, to_matrix(q));
}

}  // namespace pabd
