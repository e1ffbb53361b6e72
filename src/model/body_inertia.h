// A body's inertia about its centre in the world frame, from its affine
// inertia: I = R (tr(Pi) I3 - Pi) R^T. Used where a torque or an impulse turns
// into a change of angular velocity (restitution, applied torques).
#pragma once

#include "math/affine_system.h"
#include "model/body_arrays.h"

namespace pabd {

/// I^-1 x for body i's world inertia I = R (tr(Pi) I3 - Pi) R^T at its current pose.
PABD_HD Vec3 world_inverse_inertia_times(const BodyArrays& b, int i, Vec3 x) {
  const Mat3& r = b.affine[i];
  const Mat3& pi = b.affine_inertia[i];
  const Mat3 inertia = trace(pi) * identity3() - pi;
  return r * (inverse_symmetric3(inertia) * (transpose(r) * x));
}

}  // namespace pabd
